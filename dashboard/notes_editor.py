"""The note and tags editor the pages share (a hand in Hand review, an opponent on Opponents):
one form holding a text area and a multiselect of tags that takes new ones, sent together by
its "Save note and tags" button (or Ctrl+Enter in the note) and written through the dashboard's
write path (:func:`dashboard.db.writing`, so it works while the command line imports).

Nothing typed is lost to a rerun (issue 26). Inside a form the browser keeps every keystroke
and every tag picked until the button sends them all at once, and the widgets keep the same keys
before and after a save, so neither a rerun of the page (another widget, a slow run catching
up) nor a save resets them. After a save the widgets show what the store holds: only where it
differs from what was sent (a note trimmed, a tag typed twice in two cases) is a widget set,
and a line under the form says when it was saved or why the store refused it.

What the user typed is data: shown in widgets, never as markdown or HTML."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

import duckdb
import streamlit as st

from dashboard import db
from ingest import api
from ingest.api import Annotation

Write = Callable[[duckdb.DuckDBPyConnection, str, Sequence[str]], Annotation]
"""Stores a note and tags and returns what the store then holds: ``write(con, note, tags)``."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the last save of one editor did: saved at ``at`` (``HH:MM:SS``), or refused by
    the store for the reason ``refused``."""

    at: str
    refused: str = ""

    def message(self) -> str:
        """The line shown under the form.

        >>> Outcome("19:42:07").message()
        ':material/check: Saved at 19:42:07.'
        >>> Outcome("19:42:08", "A tag cannot be empty.").message()
        'Not saved at 19:42:08: A tag cannot be empty.'
        """
        if self.refused:
            return f"Not saved at {self.at}: {self.refused}"
        return f":material/check: Saved at {self.at}."


@dataclass(frozen=True, slots=True)
class Keys:
    """The session-state keys of the editor ``name``: its widgets' and its last outcome's.

    >>> Keys.of("hand_12").note, Keys.of("hand_12").save
    ('hand_12_note', 'hand_12_save')
    """

    note: str
    tags: str
    save: str
    form: str
    outcome: str

    @classmethod
    def of(cls, name: str) -> Keys:
        return cls(*(f"{name}_{part}" for part in ("note", "tags", "save", "form", "outcome")))


def editor(name: str, saved: Annotation, choices: Sequence[str], write: Write,
           label: str = "Note and tags") -> None:
    """Draw the editor of ``saved`` (widget keys ``{name}_note``, ``{name}_tags``,
    ``{name}_save``), which starts from the stored note and tags; its button saves the two
    together through ``write`` (:func:`save`). Over Parquet tables (:func:`dashboard.db.read_only`)
    the widgets are disabled."""
    keys = Keys.of(name)
    if keys.note not in st.session_state:  # first drawn (or again after the page left it)
        st.session_state[keys.note] = saved.note
    if keys.tags not in st.session_state:
        st.session_state[keys.tags] = list(saved.tags)
    off = db.read_only()  # over Parquet tables: shown, not editable (the page says why)
    with st.expander(label, expanded=bool(saved.note or saved.tags)):
        with st.form(keys.form, border=False):
            st.text_area("Note", max_chars=api.NOTE_MAX_CHARS, key=keys.note, height=90,
                         disabled=off)
            st.multiselect(
                "Tags", tuple(dict.fromkeys((*saved.tags, *choices))),
                accept_new_options=True, key=keys.tags, disabled=off,
                help=f"Pick a tag or type a new one and press Enter (at most "
                     f"{api.TAG_MAX_CHARS} characters; the tag filter ignores case).")
            st.form_submit_button("Save note and tags", key=keys.save, on_click=save,
                                  args=(keys, write), disabled=off)
        shown(st.session_state.get(keys.outcome))


def save(keys: Keys, write: Write) -> None:
    """The button's callback: store the note and the tags sent with it, then set a widget
    only where the store keeps something else (it runs before the page is drawn, so the
    widgets show the stored values); a refusal keeps what was typed and says why."""
    note = str(st.session_state.get(keys.note) or "")
    tags = [str(t) for t in st.session_state.get(keys.tags) or ()]
    now = datetime.now().strftime("%H:%M:%S")
    try:
        with db.writing() as con:
            stored = write(con, note, tags)
    except (api.NoteError, api.StoreError) as exc:
        st.session_state[keys.outcome] = Outcome(now, str(exc))
        return
    if stored.note != note:
        st.session_state[keys.note] = stored.note
    if list(stored.tags) != tags:
        st.session_state[keys.tags] = list(stored.tags)
    st.session_state[keys.outcome] = Outcome(now)


def shown(outcome: Outcome | None) -> None:
    """The last save's line: a caption when saved, an error when refused."""
    if outcome is None:
        return
    if outcome.refused:
        st.error(outcome.message())
    else:
        st.caption(outcome.message())
