"""The Knockout page (AppTest): the last change's outcome stays on its knockout's view until the
next change (a rerun of the page, which can come before the user sees the run that recorded,
does not take it away), and is not shown on another knockout's view."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from ingest.api import create_knockout

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "dashboard" / "app.py")
PAGE = "views/knockout.py"
PLAYERS = [f"Kp{n:02d}" for n in range(1, 17)]


def captions(at: AppTest) -> list[str]:
    """The captions as read (their markdown escapes dropped)."""
    return [c.value.replace("\\", "") for c in at.caption]


def pick(at: AppTest, name: str) -> None:
    """Choose knockout ``name``; one more run, as the browser's next one, takes the box keyed
    by the new ``?ko=``."""
    next(box for box in at.selectbox if box.label == "Knockout").set_value(name).run()
    at.run()
    assert not at.exception


def test_the_last_change_stays_on_its_knockout_until_the_next(
        empty_db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(empty_db_path))
    try:
        for name in ("club", "other"):
            create_knockout(con, name, PLAYERS, 3, "ann")
    finally:
        con.close()
    monkeypatch.setenv("OFC_DB", str(empty_db_path))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["ko"] = "club"
    at.switch_page(PAGE).run()
    assert not at.exception
    at.radio(key="ko_result").set_value("2-0")
    at.button(key="FormSubmitter:ko_record-Record").click().run()
    recorded = "recorded Kp01 – Kp16: Kp01 2-0"
    assert recorded in captions(at)
    at.run()  # a rerun: the outcome is still said
    assert recorded in captions(at)
    assert at.radio(key="ko_pair_1_7").options[0] != "Kp01 – Kp16"

    pick(at, "other")
    assert "Kp01 – Kp16" in at.radio(key="ko_pair_1_8").options  # other's bracket, untouched
    assert recorded not in captions(at)  # another knockout: not its change

    pick(at, "club")
    assert recorded in captions(at)
    at.button(key="ko_undo").click().run()
    assert "undone" in captions(at) and recorded not in captions(at)
    assert at.radio(key="ko_pair_1_8").options[0] == "Kp01 – Kp16"
