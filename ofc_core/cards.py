"""Cards: the 52-card deck, the jokers, parsing at the edge, and the integer index used by the
batch code.

A card is a small immutable value. Loose text is accepted only here (``"Ah"``, ``"td"``,
``"10h"``, ``"A♠"``) and normalised once, so the rest of the core sees clean values.

>>> Card.parse("Ah")
Card('Ah')
>>> Card.parse("10♦").index
33
>>> parse_cards("Qh Qd 2c")
(Card('Qh'), Card('Qd'), Card('2c'))
>>> Card.parse("JK")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown card 'JK' (expected a rank ... e.g. 'Ah'; jokers are X1 and X2)
>>> parse_cards("X1 Ah")
(Joker('X1'), Card('Ah'))
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
            " c, d, h, s, e.g. 'Ah'; jokers are X1 and X2)"
        )

    @property
    def is_joker(self) -> bool:
        return False

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


@dataclass(frozen=True, slots=True)
class Joker:
    """A wild card of a joker table: ``X1`` (index 52) or ``X2`` (index 53).

    A joker stands for a card when the board is scored (:mod:`ofc_core.jokers`); until then it
    is a card like any other, so a joker written twice is a duplicated card. Jokers sort after
    the 52 cards.

    >>> JOKERS[1], JOKERS[1].index, str(JOKERS[0]), sorted([JOKERS[0], Card.parse("Ah")])
    (Joker('X2'), 53, 'X1', [Card('Ah'), Joker('X1')])
    """

    number: int

    @property
    def index(self) -> int:
        return 51 + self.number

    @property
    def is_joker(self) -> bool:
        return True

    @property
    def pretty(self) -> str:
        return f"🃏{self.number}"

    def __str__(self) -> str:
        return f"X{self.number}"

    def __repr__(self) -> str:
        return f"Joker('{self}')"

    def __lt__(self, other: object) -> bool:
        return self.index < _index_of(other)

    def __le__(self, other: object) -> bool:
        return self.index <= _index_of(other)

    def __gt__(self, other: object) -> bool:
        return self.index > _index_of(other)

    def __ge__(self, other: object) -> bool:
        return self.index >= _index_of(other)


def _index_of(other: object) -> int:
    if isinstance(other, Card | Joker):
        return other.index
    raise TypeError(f"a joker compares with cards, not {type(other).__name__}")


JOKERS: tuple[Joker, Joker] = (Joker(1), Joker(2))
"""``X1`` and ``X2``: a table with ``jokers: 1`` plays X1 only."""
MAX_JOKERS = len(JOKERS)
JOKER_SPELLINGS = {"X1": JOKERS[0], "X2": JOKERS[1]}

BoardCard = Card | Joker
"""What a player may place: a card of the deck or a joker."""


def card_of_index(index: int) -> BoardCard:
    """``card_of_index(0) == Card.parse('2c')``, ``card_of_index(52) == JOKERS[0]``."""
    if 52 <= index < 52 + MAX_JOKERS:
        return JOKERS[index - 52]
    return Card.from_index(index)


def parse_card(token: str) -> BoardCard:
    """One card or joker: ``parse_card('x2') is JOKERS[1]``, ``parse_card('Ah') is DECK[50]``.

    Jokers are written X1 and X2 only (any case); other spellings (``JK``, ``Jo``) are refused
    with the usual message, which names X1 and X2.
    """
    joker = JOKER_SPELLINGS.get(token.strip().upper())
    return joker if joker is not None else Card.parse(token)


def parse_cards(text: str | Iterable[str | BoardCard]) -> tuple[BoardCard, ...]:
    """Parse space-separated cards (or an iterable of tokens/cards). Empty text gives ``()``.

    Non-breaking and other Unicode spaces separate cards too.

    >>> parse_cards("Th\\u00a09s")
    (Card('Th'), Card('9s'))
    >>> parse_cards("")
    ()
    """
    if isinstance(text, str):
        tokens: Iterable[str | BoardCard] = text.split()
    else:
        tokens = text
    return tuple(t if isinstance(t, Card | Joker) else parse_card(t) for t in tokens)


def real_cards(cards: Iterable[BoardCard]) -> tuple[Card, ...]:
    """The cards of a row that holds no joker (``ValueError`` naming the joker otherwise)."""
    row: list[Card] = []
    for c in cards:
        if isinstance(c, Joker):
            raise ValueError(f"{c} is a joker: resolve the board under its ruleset first")
        row.append(c)
    return tuple(row)


def format_cards(cards: Iterable[BoardCard]) -> str:
    """Inverse of :func:`parse_cards`: ``format_cards(parse_cards('Ah Kd')) == 'Ah Kd'``."""
    return " ".join(map(str, cards))
