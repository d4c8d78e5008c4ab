"""How the pages word their numbers, checked on the functions that write them: no confidence
interval from too few hands, the Import page's ledger line, a missing value shown as a dash."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from dashboard import widgets
from dashboard.queries import overview
from dashboard.views import import_page
from dashboard.views import overview as overview_page
from ofc_cli.cli import main as ofc

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")


def _summary(hands: int, ci: float | None) -> overview.Summary:
    return overview.Summary(hands, 4.0, 2.0, ci, None, None, None, 0, None, ())


def test_no_interval_from_two_hands() -> None:
    assert overview_page.interval(_summary(2, 0.0)) == "no 95% interval under 30 hands"
    assert overview_page.interval(_summary(1, None)) == "no 95% interval under 30 hands"
    assert overview_page.interval(_summary(40, 1.234)) == "± 1.23 (95% CI)"


def test_ledger_line_counts_refused_files_apart_and_says_file_once() -> None:
    totals = {"stored": 3, "duplicate": 0, "merged": 0, "partial": 0, "rejected": 0}
    line = import_page.ledger_line(1, totals, 1)
    assert "1 files" not in line and "**1 file** read" in line
    assert "**1 file refused**" in line and "0 rejected" not in line
    line = import_page.ledger_line(3, {**totals, "rejected": 2}, 0)
    assert line == "**3 files** read: **3 hands** stored, 0 duplicates, 2 rejected."


def test_missing_values_show_as_a_dash_not_none_or_nan() -> None:
    from dashboard.views import hand_review

    assert hand_review.text_of(None) == "–" and hand_review.text_of(float("nan")) == "–"
    assert hand_review.text_of(None, "") == ""
    assert hand_review.text_of("Pair of Aces") == "Pair of Aces"
    import pandas as pd

    final = pd.DataFrame({"seat": [1, 1, 1], "row_name": ["top", "middle", "bottom"],
                          "cards": [None, None, None], "category": [None] * 3,
                          "hand_name": [None] * 3, "royalty": [float("nan")] * 3,
                          "jokers": [None] * 3})
    seat = pd.DataFrame({"seat": [1]}).itertuples(index=False).__next__()
    html = hand_review.seat_final(seat, final, False)
    assert "nan" not in html and "None" not in html


# --------------------------------------------------------------------------------------------
# Issue 23, point 5: what a new user read wrong on the analysis pages, read from what each page
# sends to the browser (AppTest) on a store of two simulated logs: pineapple with a stake
# against a player called `say "hi"`, and regular against Bob from a log that names no stake.

QUOTED = 'say "hi"'


@pytest.fixture(scope="module")
def two_logs_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("paper_cuts")
    staked, bare = folder / "staked.jsonl", folder / "bare.jsonl"
    common = ["simulate", "--players", "2", "--hands", "24"]
    assert ofc([*common, "--variant", "pineapple", "--names", f"Hero,{QUOTED}", "--seed", "3",
                "--policies", "careful,chaser", "--stake", "0.5", "--out", str(staked)]) == 0
    assert ofc([*common, "--variant", "regular", "--names", "Hero,Bob", "--seed", "9",
                "--start", "2026-02-01T21:00:00-05:00", "--out", str(bare)]) == 0
    hands = [json.loads(line) for line in bare.read_text(encoding="utf-8").splitlines()]
    bare.write_text("".join(json.dumps({k: v for k, v in h.items()
                                        if k not in ("stake", "currency")}) + "\n"
                            for h in hands), encoding="utf-8")
    db = folder / "two.duckdb"
    assert ofc(["import", str(staked), str(bare), "--db", str(db)]) == 0
    return db


def page_run(db: Path, monkeypatch: pytest.MonkeyPatch, source: str) -> AppTest:
    monkeypatch.setenv("OFC_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["player"] = "Hero"
    at.run()
    at.switch_page(source).run()
    assert not at.exception
    return at


def shown_columns(table: Any) -> list[str]:
    """The columns a table shows: its column order when it sets one, else every column, less
    the hidden ones."""
    config = json.loads(table.proto.columns or "{}")
    order = list(table.proto.column_order) or list(table.value.columns)
    hidden = {json.loads(k)[1] if k.startswith("[") else k.removeprefix("_pos:")
              for k, v in config.items() if v.get("hidden")}
    return [c for c in order if c not in hidden and c in table.value.columns]


def money_table(at: AppTest) -> Any:
    return next(t for t in at.dataframe if "money" in t.value.columns)


@pytest.mark.parametrize("source", ["views/opponents.py", "views/variants.py",
                                    "views/sessions.py"])
def test_money_is_a_number_and_no_currency_is_none(two_logs_db: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   source: str) -> None:
    at = page_run(two_logs_db, monkeypatch, source)
    table = money_table(at)
    frame = table.value
    assert pd.api.types.is_float_dtype(frame["money"]), frame["money"]  # sorts as a number
    column = json.loads(table.proto.columns)
    money = next(v for k, v in column.items() if "money" in k)
    assert money["type_config"]["type"] == "number", money
    assert table.proto.placeholder == "–"  # a missing amount is a dash, not "None"
    assert frame["money"].isna().any() and frame["money"].notna().any()
    stakeless = frame[frame["money"].isna()]
    assert (stakeless["currency"] == "no stake").all(), stakeless
    assert (frame[frame["money"].notna()]["currency"] == "EUR").all()
    assert frame["money"].min() == -20.5  # Hero's 41 points lost at 0.5 EUR, a number
    assert not frame["currency"].isna().any()
    assert not frame["currency"].astype(str).isin(["None", "nan"]).any()


def test_sessions_are_named_by_their_span_not_their_key(two_logs_db: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    at = page_run(two_logs_db, monkeypatch, "views/sessions.py")
    table = money_table(at)
    visible = shown_columns(table)
    assert "period" not in visible and "label" in visible
    frame = table.value
    for column in visible:
        assert not frame[column].astype(str).str.startswith(("id:", "gap:")).any(), column
    # the regular log's session, on its own clock (-05:00), named by its start and end
    bare = frame[frame["started"].str.endswith("-05:00")].iloc[0]
    day, start = bare["started"].split(" ")[:2]
    end_day, end = bare["ended"].split(" ")[:2]
    # its table, then its span (one name on every page)
    assert bare["label"].endswith(" · " + (f"{day} {start}–{end}" if day == end_day
                                           else f"{day} {start} – {end_day} {end}"))
    names = [t["hovertext"] for t in json.loads(at.get("plotly_chart")[0].proto.spec)["data"]]
    assert all(not str(n).startswith("id:") for trace in names for n in trace)


def test_a_quoted_name_shows_as_written_in_the_opponents_legend(
        two_logs_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = page_run(two_logs_db, monkeypatch, "views/opponents.py")
    legend = [t["name"] for t in json.loads(at.get("plotly_chart")[0].proto.spec)["data"]]
    assert QUOTED in legend, legend  # plotly shows &quot; as it is written
    assert widgets.plot_text(['<b>x</b> & "y"']) == ['&lt;b&gt;x&lt;/b&gt; &amp; "y"']


def test_hand_review_header_and_list_in_words(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Hand review on the real captures, a player named with an alias: the header names the
    room, the ruleset in words, the session and the button by the alias; the list shows the
    alias among the opponents and each hand's room and ruleset in words (two rooms here); the
    seats and the pairwise settlement show the alias; no code anywhere of that."""
    from ingest.api import connect, import_paths, set_alias
    from tests.helpers.apptest import app, open_page
    from tests.helpers.captures import APP as APP_DB
    from tests.helpers.captures import CAPTURE

    db = tmp_path / "captures.duckdb"
    import_paths([CAPTURE / "raw_messages.jsonl", APP_DB], db)
    con = connect(str(db))
    set_alias(con, "Villain 1", "Émile")
    con.close()
    at = open_page(app(db, monkeypatch, player="Hero", source="pineapple-app",
                       id="app-app-0002"), "views/hand_review.py")
    assert not at.exception
    header = next(c.value for c in at.caption if "button" in c.value)
    assert header.startswith("Pineapple app · Progressive pineapple · 2 jokers · Fantasyland "
                             "repeats on entry · ")
    assert "button Émile" in header and "session sess\\-app · " in header
    assert not any(code in header for code in ("pineapple-app", "fl_repeat", "Villain 1"))
    assert any(m.value.startswith("**Émile**") for m in at.markdown)
    listed = next(d.value for d in at.dataframe if "game" in d.value.columns)
    assert "Émile" in set(listed["opponents"]) and "Villain 1" not in set(listed["opponents"])
    assert {g.split(" · ")[0] for g in listed["game"]} == {"Seals with Clubs", "Pineapple app"}
    pairs = next(d.value for d in at.dataframe if "opponent" in d.value.columns)
    assert "Émile" in set(pairs["player"]) | set(pairs["opponent"])
    assert "Villain 1" not in set(pairs["player"]) | set(pairs["opponent"])
