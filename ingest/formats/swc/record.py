"""One captured hand made a :class:`~ofc_core.hand.HandRecord`.

Streets are rebuilt from consecutive snapshots: the cards that appear in a player's rows
between two snapshots are one street (a row shown in another order adds nothing; snapshots
that arrive out of order, or twice after a reconnect, are put back in order by what they
hold). What the capture cannot see stays unknown: opponents' dealt cards and discards, face-down
cards until they are shown. When the snapshots do not follow the variant's dealing (the capture
began late or lost frames) the player keeps the final board only, and the import says so.

Every hand is read on its own (:func:`items`): a hand that cannot be read, even through a bug
of ours, is that hand's :class:`~ingest.formats.ParseIssue`, never the file's.

>>> from ofc_core.cards import Card
>>> a, b, c = (Card.parse(x) for x in ("Ah", "Kd", "2c"))
>>> seen = [Seen(((), (a,), ())), Seen(((c,), (a,), (b,))), Seen(((), (a,), ()))]
>>> [s.placed for s in streets_of("ann", seen)[0]]
[(Card('Ah'),), (Card('2c'), Card('Kd'))]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from ofc_core.board import Board
from ofc_core.cards import Card
from ofc_core.hand import HandRecord, PlayerRecord, StreetPlay, validate
from ofc_core.rules import PRESETS

from .. import ParsedHand, ParseIssue
from .capture import SOURCE, Capture, Refused, Seen, code_variant

BUG = "This is a bug in OFC Analytics: please report it with the file."


@dataclass(frozen=True, slots=True)
class Street:
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


def streets_of(name: str, seen: Sequence[Seen]) -> tuple[list[Street], Seen]:
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
        streets.append(Street(new, dealt))
    return streets, final


def _variant(capture: Capture, streets: Mapping[str, list[Street]]) -> tuple[str, str | None]:
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


def _street_play(street: Street, final: Seen) -> StreetPlay:
    rows = [tuple(c for c in street.placed if c in final.rows[i]) for i in range(3)]
    discard = None
    if street.dealt is not None:
        discard = tuple(c for c in street.dealt if c not in street.placed) or None
    return StreetPlay(rows[0], rows[1], rows[2], street.dealt, discard)


def _fits(streets: list[Street], variant: str) -> bool:
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


def _finals(capture: Capture, names: Sequence[str]
            ) -> tuple[dict[str, list[Street]], dict[str, Seen], dict[str, int]]:
    """Each player's streets, fullest snapshot, and how many cards lay in his rows (seen or
    face down) when the capture first showed him."""
    per_player: dict[str, list[Street]] = {}
    finals: dict[str, Seen] = {}
    first: dict[str, int] = {}
    for name in names:
        seen = [snap[name] for snap in capture.snapshots if name in snap]
        per_player[name], finals[name] = streets_of(name, seen)
        first[name] = len(seen[0].placed) + seen[0].hidden
        if finals[name].hidden and len(finals[name].placed) < 13:
            raise Refused(f"{name}'s board is still face down ({finals[name].hidden} cards) "
                          "in the capture's last snapshot of the hand")
    return per_player, finals, first


def began_late(first: Mapping[str, int], variant: str) -> bool:
    """The capture began after the hand did: a player first shown with more cards than a
    first street and fewer than 13, or every player first shown with a whole board (no one
    seen before setting). A board that appears whole in a hand seen from its start is a
    Fantasyland hand; in a hand seen late it tells nothing.

    >>> began_late({"ann": 0, "bob": 13}, "pineapple"), began_late({"ann": 7}, "pineapple")
    (False, True)
    >>> began_late({"ann": 13, "bob": 13}, "pineapple")
    True
    """
    opening = PRESETS[variant].dealing.streets[0].placed if variant in PRESETS else 5
    return any(opening < n < 13 for n in first.values()) or \
        all(n >= 13 for n in first.values())


def _shows(seen: Seen | None) -> bool:
    return seen is not None and bool(seen.placed or seen.active or seen.hidden)


def to_record(capture: Capture) -> tuple[HandRecord, str | None]:
    """The record of a captured hand and a note on what was assumed or could not be seen
    (raises :class:`Refused` with the reason when the hand cannot be imported)."""
    seated = [(n, s) for n, s in capture.players  # a seat sitting out never shows a card
              if any(_shows(snap.get(n)) for snap in capture.snapshots)]
    if not seated:
        raise Refused("no player's cards were captured")
    names = [n for n, _ in seated]
    per_player, finals, first = _finals(capture, names)
    variant, note = _variant(capture, per_player)
    stake, currency = _stake(capture)  # a player's stack in points: chips / stake
    currency = currency or capture.currency
    late = began_late(first, variant)
    players, cut, unknown_fl = [], [], []
    for name, seat in seated:
        streets, final = per_player[name], finals[name]
        whole = [len(s.placed) for s in streets] == [13]  # all 13 set at once: Fantasyland
        if whole and late:
            unknown_fl.append(name)
        fits = _fits(streets, variant) and not (whole and late)
        cut += [] if fits or name in unknown_fl else [name]
        reported = None if capture.points is None else capture.points.get(name)
        players.append(PlayerRecord(
            name, seat, Board(*final.rows),
            tuple(_street_play(s, final) for s in streets) if fits else None,
            whole and not late, False, None if reported is None else float(reported),
            None if not stake or name not in capture.stacks else capture.stacks[name] / stake))
    seats = [s for _, s in seated]
    hero = [n for n in names if any(snap[n].active for snap in capture.snapshots if n in snap)]
    record = HandRecord(source=SOURCE, hand_id=capture.hand_id, variant=variant,
                        players=tuple(players),
                        button=names[seats.index(capture.dealer)]
                        if capture.dealer in seats else None,
                        session_id=capture.table, played_at=_played_at(capture.played_at),
                        stake=stake, currency=currency, hero=hero[0] if len(hero) == 1 else None,
                        variant_assumed=note is not None)
    notes = [note] if note else []
    if unknown_fl:
        notes.append(f"the capture began after this hand did: {', '.join(unknown_fl)} first "
                     "shown with a whole board, whether in Fantasyland is not known (taken as "
                     "not)")
    if cut:
        notes.append(f"the capture missed some snapshots of this hand (it began late or lost "
                     f"frames): final boards only for {', '.join(cut)}")
    return record, "; ".join(notes) or None


def _unfinished(capture: Capture) -> tuple[HandRecord, str] | ParseIssue:
    """A hand whose showdown the capture lost (its table went on to another hand): stored when
    every board is complete (the room's points unknown), else refused; at the end of the
    file it is partial (still being played)."""
    where = f"hand {capture.hand_id!r}: "
    if capture.followed_by is None:
        return ParseIssue(capture.line, capture.hand_id, f"{where}the capture ends before the "
                          "hand's showdown (read it again once the hand is finished)",
                          capture.raw, partial=True)
    lost = f"the capture lost this hand's showdown (its table went on to {capture.followed_by})"
    try:
        record, note = to_record(capture)
    except Refused as exc:
        return ParseIssue(capture.line, capture.hand_id, f"{where}{lost}; {exc}", capture.raw)
    short = [p.name for p in record.players if len(p.board.cards) < 13]
    if short:
        return ParseIssue(capture.line, capture.hand_id, f"{where}{lost}, and the board of "
                          f"{', '.join(short)} is not complete; not imported", capture.raw)
    return record, "; ".join([f"{lost}: the boards are complete, the room's points are not "
                              "known"] + ([note] if note else []))


def _item(capture: Capture) -> ParsedHand | ParseIssue:
    where = f"hand {capture.hand_id!r}: "
    if capture.problems:
        more = len(capture.problems) - 3
        return ParseIssue(capture.line, capture.hand_id, where + "; ".join(
            capture.problems[:3] + ([f"and {more} more frames"] if more > 0 else [])),
            capture.raw)
    if capture.finished:
        try:
            record, note = to_record(capture)
        except Refused as exc:
            return ParseIssue(capture.line, capture.hand_id, f"{where}{exc}", capture.raw)
    else:
        found = _unfinished(capture)
        if isinstance(found, ParseIssue):
            return found
        record, note = found
    problems = validate(record)
    if problems:
        return ParseIssue(capture.line, capture.hand_id, f"{where}{'; '.join(problems)}",
                          capture.raw)
    return ParsedHand(record, capture.line, capture.raw, note=note)


def items(captures: Iterable[Capture | ParseIssue]) -> Iterator[ParsedHand | ParseIssue]:
    """Each capture's hand or issue; an issue read before passes through. A hand that makes
    this reader raise is that hand's issue (naming the bug), and the next hand is read."""
    for capture in captures:
        if isinstance(capture, ParseIssue):
            yield capture
            continue
        try:
            yield _item(capture)
        except Exception as exc:  # a bug of ours: this hand's error, never the file's
            yield ParseIssue(capture.line, capture.hand_id, f"hand {capture.hand_id!r}: the "
                             f"fpdb-swc reader failed on this hand ({type(exc).__name__}: "
                             f"{exc}); the other hands are read. {BUG}", capture.raw)
