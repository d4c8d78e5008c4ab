"""FPDB's captures of the OFC tables of Seals with Clubs (SwC Poker).

FPDB (github ``jejellyroll-fr/fpdb-3``) records SwC's web client and leaves three shapes of
the same hands, all read here (``docs/formats.md`` maps every field):

- ``raw_messages.jsonl``: every websocket frame, one JSON object a line (``site``,
  ``captured_at``, ``message_type``, ``payload``); a ``GameState`` payload is a Socket.IO frame
  ``42/poker/,["proxy-message", "<json>"]`` whose ``gameState`` is a snapshot of the table: hand
  id ``gi``, game code ``gt``, table ``ti``, dealer index ``m.di``, seats ``s`` (name ``n``,
  stack ``c`` in hundredths, settled points ``p``, cards ``d``) and, at the showdown, the row
  names ``ss.hc``. A seat's cards are ``"ids-nTop-nMid-nBot"``: card ids (rank x 4 + suit,
  suits c d h s, ranks 2..A; our own card index) of which the first ``nTop`` are on top and so
  on; the ids after those are cards still in the hand (only the capturing player's).
- ``hand_<id>.json``: FPDB's envelope of one finished hand (``players``, per-step snapshots
  ``steps[].placed`` with cards written ``Ah``/``10c``, ``showdown.points_settled``,
  ``swc_events`` with the money messages, ``game.label``).
- FPDB's SQLite database: ``HttpOFCHands.rawJson`` holds the hand (``players`` with points,
  ``rounds`` with each player's rows after every change, ``result``), but only the category
  ``ofc``/``ofcp``/``ofcp_27``, not the game code.

Streets are rebuilt from consecutive snapshots: the cards that appear in a player's rows
between two snapshots are one street (a row shown in another order adds nothing; snapshots
that arrive out of order are put back in order by what they hold). What the capture cannot
see stays hidden: opponents' dealt cards and discards.

>>> [code_variant(c) for c in (70, 73, 74, 75)]
['regular', 'turbo', 'pineapple', 'progressive-pineapple']
>>> code_variant(84)
Traceback (most recent call last):
...
ingest.formats.fpdb_swc.Refused: SwC game code 84 (OFC Variant) is a variant table whose \
rules are not known; its hands are not imported
>>> swc_card("10c"), swc_card(51)
(Card('Tc'), Card('As'))
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ofc_core.board import Board
from ofc_core.cards import Card
from ofc_core.hand import HandRecord, PlayerRecord, StreetPlay, validate
from ofc_core.rules import PRESETS

from . import LogFile, ParsedHand, ParseIssue, sqlite_db

FORMAT_NAME = "fpdb-swc"
SOURCE = "swc"
SITE = "SealsWithClubs"

GAMES: Mapping[int, tuple[str, str | None]] = {
    70: ("OFC", "regular"),
    73: ("Turbo OFC", "turbo"),
    74: ("OFC/P", "pineapple"),
    75: ("OFC/P Progressive", "progressive-pineapple"),
    76: ("OFC/P 2-7", "2-7-pineapple"),
    77: ("OFC/P Variant", None),
    84: ("OFC Variant", None),
}
"""SwC's OFC game codes (``gt``): the table's label as FPDB names it, and our preset (``None``:
a variant table whose rules nobody has written down; refused)."""

_CODE_OF_LABEL = {label: code for code, (label, _) in GAMES.items()}
ROW_KEYS = ("top", "middle", "bottom")
HAND_TABLES = frozenset({"HttpOFCHands", "HttpOFCPlayers", "HttpOFCRounds"})
_MONEY = re.compile(r"<money\s+([^>]*)>")
_ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')


class Refused(ValueError):
    """A hand (or table) this reader will not import, with the reason."""


def code_variant(code: int) -> str:
    """Our preset for SwC game code ``code`` (raises :class:`Refused` for variant tables and
    for codes that are not OFC)."""
    if code not in GAMES:
        raise Refused(f"SwC game code {code} is not an OFC table; its hands are not imported")
    label, variant = GAMES[code]
    if variant is None:
        raise Refused(f"SwC game code {code} ({label}) is a variant table whose rules are not "
                      "known; its hands are not imported")
    return variant


def swc_card(value: int | str) -> Card:
    """A card as SwC's frames (an id, rank x 4 + suit) or FPDB's files (``Ah``, ``10c``)
    write it."""
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return Card.from_index(int(value))
    return Card.parse(value)


def _cards(values: Iterable[Any]) -> tuple[Card, ...]:
    """Cards of a list, leaving out FPDB's empty slots (``--``, ``""``, negative ids)."""
    out = []
    for value in values or ():
        if value in ("--", "", None) or (isinstance(value, int) and value < 0):
            continue
        out.append(swc_card(value))
    return tuple(out)


# --------------------------------------------------------------------------------------------
# One hand as the capture saw it


@dataclass(frozen=True, slots=True)
class Seen:
    """One player's cards in one snapshot: the three rows and the cards still in hand."""

    rows: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]
    active: tuple[Card, ...] = ()

    @property
    def placed(self) -> frozenset[Card]:
        return frozenset(self.rows[0] + self.rows[1] + self.rows[2])


@dataclass
class Capture:
    """A hand gathered from one of FPDB's shapes, before it becomes a record."""

    hand_id: str
    line: int
    raw: str
    game: int | str | None
    """The SwC game code, or FPDB's category (``ofc``, ``ofcp``, ``ofcp_27``) when the code is
    not kept."""
    players: list[tuple[str, int]] = field(default_factory=list)
    """(name, seat index) in seat order."""
    dealer: int | None = None
    table: str | None = None
    played_at: str | None = None
    snapshots: list[dict[str, Seen]] = field(default_factory=list)
    points: dict[str, float] | None = None
    money: list[tuple[str, float, str | None]] = field(default_factory=list)
    """(player, amount won, unit) from the room's money messages."""
    finished: bool = False


@dataclass(frozen=True, slots=True)
class _Street:
    placed: tuple[Card, ...]
    dealt: tuple[Card, ...] | None


def _chain(name: str, seen: Sequence[Seen]) -> list[frozenset[Card]]:
    """The distinct sets of placed cards of one player, in the order they grew (snapshots that
    arrived out of order are put back by size). Raises :class:`Refused` if one set is not
    contained in the next (the snapshots contradict each other)."""
    sets = sorted({s.placed for s in seen}, key=len)
    if not sets or sets[0]:
        sets.insert(0, frozenset())
    for a, b in zip(sets, sets[1:], strict=False):
        if not a <= b:
            raise Refused(f"{name}: a placed card disappears between two snapshots")
    return sets


def _streets(name: str, seen: Sequence[Seen]) -> tuple[list[_Street], Seen]:
    """One player's streets (cards placed between two snapshots, with the cards seen in hand
    before them) and the last, fullest snapshot."""
    sets = _chain(name, seen)
    final = max(reversed(seen), key=lambda s: len(s.placed))
    in_hand: dict[frozenset[Card], set[Card]] = {}
    for s in seen:
        if s.active:
            in_hand.setdefault(s.placed, set()).update(s.active)
    order = {c: i for i, c in enumerate(final.rows[0] + final.rows[1] + final.rows[2])}
    streets = []
    for before, after in zip(sets, sets[1:], strict=False):
        new = tuple(sorted(after - before, key=order.__getitem__))
        held = in_hand.get(before)
        dealt = None
        if held is not None and held >= set(new):  # the hand held before these were placed
            dealt = tuple(sorted(held, key=lambda c: (order.get(c, 99), c)))
        streets.append(_Street(new, dealt))
    return streets, final


# --------------------------------------------------------------------------------------------
# Capture -> record


def _variant(capture: Capture, streets: Mapping[str, list[_Street]]) -> tuple[str, str | None]:
    """Our preset for the hand, and a note when it had to be assumed."""
    game = capture.game
    if isinstance(game, int):
        return code_variant(game), None
    if game == "ofcp_27":
        return "2-7-pineapple", None
    normal = [s for ps in streets.values() if len(ps) > 1 for s in ps[1:]]
    fl_dealt = [len(ps[0].dealt) for ps in streets.values()
                if len(ps) == 1 and ps[0].dealt is not None]
    if game == "ofc":
        if any(len(s.placed) == 4 for s in normal):
            return "turbo", None
        if any(len(s.placed) == 1 for s in normal):
            return "regular", None
        return "regular", ("assumed regular OFC (code 70): FPDB's database keeps only 'ofc', "
                           "and no street of this hand shows 1 or 4 cards")
    if game == "ofcp":
        if any(n > 14 for n in fl_dealt):
            return "progressive-pineapple", None
        return "pineapple", ("assumed pineapple (code 74): FPDB's database keeps only 'ofcp'; "
                             "progressive (75) shows only in a Fantasyland hand of 15-17 cards")
    raise Refused(f"unknown game {game!r}: not an OFC table FPDB captures")


def _street_play(street: _Street, final: Seen) -> StreetPlay:
    rows = [tuple(c for c in street.placed if c in final.rows[i]) for i in range(3)]
    discard = None
    if street.dealt is not None:
        discard = tuple(c for c in street.dealt if c not in street.placed) or None
    return StreetPlay(rows[0], rows[1], rows[2], street.dealt, discard)


def _fits(streets: list[_Street], variant: str) -> bool:
    """The streets follow the variant's dealing (else only the final board is kept: the
    capture missed a snapshot and two streets look like one)."""
    plan = [s.placed for s in PRESETS[variant].dealing.streets] if variant in PRESETS else []
    sizes = [len(s.placed) for s in streets]
    return sizes == [13] or sizes == plan


def _stake(capture: Capture) -> tuple[float | None, str | None]:
    """Money per point and its unit, from the room's money messages of the winners."""
    points = capture.points or {}
    rates = {round(amount / points[name], 6) for name, amount, _ in capture.money
             if points.get(name)}
    units = {unit for _, _, unit in capture.money if unit}
    if len(rates) != 1:
        return None, None
    rate = rates.pop()
    return (abs(rate) if rate else None), (units.pop() if len(units) == 1 else None)


def _played_at(value: str | None) -> str | None:
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return value if moment.tzinfo is not None else moment.isoformat() + "+00:00"


def to_record(capture: Capture) -> tuple[HandRecord, str | None]:
    """The record of a finished captured hand and a note on an assumed preset (raises
    :class:`Refused` with the reason when the hand cannot be imported)."""
    seated = [(n, s) for n, s in capture.players
              if any(n in snap for snap in capture.snapshots)]  # a seat sitting out has none
    if not seated:
        raise Refused("no player's cards were captured")
    names = [n for n, _ in seated]
    per_player: dict[str, list[_Street]] = {}
    finals: dict[str, Seen] = {}
    for name in names:
        seen = [snap[name] for snap in capture.snapshots if name in snap]
        per_player[name], finals[name] = _streets(name, seen)
    variant, note = _variant(capture, per_player)
    players = []
    for name, seat in seated:
        streets, final = per_player[name], finals[name]
        board = Board(*final.rows)
        fantasyland = [len(s.placed) for s in streets] == [13]  # all 13 set at once
        plays = tuple(_street_play(s, final) for s in streets) \
            if _fits(streets, variant) else None
        reported = None if capture.points is None else capture.points.get(name)
        players.append(PlayerRecord(name, seat, board, plays, fantasyland, False,
                                    None if reported is None else float(reported)))
    seats = [s for _, s in seated]
    button = names[seats.index(capture.dealer)] if capture.dealer in seats else None
    hero = [n for n in names if any(s.active for snap in capture.snapshots
                                    for m, s in snap.items() if m == n)]
    stake, currency = _stake(capture)
    record = HandRecord(source=SOURCE, hand_id=capture.hand_id, variant=variant,
                        players=tuple(players), button=button, session_id=capture.table,
                        played_at=_played_at(capture.played_at), stake=stake,
                        currency=currency, hero=hero[0] if len(hero) == 1 else None)
    return record, note


def _items(captures: Iterable[Capture]) -> Iterator[ParsedHand | ParseIssue]:
    for capture in captures:
        where = f"hand {capture.hand_id!r}: "
        if not capture.finished:
            yield ParseIssue(capture.line, capture.hand_id, f"{where}the capture ends before "
                             "the hand's showdown (read it again once the hand is finished)",
                             capture.raw, partial=True)
            continue
        try:
            record, note = to_record(capture)
        except (Refused, ValueError) as exc:
            yield ParseIssue(capture.line, capture.hand_id, f"{where}{exc}", capture.raw)
            continue
        problems = validate(record)
        if problems:
            yield ParseIssue(capture.line, capture.hand_id, f"{where}{'; '.join(problems)}",
                             capture.raw)
            continue
        yield ParsedHand(record, capture.line, capture.raw, note=note)


# --------------------------------------------------------------------------------------------
# raw_messages.jsonl: the websocket frames


def game_state(payload: Any) -> tuple[dict[str, Any], list[Any]] | None:
    """The ``gameState`` and ``events`` of a SwC ``GameState`` frame, ``None`` for any other
    frame."""
    if not isinstance(payload, str) or not payload.startswith("42/poker/,"):
        return None
    try:
        outer = json.loads(payload[len("42/poker/,"):])
        if not isinstance(outer, list) or len(outer) < 2 or outer[0] != "proxy-message":
            return None
        inner = json.loads(outer[1]) if isinstance(outer[1], str) else outer[1]
    except (ValueError, TypeError):
        return None
    if not isinstance(inner, dict) or inner.get("t") != "GameState":
        return None
    state = inner.get("gameState")
    events = inner.get("events")
    return (state, events if isinstance(events, list) else []) if isinstance(state, dict) \
        else None


def seat_cards(text: Any) -> Seen | None:
    """A seat's ``d`` string: ``"0;1;2;3;4-1-2-2"`` is 2c on top, 2d 2h in the middle, 2s 3c
    at the bottom; ids after the counted ones are still in hand. ``None`` when it holds no
    cards (a snapshot that leaves this seat out).

    >>> seat_cards("0;1;2;3;4;51-1-2-2")
    Seen(rows=((Card('2c'),), (Card('2d'), Card('2h')), (Card('2s'), Card('3c'))), \
active=(Card('As'),))
    """
    if not isinstance(text, str) or not text.split("-")[0]:
        return None
    parts = text.split("-")
    ids = [int(x) for x in parts[0].split(";") if x]
    if len(parts) < 4:
        return Seen(((), (), ()), _cards(ids))
    top, middle, bottom = (int(n) for n in parts[1:4])
    rows = (ids[:top], ids[top:top + middle], ids[top + middle:top + middle + bottom])
    return Seen((_cards(rows[0]), _cards(rows[1]), _cards(rows[2])),
                _cards(ids[top + middle + bottom:]))


def _money(events: Iterable[Any], names: Mapping[int, str]) -> list[tuple[str, float, str | None]]:
    out = []
    for event in events:
        if not isinstance(event, dict) or "wins" not in str(event.get("table-msg", "")):
            continue
        found = _MONEY.search(str(event["table-msg"]))
        attributes = dict(_ATTRIBUTE.findall(found.group(1))) if found else {}
        name = names.get(event.get("seat-idx")) if isinstance(event.get("seat-idx"), int) \
            else None
        if name is not None and re.fullmatch(r"-?\d+", attributes.get("a", "")):
            out.append((name, int(attributes["a"]) / 100, attributes.get("mt")))
    return out


class _FrameHands:
    """Hands gathered frame by frame (one table can start a hand before another ends)."""

    def __init__(self) -> None:
        self.hands: dict[str, Capture] = {}
        self.lines: dict[str, list[str]] = {}

    def add(self, number: int, line: str, record: Mapping[str, Any]) -> None:
        found = game_state(record.get("payload"))
        if found is None:
            return
        state, events = found
        gi = state.get("gi")
        if not gi:
            return
        hand_id = str(gi)
        capture = self.hands.get(hand_id)
        seats = [(i, s) for i, s in enumerate(state.get("s") or []) if isinstance(s, dict)]
        if capture is None:
            gt = state.get("gt")
            capture = Capture(hand_id, number, "", gt if isinstance(gt, int) else None,
                              [(str(s.get("n")), i) for i, s in seats],
                              (state.get("m") or {}).get("di"),
                              None if state.get("ti") is None else str(state.get("ti")),
                              record.get("captured_at"))
            self.hands[hand_id] = capture
            self.lines[hand_id] = []
        self.lines[hand_id].append(line)
        snapshot = {}
        for _, seat in seats:
            seen = seat_cards(seat.get("d"))
            if seen is not None:
                snapshot[str(seat.get("n"))] = seen
        if snapshot:
            capture.snapshots.append(snapshot)
        names = {i: str(s.get("n")) for i, s in seats}
        capture.money += _money(events, names)
        showdown = state.get("ss")
        if isinstance(showdown, dict) and showdown.get("hc"):
            capture.finished = True
            capture.points = {str(s.get("n")): float(s.get("p") or 0) for _, s in seats}

    def captures(self) -> Iterator[Capture]:
        for hand_id, capture in self.hands.items():
            capture.raw = "\n".join(self.lines[hand_id])
            yield capture


def parse_frames(text: str, filename: str) -> Iterator[ParsedHand | ParseIssue]:
    """Every hand of a ``raw_messages.jsonl``. A cut-off last line is skipped (the file is
    being written); a hand without its showdown at the end of the file is partial."""
    hands = _FrameHands()
    lines = text.removeprefix("\ufeff").split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            if number == len(lines):
                continue  # still being written: its hand stays unfinished (partial)
            yield ParseIssue(number, None, f"line {number}: not a JSON object (a damaged "
                             "capture line); the other frames are read", line)
            continue
        if isinstance(record, dict):
            hands.add(number, line, record)
    yield from _items(hands.captures())


# --------------------------------------------------------------------------------------------
# hand_<id>.json: FPDB's envelope of one hand


def _step_snapshot(step: Mapping[str, Any]) -> dict[str, Seen]:
    snapshot = {}
    for name, rows in (step.get("placed") or {}).items():
        if not isinstance(rows, dict):
            continue
        seen = Seen(tuple(_cards(rows.get(k) or ()) for k in ROW_KEYS),  # type: ignore[arg-type]
                    _cards(rows.get("active") or ()))
        if seen.placed or seen.active:
            snapshot[str(name)] = seen
    return snapshot


def _envelope_game(data: Mapping[str, Any]) -> int | str | None:
    game = data.get("game") or {}
    label = game.get("label") if isinstance(game, dict) else None
    if label in _CODE_OF_LABEL:
        return _CODE_OF_LABEL[label]
    if isinstance(game, dict) and game.get("base") not in (None, "ofc"):
        raise Refused(f"not an OFC hand ({label or game.get('base')})")
    return (game.get("category") if isinstance(game, dict) else None) or \
        (data.get("ofc_variant") or {}).get("variant")


def capture_of_envelope(data: Mapping[str, Any], raw: str) -> Capture:
    """The capture held by one of FPDB's ``hand_<id>.json`` files."""
    hand_id = str(data.get("hand_id"))
    players = [(str(p.get("name")), int(p.get("seat_idx"))) for p in data.get("players") or []
               if isinstance(p, dict) and p.get("seat_idx") is not None]
    capture = Capture(hand_id, 1, raw, _envelope_game(data), players, data.get("dealer_idx"),
                      None if data.get("table_id") is None else str(data.get("table_id")),
                      data.get("timestamp"))
    capture.snapshots = [s for s in map(_step_snapshot, data.get("steps") or []) if s]
    showdown = data.get("showdown")
    if isinstance(showdown, dict):
        capture.finished = True
        capture.points = {str(k): float(v) for k, v in
                          (showdown.get("points_settled") or {}).items()}
    names = {seat: name for name, seat in players}
    capture.money = _money([e.get("event") for e in data.get("swc_events") or []
                            if isinstance(e, dict)], names)
    return capture


def parse_hand_file(text: str, filename: str) -> Iterator[ParsedHand | ParseIssue]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        yield ParseIssue(1, None, f"not JSON ({exc}); FPDB may still be writing it", text,
                         partial=True)
        return
    try:
        capture = capture_of_envelope(data, text)
    except (Refused, ValueError, TypeError) as exc:
        yield ParseIssue(1, str(data.get("hand_id")), f"hand {data.get('hand_id')!r}: {exc}",
                         text)
        return
    yield from _items([capture])


# --------------------------------------------------------------------------------------------
# FPDB's SQLite database


def _round_snapshot(entry: Mapping[str, Any]) -> dict[str, Seen]:
    layout = entry.get("layout") or {}
    seen = Seen(tuple(_cards(layout.get(k) or ()) for k in ROW_KEYS),  # type: ignore[arg-type]
                _cards(entry.get("active") or ()))
    return {str(entry.get("player")): seen}


def capture_of_row(row: Mapping[str, Any], players: list[Mapping[str, Any]],
                   rounds: list[Mapping[str, Any]]) -> Capture:
    """The capture held by one ``HttpOFCHands`` row (its ``rawJson``), its players and
    rounds."""
    raw = json.dumps({"HttpOFCHands": dict(row), "HttpOFCPlayers": [dict(p) for p in players],
                      "HttpOFCRounds": [dict(r) for r in rounds]}, ensure_ascii=False,
                     default=str)
    hand_id = str(row["siteHandNo"])
    data = json.loads(row["rawJson"] or "{}")
    game: str | None = row["variant"] or (data.get("variant") or {}).get("variant")
    if row["deuceToSeven"]:
        game = "ofcp_27"
    listed = data.get("players") or []
    seats = [(str(p.get("name")), int(p["seat_idx"])) for p in listed
             if isinstance(p, dict) and p.get("seat_idx") is not None]
    capture = Capture(hand_id, int(row["id"]), raw, game, seats, data.get("dealer_idx"),
                      row["tableName"] or None, row["startTime"] or data.get("timestamp"))
    capture.snapshots = [_round_snapshot(r) for r in data.get("rounds") or []
                         if isinstance(r, dict)]
    final = {str(p.get("name")): Seen(tuple(_cards(p.get(k) or ()) for k in ROW_KEYS))
             for p in listed if isinstance(p, dict)}  # type: ignore[misc]
    capture.snapshots.append({n: s for n, s in final.items() if s.placed})
    result = data.get("result") or {}
    capture.finished = bool(result.get("points_settled"))
    capture.points = {str(p.get("name")): float(p.get("points") or 0) for p in listed
                      if isinstance(p, dict)}
    capture.money = [(str(c.get("player")), float(c.get("pot")), None)
                     for c in result.get("collections") or [] if isinstance(c, dict)]
    return capture


def _sqlite_captures(file: LogFile) -> list[Capture | ParseIssue]:
    with sqlite_db.open_readonly(file) as con:
        hands = con.execute("SELECT * FROM HttpOFCHands ORDER BY id").fetchall()
        players: dict[int, list[Any]] = {}
        for p in con.execute("SELECT * FROM HttpOFCPlayers ORDER BY id"):
            players.setdefault(p["ofcHandId"], []).append(p)
        rounds: dict[int, list[Any]] = {}
        for r in con.execute("SELECT * FROM HttpOFCRounds ORDER BY id"):
            rounds.setdefault(r["ofcHandId"], []).append(r)
    out: list[Capture | ParseIssue] = []
    for row in hands:
        try:
            out.append(capture_of_row(row, players.get(row["id"], []),
                                      rounds.get(row["id"], [])))
        except (ValueError, TypeError, KeyError) as exc:
            out.append(ParseIssue(int(row["id"]), str(row["siteHandNo"]),
                                  f"hand {row['siteHandNo']!r}: cannot read its rawJson ({exc})",
                                  str(row["rawJson"])))
    return out


# --------------------------------------------------------------------------------------------
# The registry entry


@dataclass(frozen=True)
class FpdbSwcFormat:
    """FPDB's SwC captures: hand files and frames (text), FPDB's database (a file)."""

    name: str = FORMAT_NAME
    version: str = "1"

    def sniff(self, text: str, filename: str) -> bool:
        head = text.removeprefix("\ufeff")[:4000]
        if not head.lstrip().startswith("{") or f'"{SITE}"' not in head:
            return False
        return '"payload"' in head.split("\n", 1)[0] or '"steps"' in text or \
            '"showdown"' in text

    def parse(self, text: str, filename: str) -> Iterator[ParsedHand | ParseIssue]:
        first = text.removeprefix("\ufeff").lstrip().split("\n", 1)[0]
        try:
            frames = "payload" in json.loads(first)
        except (ValueError, TypeError):
            frames = False
        return parse_frames(text, filename) if frames else parse_hand_file(text, filename)

    def sniff_file(self, file: LogFile) -> bool:
        return sqlite_db.is_sqlite(file.data) and \
            "HttpOFCHands" in sqlite_db.table_names(file)

    def parse_file(self, file: LogFile) -> Iterator[ParsedHand | ParseIssue]:
        captures = _sqlite_captures(file)
        for item in captures:
            if isinstance(item, ParseIssue):
                yield item
            else:
                yield from _items([item])


FORMAT = FpdbSwcFormat()

