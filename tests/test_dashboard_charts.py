"""The charts, read from the figures the pages send to the browser (the plotly spec of each
chart in an AppTest run on the demo data): whole hand numbers on the
Overview's x axis, a tooltip that says more than "hand 303 +1,467 points", a label on every
Fouls bar (a 0% bar included), a labelled net bar and unrotated labels on the Opponents
waterfall, and two y axes whose zeros line up on Sessions and on "Does chasing pay?".
"""

from __future__ import annotations

import base64
import json
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.testing.v1 import AppTest

from ingest import api
from tests.helpers import apptest
from tests.helpers.apptest import open_page

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")


@pytest.fixture
def page(demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    db = tmp_path / "demo.duckdb"
    shutil.copy(demo_db_path, db)
    monkeypatch.setenv("OFC_DB", str(db))

    def run(path: str | None, **params: str) -> list[dict[str, Any]]:
        at = AppTest.from_file(APP, default_timeout=90)
        at.query_params.update({"player": "Hero", **params})
        at.run()
        if path is not None:
            at.switch_page(path).run()
        assert not at.exception
        return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]

    return run


def _values(data: Any) -> list[Any]:
    """A trace's values: plotly sends numeric arrays as base64 typed arrays."""
    if isinstance(data, dict) and "bdata" in data:
        return np.frombuffer(base64.b64decode(data["bdata"]), dtype=data["dtype"]).tolist()
    return list(data)


def _tag_two_hands(db: Path) -> None:
    con = api.connect(db)
    try:
        for source, hand_id in con.execute(
                "SELECT h.source, h.hand_id FROM hands h JOIN hand_players hp USING (hand_key) "
                "WHERE hp.player = 'Hero' AND h.scoring <> 'race' ORDER BY h.hand_key "
                "LIMIT 2").fetchall():
            api.set_hand_tags(con, source, hand_id, ["two"])
    finally:
        con.close()


def test_overview_counts_whole_hands_and_says_which_hand(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # two hands: the axis that showed 1, 1.2, 1.4 ...
    _tag_two_hands(tmp_path / "demo.duckdb")
    figure = page(None, tag="two")[0]
    assert len(_values(figure["data"][0]["x"])) == 2
    axis = figure["layout"]["xaxis"]
    assert axis["tickformat"] == ",d" and axis.get("dtick") == 1
    total = next(t for t in figure["data"] if "customdata" in t)
    assert "customdata[1]" in total["hovertemplate"]  # the hand's time
    assert "this hand" in total["hovertemplate"]


def test_every_fouls_bar_is_labelled_even_at_zero(page) -> None:  # type: ignore[no-untyped-def]
    bars = [t for f in page("views/fouls.py") for t in f["data"]
            if t["type"] == "bar" and "hands fouled" in t.get("hovertemplate", "")]
    assert len(bars) >= 4  # the breakdowns: by cards dealt, Fantasyland, position ...
    zero = [(text, y) for t in bars
            for text, y in zip(t["text"], _values(t["y"]), strict=True) if y == 0]
    assert zero, "the demo has a 0% foul rate (Fantasyland hands)"
    for t in bars:
        assert t["textposition"] == "outside" and t["cliponaxis"] is False
        assert all(re.fullmatch(r"\d+ / \d+", text) for text in t["text"]), t["text"]


def test_opponents_waterfall_labels_its_net_and_keeps_labels_flat(page) -> None:  # type: ignore[no-untyped-def]
    figures = page("views/opponents.py")
    waterfall = next(f for f in figures if any(t["type"] == "waterfall" for t in f["data"]))
    assert waterfall["layout"]["xaxis"]["tickangle"] == 0
    net = next(t for t in waterfall["data"] if t.get("name") == "net")
    assert net["text"][0].startswith("net ")
    parts = next(t for t in waterfall["data"] if t["type"] == "waterfall")
    assert parts["textposition"] == "outside" and parts["cliponaxis"] is False


@pytest.mark.parametrize("path", ["views/sessions.py", "views/fantasyland.py"])
def test_charts_of_two_scales_are_two_panels_of_one_x_axis(page, path: str) -> None:  # type: ignore[no-untyped-def]
    """The Sessions chart (results and running total) and Fantasyland's "Does chasing pay?"
    (rates and points per hand): two panels, one above the other, never two y axes of
    different scales over each other; a rate axis starts at 0."""
    layouts = [f["layout"] for f in page(path) if "yaxis2" in f["layout"]]
    assert layouts
    for layout in layouts:
        assert "overlaying" not in layout["yaxis2"]
        top, bottom = layout["yaxis"]["domain"], layout["yaxis2"]["domain"]
        assert bottom[1] < top[0]
        if layout["yaxis"].get("title", {}).get("text") == "%":
            assert layout["yaxis"]["range"][0] == 0


def _vega_page(demo_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
               page: str) -> tuple[AppTest, Any]:
    """``page`` on a copy of the demo store, Hero's view, run without an exception and with no
    Plotly chart: the app and its first Vega-Lite chart's proto."""
    db = tmp_path / "demo.duckdb"
    shutil.copy(demo_db, db)
    at = open_page(apptest.app(db, monkeypatch, player="Hero"), page)
    assert not at.exception
    assert not at.get("plotly_chart")
    return at, at.get("vega_lite_chart")[0].proto


def test_variants_chart_is_vega_lite_with_each_rulesets_interval_and_a_click(
        demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Variants draws its chart with Vega-Lite (no Plotly script on the page): a bar per row
    of the table, at its points per hand, its 95% interval, a label of its hands, and a click
    selection whose ruleset lists the hands (``widgets.vega_picked``)."""
    at, chart = _vega_page(demo_db_path, tmp_path, monkeypatch, "views/variants.py")
    spec = json.loads(chart.spec)
    table = at.dataframe[0].value
    # Streamlit sends the spec's data as Arrow beside it
    data = convert_arrow_bytes_to_pandas_df(chart.data.data)
    bars = {v["ruleset"]: v for v in data.to_dict("records")}
    # the table's order, in words (the table's Ruleset column), a click's key the label
    assert list(bars) == list(table["ruleset"])
    for row in table.itertuples():
        bar = bars[row.ruleset]
        assert bar["key"] != bar["ruleset"] and "-" not in bar["ruleset"].replace("2-7", "")
        assert bar["per_hand"] == pytest.approx(row.points_per_hand)
        assert bar["low"] == pytest.approx(row.ci_low) and bar["high"] == pytest.approx(row.ci_high)
        assert bar["label"] == f"{row.hands:,} hands"
    select = spec["layer"][0]["params"][0]
    assert select["select"] == {"type": "point", "fields": ["key"]}
    # the hands label sits above the interval, never on it
    label = spec["layer"][2]["encoding"]["y"]["field"]
    assert label == "above"
    assert all(v["above"] >= max(v["per_hand"], v["high"] or v["per_hand"])
               for v in data.to_dict("records"))
    assert list(chart.selection_mode) == [select["name"]]


def test_matches_money_chart_is_vega_lite_a_bar_per_match_in_the_tables_order(
        demo_db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at, chart = _vega_page(demo_db_path, tmp_path, monkeypatch, "views/matches.py")
    spec = json.loads(chart.spec)
    bars = convert_arrow_bytes_to_pandas_df(chart.data.data)
    table = next(t.value for t in at.dataframe if "opponent" in t.value.columns)
    assert len(bars) == len(table) > 1
    assert list(bars["match"]) == list(table["match_id"])
    assert list(bars["n"]) == list(range(1, len(table) + 1))
    assert np.allclose(bars["money"], table["money"].fillna(0).astype(float))
    assert list(chart.selection_mode) == [spec["params"][0]["name"]]
    assert spec["params"][0]["select"] == {"type": "point", "fields": ["match"]}
