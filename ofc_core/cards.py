"""Cards: the 52-card deck, parsing at the edge, and the integer index used by the batch code.

A card is a small immutable value. Loose text is accepted only here (``"Ah"``, ``"td"``,
``"10h"``, ``"A♠"``) and normalised once, so the rest of the core sees clean values.

>>> Card.parse("Ah")
Card('Ah')
>>> Card.parse("10♦").index
33
>>> parse_cards("Qh Qd 2c")
(Card('Qh'), Card('Qd'), Card('2c'))
>>> Card.parse("1x")
Traceback (most recent call last):
...
ValueError: unknown card '1x' (expected a rank 2-9, T, J, Q, K, A and a suit c, d, h, s, e.g. 'Ah')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum, StrEnum


class Suit(StrEnum):
    """The four suits, in the order of the card index (clubs first). Suits never break ties."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def offset(self) -> int:
        """Position of the suit in the card index (0 for clubs .. 3 for spades)."""
        return _SUIT_OFFSET[self]


_SUIT_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_SUIT_OFFSET = {suit: offset for offset, suit in enumerate(_SUIT_ORDER)}
_SUIT_SYMBOL = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_ALIASES = {
    "c": Suit.CLUBS, "♣": Suit.CLUBS, "♧": Suit.CLUBS,
    "d": Suit.DIAMONDS, "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS,
    "h": Suit.HEARTS, "♥": Suit.HEARTS, "♡": Suit.HEARTS,
    "s": Suit.SPADES, "♠": Suit.SPADES, "♤": Suit.SPADES,
}


class Rank(IntEnum):
    """Card ranks, valued 2..14 (the ace is high; it is low only in the wheel A-2-3-4-5)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        """One-letter notation: ``Rank.TEN.char == 'T'``."""
        return _RANK_CHARS[self - 2]

    @property
    def singular(self) -> str:
        """English name: ``Rank.QUEEN.singular == 'Queen'``."""
        return _RANK_NAMES[self - 2]

    @property
    def plural(self) -> str:
        """``Rank.SIX.plural == 'Sixes'``."""
        name = self.singular
        return name + ("es" if name.endswith("x") else "s")

    @classmethod
    def parse(cls, text: str) -> Rank:
        """``Rank.parse('10') is Rank.TEN``; case-insensitive."""
        key = text.upper()
        if key == "10":
            return cls.TEN
        if len(key) == 1 and key in _RANK_CHARS:
            return cls(_RANK_CHARS.index(key) + 2)
        raise ValueError(f"unknown rank {text!r}")


_RANK_CHARS = "23456789TJQKA"
_RANK_NAMES = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
    "Jack", "Queen", "King", "Ace",
)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card of the standard deck.

    ``index`` is ``(rank - 2) * 4 + suit offset``: 0 is the deuce of clubs, 51 the ace of spades.
    The batch scorer works on these indexes.

    >>> Card(Rank.ACE, Suit.SPADES).index
    51
    >>> Card.from_index(0)
    Card('2c')
    >>> c = Card.parse("Kd"); c.rank = Rank.ACE
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: cannot assign to field 'rank'
    """

    rank: Rank
    suit: Suit

    @property
    def index(self) -> int:
        return (self.rank - 2) * 4 + self.suit.offset

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise ValueError(f"card index {index} is outside 0..51")
        return _DECK[index]

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse one card: rank (2-9, T or 10, J, Q, K, A; any case) then suit (c d h s or a
        suit symbol). The card is the deck's own value (parsing makes no new objects):

        >>> Card.parse("ah") is Card.parse("A♥") is DECK[50]
        True
        """
        text = token.strip()
        if len(text) >= 2:
            suit = _SUIT_ALIASES.get(text[-1].lower())
            if suit is not None:
                try:
                    return _DECK[(Rank.parse(text[:-1]) - 2) * 4 + _SUIT_OFFSET[suit]]
                except ValueError:
                    pass
        raise ValueError(
            f"unknown card {token!r} (expected a rank 2-9, T, J, Q, K, A and a suit"
            " c, d, h, s, e.g. 'Ah')"
        )

    def __str__(self) -> str:
        # Rank.char and Suit.value inline (a Suit is a str): this runs for every card written.
        return _RANK_CHARS[self.rank - 2] + self.suit

    def __repr__(self) -> str:
        return f"Card('{self}')"

    @property
    def pretty(self) -> str:
        """Rank and suit symbol: ``Card.parse('Th').pretty == 'T♥'``."""
        return self.rank.char + self.suit.symbol


_DECK: tuple[Card, ...] = tuple(Card(Rank(r), s) for r in range(2, 15) for s in _SUIT_ORDER)
DECK: tuple[Card, ...] = _DECK
"""The 52 cards in index order."""


def parse_cards(text: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Parse space-separated cards (or an iterable of tokens/cards). Empty text gives ``()``.

    Non-breaking and other Unicode spaces separate cards too.

    >>> parse_cards("Th\\u00a09s")
    (Card('Th'), Card('9s'))
    >>> parse_cards("")
    ()
    """
    if isinstance(text, str):
        tokens: Iterable[str | Card] = text.split()
    else:
        tokens = text
    return tuple(t if isinstance(t, Card) else Card.parse(t) for t in tokens)


def format_cards(cards: Iterable[Card]) -> str:
    """Inverse of :func:`parse_cards`: ``format_cards(parse_cards('Ah Kd')) == 'Ah Kd'``."""
    return " ".join(map(str, cards))
