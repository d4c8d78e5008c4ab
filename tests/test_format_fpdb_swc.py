"""FPDB's SwC captures, read from fixtures our own simulated hands were written into (frames,
hand files, FPDB's SQLite tables; see ``tests/reallogs_fixtures.py``)."""

from __future__ import annotations

import json
import random
import sqlite3
import zipfile
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from ingest.formats import LogFile, ParsedHand, ParseIssue, UnreadableFile, detect, detect_file
from ingest.formats.fpdb_swc import FORMAT, seat_cards
from ingest.formats.ofc_hh import parse_text
from ingest.formats.swc.frames import game_state
from ofc_core.hand import HandRecord
from tests.reallogs_fixtures import (
    CODES,
    frame_payload,
    hand_envelope,
    raw_lines,
    simulated,
    swc_frames,
    swc_hand_id,
    write_fpdb_sqlite,
)
from tests.swc_stream import game_state_frame, table_frames


def frames_text(records: list[HandRecord], **kw: object) -> str:
    return "\n".join(raw_lines(records, **kw)) + "\n"  # type: ignore[arg-type]


def parsed(text: str, name: str = "raw_messages.jsonl") -> list[ParsedHand | ParseIssue]:
    assert detect(text, name) is FORMAT
    return list(FORMAT.parse(text, name))


def hands_of(items: list[ParsedHand | ParseIssue]) -> dict[str, HandRecord]:
    return {i.record.hand_id: i.record for i in items if isinstance(i, ParsedHand)}


def swc_id(record: HandRecord) -> str:
    return str(swc_hand_id(record))


def assert_same_table(source: HandRecord, read: HandRecord, hero: int = 0) -> None:
    """What the capture shows equals the hand that was played: boards, placements street by
    street, Fantasyland, the room's points; the capturing player's dealt cards and discards,
    nobody else's."""
    assert [p.name for p in read.players] == [p.name for p in source.players]
    for i, (a, b) in enumerate(zip(source.players, read.players, strict=True)):
        assert b.board == a.board
        assert b.fantasyland == a.fantasyland
        assert b.reported_points == a.reported_points
        assert b.streets is not None and a.streets is not None
        assert [(s.top, s.middle, s.bottom) for s in b.streets] == \
            [(s.top, s.middle, s.bottom) for s in a.streets]
        for s, t in zip(a.streets, b.streets, strict=True):
            if i == hero:
                assert sorted(t.dealt or ()) == sorted(s.dealt or ())
                assert sorted(t.discard or ()) == sorted(s.discard or ())
            else:
                assert t.dealt is None and t.discard is None


@pytest.mark.parametrize("variant,players", [("regular", 3), ("turbo", 2), ("pineapple", 3),
                                             ("progressive-pineapple", 2), ("2-7-pineapple", 3)])
def test_every_game_code_from_frames_is_the_hand_that_was_played(variant: str,
                                                                 players: int) -> None:
    source = simulated(variant, players, 25, seed=3, error_rate=0.2)
    items = parsed(frames_text(source))
    read = hands_of(items)
    assert len(read) == len(source) and len(items) == len(source)
    for record in source:
        got = read[swc_id(record)]
        assert got.variant == variant and got.source == "swc"
        assert_same_table(record, got)
        assert got.button == record.button and got.hero == "Hero"
        money = any(p.reported_points for p in record.players)  # a drawn hand pays nobody
        assert (got.stake, got.currency) == ((0.5, "R") if money else (None, None))
        assert got.session_id == "ofc-table-1" and got.played_at.endswith("Z")


def test_three_handed_pineapple_hides_the_opponents_discards() -> None:
    source = simulated("pineapple", 3, 10, seed=8)
    read = hands_of(parsed(frames_text(source, hero=1)))
    for record in source:
        got = read[swc_id(record)]
        assert_same_table(record, got, hero=1)
        normal = [p for p in got.players if not p.fantasyland]
        for p in normal:
            discards = [s.discard for s in p.streets[1:]]
            if p.name == "Villain 1":
                assert all(d is not None and len(d) == 1 for d in discards)
            else:
                assert discards == [None] * 4


def test_variant_tables_and_other_games_are_refused_naming_the_code() -> None:
    source = simulated("pineapple", 2, 3, seed=1)
    items = parsed(frames_text(source, codes=[77, 84, 72]))
    assert all(isinstance(i, ParseIssue) and not i.partial for i in items)
    messages = [i.message for i in items]
    assert "game code 77 (OFC/P Variant) is a variant table" in messages[0]
    assert "game code 84 (OFC Variant) is a variant table" in messages[1]
    assert "game code 72 is not an OFC table" in messages[2]
    assert [i.hand_id for i in items] == [swc_id(r) for r in source]


def test_a_progressive_fantasyland_hand_keeps_its_15_to_17_cards() -> None:
    source = simulated("progressive-pineapple", 2, 60, seed=5)
    hero_fl = [r for r in source if r.players[0].fantasyland and
               len(r.players[0].streets[0].dealt) > 14]
    assert hero_fl, "the seed should give the capturing player a progressive Fantasyland"
    read = hands_of(parsed(frames_text(source)))
    for record in hero_fl:
        got = read[swc_id(record)]
        fl = got.players[0]
        assert fl.fantasyland and len(fl.streets) == 1
        assert sorted(fl.streets[0].dealt) == sorted(record.players[0].streets[0].dealt)
        assert len(fl.streets[0].discard) == len(fl.streets[0].dealt) - 13


def test_frames_that_arrive_out_of_order_and_rows_shown_in_another_order() -> None:
    source = simulated("pineapple", 3, 6, seed=4)
    lines = raw_lines(source)
    for k in range(3, len(lines) - 3, 7):  # swap pairs of consecutive placement frames
        if '"GameState"' in lines[k] and '"GameState"' in lines[k + 1] and \
                '\\"ss\\"' not in lines[k + 1]:
            lines[k], lines[k + 1] = lines[k + 1], lines[k]
    swapped = hands_of(parsed("\n".join(lines) + "\n"))
    for record in source:
        assert_same_table(record, swapped[swc_id(record)])
    sorted_rows = [json.dumps({"site": "SealsWithClubs", "message_type": "GameState",
                               "captured_at": "2026-11-20T18:00:00Z",
                               "payload": frame_payload(state)})
                   for record in source for state in swc_frames(record, reorder_rows=True)]
    resorted = hands_of(parsed("\n".join(sorted_rows) + "\n"))
    def shape(r: HandRecord) -> list[object]:  # card order within a row aside
        return [(p.name, [sorted(getattr(p.board, k)) for k in ("top", "middle", "bottom")],
                 [(sorted(s.top), sorted(s.middle), sorted(s.bottom), sorted(s.dealt or ()),
                   sorted(s.discard or ())) for s in p.streets or ()]) for p in r.players]

    for record in source:
        assert shape(resorted[swc_id(record)]) == shape(swapped[swc_id(record)])


def test_a_capture_cut_in_the_middle_of_a_hand_leaves_it_partial() -> None:
    source = simulated("regular", 2, 3, seed=2)
    text = frames_text(source)
    cut = text[: text.rindex('"GameState"') - 40]  # inside the last hand's last frame line
    items = parsed(cut)
    assert len(hands_of(items)) == 2
    last = items[-1]
    assert isinstance(last, ParseIssue) and last.partial and last.hand_id == swc_id(source[2])
    assert "ends before the hand's showdown" in last.message


def test_hand_files_give_the_same_hands_as_the_frames() -> None:
    source = simulated("turbo", 2, 8, seed=6)
    from_frames = hands_of(parsed(frames_text(source)))
    for record in source:
        envelope = hand_envelope(record)
        text = json.dumps(envelope, indent=2, ensure_ascii=False)
        items = parsed(text, f"hand_{swc_id(record)}.json")
        assert len(items) == 1 and isinstance(items[0], ParsedHand)
        assert items[0].record.played_at == envelope["timestamp"]
        assert replace(items[0].record, played_at=None) == \
            replace(from_frames[swc_id(record)], played_at=None)
        assert items[0].raw == text


def test_fpdb_database_hands_and_the_presets_it_has_to_assume(tmp_path: Path) -> None:
    hands = {v: simulated(v, 3, 40, seed=5, session=v) for v in CODES}
    db = write_fpdb_sqlite(tmp_path / "fpdb.db3",
                           [hand_envelope(r) for rs in hands.values() for r in rs])
    file = LogFile("fpdb.db3", db.read_bytes(), db)
    assert detect_file(file) is FORMAT
    items = list(FORMAT.parse_file(file))
    assert all(isinstance(i, ParsedHand) for i in items)
    got = {i.record.hand_id: i for i in items}
    assert len(got) == len(items) == 200
    by_variant: dict[str, set[str]] = {}
    for item in items:
        by_variant.setdefault(item.record.variant, set()).add(item.note or "")
    assert set(by_variant) == {"regular", "turbo", "pineapple", "progressive-pineapple",
                               "2-7-pineapple"}
    assert by_variant["turbo"] == by_variant["2-7-pineapple"] == {""}
    assert any("assumed pineapple (code 74)" in n for n in by_variant["pineapple"])
    assert by_variant["progressive-pineapple"] == {""}  # a 15-17 card Fantasyland said so
    first = items[0]
    assert json.loads(first.raw)["HttpOFCHands"]["siteHandNo"] == first.record.hand_id


def test_unknown_locked_and_corrupt_sqlite_files(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (id INTEGER, text TEXT)")
    con.commit()
    con.close()
    assert detect_file(LogFile("other.db", other.read_bytes(), other)) is None

    db = write_fpdb_sqlite(tmp_path / "fpdb.db3",
                           [hand_envelope(r) for r in simulated("regular", 2, 2, seed=1)])
    before = db.read_bytes()
    holder = sqlite3.connect(db)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(UnreadableFile, match="locked by another program"):
            list(FORMAT.parse_file(LogFile("fpdb.db3", before, db)))
    finally:
        holder.rollback()
        holder.close()
    assert db.read_bytes() == before

    corrupt = before[:100] + bytes(len(before) - 100)
    with pytest.raises(UnreadableFile, match="damaged"):
        detect_file(LogFile("broken.db3", corrupt))


def test_seat_cards_reads_the_counts_and_the_cards_in_hand() -> None:
    seen = seat_cards("0;1;2;3;4;50;51-1-2-2")
    assert seen is not None
    assert [str(c) for c in seen.rows[0]] == ["2c"] and len(seen.active) == 2
    assert seat_cards("") is None and seat_cards("-0-0-0") is None


def test_empty_seats_and_a_player_sitting_out_are_not_in_the_hand() -> None:
    source = simulated("pineapple", 2, 3, seed=9)
    lines = []
    for record in source:
        for state in swc_frames(record):
            hero, villain = state["s"]
            state["s"] = [hero, None, villain, {"n": "Sitter", "c": 900, "b": 0, "p": 0,
                                                "d": ""}]
            state["m"]["di"] = {0: 0, 1: 2}[state["m"]["di"]]
            lines.append(json.dumps({"site": "SealsWithClubs", "message_type": "GameState",
                                     "captured_at": "2026-11-20T18:00:00Z",
                                     "payload": frame_payload(state)}))
    read = hands_of(parsed("\n".join(lines) + "\n"))
    for record in source:
        got = read[swc_id(record)]
        assert [(p.name, p.seat) for p in got.players] == [("Hero", 0), ("Villain 1", 2)]
        assert got.button == record.button
        assert_same_table(record, got)


# --------------------------------------------------------------------------------------------
# What FPDB's own capture code wrote (tests/data/fpdb-capture/PROVENANCE.md)


FPDB_CAPTURE = Path(__file__).resolve().parent / "data" / "fpdb-capture"


def capture_member(name: str) -> bytes:
    with zipfile.ZipFile(FPDB_CAPTURE / "capture.zip") as z:
        return z.read(f"Capture/{name}")


def truth() -> dict[str, HandRecord]:
    text = (FPDB_CAPTURE / "truth.jsonl").read_text(encoding="utf-8")
    return {i.record.hand_id: i.record for i in parse_text(text, "truth.jsonl")
            if isinstance(i, ParsedHand)}


def test_fpdb_capture_frames_give_every_hand_as_it_was_played() -> None:
    """150 hands of game codes 70-76 at five interleaved tables, opponents' cards face down
    (id 52), reconnects, one restart of the capture: every hand read, street by street."""
    text = capture_member("raw_messages.jsonl").decode("utf-8")
    assert '52;52' in text and '"sequence": 1,' in text.split("\n", 1)[1]  # restarted
    items = parsed(text)
    read = hands_of(items)
    expected = truth()
    assert len(items) == len(read) == len(expected) == 150
    assert Counter(r.variant for r in read.values()) == {
        "regular": 30, "turbo": 30, "pineapple": 30, "progressive-pineapple": 30,
        "2-7-pineapple": 30}
    lost = 0  # the capturing player's cards dealt in a frame lost while the capture was down
    for hand_id, record in expected.items():
        got = read[hand_id]
        assert got.variant == record.variant and got.button == record.button
        assert got.hero == "Hero" and got.session_id == f"OFC table {CODES[got.variant]}"
        dealt = [s.dealt for s in got.players[0].streets]
        lost += dealt.count(None)
        if None in dealt:  # unknown, never guessed: the rest is as played
            got = replace(got, players=(replace(got.players[0], streets=tuple(
                replace(s, dealt=t.dealt, discard=t.discard) if s.dealt is None else s
                for s, t in zip(got.players[0].streets, record.players[0].streets,
                                strict=True))), *got.players[1:]))
        assert_same_table(record, got)
    assert 0 < lost <= 3
    assert any(p.fantasyland and i > 0 for r in read.values()
               for i, p in enumerate(r.players))  # an opponent's face-down Fantasyland
    assert not any(i.note for i in items)


def test_fpdb_hand_files_and_database_of_the_same_capture() -> None:
    """FPDB's hand files and database hold the same boards and points; the hands in play when
    the capture restarted lost their first streets there (not in the frames), and say so."""
    expected = truth()
    with zipfile.ZipFile(FPDB_CAPTURE / "capture.zip") as z:
        names = [n for n in z.namelist() if n.startswith("Capture/hand_")]
        files = [list(FORMAT.parse(z.read(n).decode("utf-8"), n)) for n in names]
    items = [i for f in files for i in f]
    assert len(names) == len(items) == 150 and all(isinstance(i, ParsedHand) for i in items)
    late = [i for i in items if i.note and "began after this hand did" in i.note
            or i.note and "missed some snapshots" in i.note]
    assert 1 <= len(late) <= 5
    for item in items:
        record, source = item.record, expected[item.record.hand_id]
        assert record.variant == source.variant
        assert [(p.name, p.board, p.reported_points) for p in record.players] == \
            [(p.name, p.board, p.reported_points) for p in source.players]
        if item not in late:
            assert [p.fantasyland for p in record.players] == \
                [p.fantasyland for p in source.players]
    db = capture_member("fpdb.db3")
    rows = list(FORMAT.parse_file(LogFile("fpdb.db3", db)))
    assert len(rows) == 150 and all(isinstance(i, ParsedHand) for i in rows)
    for item in rows:
        source = expected[item.record.hand_id]
        assert [(p.board, p.reported_points) for p in item.record.players] == \
            [(p.board, p.reported_points) for p in source.players]


FPDB_TEST_FRAMES = FPDB_CAPTURE / "fpdb_test_frames.jsonl"
"""FPDB's own test frames (``test_http_capture_models.py``, game code 77) as its capture wrote
them."""


def test_fpdb_own_test_frames_are_refused_for_their_code_and_read_under_a_known_one() -> None:
    text = FPDB_TEST_FRAMES.read_text(encoding="utf-8")
    (refused,) = parsed(text)
    assert isinstance(refused, ParseIssue) and refused.hand_id == "777001"
    assert "game code 77 (OFC/P Variant) is a variant table" in refused.message
    envelope = (FPDB_CAPTURE / "fpdb_test_hand_777001.json").read_text(encoding="utf-8")
    (also,) = parsed(envelope, "hand_777001.json")
    assert isinstance(also, ParseIssue) and "(OFC/P Variant)" in also.message

    (item,) = parsed(text.replace('\\\\\\"gt\\\\\\": 77', '\\\\\\"gt\\\\\\": 74'))
    assert isinstance(item, ParsedHand), item
    alice, bob = item.record.players
    assert " ".join(map(str, alice.board.top)) == "2c 2d 2h"
    assert " ".join(map(str, bob.board.bottom)) == "7d 7h 7s 8c 8d"
    assert (alice.reported_points, bob.reported_points) == (5.0, -5.0)
    assert (item.record.stake, item.record.currency, item.record.button) == (1.0, "R", "alice")
    assert alice.streets is None and "missed some snapshots" in (item.note or "")


# --------------------------------------------------------------------------------------------
# Face-down cards, reconnects, lost showdowns, frames that cannot be read


def stream_lines(records: list[HandRecord], reconnects: float = 0.0) -> list[str]:
    """``raw_messages.jsonl`` lines of one table (tests/swc_stream.py)."""
    frames = table_frames(records, CODES[records[0].variant], "t1", 0, random.Random(1),
                          reconnects=reconnects)
    return [json.dumps({"site": "SealsWithClubs", "captured_at": "2026-11-20T18:00:00Z",
                        "message_type": "GameState", "direction": f.direction,
                        "payload": f.payload}) for f in frames]


def state_of(line: str) -> dict | None:
    found = game_state(json.loads(line)["payload"])
    return None if found is None else found[0]


def edited(line: str, change) -> str:
    """The line with its snapshot changed by ``change(state)``."""
    state = state_of(line)
    change(state)
    return json.dumps({**json.loads(line), "payload": game_state_frame(state)})


def text_of(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def test_face_down_ids_are_unknown_cards_never_jokers() -> None:
    for down in (52, 53, 255):
        seen = seat_cards(f"{down};{down};7;{down}-1-1-1")
        assert seen is not None and seen.hidden == 2 and [str(c) for c in seen.rows[2]] == ["3s"]
    source = simulated("progressive-pineapple", 2, 60, seed=5)
    lines = stream_lines(source)
    assert any("52;52;52" in line for line in lines)
    read = hands_of(parsed(text_of(lines)))
    villain_fl = [r for r in source if r.players[1].fantasyland]
    assert villain_fl and len(read) == len(source)
    for record in villain_fl:
        got = read[swc_id(record)].players[1]
        assert got.fantasyland and got.board == record.players[1].board
        assert got.streets is not None and got.streets[0].dealt is None  # never guessed

    hand = swc_id(villain_fl[0])
    down = [edited(line, lambda s: s["s"][1].update(d="52;" * 12 + "52-3-5-5"))
            if (state_of(line) or {}).get("gi") == int(hand) and "ss" in state_of(line)
            else line for line in lines]
    (issue,) = [i for i in parsed(text_of(down)) if isinstance(i, ParseIssue)]
    assert issue.hand_id == hand and "Villain 1's board is still face down" in issue.message


def test_a_reconnect_repeats_snapshots_and_money_but_the_hands_stay_the_same() -> None:
    source = simulated("pineapple", 3, 12, seed=8, error_rate=0.3)
    clean = stream_lines(source)
    again = stream_lines(source, reconnects=1.0)  # every snapshot sent again
    assert len(again) > 2 * len(clean)
    assert hands_of(parsed(text_of(again))) == hands_of(parsed(text_of(clean)))
    assert any(r.stake == 0.5 for r in hands_of(parsed(text_of(again))).values())


def test_a_hand_whose_table_moves_on_without_its_showdown() -> None:
    source = simulated("regular", 2, 3, seed=2)
    lines = stream_lines(source)
    first = swc_id(source[0])
    mine = [k for k, line in enumerate(lines) if (state_of(line) or {}).get("gi") == int(first)]
    complete = [line for k, line in enumerate(lines) if k != mine[-1]]  # its showdown lost
    items = parsed(text_of(complete))
    (kept,) = [i for i in items if isinstance(i, ParsedHand) and i.record.hand_id == first]
    assert all(p.reported_points is None for p in kept.record.players)
    assert [p.board for p in kept.record.players] == [p.board for p in source[0].players]
    assert "lost this hand's showdown (its table went on to hand" in (kept.note or "")

    short = [line for k, line in enumerate(lines) if k not in mine[-3:]]
    items = parsed(text_of(short))
    (issue,) = [i for i in items if isinstance(i, ParseIssue)]
    assert issue.hand_id == first and not issue.partial and issue.line == mine[0] + 1
    assert "is not complete; not imported" in issue.message
    assert len(hands_of(items)) == 2

    unnamed = [edited(line, lambda s: s.pop("ss")) if k == mine[-1] else line
               for k, line in enumerate(lines)]  # ts 0, every board complete: the end
    again = hands_of(parsed(text_of(unnamed)))[first]
    assert [(p.board, p.reported_points) for p in again.players] == \
        [(p.board, p.reported_points) for p in source[0].players]

    end = max(k for k, line in enumerate(lines) if state_of(line) is not None)
    last = parsed(text_of(lines[:end]))[-1]  # the last hand's showdown not written yet
    assert isinstance(last, ParseIssue) and last.partial and last.hand_id == swc_id(source[2])


def test_a_hand_file_fpdb_wrote_without_a_showdown() -> None:
    """FPDB writes a hand whose table went on without a showdown with ``"showdown": null``:
    stored when its boards are complete (the room's points unknown), else refused, never
    partial (it will not finish)."""
    (record,) = simulated("pineapple", 2, 1, seed=12)
    envelope = {**hand_envelope(record), "showdown": None}
    (item,) = parsed(json.dumps(envelope), "hand_1.json")
    assert isinstance(item, ParsedHand) and "FPDB wrote this file without a showdown" in item.note
    assert [p.board for p in item.record.players] == [p.board for p in record.players]
    assert all(p.reported_points is None for p in item.record.players)
    envelope["steps"] = envelope["steps"][:-3]
    (issue,) = parsed(json.dumps(envelope), "hand_1.json")
    assert isinstance(issue, ParseIssue) and not issue.partial
    assert "is not complete; not imported" in issue.message


def test_a_frame_or_hand_the_reader_cannot_read_is_that_hands_issue(monkeypatch) -> None:
    from ingest.formats.swc import frames, record

    source = simulated("turbo", 2, 4, seed=6)
    lines = stream_lines(source)
    second = swc_id(source[1])
    bad = next(k for k, line in enumerate(lines)
               if (state_of(line) or {}).get("gi") == int(second))
    lines[bad] = edited(lines[bad], lambda s: s["s"][0].update(d="x;1-1-0-0"))
    items = parsed(text_of(lines))
    (issue,) = [i for i in items if isinstance(i, ParseIssue)]
    assert issue.hand_id == second and f"line {bad + 1}: a seat's cards" in issue.message
    assert len(hands_of(items)) == 3

    real = record.to_record
    third = swc_id(source[2])

    def buggy(capture):
        if capture.hand_id == third:
            raise KeyError("planted")
        return real(capture)

    monkeypatch.setattr(record, "to_record", buggy)
    items = parsed(frames_text(source))
    (issue,) = [i for i in items if isinstance(i, ParseIssue)]
    assert issue.hand_id == third and "KeyError: 'planted'" in issue.message
    assert "bug in OFC Analytics" in issue.message and len(hands_of(items)) == 3

    monkeypatch.setattr(record, "to_record", real)
    monkeypatch.setattr(frames, "money_won", lambda events, names: 1 / 0)
    items = parsed(frames_text(source))
    assert [i.hand_id for i in items] == [swc_id(r) for r in source]  # each hand named
    assert all(isinstance(i, ParseIssue) and "ZeroDivisionError" in i.message for i in items)
