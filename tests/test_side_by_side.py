"""The command line beside a running dashboard, with real processes: the session's
``writable_dashboard``, whose pages are loaded in a loop by headless Chromium while 6 ``ofc``
commands (three imports, ``score --db``, ``export``, ``rescore``) run at the same time. Nothing is
lost, no command or page fails, and the dashboard shows the new hands without a restart. Then
single imports while the pages load: none waits for the dashboard more than a few seconds.
The hands are the demo's under new ids and sessions (``side-*``, ``alone-*``); counts are taken
before and after (other tests write to the same server).

The 6 commands queue for DuckDB's one writer among themselves (each import holds the store
about a second on a loaded machine), so they get ``OFC_WAIT`` long enough for the queue; the
waits each one reported are printed as figures.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from ingest import store
from tests.helpers.browser import Dashboard, Page

pytestmark = pytest.mark.slow

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo"
PAGES = {"": "Overview", "sessions": "Sessions", "opponents": "Opponents",
         "hands": "Hand review", "matches": "Matches", "import": "Import"}
IMPORTS, HANDS_PER_FILE = 3, 20
"""Six commands in all (every kind at once, four writers queueing for the store's one writer):
20, then 10, proved nothing more (10 took 26.6 CPU s of the test process, 6 take 20.5)."""
MAX_WAIT_SECONDS = 5.0


def _new_logs(folder: Path, name: str = "side", count: int = IMPORTS) -> list[Path]:
    """Files of hands the store does not have: demo hands under new ids and sessions."""
    lines = (DEMO / "regular.Hero.jsonl").read_text(encoding="utf-8").splitlines()
    files = []
    for i in range(count):
        out = []
        for line in lines[i * HANDS_PER_FILE:(i + 1) * HANDS_PER_FILE]:
            hand = json.loads(line)
            hand["hand_id"] = f"{name}-{i}-{hand['hand_id']}"
            hand["session_id"] = f"{name}-{i}"
            out.append(json.dumps(hand))
        path = folder / f"{name}-{i}.jsonl"
        path.write_text("\n".join(out) + "\n", encoding="utf-8")
        files.append(path)
    return files


def _hands(db: Path, player: str | None = None) -> int:
    """Hands in the store (of ``player`` when given), read beside the running server."""
    con = store.connect(db, read_only=True, wait_seconds=120)
    try:
        if player is None:
            return int(con.execute("SELECT count(*) FROM hands").fetchone()[0])
        return int(con.execute("SELECT count(DISTINCT hand_key) FROM hand_players "
                               "WHERE player = ?", [player]).fetchone()[0])
    finally:
        con.close()


@dataclass
class Browsing:
    """Loads the dashboard's pages one after another in one tab, while processes run; records
    each load's seconds and any error shown."""

    page: Page
    url: str
    loads: list[tuple[str, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    exited: dict[int, float] = field(default_factory=dict)
    """When each process was first seen exited (``time.monotonic()``, by pid)."""
    turn: int = 0

    def load_next(self) -> None:
        path, title = list(PAGES.items())[self.turn % len(PAGES)]
        self.turn += 1
        started = time.monotonic()
        try:
            self.page.goto(f"{self.url}/{path}")
            self.page.get_by_role("heading", name=title).first.wait_for(timeout=600_000)
            self.page.wait_for_timeout(300)
            self.page.wait_for_selector("[data-testid='stStatusWidget']", state="detached",
                                        timeout=600_000)
        except Exception as exc:  # noqa: BLE001 (reported by the test with the others)
            self.errors.append(f"{path or 'overview'}: {exc!r}"[:800])
            return
        self.loads.append((path or "overview", time.monotonic() - started))
        for kind in ("stException", "stAlertContentError"):
            found = self.page.locator(f"[data-testid='{kind}']")
            if found.count():
                self.errors.append(f"{path or 'overview'}: {found.first.inner_text()[:500]}")

    def until_done(self, procs: list[subprocess.Popen[Any]], seconds: float,
                   pages: int = 0) -> None:
        """Load pages until every process of ``procs`` has exited and at least ``pages`` pages
        have been asked for (fail after ``seconds``). Commands on a quiet machine may all end
        before one round of the pages: the round is finished all the same."""
        deadline = time.monotonic() + seconds
        while not self._all_exited(procs) or self.turn < pages:
            if time.monotonic() > deadline:
                pytest.fail(f"the commands did not finish in {seconds:.0f} s")
            self.load_next()

    def _all_exited(self, procs: list[subprocess.Popen[Any]]) -> bool:
        now = time.monotonic()
        for p in procs:
            if p.poll() is not None:
                self.exited.setdefault(p.pid, now)
        return all(p.pid in self.exited for p in procs)


def test_cli_beside_a_running_dashboard(writable_dashboard: Dashboard, tab,  # type: ignore[no-untyped-def]
                                        tmp_path: Path, ofc_script: str) -> None:
    db, url = writable_dashboard.db, writable_dashboard.url
    before, before_hero = _hands(db), _hands(db, "Hero")
    files = _new_logs(tmp_path)
    tab.set_viewport_size({"width": 1400, "height": 1000})
    browsing = Browsing(tab, url)
    browsing.load_next()  # the pages are being loaded before the commands start
    commands = [["import", str(f), "--json"] for f in files]
    commands += [["score", "--json"]]
    commands += [["export", "--parquet", str(tmp_path / "export-0")]]
    commands += [["rescore"]]
    assert len(commands) == 6
    started = time.monotonic()
    env = {**os.environ, "OFC_WAIT": "600"}
    env.pop("OFC_DB", None)
    # outputs go to files: a full pipe would stall a command that holds the store
    procs = []
    for n, c in enumerate(commands):
        out, err = tmp_path / f"out-{n}.txt", tmp_path / f"err-{n}.txt"
        with out.open("w") as o, err.open("w") as e:
            procs.append((c, out, err, subprocess.Popen(
                [ofc_script, c[0], "--db", str(db), *c[1:]], stdout=o, stderr=e,
                env=env)))
    browsing.until_done([p for *_, p in procs], 600, pages=len(PAGES))
    results = [(command, proc.returncode, out.read_text(), err.read_text(),
                browsing.exited[proc.pid] - started) for command, out, err, proc in procs]
    elapsed = time.monotonic() - started
    # the dashboard shows the new hands at its next run, without a restart
    shown = _overview_hands(browsing.page, url)
    # one import at a time beside the pages: it waits at most for a page run
    alone = []
    for path in _new_logs(tmp_path, "alone", 3):
        t0 = time.monotonic()
        err_file = tmp_path / f"alone-{path.name}.err"
        with err_file.open("w") as e:
            proc = subprocess.Popen([ofc_script, "import", str(path), "--db", str(db)],
                                    stdout=subprocess.DEVNULL, stderr=e, env=env)
            browsing.until_done([proc], 300)
        alone.append((proc.returncode, err_file.read_text(), time.monotonic() - t0))
    waits = [float(m) for *_, err, _ in results
             for m in re.findall(r"waited ([0-9.]+) s for", err)]
    alone_waits = [float(m) for _, err, _ in alone
                   for m in re.findall(r"waited ([0-9.]+) s for", err)]
    loads = [s for _, s in browsing.loads]
    report = {"commands": len(results), "elapsed_s": round(elapsed, 1),
              "last_command_done_s": round(max(r[4] for r in results), 1),
              "told_waits": waits, "alone_import_s": [round(a[2], 1) for a in alone],
              "alone_told_waits": alone_waits, "page_loads": len(loads),
              "page_load_s_median": round(statistics.median(loads), 2) if loads else None,
              "page_load_s_max": round(max(loads), 2) if loads else None}
    print("side-by-side:", json.dumps(report))
    for command, code, _, err, seconds in results:
        waited = re.findall(r"waited ([0-9.]+) s for", err)
        print(f"  {command[0]:8} exit {code} done at {seconds:5.1f} s, waited {waited or '-'}")
    failed = [(c, code, err[-800:]) for c, code, _, err, _ in results if code != 0]
    assert not failed, failed
    assert not browsing.errors, browsing.errors
    assert all("Traceback" not in err for *_, err, _ in results)
    assert [a[0] for a in alone] == [0, 0, 0], alone
    assert max(alone_waits, default=0.0) <= MAX_WAIT_SECONDS, report
    assert _hands(db) == before + (IMPORTS + 3) * HANDS_PER_FILE  # nothing lost
    stored = [json.loads(out)["stored"] for c, _, out, _, _ in results if c[0] == "import"]
    assert stored == [HANDS_PER_FILE] * IMPORTS
    scored = [len(out.splitlines()) for c, _, out, _, _ in results if c[0] == "score"]
    assert all(before <= n <= before + IMPORTS * HANDS_PER_FILE for n in scored), scored
    assert any((tmp_path / "export-0").rglob("*.parquet"))
    assert shown == before_hero + IMPORTS * HANDS_PER_FILE  # Hero sits in every new hand
    assert len(loads) >= len(PAGES)


def _overview_hands(page: Page, url: str) -> int:
    """The Hands figure Overview shows for Hero (who sits in every demo hand)."""
    page.goto(f"{url}/?player=Hero")
    page.get_by_role("heading", name="Overview").first.wait_for(timeout=600_000)
    page.wait_for_timeout(300)
    page.wait_for_selector("[data-testid='stStatusWidget']", state="detached",
                           timeout=600_000)
    page.get_by_text("Cumulative points").first.wait_for(timeout=600_000)
    # the metrics can be drawn after the chart's heading on a loaded machine: wait for them
    # (by its exact label: a substring "Hands" also finds Money's "... hands")
    page.locator("[data-testid='stMetricLabel']",
                 has_text=re.compile(r"^\s*Hands\s*$")).first.wait_for(timeout=600_000)
    metrics = [m.text_content() or "" for m in page.locator("[data-testid='stMetric']").all()]
    found = next((m for m in (re.fullmatch(r"\s*Hands\s*([\d,]+)\s*", t) for t in metrics)
                  if m), None)
    assert found, metrics
    return int(found.group(1).replace(",", ""))
