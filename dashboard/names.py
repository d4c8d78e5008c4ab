"""Words, not codes: the one place the pages turn a stored code into what a user reads.

- :func:`room`: a hand's ``source`` as its room's name (``swc`` -> ``Seals with Clubs``);
- :func:`currency`: a stake's currency as the room calls it, or said to be unknown;
- :func:`ruleset`: a ruleset label in words (``progressive-pineapple (fl_repeat entry, jokers
  2)`` -> ``Progressive pineapple · 2 jokers · Fantasyland repeats on entry``);
- :func:`player`: a player id as the alias the user gave it (``ofc alias``, the Opponents
  page), else as it is;
- :func:`session`: a session's one name on every page (its table where the log names one, and
  its span on the clock).

The room and currency names are ingest's, kept with each format (``ingest.api.room_name``,
``ingest.api.currency_name``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pandas as pd

from ingest import api

NO_TIME = "–"
"""What :func:`dashboard.timefmt.shown` writes for a missing time."""

VARIANTS: Mapping[str, str] = {
    "regular": "Regular OFC",
    "turbo": "Turbo OFC",
    "pineapple": "Pineapple",
    "progressive-pineapple": "Progressive pineapple",
    "double": "OFC Double",
    "joker-pineapple": "Joker pineapple",
    "2-7-pineapple": "2-7 pineapple",
}

_OVERRIDES: Mapping[str, Any] = {
    "jokers": lambda v: f"{v} joker{'s' * (str(v) != '1')}",
    "fl_repeat": lambda v: ("Fantasyland repeats on entry" if v == "entry"
                            else f"Fantasyland repeats with {v} cards"),
    "fantasyland": lambda v: "no Fantasyland" if v == "off" else "Fantasyland",
    "scoring": lambda v: f"scoring {v}",
    "cap": lambda v: f"capped at {v} points",
    "surrender_cost": lambda v: f"surrender costs {v}",
    "royalties": lambda v: f"{str(v).replace('_', ' ').replace('-', ' ')} royalties",
    "foul_payout": lambda v: ("a foul pays the scoop" if v == "scoop"
                              else "a foul pays the scoop and royalties"),
    "fl_stay": lambda v: f"{str(v).replace('-', ' ')} Fantasyland stay",
    "button_in_fl": lambda v: f"button {v} in Fantasyland",
    "joker_rule": lambda v: f"jokers {str(v).replace('-', ' ')}",
}


def room(source: Any) -> str:
    """A room's name.

    >>> room("swc"), room("pineapple-app"), room("home-game"), room(None)
    ('Seals with Clubs', 'Pineapple app', 'home-game', '–')
    """
    if source is None or (not isinstance(source, str) and pd.isna(source)):
        return "–"
    return api.room_name(str(source))


def currency(code: Any) -> str:
    """A stake's currency as a reader knows it.

    >>> currency("EUR"), currency("mBTC"), currency("R"), currency(None), currency("")
    ('EUR', 'mBTC (millibitcoin)', 'SwC money (R)', 'unknown', 'unknown')
    """
    if code is None or (not isinstance(code, str) and pd.isna(code)) or not str(code):
        return api.currency_name(None)
    return api.currency_name(str(code))


def variant(code: Any) -> str:
    """A variant in words.

    >>> variant("progressive-pineapple"), variant("2-7-pineapple"), variant("new-one")
    ('Progressive pineapple', '2-7 pineapple', 'New one')
    """
    text = str(code)
    return VARIANTS.get(text, text.replace("-", " ").capitalize())


_LABEL = re.compile(r"^(?P<variant>[\w-]+)(?: \((?P<rest>.*)\))?$")


def ruleset(label: Any) -> str:
    """A ruleset label (:attr:`ofc_core.rules.Ruleset.label`) in words: the variant, then
    each rule that differs from it.

    >>> ruleset("progressive-pineapple (fl_repeat entry, jokers 2)")
    'Progressive pineapple · 2 jokers · Fantasyland repeats on entry'
    >>> ruleset("pineapple"), ruleset("pineapple (scoring 2-4)")
    ('Pineapple', 'Pineapple · scoring 2-4')
    """
    found = _LABEL.match(str(label))
    if found is None:
        return str(label)
    words = [variant(found["variant"])]
    rules = []
    for part in (found["rest"] or "").split(", "):
        if not part:
            continue
        key, _, value = part.partition(" ")
        said = _OVERRIDES.get(key)
        rules.append(said(value) if said else part.replace("_", " "))
    return " · ".join(words + sorted(rules, key=_rule_order))


def _rule_order(text: str) -> tuple[int, str]:
    return (0 if "joker" in text else 1, text)


_ALIASES: dict[str, str] = {}
"""The aliases of the run being drawn (:func:`use_aliases`)."""


def use_aliases(aliases: Mapping[str, str]) -> None:
    """The aliases :func:`player` shows in this run (read once per run from the store)."""
    _ALIASES.clear()
    _ALIASES.update(aliases)


def player(name: Any) -> str:
    """A player as the user named them (``ofc alias``), else the id the log gives.

    >>> use_aliases({"583dd8fd": "Émile"})
    >>> player("583dd8fd"), player("Hero")
    ('Émile', 'Hero')
    >>> use_aliases({})
    """
    text = "–" if name is None or (not isinstance(name, str) and pd.isna(name)) else str(name)
    return _ALIASES.get(text, text)


def players(names: Any) -> list[str]:
    """:func:`player` of each."""
    return [player(n) for n in names]


UUID = re.compile(r"^[0-9a-f]{8}(-?[0-9a-f]{4}){3}-?[0-9a-f]{12}$", re.IGNORECASE)


def table_name(session_id: Any) -> str | None:
    """The table a session id names, when it names one a reader would know (not a UUID).

    >>> table_name("Scimitar #24"), table_name("7cd32b01-8a2c-4b2e-9f3a-1d2c3b4a5e6f")
    ('Scimitar #24', None)
    >>> table_name(None)
    """
    if session_id is None or (not isinstance(session_id, str) and pd.isna(session_id)):
        return None
    text = str(session_id)
    return None if UUID.match(text) else text


def session(session_id: Any, span: str) -> str:
    """A session's one name: its table and its span (``span``: as the Sessions page writes
    it, :func:`dashboard.views.sessions.span_label`).

    >>> session("Scimitar #24", "2026-11-20 18:00–18:05")
    'Scimitar #24 · 2026-11-20 18:00–18:05'
    >>> session("7cd32b01-8a2c-4b2e-9f3a-1d2c3b4a5e6f", "2026-11-20 18:00–18:05")
    '2026-11-20 18:00–18:05'
    """
    table = table_name(session_id)
    return f"{table} · {span}" if table else span


def session_choice(session_id: Any) -> str:
    """A session as the sidebar offers it (no span there: the options are the ids): its
    table, or a short form of an id that names none.

    >>> session_choice("Scimitar #24"), session_choice("7cd32b01-8a2c-4b2e-9f3a-1d2c3b4a5e6f")
    ('Scimitar #24', 'session 7cd32b01')
    """
    table = table_name(session_id)
    return table if table else f"session {str(session_id)[:8]}"


def span_label(started: str, ended: str) -> str:
    """A session named by its span, from its start and end as :func:`timefmt.shown` writes
    them (the zone is in the Started column).

    >>> span_label("2026-03-14 20:05 +01:00", "2026-03-14 22:31 +01:00")
    '2026-03-14 20:05–22:31'
    >>> span_label("2026-03-14 23:50 UTC", "2026-03-15 00:40 UTC")
    '2026-03-14 23:50 – 2026-03-15 00:40'
    >>> span_label("–", "–")
    'undated'
    """
    if started == NO_TIME:
        return "undated"
    first_day, first_time = started.split(" ")[:2]
    last_day, last_time = ended.split(" ")[:2]
    if first_day == last_day:
        return f"{first_day} {first_time}–{last_time}"
    return f"{first_day} {first_time} – {last_day} {last_time}"
