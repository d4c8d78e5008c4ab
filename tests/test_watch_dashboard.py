"""The Import page's "Watched folders" section through Streamlit's AppTest: a folder that does
not exist is refused with a message, a real one is listed with its status line, the server's
watcher (a background thread of this process) imports the log already there and one dropped
in afterwards, and "Stop watching" removes the folder (its hands stay)."""

from __future__ import annotations

import doctest
import importlib
import time
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers.store import hand_lines

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "dashboard" / "app.py")
DEADLINE_SECONDS = 60.0


def log(path: Path, prefix: str, count: int) -> Path:
    path.write_text("\n".join(hand_lines(prefix, count)) + "\n", encoding="utf-8")
    return path


def captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


def wait_for_caption(at: AppTest, text: str) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        at.run()
        assert not at.exception
        if any(text in c for c in captions(at)):
            return
        time.sleep(0.5)
    pytest.fail(f"no status line with {text!r} within {DEADLINE_SECONDS:.0f} s: "
                f"{captions(at)}")


def test_watched_folders_on_the_import_page(empty_db_path: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "client-logs"
    folder.mkdir()
    log(folder / "first.jsonl", "first", 3)
    monkeypatch.setenv("OFC_DB", str(empty_db_path))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("views/import_page.py").run()
    assert not at.exception
    assert "No folder is watched yet." in captions(at)

    at.text_input(key="watch_folder").input(str(tmp_path / "nothing-here"))
    at.button[[b.label for b in at.button].index("Watch")].click().run()
    assert any("nothing-here: no such folder" in e.value.replace("\\", "") for e in at.error)

    at.text_input(key="watch_folder").input(str(folder))
    at.button[[b.label for b in at.button].index("Watch")].click().run()
    assert not at.exception and not at.error
    assert any(str(folder.resolve()) in m.value.replace("\\", "") for m in at.markdown)
    wait_for_caption(at, "3 hands")
    log(folder / "second.jsonl", "second", 2)  # dropped while the page is open
    wait_for_caption(at, "5 hands")
    assert any("2 files" in c and "no errors" in c and "last check" in c for c in captions(at))

    at.button(key=next(b.key for b in at.button if b.label == "Stop watching")).click().run()
    assert not at.exception and "No folder is watched yet." in captions(at)
    con = duckdb.connect(str(empty_db_path), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM hands").fetchone() == (5,)
        assert con.execute("SELECT count(*) FROM watched_folders").fetchone() == (0,)
    finally:
        con.close()


def test_status_line_examples() -> None:
    result = doctest.testmod(importlib.import_module("dashboard.views.import_page"))
    assert result.attempted > 0 and result.failed == 0
