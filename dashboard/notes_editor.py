"""The note and tags editor the pages share (a hand in Hand review, an opponent on Opponents):
a text area, a multiselect of tags that takes new ones, and a save button that writes through
the dashboard's write path (:func:`dashboard.db.writing`, so it works while the command line
imports). What the user typed is data: shown in widgets, never as markdown or HTML."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import duckdb
import streamlit as st

from dashboard import db
from ingest import api
from ingest.api import Annotation

SAVED_KEY = "_notes_saved"
"""Counts saves, so the widgets start again from the stored (cleaned) values after one."""

Write = Callable[[duckdb.DuckDBPyConnection, str, Sequence[str]], None]
"""Stores a note and tags: ``write(con, note, tags)``."""


def editor(name: str, saved: Annotation, choices: Sequence[str], write: Write,
           label: str = "Note and tags") -> None:
    """Draw the editor for ``saved`` (widget keys ``{name}_note``, ``{name}_tags``,
    ``{name}_save``); the save button calls ``write`` and reruns, or shows why the store
    refused the note."""
    version = st.session_state.get(SAVED_KEY, 0)
    with st.expander(label, expanded=bool(saved.note or saved.tags)):
        note = st.text_area("Note", value=saved.note, max_chars=api.NOTE_MAX_CHARS,
                            key=f"{name}_note_{version}", height=90)
        options = tuple(dict.fromkeys((*saved.tags, *choices)))
        tags = st.multiselect(
            "Tags", options, default=list(saved.tags), accept_new_options=True,
            key=f"{name}_tags_{version}",
            help=f"Pick a tag or type a new one (at most {api.TAG_MAX_CHARS} characters; "
                 "the tag filter ignores case).")
        if st.button("Save note and tags", key=f"{name}_save"):
            try:
                with db.writing() as con:
                    write(con, note, tags)
            except api.NoteError as exc:
                st.error(str(exc))
                return
            st.session_state[SAVED_KEY] = version + 1
            st.rerun()
