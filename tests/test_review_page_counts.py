"""Every figure of the Review page recounted from the decisions table in pandas: the headline
(accuracy, counts by class, EV lost beyond the noise, hands), the classes by variant and stage,
the accuracy by day and by session, and each leak by situation; then the page itself (AppTest)
shows the recounted headline. The store: the demo's hands and its shipped review (798
decisions of Hero, regular and pineapple)."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.demo import DEMO_DECISIONS
from dashboard.queries import review as q
from dashboard.queries.common import Filters
from ingest.api import connect, read_decisions, write_decisions
from ofc_core.play.accuracy import CLASSES, NOISE_Z
from ofc_core.play.situations import SITUATIONS, situations_of

APP = str(Path(__file__).resolve().parent.parent / "dashboard" / "app.py")
HERO = Filters(player="Hero")


@pytest.fixture(scope="module")
def reviewed(demo_db_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("counts") / "demo.duckdb"
    shutil.copy(demo_db_path, path)
    con = connect(path)
    try:
        write_decisions(con, read_decisions(DEMO_DECISIONS))
    finally:
        con.close()
    return path


@pytest.fixture()
def con(reviewed: Path):  # type: ignore[no-untyped-def]
    found = duckdb.connect(str(reviewed), read_only=True)
    yield found
    found.close()


@pytest.fixture(scope="module")
def table(reviewed: Path) -> pd.DataFrame:
    """The decisions of Hero with their hand's key, variant, day and session: plain reads."""
    con = duckdb.connect(str(reviewed), read_only=True)
    try:
        decisions = con.execute("SELECT * FROM decisions WHERE player = 'Hero'").df()
        hands = con.execute("SELECT hand_key, source, hand_id, variant, session_id, "
                            "played_at, utc_offset FROM hands").df()
    finally:
        con.close()
    frame = decisions.merge(hands, on=["source", "hand_id"], how="inner")
    frame["beyond"] = (frame["ev_lost"] - NOISE_Z * frame["ev_lost_se"]).clip(lower=0)
    return frame


def test_the_store_has_every_class_and_both_variants(table: pd.DataFrame):
    assert len(table) == 798
    assert set(table["variant"]) >= {"regular", "pineapple"}
    assert set(table["class"]) >= {"best", "tie", "inaccuracy", "mistake", "blunder"}


def test_the_headline_is_recounted(con, table: pd.DataFrame):  # type: ignore[no-untyped-def]
    s = q.summary(con, HERO)
    assert s.hands == table["hand_key"].nunique()
    assert s.decisions == len(table)
    assert s.ev_lost == pytest.approx(table["ev_lost"].sum())
    assert s.beyond == pytest.approx(table["beyond"].sum())
    assert s.costly == int((table["beyond"] > 1).sum())
    assert s.accuracy == pytest.approx(table["accuracy"].mean())
    counts = table["class"].value_counts()
    assert s.classes == tuple(int(counts.get(c, 0)) for c in CLASSES)


def stage_of(frame: pd.DataFrame) -> pd.Series:
    last = frame.groupby(["source", "hand_id", "player"])["street"].transform("max")
    return pd.Series(
        ["Fantasyland" if k == "fantasyland set" else "first five" if s == 1 else
         "last street" if s == m else "middle streets"
         for k, s, m in zip(frame["kind"], frame["street"], last, strict=True)],
        index=frame.index)


def test_the_classes_by_variant_and_stage_are_recounted(con, table: pd.DataFrame):  # type: ignore[no-untyped-def]
    got = q.classes_by_stage(con, HERO).set_index(["variant", "stage"])
    frame = table.assign(stage=stage_of(table))
    want = frame.groupby(["variant", "stage"])
    assert set(got.index) == set(want.groups)
    for (variant, stage), group in want:
        row = got.loc[(variant, stage)]
        assert row["decisions"] == len(group)
        assert row["accuracy"] == pytest.approx(group["accuracy"].mean())
        for name in CLASSES:
            assert row[name] == int((group["class"] == name).sum()), (variant, stage, name)
    # each variant's streets in their own place: regular's last street is 9, pineapple's 5
    last = frame[frame["stage"] == "last street"].groupby("variant")["street"].max()
    assert last["pineapple"] == 5 and last["regular"] == 9


def test_the_by_street_chart_keeps_each_variants_streets_apart(con, table):  # type: ignore[no-untyped-def]
    got = q.by_street(con, HERO).set_index(["variant", "street"])
    hands = table["hand_key"].nunique()
    for (variant, street), group in table.groupby(["variant", "street"]):
        assert got.loc[(variant, street), "decisions"] == len(group)
        assert got.loc[(variant, street), "per_hand"] == pytest.approx(
            group["ev_lost"].sum() / hands)


def test_the_accuracy_by_day_and_by_session_is_recounted(con, table):  # type: ignore[no-untyped-def]
    sessions = q.accuracy_by_session(con, HERO).set_index("session_id")
    for session, group in table.groupby("session_id"):
        assert sessions.loc[session, "accuracy"] == pytest.approx(group["accuracy"].mean())
        assert sessions.loc[session, "hands"] == group["hand_key"].nunique()
    days = q.accuracy_by_day(con, HERO, "UTC")
    local = table.assign(day=table["played_at"].dt.tz_convert("UTC").dt.date)
    want = local.groupby("day")["accuracy"].mean()
    assert [d.date() if hasattr(d, "date") else d for d in days["day"]] == list(want.index)
    assert days["accuracy"].tolist() == pytest.approx(want.tolist())


def test_each_leak_is_recounted(con, table: pd.DataFrame):  # type: ignore[no-untyped-def]
    got = q.leaks(con, HERO).set_index("key")
    hands = table["hand_key"].nunique()
    rows = list(table.itertuples(index=False))
    played = [situations_of(r.board, r.dealt, r.chosen, r.street, r.kind) for r in rows]
    best = [situations_of(r.board, r.dealt, r.best, r.street, r.kind) for r in rows]
    met = 0
    for situation in SITUATIONS:
        mine = [situation.key in p for p in played]
        theirs = [situation.key in b for b in best]
        counted = [m and (situation.side == "dealt" or not t)
                   for m, t in zip(mine, theirs, strict=True)]
        group = table[counted]
        if group.empty:
            assert situation.key not in got.index
            continue
        met += 1
        row = got.loc[situation.key]
        assert row["decisions"] == len(group)
        assert row["ev_lost"] == pytest.approx(group["beyond"].sum())
        assert row["per_hand"] == pytest.approx(group["beyond"].sum() / hands)
        if situation.side == "played":
            assert row["played"] == pytest.approx(sum(mine) / len(table))
            assert row["best"] == pytest.approx(sum(theirs) / len(table))
        worst = group.loc[group["beyond"].idxmax()]
        assert row["worst_lost"] == pytest.approx(worst["beyond"])
        assert (row["worst_hand_key"], row["worst_street"]) in set(zip(
            group.loc[group["beyond"] == worst["beyond"], "hand_key"],
            group.loc[group["beyond"] == worst["beyond"], "street"], strict=True))
    assert met >= 8  # the demo meets most kinds


def test_the_page_shows_the_recounted_headline(reviewed: Path, table: pd.DataFrame,
                                               monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OFC_DB", str(reviewed))
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params.update({"player": "Hero"})
    at.run()
    at.switch_page("views/review.py").run()
    assert not at.exception
    got = {m.label: m.value for m in at.metric}
    counts = table["class"].value_counts()
    assert got["Accuracy"] == f"{table['accuracy'].mean():.1f}"
    assert got["?? · ? · ?!"] == (
        f"{counts.get('blunder', 0):,} · {counts.get('mistake', 0):,} · "
        f"{counts.get('inaccuracy', 0):,}")
    assert got["EV lost a hand beyond the noise"] == (
        f"{table['beyond'].sum() / table['hand_key'].nunique():.1f}")
    assert got["Reviewed hands"] == f"{table['hand_key'].nunique():,}"
    leaks = next(d for d in at.dataframe if "situation" in d.value.columns).value
    assert len(leaks) >= 8


def test_the_sessions_page_shows_each_sessions_accuracy(reviewed: Path, table: pd.DataFrame,
                                                         monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OFC_DB", str(reviewed))
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params.update({"player": "Hero"})
    at.run()
    at.switch_page("views/sessions.py").run()
    assert not at.exception
    shown = next(d for d in at.dataframe if "accuracy" in d.value.columns).value
    want = table.groupby("session_id")["accuracy"].mean()
    got = {str(p).removeprefix("id:"): a for p, a in zip(shown["period"], shown["accuracy"],
                                                         strict=True) if a == a}
    assert got and got == pytest.approx({k: want[k] for k in got})
    assert set(got) == set(want.index) & {str(p).removeprefix("id:") for p in shown["period"]}
