"""Board spreadsheets ``csv-boards/1`` (ingest/formats/csv_boards.py): samples against golden
files, the three delimiters, header aliases, dates, every message, detection, round trips.

Rewrite the golden files after a deliberate change with
``OFC_UPDATE_GOLDEN=1 python -m pytest tests/test_format_csv.py`` and review the diff.
"""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.formats import ParsedHand, ParseIssue, csv_boards, detect, live, registry
from ingest.formats.ofc_hh import dumps_record
from ofc_core.board import ROWS, Board
from ofc_core.cards import DECK, format_cards
from ofc_core.rules import PRESETS
from ofc_core.scoring import score_hand
from tests.helpers.hypo import examples

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
CSV_SAMPLES = sorted((SAMPLES / "csv").glob("*"))
GOOD_SAMPLES = [p for p in CSV_SAMPLES if p.stem != "sheet-mistakes"]

NASTY = ["Hero", "Анна\u00a0Мария", "<img src=x onerror=alert(1)>", 'Dima "The Wall" 🧱',
         "O'Neil", "Smith, John", "line\nbreak", "'; DROP TABLE hands; --", "tab\there"]

HEADER = ["hand", "date", "variant", "player", "top", "middle", "bottom", "points"]
ANN = ["Qh Qd 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d"]
BOB = ["Ah Kc 3d", "As Ad 8h 7c 2h", "Qc Tc 8c 6c 5c"]


def table(rows: list[list[str]], delimiter: str = ",", header: list[str] = HEADER) -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def two_players(hand: str = "1", date: str = "2026-11-26 21:05", variant: str = "pineapple",
                ann_points: str = "+6", bob_points: str = "-6") -> list[list[str]]:
    return [[hand, date, variant, "Ann", *ANN, ann_points], [hand, "", "", "Bob", *BOB, bob_points]]


def parse(text: str, filename: str = "club.csv") -> list[ParsedHand | ParseIssue]:
    return list(csv_boards.FORMAT.parse(text, filename))


def one_hand(text: str, filename: str = "club.csv") -> ParsedHand:
    [item] = parse(text, filename)
    assert isinstance(item, ParsedHand), item
    return item


# --------------------------------------------------------------------------------------------
# Samples


@pytest.mark.parametrize("sample", CSV_SAMPLES, ids=lambda p: p.name)
def test_sample_matches_golden(sample: Path, check_golden) -> None:
    check_golden(sample, parse(sample.read_text("utf-8"), str(sample)))


@pytest.mark.parametrize("sample", GOOD_SAMPLES, ids=lambda p: p.name)
def test_reported_points_are_what_the_scorer_computes(sample: Path) -> None:
    """Each sample's points column holds the room's result: fed our parsed records (variant
    aliases, FL marks and counts, surrender, rules columns), the scalar scorer agrees."""
    items = parse(sample.read_text("utf-8"), sample.name)
    assert items and all(isinstance(i, ParsedHand) for i in items)
    for item in items:
        record = item.record
        result = score_hand(record.seats(), record.ruleset, record.first_to_act)
        assert [p.reported_points for p in record.players] == [p.points for p in result.players]


def test_club_export_fills_down_and_groups_rows_that_are_apart() -> None:
    items = parse((SAMPLES / "csv" / "club-export.csv").read_text("utf-8"), "club-export.csv")
    hands = {i.record.hand_id: i for i in items}
    assert list(hands) == ["12", "20", "14"]
    h20 = hands["20"].record
    assert [p.name for p in h20.players] == ["Hero", "Анна\u00a0Мария", "Smith, John",
                                             "<img src=x onerror=alert(1)>"]
    assert (h20.variant, h20.players[0].fantasyland) == ("regular", True)
    assert hands["20"].line == 8 and hands["20"].raw.count("\n") == 5  # header + 4 rows
    assert hands["12"].record.played_at == "2026-11-26T20:00:00+00:00"
    assert hands["14"].record.players[2].name == 'Dima "The Wall" 🧱'


def test_semicolon_sample_reads_rules_stake_button_and_surrender() -> None:
    items = parse((SAMPLES / "csv" / "home-league.csv").read_text("utf-8"), "home-league.csv")
    h13, h21 = (i.record for i in items)
    assert dict(h13.rules) == {"scoring": "2-4", "surrender_cost": 1.5}
    assert (h13.button, h13.stake, h13.currency) == ("Анна\u00a0Мария", 0.5, "EUR")
    assert [p.surrendered for p in h13.players] == [False, False, True]
    assert h13.players[0].reported_points == -36.5
    assert dict(h21.rules) == {"cap": 10} and h21.played_at == "2026-11-26T23:30:00+00:00"


def test_tab_sample_reads_compact_boards_time_zones_fl_counts_and_streets() -> None:
    items = parse((SAMPLES / "csv" / "app-export.tsv").read_text("utf-8"), "app-export.tsv")
    h12, h13 = (i.record for i in items)
    assert (h12.source, h12.session_id, h12.hero) == ("app-export", "2026-11-26", "Hero")
    assert h12.played_at == "2026-11-26T20:00:00+01:00"
    assert h13.played_at == "2026-11-26T22:41:00+03:00"  # naive time in Europe/Moscow
    assert len(h12.players[0].streets) == 5
    assert h13.players[1].fantasyland and h13.players[2].surrendered


def test_csv_and_live_samples_describe_the_same_boards() -> None:
    live_items = live.FORMAT.parse((SAMPLES / "live" / "dimas-home-game.txt").read_text("utf-8"),
                                   "dimas-home-game.txt")
    by_id = {i.record.hand_id: i.record for i in live_items}
    tsv = parse((SAMPLES / "csv" / "app-export.tsv").read_text("utf-8"), "app-export.tsv")
    for item in tsv:
        theirs = by_id[item.record.hand_id]
        assert [(p.name, p.board, p.fantasyland, p.surrendered) for p in item.record.players] == [
            (p.name, p.board, p.fantasyland, p.surrendered) for p in theirs.players]


def test_mistakes_sample_keeps_the_good_hands() -> None:
    sample = SAMPLES / "csv" / "sheet-mistakes.csv"
    items = parse(sample.read_text("utf-8"), sample.name)
    assert [i.record.hand_id for i in items if isinstance(i, ParsedHand)] == ["1", "19"]
    issues = [i for i in items if isinstance(i, ParseIssue)]
    assert len(issues) == 17
    assert all(i.message.startswith(f"hand {i.hand_id!r}: ") for i in issues)


# --------------------------------------------------------------------------------------------
# Delimiters, aliases, quoting


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_every_delimiter_reads_the_same_hand(delimiter: str) -> None:
    base = one_hand(table(two_players())).record
    assert one_hand(table(two_players(), delimiter)).record == base
    assert base.players[0].board == Board.parse(*ANN)


@pytest.mark.parametrize(("names", "column"), [
    (["Hand", "hand_id", "Hand ID", "#", "hand #", "Hand No."], 0),
    (["date", "Time", "played_at", "Played At", "Date/Time", "timestamp"], 1),
    (["Variant", "GAME", "game type"], 2),
    (["player", "Name", "nick", "Player Name"], 3),
    (["top", "Front", "TOP ROW", "front row"], 4),
    (["middle", "Mid", "middle row"], 5),
    (["bottom", "Back", "bot", "Back Row"], 6),
    (["points", "Pts", "Score", "result", "net", "+/-"], 7),
])
def test_header_aliases(names: list[str], column: int) -> None:
    base = one_hand(table(two_players())).record
    for name in names:
        header = HEADER[:column] + [name] + HEADER[column + 1:]
        assert one_hand(table(two_players(), header=header)).record == base, name


def test_separate_date_and_time_columns_are_joined() -> None:
    rows = [["1", "26.11.2026", "21:05", "Ann", *ANN], ["1", "", "", "Bob", *BOB]]
    header = ["hand", "date", "time", "player", "front", "middle", "back"]
    assert one_hand(table(rows, ";", header)).record.played_at == "2026-11-26T21:05:00+00:00"


def test_board_column_rules_columns_and_flags() -> None:
    header = ["Hand", "Player", "Board", "FL", "Surrender", "Button", "Hero", "Stake", "Currency",
              "Rules", "Royalty Table", "Foul Payout", "Session", "Match", "Source", "Streets"]
    rows = [["9", "Ann", "QhQd2c-KsKd9s5h3c-JhJdJc4s4d", "yes", "", "x", "✓", "2 usd", "",
             "scoring=2-4 cap=20", "american-no-middle-trips", "scoop", "s1", "m1", "club", ""],
            ["9", "Bob", "", "", "yes", "", "", "", "", "", "", "", "", "", "", ""],
            ["9", "Cy", "Ah Kc 3d / As Ad 8h 7c 2h / Qc Tc 8c 6c 5c", "no", "no", "", "", "", "",
             "", "", "", "", "", "", "t:AhKc3d m:AsAd | m:8h | m:7c | m:2h | b:Qc | b:Tc | b:8c "
             "| b:6c | b:5c"]]
    record = one_hand(table(rows, "\t", header)).record
    assert (record.source, record.hand_id, record.session_id, record.match_id) == (
        "club", "9", "s1", "m1")
    assert (record.button, record.hero, record.stake, record.currency) == ("Ann", "Ann", 2.0,
                                                                           "USD")
    assert dict(record.rules) == {"scoring": "2-4", "cap": 20,
                                  "royalties": "american-no-middle-trips",
                                  "foul_payout": "scoop"}
    assert [(p.fantasyland, p.surrendered) for p in record.players] == [
        (True, False), (False, True), (False, False)]
    assert len(record.players[2].streets) == 9


def test_quoted_fields_with_delimiters_quotes_and_newlines() -> None:
    rows = [["1", "2026-11-26", "regular", 'Ann "the, best"\nof all', *ANN, "+6"],
            ["1", "", "", "Smith; John", *BOB, "-6"]]
    for delimiter in (",", ";", "\t"):
        text = table(rows, delimiter)
        assert '"' in text
        record = one_hand(text).record
        assert [p.name for p in record.players] == ['Ann "the, best"\nof all', "Smith; John"]


def test_title_rows_blank_rows_extra_columns_and_crlf() -> None:
    text = "My OFC results\n\n" + table(two_players()).replace("+6\n", "+6,,note\n")
    text = text.replace("\n", "\r\n") + "\r\n\r\n"
    hand = one_hand(text)
    assert hand.line == 4 and hand.record.players[0].reported_points == 6.0


def test_missing_variant_is_regular_and_source_is_the_file_stem() -> None:
    header = ["hand", "player", "top", "middle", "bottom"]
    rows = [["1", "Ann", *ANN], ["1", "Bob", *BOB]]
    record = one_hand(table(rows, header=header), "exports/Nov 2026.csv").record
    assert (record.variant, record.source, record.played_at) == ("regular", "Nov 2026", None)


def test_a_default_variant_applies_where_no_row_names_one() -> None:
    header = ["hand", "variant", "player", "top", "middle", "bottom"]
    rows = [["1", "", "Ann", *ANN], ["1", "", "Bob", *BOB], ["2", "turbo", "Ann", *ANN],
            ["2", "", "Bob", *BOB]]
    items = csv_boards.parse_text(table(rows, header=header), "x.csv", default_variant="double")
    assert [i.record.variant for i in items] == ["double", "turbo"]


def test_same_hand_id_in_two_sources_is_two_hands() -> None:
    header = ["source", "hand", "player", "top", "middle", "bottom"]
    rows = [["a", "1", "Ann", *ANN], ["b", "1", "Ann", *ANN], ["a", "1", "Bob", *BOB],
            ["b", "1", "Bob", *BOB]]
    items = parse(table(rows, header=header))
    assert [(i.record.source, i.record.hand_id, i.line) for i in items] == [
        ("a", "1", 2), ("b", "1", 3)]


# --------------------------------------------------------------------------------------------
# Dates


@pytest.mark.parametrize(("written", "stored"), [
    ("2026-11-26T21:05:00+01:00", "2026-11-26T21:05:00+01:00"),
    ("2026-11-26T21:05Z", "2026-11-26T21:05:00+00:00"),
    ("2026-11-26 21:05", "2026-11-26T21:05:00+00:00"),
    ("2026-11-26", "2026-11-26T00:00:00+00:00"),
    ("26.11.2026 21:05", "2026-11-26T21:05:00+00:00"),
    ("26.11.2026 21:05:30", "2026-11-26T21:05:30+00:00"),
    ("11/26/2026", "2026-11-26T00:00:00+00:00"),
    ("11/26/2026 9:05 PM", "2026-11-26T21:05:00+00:00"),
    ("2026/11/26 21:05", "2026-11-26T21:05:00+00:00"),
    ("26.11.2026 21:05 +03:00", "2026-11-26T21:05:00+03:00"),
])
def test_date_forms(written: str, stored: str) -> None:
    assert one_hand(table(two_players(date=written))).record.played_at == stored


def test_naive_times_take_the_time_zone_column() -> None:
    header = ["hand", "date", "timezone", "player", "top", "middle", "bottom"]
    rows = [["1", "2026-07-01 21:05", "Europe/Berlin", "Ann", *ANN], ["1", "", "", "Bob", *BOB],
            ["2", "2026-07-01 21:05", "UTC-5", "Ann", *ANN], ["2", "", "", "Bob", *BOB]]
    assert [i.record.played_at for i in parse(table(rows, header=header))] == [
        "2026-07-01T21:05:00+02:00", "2026-07-01T21:05:00-05:00"]


def test_slash_dates_are_day_first_when_the_file_says_so() -> None:
    rows = two_players("1", "05/11/2026") + two_players("2", "26/11/2026")
    assert [i.record.played_at[:10] for i in parse(table(rows))] == ["2026-11-05", "2026-11-26"]
    rows = two_players("1", "05/11/2026") + two_players("2", "11/26/2026")
    assert [i.record.played_at[:10] for i in parse(table(rows))] == ["2026-05-11", "2026-11-26"]


# --------------------------------------------------------------------------------------------
# Messages


def bad(rows: list[list[str]], header: list[str] = HEADER) -> ParseIssue:
    items = parse(table(rows, header=header))
    issues = [i for i in items if isinstance(i, ParseIssue)]
    assert len(issues) == 1, items
    return issues[0]


ROW_MESSAGES = [
    (lambda r: r[1].__setitem__(6, "Qc Tc 8c 6c 5x"), 3,
     "hand '1': Bob: unknown card '5x' in 'Qc Tc 8c 6c 5x' (jokers are X1 and X2)"),
    (lambda r: r[0].__setitem__(4, "Qh Qd"), 2, "hand '1': Ann: top has 2 cards, needs 3"),
    (lambda r: r[1].__setitem__(4, "Qh Kc 3d"), 2,
     "hand '1': card Qh appears more than once in the hand"),
    (lambda r: r[0].__setitem__(2, "texas"), 2,
     f"hand '1': unknown variant 'texas' (one of {', '.join(PRESETS)})"),
    (lambda r: r[0].__setitem__(7, "six"), 2,
     "hand '1': Ann: bad points 'six' (write a number such as +7, -3 or 0)"),
    (lambda r: r[1].__setitem__(slice(4, 7), ["", "", ""]), 3, "hand '1': Bob: no board (fill "
     "top, middle and bottom, or board, or mark the row surrendered)"),
    (lambda r: r[0].__setitem__(1, "yesterday"), 2, "hand '1': unknown date 'yesterday' (write "
     "2026-11-26T21:05+01:00, 2026-11-26 21:05, 26.11.2026 21:05 or 11/26/2026)"),
    (lambda r: r[1].__setitem__(1, "2026-11-27"), 3, "hand '1': the rows of this hand disagree "
     "on date: '2026-11-26 21:05' (line 2) and '2026-11-27' (line 3); hand ids must be unique "
     "in a file"),
    (lambda r: r[1].__setitem__(3, ""), 3, "hand '1': no player name"),
    (lambda r: r[1].__setitem__(3, "Ann"), 2, "hand '1': player 'Ann' has 2 rows in this hand "
     "(lines 2, 3); hand ids must be unique in a file"),
    (lambda r: r.pop(), 2, "hand '1': 1 player: pineapple needs 2-3"),
]


@pytest.mark.parametrize(("change", "line", "message"), ROW_MESSAGES,
                         ids=[m[2][10:50] for m in ROW_MESSAGES])
def test_row_messages(change, line: int, message: str) -> None:
    rows = two_players()
    change(rows)
    issue = bad(rows)
    assert (issue.line, issue.hand_id, issue.message, issue.partial) == (
        line, "1", message, False)


EXTRA = ["fl", "surrendered", "button", "hero", "scoring", "stake", "rules", "timezone",
         "streets"]
EXTRA_MESSAGES = [
    ("fl", "maybe", "hand '1': Ann: unknown value 'maybe' in column fantasyland (write yes or no)"),
    ("fl", "17", "hand '1': Ann: FL17 is not a Fantasyland deal in pineapple (14 cards)"),
    ("surrendered", "perhaps",
     "hand '1': Ann: unknown value 'perhaps' in column surrendered (write yes or no)"),
    ("button", "Cy", "hand '1': button 'Cy' is not one of the players"),
    ("hero", "si", "hand '1': Ann: unknown value 'si' in column hero (write yes or no)"),
    ("scoring", "3-5", "hand '1': rules.scoring: unknown value '3-5' (one of 1-6, 2-4, "
     "majority, race)"),
    ("stake", "lots", "hand '1': stake: expected money per point and an optional currency, "
     "such as '1 EUR' or '0.5', got 'lots'"),
    ("rules", "scoring", "hand '1': rules: expected key=value, got 'scoring'"),
    ("rules", "colour=red", "hand '1': rules: unknown key 'colour'"),
    ("timezone", "Mars/Olympus", "hand '1': unknown time zone 'Mars/Olympus' (use UTC, +01:00 "
     "or a name such as Europe/Berlin)"),
    ("streets", "q:Qh", "hand '1': Ann: unknown row 'q' in 'q:Qh' (use t, m, b for top, middle, "
     "bottom and x for the discard)"),
    ("streets", "t:QhQd2c m:KsKd9s5h3c b:JhJdJc4s4s",
     "hand '1': Ann: the streets put Jh Jd Jc 4s 4s on bottom, the board has Jh Jd Jc 4s 4d"),
]


@pytest.mark.parametrize(("column", "value", "message"), EXTRA_MESSAGES,
                         ids=[f"{m[0]}={m[1]}" for m in EXTRA_MESSAGES])
def test_column_value_messages(column: str, value: str, message: str) -> None:
    rows = two_players()
    for row in rows:
        row += [""] * len(EXTRA)
    rows[0][len(HEADER) + EXTRA.index(column)] = value
    issue = bad(rows, HEADER + EXTRA)
    assert (issue.line, issue.hand_id) == (2, "1")
    assert issue.message.startswith(message)


def test_two_buttons_and_two_heroes() -> None:
    rows = [r + ["x", "yes"] for r in two_players()]
    issue = bad(rows, HEADER + ["button", "hero"])
    assert issue.message == "hand '1': more than one button: Ann, Bob; more than one hero: Ann, Bob"


def test_a_blank_hand_id_on_the_first_row_is_reported_and_the_rest_reads() -> None:
    rows = [["", "", "", "Zed", *ANN]] + two_players()
    items = parse(table(rows))
    assert isinstance(items[0], ParseIssue) and isinstance(items[1], ParsedHand)
    assert (items[0].line, items[0].hand_id, items[0].message) == (
        2, None, "no hand id on this row (fill the hand column; a blank cell repeats the hand "
        "above)")


def test_a_row_the_csv_module_cannot_read_is_reported_and_the_rest_reads() -> None:
    text = table(two_players("1")).replace("+6", '"' + "x" * 200_000 + '"')
    text += "\n".join(",".join(r) for r in two_players("2")) + "\n"
    items = parse(text)
    assert [(type(i).__name__, i.line) for i in items] == [
        ("ParseIssue", 2), ("ParseIssue", 3), ("ParsedHand", 4)]
    assert items[0].message.startswith("cannot read this row: field larger than field limit")
    assert items[1].message == "hand '1': 1 player: regular needs 2-4"  # variant was on row 2


def test_no_hand_id_column_and_no_header() -> None:
    header = ["player", "top", "middle", "bottom"]
    [issue] = parse(table([["Ann", *ANN]], header=header))
    assert (issue.line, issue.message) == (
        1, "no hand id column (name one hand, hand_id, hand id or #)")
    [issue] = parse("a,b,c\n1,2,3\n")
    assert issue.message == ("no header row with a player column and top, middle, bottom (or "
                             "board) columns in the first rows")


def test_a_row_cut_short_at_the_end_of_the_file_is_partial() -> None:
    text = table(two_players() + two_players("2"))
    cut = text[: text.rindex("Bob") + 12]
    items = parse(cut)
    assert isinstance(items[0], ParsedHand)
    assert items[1].partial and items[1].hand_id == "2"
    assert "incomplete" in items[1].message
    # the same mistake with a final newline is an error, not a partial hand
    assert not parse(cut + "\n")[1].partial


# --------------------------------------------------------------------------------------------
# Detection among every registered format


def test_registry_holds_the_csv_format() -> None:
    assert csv_boards.FORMAT in registry()


@pytest.mark.parametrize("sample", CSV_SAMPLES, ids=lambda p: p.name)
def test_detect_picks_csv_for_csv_samples(sample: Path) -> None:
    text = sample.read_text("utf-8")
    assert detect(text, sample.name) is csv_boards.FORMAT
    assert detect(text, "upload.txt") is csv_boards.FORMAT


def test_csv_never_claims_live_or_json_lines() -> None:
    for sample in sorted((SAMPLES / "live").glob("*.txt")):
        assert not csv_boards.FORMAT.sniff(sample.read_text("utf-8"), "x.csv")
    records = [i.record for i in parse((SAMPLES / "csv" / "club-export.csv").read_text("utf-8"))]
    jsonl = "\n".join(dumps_record(r) for r in records) + "\n"
    assert not csv_boards.FORMAT.sniff(jsonl, "x.csv")
    assert detect(jsonl, "x.jsonl").name == "ofc-hh/1"


# --------------------------------------------------------------------------------------------
# Round trips and fuzzing


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), delimiter=st.sampled_from([",", ";", "\t"]),
       names=st.lists(st.sampled_from(NASTY), min_size=2, max_size=3, unique=True),
       shuffle=st.booleans())
def test_round_trip_of_random_tables(seed: int, delimiter: str, names: list[str],
                                     shuffle: bool) -> None:
    rng = random.Random(seed)
    expected, rows = {}, []
    for hand in range(1, 4):
        deck = list(DECK)
        rng.shuffle(deck)
        players = []
        for k, name in enumerate(names):
            cards = deck[13 * k: 13 * k + 13]
            board = Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
            points = rng.randint(-30, 30)
            players.append((name, board, float(points)))
            rows.append([str(hand), "2026-11-26 21:05", "pineapple", name,
                         *(format_cards(board.row(r)) for r in ROWS), f"{points:+d}"])
        expected[str(hand)] = players
    if shuffle:
        rng.shuffle(rows)
    items = parse(table(rows, delimiter))
    assert all(isinstance(i, ParsedHand) for i in items), items
    assert sorted(i.record.hand_id for i in items) == ["1", "2", "3"]
    for item in items:
        got = [(p.name, p.board, p.reported_points) for p in item.record.players]
        assert sorted(got, key=lambda g: g[0]) == sorted(expected[item.record.hand_id],
                                                         key=lambda g: g[0])


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.sampled_from(list(",;\t\n\"'x ") + ["hand", "player", "top", "middle",
                                                       "bottom", "board", "Qh", "2c", "1",
                                                       "26.11.2026", "yes", "fl", "\u00a0"]),
                max_size=120).map("".join))
def test_never_raises_on_any_text(text: str) -> None:
    items = parse(text)
    assert all(isinstance(i, ParsedHand | ParseIssue) for i in items)
    csv_boards.FORMAT.sniff(text, "x.csv")


# --------------------------------------------------------------------------------------------
# Through the real importer


def test_samples_import_with_names_kept_and_our_points_equal_the_reported_ones(
        tmp_path: Path) -> None:
    import duckdb

    from ingest.api import import_paths

    db = tmp_path / "samples.duckdb"
    report = import_paths([SAMPLES / "live", SAMPLES / "csv"], db)
    by_name = {Path(f.path).name: f for f in report.files}
    assert {n: (f.format, f.stored, f.rejected) for n, f in by_name.items()} == {
        "dimas-home-game.txt": ("ofc-live/1", 5, 0), "live-mistakes.txt": ("ofc-live/1", 2, 31),
        "app-export.tsv": ("csv-boards/1", 2, 0), "club-export.csv": ("csv-boards/1", 3, 0),
        "home-league.csv": ("csv-boards/1", 2, 0), "sheet-mistakes.csv": ("csv-boards/1", 2, 17)}
    con = duckdb.connect(str(db), read_only=True)
    try:
        names = {r[0] for r in con.execute("SELECT DISTINCT player FROM hand_players").fetchall()}
        differ = con.execute("SELECT count(*) FROM hand_players WHERE points_differ").fetchone()
    finally:
        con.close()
    assert {"Анна\u00a0Мария", "<img src=x onerror=alert(1)>", 'Dima "The Wall" 🧱',
            "Smith, John", "O'Neil"} <= names
    assert differ == (0,)
