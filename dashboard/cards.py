"""Cards that look like cards: rank and coloured suit, a face-down back for hidden cards, an
optional four-colour deck. And the one way to show any string from a file: as text.

The HTML here is built from fixed markup and escaped values only (``html.escape``); card text
is parsed with :func:`ofc_core.cards.Card.parse` first, so a malformed card shows as escaped
text, never as markup.

>>> card_html("Qh")
'<span class="ofc-card ofc-red" title="Qh">Q<span class="ofc-suit">♥</span></span>'
>>> card_html(None)
'<span class="ofc-card ofc-back" title="hidden">&nbsp;</span>'
>>> card_html("<b>")
'<span class="ofc-card ofc-bad" title="not a card">&lt;b&gt;</span>'
>>> card_html("X1", stood_for="2d")  # doctest: +NORMALIZE_WHITESPACE
'<span class="ofc-card ofc-joker" title="X1: joker, stood for 2d">🃏<span
 class="ofc-stood">2♦</span></span>'
>>> md_text("<img src=x onerror=alert(1)> *bold*")
'\\\\<img src=x onerror=alert\\\\(1\\\\)\\\\> \\\\*bold\\\\*'
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from ofc_core.board import Board, parse_compact_row
from ofc_core.cards import Card, Joker, Suit, parse_card

TWO_COLOURS = {Suit.CLUBS: "ofc-black", Suit.DIAMONDS: "ofc-red", Suit.HEARTS: "ofc-red",
               Suit.SPADES: "ofc-black"}
FOUR_COLOURS = {Suit.CLUBS: "ofc-green", Suit.DIAMONDS: "ofc-blue", Suit.HEARTS: "ofc-red",
                Suit.SPADES: "ofc-black"}

CSS = """
<style>
.ofc-cards { display: inline-flex; gap: 3px; flex-wrap: nowrap; align-items: center;
  min-height: 2.6em; flex-shrink: 0; }
.ofc-card { display: inline-flex; align-items: center; justify-content: center;
  width: 2.1em; height: 2.8em; border: 1px solid #999; border-radius: 5px; background: #fff;
  font: 700 1.05em/1 system-ui, sans-serif; box-shadow: 1px 1px 2px rgba(0,0,0,.18); }
.ofc-suit { font-size: 1.05em; margin-left: 1px; }
.ofc-red { color: #c8102e; } .ofc-black { color: #111; }
.ofc-blue { color: #1f4fd1; } .ofc-green { color: #138a36; }
.ofc-new { outline: 2px solid #f0a500; outline-offset: 1px; }
.ofc-back { background: repeating-linear-gradient(45deg, #2c5aa0 0 4px, #3c6cb8 4px 8px);
  border-color: #1d3d70; }
.ofc-empty { border: 1px dashed #bbb; background: transparent; box-shadow: none; }
.ofc-bad { color: #777; font-weight: 400; font-size: .8em; }
.ofc-joker { flex-direction: column; color: #6a1b9a; background: #f6efff;
  border-color: #6a1b9a; font-size: .95em; }
.ofc-stood { font-size: .7em; font-weight: 400; color: #333; }
.ofc-board { margin-bottom: 1.2em; }
.ofc-pair { display: flex; flex-wrap: wrap; gap: .4em 2.5em; margin-top: .5em; }
.ofc-row { display: flex; align-items: center; gap: .6em; margin: 2px 0; }
.ofc-row-label { width: 4.2em; color: #666; font: .8em system-ui, sans-serif; }
.ofc-row-note { color: #444; font: .85em system-ui, sans-serif; min-width: 5em; }
</style>
"""

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$&:])")


def md_text(text: object) -> str:
    """``text`` escaped for ``st.markdown``: every markdown or HTML character is backslashed,
    so a player name always shows literally."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def _parse(token: str) -> Card | Joker | None:
    try:
        return parse_card(token)
    except ValueError:
        return None


def _joker_html(joker: Joker, stood_for: str | None, new: bool) -> str:
    """A joker card (🃏), with the card it stood for underneath when the scorer said."""
    card = _parse(stood_for) if stood_for else None
    title = f"{joker}: joker" + (f", stood for {card}" if isinstance(card, Card) else "")
    under = (f'<span class="ofc-stood">{html.escape(card.pretty)}</span>'
             if isinstance(card, Card) else "")
    outline = " ofc-new" if new else ""
    return (f'<span class="ofc-card ofc-joker{outline}" title="{html.escape(title)}">'
            f'🃏{under}</span>')


def card_html(token: str | None, four_colour: bool = False, new: bool = False,
              stood_for: str | None = None) -> str:
    """One card as HTML; ``None`` (or ``'??'``/``'xx'``) is a hidden card, face down; ``new``
    outlines a card placed this street; a joker shows ``stood_for`` (the card it became)."""
    if token is None or token.strip().lower() in ("??", "xx", "x"):
        return '<span class="ofc-card ofc-back" title="hidden">&nbsp;</span>'
    card = _parse(token)
    if card is None:
        return f'<span class="ofc-card ofc-bad" title="not a card">{html.escape(token)}</span>'
    if isinstance(card, Joker):
        return _joker_html(card, stood_for, new)
    colour = (FOUR_COLOURS if four_colour else TWO_COLOURS)[card.suit]
    if new:
        colour += " ofc-new"
    return (f'<span class="ofc-card {colour}" title="{html.escape(str(card))}">'
            f'{html.escape(card.rank.char)}<span class="ofc-suit">{card.suit.symbol}</span></span>')


def cards_html(tokens: Iterable[str | None], four_colour: bool = False, *,
               slots: int = 0, hidden: int = 0, new: Collection[str] = (),
               jokers: Mapping[str, str] | None = None) -> str:
    """A row of cards, then ``hidden`` face-down cards, padded with empty slots to ``slots``;
    cards in ``new`` are outlined; ``jokers`` maps a joker (``'X1'``) to what it stood for."""
    stood = jokers or {}
    items = [card_html(t, four_colour, t in new, stood.get(t.upper()) if t else None)
             for t in tokens]
    items += [card_html(None)] * hidden
    items += ['<span class="ofc-card ofc-empty">&nbsp;</span>'] * max(0, slots - len(items))
    return f'<span class="ofc-cards">{"".join(items)}</span>'


def board_html(rows: Sequence[tuple[str, Sequence[str | None], str]], four_colour: bool = False,
               sizes: Sequence[int] = (3, 5, 5), new: Collection[str] = (),
               jokers: Mapping[str, str] | None = None) -> str:
    """Three labelled rows: ``(label, cards, note)`` each; label and note are escaped;
    ``jokers`` maps a joker to the card it stood for (drawn under it)."""
    out = []
    for (label, tokens, note), size in zip(rows, sizes, strict=False):
        out.append(
            f'<div class="ofc-row"><span class="ofc-row-label">{html.escape(label)}</span>'
            f'{cards_html(tokens, four_colour, slots=size, new=new, jokers=jokers)}'
            f'<span class="ofc-row-note">{html.escape(note)}</span></div>')
    return "".join(out)


def pretty(text: str | None) -> str:
    """Cards as plain text with suit symbols, for tables: ``'Qh Td'`` -> ``'Q♥ T♦'``; hidden
    stays ``'?'``.

    >>> pretty("Qh Td")
    'Q♥ T♦'
    >>> pretty(None)
    '?'
    """
    if text is None:
        return "?"
    out = []
    for token in text.split():
        card = _parse(token)
        out.append(card.pretty if card else token)
    return " ".join(out)


def stood_for(jokers: str | None) -> dict[str, str]:
    """``hand_rows.jokers`` (``'X1=2d X2=Ts'``) as a mapping; NULL gives ``{}``.

    >>> stood_for("X1=2d X2=Ts"), stood_for(None)
    ({'X1': '2d', 'X2': 'Ts'}, {})
    """
    if not isinstance(jokers, str):
        return {}
    return dict(part.split("=", 1) for part in jokers.split() if "=" in part)


ROW_NAMES = ("top", "middle", "bottom")


def placement_parts(text: str) -> list[tuple[str, list[str]]]:
    """A board or placement in the compact notation ``top-middle-bottom`` (cards written
    without spaces, a row left empty between its dashes; after a slash, the discards) as
    ``(part, cards)`` for each part that holds cards; the text itself as one part when it is
    not that notation.

    >>> placement_parts("-Td7s-/6s")
    [('middle', ['Td', '7s']), ('discard', ['6s'])]
    >>> placement_parts("--")
    []
    >>> placement_parts("not cards")
    [('', ['not cards'])]
    """
    rows, _, thrown = text.partition("/")
    try:
        board = Board.parse_compact(rows)
        discard = [str(c) for c in parse_compact_row(thrown)]
    except ValueError:
        return [("", [text])]
    parts = [(name, [str(c) for c in getattr(board, name)]) for name in ROW_NAMES]
    return [(name, cards) for name, cards in [*parts, ("discard", discard)] if cards]


def placement_words(text: str | None) -> str:
    """A compact board or placement in words for a table: each row that holds cards named,
    the cards with suit symbols; ``empty`` for none.

    >>> placement_words("Qh--Kd/2c")
    'top Q♥ · bottom K♦ · discard 2♣'
    >>> placement_words("--"), placement_words(None)
    ('empty', '–')
    """
    if text is None:
        return "–"
    parts = placement_parts(text)
    if not parts:
        return "empty"
    return " · ".join(f"{name} {pretty(' '.join(cards))}".strip() for name, cards in parts)


def placements_in_words(text: str) -> str:
    """A sentence whose compact placements (``7h2c-6h6cAh-``) are written in words
    (:func:`placement_words`); the other words kept.

    >>> placements_in_words("a tie: -7h2c-6h6cAh or 6h2c6c-7h-Ah")
    'a tie: middle 7♥ 2♣ · bottom 6♥ 6♣ A♥ or top 6♥ 2♣ 6♣ · middle 7♥ · bottom A♥'
    >>> placements_in_words("no-one here")
    'no-one here'
    """
    def word(token: str) -> str:
        if token.count("-") != 2:
            return token
        parts = placement_parts(token)
        return token if parts and parts[0][0] == "" else placement_words(token)

    return " ".join(word(t) for t in text.split(" "))


def placement_html(text: str, four_colour: bool = False) -> str:
    """A compact placement drawn as cards, each part named (``middle`` T♦ 7♠ ``discard`` 6♠);
    ``nothing`` when it places no card. Built from parsed cards and escaped names only."""
    parts = placement_parts(text)
    if not parts:
        return "nothing"
    return " ".join(f'<span class="ofc-row-label">{html.escape(name)}</span>'
                    f'{cards_html(cards, four_colour)}' for name, cards in parts)
