"""A watched folder in headless Chromium, on the session's ``writable_dashboard`` (the demo
data, and what other tests wrote): add it on the Import page, drop a log into it while the page
is open, and see its hands appear on the page's status line (the server's watcher imports it in
the background; the status redraws itself) and on the Overview's hand count, within a bounded
time. Then ``ofc import --watch`` beside the running dashboard watches another folder: the
file it holds at the start is the command's import and shows on the page; a file dropped while
both watch it (either watcher may take it) is imported once; SIGTERM stops the command (exit
0). (That SIGTERM also stops a dashboard that watches folders, its database left
unlocked, is ``tests/test_dashboard_signals.py``'s.) Screenshots are saved under the test's
``tmp_path``."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from ingest import store
from tests.helpers.browser import Dashboard, metric_value, no_errors, server_env, wait_until
from tests.helpers.store import hand_lines

pytestmark = pytest.mark.slow

DROPPED = 6
BOUND_SECONDS = 60.0


def _log(path: Path, prefix: str, count: int) -> None:
    lines = hand_lines(prefix, count, played_at=lambda n: f"2027-01-05T20:{n:02d}:00+01:00")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _hands_metric(page) -> int:  # type: ignore[no-untyped-def]
    """The Overview's "Hands" metric (its label exactly: other metrics mention hands)."""
    value = metric_value(page, "Hands")
    value.wait_for(timeout=60_000)
    return int(value.inner_text().replace(",", ""))


def test_a_file_dropped_into_a_watched_folder_shows_up(
        tab, writable_dashboard: Dashboard, ofc_script: str,  # type: ignore[no-untyped-def]
        tmp_path: Path) -> None:
    server = writable_dashboard
    _watch_on_the_page(tab, server.url, tmp_path)
    _watch_from_the_command_line(tab, server.url, server.db, tmp_path, ofc_script)
    assert "Traceback" not in server.log_text(), server.log_text()[-3000:]
    con = store.connect(server.db, read_only=True, wait_seconds=60)  # beside the server
    try:
        per_file = con.execute("SELECT path, count(*) FROM imports WHERE path LIKE ? "
                               "GROUP BY path ORDER BY path", [f"{tmp_path}%"]).fetchall()
    finally:
        con.close()
    assert [Path(p).name for p, _ in per_file] == ["dropped.jsonl", "from-cli.jsonl",
                                                    "session.jsonl"]
    assert all(n == 1 for _, n in per_file), per_file  # neither watcher imported it twice


def _watch_on_the_page(page, server: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    folder = tmp_path / "client logs"  # a space, as on many desktops
    folder.mkdir()
    shots = tmp_path / "screenshots"
    shots.mkdir()
    page.set_viewport_size({"width": 1400, "height": 1800})
    page.goto(server)
    before = _hands_metric(page)

    page.goto(f"{server}/import")
    page.get_by_role("heading", name="Watched folders").wait_for()
    page.get_by_label("Folder to watch").fill(str(folder / "missing"))
    page.get_by_role("button", name="Watch", exact=True).click()
    expect(page.get_by_text("missing: no such folder")).to_be_visible()

    page.get_by_label("Folder to watch").fill(str(folder))
    page.get_by_role("button", name="Watch", exact=True).click()
    expect(page.get_by_text(str(folder.resolve()), exact=True)).to_be_visible()
    expect(page.get_by_text("0 files · 0 hands")).to_be_visible()

    dropped = time.monotonic()
    _log(folder / "session.jsonl", "browser-watch", DROPPED)  # while the page is open
    expect(page.get_by_text(f"1 file · {DROPPED} hands · no errors")).to_be_visible(
        timeout=BOUND_SECONDS * 1000)
    seen = time.monotonic() - dropped
    print(f"watched folder: {DROPPED} hands on the page {seen:.1f} s after the drop")
    page.screenshot(path=str(shots / "import-watched-folder.png"), full_page=True)
    no_errors(page)

    page.goto(server)
    expect(metric_value(page, "Hands")).to_have_text(f"{before + DROPPED:,}")
    page.screenshot(path=str(shots / "overview-after-watch.png"))
    no_errors(page)


def _watch_from_the_command_line(page, server: str, db: Path, tmp_path: Path,  # type: ignore[no-untyped-def]
                                 ofc_script: str) -> None:
    """The command imports what its folder holds when it starts (a file no other watcher can
    know of yet: the folder is registered by the command itself), then a file dropped while
    both watch it. The dashboard's page runs give its watcher the store's list, so it watches
    the command's folder too and either of the two may import the dropped file: exactly one
    does (checked by the caller)."""
    from playwright.sync_api import expect

    folder = tmp_path / "cli"
    folder.mkdir()
    _log(folder / "from-cli.jsonl", "cli-watch", 4)
    settled = time.time() - 60  # older than the watcher's settling time: read at the start
    os.utime(folder / "from-cli.jsonl", (settled, settled))
    out, err = tmp_path / "watch-out.txt", tmp_path / "watch-err.txt"
    with out.open("w") as o, err.open("w") as e:
        cli = subprocess.Popen([ofc_script, "import", "--watch", str(folder), "--db", str(db),
                                "--interval", "0.5"], stdout=o, stderr=e, env=server_env())
    try:
        wait_until("the command's import", lambda: "from-cli.jsonl" in out.read_text())
        page.goto(f"{server}/import")
        expect(page.get_by_text(str(folder.resolve()), exact=True)).to_be_visible(
            timeout=60_000)  # the command's folder, listed by the dashboard
        expect(page.get_by_text("1 file · 4 hands · no errors")).to_be_visible()
        _log(folder / "dropped.jsonl", "cli-drop", 3)  # both watchers watch the folder now
        expect(page.get_by_text("2 files · 7 hands · no errors")).to_be_visible(
            timeout=BOUND_SECONDS * 1000)
        no_errors(page)
        cli.send_signal(signal.SIGTERM)
        assert cli.wait(timeout=30) == 0
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()
    assert "watching 1 folder" in err.read_text()
    assert "Traceback" not in err.read_text()
    assert "4 hands, 4 stored" in out.read_text()
