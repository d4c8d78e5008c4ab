"""The filters every page shares (:class:`Filters`) and their URL query parameters.

A page is narrowed by one value per filter; ``None`` means "all". The URL carries the ones
set, so a view can be bookmarked (``?player=ann&from=2026-01-02&room=swc&stake=0.5+EUR``):

>>> Filters(player="ann", room="swc", stake=Stake(0.5, "EUR")).to_params()
{'player': 'ann', 'room': 'swc', 'stake': '0.5 EUR'}
>>> Filters.from_params({"player": "ann", "stake": "0.5 EUR"}).stake
Stake(amount=0.5, currency='EUR')

The SQL they become is :func:`dashboard.queries.conditions.where`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from datetime import date
from typing import Any

from ingest.api import MyName


@dataclass(frozen=True, slots=True)
class Stake:
    """A stake level: money per point in a currency (``None``: the log names none), written
    ``"0.5 EUR"`` (or ``"2"`` without a currency) in the sidebar and the URL.

    >>> str(Stake(0.5, "EUR")), str(Stake(2.0, None))
    ('0.5 EUR', '2')
    >>> Stake.parse("0.5 EUR"), Stake.parse("2"), Stake.parse("cheap"), Stake.parse("nan")
    (Stake(amount=0.5, currency='EUR'), Stake(amount=2.0, currency=None), None, None)
    """

    amount: float
    currency: str | None

    def __str__(self) -> str:
        amount = repr(float(self.amount))  # the shortest text that reads back the same
        amount = amount.removesuffix(".0")
        return f"{amount} {self.currency}" if self.currency else amount

    @classmethod
    def parse(cls, text: str) -> Stake | None:
        """The stake ``text`` names (as :meth:`__str__` writes it); ``None`` if it names none."""
        amount, _, currency = text.strip().partition(" ")
        try:
            value = float(amount)
        except ValueError:
            return None
        if value != value or value in (float("inf"), float("-inf")):  # NaN, infinities
            return None
        return cls(value, currency.strip() or None)


@dataclass(frozen=True, slots=True)
class Filters:
    """What every page is narrowed to. ``None`` means "all".

    ``player`` is whose results the pages show; ``me`` the user's own names (aliases across
    rooms, :class:`ingest.api.MyName`), shown together as one player (``None``: not chosen;
    both set: the player among my names), and ``me_skip`` the seats of mine that hands seating
    two of my names leave out (``hand_key * 8 + seat`` of each seat after the first:
    :func:`dashboard.queries.me_sql.shared_seats`; ``None``: not known, ``where`` finds them
    itself, which costs more); ``opponent`` keeps the hands where that opponent sat at the
    table; ``variant`` is the preset name (``hands.variant``), ``ruleset`` the full label
    (``hands.ruleset_label``); ``session`` is ``hands.session_id``; ``room`` the hand's source
    (``hands.source``: the room, app or home game its log came from) and ``stake`` its stake
    level (``hands.stake`` and ``hands.currency``). Dates are inclusive days in the database's
    time zone (hands without a date drop out when a date bound is set); the SQL compares
    timestamps, so no per-row date conversion. ``tag`` keeps the hands carrying that tag
    (``hand_tags``, matched case-folded).

    >>> Filters(player="ann").with_(opponent="bob").opponent
    'bob'
    """

    player: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    variant: str | None = None
    ruleset: str | None = None
    opponent: str | None = None
    session: str | None = None
    me: tuple[MyName, ...] | None = None
    me_skip: tuple[int, ...] | None = None
    tag: str | None = None
    room: str | None = None
    stake: Stake | None = None
    game: str | None = None
    """``cash`` (tournament hands left out), ``tournaments`` (only they) or ``None`` (both:
    also what a store without tournaments gets, with no condition at all)."""

    def with_(self, **changes: Any) -> Filters:
        return replace(self, **changes)

    def to_params(self) -> dict[str, str]:
        """The URL query parameters of these filters (only the ones set).

        >>> Filters(player="ann", date_from=date(2026, 1, 2)).to_params()
        {'player': 'ann', 'from': '2026-01-02'}
        """
        out: dict[str, str] = {}
        for f in fields(self):
            if f.name not in URL_KEYS:
                continue
            value = getattr(self, f.name)
            if f.name == "me":
                value = ME_PARAM_ON if value else None
            if value is not None:
                out[URL_KEYS[f.name]] = value.isoformat() if isinstance(value, date) else \
                    str(value)
        return out

    @classmethod
    def from_params(cls, params: dict[str, str], me: tuple[MyName, ...] = ()) -> Filters:
        """Inverse of :meth:`to_params`; a malformed date or stake is ignored, never an error.
        The URL says only whether "me" is chosen (``?me=1``): ``me`` gives the names.

        >>> Filters.from_params({"player": "ann", "to": "2026-02-30", "x": "1"}) == Filters("ann")
        True
        >>> Filters.from_params({"me": "1"}, (MyName("ann"),)).to_params()
        {'me': '1'}
        """
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = params.get(URL_KEYS[f.name]) if f.name in URL_KEYS else None
            if raw in (None, ""):
                continue
            value = _from_text(f.name, str(raw), me)
            if value is not None:
                values[f.name] = value
        return cls(**values)


def _from_text(name: str, raw: str, me: tuple[MyName, ...]) -> Any:
    """One filter's value from its URL text; ``None`` when the text names none."""
    if name == "me":
        return tuple(me) if raw == ME_PARAM_ON and me else None
    if name in ("date_from", "date_to"):
        try:
            return date.fromisoformat(raw)
        except ValueError:
            return None
    if name == "stake":
        return Stake.parse(raw)
    if name == "game":
        return raw if raw in GAMES else None
    return raw


URL_KEYS = {
    "player": "player", "date_from": "from", "date_to": "to", "variant": "variant",
    "ruleset": "ruleset", "opponent": "opponent", "session": "session", "me": "me",
    "tag": "tag", "room": "room", "stake": "stake", "game": "game",
}
"""Filter field -> URL query parameter name (``?player=ann&from=2026-01-01``)."""

GAMES = ("cash", "tournaments")
"""The Game filter's values (:attr:`Filters.game`; both: no value)."""

ME_PARAM_ON = "1"
"""``?me=1``: the pages show the user's own names (:attr:`Filters.me`)."""


def player_chosen(filters: Filters) -> bool:
    """Whether the filters name whose results to show (a player, or me)."""
    return filters.player is not None or bool(filters.me)


def shown_players(filters: Filters) -> str:
    """Who the pages show, for a heading (plain text: the caller escapes it).

    >>> shown_players(Filters(me=(MyName("ann"), MyName("ann_swc", "swc"))))
    'me (ann, ann_swc (swc))'
    >>> shown_players(Filters(player="bo"))
    'bo'
    """
    if filters.me and filters.player is None:
        return f"me ({', '.join(str(n) for n in filters.me)})"
    return filters.player or ""
