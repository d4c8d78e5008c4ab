"""Shared fixtures. Other test modules rely on these names; keep them stable.

Fixtures
--------
``fixture_db_path`` (session)
    Path of a small DuckDB database (schema of ``ingest/schema.sql``) holding
    :data:`FIXTURE_HANDS` pineapple hands built here by hand and scored with the scalar scorer
    (``ofc_core.scoring.score_hand``), so every stored number is consistent. Players are
    :data:`HERO` (the logs' hero), :data:`EVIL` (a name that is HTML) and ``"bob"``; hands come
    in two sessions, some with a stake, one with a Fantasyland hero, one whose room result
    differs from ours. Read only: open it with ``duckdb.connect(path, read_only=True)`` or copy it.
``fixture_db`` (function)
    A fresh writable copy of that database for one test (``Path``).
``demo_db_path`` (session)
    A database with the committed demo sample (``data/demo/``) imported through the real
    importer (``ingest.api.import_paths``); missing demo files fail the tests using it.
``chromium_path`` (session)
    The Chromium executable the browser tests drive: Debian's ``chromium-headless-shell``
    when installed (the same engine without the desktop browser around it: about half the
    CPU a page load, docs/benchmarks.md, "The browser's CPU in the tests"), else
    ``/usr/bin/chromium``. Without one they
    are skipped, except under ``OFC_REQUIRE_BROWSER=1`` (set by ``.ci/run``, which installs
    Chromium), where a missing browser fails them.
``ofc_script`` (session)
    The installed ``ofc`` console script: the one beside the running Python (a venv's
    ``bin/``), else the one on ``PATH``; missing fails the tests using it.
``empty_db_path`` (function)
    Path of a database with the schema and no hands.
``rooms_db_path`` (session)
    The demo database plus its pineapple log again as played in another room (source
    :data:`HOME_ROOM`) at 0.25 USD: two rooms, two currencies, four stakes. Read only.
``serve_dashboard`` (function)
    ``serve_dashboard(db)`` starts ``ofc dashboard --db db`` on a free port (its output in
    ``tmp_path/dashboard.log``), waits for its health check and returns its URL; stopped at
    the test's end.
``fixture_facts`` (session)
    :class:`FixtureFacts`: the fixture's hero, HTML-named player, hand count and source (test
    modules cannot import this file under ``--import-mode=importlib``).

The browser (one Chromium a browser group, two dashboard servers for the whole session)
-------------------------------------------------------------------------------------
``browser`` (session)
    Playwright's ``Browser``: the headless Chromium of this worker. Tests do not open tabs of
    their own: they take ``tab``.
``tab`` (function)
    The worker's one tab of that browser, 1400 x 2000 (timeouts 60 s), for one test: every
    browser test navigates in the same tab (Chromium keeps its renderer and compiled scripts:
    a new tab costs about twice the CPU a page load, docs/benchmarks.md, "The browser's CPU in
    the tests"). A test sets
    its own viewport height when it needs a taller one, and removes any listener it adds.
``demo_dashboard`` (session), read-only
    ``ofc dashboard`` on a copy of ``demo_db_path``, visited once (the first page a fresh
    server renders may flash "Page not found"): a :class:`tests.helpers.browser.Dashboard`
    (``url``, ``db``, ``log``). Tests look, never write (no upload, note or watched folder).
``writable_dashboard`` (session)
    ``ofc dashboard`` on a database it creates at its first start (the demo sample loaded, as
    on a user's first start). Tests may write to it, each under names of its own (hand ids,
    sessions, tags, folders), and compare before with after: other tests write to it too.
    A test that uploads the newest hands (by date) says so in its docstring.
Every test that takes one of these runs in one of two xdist groups: ``browser-writable`` (it
takes ``writable_dashboard``) or ``browser`` (the others: the read-only server, or servers of
their own). Each group runs on one worker, so the suite starts at most two Chromiums (one a
worker, measured faster than one browser group on one worker: docs/benchmarks.md) and each
server once. Every test that takes ``spark`` or is marked ``spark`` is in the group ``spark``;
every other test in its module's group. The three groups run first.

``spark`` (session)
    A local Spark session (``local[2]``, two shuffle partitions); fails naming the package
    without Java 17.
``spark_run`` (session)
    The same logs through the embedded path and through Spark, with Spark's report
    (:class:`tests.helpers.spark.SparkRun`).

Hypothesis runs the ``ci`` profile when ``CI`` is set (``.ci/run`` sets it), else ``dev`` (a
tenth of the examples); ``HYPOTHESIS_PROFILE=ci`` or ``--hypothesis-profile ci`` chooses.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import random
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pytest

import ofc_cli.cli  # noqa: F401  (first of ours: one BLAS thread before numpy loads, as `ofc`)
from ofc_core.board import ROWS, Board
from ofc_core.cards import DECK, Card, format_cards
from ofc_core.evaluate import category_of, hand_name
from ofc_core.rules import PRESETS
from ofc_core.scoring import Seat, score_hand
from tests.helpers import hypo
from tests.helpers.browser import (
    CHROMIUM_ARGS,
    Dashboard,
    open_page,
    start_dashboard,
)

hypo.load_profile()

# Every Python the suite starts (the xdist workers, `ofc` commands, dashboard servers, Spark's
# Python workers, the import pool's worker) compiles our modules once and reads the bytecode
# after. A machine that sets PYTHONDONTWRITEBYTECODE (CI's sandbox does) made each of them
# compile the whole project again (its cost: docs/benchmarks.md, "The test suite"; why:
# docs/testing.md, "One BLAS thread and bytecode"). Set here, in the process that starts the
# workers.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "ingest" / "schema.sql"
DEMO_DIR = ROOT / "data" / "demo"

HERO = "hero"
EVIL = "<img src=x onerror=alert(1)>"
FIXTURE_HANDS = 40
FIXTURE_SOURCE = "fixture"


@dataclass(frozen=True)
class FixtureFacts:
    hero: str = HERO
    evil: str = EVIL
    hands: int = FIXTURE_HANDS
    source: str = FIXTURE_SOURCE


@pytest.fixture(scope="session")
def fixture_facts() -> FixtureFacts:
    return FixtureFacts()


def create_schema(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(SCHEMA.read_text())


def insert(con: duckdb.DuckDBPyConnection, table: str, **values: object) -> None:
    """INSERT one row by column name (fixed table and column names, bound values)."""
    columns = ", ".join(values)
    marks = ", ".join("?" * len(values))
    con.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(values.values()))


def copy_hand_columns(con: duckdb.DuckDBPyConnection) -> None:
    """Fill the columns that ``hand_players`` carries (schema v3) from ``hands`` and
    ``hand_rows``, as the importer writes them."""
    from ingest.hand_tables import HAND_COLUMNS_ON_PLAYERS
    from ingest.money import settle_matches

    sets = ", ".join(f"{c} = h.{c}" for c in HAND_COLUMNS_ON_PLAYERS)
    con.execute(f"UPDATE hand_players hp SET {sets} FROM hands h WHERE h.hand_key = hp.hand_key")
    con.execute("""UPDATE hand_players hp SET top_hand = r.t, middle_hand = r.m, bottom_hand = r.b
        FROM (SELECT hand_key, seat, any_value(hand_name) FILTER (WHERE row_name = 'top') AS t,
                     any_value(hand_name) FILTER (WHERE row_name = 'middle') AS m,
                     any_value(hand_name) FILTER (WHERE row_name = 'bottom') AS b
              FROM hand_rows GROUP BY hand_key, seat) r
        WHERE r.hand_key = hp.hand_key AND r.seat = hp.seat""")
    # money as the writer leaves it (ingest/money.py): points x stake, race hands settled
    con.execute("UPDATE hand_players SET money = CASE WHEN scoring = 'race' THEN NULL "
                "ELSE points * stake END")
    settle_matches(con)


def _deal_player(rng: random.Random, deck: list[Card], fantasyland: bool, hero: bool):
    """A board and its pineapple streets (5 placed, then 4 x place 2 / discard 1)."""
    cards = [deck.pop() for _ in range(13)]
    board = Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
    row_of = {c: row for row in ROWS for c in board.row(row)}
    order = cards[:]
    rng.shuffle(order)
    if fantasyland:
        discard = [deck.pop()]
        street = (order + discard if hero else None, order, discard if hero else None)
        return board, [street], row_of
    streets = [(order[:5] if hero else None, order[:5], [] if hero else None)]
    for k in range(4):
        placed = order[5 + 2 * k: 7 + 2 * k]
        discard = [deck.pop()]
        streets.append((placed + discard if hero else None, placed, discard if hero else None))
    return board, streets, row_of


def _insert_hand(con, rng: random.Random, n: int) -> None:
    ruleset = PRESETS["pineapple"]
    names = [HERO, EVIL] if n % 3 else [HERO, EVIL, "bob"]
    deck = list(DECK)
    rng.shuffle(deck)
    in_fl = {HERO: n == 7}
    seats, streets_by = [], {}
    for name in names:
        board, streets, row_of = _deal_player(rng, deck, in_fl.get(name, False), name == HERO)
        seats.append(Seat(name, board, fantasyland=in_fl.get(name, False)))
        streets_by[name] = (streets, row_of)
    button = names[n % len(names)]
    first = (names.index(button) + 1) % len(names)
    result = score_hand(seats, ruleset, first)
    hand_key = n + 1
    session = "s1" if n < FIXTURE_HANDS // 2 else "s2"
    stake = 0.5 if session == "s2" else None
    played = f"2026-01-{1 + n // 10:02d} 12:{n % 60:02d}:00+00"
    differ_seat = 0 if n == 11 else None
    insert(con, "hands", hand_key=hand_key, source=FIXTURE_SOURCE, hand_id=f"h{n:03d}",
           session_id=session, played_at=played, variant="pineapple",
           ruleset=json.dumps(ruleset.settings()), ruleset_label=ruleset.label, scoring="1-6",
           button=button, hero=HERO, stake=stake, currency="EUR" if stake else None,
           player_count=len(names), first_to_act=first, points_differ=differ_seat is not None,
           import_id=1, raw=f"raw {n}")
    for seat, (s, pr) in enumerate(zip(seats, result.players, strict=True)):
        reported = pr.points + (2 if seat == differ_seat else 0)
        insert(con, "hand_players", hand_key=hand_key, seat=seat, player=s.name,
               position=(seat - first) % len(names), fantasyland=s.fantasyland,
               fl_cards=14 if s.fantasyland else None, surrendered=False, fouled=pr.fouled,
               foul_top_middle=pr.fouled and pr.strengths[0] > pr.strengths[1],
               foul_middle_bottom=pr.fouled and pr.strengths[1] > pr.strengths[2],
               royalties=pr.royalty_total, fantasyland_next=pr.fantasyland_next,
               raw_points=pr.raw_points, points=pr.points, reported_points=reported,
               points_differ=seat == differ_seat)
        for row, cards, strength, royalty in zip(ROWS, (s.board.top, s.board.middle,
                                                         s.board.bottom), pr.strengths,
                                                 pr.royalties, strict=True):
            insert(con, "hand_rows", hand_key=hand_key, seat=seat, row_name=row.value,
                   cards=format_cards(cards), strength=strength,
                   category=category_of(strength).name.lower(), hand_name=hand_name(strength),
                   royalty=royalty)
        streets, row_of = streets_by[s.name]
        for k, (dealt, placed, discard) in enumerate(streets, start=1):
            per_row = [format_cards(c for c in placed if row_of[c] is r) for r in ROWS]
            insert(con, "placements", hand_key=hand_key, seat=seat, street=k,
                   dealt=None if dealt is None else format_cards(dealt), top=per_row[0],
                   middle=per_row[1], bottom=per_row[2],
                   discard=None if discard is None else format_cards(discard))
    for i, me in enumerate(names):
        for j, them in enumerate(names):
            if i == j:
                continue
            p = result.pair(me, them)
            insert(con, "pairs", hand_key=hand_key, seat=i, opp_seat=j, player=me, opponent=them,
                   top_result=p.rows[0], middle_result=p.rows[1], bottom_result=p.rows[2],
                   rows_won=p.rows.count(1), rows_lost=p.rows.count(-1),
                   row_points=p.row_points, bonus=p.bonus, scoop=p.scoop,
                   royalties=p.royalties, surrender=p.surrender, total=p.total,
                   points=p.capped)


def build_fixture_db(path: Path, hands: int = FIXTURE_HANDS, seed: int = 7) -> Path:
    """Write the hand-built fixture database to ``path`` (see the module docstring)."""
    rng = random.Random(seed)
    con = duckdb.connect(str(path))
    try:
        create_schema(con)
        insert(con, "imports", import_id=1, path="fixture.jsonl", sha256="0" * 64,
               size_bytes=1, format="ofc-hh/1", parser_version="1",
               imported_at="2026-01-05 00:00:00+00", hands=hands, stored=hands, duplicate=0,
               partial=0, rejected=0)
        for n in range(hands):
            _insert_hand(con, rng, n)
        copy_hand_columns(con)
    finally:
        con.close()
    return path


@pytest.fixture(scope="session")
def fixture_db_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_fixture_db(tmp_path_factory.mktemp("fixture") / "fixture.duckdb")


@pytest.fixture
def fixture_db(fixture_db_path: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "fixture.duckdb"
    shutil.copy(fixture_db_path, copy)
    return copy


@pytest.fixture
def empty_db_path(tmp_path: Path) -> Path:
    path = tmp_path / "empty.duckdb"
    con = duckdb.connect(str(path))
    create_schema(con)
    con.close()
    return path


@pytest.fixture(scope="session")
def demo_db_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from ingest.api import import_paths

    files = sorted(DEMO_DIR.glob("*.jsonl"))
    if not files:
        pytest.fail(f"no demo data in {DEMO_DIR} (it is committed: restore it with git)")
    path = tmp_path_factory.mktemp("demo") / "demo.duckdb"
    import_paths(files, path)
    return path


HOME_ROOM = "home"


@pytest.fixture(scope="session")
def rooms_db_path(demo_db_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from ingest.api import import_paths

    text = (DEMO_DIR / "pineapple.Hero.jsonl").read_text(encoding="utf-8")
    assert text.count('"source": "ofc-sim"') == text.count("\n")  # one per hand line
    text = text.replace('"source": "ofc-sim"', f'"source": "{HOME_ROOM}"')
    text = text.replace('"stake": 1.0', '"stake": 0.25').replace('"currency": "EUR"',
                                                                 '"currency": "USD"')
    folder = tmp_path_factory.mktemp("rooms")
    log = folder / "home.jsonl"
    log.write_text(text, encoding="utf-8")
    path = folder / "rooms.duckdb"
    shutil.copy(demo_db_path, path)
    report = import_paths([log], path)
    if report.files[0].stored != text.count("\n"):
        pytest.fail(f"the other room's hands were not all stored: {report}")
    return path


@pytest.fixture(scope="session")
def fill_hand_copies() -> Callable[[duckdb.DuckDBPyConnection], None]:
    """:func:`copy_hand_columns`, for test modules that build their own store by hand."""
    return copy_hand_columns


@pytest.fixture(scope="session")
def zip_of() -> Callable[[dict[str, bytes]], bytes]:
    """Pack ``{member name: bytes}`` into a zip archive in memory (uploads, zip bombs)."""
    import zipfile

    def pack(members: dict[str, bytes]) -> bytes:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in members.items():
                z.writestr(name, data)
        return buf.getvalue()

    return pack


GOLDEN = Path(__file__).resolve().parent / "golden"


def golden_items(items: Sequence[object]) -> list[dict]:
    """Parser output (ParsedHand / ParseIssue) as the JSON kept in ``tests/golden/``."""
    from ingest.formats import ParsedHand
    from ingest.formats.ofc_hh import record_to_dict

    out = []
    for item in items:
        if isinstance(item, ParsedHand):
            out.append({"line": item.line, "hand": record_to_dict(item.record)})
        else:
            out.append({"line": item.line, "hand_id": item.hand_id, "issue": item.message,
                        "partial": item.partial})
    return out


@pytest.fixture
def check_golden() -> Callable[[Path, Sequence[object]], None]:
    """Compare a sample's parse with ``tests/golden/<folder>-<file>.json``; with
    ``OFC_UPDATE_GOLDEN=1`` rewrite the golden file instead (after a deliberate change)."""

    def check(sample: Path, items: Sequence[object]) -> None:
        path = GOLDEN / f"{sample.parent.name}-{sample.name}.json"
        got = golden_items(items)
        if os.environ.get("OFC_UPDATE_GOLDEN"):
            path.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n",
                            encoding="utf-8")
        assert got == json.loads(path.read_text(encoding="utf-8"))

    return check


CHROMIUM_CANDIDATES = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium",
                       "/usr/bin/chromium-browser")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """The Chromium the browser tests drive; skip without one, unless it is required."""
    found = next((c for c in CHROMIUM_CANDIDATES if Path(c).is_file()), None) or \
        shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        message = ("no Chromium executable (/usr/bin/chromium-headless-shell or "
                   "/usr/bin/chromium): install Debian's chromium-headless-shell package, as "
                   ".ci/run does")
        if os.environ.get("OFC_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return found


@pytest.fixture(scope="session")
def ofc_script() -> str:
    """The installed ``ofc`` console script (beside this Python, else on PATH)."""
    beside = Path(sys.executable).parent / "ofc"
    found = str(beside) if beside.is_file() else shutil.which("ofc")
    if found is None:
        pytest.fail("the console script `ofc` is not installed: pip install -e .")
    return found


# --------------------------------------------------------------------------------------------
# The session's browser, its two servers, and Spark


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Any]:
    """The session's one headless Chromium (Playwright's ``Browser``)."""
    from playwright import sync_api  # in the test extra: missing is a failure, not a skip

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def worker_tab(browser: Any) -> Iterator[Any]:
    """The worker's one tab, kept open for the whole session (see ``tab``)."""
    page = browser.new_page(viewport={"width": 1400, "height": 2000})
    yield page
    page.close()


@pytest.fixture
def tab(worker_tab: Any) -> Iterator[Any]:
    """The worker's tab for one test: 1400 x 2000, timeouts 60 s (a shared, busy machine);
    left on ``about:blank`` afterwards. An open dashboard page polls its server every 2 s
    (:mod:`dashboard.freshness`): left open between tests it keeps its server and Chromium
    busy for the rest of the session (docs/testing.md, "The browser and the servers")."""
    from playwright.sync_api import expect

    worker_tab.set_viewport_size({"width": 1400, "height": 2000})
    worker_tab.set_default_timeout(60_000)
    expect.set_options(timeout=60_000)
    yield worker_tab
    worker_tab.goto("about:blank")


def _first_visit(worker_tab: Any, url: str) -> None:
    """One visit to the default page: the first page a fresh server renders may flash
    Streamlit's "Page not found" dialog before running it anyway (a cold-start race of the app
    entry, not of a page), which would cover a test's screenshots."""
    page = open_page(worker_tab, url)
    page.get_by_role("heading", name="Overview").first.wait_for(timeout=90_000)
    page.goto("about:blank")  # not polling the server until a test opens a page


@pytest.fixture(scope="session")
def demo_dashboard(demo_db_path: Path, tmp_path_factory: pytest.TempPathFactory,
                   ofc_script: str, worker_tab: Any) -> Iterator[Dashboard]:
    """The read-only demo server (see the module docstring)."""
    folder = tmp_path_factory.mktemp("demo-dashboard")
    db = folder / "demo.duckdb"
    shutil.copy(demo_db_path, db)
    with start_dashboard(ofc_script, db, folder) as server:
        _first_visit(worker_tab, server.url)
        yield server


@pytest.fixture(scope="session")
def writable_dashboard(tmp_path_factory: pytest.TempPathFactory, ofc_script: str,
                       worker_tab: Any) -> Iterator[Dashboard]:
    """The writable server, on a database made at its first start (see the module
    docstring)."""
    folder = tmp_path_factory.mktemp("writable-dashboard")
    with start_dashboard(ofc_script, folder / "fresh.duckdb", folder) as server:
        _first_visit(worker_tab, server.url)
        yield server


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """A local Spark session for the whole test session (started once: about 10 s), its JVM
    (and ``spark-submit``'s in ``test_spark_submit.py``) on
    :data:`tests.helpers.spark.SPARK_TEST_JVM`."""
    from ofc_spark.session import java_missing, session
    from tests.helpers.spark import SPARK_TEST_JVM

    problem = java_missing()
    if problem is not None:
        pytest.fail(problem)
    os.environ.setdefault("JDK_JAVA_OPTIONS", SPARK_TEST_JVM)
    spark = session("local[2]", app="ofc-tests", shuffle_partitions=2)
    spark.sparkContext.setLogLevel("ERROR")
    yield spark
    spark.stop()


@pytest.fixture(scope="session")
def spark_run(spark: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The samples, the demo and generated logs (the hand-worked OFC Double matches among
    them) through the embedded path and through ``ofc spark score`` and ``report``, once:
    :class:`tests.helpers.spark.SparkRun`."""
    from tests.helpers.spark import run_both_paths

    return run_both_paths(spark, tmp_path_factory.mktemp("spark"))


BROWSER_FIXTURES = frozenset({"browser", "worker_tab", "tab", "demo_dashboard",
                              "writable_dashboard", "serve_dashboard"})


def _group(item: pytest.Item) -> str:
    """The xdist group of a test: ``browser-writable`` (the writable server), ``browser`` (the
    other browser tests), ``spark`` (one JVM), else its module (its module's fixtures built
    once)."""
    names = set(getattr(item, "fixturenames", ()))
    if "writable_dashboard" in names:
        return "browser-writable"
    if names & BROWSER_FIXTURES:
        return "browser"
    if "spark" in names or item.get_closest_marker("spark"):
        return "spark"
    return item.nodeid.split("::")[0]


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test gets its xdist group (:func:`_group`); browser tests are marked
    ``browser``. The Spark and browser groups, the longest, run first: under
    ``--dist loadgroup`` the two workers start on them while the modules fill in around."""
    order = {"spark": 0, "browser-writable": 1, "browser": 2}
    for item in items:
        group = _group(item)
        if group.startswith("browser"):
            item.add_marker(pytest.mark.browser)
        item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=lambda item: order.get(_group(item), len(order)))


@pytest.fixture
def serve_dashboard(ofc_script: str, tmp_path: Path) -> Iterator[Callable[[Path], str]]:
    """``serve_dashboard(db) -> url``: ``ofc dashboard`` on ``db``
    (:func:`tests.helpers.browser.start_dashboard`), stopped after the test."""
    numbers = itertools.count(1)
    with contextlib.ExitStack() as servers:
        def start(db: Path) -> str:
            folder = tmp_path / f"dashboard-{next(numbers)}"
            folder.mkdir()
            return servers.enter_context(start_dashboard(ofc_script, db, folder)).url

        yield start


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None
                            ) -> Iterator[None]:
    """With ``OFC_TEST_TIMELINE=FILE`` (``benchmarks/bench_suite.py --timeline``), each test's
    worker, xdist group, start and end (setup to teardown, ``time.time()``) are appended to
    FILE as one JSON line: where the suite's wall time goes, worker by worker."""
    path = os.environ.get("OFC_TEST_TIMELINE")
    started = time.time()
    yield
    if path:
        line = {"worker": os.environ.get("PYTEST_XDIST_WORKER", "main"), "test": item.nodeid,
                "group": _group(item), "start": round(started, 3),
                "end": round(time.time(), 3)}
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
