"""The graphs' choice (by hand or by date, in points or in money) on the Overview and
Sessions pages, run with ``streamlit.testing.v1.AppTest`` on the demo: every combination
draws without an exception, the choice comes from the URL and goes back to it (defaults left
out), and the other page opens on it."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parent.parent / "dashboard" / "app.py")
COMBINATIONS = [("hands", "points"), ("hands", "money"), ("date", "points"), ("date", "money")]


def _app(db: Path, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    monkeypatch.setenv("OFC_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params.update(params)
    return at


def _param(at: AppTest, name: str) -> str | None:
    value = at.query_params.get(name)
    return value[0] if isinstance(value, list) else value


def _charts(at: AppTest) -> list:  # type: ignore[type-arg]
    return list(at.get("plotly_chart"))


@pytest.mark.parametrize(("by", "unit"), COMBINATIONS)
def test_every_choice_draws_on_both_pages(demo_db_path: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch, by: str,
                                          unit: str) -> None:
    db = tmp_path / "demo.duckdb"
    db.write_bytes(demo_db_path.read_bytes())
    at = _app(db, monkeypatch, by=by, **{"in": unit}).run()
    assert not at.exception, at.exception
    assert [h.value for h in at.subheader][0] == f"Cumulative {unit}"
    assert len(_charts(at)) == 1
    assert (_param(at, "by"), _param(at, "in")) == (
        None if by == "hands" else by, None if unit == "points" else unit)
    at.switch_page("views/sessions.py").run()  # the choice goes with the user
    assert not at.exception, at.exception
    assert len(_charts(at)) == 1
    assert (_param(at, "by"), _param(at, "in")) == (
        None if by == "hands" else by, None if unit == "points" else unit)


def test_an_unknown_choice_in_the_url_is_the_default(demo_db_path: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "demo.duckdb"
    db.write_bytes(demo_db_path.read_bytes())
    at = _app(db, monkeypatch, by="week", **{"in": "beans"}).run()
    assert not at.exception
    assert [h.value for h in at.subheader][0] == "Cumulative points"
    assert _param(at, "by") is None and _param(at, "in") is None
