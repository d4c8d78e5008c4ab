"""OFC Analytics dashboard: the entry point that ``ofc dashboard`` runs.

It opens the database (creating it with the demo sample on a fresh machine), says so when demo
data is shown, draws the shared sidebar filters and runs the chosen page; the page runs again
by itself when an import lands (:mod:`dashboard.freshness`). Pages live in
``dashboard/views/`` and are listed in :data:`PAGES`.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:  # `streamlit run dashboard/app.py` from a bare checkout
    sys.path.insert(0, str(HERE.parent))

from dashboard import profiling, serve  # noqa: E402  (first: they time and warm what follows)

if __name__ == "__main__":
    profiling.begin()
    serve.wait()  # for the server's warm-up of the imports below, when it runs one

import streamlit as st  # noqa: E402

from dashboard import cards, db, filters, freshness, names, timefmt, watching  # noqa: E402
from ingest.api import StoreError, aliases, watched_folders  # noqa: E402

PAGES: tuple[tuple[str, str, str, str], ...] = (
    # (source relative to this file, title, icon, url path); the first is the default page,
    # served at the root ("/"), whatever its url path
    ("views/overview.py", "Overview", ":material/monitoring:", ""),
    ("views/hand_review.py", "Hand review", ":material/playing_cards:", "hands"),
    ("views/sessions.py", "Sessions", ":material/event_note:", "sessions"),
    ("views/matches.py", "Matches", ":material/emoji_events:", "matches"),
    ("views/tournaments.py", "Tournaments", ":material/military_tech:", "tournaments"),
    ("views/knockout.py", "Knockout", ":material/account_tree:", "knockout"),
    ("views/opponents.py", "Opponents", ":material/groups:", "opponents"),
    ("views/fouls.py", "Fouls", ":material/report:", "fouls"),
    ("views/fantasyland.py", "Fantasyland", ":material/auto_awesome:", "fantasyland"),
    ("views/review.py", "Review", ":material/psychology:", "review"),
    ("views/variants.py", "Variants", ":material/rule:", "variants"),
    ("views/play.py", "Play", ":material/playing_cards:", "play"),
    ("views/enter.py", "Enter", ":material/edit_note:", "enter"),
    ("views/train.py", "Train", ":material/fitness_center:", "train"),
    ("views/import_page.py", "Import", ":material/upload_file:", "import"),
)


# URL paths that open a page of PAGES besides its own (/overview: the default page, which
# Streamlit serves at / only). A comment, not a docstring: Streamlit runs this file as the
# page's __main__ and draws a bare string at the top level (its magic).
ALIASES: dict[str, str] = {"overview": "views/overview.py"}


def pages() -> list[st.Page]:
    """The menu's pages, then a hidden page per alias that switches to its page, the query
    string (the filters) kept."""
    shown = [st.Page(source, title=title, icon=icon, url_path=url, default=(n == 0))
             for n, (source, title, icon, url) in enumerate(PAGES)]
    by_source = {source: page for (source, *_), page in zip(PAGES, shown, strict=True)}
    return shown + [_alias(url, by_source[source]) for url, source in ALIASES.items()]


def _alias(url: str, target: st.Page) -> st.Page:
    def go() -> None:
        st.switch_page(target, query_params=st.query_params.to_dict())

    return st.Page(go, title=target.title, url_path=url, visibility="hidden")


def demo_banner() -> None:
    if not db.query(db.demo_import_ids):
        return
    with st.container(border=True):
        left, right = st.columns([5, 1], vertical_alignment="center")
        left.markdown(":material/info: **You are looking at demo data**: simulated hands from "
                      "the sample that ships with OFC Analytics, not your own. Import your logs "
                      "on the Import page, and remove the demo when you are done looking.")
        if right.button("Remove demo data", key="remove_demo", type="primary",
                        disabled=db.read_only()):
            with db.writing() as con:
                removed = db.remove_demo(con)
            st.toast(f"Removed {removed} demo hands.")
            st.rerun()


def read_only_banner() -> None:
    """Over Parquet tables (``ofc dashboard --parquet DIR``): the one line that says every
    write is off."""
    line = db.read_only_line()
    if line is not None:
        st.info(cards.md_text(line), icon=":material/lock:")


def main() -> None:
    st.set_page_config(page_title="OFC Analytics", page_icon=":material/style:", layout="wide")
    freshness.note()  # before any query: a write during this run brings one more run
    with profiling.page_run(), db.page_run():  # the store is open only while this run needs it
        try:
            db.connection()
            folders = db.query(watched_folders)
            names.use_aliases(db.query(aliases))  # every page shows the user's aliases
        except StoreError as exc:
            st.error(str(exc))
            st.stop()
        if not db.read_only():  # over Parquet tables nothing is imported
            watching.keep_watching([f.path for f in folders])  # the server's watcher, once
        # expanded: every page in the menu (past twelve, Streamlit would fold the last ones
        # under "View more", Import among them)
        navigation = st.navigation(pages(), expanded=True)
        profiling.name_page(navigation.url_path or Path(PAGES[0][0]).stem)  # "" at "/"
        st.markdown(cards.CSS, unsafe_allow_html=True)
        read_only_banner()
        demo_banner()
        filters.render_sidebar()
        timefmt.render_choice()
        freshness.follow()  # runs the page again when an import lands (a stat every 2 s)
        navigation.run()


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
