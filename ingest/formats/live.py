"""``ofc-live/1``: a plain-text notation for hands played live, typed after the session.

One hand per block (blocks are separated by blank lines or start with a ``hand`` header); a
player line is ``Name: board [FL|FL14] [surrender] [+7]``; ``@key value`` lines set defaults for
the hands that follow. The full description, with every message, is
``docs/format-live-csv.md``. The value readers (boards, points, streets, rules, dates, stakes)
are in :mod:`ingest.formats.notation`, shared with the CSV reader.

Why over 500 lines: one job, the grammar of the notation's lines (directives, hand headers,
player lines, streets, a tournament's ``@tournament`` and ``stack=``) and the reader that
groups them into hands, with a message for every way a line can be wrong.

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
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone, tzinfo
from types import MappingProxyType
from typing import Any

from ofc_core.board import Board
from ofc_core.hand import HandRecord, PlayerRecord, board_from_streets
from ofc_core.tournament import TournamentHand

from . import ParsedHand, ParseIssue
from .notation import (
    FL_WORDS,
    SURRENDER_WORDS,
    hand_label,
    match_name,
    name_stem,
    parse_board,
    parse_played_at,
    parse_points,
    parse_rules,
    parse_stake,
    parse_streets,
    parse_time_of_day,
    parse_timezone,
    record_problems,
    slash_day_first,
    streets_mismatch,
    variant_name,
    with_known_deals,
)
from .tournament_fields import stack_points, tournament_from_dict, tournament_pairs

FORMAT_NAME = "ofc-live/1"


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
    tournament: Mapping[str, Any] | None = None
    """``@tournament``'s keys (ofc-hh/1's ``tournament`` object), checked as it is read."""


DIRECTIVES = ("source", "variant", "rules", "stake", "currency", "session", "match", "hero",
              "date", "timezone", "tournament")
DIRECTIVE_ALIASES = {"tz": "timezone", "game": "variant", "session_id": "session",
                     "match_id": "match"}
HEADER_KEYS = ("button", "time", "hero", "variant", "session", "stake", "match", "level",
               "per_point", "table", "round")
HEADER_ALIASES = {"btn": "button", "dealer": "button", "at": "time", "date": "time",
                  "game": "variant", "session_id": "session", "match_id": "match"}


def apply_directive(defaults: Defaults, key: str, value: str,
                    day_first: bool | None) -> Defaults:
    """The defaults after one ``@key value`` line (raises ValueError with the reason)."""
    key = DIRECTIVE_ALIASES.get(key, key)
    if key not in DIRECTIVES:
        raise ValueError(f"unknown directive @{key} (one of "
                         f"{', '.join('@' + d for d in DIRECTIVES)})")
    if not value and key not in ("rules", "stake", "hero", "session", "match", "date",
                                 "tournament"):
        raise ValueError(f"@{key} needs a value")
    if key == "rules":
        return replace(defaults, rules=MappingProxyType(parse_rules(value)))
    if key == "stake":
        stake, currency = parse_stake(value) if value else (None, None)
        return replace(defaults, stake=stake, currency=currency or defaults.currency)
    if key == "timezone":
        return replace(defaults, tz=parse_timezone(value))
    if key == "tournament":
        pairs = tournament_pairs(value) if value else None
        if pairs is not None:
            tournament_from_dict(pairs)  # check it now
        return replace(defaults, tournament=None if pairs is None else MappingProxyType(pairs))
    if key == "date" and value:
        parse_played_at(value, tz=defaults.tz, day_first=day_first)  # check it now
    text = value or None
    if key == "source":
        return replace(defaults, source=value)
    if key == "variant":
        return replace(defaults, variant=variant_name(value))
    if key == "currency":
        return replace(defaults, currency=text)
    if key == "session":
        return replace(defaults, session=text)
    if key == "match":
        return replace(defaults, match=text)
    if key == "hero":
        return replace(defaults, hero=text)
    return replace(defaults, date=text)


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
    hand_id: str | None = None
    keys: dict[str, str] = {}
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
    stack: float | None = None
    """A chip tournament's chips before the hand (``stack=1500``)."""


_STACK = re.compile(r"(?:stack|chips)=(\d+(?:[.,]\d+)?)", re.IGNORECASE)


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
    stacks = [m for t in tokens if (m := _STACK.fullmatch(t))]
    tokens = [t for t in tokens if not _STACK.fullmatch(t)]
    stack = float(stacks[-1].group(1).replace(",", ".")) if stacks else None
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
    return PlayerLine(board, fl, fl_count, surrendered, points, stack)


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
                          line.points, stack=line.stack)  # chips: in points once read
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
        try:
            tournament, players = _tournament(defaults, keys, players)
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
            currency=currency, hero=hero, tournament=tournament)
        return record, fl_counts


def _tournament(defaults: Defaults, keys: Mapping[str, str], players: list[PlayerRecord],
                ) -> tuple[TournamentHand | None, list[PlayerRecord]]:
    """The hand's tournament (``@tournament``, with the header's ``level=``, ``per_point=``,
    ``table=``, ``round=``) and its players with their chips read as points."""
    overrides = " ".join(f'{k}="{keys[k]}"' for k in ("level", "per_point", "table", "round")
                         if k in keys)
    if defaults.tournament is None:
        if overrides or any(p.stack is not None for p in players):
            raise ValueError("level=, per_point=, table=, round= and a player's stack= need "
                             "an @tournament line above the hand")
        return None, players
    t = tournament_from_dict({**defaults.tournament, **tournament_pairs(overrides)})
    return t, [replace(p, stack=stack_points(t, p.stack, f"{p.name}: "))
               for p in players]


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
