""""Me" in the dashboard (AppTest): until the user's names are set the Import page asks for
them, suggesting the logs' hero, and the pages open on the most frequent hero with a hint;
once set, every page's Player filter opens on "Me"; a hostile name is shown as text."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

from dashboard.app import PAGES
from dashboard.filters import ME
from ingest.api import MyName, my_names, set_my_names

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "dashboard" / "app.py")
HERO, EVIL = "hero", "<img src=x onerror=alert(1)>"
TIMEOUT = 60
IMPORT = "views/import_page.py"


def app(db: Path, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    monkeypatch.setenv("OFC_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(params)
    return at


def stored_names(db: Path) -> tuple[MyName, ...]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return my_names(con)
    finally:
        con.close()


def player_box(at: AppTest):  # type: ignore[no-untyped-def]
    return at.sidebar.selectbox(key="filter_player")


def url(at: AppTest, key: str) -> str | None:
    value = at.query_params.get(key)
    return value[0] if isinstance(value, list) else value


def no_raw_html_of(at: AppTest, text: str) -> None:
    for m in at.markdown:
        if m.proto.allow_html:
            assert text not in m.value


NOT_RESULTS = ("views/knockout.py", "views/play.py", "views/enter.py", "views/train.py")
"""Pages that show no player's results: a club's bracket, the practice table, hand entry, the
puzzles (the player's own, but no results)."""


def test_import_page_asks_who_you_are_then_every_page_opens_on_me(
        fixture_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = app(fixture_db, monkeypatch).run()
    assert not at.exception
    assert player_box(at).value == HERO  # today's default until the names are set
    hint = [p for p in at.sidebar.get("page_link") if "Set which player is you" in p.proto.label]
    assert hint and hint[0].proto.page.endswith("import")
    at.switch_page(IMPORT).run()
    assert not at.exception
    assert [s.value for s in at.subheader][0] == "Who are you?"
    box = at.multiselect(key="me_suggested")
    assert box.options == [f"{HERO} (hero of 40 hands from fixture)"]
    assert [s.name for s in box.value] == [HERO]  # the suggestion comes picked
    at.button(key="me_save").click().run()
    assert not at.exception
    assert stored_names(fixture_db) == (MyName(HERO),)
    assert player_box(at).value == ME and player_box(at).options[0] == f"Me ({HERO})"
    assert not [p for p in at.sidebar.get("page_link")
                if "Set which player is you" in p.proto.label]
    assert "Who are you?" not in [s.value for s in at.subheader]
    for source, title, _, _ in PAGES:
        at.switch_page(source).run()
        assert not at.exception, title
        assert player_box(at).value == ME, title
        assert url(at, "me") == "1" and url(at, "player") is None, title
        if source not in ("views/hand_review.py", IMPORT, *NOT_RESULTS):
            assert any(m.value == f"Results of **me \\({HERO}\\)**" for m in at.markdown), title
    # a bookmarked single player still opens on that player
    again = app(fixture_db, monkeypatch, player=EVIL).run()
    assert player_box(again).value == EVIL and url(again, "me") is None


def test_names_set_elsewhere_open_the_pages_on_me_and_the_numbers_are_mine(
        fixture_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(fixture_db))
    set_my_names(con, [MyName(HERO), MyName("bob")])  # bob: another name of mine, same tables
    con.close()
    at = app(fixture_db, monkeypatch).run()
    assert not at.exception
    assert player_box(at).value == ME and player_box(at).options[0] == f"Me ({HERO}, bob)"
    hands = {m.label: m.value for m in at.metric}["Hands"]
    assert hands == "40"  # a hand with two of my names counts once
    assert at.sidebar.selectbox(key="filter_opponent").options == ["All", EVIL]
    player_box(at).select(HERO).run()
    assert url(at, "player") == HERO and url(at, "me") is None
    assert at.sidebar.selectbox(key="filter_opponent").options == ["All", EVIL, "bob"]


def test_a_hostile_name_is_text(fixture_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at = app(fixture_db, monkeypatch)
    at.run()
    at.switch_page(IMPORT).run()
    at.multiselect(key="me_suggested").set_value([])
    at.text_input(key="me_new_name").input(EVIL)
    at.button(key="me_save").click().run()
    assert not at.exception
    assert stored_names(fixture_db) == (MyName(EVIL),)
    assert player_box(at).value == ME and player_box(at).options[0] == f"Me ({EVIL})"
    no_raw_html_of(at, EVIL)
    assert any("You are" in m.value and "\\<img" in m.value for m in at.markdown)
    at.switch_page("views/overview.py").run()
    assert not at.exception
    no_raw_html_of(at, EVIL)
    assert {m.label: m.value for m in at.metric}["Hands"] == "40"
    # removing the name: back to asking
    at.switch_page(IMPORT).run()
    at.button(key="me_remove_0").click().run()
    assert not at.exception and stored_names(fixture_db) == ()
    assert [s.value for s in at.subheader][0] == "Who are you?"
    assert player_box(at).value == HERO


def test_after_an_import_the_suggested_hero_makes_the_pages_show_the_imported_hands(
        empty_db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sample = ROOT / "data" / "samples" / "regular.jsonl"
    at = app(empty_db_path, monkeypatch)
    at.run()
    at.switch_page(IMPORT).run()
    assert at.multiselect(key="me_suggested").options == []  # nothing imported yet
    at.file_uploader[0].set_value([(sample.name, sample.read_bytes(), "application/json")]).run()
    at.button(key="import_button").click().run()
    assert not at.exception
    con = duckdb.connect(str(empty_db_path), read_only=True)
    hero, hands = con.execute("SELECT hero, count(*) FROM hands GROUP BY hero").fetchone()
    con.close()
    box = at.multiselect(key="me_suggested")
    assert [s.name for s in box.value] == [hero]
    at.button(key="me_save").click().run()
    at.switch_page("views/overview.py").run()
    assert not at.exception
    assert player_box(at).value == ME
    assert {m.label: m.value for m in at.metric}["Hands"] == str(hands)


def test_names_set_by_ofc_me_while_the_page_is_open_switch_it_to_me(
        fixture_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ofc_cli.cli import main as ofc

    at = app(fixture_db, monkeypatch).run()
    assert player_box(at).value == HERO
    assert ofc(["me", "add", EVIL, "--db", str(fixture_db)]) == 0
    at.run()
    assert not at.exception
    assert player_box(at).value == ME and player_box(at).options[0] == f"Me ({EVIL})"
    player_box(at).select(HERO).run()  # an explicit choice stays
    at.run()
    assert player_box(at).value == HERO


def test_the_demo_hero_is_not_suggested(fixture_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    con = duckdb.connect(str(fixture_db))
    con.execute("INSERT INTO meta VALUES ('demo_import_ids', '[1]')")  # the fixture is the demo
    con.close()
    at = app(fixture_db, monkeypatch)
    at.run()
    assert player_box(at).value == HERO  # the pages still open on the demo's hero
    at.switch_page(IMPORT).run()
    assert not at.exception
    assert [s.value for s in at.subheader][0] == "Who are you?"
    assert at.multiselect(key="me_suggested").options == []
    at.button(key="me_save").click().run()  # nothing chosen or typed: nothing saved
    assert stored_names(fixture_db) == ()
    assert any("at least one name" in w.value for w in at.warning)
