"""Why a player's hand has no decision to review: the one home of the reasons ``ofc review``
prints and the Review page counts.

A hand can be reviewed for a player when the log shows every position the player faced: the
player did not surrender; a Fantasyland hand's cards are logged and its middle is a poker hand
(the exact solver sets poker middles only); otherwise every seat's streets are logged (not
final boards only), nobody surrendered and the player's first street shows the cards dealt.
:func:`why_not` decides this from :class:`ReviewFacts`, seven yes/no facts about the player's
row of the hand, in that order (the first reason that applies is the one given).

The store keeps each ``hand_players`` row's reason as a small code (``review_reason``: 0 when
nothing stops the review, else the position in :data:`REASONS` plus one), computed when the
row is written (``ingest.review_reasons``) through :data:`CODE_BY_FACTS`, the code of every
combination of the facts, so the page reads a column, not the placements.

>>> why_not(ReviewFacts(surrendered=False, fantasyland=False, poker_middle=True,
...                     streets_logged=True, dealt_logged=False, all_streets_logged=True,
...                     someone_surrendered=False))
'the log does not show the cards the player was dealt'
>>> code_of(DEALT_NOT_LOGGED), reason_of(6), reason_of(0) is None
(6, 'the log does not show the cards the player was dealt', True)
"""

from __future__ import annotations

from dataclasses import dataclass, fields

SURRENDERED = "the player surrendered"
FL_NOT_LOGGED = "the log does not show the cards of the Fantasyland hand"
FL_SET_27 = "2-7 Fantasyland set (the exact solver sets poker middles only)"
FINAL_BOARDS = "the log shows final boards only, not the streets"
OPPONENT_SURRENDERED = "an opponent surrendered"
DEALT_NOT_LOGGED = "the log does not show the cards the player was dealt"

REASONS = (SURRENDERED, FL_NOT_LOGGED, FL_SET_27, FINAL_BOARDS, OPPONENT_SURRENDERED,
           DEALT_NOT_LOGGED)
"""Every reason, by stored code minus one (``hand_players.review_reason``): the codes are
stored, so a new reason is appended, never inserted, and none is removed."""


@dataclass(frozen=True, slots=True)
class ReviewFacts:
    """What decides whether a player's hand can be reviewed (each a yes or no)."""

    surrendered: bool
    """The player surrendered."""
    fantasyland: bool
    """The player played the hand in Fantasyland."""
    poker_middle: bool
    """The ruleset's middle is a poker hand (not a 2-7 low)."""
    streets_logged: bool
    """The log shows the player's streets (not only the final board)."""
    dealt_logged: bool
    """The log shows the cards dealt to the player on the first street."""
    all_streets_logged: bool
    """The log shows every seat's streets."""
    someone_surrendered: bool
    """A player of the hand (this one or another) surrendered."""


FACT_NAMES = tuple(f.name for f in fields(ReviewFacts))
"""The facts in order: bit ``i`` of a combination's number is ``FACT_NAMES[i]``."""


def why_not(facts: ReviewFacts) -> str | None:
    """The reason the player's hand cannot be reviewed, ``None`` when it can (module doc)."""
    if facts.surrendered:
        return SURRENDERED
    if facts.fantasyland:
        if not facts.dealt_logged:
            return FL_NOT_LOGGED
        return None if facts.poker_middle else FL_SET_27
    if not (facts.streets_logged and facts.all_streets_logged):
        return FINAL_BOARDS
    if facts.someone_surrendered:
        return OPPONENT_SURRENDERED
    if not facts.dealt_logged:
        return DEALT_NOT_LOGGED
    return None


def code_of(reason: str | None) -> int:
    """The stored code of a reason: 0 for none, else its place in :data:`REASONS` plus one."""
    return 0 if reason is None else REASONS.index(reason) + 1


def reason_of(code: int) -> str | None:
    """The reason a stored code stands for (``None``: nothing stops the review)."""
    return None if code == 0 else REASONS[code - 1]


def facts_of(number: int) -> ReviewFacts:
    """The facts of a combination's number (bit ``i``: ``FACT_NAMES[i]``).

    >>> facts_of(1).surrendered, facts_of(1).fantasyland
    (True, False)
    """
    return ReviewFacts(*(bool(number >> i & 1) for i in range(len(FACT_NAMES))))


CODE_BY_FACTS = tuple(code_of(why_not(facts_of(n))) for n in range(1 << len(FACT_NAMES)))
"""The code of every combination of the facts, by its number: what the store's writers look
up, so that :func:`why_not` stays the only rule."""
