"""The Import page's "Who are you?" section: the user's own names ("me"), stored in the
database through :mod:`ingest.api` and shown by every page's Player filter.

Until they are set, the section asks for them, suggesting the ``hero`` of the imported logs
(most hands first; the demo sample's left out: its Hero is not the user). Once set, it shows
them, offers the heroes of newly imported logs that are not among them, and lets the user add
and remove names (each for every room, or for one source only).
"""

from __future__ import annotations

import streamlit as st

from dashboard import db, filters
from dashboard import names as names_module
from dashboard.cards import md_text
from dashboard.queries.common import my_names, sources, suggested_names
from ingest.api import BadName, MyName, Suggestion, add_my_name, remove_my_name, set_my_names

EVERY_SOURCE = "every room"
"""The "Only in" choice for a name that is the user's in every source."""


_SUGGESTED_KEY = "me_suggested"
_SUGGESTED_FOR = "_me_suggested_for"


def suggestion_label(s: Suggestion) -> str:
    """How a suggested name is offered (plain text: select box options are never markdown).

    >>> suggestion_label(Suggestion("ann", "swc", 1234))
    'ann (hero of 1,234 hands from Seals with Clubs)'
    """
    return (f"{s.name} (hero of {s.hands:,} hand{'s' * (s.hands != 1)} from "
            f"{names_module.room(s.source)})")


def _save(names: list[MyName], *, replace: bool) -> None:
    try:
        with db.writing() as con:
            if replace:
                set_my_names(con, names)
            else:
                for n in names:
                    add_my_name(con, n.name, n.source)
    except BadName as exc:
        st.error(md_text(str(exc)))
        return
    filters.choose_me()
    st.rerun()


def _remove(name: MyName) -> None:
    with db.writing() as con:
        remove_my_name(con, name.name, name.source)
    st.rerun()


def _another_name(key: str) -> MyName | None:
    """A typed name and the source it is kept to (``None`` when nothing was typed)."""
    left, right = st.columns([2, 1])
    typed = left.text_input("Another name of yours", key=f"{key}_name",
                            help="Exactly as the logs spell it.")
    room = right.selectbox("Only in", (EVERY_SOURCE, *db.query(sources)), key=f"{key}_source",
                           format_func=lambda v: v if v == EVERY_SOURCE else
                           names_module.room(v),
                           help="The source whose hands this name is yours in (someone else "
                                "may play under it elsewhere).")
    if not typed:
        return None
    return MyName(typed, None if room == EVERY_SOURCE else room)


def ask(suggested: tuple[Suggestion, ...]) -> None:
    """No names yet: ask for them."""
    st.subheader("Who are you?")
    st.markdown("Tell OFC Analytics the names you play under (one per room, if they differ): "
                "every page then opens on your hands, all your names together.")
    if st.session_state.get(_SUGGESTED_FOR) != suggested or _SUGGESTED_KEY not in st.session_state:
        # new logs (an upload just now), or the box drawn afresh: the first hero comes picked.
        # Set through the session state, which the browser is told of; a default would not
        # reach a box it already shows (the box keeps its identity when its options change)
        st.session_state[_SUGGESTED_KEY] = list(suggested[:1])
        st.session_state[_SUGGESTED_FOR] = suggested
    with st.form("me_form", border=True):
        picked = st.multiselect("Your names in the imported logs", suggested,
                                format_func=suggestion_label, key=_SUGGESTED_KEY,
                                placeholder="No hero named in the imported logs"
                                if not suggested else "Choose your names")
        typed = _another_name("me_new")
        if st.form_submit_button("Save my names", type="primary", key="me_save"):
            names = [MyName(s.name) for s in picked] + ([typed] if typed else [])
            if names:
                _save(names, replace=True)
            else:
                st.warning("Choose or type at least one name.")


def manage(names: tuple[MyName, ...], suggested: tuple[Suggestion, ...]) -> None:
    """Names set: show them, offer new heroes, add and remove."""
    st.markdown(":material/person: **You are** " + ", ".join(md_text(n) for n in names) +
                " (every page's Player filter opens on them: *Me*).")
    for n, s in enumerate(suggested[:3]):
        left, right = st.columns([4, 1], vertical_alignment="center")
        left.markdown(f"The imported logs name **{md_text(s.name)}** as their hero "
                      f"({s.hands:,} hands from {md_text(names_module.room(s.source))}). "
                      "Is it you?")
        if right.button("Add to my names", key=f"me_add_suggested_{n}"):
            _save([MyName(s.name)], replace=False)
    with st.expander("Change my names"):
        for n, name in enumerate(names):
            left, right = st.columns([4, 1], vertical_alignment="center")
            left.text(name.name if name.source is None
                      else f"{name.name} (only in {names_module.room(name.source)})")
            if right.button("Remove", key=f"me_remove_{n}"):
                _remove(name)
        with st.form("me_add_form", border=False):
            typed = _another_name("me_add")
            if st.form_submit_button("Add", key="me_add") and typed:
                _save([typed], replace=False)


def section() -> None:
    """The section, at the top of the Import page (over Parquet tables only the names, if
    the tables hold any: they cannot be set there)."""
    names = db.query(my_names)
    if db.read_only():  # over Parquet tables: nothing to write the names to
        if names:
            st.markdown(":material/person: **You are** " + ", ".join(md_text(n) for n in names))
        return
    suggested = db.query(suggested_names)
    if names:
        manage(names, suggested)
    else:
        ask(suggested)
