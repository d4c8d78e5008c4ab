"""Dashboard benchmark: every page's queries on a database of ``--hands`` hands (1,000,000 by
default), cold (first run on a freshly opened database) and warm (median of repeated runs).

The database is built in two steps: the committed demo sample (``data/demo/``: every variant,
Fantasyland, Double matches) goes through the real importer, then its stored rows are
replicated in SQL with new hand keys, hand ids, dates, sessions and opponent names until the
store holds ``--hands`` hands. So every table has realistic rows at full size in seconds, and
the queries see the shapes the importer writes.

Pages are a registry: :data:`PAGES` lists (page, [(query name, function(con, filters))]). A
query module of ``dashboard.queries`` may also define ``BENCHMARK_QUERIES`` (a list of
``(name, function(con, filters))``); it is picked up as a page named after the module. The
sidebar's own queries run on every page and are counted in each page's time.

    python benchmarks/bench_dashboard.py --hands 100000
    python benchmarks/bench_dashboard.py --db /tmp/bench.duckdb   # keep and reuse the store
    python benchmarks/bench_dashboard.py --db /tmp/bench.duckdb --me Hero,Hero2@fixture

The replicas are written around the importer, so the store's pre-aggregated tables are built
afterwards (``ingest.api.rebuild_aggregates``, timed); ``--rows-only`` times every page on the
rows instead (the code before them, on the same store).

``--me NAME[@SOURCE],...`` stores those names as the user's ("me") and times every page on
"me" instead of the one player (each name in every source, or only in SOURCE's hands).

The last line is JSON: per page cold and warm wall milliseconds, the warm page's CPU time (all
threads of the process), and the slowest warm page.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dashboard.queries import common, hands, notes, overview  # noqa: E402
from dashboard.queries.aggregated import rows_only  # noqa: E402
from dashboard.queries.common import Filters  # noqa: E402
from ingest.api import rebuild_aggregates  # noqa: E402
from ingest.hand_tables import HAND_TABLES  # noqa: E402

Query = Callable[[Any, Filters], Any]
TARGET_WARM_MS = 500
OPPONENT_NAMES = 200
"""Replicas rename the non-hero players into this many distinct opponents per seat name."""


def _sidebar(con: Any, filters: Filters) -> Any:
    """What the sidebar runs on a page load (as ``dashboard.filters.render_sidebar``)."""
    names = common.my_names(con)
    common.shared_seats(con, common.effective_names(con, names))
    common.default_player(con)
    return common.filter_options(con, filters.player, filters.me, filters.me_skip)


def _hand_page(con: Any, filters: Filters, page: hands.Page | None = None) -> Any:
    """Hand review's load: the filtered hands (a page of 500, the newest by default), the
    first one's place among all of them (newer, older, position), its note and tags, the tag
    choices, then everything about it."""
    found = hands.find_hands(con, filters, page=page)
    key = int(found.iloc[0]["hand_key"])
    hand = hands.hand(con, key)
    return (found, hands.place(con, filters, hands.HandSearch(), key), hand,
            notes.of_hand(con, hand["source"], hand["hand_id"]), notes.hand_tags(con),
            hands.players(con, key), hands.rows(con, key), hands.placements(con, key),
            hands.pairs(con, key), hands.events(con, key))


_OLDEST: dict[int, int] = {}


def _oldest_page(con: Any, filters: Filters) -> Any:
    """Hand review on the page that starts at the player's oldest hand (a keyset page at the
    far end of the list)."""
    if id(con) not in _OLDEST:  # found once per connection, outside what is compared
        _OLDEST.clear()
        _OLDEST[id(con)] = int(con.execute(
            "SELECT hand_key FROM hand_players WHERE player = ? ORDER BY played_at NULLS FIRST, "
            "hand_key LIMIT 1 OFFSET 499", [filters.player]).fetchone()[0])
    return _hand_page(con, filters, hands.Page(_OLDEST[id(con)]))


BENCH_TAG = "Bench"
"""The tag the built store puts on one hand in :data:`TAG_EVERY` (``hand_tags``)."""
TAG_EVERY = 100


def _tagged(fn: Query) -> Query:
    return lambda con, filters: fn(con, filters.with_(tag=BENCH_TAG))


PAGES: list[tuple[str, list[tuple[str, Query]]]] = [
    ("overview", [
        ("sidebar", _sidebar),
        ("summary", overview.summary),
        ("cumulative", overview.cumulative),
        ("sessions", overview.sessions),
    ]),
    ("hand_review", [
        ("sidebar", _sidebar),
        ("find_hands_and_first_hand", _hand_page),
    ]),
    ("hand_review_oldest_page", [
        ("sidebar", _sidebar),
        ("oldest_page_and_its_first_hand", _oldest_page),
    ]),
    ("tag_filter", [
        ("sidebar", _tagged(_sidebar)),
        ("overview_summary", _tagged(overview.summary)),
        ("overview_cumulative", _tagged(overview.cumulative)),
        ("hand_review", _tagged(_hand_page)),
    ]),
    ("hand_search", [
        ("not_fouled_royalties_10", lambda con, f: hands.find_hands(
            con, f, hands.HandSearch(fouled=False, royalties_min=10))),
        ("hand_id_contains", lambda con, f: hands.find_hands(
            con, f, hands.HandSearch(hand_id="#77"))),
        ("room_differs", lambda con, f: hands.find_hands(con, f, hands.HandSearch(differs=True))),
    ]),
]


def registry() -> list[tuple[str, list[tuple[str, Query]]]]:
    """:data:`PAGES` plus every query module's ``BENCHMARK_QUERIES``."""
    pages = list(PAGES)
    import dashboard.queries as package

    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"dashboard.queries.{info.name}")
        extra = getattr(module, "BENCHMARK_QUERIES", None)
        if extra:
            pages.append((info.name, [("sidebar", _sidebar), *extra]))
    return pages


# --- building the store ----------------------------------------------------------------------

KEYED_TABLES = tuple(t for t in HAND_TABLES if t != "hands")
"""The tables keyed by hand_key besides ``hands`` itself."""


def _columns(con: Any, table: str) -> list[str]:
    return [r[0] for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
        "ORDER BY ordinal_position", [table]).fetchall()]


COPIES_PER_BATCH = 200
"""Copies of the demo per ``INSERT`` (each batch its own transaction): at 10M hands one
statement for every copy held 14 GB; a batch of 200 copies (about 240,000 hands) holds a few
hundred MB, and the rows land in the same key order."""


def _replicate(con: Any, target: int, batch: int = COPIES_PER_BATCH) -> None:
    """Copy the stored hands ``k`` times (k = 1, 2, ...) until ``target`` hands: new keys,
    ``hand_id || '#k'``, dates shifted k days, sessions ``session || '#k'``, and the players
    other than each hand's hero renamed into :data:`OPPONENT_NAMES` opponents. The copies go
    in ``batch`` at a time, in key order, each batch committed (the same rows as one
    statement: ``tests/test_bench_build.py``); progress goes to stderr."""
    base, span = con.execute("SELECT count(*), max(hand_key) + 1 FROM hands").fetchone()
    copies = -(-target // base) - 1
    if copies <= 0:
        return
    con.execute("CREATE TEMP TABLE k AS SELECT range AS k FROM range(1, ?)", [copies + 1])
    con.execute("CREATE TEMP TABLE base_hero AS SELECT hand_key, hero FROM hands")
    inserts = _replica_inserts(con, span)
    started = time.perf_counter()
    for first in range(1, copies + 1, batch):
        last = min(first + batch - 1, copies)
        con.execute("BEGIN TRANSACTION")
        for sql in inserts:
            con.execute(sql, [span, first, last])
        con.execute("COMMIT")
        print(f"  copies {last:,}/{copies:,} ({(last + 1) * base:,} hands, "
              f"{time.perf_counter() - started:.0f} s)", file=sys.stderr)
    _trim(con, target)
    con.execute("CHECKPOINT")


def _replica_inserts(con: Any, span: int) -> list[str]:
    """One ``INSERT ... SELECT`` per table copying the base hands (keys below ``span``) for
    the copies ``k`` between its two last parameters, in key order as the importer appends."""
    rename = (f"CASE WHEN {{col}} = h.hero OR h.hero IS NULL THEN {{col}} "
              f"ELSE {{col}} || ' ' || CAST(k.k % {OPPONENT_NAMES} AS VARCHAR) END")
    exprs = {
        "hands": {"hand_key": f"h.hand_key + k.k * {span}", "hand_id": "h.hand_id || '#' || k.k",
                  "session_id": "h.session_id || '#' || k.k",
                  "match_id": "h.match_id || '#' || k.k",
                  "played_at": "h.played_at + to_days(CAST(k.k AS INTEGER))",
                  "button": rename.format(col="h.button")},
        "hand_players": {"player": rename.format(col="t.player"),
                         "session_id": "t.session_id || '#' || k.k",
                         "match_id": "t.match_id || '#' || k.k",
                         "played_at": "t.played_at + to_days(CAST(k.k AS INTEGER))"},
        "pairs": {"player": rename.format(col="t.player"),
                  "opponent": rename.format(col="t.opponent")},
        "events": {"by_player": rename.format(col="t.by_player")},
    }
    cols = _columns(con, "hands")
    select = ", ".join(exprs["hands"].get(c, f"h.{c}") for c in cols)
    inserts = [f"INSERT INTO hands SELECT {select} FROM hands h, k WHERE h.hand_key < ? "
               "AND k.k BETWEEN ? AND ? ORDER BY k.k, h.hand_key"]
    for table in KEYED_TABLES:
        cols = _columns(con, table)
        mapping = {"hand_key": f"t.hand_key + k.k * {span}", **exprs.get(table, {})}
        select = ", ".join(mapping.get(c, f"t.{c}") for c in cols)
        inserts.append(f"INSERT INTO {table} SELECT {select} FROM {table} t "
                       f"JOIN base_hero h ON h.hand_key = t.hand_key, k WHERE t.hand_key < ? "
                       f"AND k.k BETWEEN ? AND ? ORDER BY k.k, t.hand_key")
    return inserts


def _trim(con: Any, target: int) -> None:
    """Drop the newest hands past ``target`` (the last copy is cut to fit)."""
    extra = con.execute("SELECT count(*) FROM hands").fetchone()[0] - target
    if extra > 0:
        con.execute("CREATE TEMP TABLE drop_keys AS SELECT hand_key FROM hands "
                    "ORDER BY hand_key DESC LIMIT ?", [extra])
        for table in ("hands", *KEYED_TABLES):
            con.execute(f"DELETE FROM {table} WHERE hand_key IN (SELECT hand_key FROM drop_keys)")


def _tag(con: Any) -> None:
    """Tag one hand in :data:`TAG_EVERY` with :data:`BENCH_TAG` (what the tag filter finds)."""
    con.execute(f"""
        INSERT INTO hand_tags SELECT source, hand_id, 0, '{BENCH_TAG}', lower('{BENCH_TAG}'),
                                     now()
        FROM hands WHERE hand_key % {TAG_EVERY} = 0""")
    con.execute("CHECKPOINT")


BUILD_MEMORY = "4GB"
"""DuckDB's memory limit while building (its default, 80% of the machine, let the buffer
cache of a 10M build grow past 9 GB beside the other engineers' work; it spills instead)."""


def build(db: Path, target: int) -> None:
    from ingest import store
    from ingest.api import import_paths

    demo = sorted((ROOT / "data" / "demo").glob("*.jsonl"))
    report = import_paths(demo, db)
    con = store.connect(db)
    try:
        con.execute(f"SET memory_limit = '{BUILD_MEMORY}'")
        print(f"imported {report.stored} demo hands; replicating to {target:,}...",
              file=sys.stderr)
        _replicate(con, target)
        _tag(con)
        started = time.perf_counter()
        con.execute("BEGIN TRANSACTION")
        rebuild_aggregates(con)  # the replicas went around the writers that keep them
        con.execute("COMMIT")
        con.execute("CHECKPOINT")
        print(f"aggregates built in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    finally:
        con.close()


# --- timing ----------------------------------------------------------------------------------

def run_page(con: Any, queries: list[tuple[str, Query]], filters: Filters
             ) -> tuple[dict[str, float], float, dict[str, float]]:
    """Wall milliseconds per query, the process's CPU milliseconds for the whole page (all
    DuckDB threads: the work done, whatever else the shared machine is running), and CPU
    milliseconds per query."""
    times, cpus = {}, {}
    cpu = time.process_time()
    for name, fn in queries:
        t, c = time.perf_counter(), time.process_time()
        fn(con, filters)
        times[name] = (time.perf_counter() - t) * 1000
        cpus[name] = (time.process_time() - c) * 1000
    return times, (time.process_time() - cpu) * 1000, cpus


def set_me(db: Path, spec: str) -> tuple[Any, ...]:
    """Store ``--me``'s names as the user's; returns them."""
    from ingest import store
    from ingest.api import MyName, set_my_names

    names = tuple(MyName(*part.split("@", 1)) for part in spec.split(",") if part)
    con = store.connect(db)
    try:
        set_my_names(con, names)
    finally:
        con.close()
    return names


def measure(db: Path, repeats: int, only: set[str] | None = None,
            me: tuple[Any, ...] = ()) -> dict[str, Any]:
    from ingest import store

    out: dict[str, Any] = {}
    for page, queries in registry():
        if only and page not in only:
            continue
        con = store.connect(db, read_only=True)  # a fresh open: cold buffers in DuckDB
        try:
            if me:
                mine = common.effective_names(con, me)
                filters = Filters(me=mine, me_skip=common.shared_seats(con, mine))
            else:
                filters = Filters(player=common.default_player(con))
            cold, _, cold_cpu = run_page(con, queries, filters)
            warm_runs = [run_page(con, queries, filters) for _ in range(repeats)]
        finally:
            con.close()
        warm = {name: statistics.median(r[name] for r, _, _ in warm_runs) for name, _ in queries}
        warm_cpu = {name: statistics.median(c[name] for _, _, c in warm_runs)
                    for name, _ in queries}
        out[page] = {"cold_ms": round(sum(cold.values()), 1),
                     "warm_ms": round(statistics.median(sum(r.values()) for r, _, _ in warm_runs),
                                      1),
                     "warm_cpu_ms": round(statistics.median(c for _, c, _ in warm_runs), 1),
                     "queries_warm_ms": {k: round(v, 1) for k, v in warm.items()},
                     "queries_warm_cpu_ms": {k: round(v, 1) for k, v in warm_cpu.items()},
                     "queries_cold_ms": {k: round(v, 1) for k, v in cold.items()},
                     "queries_cold_cpu_ms": {k: round(v, 1) for k, v in cold_cpu.items()}}
        print(f"{page:>14}: cold {out[page]['cold_ms']:8.1f} ms   warm "
              f"{out[page]['warm_ms']:8.1f} ms (cpu {out[page]['warm_cpu_ms']:8.1f} ms)   "
              f"{out[page]['queries_warm_ms']}\n{'':>16}warm cpu {out[page]['queries_warm_cpu_ms']}"
              f"\n{'':>16}cold {out[page]['queries_cold_ms']}, cpu "
              f"{out[page]['queries_cold_cpu_ms']}", file=sys.stderr)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--db", type=Path, default=None,
                        help="build (or reuse, if it exists) the store here and keep it")
    parser.add_argument("--repeats", type=int, default=3, help="warm runs per page (median)")
    parser.add_argument("--pages", default="", help="comma-separated pages to time (all)")
    parser.add_argument("--me", default="", metavar="NAME[@SOURCE],...",
                        help="time the pages on these names as the user's own ('me')")
    parser.add_argument("--rows-only", action="store_true",
                        help="every query reads the rows, never the pre-aggregated tables")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="ofc-bench-dashboard-"))
    db = args.db or work / "bench.duckdb"
    try:
        t0 = time.perf_counter()
        if not db.exists():
            build(db, args.hands)
        built = time.perf_counter() - t0
        import duckdb

        with duckdb.connect(str(db), read_only=True) as con:
            stored = con.execute("SELECT count(*) FROM hands").fetchone()[0]
        print(f"store ready: {stored:,} hands ({db.stat().st_size / 1e6:,.0f} MB) "
              f"in {built:.1f} s", file=sys.stderr)
        me = set_me(db, args.me) if args.me else ()
        only = set(filter(None, args.pages.split(","))) or None
        if args.rows_only:
            with rows_only():
                pages = measure(db, args.repeats, only, me)
        else:
            pages = measure(db, args.repeats, only, me)
        slowest = max(pages, key=lambda p: pages[p]["warm_ms"])
        print(json.dumps({
            "benchmark": "dashboard", "hands": stored, "me": args.me or None,
            "aggregates": not args.rows_only,
            "db_mb": round(db.stat().st_size / 1e6), "build_s": round(built, 1),
            "pages": {p: {"cold_ms": v["cold_ms"], "warm_ms": v["warm_ms"],
                          "warm_cpu_ms": v["warm_cpu_ms"]} for p, v in pages.items()},
            "slowest_warm_page": slowest, "slowest_warm_ms": pages[slowest]["warm_ms"],
            "target_warm_ms": TARGET_WARM_MS,
        }))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
