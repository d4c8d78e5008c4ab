"""Hand review's list of hands: the search, pages of :data:`~dashboard.queries.hands.PAGE_SIZE`
hands through every filtered hand ("hands 501–1,000 of 12,345"), and "Older hand"/"Newer hand",
which walk all of them: pages and steps are keysets on the list's order
(:data:`dashboard.queries.hands.ORDER`), never offsets. The page is kept in the session for
the filters and search it was found with; the newest page when they change.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard import db, filters, names, timefmt
from dashboard.queries import hands as q
from dashboard.queries.common import Filters

ANY = "Any"
PICKED_KEY = "_hand_review_picked"
PAGE_KEY = "_hand_review_page"
TABLE_KEY = "_hand_review_table"
RESULTS_KEY = "find_results"

Scope = tuple[Filters, q.HandSearch]
"""What the list shows: the shared filters and Hand review's search."""


def search_form() -> q.HandSearch:
    """What the user narrows the filtered hands to (an expander, open until a hand is shown)."""
    with st.expander("Find hands", expanded=not st.query_params.get("hand")):
        c = st.columns([2, 1, 1, 2, 2])
        hand_id = c[0].text_input("Hand id contains", key="find_id").strip() or None
        fouled = c[1].selectbox("Fouled", (ANY, "Yes", "No"), key="find_fouled")
        fl = c[2].selectbox("Fantasyland", (ANY, "Yes", "No"), key="find_fl")
        lo, hi = c[3].slider("Royalties", 0, 60, (0, 60), key="find_royalties")
        differs = c[4].checkbox("Room's result differs from ours", key="find_differs")
    flag = {ANY: None, "Yes": True, "No": False}
    return q.HandSearch(hand_id=hand_id, fouled=flag[fouled], fantasyland=flag[fl],
                        royalties_min=lo or None, royalties_max=None if hi >= 60 else hi,
                        differs=differs)


def current_page(scope: Scope) -> q.Page | None:
    """The list's page for these filters and search (the newest page when they changed)."""
    kept = st.session_state.get(PAGE_KEY)
    if not isinstance(kept, tuple) or kept[0] != scope:
        st.session_state[PAGE_KEY] = (scope, None)
        return None
    page: q.Page | None = kept[1]
    return page


def set_page(scope: Scope, page: q.Page | None,
             show_first: bool = False) -> None:
    """Go to ``page``; ``show_first`` opens its first hand (a page button, not a hand step)."""
    st.session_state[PAGE_KEY] = (scope, page)
    if show_first and "hand" in st.query_params:
        del st.query_params["hand"]


def page_of(scope: Scope, hand_key: int | None) -> pd.DataFrame:
    """The page of the list to show: the current one, or the one starting at ``hand_key``
    when the hand shown is not on it (opened from another page); a page that ran off the
    newest end is the newest page."""
    current, search = scope
    page = current_page(scope)
    found = db.query(q.find_hands, current, search, page)
    if page is not None and (found.empty or (not page.older and len(found) < q.PAGE_SIZE)):
        page = None
        found = db.query(q.find_hands, current, search, None)
    if hand_key is not None and hand_key not in set(found["hand_key"]) and \
            db.query(q.place, current, search, hand_key) is not None:
        page = q.Page(hand_key)
        found = db.query(q.find_hands, current, search, page)
    set_page(scope, page)
    frame: pd.DataFrame = found
    return frame


def page_label(found: pd.DataFrame, where: q.Place | None, hand_key: int | None) -> str:
    """"hands 501–1,000 of 12,345" (the first hand's place is counted from the one shown)."""
    keys = [int(k) for k in found["hand_key"]]
    if where is None or hand_key not in keys:
        return f"{len(found):,} hands"
    first = where.position - keys.index(hand_key)
    return f"hands {first + 1:,}–{first + len(keys):,} of {where.total:,}"


def page_buttons(scope: Scope, found: pd.DataFrame,
                 where: q.Place | None, hand_key: int | None) -> None:
    keys = [int(k) for k in found["hand_key"]]
    if where is None or hand_key not in keys:
        return
    first = where.position - keys.index(hand_key)
    c = st.columns([1, 1, 1, 3])
    c[0].button("⏮ Newest", key="page_newest", disabled=first == 0,
                on_click=set_page, args=(scope, None, True))
    c[1].button(f"◀ Newer {q.PAGE_SIZE}", key="page_newer", disabled=first == 0,
                on_click=set_page, args=(scope, q.Page(keys[0], older=False, inclusive=False),
                                         True))
    c[2].button(f"Older {q.PAGE_SIZE} ▶", key="page_older",
                disabled=first + len(keys) >= where.total, on_click=set_page,
                args=(scope, q.Page(keys[-1], older=True, inclusive=False), True))


def results_table(found: pd.DataFrame, label: str, scope: Scope
                  ) -> int | None:
    """The page's hands; a row selected on another page or list is forgotten."""
    shown_list = (scope, int(found["hand_key"].iloc[0]) if len(found) else None)
    if st.session_state.get(TABLE_KEY) != shown_list:
        st.session_state.pop(RESULTS_KEY, None)
        st.session_state[TABLE_KEY] = shown_list
    st.caption(f"{label} (newest first, {q.PAGE_SIZE} a page). Select a row to open it; "
               "in Note, ✎ marks a hand with a note, then come its tags.")
    shown = list_in_words(found)
    event = st.dataframe(
        shown, key=RESULTS_KEY, on_select="rerun",
        selection_mode="single-row", hide_index=True, width="stretch", height=240,
        column_order=tuple(c for c in LIST_COLUMNS if c != "game" or shown["game"].any()),
        column_config=LIST_COLUMNS, placeholder="–")
    return filters.hand_from_table(event, found)


LIST_COLUMNS = {
    "played_at": st.column_config.TextColumn("Played", width=135),
    "points": st.column_config.NumberColumn("Points", format="%+.0f", width=55),
    "opponents": st.column_config.TextColumn("Opponents", width=90),
    "royalties": st.column_config.NumberColumn("Royalties", width=65),
    "fouled": st.column_config.CheckboxColumn("Fouled", width=55),
    "fantasyland": st.column_config.CheckboxColumn("FL", width=35,
                                                   help="Played in Fantasyland"),
    "room_differs": st.column_config.CheckboxColumn(
        "Differs", width=60, help="The room's result differs from ours"),
    "note": st.column_config.TextColumn("Note", width=60, help="✎: a note; then the tags"),
    "hand_id": st.column_config.TextColumn("Hand", width=100),
    "game": st.column_config.TextColumn("Game", width=120,
                                        help="The room and the ruleset, where they vary"),
}
"""The list's columns, the most useful first (a hand is found by its time and result),
780 px in all with the selection boxes: readable at 1,280 px beside the sidebar (the hand
shown names its room and ruleset in full under the list)."""


def list_in_words(found: pd.DataFrame) -> pd.DataFrame:
    """The page's hands as the list shows them: times on the chosen clock, opponents by
    their aliases, a pen for a note then the tags, and the game (the room by name and the
    ruleset in words, each only when the page holds more than one).

    >>> frame = pd.DataFrame({"hand_key": [1, 2], "source": ["swc", "swc"],
    ...     "ruleset": ["pineapple", "progressive-pineapple (jokers 2)"],
    ...     "opponents": ["a, b", None], "note": [True, False], "tags": ["x", None]})
    >>> list_in_words(frame)[["game", "note", "opponents"]].values.tolist()
    [['Pineapple', '✎ x', 'a, b'], ['Progressive pineapple · 2 jokers', '', '']]
    """
    rooms = [names.room(v) for v in found["source"]]
    rulesets = [names.ruleset(v) for v in found["ruleset"]]
    parts = [values for values in (rooms, rulesets) if len(set(values)) > 1]
    return timefmt.table_times(found).drop(columns=["hand_key"]).assign(
        game=[" · ".join(p) for p in zip(*parts, strict=True)] if parts else "",
        opponents=[", ".join(names.players(str(o).split(", "))) if isinstance(o, str) else ""
                   for o in found["opponents"]],
        note=[" ".join(filter(None, ["✎" if n else "", t if isinstance(t, str) else ""]))
              for n, t in zip(found["note"], found["tags"], strict=True)])


def neighbours(scope: Scope, found: pd.DataFrame,
               where: q.Place | None) -> None:
    """Buttons to the newer and older hand among ALL the filtered hands; stepping off the page
    moves the page with it."""
    if where is None:
        return
    keys = {int(k) for k in found["hand_key"]}

    def go(key: int, older: bool) -> None:
        st.query_params["hand"] = str(key)
        if key not in keys:
            set_page(scope, q.Page(key, older=older, inclusive=True))

    left, right, _ = st.columns([1, 1, 4])
    left.button("◀ Newer hand", key="hand_newer", disabled=where.newer is None,
                on_click=go, args=(where.newer, False))
    right.button("Older hand ▶", key="hand_older", disabled=where.older is None,
                 on_click=go, args=(where.older, True))


def draw(scope: Scope, hand_key: int | None) -> tuple[int | None, q.Place | None,
                                                    pd.DataFrame]:
    """The list around ``hand_key`` (the URL's hand; else the page's first, then put in the
    URL): page buttons, the page's table, and a selected row opened. Returns the hand shown,
    its place among all the filtered hands, and the page."""
    found = page_of(scope, hand_key)
    if hand_key is None and len(found):
        hand_key = int(found.iloc[0]["hand_key"])
        st.query_params["hand"] = str(hand_key)  # the URL always names the hand shown
    where = None if hand_key is None else db.query(q.place, *scope, hand_key)
    page_buttons(scope, found, where, hand_key)
    picked = results_table(found, page_label(found, where, hand_key), scope)
    if picked != st.session_state.get(PICKED_KEY):  # a new row selected (not a stale one)
        st.session_state[PICKED_KEY] = picked
        if picked is not None and str(picked) != st.query_params.get("hand"):
            st.query_params["hand"] = str(picked)
            st.rerun()
    return hand_key, where, found
