"""The live notation ``ofc-live/1`` (ingest/formats/live.py): samples against golden files,
every message, detection among the registered formats, and round trips of random hands.

Golden files live in ``tests/golden/``; after a deliberate change of the reader, rewrite them
with ``OFC_UPDATE_GOLDEN=1 python -m pytest tests/test_format_live.py`` and review the diff.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.formats import ParsedHand, ParseIssue, detect, live, registry
from ingest.formats.ofc_hh import dumps_record, record_to_dict
from ofc_core.board import Board
from ofc_core.cards import DECK, Card, format_cards
from ofc_core.rules import PRESETS
from ofc_core.scoring import score_hand
from tests.helpers.hypo import examples

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
LIVE_SAMPLES = sorted((SAMPLES / "live").glob("*.txt"))
OTHER_SAMPLES = sorted((SAMPLES / "csv").glob("*"))

NASTY = ["Hero", "Анна\u00a0Мария", "<img src=x onerror=alert(1)>", 'Dima "The Wall" 🧱',
         "O'Neil", "Smith, John", "'; DROP TABLE hands; --", "李雷"]

GOOD = ("Ann: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\n"
        "Bob: Ah Kc 3d / As Ad 8h 7c 2h / Qc Tc 8c 6c 5c\n")


def parse(text: str, filename: str = "home.txt") -> list[ParsedHand | ParseIssue]:
    return list(live.FORMAT.parse(text, filename))


def one_hand(text: str, filename: str = "home.txt") -> ParsedHand:
    [item] = parse(text, filename)
    assert isinstance(item, ParsedHand), item
    return item


def one_issue(text: str) -> ParseIssue:
    [item] = parse(text)
    assert isinstance(item, ParseIssue), item
    return item


# --------------------------------------------------------------------------------------------
# Samples


@pytest.mark.parametrize("sample", LIVE_SAMPLES, ids=lambda p: p.name)
def test_sample_matches_golden(sample: Path, check_golden) -> None:
    check_golden(sample, list(live.FORMAT.parse(sample.read_text("utf-8"), str(sample))))


def test_home_game_sample_reads_every_feature() -> None:
    items = parse((SAMPLES / "live" / "dimas-home-game.txt").read_text("utf-8"),
                  "data/samples/live/dimas-home-game.txt")
    assert all(isinstance(i, ParsedHand) for i in items)
    hands = {i.record.hand_id: i.record for i in items}
    assert list(hands) == ["12", "13", "14", "20", "21"]
    h12, h13, h14, h20, h21 = hands.values()
    assert {h.source for h in hands.values()} == {"dimas-home-game"}
    assert (h12.variant, h12.stake, h12.currency, h12.session_id, h12.hero) == (
        "pineapple", 1.0, "EUR", "2026-11-26", "Hero")
    assert h12.players[0].streets is not None and len(h12.players[0].streets) == 5
    assert h12.players[0].streets[1].discard == (Card.parse("Qc"),)
    assert h13.button == "Анна\u00a0Мария" and dict(h13.rules) == {"scoring": "2-4"}
    assert [p.fantasyland for p in h13.players] == [False, True, False]
    assert h13.players[2].surrendered and h13.players[2].board == Board((), (), ())
    assert h13.played_at == "2026-11-26T20:41:00+01:00"
    assert h14.players[2].name == 'Dima "The Wall" 🧱'
    assert (h20.variant, dict(h20.rules), len(h20.players)) == ("regular", {"cap": 10}, 4)
    assert h21.hand_id == "21" and h21.played_at == "2026-11-26T23:30:00+03:00"
    assert h21.hero == "Hero"


def test_reported_points_are_what_the_scorer_computes() -> None:
    """The sample's points came from the score sheet; our scorer, fed the parsed records
    (Fantasyland, surrender, 2-4 scoring, a cap, the button), agrees with every one."""
    items = parse((SAMPLES / "live" / "dimas-home-game.txt").read_text("utf-8"))
    for item in items:
        record = item.record
        result = score_hand(record.seats(), record.ruleset, record.first_to_act)
        assert [p.reported_points for p in record.players] == [p.points for p in result.players]


def test_mistakes_sample_keeps_the_good_hands() -> None:
    sample = SAMPLES / "live" / "live-mistakes.txt"
    items = parse(sample.read_text("utf-8"), sample.name)
    good = [i.record.hand_id for i in items if isinstance(i, ParsedHand)]
    assert good == ["1", "26"]
    issues = [i for i in items if isinstance(i, ParseIssue)]
    assert len(issues) == 31 and not any(i.partial for i in issues)
    assert all(i.message.startswith(f"hand {i.hand_id!r}: ") for i in issues if i.hand_id)


# --------------------------------------------------------------------------------------------
# Every message, with its line


MESSAGES = [
    ("hand 1\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\nBob: Ah Kc 3d / As Ad 8h 7c 2h / Qc Tc 8c 6c 5x\n",
     3, "hand '1': Bob: unknown card '5x' in 'Qc Tc 8c 6c 5x' (jokers are X1 and X2)"),
    ("hand 1\nAnn: QhQd2c-KsKd9s5h3c\n" + GOOD.split("\n")[1] + "\n", 2,
     "hand '1': Ann: a board has three rows, top-middle-bottom or top / middle / bottom "
     "(got 2 rows)"),
    ("hand 1\nAnn: QhQd-KsKd9s5h3c-JhJdJc4s4d\n" + GOOD.split("\n")[1] + "\n", 1,
     "hand '1': Ann: top has 2 cards, needs 3"),
    ("hand 1\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\nBob: Qh Kc 3d / As Ad 8h 7c 2h / Qc Tc 8c 6c 5c\n",
     1, "hand '1': card Qh appears more than once in the hand"),
    ("hand 1\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d +six\n" + GOOD.split("\n")[1] + "\n", 2,
     "hand '1': Ann: bad points '+six' (write a number such as +7, -3 or 0)"),
    ("hand 1\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d +6 -6\n" + GOOD.split("\n")[1] + "\n", 2,
     "hand '1': Ann: two points values (+6 and -6)"),
    ("hand 1\n" + GOOD + "Cy: +3\n", 4,
     "hand '1': Cy: no board (write top-middle-bottom or top / middle / bottom, or 'surrender')"),
    ("hand 1 variant=texas\n" + GOOD, 1,
     f"hand '1': unknown variant 'texas' (one of {', '.join(PRESETS)})"),
    ("@variant Texas Holdem\nhand 1\n" + GOOD, 2, "hand '1': unknown variant 'texas-holdem'"),
    ("hand 1 [rules: scoring=3-5]\n" + GOOD, 1,
     "hand '1': rules.scoring: unknown value '3-5' (one of 1-6, 2-4, majority, race)"),
    ("hand 1 [rules: colour=red]\n" + GOOD, 1, "hand '1': rules: unknown key 'colour'"),
    ("hand 1 [rules: cap=lots]\n" + GOOD, 1,
     "hand '1': rules.cap: expected a non-negative number, got 'lots'"),
    ("hand 1 [rules: scoring]\n" + GOOD, 1, "hand '1': rules: expected key=value, got 'scoring'"),
    ("hand 1 button=Cy\n" + GOOD, 1, "hand '1': button 'Cy' is not one of the players"),
    ("hand 1 hero=Cy\n" + GOOD, 1, "hand '1': hero 'Cy' is not one of the players"),
    ("hand 1 seat=2\n" + GOOD, 1,
     "hand '1': hand header: unknown key 'seat' (one of button, time, hero, variant, session, "
     "stake, match, level, per_point, table, round, rules)"),
    ("hand 1 two\n" + GOOD, 1, "hand '1': hand header: unexpected 'two' (write key=value)"),
    ("hand 1 stake=lots\n" + GOOD, 1,
     "hand '1': stake: expected money per point and an optional currency, such as '1 EUR' or "
     "'0.5', got 'lots'"),
    ("hand 1 time=21:05\n" + GOOD, 1,
     "hand '1': time=21:05 needs a day: add '@date 2026-11-26' above the hand or write "
     "time=2026-11-26T21:05"),
    ("hand 1 time=yesterday\n" + GOOD, 1,
     "hand '1': unknown date 'yesterday' (write 2026-11-26T21:05+01:00, 2026-11-26 21:05, "
     "26.11.2026 21:05 or 11/26/2026)"),
    ("hand 1 time=05/06/2026\n" + GOOD + "hand 2 time=13/01/2026\n" + GOOD
     + "hand 3 time=01/13/2026\n" + GOOD, 1,
     "hand '1': ambiguous date '05/06/2026': this file writes dates both day first and month "
     "first; write it as 2026-11-26"),
    ("hand 1\nAnn\n" + GOOD.split("\n")[1] + "\n", 2,
     "hand '1': cannot read 'Ann': expected 'Name: board', 'hand ID ...', '@key value' or a # "
     "comment"),
    ("hand 1\n: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\n" + GOOD.split("\n")[1] + "\n", 2,
     "hand '1': cannot read"),
    ("hand 1\n", 1, "hand '1': no player lines (write 'Name: top-middle-bottom')"),
    ("hand 1\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\n", 1, "hand '1': 1 player: regular needs 2-4"),
    ("hand 1\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\nAnn: Ah Kc 3d / As Ad 8h 7c 2h / Qc Tc 8c 6c 5c\n",
     1, "hand '1': player name 'Ann' appears 2 times"),
    ("@variant pineapple\nhand 1\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d FL15\n"
     + GOOD.split("\n")[1] + "\n", 2,
     "hand '1': Ann: FL15 is not a Fantasyland deal in pineapple (14 cards)"),
    ("hand 1 [rules: fantasyland=off]\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d FL\n"
     + GOOD.split("\n")[1] + "\n", 1,
     "hand '1': Ann: marked FL but this hand is played without Fantasyland"),
    ("hand 1\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\n  streets: t:QhQd2c m:KsKd | q:9s\n"
     + GOOD.split("\n")[1] + "\n", 3,
     "hand '1': Ann, streets: unknown row 'q' in 'q:9s' (use t, m, b for top, middle, bottom "
     "and x for the discard)"),
    ("hand 1\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\n  streets: QhQd2c m:KsKd\n"
     + GOOD.split("\n")[1] + "\n", 3,
     "hand '1': Ann, streets: expected row:cards, got 'QhQd2c' in 'QhQd2c m:KsKd'"),
    ("hand 1\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\n  streets: t:QhQd3c m:KsKd9s5h2c | b:JhJd"
     "|b:Jc|b:4s|b:4d|\n" + GOOD.split("\n")[1] + "\n", 3,
     "hand '1': Ann: the streets put Qh Qd 3c on top, the board has Qh Qd 2c"),
    ("@variant pineapple\nhand 1\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\n"
     "  streets: t:QhQd2c m:KsKd | m:9s5h3c x:7d | b:JhJd x:7h | b:Jc4s x:7s | b:4d x:Td\n"
     + GOOD.split("\n")[1] + "\n", 2,
     "hand '1': Ann, street 2: places 3 cards, pineapple wants 3 dealt, 2 placed"),
    ("hand 1\n" + GOOD + "hand 1\n" + GOOD.replace("Ann", "Cy"), 4,
     "hand '1': the hand id is already used on line 1"),
]


@pytest.mark.parametrize(("text", "line", "message"), MESSAGES,
                         ids=[m[2][10:60] for m in MESSAGES])
def test_every_message_names_the_hand_and_line(text: str, line: int, message: str) -> None:
    issues = [i for i in parse(text) if isinstance(i, ParseIssue)]
    assert issues, "expected an issue"
    assert issues[0].line == line
    assert issues[0].message.startswith(message)
    assert issues[0].hand_id == "1" and not issues[0].partial


def test_problems_on_several_lines_are_one_issue_naming_each_line() -> None:
    issue = one_issue("hand 4\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4x\nBob: Ah Kc 3d / As Ad 8h 7c 2h"
                      " / Qc Tc 8c 6c 5c +x\n")
    assert issue.line == 2
    assert issue.message == ("hand '4': Ann: unknown card '4x' in 'JhJdJc4s4x' (jokers are X1 "
                             "and X2); line 3: Bob: "
                             "bad points '+x' (write a number such as +7, -3 or 0)")
    assert issue.raw.startswith("hand 4\nAnn:")


DIRECTIVE_MESSAGES = [
    ("@sound on", "unknown directive @sound (one of @source, @variant, @rules, @stake, "
     "@currency, @session, @match, @hero, @date, @timezone, @tournament)"),
    ("@stake a lot", "@stake: expected money per point and an optional currency, such as "
     "'1 EUR' or '0.5', got 'a lot'"),
    ("@timezone Mars/Olympus", "@timezone: unknown time zone 'Mars/Olympus' (use UTC, +01:00 or "
     "a name such as Europe/Berlin)"),
    ("@rules scoring", "@rules: expected key=value, got 'scoring'"),
    ("@variant", "@variant needs a value"),
    ("@date someday", "@date: unknown date 'someday' (write 2026-11-26T21:05+01:00, "
     "2026-11-26 21:05, 26.11.2026 21:05 or 11/26/2026)"),
]


@pytest.mark.parametrize(("line", "message"), DIRECTIVE_MESSAGES)
def test_bad_directive_is_reported_and_the_hand_still_reads(line: str, message: str) -> None:
    items = parse(f"# notes\n{line}\nhand 5\n{GOOD}")
    assert [type(i) for i in items] == [ParseIssue, ParsedHand]
    assert (items[0].line, items[0].hand_id, items[0].message) == (2, None, message)


# --------------------------------------------------------------------------------------------
# The notation


def test_header_fields_and_directives_fill_the_record() -> None:
    text = ("@source Casino Royale\n@variant Progressive Pineapple\n@stake €0,5\n"
            "@session evening-1\n@match m7\n@timezone Europe/Berlin\n@date 26.11.2026\n"
            "@rules scoring=2-4, surrender_cost=1.5\n"
            'hand #77 button="Bob" time=21:05 hero=Ann [rules: cap=30, fantasyland=yes]\n' + GOOD)
    record = one_hand(text).record
    assert (record.source, record.hand_id, record.variant) == (
        "Casino Royale", "77", "progressive-pineapple")
    assert (record.stake, record.currency, record.session_id, record.match_id) == (
        0.5, "EUR", "evening-1", "m7")
    assert record.played_at == "2026-11-26T21:05:00+01:00"
    assert (record.button, record.hero) == ("Bob", "Ann")
    assert dict(record.rules) == {"scoring": "2-4", "surrender_cost": 1.5, "cap": 30,
                                  "fantasyland": "on"}
    assert record.ruleset.surrender_cost == 1.5 and record.ruleset.cap == 30


def test_hand_ids_are_numbered_when_the_header_or_block_gives_none() -> None:
    text = f"hand 12\n{GOOD}\nhand\n{GOOD}\n{GOOD}\nhand A7\n{GOOD}\nhand\n{GOOD}"
    assert [i.record.hand_id for i in parse(text)] == ["12", "13", "14", "A7", "5"]


def test_source_defaults_to_the_file_name_stem() -> None:
    assert one_hand(GOOD, "logs/2026-11-26 Dima's.txt").record.source == "2026-11-26 Dima's"
    assert one_hand(GOOD, "").record.source == "live"


def test_player_line_flags_in_any_order_and_points_forms() -> None:
    text = ("@variant pineapple\nhand 1\nAnn: FL14 QhQd2c-KsKd9s5h3c-JhJdJc4s4d \u22123\n"
            "Bob: Ah Kc 3d / As Ad 8h 7c 2h / Qc Tc 8c 6c 5c 2,5 fl\n"
            "Cy: surrender +0.5   # left early\n")
    ann, bob, cy = one_hand(text).record.players
    assert (ann.fantasyland, ann.reported_points) == (True, -3.0)
    assert (bob.fantasyland, bob.reported_points) == (True, 2.5)
    assert (cy.surrendered, cy.reported_points, cy.board.cards) == (True, 0.5, ())


def test_surrender_may_keep_the_cards_placed_so_far() -> None:
    text = "hand 1\n" + GOOD + "Cy: 7h7d- 6s6d -  surrender -4\n"
    cy = one_hand(text).record.players[2]
    assert cy.surrendered and format_cards(cy.board.cards) == "7h 7d 6s 6d"


def test_board_spellings_agree() -> None:
    spellings = ["Jh4s3h-As5c4c3c2h-KdJd9d7d3d", "Jh 4s 3h - As 5c 4c 3c 2h - Kd Jd 9d 7d 3d",
                 "Jh4s3h / As5c4c3c2h / KdJd9d7d3d", "jh,4s,3h / A♠ 5♣ 4♣ 3♣ 2♥ / Kd Jd 9d 7d 3d",
                 "J♥4♠3♥-A♠5♣4♣3♣2♥-K♦J♦9♦7♦3♦", "Jh\u00a04s\u00a03h / As 5c 4c 3c 2h / Kd Jd "
                 "9d 7d 3d"]
    boards = {one_hand(f"hand 1\nAnn: {b}\nBob: QhQd2d-KsKh9s5h6c-JcJsTc8s8d\n"
                       ).record.players[0].board for b in spellings}
    assert len(boards) == 1
    assert boards.pop().compact().startswith("Jh4s3h-As5c")


def test_crlf_nbsp_and_bom_read_like_plain_text() -> None:
    plain = (SAMPLES / "live" / "dimas-home-game.txt").read_text("utf-8")
    messy = "\ufeff" + plain.replace("\n", "\r\n").replace("  ", "\u00a0 ")
    assert [record_to_dict(i.record) for i in parse(messy, "dimas-home-game.txt")] == [
        record_to_dict(i.record) for i in parse(plain, "dimas-home-game.txt")]


def test_names_keep_their_characters() -> None:
    text = "hand 1\n" + "".join(
        f"{n if ':' not in n else chr(34) + n + chr(34)}: {b}\n" for n, b in zip(
            ["Анна\u00a0Мария", "<img src=x onerror=alert(1)>", "Dr: Who"],
            ["QhQd2c-KsKd9s5h3c-JhJdJc4s4d", "Ah Kc 3d / As Ad 8h 7c 2h / Qc Tc 8c 6c 5c",
             "2d5d6d-7s8s6sTsJs-AcKhQsTh9h"], strict=True))
    names = [p.name for p in one_hand(text).record.players]
    assert names == ["Анна\u00a0Мария", "<img src=x onerror=alert(1)>", "Dr: Who"]


def test_a_player_called_hand_is_a_player_and_hand_colon_rules_is_a_header() -> None:
    items = parse("hand 3 rules: cap=5\nHand: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\n"
                  "Bob: Ah Kc 3d / As Ad 8h 7c 2h / Qc Tc 8c 6c 5c\n")
    record = items[0].record
    assert record.hand_id == "3" and dict(record.rules) == {"cap": 5}
    assert [p.name for p in record.players] == ["Hand", "Bob"]


def test_street_order_becomes_street_plays() -> None:
    text = ("@variant pineapple\nhand 1\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\n"
            "  streets: t:QhQd m:KsKd9s | b:JhJd x:7d | t:2c m:5h x:?\n"
            "  streets: m:3c b:Jc x:7s | b:4s4d x:Td\n" + GOOD.split("\n")[1] + "\n")
    ann = one_hand(text).record.players[0]
    assert len(ann.streets) == 5
    assert ann.streets[2].discard is None and ann.streets[2].dealt is None
    assert ann.streets[0].discard == () and len(ann.streets[0].dealt) == 5  # nothing discarded
    assert format_cards(ann.streets[4].dealt) == "4s 4d Td"


def test_fantasyland_street_with_discards() -> None:
    text = ("@variant progressive-pineapple\nhand 1\nAnn: QhQd2c-KsKd9s5h3c-JhJdJc4s4d FL16\n"
            "  streets: t:QhQd2c m:KsKd9s5h3c b:JhJdJc4s4d x:7d7h7s\n"
            + GOOD.split("\n")[1] + "\n")
    ann = one_hand(text).record.players[0]
    assert ann.fantasyland and len(ann.streets[0].dealt) == 16


# --------------------------------------------------------------------------------------------
# Detection among every registered format


def jsonl_text() -> str:
    return "\n".join(dumps_record(i.record) for i in parse(
        (SAMPLES / "live" / "dimas-home-game.txt").read_text("utf-8"))) + "\n"


def test_registry_holds_the_live_format() -> None:
    assert live.FORMAT in registry()


@pytest.mark.parametrize("sample", LIVE_SAMPLES, ids=lambda p: p.name)
def test_detect_picks_live_for_live_samples(sample: Path) -> None:
    assert detect(sample.read_text("utf-8"), sample.name) is live.FORMAT
    assert detect(sample.read_text("utf-8"), "upload.csv") is live.FORMAT


@pytest.mark.parametrize("sample", OTHER_SAMPLES, ids=lambda p: p.name)
def test_live_never_claims_csv(sample: Path) -> None:
    text = sample.read_text("utf-8")
    assert not live.FORMAT.sniff(text, sample.name)
    assert detect(text, sample.name).name == "csv-boards/1"


def test_live_never_claims_json_lines() -> None:
    text = jsonl_text()
    assert not live.FORMAT.sniff(text, "x.jsonl")
    assert not live.FORMAT.sniff(text, "x.txt")
    assert detect(text, "x.txt").name == "ofc-hh/1"


@pytest.mark.parametrize("text", [
    "", "\n\n", "# just a comment\n", "Dear diary: today I lost.\n",
    "PokerStars Hand #1: Hold'em No Limit ($0.01/$0.02)\nSeat 1: Hero ($2 in chips)\n",
    "hand id;date;player;top;middle;bottom\n1;26.11.2026 20:00;Ann;Qh Qd 2c;x;y\n",
    "[1, 2]\n", "{}\n",
])
def test_live_does_not_claim_other_text(text: str) -> None:
    assert not live.FORMAT.sniff(text, "notes.txt")


def test_a_typo_in_the_first_board_still_detects_live() -> None:
    text = "@variant pineapple\nhand 1\nAnn: QhQd2x-KsKd9s5h3c-JhJdJc4s4d\n" + GOOD
    assert detect(text, "x.txt") is live.FORMAT


# --------------------------------------------------------------------------------------------
# Round trips and fuzzing


def write_live(hands: list[tuple[str, list[tuple[str, Board, bool, float]]]],
               style: int) -> str:
    """Live text for some hands (the writer a user would be, in one of three board styles)."""
    lines = ["@variant regular"]
    for hand_id, players in hands:
        lines.append(f"\nhand {hand_id}")
        for name, board, fl, points in players:
            rows = [board.top, board.middle, board.bottom]
            text = [board.compact(),
                    " / ".join(format_cards(r) for r in rows),
                    " - ".join("".join(c.pretty for c in r) for r in rows)][style]
            name_text = f'"{name}"' if ":" in name or name[0] in "#@\"" else name
            lines.append(f"{name_text}: {text}{' FL' if fl else ''} {points:+g}")
    return "\n".join(lines) + "\n"


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), style=st.integers(0, 2),
       names=st.lists(st.sampled_from(NASTY + ["#7 fan", "a: b"]), min_size=2, max_size=4,
                      unique=True))
def test_round_trip_of_random_hands(seed: int, style: int, names: list[str]) -> None:
    rng = random.Random(seed)
    hands = []
    for hand_id in ("1", "2"):
        deck = list(DECK)
        rng.shuffle(deck)
        players = []
        for k, name in enumerate(names):
            cards = deck[13 * k: 13 * k + 13]
            board = Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
            players.append((name, board, rng.random() < 0.3, rng.randint(-40, 40) / 2))
        hands.append((hand_id, players))
    items = parse(write_live(hands, style), "rt.txt")
    assert all(isinstance(i, ParsedHand) for i in items), items
    for item, (hand_id, players) in zip(items, hands, strict=True):
        record = item.record
        assert record.hand_id == hand_id
        assert [(p.name, p.board, p.fantasyland, p.reported_points) for p in record.players] == [
            (n, b, fl, pts) for n, b, fl, pts in players]


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.sampled_from(list("hand @:/-|#\n\t\"=[]+FLx")
                                + ["Qh", "2c", "T♠", "rules", "streets", "t:", "x:",
                                   "surrender", "@variant", "\u00a0", "Ж"]),
                max_size=120).map("".join))
def test_never_raises_on_any_text(text: str) -> None:
    items = parse(text)
    assert all(isinstance(i, ParsedHand | ParseIssue) for i in items)
    live.FORMAT.sniff(text, "x.txt")


# --------------------------------------------------------------------------------------------
# The documentation's examples


def doc_blocks(kind: str) -> list[str]:
    text = (ROOT / "docs" / "format-live-csv.md").read_text("utf-8")
    return [block.split("\n```", 1)[0] + "\n" for block in text.split(f"```{kind}\n")[1:]]


def test_documented_examples_read_without_problems() -> None:
    live_blocks = [b for b in doc_blocks("text") if b.startswith("#")]
    csv_blocks = doc_blocks("csv")
    assert len(live_blocks) == 1 and len(csv_blocks) == 2
    for block in live_blocks + csv_blocks:
        fmt = detect(block, "example.txt")
        items = list(fmt.parse(block, "example.txt"))
        assert items and all(isinstance(i, ParsedHand) for i in items), items
    assert detect(live_blocks[0], "x.txt") is live.FORMAT


def test_button_and_hero_match_names_up_to_case_and_spacing() -> None:
    text = ('@hero hero\nhand 1 button="анна мария"\nHero: QhQd2c-KsKd9s5h3c-JhJdJc4s4d\n'
            "Анна\u00a0Мария: Ah Kc 3d / As Ad 8h 7c 2h / Qc Tc 8c 6c 5c\n")
    record = one_hand(text).record
    assert (record.button, record.hero) == ("Анна\u00a0Мария", "Hero")
    assert record.first_to_act == 0
