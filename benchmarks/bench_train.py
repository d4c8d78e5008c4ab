"""The Train page's answer: how long a puzzle's answer takes to value, first fives and later
streets, from the demo store's reviewed decisions (target: a first five answered within 2 s on
this machine, issue 38).

The store is the demo sample with its reviewed decisions (Hero's). The puzzles are Hero's
decisions that lost more than the noise (the Train page's queue), costliest first: ``--first``
first fives and ``--streets`` later streets. Each is answered with a placement that is neither
the one played nor the best (the review's second best where it kept one, else a seeded legal
placement): the answer the page must roll out. Timed in this process, one BLAS thread (as
``ofc dashboard`` runs), each step's CPU and wall:

- **load**: the stored hand read back (``stored_record``, the page's cached query) and parsed;
- **position**: the decision rebuilt from the record;
- **answer**: :func:`ofc_core.play.puzzles.answer_puzzle`, the page's valuation (the answer and
  the stored best on the decision's deals);
- **review again** (the baseline, in the same run, alternating): :func:`value_answer`, the
  decision reviewed again with the answer as the choice (what the page did before);
- **write**: the answer stored (``write_answer``, a connection opened for it, as the page's
  ``db.writing``).

``--browser K`` also answers K puzzles through the page in headless Chromium (``ofc
dashboard`` on a copy of the store): the wall time from the click on Answer to the verdict
drawn, and the CPU the server and Chromium spent meanwhile.

    python benchmarks/bench_train.py [--first 12] [--streets 12] [--browser 4] [--db PATH]

The last line is JSON: per kind, the medians and the largest, in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Any

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # as `ofc dashboard` runs (ofc_cli.cli.ONE_BLAS_THREAD)

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

TARGET_MS = 2000
"""A first five answered within 2 s on this machine."""

_PUZZLES = """
SELECT d.source, d.hand_id, d.player, d.street, d.kind, d.chosen, d.chosen_ev, d.best,
       d.best_ev, d.ev_lost, d.ev_lost_se, d.reason,
       (SELECT a.placement FROM decision_alternatives a WHERE a.source = d.source
        AND a.hand_id = d.hand_id AND a.player = d.player AND a.street = d.street
        AND a.rank = 2) AS second
FROM decisions d
WHERE d.player = 'Hero' AND d.ev_lost > 2 * d.ev_lost_se AND d.kind = ?
ORDER BY d.ev_lost DESC, d.hand_id, d.street LIMIT ?
"""


def build(db: Path) -> None:
    """The demo sample and its reviewed decisions, as a fresh ``ofc dashboard`` loads it."""
    from dashboard.db import open_database

    open_database(db).close()


def puzzles(db: Path, kind: str, count: int) -> list[tuple[Any, ...]]:
    from ingest.store import connect

    con = connect(db, read_only=True)
    try:
        return con.execute(_PUZZLES, [kind, count]).fetchall()
    finally:
        con.close()


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """``fn()``, and its CPU and wall milliseconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn()
    return out, (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000


def the_answer(record: Any, row: tuple[Any, ...]) -> Any:
    """The review's second best when it is neither played nor best, else a seeded legal
    placement that is neither."""
    from ofc_core.play.notation import parse_placement
    from ofc_core.play.placements import free_slots, legal_placements, same_placement
    from ofc_core.play.puzzles import position

    chosen, best = parse_placement(row[5]), parse_placement(row[7])
    if row[12]:
        second = parse_placement(row[12])
        if not same_placement(second, chosen) and not same_placement(second, best):
            return second
    spot = position(record, row[2], row[3])
    assert spot is not None
    legal = [p for p in legal_placements(spot.spot.dealt, spot.spot.place,
                                         free_slots(spot.board_before))
             if not same_placement(p, chosen) and not same_placement(p, best)]
    return random.Random(f"{row[1]}-{row[3]}").choice(legal)


def measure(db: Path, rows: list[tuple[Any, ...]], writes: Path) -> list[dict[str, float]]:
    """Each puzzle's steps (the module's docstring), CPU and wall milliseconds."""
    from ingest.api import PuzzleAnswer, record_of, stored_record
    from ingest.store import connect
    from ofc_core.play.notation import parse_placement, placement_text
    from ofc_core.play.puzzles import Stored, answer_puzzle, position, value_answer

    out = []
    for i, row in enumerate(rows):
        source, hand_id, player, street = row[:4]
        con = connect(db, read_only=True)
        try:
            record, load_cpu, load_wall = timed(partial(
                lambda c, s, h: record_of(stored_record(c.cursor(), s, h) or ""), con, source,
                hand_id))
        finally:
            con.close()
        _, pos_cpu, pos_wall = timed(partial(position, record, player, street))
        answer = the_answer(record, row)
        stored = Stored(parse_placement(row[5]), row[6], parse_placement(row[7]), row[8],
                        row[9], row[10], row[11])
        steps = [("answer", partial(answer_puzzle, record, player, street, answer, stored)),
                 ("again", partial(value_answer, record, player, street, answer))]
        if i % 2:
            steps.reverse()  # alternate which runs first
        found: dict[str, float] = {"load_cpu": load_cpu, "load_wall": load_wall,
                                   "position_cpu": pos_cpu, "position_wall": pos_wall}
        valued: dict[str, Any] = {}
        for name, step in steps:
            valued[name], found[f"{name}_cpu"], found[f"{name}_wall"] = timed(step)
        fast = valued["answer"]
        row_out = PuzzleAnswer(source, hand_id, player, street, placement_text(answer),
                               round(fast.ev_lost, 4), round(fast.noise, 4), fast.solved)

        _, found["write_cpu"], found["write_wall"] = timed(partial(write, writes, row_out))
        found["rollouts"] = fast.rollouts
        found["again_rollouts"] = valued["again"].rollouts
        found["same_verdict"] = float(fast.solved == valued["again"].solved)
        out.append(found)
    return out


def write(db: Path, row: Any) -> None:
    """One answer stored, on a connection opened for it (as the page's ``db.writing``)."""
    from ingest.api import write_answer
    from ingest.store import connect

    con = connect(db)
    try:
        write_answer(con, row, datetime.now(timezone.utc))
    finally:
        con.close()


def browser(db: Path, count: int, folder: Path) -> list[dict[str, float]]:
    """``count`` puzzles answered through the page: click on Answer to the verdict drawn."""
    from bench_review_page import ARGS, CHROMIUM, Server, cpu_seconds
    from playwright.sync_api import sync_playwright

    from ingest.api import record_of, stored_record
    from ingest.store import connect

    copy = folder / "page.duckdb"
    shutil.copy(db, copy)
    known = {(r[1], r[3]): r for kind in ("first five", "street")
             for r in puzzles(db, kind, 10_000)}
    server = Server(copy)
    out = []
    try:
        with sync_playwright() as pw:
            chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = chromium.new_page(viewport={"width": 1400, "height": 1600})
            for _ in range(count):
                page.goto(f"{server.url}/train?player=Hero")
                line = page.get_by_text("what you played here lost").first
                line.wait_for(timeout=180_000)
                wait_over(page)
                found = re.search(r"hand (\S+) \(.*street (\d+) \((.*?)\)", line.inner_text())
                assert found, "no puzzle on the page"
                row = known[(found.group(1), int(found.group(2)))]
                con = connect(db, read_only=True)
                try:
                    record = record_of(stored_record(con.cursor(), row[0], row[1]) or "")
                finally:
                    con.close()
                placement = the_answer(record, row)
                for target, cards in enumerate(placement):
                    for card in cards:
                        click(page, f"[class*='-card-{card} '] button")
                        click(page, f"[class*='-to-{target} '] button")
                before = cpu_seconds(server.proc.pid)
                started = time.perf_counter()
                page.locator("[class*='-confirm'] button").first.click()
                page.get_by_text(re.compile("^(Missed|Solved):")).first.wait_for(
                    timeout=180_000)
                wall = (time.perf_counter() - started) * 1000
                wait_over(page)
                after = cpu_seconds(server.proc.pid)
                out.append({"kind": found.group(3) == "first five", "wall": wall,
                            "server_cpu": (after[0] - before[0]) * 1000,
                            "browser_cpu": (after[1] - before[1]) * 1000})
            chromium.close()
    finally:
        server.stop()
    return out


RUN_OVER = """() => {
    const app = document.querySelector("[data-testid='stApp']");
    return app !== null && app.dataset.testScriptState === "notRunning"
        && !document.querySelector("[data-testid='stStatusWidget'], [data-testid='stSkeleton']");
}"""


def wait_over(page: Any) -> None:
    page.wait_for_function(RUN_OVER, timeout=180_000, polling=50)


def click(page: Any, selector: str) -> None:
    page.locator(selector).first.click()
    page.wait_for_timeout(150)
    wait_over(page)


def summary(runs: list[dict[str, float]]) -> dict[str, Any]:
    keys = [k for k in runs[0] if k.endswith(("_cpu", "_wall"))]
    out: dict[str, Any] = {k: round(statistics.median(r[k] for r in runs), 1) for k in keys}
    out.update({f"max_{k}": round(max(r[k] for r in runs), 1) for k in keys})
    out["n"] = len(runs)
    out["rollouts"] = statistics.median(r["rollouts"] for r in runs)
    out["again_rollouts"] = statistics.median(r["again_rollouts"] for r in runs)
    out["same_verdict"] = sum(r["same_verdict"] for r in runs)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", type=int, default=12, help="first fives (default 12)")
    parser.add_argument("--streets", type=int, default=12, help="later streets (default 12)")
    parser.add_argument("--browser", type=int, default=0,
                        help="puzzles answered through the page in Chromium (default 0)")
    parser.add_argument("--db", type=Path, help="a store with the demo loaded (else built)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-train-"))
    try:
        db = args.db or folder / "demo.duckdb"
        if args.db is None:
            build(db)
        writes = folder / "writes.duckdb"
        shutil.copy(db, writes)
        result: dict[str, Any] = {"load": os.getloadavg()[0]}
        for kind, count in (("first five", args.first), ("street", args.streets)):
            rows = puzzles(db, kind, count)
            if not rows:
                continue
            s = summary(measure(db, rows, writes))
            result[kind] = s
            print(f"{kind}: {s['n']} puzzles; answer {s['answer_cpu']:.0f} ms CPU "
                  f"(largest {s['max_answer_cpu']:.0f}), {s['answer_wall']:.0f} ms wall, "
                  f"{s['rollouts']:.0f} rollouts; reviewed again {s['again_cpu']:.0f} ms CPU "
                  f"(largest {s['max_again_cpu']:.0f}), {s['again_rollouts']:.0f} rollouts; "
                  f"ratio {s['again_cpu'] / max(s['answer_cpu'], 1e-9):.1f}; the same verdict "
                  f"{s['same_verdict']:.0f} of {s['n']}; load {s['load_cpu']:.0f}, position "
                  f"{s['position_cpu']:.1f}, write {s['write_cpu']:.0f} ms CPU "
                  f"({s['write_wall']:.0f} wall)", flush=True)
        if args.browser:
            runs = browser(db, args.browser, folder)
            page: dict[str, Any] = {}
            for flag, name in ((True, "first five"), (False, "street")):
                mine = [r for r in runs if bool(r["kind"]) is flag]
                if mine:
                    page[name] = {k: round(statistics.median(r[k] for r in mine), 1)
                                  for k in ("wall", "server_cpu", "browser_cpu")}
                    page[name]["max_wall"] = round(max(r["wall"] for r in mine), 1)
                    page[name]["n"] = len(mine)
                    print(f"page, {name}: click to verdict {page[name]['wall']:.0f} ms wall "
                          f"(largest {page[name]['max_wall']:.0f}), server "
                          f"{page[name]['server_cpu']:.0f} ms CPU, Chromium "
                          f"{page[name]['browser_cpu']:.0f}", flush=True)
            result["page"] = page
        first = result.get("first five")
        if first:  # CPU: on a shared machine the wall time follows the load
            cpu = first["max_answer_cpu"] + first["max_load_cpu"] + first["max_write_cpu"]
            print(f"target: a first five answered within {TARGET_MS} ms: "
                  f"{'met' if cpu < TARGET_MS else 'not met'} by CPU (the largest: answer, "
                  f"load and write {cpu:.0f} ms); wall, largest answer "
                  f"{first['max_answer_wall']:.0f} ms at load {result['load']:.1f}")
        result["load_after"] = os.getloadavg()[0]
        print(json.dumps(result))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
