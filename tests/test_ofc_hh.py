"""The ofc-hh/1 reader and writer, and strict decoding of log files."""

from __future__ import annotations

import copy
import doctest
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.formats import ParsedHand, ParseIssue, detect, ofc_hh, registry
from ingest.formats import encoding as encoding_module
from ingest.formats.encoding import DecodeError, decode_bytes
from ingest.formats.ofc_hh import (
    FORMAT,
    HandError,
    dumps_record,
    parse_text,
    record_from_dict,
    record_to_dict,
    write_records,
)
from ofc_core.board import Board
from ofc_core.cards import DECK, Card, format_cards
from ofc_core.hand import Event, HandRecord, PlayerRecord, StreetPlay
from tests.helpers.hypo import examples

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
SCHEMA = ROOT / "ingest" / "formats" / "ofc_hh.schema.json"
GOOD_SAMPLES = ["regular.jsonl", "rules-overrides.jsonl", "turbo-streets.jsonl",
                "pineapple.jsonl", "double-match.jsonl", "nasty-names.jsonl"]
EVIL = "<img src=x onerror=alert(1)>"

ANN = {"top": "Qh Qd 2c", "middle": "Ks Kd 9s 5h 3c", "bottom": "Jh Jd Jc 4s 4d"}
BOB = {"top": "Ah Kc 3d", "middle": "As Ad 8h 7c 2h", "bottom": "Qc Tc 8c 6c 5c"}


def base_hand(**changes: Any) -> dict[str, Any]:
    """A valid heads-up regular hand in the writer's canonical form."""
    hand: dict[str, Any] = {
        "format": "ofc-hh/1", "source": "home", "hand_id": "h1", "variant": "regular",
        "players": [{"name": "ann", "seat": 0, "board": dict(ANN)},
                    {"name": "bob", "seat": 1, "board": dict(BOB)}],
    }
    hand.update(changes)
    return hand


def pineapple_streets() -> list[dict[str, str]]:
    """ann's board (ANN) played street by street under pineapple dealing."""
    return [
        {"dealt": "Qh Qd 2c Ks Kd", "top": "Qh Qd 2c", "middle": "Ks Kd"},
        {"dealt": "9s 5h 3h", "middle": "9s 5h", "discard": "3h"},
        {"dealt": "3c Jh 7d", "middle": "3c", "bottom": "Jh", "discard": "7d"},
        {"dealt": "Jd Jc 8d", "bottom": "Jd Jc", "discard": "8d"},
        {"dealt": "4s 4d 7s", "bottom": "4s 4d", "discard": "7s"},
    ]


def sample_lines(name: str) -> list[str]:
    return [ln for ln in (SAMPLES / name).read_text(encoding="utf-8").split("\n") if ln.strip()]


def parse_all(text: str, filename: str = "t.jsonl") -> list[ParsedHand | ParseIssue]:
    return list(parse_text(text, filename))


def reject(obj: Any) -> str:
    with pytest.raises(HandError) as info:
        record_from_dict(obj)
    return str(info.value)


# --------------------------------------------------------------------------------------------
# Doctests of the modules (the default pytest run collects only ofc_core's)


@pytest.mark.parametrize("module", [ofc_hh, encoding_module])
def test_doctests(module: Any) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


# --------------------------------------------------------------------------------------------
# Reading


def test_reads_a_board_hand() -> None:
    record = record_from_dict(base_hand(button="bob", hero="ann", played_at="2026-11-29T21:04:05Z",
                                        stake=0.5, currency="EUR", session_id="s", match_id="m"))
    assert record.source == "home" and record.hand_id == "h1" and record.variant == "regular"
    assert [p.name for p in record.players] == ["ann", "bob"]
    assert record.players[0].board == Board.parse(ANN["top"], ANN["middle"], ANN["bottom"])
    assert record.players[0].streets is None
    assert record.first_to_act == 0  # left of bob's button, wrapping round
    assert (record.stake, record.currency, record.session_id, record.match_id) == (0.5, "EUR",
                                                                                   "s", "m")


def test_compact_board_and_card_spellings_are_accepted() -> None:
    spelled = base_hand()
    spelled["players"][0]["board"] = "QhQd2c-KsKd9s5h3c-JhJdJc4s4d"
    spelled["players"][1]["board"] = {"top": "A♥ k♣ 3d", "middle": "as\u00a0AD 8h 7c 2h",
                                      "bottom": "Qc 10c 8c\u20036c 5c"}
    assert record_from_dict(spelled) == record_from_dict(base_hand())


def test_hand_id_number_is_stored_as_string() -> None:
    assert record_from_dict(base_hand(hand_id=17)).hand_id == "17"
    assert record_from_dict(base_hand(hand_id=17.0)).hand_id == "17"
    assert "hand_id" in reject(base_hand(hand_id=True))


def test_streets_make_the_board() -> None:
    hand = base_hand(variant="pineapple")
    hand["players"][0] = {"name": "ann", "seat": 0, "streets": pineapple_streets()}
    record = record_from_dict(hand)
    ann = record.players[0]
    assert ann.board == Board.parse(ANN["top"], ANN["middle"], ANN["bottom"])
    assert ann.streets is not None and len(ann.streets) == 5
    assert ann.streets[1] == StreetPlay((), tuple(Card.parse(c) for c in ("9s", "5h")), (),
                                        (Card.parse("9s"), Card.parse("5h"), Card.parse("3h")),
                                        (Card.parse("3h"),))


def test_hidden_dealt_and_discard_are_none() -> None:
    hand = base_hand(variant="pineapple")
    streets = pineapple_streets()
    for street in streets:
        street.pop("dealt")
        street.pop("discard", None)
    hand["players"][0] = {"name": "ann", "seat": 0, "streets": streets}
    ann = record_from_dict(hand).players[0]
    assert ann.streets is not None
    assert all(s.dealt is None and s.discard is None for s in ann.streets)


def test_board_and_streets_together_must_agree() -> None:
    hand = base_hand(variant="pineapple")
    hand["players"][0]["streets"] = pineapple_streets()
    assert record_from_dict(hand).players[0].streets is not None
    hand["players"][0]["board"] = dict(ANN, top="Qh Qd 3h")
    assert "differs from the cards placed" in reject(hand)


def test_events_keep_their_data() -> None:
    events = [{"type": "double", "by": "bob", "accepted": True, "cube": 2},
              {"type": "match_end", "winner": "ann", "score": {"ann": 31, "bob": 9}}]
    record = record_from_dict(base_hand(variant="double", events=events))
    assert record.events[0] == Event("double", "bob", True, {"cube": 2})
    assert record.events[1].type == "match_end" and record.events[1].accepted is None
    assert dict(record.events[1].data) == {"winner": "ann", "score": {"ann": 31, "bob": 9}}


def test_surrendered_player_may_have_no_board() -> None:
    hand = base_hand(variant="pineapple")
    hand["players"].append({"name": "cid", "seat": 2, "surrendered": True})
    cid = record_from_dict(hand).players[2]
    assert cid.surrendered and cid.board.cards == ()


# --------------------------------------------------------------------------------------------
# Every reason a hand is refused


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(hand: dict[str, Any]) -> dict[str, Any]:
        target = hand
        for key in path[:-1]:
            target = target[key]
        if value is _DELETE:
            del target[path[-1]]
        else:
            target[path[-1]] = value
        return hand
    return change


_DELETE = object()


def _pineapple_street_change(n: int, street: dict[str, str]) -> Any:
    def change(hand: dict[str, Any]) -> dict[str, Any]:
        hand["variant"] = "pineapple"
        streets = pineapple_streets()
        streets[n] = street
        hand["players"][0] = {"name": "ann", "seat": 0, "streets": streets}
        return hand
    return change


def _extra_players(count: int, variant: str) -> Any:
    extra = ["9h 9d 8s-7h 7d 6s 6d 2s-Ts 9c 7s 5d 3s", "4c 3h 2d-Js 8d 6h 5s 4h-Ac Kh Qs Td Th"]

    def change(hand: dict[str, Any]) -> dict[str, Any]:
        hand["variant"] = variant
        for i in range(count):
            hand["players"].append({"name": f"p{i}", "seat": 2 + i, "board": extra[i]})
        return hand
    return change


REJECTIONS: list[tuple[str, Any, str]] = [
    ("not an object", lambda h: [h], "a hand is a JSON object, got a list"),
    ("unknown card", _set(("players", 0, "board", "top"), "Qh Qd 1x"),
     "players[0] 'ann' board.top: unknown card '1x'"),
    ("unknown card compact", _set(("players", 1, "board"), "AhKc3x-AsAd8h7c2h-QcTc8c6c5c"),
     "players[1] 'bob' board: unknown card"),
    ("unknown card in a street", _pineapple_street_change(1, {"dealt": "9s 5h Zz",
                                                               "middle": "9s 5h"}),
     "streets[1].dealt: unknown card 'Zz'"),
    ("same card twice across players", _set(("players", 1, "board", "top"), "Qh Kc 3d"),
     "card Qh appear"),
    ("same card twice in one board", _set(("players", 0, "board", "middle"), "Ks Ks 9s 5h 3c"),
     "Ks"),
    ("discard seen on another board", _pineapple_street_change(
        1, {"dealt": "9s 5h Ah", "middle": "9s 5h", "discard": "Ah"}), "Ah"),
    ("row with the wrong count", _set(("players", 0, "board", "top"), "Qh Qd"),
     "ann: top has 2 cards, needs 3"),
    ("row too long", _set(("players", 1, "board", "bottom"), "Qc Tc 8c 6c 5c 9h"),
     "bob: bottom has 6 cards, needs 5"),
    ("pineapple places 3 of 3", _pineapple_street_change(
        1, {"dealt": "9s 5h 3h", "middle": "9s 5h 3h"}),
     "street 2: places 3 cards, pineapple wants 3 dealt, 2 placed"),
    ("too many streets", lambda h: _pineapple_street_change(0, pineapple_streets()[0])(h) and (
        h["players"][0]["streets"].append({"dealt": "Ac 2s 3s", "top": "Ac", "discard": "2s"})
        or h), "pineapple has 5 streets, got 6"),
    ("too many players", _extra_players(2, "pineapple"), "4 players: pineapple needs 2-3"),
    ("too many for double", _extra_players(1, "double"), "3 players: double needs 2"),
    ("one player", lambda h: h["players"].pop() and h, "1 player: regular needs 2-4"),
    ("duplicate names", _set(("players", 1, "name"), "ann"), "player name 'ann' appears 2 times"),
    ("duplicate seats", _set(("players", 1, "seat"), 0), "seat order with distinct seats"),
    ("seats out of order", lambda h: h["players"].reverse() or h, "seat order"),
    ("missing source", _set(("source",), _DELETE), "missing required field 'source'"),
    ("missing hand_id", _set(("hand_id",), _DELETE), "missing required field 'hand_id'"),
    ("missing variant", _set(("variant",), _DELETE), "missing required field 'variant'"),
    ("missing players", _set(("players",), _DELETE), "missing required field 'players'"),
    ("missing name", _set(("players", 0, "name"), _DELETE), "missing required field 'name'"),
    ("missing seat", _set(("players", 0, "seat"), _DELETE), "missing required field 'seat'"),
    ("missing board", _set(("players", 0, "board"), _DELETE), "needs a board or streets"),
    ("seat as string", _set(("players", 0, "seat"), "one"),
     "seat: expected a whole number, got a string"),
    ("seat as bool", _set(("players", 0, "seat"), True), "seat: expected a whole number"),
    ("negative seat", _set(("players", 0, "seat"), -1), "seat must be 0 or more"),
    ("stake as string", _set(("stake",), "1"), "stake: expected a number, got a string"),
    ("fantasyland as string", _set(("players", 0, "fantasyland"), "yes"),
     "fantasyland: expected true or false"),
    ("players as object", _set(("players",), {"ann": 1}), "players: expected a list"),
    ("board as list", _set(("players", 0, "board"), ["Qh"]), "board: expected an object"),
    ("cards as list", _set(("players", 0, "board", "top"), ["Qh", "Qd", "2c"]),
     "expected cards as a string"),
    ("empty source", _set(("source",), " "), "source: must not be empty"),
    ("unknown key in rules", _set(("rules",), {"scorng": "2-4"}), "rules: unknown key 'scorng'"),
    ("unknown rules value", _set(("rules",), {"scoring": "3-5"}),
     "rules.scoring: unknown value '3-5'"),
    ("negative cap", _set(("rules",), {"cap": -1}), "rules.cap"),
    ("unknown variant", _set(("variant",), "razz"), "unknown variant 'razz'"),
    ("unknown top-level key", _set(("surrenderd",), True), "unknown key 'surrenderd'"),
    ("unknown player key", _set(("players", 0, "surrenderd"), True), "unknown key 'surrenderd'"),
    ("unknown board key", _set(("players", 0, "board", "middel"), "2s"), "unknown key 'middel'"),
    ("unknown street key", _pineapple_street_change(1, {"dealt": "9s 5h 3h", "middle": "9s 5h",
                                                        "burn": "3h"}), "unknown key 'burn'"),
    ("other format", _set(("format",), "ofc-hh/2"), "format 'ofc-hh/2' is not supported"),
    ("played_at without offset", _set(("played_at",), "2026-11-29T21:00:00"),
     "has no UTC offset"),
    ("played_at garbage", _set(("played_at",), "yesterday"), "not an ISO 8601 time"),
    ("button not playing", _set(("button",), "zed"), "button 'zed' is not one of the players"),
    ("hero not playing", _set(("hero",), "zed"), "hero 'zed' is not one of the players"),
    ("double by a stranger", _set(("events",), [{"type": "double", "by": "zed"}]),
     "events[0]: a double must name the player"),
    ("event without type", _set(("events",), [{"by": "ann"}]), "missing required field 'type'"),
    ("accepted as string", _set(("events",), [{"type": "double", "by": "ann",
                                               "accepted": "yes"}]), "accepted: expected true"),
    ("fantasyland hand in two streets", lambda h: _pineapple_street_change(
        0, pineapple_streets()[0])(h) and (h["players"][0].update(fantasyland=True) or h),
     "a Fantasyland hand is set in one street, got 5"),
]


@pytest.mark.parametrize(("change", "expected"), [(c, e) for _, c, e in REJECTIONS],
                         ids=[name for name, _, _ in REJECTIONS])
def test_rejections_name_the_hand_and_reason(change: Any, expected: str) -> None:
    message = reject(change(base_hand()))
    assert expected in message
    if "hand_id" in expected or "JSON object" in expected:
        return
    assert message.startswith("hand 'h1': ")


def test_the_base_hand_used_by_the_rejections_is_valid() -> None:
    """Each rejection above fails for its own reason, not because the base hand is bad."""
    assert record_from_dict(base_hand()).hand_id == "h1"
    hand = _pineapple_street_change(1, pineapple_streets()[1])(base_hand())
    assert record_from_dict(hand).players[0].streets is not None


@pytest.mark.parametrize(("line", "expected"), [
    ('{"source": "home", "hand_id": "x9" "variant": 1}', "hand 'x9': invalid JSON: Expecting ','"),
    ('{"source": NaN}', "invalid JSON: NaN is not a number in JSON"),
    ('{"source": "a", "source": "b"}', "invalid JSON: key 'source' appears twice"),
    ("not json at all", "invalid JSON: Expecting value at column 1"),
])
def test_invalid_json_lines(line: str, expected: str) -> None:
    [issue] = parse_all(line + "\n")
    assert isinstance(issue, ParseIssue) and not issue.partial
    assert issue.line == 1 and expected in issue.message and issue.raw == line


def test_bad_hands_do_not_stop_the_file() -> None:
    text = (SAMPLES / "bad-hands.jsonl").read_text(encoding="utf-8")
    items = parse_all(text, "bad-hands.jsonl")
    good = [i for i in items if isinstance(i, ParsedHand)]
    issues = [i for i in items if isinstance(i, ParseIssue)]
    assert [(h.line, h.record.hand_id) for h in good] == [(1, "b01-good"), (13, "b13-good")]
    assert [i.line for i in issues] == list(range(2, 13)) + [14]
    for issue in issues:
        assert issue.hand_id is not None and issue.hand_id.startswith(f"b{issue.line:02d}-")
        assert issue.message.startswith(f"hand '{issue.hand_id}': ") or issue.partial
    assert [i.partial for i in issues] == [False] * 11 + [True]


# --------------------------------------------------------------------------------------------
# Lines, blank lines, a file still being written


def test_line_numbers_are_one_based_and_blank_lines_skipped() -> None:
    one = json.dumps(base_hand(hand_id="a"))
    two = json.dumps(base_hand(hand_id="b"))
    items = parse_all(f"\n{one}\n   \n\t\n{two}\n\n")
    assert [(i.line, i.record.hand_id) for i in items if isinstance(i, ParsedHand)] == [
        (2, "a"), (5, "b")]
    assert all(isinstance(i, ParsedHand) for i in items)
    assert items[0].raw == one


def test_truncated_last_line_is_partial_not_an_error() -> None:
    one = json.dumps(base_hand(hand_id="a"))
    cut = json.dumps(base_hand(hand_id="b"))[:60]
    items = parse_all(f"{one}\n{cut}")
    assert isinstance(items[0], ParsedHand)
    last = items[1]
    assert isinstance(last, ParseIssue) and last.partial and last.line == 2
    assert last.hand_id == "b" and last.raw == cut


def test_cut_line_followed_by_newline_is_an_error() -> None:
    cut = json.dumps(base_hand(hand_id="b"))[:60]
    [issue] = parse_all(cut + "\n")
    assert isinstance(issue, ParseIssue) and not issue.partial


def test_cut_line_in_the_middle_is_an_error() -> None:
    cut = json.dumps(base_hand(hand_id="b"))[:60]
    items = parse_all(cut + "\n" + json.dumps(base_hand()))
    assert isinstance(items[0], ParseIssue) and not items[0].partial
    assert isinstance(items[1], ParsedHand)


def test_complete_last_line_without_newline_is_read() -> None:
    [item] = parse_all(json.dumps(base_hand()))
    assert isinstance(item, ParsedHand)


def test_valid_json_last_line_with_a_bad_hand_is_an_error_not_partial() -> None:
    [issue] = parse_all(json.dumps(base_hand(source=None)))
    assert isinstance(issue, ParseIssue) and not issue.partial


def test_crlf_and_bom_in_text_are_tolerated() -> None:
    text = "\ufeff" + json.dumps(base_hand(hand_id="a")) + "\r\n" + json.dumps(base_hand()) + "\r\n"
    items = parse_all(text)
    assert [i.record.hand_id for i in items if isinstance(i, ParsedHand)] == ["a", "h1"]


def test_line_separators_inside_names_do_not_split_lines() -> None:
    hand = base_hand()
    hand["players"][0]["name"] = "ann\u2028line\x85next"
    [item] = parse_all(dumps_record(record_from_dict(hand)) + "\n")
    assert isinstance(item, ParsedHand)
    assert item.record.players[0].name == "ann\u2028line\x85next"


# --------------------------------------------------------------------------------------------
# Writing and the round trip


def canonical_hands() -> list[dict[str, Any]]:
    full = base_hand(session_id="s1", match_id="m1", played_at="2026-11-29T21:04:05+01:00",
                     stake=2.5, currency="EUR", hero="ann", rules={"scoring": "2-4", "cap": None},
                     button="bob")
    streets = base_hand(variant="pineapple")
    streets["players"][0] = {"name": "ann", "seat": 0, "reported_points": 10,
                             "streets": pineapple_streets()}
    streets["players"].append({"name": "cid", "seat": 2, "surrendered": True,
                               "streets": [{"top": "6h", "middle": "9h 9d", "bottom": "Th Td"}]})
    fl = base_hand(variant="progressive-pineapple")
    fl["players"][0] = {"name": "ann", "seat": 0, "fantasyland": True, "streets": [
        {"dealt": "Qh Qd 2c Ks Kd 9s 5h 3c Jh Jd Jc 4s 4d Ac 7d", "top": "Qh Qd 2c",
         "middle": "Ks Kd 9s 5h 3c", "bottom": "Jh Jd Jc 4s 4d", "discard": "Ac 7d"}]}
    double = base_hand(variant="double", match_id="m2", events=[
        {"type": "double", "by": "bob", "accepted": True, "cube": 2},
        {"type": "match_end", "winner": "ann", "score": {"ann": 31, "bob": 9}}])
    surrender = base_hand()
    surrender["players"][1] = {"name": "bob", "seat": 1, "surrendered": True}
    return [base_hand(), full, streets, fl, double, surrender]


@pytest.mark.parametrize("hand", canonical_hands(), ids=lambda h: h["variant"])
def test_round_trip_of_canonical_dicts(hand: dict[str, Any]) -> None:
    assert record_to_dict(record_from_dict(copy.deepcopy(hand))) == hand


@pytest.mark.parametrize("name", GOOD_SAMPLES)
def test_round_trip_of_every_sample_hand(name: str) -> None:
    for line in sample_lines(name):
        record = record_from_dict(json.loads(line))
        written = record_to_dict(record)
        assert record_from_dict(written) == record
        assert record_to_dict(record_from_dict(written)) == written


def test_writer_omits_absent_fields_and_writes_streets() -> None:
    hand = canonical_hands()[2]
    written = record_to_dict(record_from_dict(hand))
    assert list(written) == ["format", "source", "hand_id", "variant", "players"]
    assert "board" not in written["players"][0] and "streets" in written["players"][0]
    assert written["players"][1] == {"name": "bob", "seat": 1, "board": BOB}


def test_dumps_record_is_one_line_of_utf8_json() -> None:
    hand = base_hand(source="Дом ♠")
    hand["players"][0]["name"] = 'Ann "A"\nLee'
    line = dumps_record(record_from_dict(hand))
    assert "\n" not in line and "Дом ♠" in line
    assert json.loads(line)["players"][0]["name"] == 'Ann "A"\nLee'


def test_write_records_then_parse_gives_the_same_records() -> None:
    records = [record_from_dict(h) for h in canonical_hands()]
    buffer = io.StringIO()
    assert write_records(records, buffer) == len(records)
    text = buffer.getvalue()
    assert text.endswith("\n") and text.count("\n") == len(records)
    parsed = parse_all(text)
    assert [p.record for p in parsed if isinstance(p, ParsedHand)] == records


def test_writer_output_of_records_built_in_code() -> None:
    """A record made by code (the simulator's path), not read from a file."""
    deck = list(DECK)
    random.Random(4).shuffle(deck)
    boards = [Board(tuple(deck[i:i + 3]), tuple(deck[i + 3:i + 8]), tuple(deck[i + 8:i + 13]))
              for i in (0, 13, 26)]
    streets = (StreetPlay(top=boards[2].top, middle=boards[2].middle[:2], dealt=boards[2].top
                          + boards[2].middle[:2]),
               *(StreetPlay(middle=(c,), dealt=(c,)) for c in boards[2].middle[2:]),
               *(StreetPlay(bottom=(c,), dealt=(c,)) for c in boards[2].bottom))
    record = HandRecord("sim", "42", "regular", (
        PlayerRecord("a", 0, boards[0]), PlayerRecord("b", 1, boards[1], fantasyland=True),
        PlayerRecord("c", 2, boards[2], streets=streets)), button="c")
    [parsed] = parse_all(dumps_record(record))
    assert isinstance(parsed, ParsedHand) and parsed.record == record


NAMES = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12).filter(
    lambda s: s.strip() != "")


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(NAMES, min_size=2, max_size=4, unique=True), seed=st.integers(0, 10**6),
       hand_id=NAMES, source=NAMES)
def test_any_names_survive_write_and_read(names: list[str], seed: int, hand_id: str,
                                          source: str) -> None:
    deck = list(DECK)
    random.Random(seed).shuffle(deck)
    players = tuple(
        PlayerRecord(n, i, Board(tuple(deck[13 * i:13 * i + 3]), tuple(deck[13 * i + 3:13 * i + 8]),
                                 tuple(deck[13 * i + 8:13 * i + 13])))
        for i, n in enumerate(names))
    record = HandRecord(source, hand_id, "regular", players, hero=names[-1])
    items = parse_all(dumps_record(record) + "\n")
    assert len(items) == 1 and isinstance(items[0], ParsedHand)
    assert items[0].record == record


# --------------------------------------------------------------------------------------------
# Nasty names and samples


def test_nasty_names_survive_unchanged() -> None:
    items = parse_all((SAMPLES / "nasty-names.jsonl").read_text(encoding="utf-8"))
    records = [i.record for i in items if isinstance(i, ParsedHand)]
    assert len(records) == len(items) == 2
    names = [p.name for r in records for p in r.players]
    assert names == ['Robert "Bobby" O\'Neil', EVIL, "🂡 Ace 🃏 ♠", "Дмитрий Ж.", "Ann\u00a0Lee"]
    assert records[0].hero == EVIL and records[0].hand_id == 'n1 "quoted" <x>'
    assert records[1].button == "Ann\u00a0Lee"
    for record in records:
        line = dumps_record(record)
        assert record_from_dict(json.loads(line)) == record
    assert EVIL in dumps_record(records[0])  # written as the plain text it is, not escaped


@pytest.mark.parametrize("name", GOOD_SAMPLES)
def test_good_samples_have_no_issues(name: str) -> None:
    text = (SAMPLES / name).read_text(encoding="utf-8")
    items = parse_all(text, name)
    assert items and all(isinstance(i, ParsedHand) for i in items), [
        i.message for i in items if isinstance(i, ParseIssue)]


def test_samples_cover_every_preset_and_override() -> None:
    variants: set[str] = set()
    overrides: dict[str, set[Any]] = {}
    counts: set[int] = set()
    flags = {"streets": False, "surrendered": False, "fantasyland": False, "events": False}
    for name in GOOD_SAMPLES:
        for line in sample_lines(name):
            record = record_from_dict(json.loads(line))
            variants.add(record.variant)
            counts.add(len(record.players))
            for key, value in record.rules.items():
                overrides.setdefault(key, set()).add(value)
            flags["streets"] |= any(p.streets for p in record.players)
            flags["surrendered"] |= any(p.surrendered for p in record.players)
            flags["fantasyland"] |= any(p.fantasyland for p in record.players)
            flags["events"] |= any(e.type == "double" for e in record.events)
    assert variants == {"regular", "turbo", "pineapple", "progressive-pineapple", "double"}
    assert counts == {2, 3, 4}
    assert all(flags.values()), flags
    assert overrides["scoring"] == {"1-6", "2-4", "majority", "race"}
    assert overrides["royalties"] == {"american", "american-no-middle-trips"}
    assert overrides["foul_payout"] == {"scoop-plus-royalties", "scoop"}
    assert overrides["fantasyland"] == {"on", "off"}
    assert overrides["fl_stay"] == {"classic", "royalty-10"}
    assert overrides["button_in_fl"] == {"frozen", "rotates"}
    assert {"surrender_cost", "cap"} <= set(overrides) and None in overrides["cap"]


# --------------------------------------------------------------------------------------------
# Detection and the JSON Schema


def test_registered_and_detected() -> None:
    assert FORMAT in registry() and FORMAT.name == "ofc-hh/1"
    text = (SAMPLES / "regular.jsonl").read_text(encoding="utf-8")
    assert detect(text, "whatever.txt") is FORMAT
    assert FORMAT.sniff("\n\n" + json.dumps(base_hand()), "x.log")
    assert FORMAT.sniff('{"source": "x"}', "hands.jsonl")
    assert not FORMAT.sniff('{"source": "x"}', "hands.txt")
    assert not FORMAT.sniff("player,top,middle,bottom\nann,Qh Qd 2c,,", "boards.csv")
    assert not FORMAT.sniff("", "empty.jsonl")


def test_schema_accepts_samples_and_writer_output() -> None:
    import jsonschema  # in the test extra: a missing package is a failure, not a skip
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for name in GOOD_SAMPLES:
        for line in sample_lines(name):
            obj = json.loads(line)
            assert not list(validator.iter_errors(obj)), (name, obj["hand_id"])
            assert not list(validator.iter_errors(record_to_dict(record_from_dict(obj))))
    for hand in canonical_hands():
        assert validator.is_valid(hand)


def test_schema_refuses_format_level_mistakes() -> None:
    import jsonschema  # in the test extra: a missing package is a failure, not a skip
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    refused_by_schema = {"unknown card", "missing source", "missing name", "missing board",
                         "seat as string", "unknown key in rules", "unknown rules value",
                         "unknown top-level key", "unknown street key", "played_at garbage",
                         "played_at without offset", "other format", "stake as string",
                         "unknown variant", "empty source", "negative cap"}
    for name, change, _ in REJECTIONS:
        if name in refused_by_schema:
            assert not validator.is_valid(change(base_hand())), name


# --------------------------------------------------------------------------------------------
# Decoding bytes


def test_utf8_with_and_without_bom() -> None:
    text = "ann\u00a0Lee ♠\nДмитрий\n"
    assert decode_bytes(text.encode("utf-8"), "a") == text
    assert decode_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"), "a") == text


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_with_bom(codec: str) -> None:
    text = "ann\u00a0Lee 🂡\r\nДмитрий\r\n"
    data = text.encode(codec)
    if codec in ("utf-16-le", "utf-16-be"):
        data = ("\ufeff" + text).encode(codec)
    assert decode_bytes(data, "a") == "ann\u00a0Lee 🂡\nДмитрий\n"


def test_crlf_and_cr_become_lf() -> None:
    assert decode_bytes(b"a\r\nb\rc\n", "a") == "a\nb\nc\n"


@pytest.mark.parametrize(("data", "expected"), [
    (b"caf\xe9 ok", "x.jsonl: not UTF-8 text (byte 0xe9 at offset 3, line 1)"),
    (b"\xef\xbb\xbfcaf\xe9", "x.jsonl: not UTF-8 text (byte 0xe9 at offset 6, line 1)"),
    (b"a\r\nb\rc\n\xc0\xaf", "x.jsonl: not UTF-8 text (byte 0xc0 at offset 7, line 4)"),
    (b"\xff\xfe\x00\xd8", "x.jsonl: not UTF-16-LE text"),
    ("a\nhands".encode("utf-16-le"), "x.jsonl: contains NUL characters (first on line 1)"),
    (b"PK\x03\x04\x00\x00", "x.jsonl: contains NUL characters"),
])
def test_undecodable_bytes_raise_a_clear_error(data: bytes, expected: str) -> None:
    with pytest.raises(DecodeError) as info:
        decode_bytes(data, "x.jsonl")
    assert str(info.value).startswith(expected)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16"])
def test_a_sample_file_in_other_encodings_reads_the_same(codec: str) -> None:
    raw = (SAMPLES / "pineapple.jsonl").read_text(encoding="utf-8")
    expected = [i.record for i in parse_all(raw) if isinstance(i, ParsedHand)]
    data = raw.replace("\n", "\r\n").encode(codec)
    text = decode_bytes(data, "p.jsonl")
    assert [i.record for i in parse_all(text) if isinstance(i, ParsedHand)] == expected


def test_cards_with_nbsp_in_a_decoded_file() -> None:
    hand = base_hand()
    hand["players"][0]["board"]["top"] = "Qh\u00a0Qd\u00a02c"
    data = (json.dumps(hand, ensure_ascii=False) + "\r\n").encode("utf-16")
    [item] = parse_all(decode_bytes(data, "x"))
    assert isinstance(item, ParsedHand)
    assert format_cards(item.record.players[0].board.top) == "Qh Qd 2c"
