"""Notes and tags for the pages: the user's own words on a hand or an opponent, read through
``ingest.api`` (the one home of their SQL, beside their writer ``ingest.notes``)."""

from __future__ import annotations

from typing import Any

from ingest import api
from ingest.api import Annotation


def of_hand(con: Any, source: str, hand_id: str) -> Annotation:
    """The note and tags of the hand ``(source, hand_id)``."""
    return api.hand_annotation(con, source, hand_id)


def of_player(con: Any, player: str) -> Annotation:
    """The note and tags of ``player``."""
    return api.player_annotation(con, player)


def hand_tags(con: Any) -> tuple[str, ...]:
    """The tags in use on hands (the tag filter's choices), once per tag."""
    return api.tag_choices(con, "hand")


def player_tags(con: Any) -> tuple[str, ...]:
    """The tags in use on players (the Opponents page offers them), once per tag."""
    return api.tag_choices(con, "player")


def player_tag_lists(con: Any) -> dict[str, str]:
    """``{player: "tag, tag"}`` for every tagged player (the Opponents table's column)."""
    return api.player_tag_lists(con)
