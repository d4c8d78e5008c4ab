"""``csv-boards/1``: final boards from a spreadsheet, one row per player per hand.

Columns are found by name (case-insensitive, with common aliases: ``front`` is ``top``, ``#`` is
the hand id...), the delimiter is ``,``, ``;`` or a tab, and rows with the same hand id form one
hand (consecutive or not; a blank hand id repeats the row above). Cards, points, variants, rules
and dates are read by the same helpers as the live notation (:mod:`ingest.formats.live`). The
full description is ``docs/format-live-csv.md``.

>>> text = '''Hand;Date;Player;Front;Middle;Back;Points
... 7;26.11.2026 21:05;Hero;Jh 4s 3h;As 5c 4c 3c 2h;Kd Jd 9d 7d 3d;-4
... 7;;Anna;Qh Qd 2c;8s 8d 8c 5h 5d;Ah Kh Th 9h 6h;+4
... '''
>>> [hand] = FORMAT.parse(text, "club.csv")
>>> r = hand.record
>>> (r.source, r.hand_id, r.variant, r.played_at, [p.reported_points for p in r.players])
('club', '7', 'regular', '2026-11-26T21:05:00+00:00', [-4.0, 4.0])

Why one module of this size: the header aliases, the column mapping and a message for every
bad cell are the format.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import timezone, tzinfo
from types import MappingProxyType
from typing import Any

from ofc_core.board import Board
from ofc_core.hand import HandRecord, PlayerRecord, board_from_streets
from ofc_core.rules import OVERRIDE_FIELDS

from . import ParsedHand, ParseIssue
from .notation import (
    SURRENDER_WORDS,
    hand_label,
    match_name,
    name_stem,
    parse_board,
    parse_played_at,
    parse_points,
    parse_row,
    parse_rules,
    parse_stake,
    parse_streets,
    parse_timezone,
    record_problems,
    rule_value,
    slash_day_first,
    streets_mismatch,
    variant_name,
    with_known_deals,
)

FORMAT_NAME = "csv-boards/1"
DELIMITERS = (",", ";", "\t")
HEADER_SEARCH_ROWS = 10
"""The header may follow a few title rows; it is looked for in the first rows only."""

COLUMN_ALIASES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "hand_id": ("hand", "hand id", "handid", "hand #", "hand no", "hand nr", "hand number",
                "#", "no", "nr", "id", "game id", "game #", "deal"),
    "played_at": ("played at", "datetime", "date time", "date/time", "timestamp", "when",
                  "started", "start"),
    "date": ("date", "day"),
    "time": ("time",),
    "variant": ("variant", "game", "game type", "type", "format"),
    "player": ("player", "name", "player name", "nick", "nickname", "screen name", "who"),
    "top": ("top", "front", "top row", "front row"),
    "middle": ("middle", "mid", "middle row", "centre", "center"),
    "bottom": ("bottom", "back", "bot", "bottom row", "back row"),
    "board": ("board", "final board", "hand cards", "cards"),
    "points": ("points", "pts", "score", "result", "net", "reported points", "won", "+/-"),
    "source": ("source", "room", "club", "venue"),
    "session": ("session", "session id"),
    "match": ("match", "match id"),
    "button": ("button", "dealer", "btn"),
    "fantasyland": ("fantasyland", "fl", "in fl", "fantasy", "fantasy land"),
    "surrendered": ("surrendered", "surrender", "surr", "fold", "folded"),
    "stake": ("stake", "stakes", "per point", "point value"),
    "currency": ("currency", "ccy"),
    "hero": ("hero", "me"),
    "timezone": ("timezone", "time zone", "tz"),
    "streets": ("streets", "street order"),
    "rules": ("rules",),
    **{f"rule:{key}": (f"rules {key.replace('_', ' ')}", f"rule {key.replace('_', ' ')}")
       + ((key.replace("_", " "),) if key not in ("fantasyland", "royalties") else ())
       for key in OVERRIDE_FIELDS},
    "rule:royalties": ("rules royalties", "rule royalties", "royalty table"),
})
"""Canonical column -> header spellings (compared after :func:`header_key`)."""

_ALIAS_OF = MappingProxyType({alias: canon for canon, aliases in COLUMN_ALIASES.items()
                              for alias in aliases})
HAND_COLUMNS = ("played_at", "date", "time", "variant", "source", "session", "match", "stake",
                "currency", "timezone", "rules") + tuple(
    k for k in COLUMN_ALIASES if k.startswith("rule:"))
"""Columns that belong to the hand: every row of a hand that fills one must agree."""

TRUE_WORDS = frozenset({"yes", "y", "true", "t", "1", "x", "on", "fl", "✓", "✔", "+"})
FALSE_WORDS = frozenset({"", "no", "n", "false", "f", "0", "off", "-"})


def header_key(cell: str) -> str:
    """A header cell as compared with the aliases: lower case, ``_ . -`` and runs of spaces
    as one space, a trailing ``?`` or ``:`` dropped.

    >>> header_key(" Hand_ID "), header_key("Top Row:"), header_key("FL?")
    ('hand id', 'top row', 'fl')
    """
    key = re.sub(r"[_.\-\s]+", " ", cell.strip().lower()).strip()
    return key.rstrip("?:").strip()


def column_map(header: list[str]) -> dict[str, int]:
    """Canonical column -> index in the header row (the first of two equal names wins)."""
    found: dict[str, int] = {}
    for index, cell in enumerate(header):
        canon = _ALIAS_OF.get(cell.strip().lower()) or _ALIAS_OF.get(header_key(cell))
        if canon is not None and canon not in found:
            found[canon] = index
    return found


def _is_header(columns: Mapping[str, int]) -> bool:
    has_board = "board" in columns or "streets" in columns or all(
        c in columns for c in ("top", "middle", "bottom"))
    return "player" in columns and has_board


@dataclass(frozen=True)
class _Layout:
    delimiter: str
    header_line: int
    header_index: int
    columns: Mapping[str, int]


def _records(text: str, delimiter: str) -> Iterator[tuple[int, int, list[str], str | None]]:
    """``(first line, last line, cells, error)`` of every record (a quoted cell may span
    lines); a record the csv module cannot read has no cells and the reason as ``error``."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    end = 0
    while True:
        try:
            cells, error = next(reader), None
        except StopIteration:
            return
        except csv.Error as exc:
            cells, error = [], f"cannot read this row: {exc}"
        start, end = end + 1, reader.line_num
        yield start, end, cells, error


def find_layout(text: str) -> _Layout | None:
    """The delimiter and header row that recognise the most columns, or ``None``."""
    best: _Layout | None = None
    for delimiter in DELIMITERS:
        for index, (start, _, cells, _error) in enumerate(_records(text, delimiter)):
            if index >= HEADER_SEARCH_ROWS:
                break
            columns = column_map(cells)
            if _is_header(columns):
                if best is None or len(columns) > len(best.columns):
                    best = _Layout(delimiter, start, index, MappingProxyType(columns))
                break
    return best


@dataclass
class _Row:
    start: int
    end: int
    cells: dict[str, str]


@dataclass
class _Group:
    hand_id: str
    source: str
    rows: list[_Row] = field(default_factory=list)


def parse_flag(value: str, column: str) -> bool:
    """A yes/no cell (``yes``, ``x``, ``1``, ``true``, ``✓``; blank is no).

    >>> parse_flag("X", "fantasyland"), parse_flag("", "fantasyland")
    (True, False)
    >>> parse_flag("maybe", "surrendered")
    Traceback (most recent call last):
    ...
    ValueError: unknown value 'maybe' in column surrendered (write yes or no)
    """
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError(f"unknown value {value!r} in column {column} (write yes or no)")


def _fantasyland(value: str) -> tuple[bool, int | None]:
    """The FL column: yes/no, or the number of cards dealt in Fantasyland (13-17)."""
    word = value.strip()
    if re.fullmatch(r"(?i)(fl)?1[3-7]", word):
        return True, int(word[-2:])
    return parse_flag(word, "fantasyland"), None


def _cell(cells: Mapping[str, str], key: str) -> str:
    return cells.get(key, "").strip()


def _surrender_word(cells: Mapping[str, str]) -> bool:
    """``surrender`` written where the board goes (the board or the top cell)."""
    return any(_cell(cells, k).lower() in SURRENDER_WORDS for k in ("board", "top"))


def _row_board(cells: Mapping[str, str]) -> Board | None:
    if _surrender_word(cells):
        return None
    if _cell(cells, "board"):
        return parse_board(cells["board"])
    rows = [_cell(cells, k) for k in ("top", "middle", "bottom")]
    if not any(rows):
        return None
    return Board(*(parse_row(r) for r in rows))


def _player(row: _Row, seat: int, problems: list[tuple[int, str]]
            ) -> tuple[PlayerRecord, int | None, bool]:
    """One row's player, its FL card count and whether the row marks the player as hero."""
    cells = row.cells
    name = _cell(cells, "player")
    try:
        board = _row_board(cells)
        fantasyland, fl_count = _fantasyland(cells.get("fantasyland", ""))
        surrendered = parse_flag(cells.get("surrendered", ""), "surrendered") or (
            _surrender_word(cells))
        hero = parse_flag(cells.get("hero", ""), "hero")
        points = parse_points(cells["points"]) if _cell(cells, "points") else None
        streets = parse_streets(cells["streets"]) if _cell(cells, "streets") else None
    except ValueError as exc:
        problems.append((row.start, f"{name}: {exc}"))
        return PlayerRecord(name, seat, Board((), (), ())), None, False
    if streets is not None:
        mismatch = streets_mismatch(board, streets) if board is not None else None
        if mismatch:
            problems.append((row.start, f"{name}: {mismatch}"))
        board = board if board is not None else board_from_streets(streets)
    if board is None:
        board = Board((), (), ())
        if not surrendered:
            problems.append((row.start, f"{name}: no board (fill top, middle and bottom, or "
                             "board, or mark the row surrendered)"))
    record = PlayerRecord(name, seat, board, streets, fantasyland, surrendered, points)
    return record, fl_count, hero


def _hand_value(group: _Group, key: str, problems: list[tuple[int, str]]) -> str:
    """The one value the rows of a hand give for a per-hand column ('' when none)."""
    seen: dict[str, int] = {}
    for row in group.rows:
        value = _cell(row.cells, key)
        if value and value not in seen:
            seen[value] = row.start
    if len(seen) > 1:
        (a, la), (b, lb) = list(seen.items())[:2]
        problems.append((lb, f"the rows of this hand disagree on {key.replace('rule:', '')}: "
                         f"{a!r} (line {la}) and {b!r} (line {lb}); hand ids must be unique in "
                         "a file"))
    return next(iter(seen), "")


def _button(group: _Group, names: list[str], problems: list[tuple[int, str]]) -> str | None:
    """The button column: the button's name on any row, or a yes mark on the button's row."""
    marked: list[str] = []
    for row, name in zip(group.rows, names, strict=True):
        value = match_name(_cell(row.cells, "button"), names)
        if value in names:
            marked.append(value)
        elif value:
            try:
                if parse_flag(value, "button"):
                    marked.append(name)
            except ValueError:
                marked.append(value)  # a name not in the hand: validation reports it
    if len(set(marked)) > 1:
        problems.append((group.rows[0].start, f"more than one button: {', '.join(marked)}"))
    return marked[0] if marked else None


@dataclass(frozen=True)
class _FileContext:
    day_first: bool | None
    default_variant: str


def _rules(group: _Group, problems: list[tuple[int, str]]) -> dict[str, Any]:
    rules: dict[str, Any] = {}
    text = _hand_value(group, "rules", problems)
    if text:
        try:
            rules.update(parse_rules(text))
        except ValueError as exc:
            problems.append((group.rows[0].start, str(exc)))
    for key in OVERRIDE_FIELDS:
        value = _hand_value(group, f"rule:{key}", problems)
        if value:
            rules[key] = rule_value(key, value)
    return rules


def _when(group: _Group, ctx: _FileContext, problems: list[tuple[int, str]]) -> str | None:
    moment = _hand_value(group, "played_at", problems) or " ".join(
        v for v in (_hand_value(group, "date", problems), _hand_value(group, "time", problems))
        if v)
    if not moment:
        return None
    tz: tzinfo = timezone.utc
    zone = _hand_value(group, "timezone", problems)
    try:
        if zone:
            tz = parse_timezone(zone)
        return parse_played_at(moment, tz=tz, day_first=ctx.day_first).isoformat()
    except ValueError as exc:
        problems.append((group.rows[0].start, str(exc)))
        return None


def _hand(group: _Group, ctx: _FileContext, raw: str, final_line: int | None
          ) -> ParsedHand | ParseIssue:
    problems: list[tuple[int, str]] = []
    players, fl_counts, heroes = [], {}, []
    for seat, row in enumerate(group.rows):
        player, fl_counts[player.name], hero = _player(row, seat, problems)
        players.append(player)
        if hero:
            heroes.append(player.name)
    names = [p.name for p in players]
    for row, name in zip(group.rows, names, strict=True):
        if not name:
            problems.append((row.start, "no player name"))
    for name, count in Counter(n for n in names if n).items():
        if count > 1:
            lines = ", ".join(str(r.start) for r, n in zip(group.rows, names, strict=True)
                              if n == name)
            problems.append((group.rows[0].start, f"player {name!r} has {count} rows in this "
                             f"hand (lines {lines}); hand ids must be unique in a file"))
    stake, currency = None, _hand_value(group, "currency", problems) or None
    stake_text = _hand_value(group, "stake", problems)
    try:
        if stake_text:
            stake, written = parse_stake(stake_text)
            currency = written or currency
    except ValueError as exc:
        problems.append((group.rows[0].start, str(exc)))
    variant = _hand_value(group, "variant", problems)
    record = HandRecord(
        source=group.source, hand_id=group.hand_id,
        variant=variant_name(variant or ctx.default_variant), players=tuple(players),
        rules=MappingProxyType(_rules(group, problems)),
        button=_button(group, names, problems),
        session_id=_hand_value(group, "session", problems) or None,
        match_id=_hand_value(group, "match", problems) or None,
        played_at=_when(group, ctx, problems), stake=stake, currency=currency,
        hero=heroes[0] if len(heroes) == 1 else None)
    if len(heroes) > 1:
        problems.append((group.rows[0].start, f"more than one hero: {', '.join(heroes)}"))
    if not problems:
        problems += [(group.rows[0].start, m) for m in record_problems(record, fl_counts)]
    if problems:
        first = problems[0][0]
        if final_line is not None and any(r.end == final_line for r in group.rows):
            return ParseIssue(first, group.hand_id, f"{hand_label(group.hand_id)}the last hand "
                              "is incomplete (the file may still be being written)", raw, True)
        text = "; ".join(m if line == first else f"line {line}: {m}" for line, m in problems)
        return ParseIssue(first, group.hand_id, hand_label(group.hand_id) + text, raw)
    return ParsedHand(with_known_deals(record), group.rows[0].start, raw)


def _group_rows(text: str, layout: _Layout, default_source: str
                ) -> tuple[dict[tuple[str, str], _Group], list[ParseIssue]]:
    groups: dict[tuple[str, str], _Group] = {}
    issues: list[ParseIssue] = []
    hand_id = ""
    by_index = {index: canon for canon, index in layout.columns.items()}
    for index, (start, end, cells, error) in enumerate(_records(text, layout.delimiter)):
        if error is not None and index > layout.header_index:
            issues.append(ParseIssue(start, None, error))
        if index <= layout.header_index or not any(c.strip() for c in cells):
            continue
        named = {by_index[i]: c for i, c in enumerate(cells) if i in by_index}
        hand_id = _cell(named, "hand_id") or hand_id
        if not hand_id:
            issues.append(ParseIssue(start, None, "no hand id on this row (fill the hand "
                                     "column; a blank cell repeats the hand above)"))
            continue
        source = _cell(named, "source") or default_source
        group = groups.setdefault((source, hand_id), _Group(hand_id, source))
        group.rows.append(_Row(start, end, named))
    return groups, issues


def parse_text(text: str, filename: str, *, default_variant: str = "regular"
               ) -> Iterator[ParsedHand | ParseIssue]:
    """Every hand of a board spreadsheet, in the order of each hand's first row. Hands whose
    rows name no variant are ``default_variant``."""
    body = text.removeprefix("\ufeff").replace("\r\n", "\n")
    layout = find_layout(body)
    if layout is None:
        yield ParseIssue(1, None, "no header row with a player column and top, middle, bottom "
                         "(or board) columns in the first rows", body.split("\n", 1)[0])
        return
    if "hand_id" not in layout.columns:
        yield ParseIssue(layout.header_line, None, "no hand id column (name one hand, hand_id, "
                         "hand id or #)", body.split("\n")[layout.header_line - 1])
        return
    yield from _parse_rows(body, layout, name_stem(filename), default_variant)


def _truncated_line(body: str, layout: _Layout) -> int | None:
    """The last line when the file stops in the middle of a row (no newline after it and fewer
    cells than the header, or an open quote): a file still being written."""
    if body.endswith("\n"):
        return None
    last = None
    for _, end, cells, _error in _records(body, layout.delimiter):
        last = (end, cells)
    if last is None:
        return None
    end, cells = last
    width = max(layout.columns.values()) + 1
    open_quote = body.count('"') % 2 == 1
    return end if len(cells) < width or open_quote else None


def _parse_rows(body: str, layout: _Layout, default_source: str, default_variant: str
                ) -> Iterator[ParsedHand | ParseIssue]:
    lines = body.split("\n")
    groups, issues = _group_rows(body, layout, default_source)
    dates = [" ".join(r.cells.get(k, "") for k in ("played_at", "date"))
             for g in groups.values() for r in g.rows]
    ctx = _FileContext(slash_day_first(dates), default_variant)
    header = lines[layout.header_line - 1]
    results: list[ParsedHand | ParseIssue] = list(issues)
    final_line = _truncated_line(body, layout)
    for group in groups.values():
        raw = "\n".join([header] + [ln for r in group.rows for ln in lines[r.start - 1:r.end]])
        results.append(_hand(group, ctx, raw, final_line))
    yield from sorted(results, key=lambda item: item.line)


@dataclass(frozen=True)
class CsvBoardsFormat:
    """The registry entry for ``csv-boards/1``."""

    name: str = FORMAT_NAME
    version: str = "1"

    def sniff(self, text: str, filename: str) -> bool:
        """A header row (within the first rows) naming a player column and the rows or a
        board column; never a JSON file."""
        head = "\n".join(text.removeprefix("\ufeff").split("\n", 40)[:40])
        if head.lstrip().startswith(("{", "[")):
            return False
        return find_layout(head) is not None

    def parse(self, text: str, filename: str) -> Iterator[ParsedHand | ParseIssue]:
        return parse_text(text, filename)


FORMAT = CsvBoardsFormat()
