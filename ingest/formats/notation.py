"""The value readers of the hand-written notations: cards and boards, streets, points, rules,
stakes, time zones and dates, names. Shared by the live notation (:mod:`ingest.formats.live`)
and the CSV of boards (:mod:`ingest.formats.csv_boards`), so that both read a value the same
way and say the same thing when it is wrong. Each reader raises ``ValueError`` with a message
for the user (the reader that calls it adds the file, line and hand).

>>> parse_board("QhQd2c-8s8d8c5h5d-AhKhTh9h6h").bottom[0], parse_stake("€0,5")
(Card('Ah'), (0.5, 'EUR'))
>>> parse_points("+7x")
Traceback (most recent call last):
...
ValueError: bad points '+7x' (write a number such as +7, -3 or 0)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from pathlib import PurePath
from types import MappingProxyType
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ofc_core.board import ROWS, Board, parse_compact_row
from ofc_core.cards import BoardCard, format_cards
from ofc_core.hand import HandRecord, PlayerRecord, StreetPlay, board_from_streets, validate
from ofc_core.rules import NUMBER_KEYS, ON_OFF_KEYS, Ruleset

FL_WORDS = ("fl", "fantasyland", "fantasy")
"""How a Fantasyland hand is marked (``FL``, ``FL14``, ``fantasy``), case-insensitively."""
SURRENDER_WORDS = ("surrender", "surrendered", "surr")
"""How a surrender is marked, case-insensitively."""

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


def parse_row(text: str) -> tuple[BoardCard, ...]:
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
    rows: dict[str, list[BoardCard]] = {"top": [], "middle": [], "bottom": []}
    discard: list[BoardCard] | None = None
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


_ON_OFF = {"on": "on", "yes": "on", "true": "on", "off": "off", "no": "off", "false": "off"}


def rule_value(key: str, text: str) -> Any:
    """A rules override as ofc-hh/1 stores it: numbers for the number keys (``surrender_cost``,
    ``cap``, ``jokers``: ``cap=none`` is no cap), ``on``/``off`` for the yes/no keys
    (``fantasyland``), as :data:`ofc_core.rules.RULE_KEYS` says, else the text. Bad values are
    kept as written so the ruleset check names them.

    >>> rule_value("cap", "30"), rule_value("cap", "none"), rule_value("fantasyland", "no")
    (30, None, 'off')
    """
    value = text.strip()
    if key in NUMBER_KEYS:
        if key == "cap" and value.lower() in ("none", "no", "off", ""):
            return None
        try:
            number = float(value.replace(",", "."))
        except ValueError:
            return value
        return int(number) if number.is_integer() else number
    if key in ON_OFF_KEYS:
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


def check_fantasyland(player: PlayerRecord, fl_count: int | None,
                      rules: Ruleset) -> str | None:
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
