"""Notes and tags: what the user writes about a hand or an opponent.

A hand's note and tags are keyed by the hand's identity in its log, ``(source, hand_id)``, as
the ``decisions`` table is: rescoring, merging another log of the hand, upgrading the store and
removing or importing other files never touch them, and removing the hand's own import keeps
them (importing the hand again shows them again). An opponent's are keyed by the player's name.

A note is free text (any Unicode but control characters other than tab and line breaks), trimmed,
at most :data:`NOTE_MAX_CHARS` characters; an empty note clears it. A tag (no control
characters) is trimmed, its inner
runs of spaces made one and Unicode-normalised (NFC); it is shown as typed and matched by its
case-folded key (``Tilt``, `` tilt `` and ``TILT`` are one tag), at most
:data:`TAG_MAX_CHARS` characters, at most :data:`TAGS_MAX` per hand or player.

>>> from ingest.store import connect
>>> con = connect(":memory:")
>>> set_hand_note(con, "room", "h1", "  check-raised the river?  ")
>>> set_hand_tags(con, "room", "h1", ["Bluff", " bluff ", "fold  to 3-bet"])
('Bluff', 'fold to 3-bet')
>>> hand_annotation(con, "room", "h1")
Annotation(note='check-raised the river?', tags=('Bluff', 'fold to 3-bet'))
>>> set_hand_note(con, "room", "h1", "")
>>> hand_annotation(con, "room", "h1").note
''
>>> set_player_tags(con, "bob", ["x" * 41])
Traceback (most recent call last):
...
ingest.notes.NoteError: A tag holds at most 40 characters; 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' has 41.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import duckdb

from . import aggregates
from .ledger import transaction

NOTE_MAX_CHARS = 5000
TAG_MAX_CHARS = 40
TAGS_MAX = 20
NOTE_TABLES = ("hand_notes", "hand_tags", "player_notes", "player_tags")
"""The tables of user data this module owns (written only here, exported by ``ofc export``)."""

_NOTE_CONTROLS = frozenset("\t\n\r")
"""The control characters a note may hold (a tag holds none)."""


class NoteError(ValueError):
    """A note or tag the store refuses, with a message that says why."""


@dataclass(frozen=True, slots=True)
class Tag:
    """A tag as typed (``text``, cleaned) and its key for matching (``key``).

    >>> Tag.of("  Fish\\u00a0 on  tilt ")
    Tag(text='Fish on tilt', key='fish on tilt')
    >>> Tag.of("STRASSE").key == Tag.of("straße").key
    True
    >>> Tag.of("   ")
    Traceback (most recent call last):
    ...
    ingest.notes.NoteError: A tag cannot be empty.
    """

    text: str
    key: str

    @classmethod
    def of(cls, raw: str) -> Tag:
        text = " ".join(unicodedata.normalize("NFC", _checked(raw, "A tag")).split())
        if not text:
            raise NoteError("A tag cannot be empty.")
        if len(text) > TAG_MAX_CHARS:
            raise NoteError(f"A tag holds at most {TAG_MAX_CHARS} characters; "
                            f"'{text[:30]}…' has {len(text)}.")
        return cls(text, tag_key(text))


def tag_key(text: str) -> str:
    """The key a tag is matched by: cleaned as :meth:`Tag.of` cleans it, then case-folded.

    >>> tag_key(" Tilt  Monster ")
    'tilt monster'
    """
    return unicodedata.normalize("NFC", " ".join(text.split()).casefold())


def _checked(text: str, what: str, allowed: frozenset[str] = frozenset()) -> str:
    """``text`` if it can be stored: no control character but those ``allowed``, no lone
    surrogate (which is not Unicode text)."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cs") and ch not in allowed:
            raise NoteError(f"{what} cannot hold the character U+{ord(ch):04X}.")
    return text


def clean_note(raw: str) -> str:
    """The note to store: trimmed, checked; ``''`` means no note.

    >>> clean_note(" gg\\n")
    'gg'
    >>> clean_note("a" * 5001)
    Traceback (most recent call last):
    ...
    ingest.notes.NoteError: A note holds at most 5,000 characters; this one has 5,001.
    """
    text = unicodedata.normalize("NFC", _checked(raw, "A note", _NOTE_CONTROLS)).strip()
    if len(text) > NOTE_MAX_CHARS:
        raise NoteError(f"A note holds at most {NOTE_MAX_CHARS:,} characters; this one has "
                        f"{len(text):,}.")
    return text


def clean_tags(raw: Iterable[str]) -> tuple[Tag, ...]:
    """The tags to store, in the order given, once per key (the first spelling is kept).

    >>> [t.text for t in clean_tags(["Tilt", "fish", "tilt"])]
    ['Tilt', 'fish']
    """
    seen: dict[str, Tag] = {}
    for item in raw:
        tag = Tag.of(item)
        seen.setdefault(tag.key, tag)
    if len(seen) > TAGS_MAX:
        raise NoteError(f"At most {TAGS_MAX} tags on one hand or player; {len(seen)} given.")
    return tuple(seen.values())


@dataclass(frozen=True, slots=True)
class Annotation:
    """A hand's or a player's note (``''`` when none) and tags (as typed, in order)."""

    note: str
    tags: tuple[str, ...]


# --- writing ---------------------------------------------------------------------------------

_HAND = ("hand", ("source", "hand_id"))
_PLAYER = ("player", ("player",))


def _write_note(con: duckdb.DuckDBPyConnection, kind: tuple[str, tuple[str, ...]],
                key: Sequence[str], note: str) -> None:
    """Replace the stored note of ``key`` with ``note`` (cleaned; ``''`` deletes it), inside
    the caller's transaction."""
    table, cols = f"{kind[0]}_notes", kind[1]
    match = " AND ".join(f"{c} = ?" for c in cols)
    con.execute(f"DELETE FROM {table} WHERE {match}", list(key))
    if note:
        con.execute(f"INSERT INTO {table} ({', '.join(cols)}, note, updated_at) "
                    f"VALUES ({', '.join('?' * len(cols))}, ?, ?)",
                    [*key, note, datetime.now(timezone.utc)])


def _write_tags(con: duckdb.DuckDBPyConnection, kind: tuple[str, tuple[str, ...]],
                key: Sequence[str], tags: tuple[Tag, ...]) -> None:
    """Replace the stored tags of ``key`` with ``tags`` (cleaned), inside the caller's
    transaction."""
    table, cols = f"{kind[0]}_tags", kind[1]
    match = " AND ".join(f"{c} = ?" for c in cols)
    now = datetime.now(timezone.utc)
    con.execute(f"DELETE FROM {table} WHERE {match}", list(key))
    if tags:
        con.executemany(
            f"INSERT INTO {table} ({', '.join(cols)}, position, tag, tag_key, tagged_at) "
            f"VALUES ({', '.join('?' * len(cols))}, ?, ?, ?, ?)",
            [[*key, i, t.text, t.key, now] for i, t in enumerate(tags)])


def _save(con: duckdb.DuckDBPyConnection, kind: tuple[str, tuple[str, ...]],
          key: Sequence[str], note: str | None, tags: Iterable[str] | None) -> tuple[str, ...]:
    """Check ``note`` and ``tags`` (``None``: leave that part as stored) first, then write
    both in one transaction: a refused tag saves nothing, not even the note beside it. The
    tags stored, as shown."""
    cleaned_note = None if note is None else clean_note(note)
    cleaned_tags = None if tags is None else clean_tags(tags)
    what = " and ".join(w for w, v in (("note", note), ("tags", tags)) if v is not None)
    with transaction(con, f"saving the {kind[0]} {what}"):
        if cleaned_note is not None:
            _write_note(con, kind, key, cleaned_note)
        if cleaned_tags is not None:
            _write_tags(con, kind, key, cleaned_tags)
            if kind == _HAND:
                aggregates.refresh_tags(con, *key)
        con.execute("COMMIT")
    return tuple(t.text for t in cleaned_tags or ())


def set_hand_note(con: duckdb.DuckDBPyConnection, source: str, hand_id: str, note: str) -> None:
    """Store the note of the hand ``(source, hand_id)`` (``''`` clears it), in one
    transaction. Raises :class:`NoteError` for a note the store refuses."""
    _save(con, _HAND, (source, hand_id), note, None)


def set_hand_tags(con: duckdb.DuckDBPyConnection, source: str, hand_id: str,
                  tags: Iterable[str]) -> tuple[str, ...]:
    """Replace the tags of the hand ``(source, hand_id)`` with ``tags`` (none clears them);
    the tags stored, as shown. Raises :class:`NoteError` for a tag the store refuses."""
    return _save(con, _HAND, (source, hand_id), None, tags)


def set_hand_annotation(con: duckdb.DuckDBPyConnection, source: str, hand_id: str, note: str,
                        tags: Iterable[str]) -> tuple[str, ...]:
    """Store the note and the tags of the hand ``(source, hand_id)`` together: both are
    checked before anything is written, so a refused tag leaves the stored note as it was.
    The tags stored, as shown. Raises :class:`NoteError`."""
    return _save(con, _HAND, (source, hand_id), note, tags)


def set_player_note(con: duckdb.DuckDBPyConnection, player: str, note: str) -> None:
    """Store the note on ``player`` (an opponent, by name; ``''`` clears it)."""
    _save(con, _PLAYER, (player,), note, None)


def set_player_tags(con: duckdb.DuckDBPyConnection, player: str,
                    tags: Iterable[str]) -> tuple[str, ...]:
    """Replace the tags of ``player`` with ``tags``; the tags stored, as shown."""
    return _save(con, _PLAYER, (player,), None, tags)


def set_player_annotation(con: duckdb.DuckDBPyConnection, player: str, note: str,
                          tags: Iterable[str]) -> tuple[str, ...]:
    """Store the note and the tags of ``player`` together, as
    :func:`set_hand_annotation` does for a hand."""
    return _save(con, _PLAYER, (player,), note, tags)


# --- reading ---------------------------------------------------------------------------------

def _annotation(con: Any, kind: tuple[str, tuple[str, ...]], key: Sequence[str]) -> Annotation:
    name, cols = kind
    match = " AND ".join(f"{c} = ?" for c in cols)
    cur = con.cursor()  # a connection may be shared between threads (the dashboard's)
    try:
        note = cur.execute(f"SELECT note FROM {name}_notes WHERE {match}", list(key)).fetchone()
        tags = cur.execute(f"SELECT tag FROM {name}_tags WHERE {match} ORDER BY position",
                           list(key)).fetchall()
    finally:
        cur.close()
    return Annotation(note[0] if note else "", tuple(t for (t,) in tags))


def hand_annotation(con: Any, source: str, hand_id: str) -> Annotation:
    """The note and tags of the hand ``(source, hand_id)``."""
    return _annotation(con, _HAND, (source, hand_id))


def player_annotation(con: Any, player: str) -> Annotation:
    """The note and tags of ``player``."""
    return _annotation(con, _PLAYER, (player,))


def tag_choices(con: Any, kind: str = "hand") -> tuple[str, ...]:
    """Every tag in use on hands (``kind='hand'``) or players (``'player'``), once per key,
    in the spelling used most (ties: the first in sort order), sorted by key."""
    table = {"hand": "hand_tags", "player": "player_tags"}[kind]
    cur = con.cursor()
    try:
        rows = cur.execute(f"""
            SELECT tag FROM (SELECT tag_key, tag, count(*) AS n FROM {table} GROUP BY ALL)
            QUALIFY row_number() OVER (PARTITION BY tag_key ORDER BY n DESC, tag) = 1
            ORDER BY tag_key""").fetchall()
    finally:
        cur.close()
    return tuple(r[0] for r in rows)


def player_tag_lists(con: Any) -> dict[str, str]:
    """``{player: "tag, tag"}`` for every tagged player (a table column's text)."""
    cur = con.cursor()
    try:
        rows = cur.execute("SELECT player, string_agg(tag, ', ' ORDER BY position) "
                           "FROM player_tags GROUP BY player").fetchall()
    finally:
        cur.close()
    return {str(p): str(t) for p, t in rows}
