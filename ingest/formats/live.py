"""``ofc-live/1``: a plain-text notation for hands played live, typed after the session.

One hand per block (blocks are separated by blank lines or start with a ``hand`` header); a
player line is ``Name: board [FL|FL14] [surrender] [+7]``; ``@key value`` lines set defaults for
the hands that follow. The full description, with every message, is
``docs/format-live-csv.md``. The helpers below (boards, points, streets, rules, dates, stakes)
are shared with the CSV reader (:mod:`ingest.formats.csv_boards`).

>>> text = '''@variant pineapple
... hand 12 button=Anna [rules: scoring=2-4]
... Hero: Jh4s3h-As5c4c3c2h-KdJd9d7d3d +7
... Anna: QhQd2c / 8s8d8c5h5d / AhKhTh9h6h FL -7
... '''
>>> [hand] = FORMAT.parse(text, "thursday.txt")
>>> r = hand.record
>>> (r.source, r.hand_id, r.variant, dict(r.rules), r.button, hand.line)
('thursday', '12', 'pineapple', {'scoring': '2-4'}, 'Anna', 2)
>>> [(p.name, p.fantasyland, p.reported_points) for p in r.players]
[('Hero', False, 7.0), ('Anna', True, -7.0)]
>>> [issue] = FORMAT.parse("hand 3\\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\\nBob: Xx\\n", "x.txt")
>>> (issue.line, issue.hand_id, issue.message)
(3, '3', "hand '3': Bob: a board has three rows, top-middle-bottom or top / middle / bottom \
(got 'Xx')")

Why one module of this size: the value readers (cards, boards, flags, points, dates) that the
CSV reader shares and the notation's parser, with a message for every way a line can be wrong,
are one grammar.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from pathlib import PurePath
from types import MappingProxyType
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ofc_core.board import ROWS, Board, parse_compact_row
from ofc_core.cards import Card, format_cards
from ofc_core.hand import HandRecord, PlayerRecord, StreetPlay, board_from_streets, validate

from . import ParsedHand, ParseIssue

FORMAT_NAME = "ofc-live/1"

# --------------------------------------------------------------------------------------------
# Shared value readers (also used by the CSV reader). Each raises ValueError with a message.

VARIANT_ALIASES: Mapping[str, str] = MappingProxyType({
    "classic": "regular", "standard": "regular", "ofc": "regular", "regular ofc": "regular",
    "pineapple ofc": "pineapple", "progressive": "progressive-pineapple",
    "progressive pineapple": "progressive-pineapple", "turbo ofc": "turbo",
    "ofc double": "double",
})
"""Spellings people use for the presets (matched case-insensitively, ``_``/``-`` as spaces)."""


def variant_name(text: str) -> str:
    """The preset name for a variant as people write it; unknown names pass through (the
    record's validation then names them).

    >>> variant_name("Progressive Pineapple"), variant_name("PINEAPPLE"), variant_name("texas")
    ('progressive-pineapple', 'pineapple', 'texas')
    """
    key = " ".join(text.lower().replace("_", " ").replace("-", " ").split())
    return VARIANT_ALIASES.get(key, key.replace(" ", "-"))


_POINTS = re.compile(r"[+\-\u2212]?\d+(?:[.,]\d+)?")


def parse_points(text: str) -> float:
    """Points as the room recorded them: ``+7``, ``-3``, ``0``, ``7.5``, ``7,5``, ``−3``.

    >>> parse_points("+7"), parse_points("\\u22123"), parse_points("2,5")
    (7.0, -3.0, 2.5)
    >>> parse_points("+7x")
    Traceback (most recent call last):
    ...
    ValueError: bad points '+7x' (write a number such as +7, -3 or 0)
    """
    value = text.strip()
    if not _POINTS.fullmatch(value):
        raise ValueError(f"bad points {text!r} (write a number such as +7, -3 or 0)")
    return float(value.replace("\u2212", "-").replace(",", "."))


def parse_row(text: str) -> tuple[Card, ...]:
    """One row's cards, with or without spaces or commas between them (``KdJd9d``,
    ``Kd Jd 9d``, ``Kd, Jd, 9d``)."""
    return parse_compact_row(text.replace(",", " ").strip())


def parse_board(text: str) -> Board:
    """A board written ``top-middle-bottom`` (compact) or ``top / middle / bottom``.

    >>> parse_board("Jh4s3h-As5c4c3c2h-KdJd9d7d3d").top
    (Card('Jh'), Card('4s'), Card('3h'))
    >>> parse_board("Qh Qd 2c / 8s 8d 8c 5h 5d / Ah Kh Th 9h 2h").bottom[0]
    Card('Ah')
    >>> parse_board("QhQd2c / 8s8d8c5h5d")
    Traceback (most recent call last):
    ...
    ValueError: a board has three rows, top-middle-bottom or top / middle / bottom (got 2 rows)
    """
    body = text.strip()
    parts = body.split("/") if "/" in body else body.split("-")
    if len(parts) != 3:
        got = f"{len(parts)} rows" if len(parts) > 1 else repr(body)
        raise ValueError(f"a board has three rows, top-middle-bottom or top / middle / bottom "
                         f"(got {got})")
    return Board(*(parse_row(p) for p in parts))


ROW_LABELS: Mapping[str, str] = MappingProxyType({
    "t": "top", "top": "top", "f": "top", "front": "top",
    "m": "middle", "mid": "middle", "middle": "middle",
    "b": "bottom", "bot": "bottom", "bottom": "bottom", "back": "bottom",
    "x": "discard", "discard": "discard",
})
"""Labels of the ``row:cards`` items of a street (``x`` is the discard)."""

_LABEL = re.compile(r"([A-Za-z]+)\s*:")


def parse_street(text: str) -> StreetPlay:
    """One street, ``t:Jh m:As5c b:Kd x:2c`` (any order; ``x:?`` or no ``x`` = discard not
    known). ``dealt`` is the placed cards plus the discard when the discard is known.

    >>> s = parse_street("m:As5c b:KdJd x:2c")
    >>> (format_cards(s.middle), format_cards(s.discard), len(s.dealt))
    ('As 5c', '2c', 5)
    >>> parse_street("q:Jh")
    Traceback (most recent call last):
    ...
    ValueError: unknown row 'q' in 'q:Jh' (use t, m, b for top, middle, bottom and x for the \
discard)
    """
    pieces = _LABEL.split(text.strip())
    if pieces[0].strip():
        raise ValueError(f"expected row:cards, got {pieces[0].strip()!r} in {text.strip()!r}")
    rows: dict[str, list[Card]] = {"top": [], "middle": [], "bottom": []}
    discard: list[Card] | None = None
    for label, cards in zip(pieces[1::2], pieces[2::2], strict=True):
        row = ROW_LABELS.get(label.lower())
        if row is None:
            raise ValueError(f"unknown row {label!r} in {text.strip()!r} (use t, m, b for top, "
                             "middle, bottom and x for the discard)")
        if row == "discard":
            if cards.strip() != "?":
                discard = (discard or []) + list(parse_row(cards))
            continue
        rows[row] += parse_row(cards)
    placed = tuple(rows["top"] + rows["middle"] + rows["bottom"])
    known = None if discard is None else tuple(discard)
    return StreetPlay(tuple(rows["top"]), tuple(rows["middle"]), tuple(rows["bottom"]),
                      dealt=None if known is None else placed + known, discard=known)


def parse_streets(text: str) -> tuple[StreetPlay, ...]:
    """Streets in order, separated by ``|`` (empty segments are skipped).

    >>> len(parse_streets("m:As5c4c b:KdJd | t:Jh b:9d x:Qc |"))
    2
    """
    return tuple(parse_street(seg) for seg in text.split("|") if seg.strip())


def streets_mismatch(board: Board, streets: tuple[StreetPlay, ...]) -> str | None:
    """Why the streets do not add up to the board, or ``None`` when they do (any order)."""
    union = board_from_streets(streets)
    for row in ROWS:
        if Counter(board.row(row)) != Counter(union.row(row)):
            return (f"the streets put {format_cards(union.row(row)) or 'nothing'} on {row}, "
                    f"the board has {format_cards(board.row(row)) or 'nothing'}")
    return None


_NUMBER_RULES = ("surrender_cost", "cap", "jokers")
_ON_OFF = {"on": "on", "yes": "on", "true": "on", "off": "off", "no": "off", "false": "off"}


def rule_value(key: str, text: str) -> Any:
    """A rules override as ofc-hh/1 stores it: numbers for ``surrender_cost``, ``cap``, ``jokers``
    (``cap=none`` is no cap), ``on``/``off`` for ``fantasyland``, else the text. Bad values are
    kept as written so the ruleset check names them.

    >>> rule_value("cap", "30"), rule_value("cap", "none"), rule_value("fantasyland", "no")
    (30, None, 'off')
    """
    value = text.strip()
    if key in _NUMBER_RULES:
        if key == "cap" and value.lower() in ("none", "no", "off", ""):
            return None
        try:
            number = float(value.replace(",", "."))
        except ValueError:
            return value
        return int(number) if number.is_integer() else number
    if key == "fantasyland":
        return _ON_OFF.get(value.lower(), value)
    return value.lower()


def parse_rules(text: str) -> dict[str, Any]:
    """``key=value`` pairs separated by commas or spaces (``scoring=2-4, cap=30``).

    >>> parse_rules("scoring=2-4, cap=30 fl_stay=royalty-10")
    {'scoring': '2-4', 'cap': 30, 'fl_stay': 'royalty-10'}
    """
    rules: dict[str, Any] = {}
    for item in re.split(r"[,\s]+", text.strip()):
        if not item:
            continue
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"rules: expected key=value, got {item!r}")
        key = key.strip().lower().replace("-", "_")
        rules[key] = rule_value(key, value)
    return rules


CURRENCY_SYMBOLS: Mapping[str, str] = MappingProxyType(
    {"€": "EUR", "$": "USD", "£": "GBP", "₽": "RUB", "¥": "JPY", "₴": "UAH", "₸": "KZT"})


def parse_stake(text: str) -> tuple[float, str | None]:
    """Money per point and its currency: ``1 EUR``, ``0.5``, ``€1``, ``2,5 usd``.

    >>> parse_stake("1 EUR"), parse_stake("€0,5"), parse_stake("2")
    ((1.0, 'EUR'), (0.5, 'EUR'), (2.0, None))
    """
    body = text.strip()
    m = re.fullmatch(r"([^\d\s.,]*)\s*(\d+(?:[.,]\d+)?)\s*([A-Za-z]{3}|[^\d\sA-Za-z])?", body)
    symbol = (m.group(1) or m.group(3) or "") if m else ""
    if m is None or (m.group(1) and m.group(3)) or (symbol and not (
            symbol in CURRENCY_SYMBOLS or re.fullmatch(r"[A-Za-z]{3}", symbol))):
        raise ValueError(f"stake: expected money per point and an optional currency, such as "
                         f"'1 EUR' or '0.5', got {text!r}")
    currency = CURRENCY_SYMBOLS.get(symbol, symbol.upper()) or None
    return float(m.group(2).replace(",", ".")), currency


def parse_timezone(text: str) -> tzinfo:
    """``UTC``, ``Z``, ``+01:00``, ``UTC+3``, ``GMT-5`` or a zone name (``Europe/Berlin``).

    >>> parse_timezone("UTC+3"), parse_timezone("Europe/Berlin")
    (datetime.timezone(datetime.timedelta(seconds=10800)), zoneinfo.ZoneInfo(key='Europe/Berlin'))
    """
    body = text.strip()
    if body.upper() in ("UTC", "GMT", "Z"):
        return timezone.utc
    m = re.fullmatch(r"(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?", body, re.IGNORECASE)
    if m:
        minutes = int(m.group(2)) * 60 + int(m.group(3) or 0)
        if minutes < 24 * 60:
            return timezone(timedelta(minutes=minutes if m.group(1) == "+" else -minutes))
    try:
        return ZoneInfo(body)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(f"unknown time zone {text!r} (use UTC, +01:00 or a name such as "
                         "Europe/Berlin)") from None


_TIME = r"(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp][Mm]))?"
_OFFSET = r"(?:\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2}))?"
_SLASH = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_DOTTED = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")
_YEAR_FIRST = re.compile(r"(\d{4})[/.](\d{1,2})[/.](\d{1,2})")
_TIME_ONLY = re.compile(_TIME + _OFFSET)
DATE_EXAMPLES = "2026-11-26T21:05+01:00, 2026-11-26 21:05, 26.11.2026 21:05 or 11/26/2026"


def slash_day_first(values: Iterable[str]) -> bool | None:
    """How a file writes ``a/b/yyyy`` dates: month first (``11/26/2026``, the default), day first
    when some date has a first number above 12 (``26/11/2026``); ``None`` when the file has both
    kinds, so only unambiguous dates can be read.

    >>> slash_day_first(["11/26/2026", "01/02/2026"]), slash_day_first(["26/11/2026"])
    (False, True)
    """
    day_first = month_first = False
    for value in values:
        for m in _SLASH.finditer(value):
            day_first |= int(m.group(1)) > 12
            month_first |= int(m.group(2)) > 12
    if day_first and month_first:
        return None
    return day_first


def _clock(m: re.Match[str], first: int) -> tuple[time, str | None]:
    hour, minute, second = int(m.group(first)), int(m.group(first + 1)), int(
        m.group(first + 2) or 0)
    ampm = (m.group(first + 3) or "").lower()
    if ampm and not 1 <= hour <= 12:
        raise ValueError(f"hour {hour} with {ampm.upper()}")
    if ampm:
        hour = hour % 12 + (12 if ampm == "pm" else 0)
    return time(hour, minute, second), m.group(first + 4)


def _calendar_date(text: str, day_first: bool | None) -> tuple[date, str]:
    """The date at the start of ``text`` (not ISO) and the rest of the text."""
    for pattern, order in ((_YEAR_FIRST, "ymd"), (_DOTTED, "dmy"), (_SLASH, "slash")):
        m = pattern.match(text)
        if m is None:
            continue
        a, b, c = (int(g) for g in m.groups())
        if order == "slash":
            if day_first is None and a <= 12 and b <= 12 and a != b:
                raise ValueError(f"ambiguous date {m.group(0)!r}: this file writes dates both "
                                 "day first and month first; write it as 2026-11-26")
            first_is_day = day_first if day_first is not None else a > 12
            order = "dmy" if first_is_day else "mdy"
        y, mo, d = {"ymd": (a, b, c), "dmy": (c, b, a), "mdy": (c, a, b)}[order]
        return date(y, mo, d), text[m.end():]
    raise ValueError("no date")


def parse_played_at(text: str, *, tz: tzinfo = timezone.utc,
                    day_first: bool | None = False) -> datetime:
    """A moment written in ISO 8601 or a common spreadsheet form. A time without an offset is
    in ``tz`` (UTC unless the file says otherwise); a date alone is midnight.

    >>> parse_played_at("2026-11-26T21:05+01:00").isoformat()
    '2026-11-26T21:05:00+01:00'
    >>> parse_played_at("26.11.2026 21:05").isoformat()
    '2026-11-26T21:05:00+00:00'
    >>> parse_played_at("11/26/2026 9:05 PM").isoformat()
    '2026-11-26T21:05:00+00:00'
    >>> parse_played_at("yesterday")
    Traceback (most recent call last):
    ...
    ValueError: unknown date 'yesterday' (write 2026-11-26T21:05+01:00, 2026-11-26 21:05, \
26.11.2026 21:05 or 11/26/2026)
    """
    body = " ".join(text.split())
    try:
        moment = datetime.fromisoformat(body)
    except ValueError:
        moment = _spreadsheet_moment(body, day_first)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=tz)


def _spreadsheet_moment(body: str, day_first: bool | None) -> datetime:
    try:
        day, rest = _calendar_date(body, day_first)
        clock, offset = time(0), None
        if rest.strip():
            m = re.fullmatch(r"[\sT,]+" + _TIME + _OFFSET, rest)
            if m is None:
                raise ValueError("bad time")
            clock, offset = _clock(m, 1)
        moment = datetime.combine(day, clock)
    except ValueError as exc:
        if str(exc).startswith("ambiguous"):
            raise
        raise ValueError(f"unknown date {body!r} (write {DATE_EXAMPLES})") from None
    return moment.replace(tzinfo=parse_timezone(offset)) if offset else moment


def parse_time_of_day(text: str) -> tuple[time, tzinfo | None] | None:
    """``21:05``, ``9:05 pm``, ``21:05:30+01:00``; ``None`` if ``text`` is not a time alone."""
    m = _TIME_ONLY.fullmatch(text.strip())
    if m is None:
        return None
    clock, offset = _clock(m, 1)
    return clock, parse_timezone(offset) if offset else None


def name_stem(filename: str) -> str:
    """The default source: the file name without folders and extension (``live`` if none).

    >>> name_stem("logs/2026-11-26 Dima's.txt")
    "2026-11-26 Dima's"
    """
    return PurePath(filename.replace("\\", "/")).stem or "live"


def match_name(written: str, names: list[str]) -> str:
    """The player ``written`` refers to: the exact name, else the one name equal to it up to
    case and spacing (a non-breaking space typed as a space); unchanged when none or several.

    >>> match_name("анна мария", ["Hero", "Анна\u00a0Мария"])
    'Анна\xa0Мария'
    >>> match_name("Cy", ["Hero"])
    'Cy'
    """
    if written in names:
        return written

    def key(name: str) -> str:
        return " ".join(name.split()).casefold()

    found = [n for n in names if key(n) == key(written)]
    return found[0] if len(found) == 1 else written


def check_fantasyland(player: PlayerRecord, fl_count: int | None, rules: Any) -> str | None:
    """Why a Fantasyland mark cannot be right under the hand's ruleset, or ``None``."""
    if not player.fantasyland:
        return None
    if not rules.fantasyland:
        return f"{player.name}: marked FL but this hand is played without Fantasyland"
    counts = sorted({n for _, n in rules.fl_cards.entry} | (
        {rules.fl_cards.repeat} if rules.fl_cards.repeat else set()))
    if fl_count is not None and fl_count not in counts:
        allowed = ", ".join(map(str, counts))
        return (f"{player.name}: FL{fl_count} is not a Fantasyland deal in "
                f"{rules.variant.value} ({allowed} cards)")
    return None


def record_problems(record: HandRecord, fl_counts: Mapping[str, int | None]) -> list[str]:
    """:func:`ofc_core.hand.validate` plus the Fantasyland marks of this notation."""
    problems = validate(record)
    if problems:
        return problems
    ruleset = record.ruleset
    marks = (check_fantasyland(p, fl_counts.get(p.name), ruleset) for p in record.players)
    return [m for m in marks if m]


def with_known_deals(record: HandRecord) -> HandRecord:
    """A valid record whose streets that discard nothing under its ruleset (the first five
    cards, every regular and turbo street) say so: dealt = placed, no discard. Streets that
    discard keep what the log showed.

    >>> rec = HandRecord("x", "1", "pineapple", (PlayerRecord("a", 0, Board((), (), ()),
    ...     (StreetPlay(middle=parse_row("AsKsQs"), bottom=parse_row("2c3c")),)),))
    >>> s = with_known_deals(rec).players[0].streets[0]
    >>> (format_cards(s.dealt), s.discard)
    ('As Ks Qs 2c 3c', ())
    """
    plan = record.ruleset.dealing.streets

    def known(player: PlayerRecord) -> PlayerRecord:
        if player.streets is None or player.fantasyland:
            return player
        streets = tuple(
            replace(s, dealt=s.placed, discard=()) if (
                s.discard is None and n < len(plan) and plan[n].discarded == 0) else s
            for n, s in enumerate(player.streets))
        return replace(player, streets=streets)

    return replace(record, players=tuple(known(p) for p in record.players))


def hand_label(hand_id: str | None) -> str:
    return f"hand {hand_id!r}: " if hand_id is not None else ""


# --------------------------------------------------------------------------------------------
# The notation


@dataclass(frozen=True)
class Defaults:
    """What ``@`` directives set for the hands that follow them."""

    source: str
    variant: str = "regular"
    rules: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    stake: float | None = None
    currency: str | None = None
    session: str | None = None
    match: str | None = None
    hero: str | None = None
    date: str | None = None
    tz: tzinfo = timezone.utc


DIRECTIVES = ("source", "variant", "rules", "stake", "currency", "session", "match", "hero",
              "date", "timezone")
DIRECTIVE_ALIASES = {"tz": "timezone", "game": "variant", "session_id": "session",
                     "match_id": "match"}
HEADER_KEYS = ("button", "time", "hero", "variant", "session", "stake", "match")
HEADER_ALIASES = {"btn": "button", "dealer": "button", "at": "time", "date": "time",
                  "game": "variant", "session_id": "session", "match_id": "match"}
FL_WORDS = ("fl", "fantasyland", "fantasy")
SURRENDER_WORDS = ("surrender", "surrendered", "surr")


def apply_directive(defaults: Defaults, key: str, value: str,
                    day_first: bool | None) -> Defaults:
    """The defaults after one ``@key value`` line (raises ValueError with the reason)."""
    key = DIRECTIVE_ALIASES.get(key, key)
    if key not in DIRECTIVES:
        raise ValueError(f"unknown directive @{key} (one of "
                         f"{', '.join('@' + d for d in DIRECTIVES)})")
    if not value and key not in ("rules", "stake", "hero", "session", "match", "date"):
        raise ValueError(f"@{key} needs a value")
    if key == "rules":
        return replace(defaults, rules=MappingProxyType(parse_rules(value)))
    if key == "stake":
        stake, currency = parse_stake(value) if value else (None, None)
        return replace(defaults, stake=stake, currency=currency or defaults.currency)
    if key == "timezone":
        return replace(defaults, tz=parse_timezone(value))
    if key == "date" and value:
        parse_played_at(value, tz=defaults.tz, day_first=day_first)  # check it now
    if key == "variant":
        value = variant_name(value)
    return replace(defaults, **{key: value or None})


@dataclass
class _Player:
    line: int
    name: str
    text: str
    streets: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class _Block:
    """The lines of one hand, as read (parsed when the block ends)."""

    defaults: Defaults
    line: int
    header: str | None = None
    players: list[_Player] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)


_HEADER = re.compile(r"hand(?=\s|$|#)", re.IGNORECASE)
_RULES_PART = re.compile(r"\[?\s*rules\s*:([^\]]*)\]?", re.IGNORECASE)
_HEADER_ITEM = re.compile(r"([A-Za-z_]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|(\S+))|(\S+)")
_STREETS = re.compile(r"streets?\s*:", re.IGNORECASE)
_TIME_PART = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?|[AaPp][Mm]")


def _is_header(text: str) -> bool:
    if not _HEADER.match(text):
        return False
    before_colon = text.split(":", 1)[0]
    return (":" not in text or "=" in before_colon
            or bool(re.search(r"rules\s*$", before_colon, re.IGNORECASE)))


def _split_name(text: str) -> tuple[str, str] | None:
    """``Name: rest``; a name in double quotes may contain ``:``."""
    if text.startswith('"'):
        m = re.match(r'"([^"]+)"\s*:(.*)', text)
        return (m.group(1).strip(), m.group(2)) if m else None
    name, colon, rest = text.partition(":")
    return (name.strip(), rest) if colon else None


def _strip_comment(text: str) -> str:
    """Drop an inline comment: `` # `` (a ``#`` with a space after it, as in ``hand #12``)."""
    return re.split(r"\s#(?:\s|$)", text, maxsplit=1)[0]


@dataclass(frozen=True)
class _Header:
    hand_id: str | None
    keys: Mapping[str, str]
    rules: Mapping[str, Any]


def parse_header(text: str) -> _Header:
    """``hand [ID] [key=value ...] [[rules: k=v, ...]]``.

    >>> h = parse_header('hand #12 button="Anna Maria" time=21:05 [rules: cap=30]')
    >>> (h.hand_id, dict(h.keys), dict(h.rules))
    ('12', {'button': 'Anna Maria', 'time': '21:05'}, {'cap': 30})
    >>> dict(parse_header("hand time=26.11.2026 9:05 pm btn=Bob").keys)
    {'time': '26.11.2026 9:05 pm', 'button': 'Bob'}
    """
    body = _strip_comment(text)[4:]
    rules: dict[str, Any] = {}
    m = _RULES_PART.search(body)
    if m:
        rules = parse_rules(m.group(1))
        body = body[:m.start()] + " " + body[m.end():]
    hand_id, keys = None, {}
    for item in _HEADER_ITEM.finditer(body):
        key, *values, bare = item.groups()
        if bare is not None and list(keys)[-1:] == ["time"] and _TIME_PART.fullmatch(bare):
            keys["time"] += " " + bare  # time=2026-11-26 21:05 (PM)
            continue
        if bare is not None:
            if hand_id is not None or keys:
                raise ValueError(f"hand header: unexpected {bare!r} (write key=value)")
            hand_id = bare.lstrip("#") or None
            continue
        key = HEADER_ALIASES.get(key.lower(), key.lower())
        if key not in HEADER_KEYS:
            raise ValueError(f"hand header: unknown key {key!r} (one of "
                             f"{', '.join(HEADER_KEYS)}, rules)")
        keys[key] = next(v for v in values if v is not None)
    return _Header(hand_id, MappingProxyType(keys), MappingProxyType(rules))


@dataclass(frozen=True)
class PlayerLine:
    board: Board | None
    fantasyland: bool
    fl_count: int | None
    surrendered: bool
    points: float | None


def _flag(token: str) -> tuple[str, int | None] | None:
    low = token.lower()
    if low in FL_WORDS:
        return "fl", None
    m = re.fullmatch(r"fl(\d{2})", low)
    if m:
        return "fl", int(m.group(1))
    return ("surrender", None) if low in SURRENDER_WORDS else None


def _is_points_like(token: str) -> bool:
    return bool(re.match(r"[+\u2212]|-\d|\d+$|\d+[.,]\d", token))


def parse_player(text: str) -> PlayerLine:
    """What follows ``Name:``: a board, flags (``FL``, ``FL14``, ``surrender``) and points.

    >>> p = parse_player(" QhQd2c / 8s8d8c5h5d / AhKhTh9h2h  FL14  -3")
    >>> (p.board.top[0], p.fantasyland, p.fl_count, p.surrendered, p.points)
    (Card('Qh'), True, 14, False, -3.0)
    >>> parse_player("surrender -4").board is None
    True
    """
    tokens = _strip_comment(text).split()
    fl, fl_count, surrendered, points = False, None, False, None
    while tokens:
        flag = _flag(tokens[-1]) or _flag(tokens[0])
        if flag is None and _is_points_like(tokens[-1]):
            if points is not None:
                raise ValueError(f"two points values ({tokens[-1]} and {points:+g})")
            points = parse_points(tokens.pop())
            continue
        if flag is None:
            break
        tokens.pop() if _flag(tokens[-1]) else tokens.pop(0)
        if flag[0] == "fl":
            fl, fl_count = True, flag[1] if flag[1] is not None else fl_count
        else:
            surrendered = True
    board = parse_board(" ".join(tokens)) if tokens else None
    return PlayerLine(board, fl, fl_count, surrendered, points)


class _Problems:
    """The problems of one hand, each at its line."""

    def __init__(self) -> None:
        self.items: list[tuple[int, str]] = []

    def add(self, line: int, message: str) -> None:
        self.items.append((line, message))

    def issue(self, hand_id: str | None, raw: str) -> ParseIssue:
        first = self.items[0][0]
        parts = [msg if line == first else f"line {line}: {msg}" for line, msg in self.items]
        return ParseIssue(first, hand_id, hand_label(hand_id) + "; ".join(parts), raw)


def _build_player(p: _Player, seat: int, problems: _Problems) -> tuple[PlayerRecord, int | None]:
    try:
        line = parse_player(p.text)
    except ValueError as exc:
        problems.add(p.line, f"{p.name}: {exc}")
        return PlayerRecord(p.name, seat, Board((), (), ())), None
    streets = None
    for n, text in p.streets:
        try:
            streets = (streets or ()) + parse_streets(text)
        except ValueError as exc:
            problems.add(n, f"{p.name}, streets: {exc}")
    board = line.board
    if streets is not None:
        mismatch = streets_mismatch(board, streets) if board is not None else None
        if mismatch:
            problems.add(p.streets[0][0], f"{p.name}: {mismatch}")
        board = board if board is not None else board_from_streets(streets)
    if board is None:
        board = Board((), (), ())
        if not line.surrendered:
            problems.add(p.line, f"{p.name}: no board (write top-middle-bottom or top / middle "
                         "/ bottom, or 'surrender')")
    record = PlayerRecord(p.name, seat, board, streets, line.fantasyland, line.surrendered,
                          line.points)
    return record, line.fl_count


def _played_at(header: Mapping[str, str], defaults: Defaults, day_first: bool | None) -> str | None:
    """The hand's moment: ``time=`` (a full date, or a time on the ``@date`` day), else
    ``@date``; without an offset it is in ``@timezone`` (UTC by default)."""
    when = header.get("time")
    if when is None:
        return None if defaults.date is None else parse_played_at(
            defaults.date, tz=defaults.tz, day_first=day_first).isoformat()
    clock = parse_time_of_day(when)
    if clock is None:
        return parse_played_at(when, tz=defaults.tz, day_first=day_first).isoformat()
    if defaults.date is None:
        raise ValueError(f"time={when} needs a day: add '@date 2026-11-26' above the hand or "
                         "write time=2026-11-26T21:05")
    day = parse_played_at(defaults.date, tz=defaults.tz, day_first=day_first)
    moment = datetime.combine(day.date(), clock[0])
    return moment.replace(tzinfo=clock[1] or day.tzinfo).isoformat()


def _directive_message(key: str, message: str) -> str:
    if message.startswith(("@", "unknown directive")):
        return message
    if message.startswith(f"{key}:"):
        return "@" + message
    return f"@{key}: {message}"


@dataclass
class _Reader:
    """Reads a file line by line; keeps defaults, the open block and the ids already used."""

    defaults: Defaults
    day_first: bool | None
    block: _Block | None = None
    last_id: str | None = None
    count: int = 0
    seen: dict[tuple[str, str], int] = field(default_factory=dict)

    def read(self, lines: list[str]) -> Iterator[ParsedHand | ParseIssue]:
        for number, line in enumerate(lines, start=1):
            yield from self._line(number, line)
        yield from self._close()

    def _line(self, number: int, line: str) -> Iterator[ParsedHand | ParseIssue]:
        text = line.strip()
        if not text:
            if self.block is not None and self.block.players:
                yield from self._close()
            return
        if text.startswith("#"):
            self._keep(number, line)
            return
        if text.startswith("@"):
            yield from self._close()
            yield from self._directive(number, text)
        elif _is_header(text):
            yield from self._close()
            self.block = _Block(self.defaults, number, header=text)
            self._keep(number, line)
        elif _STREETS.match(text) and self.block is not None and self.block.players:
            self.block.players[-1].streets.append((number, _STREETS.sub("", text, count=1)))
            self._keep(number, line)
        else:
            self._player_line(number, line, text)

    def _keep(self, number: int, line: str) -> None:
        if self.block is not None:
            self.block.raw.append(line)

    def _player_line(self, number: int, line: str, text: str) -> None:
        if self.block is None:
            self.block = _Block(self.defaults, number)
        self._keep(number, line)
        name, rest = _split_name(text) or ("", text)
        self.block.players.append(_Player(number, name, rest))

    def _directive(self, number: int, text: str) -> Iterator[ParseIssue]:
        key, _, value = _strip_comment(text[1:]).partition(" ")
        try:
            self.defaults = apply_directive(self.defaults, key.strip().lower(), value.strip(),
                                            self.day_first)
        except ValueError as exc:
            yield ParseIssue(number, None, _directive_message(key.strip().lower(), str(exc)),
                             text)

    def _close(self) -> Iterator[ParsedHand | ParseIssue]:
        block, self.block = self.block, None
        if block is None:
            return
        self.count += 1
        yield self._hand(block)

    def _next_id(self) -> str:
        if self.last_id is not None and self.last_id.isdigit():
            return str(int(self.last_id) + 1)
        return str(self.count)

    def _hand(self, block: _Block) -> ParsedHand | ParseIssue:
        problems = _Problems()
        header = _Header(None, MappingProxyType({}), MappingProxyType({}))
        if block.header is not None:
            try:
                header = parse_header(block.header)
            except ValueError as exc:
                problems.add(block.line, str(exc))
        hand_id = header.hand_id or self._next_id()
        self.last_id = hand_id
        raw = "\n".join(block.raw)
        record, fl_counts = self._record(block, header, hand_id, problems)
        if record is not None and not problems.items:
            key = (record.source, hand_id)
            if key in self.seen:
                problems.add(block.line, f"the hand id is already used on line {self.seen[key]}")
            else:
                self.seen[key] = block.line
            for message in record_problems(record, fl_counts):
                problems.add(block.line, message)
        if problems.items:
            return problems.issue(hand_id, raw)
        assert record is not None
        return ParsedHand(with_known_deals(record), block.line, raw)

    def _record(self, block: _Block, header: _Header, hand_id: str,
                problems: _Problems) -> tuple[HandRecord | None, dict[str, int | None]]:
        defaults = block.defaults
        keys = header.keys
        if not block.players:
            problems.add(block.line, "no player lines (write 'Name: top-middle-bottom')")
        players, fl_counts = [], {}
        for seat, p in enumerate(block.players):
            if not p.name:
                problems.add(p.line, f"cannot read {p.text.strip()!r}: expected 'Name: board', "
                             "'hand ID ...', '@key value' or a # comment")
                continue
            player, fl_counts[p.name] = _build_player(p, seat, problems)
            players.append(player)
        stake, currency = defaults.stake, defaults.currency
        try:
            played_at = _played_at(keys, defaults, self.day_first)
            if "stake" in keys:
                stake, currency = parse_stake(keys["stake"])
                currency = currency or defaults.currency
        except ValueError as exc:
            problems.add(block.line, str(exc))
            return None, fl_counts
        names = [p.name for p in players]
        hero = match_name(keys["hero"], names) if "hero" in keys else None
        if hero is None and defaults.hero is not None:
            hero = match_name(defaults.hero, names)
            hero = hero if hero in names else None
        button = match_name(keys["button"], names) if "button" in keys else None
        record = HandRecord(
            source=defaults.source, hand_id=hand_id,
            variant=variant_name(keys["variant"]) if "variant" in keys else defaults.variant,
            players=tuple(players), rules=MappingProxyType({**defaults.rules, **header.rules}),
            button=button, session_id=keys.get("session", defaults.session),
            match_id=keys.get("match", defaults.match), played_at=played_at, stake=stake,
            currency=currency, hero=hero)
        return record, fl_counts


def parse_text(text: str, filename: str) -> Iterator[ParsedHand | ParseIssue]:
    """Every hand of an ``ofc-live/1`` file, in file order (see the module docstring)."""
    body = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = body.split("\n")
    reader = _Reader(Defaults(source=name_stem(filename)), slash_day_first([body]))
    return reader.read(lines)


def _is_directive(text: str) -> bool:
    key = text[1:].split(maxsplit=1)[0].lower() if text.startswith("@") and text[1:] else ""
    return DIRECTIVE_ALIASES.get(key, key) in DIRECTIVES


def _header_reads(text: str) -> bool:
    try:
        parse_header(text)
    except ValueError:
        return False
    return True


def _looks_like_player(text: str) -> bool:
    split = _split_name(text)
    if split is None or not split[0]:
        return False
    try:
        line = parse_player(split[1])
    except ValueError:
        return False
    return line.board is not None or line.surrendered


@dataclass(frozen=True)
class LiveFormat:
    """The registry entry for ``ofc-live/1``."""

    name: str = FORMAT_NAME
    version: str = "1"

    def sniff(self, text: str, filename: str) -> bool:
        """Among the first 40 meaningful lines: a ``Name: board`` line, or a known ``@``
        directive followed by ``Name: ...`` lines (the first board may have a typo), with only
        ``@``, ``hand`` and ``streets:`` lines before them. No tab-separated line, JSON Lines or
        CSV header ever matches."""
        body = text.removeprefix("\ufeff")
        lines = [ln.strip() for ln in body.replace("\r", "\n").split("\n", 200)[:200]]
        meaningful = [ln for ln in lines if ln and not ln.startswith("#")][:40]
        directive = named = False
        for line in meaningful:
            if line.startswith(("{", "[")) or "\t" in line:
                return False
            if _looks_like_player(line):
                return True
            if line.startswith("@"):
                directive |= _is_directive(line)
            elif _is_header(line) and _header_reads(line) or _STREETS.match(line):
                continue
            elif directive and _split_name(line) is not None:
                named = True
            else:
                return False
        return directive and named

    def parse(self, text: str, filename: str) -> Iterator[ParsedHand | ParseIssue]:
        return parse_text(text, filename)


FORMAT = LiveFormat()
