"""``ofc score FILE... [--json]``: golden results worked out by hand from docs/variations.md,
errors, partial files, encodings and names, through the real command line."""

from __future__ import annotations

import contextlib
import doctest
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ingest.formats.ofc_hh import record_from_dict
from ofc_cli import cmd_score
from ofc_cli.cli import main

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
EVIL = "<img src=x onerror=alert(1)>"


def run_json(capsys: pytest.CaptureFixture[str], *paths: Path | str) -> tuple[int, list[dict]]:
    status = main(["score", "--json", *map(str, paths)])
    out = capsys.readouterr().out
    return status, [json.loads(line) for line in out.splitlines()]


def by_hand(objs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {o["hand_id"]: o for o in objs if "players" in o}


@pytest.fixture(scope="module")
def sample_results() -> dict[str, dict[str, Any]]:
    """Every good sample hand, scored once through ``ofc score --json``."""
    files = [SAMPLES / n for n in ("regular.jsonl", "rules-overrides.jsonl", "turbo-streets.jsonl",
                                   "pineapple.jsonl", "double-match.jsonl")]
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        status = main(["score", "--json", *map(str, files)])
    assert status == 0
    return by_hand([json.loads(line) for line in buffer.getvalue().splitlines()])


def test_doctests() -> None:
    result = doctest.testmod(cmd_score)
    assert result.attempted > 0 and result.failed == 0


# --------------------------------------------------------------------------------------------
# Golden results. Every number below was worked out by hand from docs/variations.md (sections 2,
# 4, 5, 6); the working is in the comment above each case.

GOLDEN: list[tuple[str, str, dict[str, float], dict[str, dict[str, float]]]] = [
    # Seed 000's worked example: Ivey wins top (66 vs A-high) and bottom (JJJ44 vs flush), loses
    # the middle (KK vs AA): +1 row; royalties 1+6 = 7 against 4: Ivey +4.
    ("r1", "regular", {"Ivey": 4, "Hellmuth": -4}, {"Ivey": {"Hellmuth": 4}}),
    # ann QQ2/KK/JJJ44 (royalties 7+6 = 13), bob AK3/AA/flush (4), cid fouls (77 66 middle over
    # a ten-high bottom). ann-bob 2-1: 1 + 13 - 4 = 10. ann-cid: scoop 6 + 13 = 19.
    # bob-cid: 6 + 4 = 10. ann 29, bob -10 + 10 = 0, cid -29.
    ("r2", "regular", {"ann": 29, "bob": 0, "cid": -29},
     {"ann": {"bob": 10, "cid": 19}, "cid": {"ann": -19, "bob": -10}}),
    # As r2 plus dee (432 / J-high / TT, no royalties, streets). ann scoops dee: 6 + 13 = 19;
    # bob scoops dee: 6 + 4 = 10; cid fouled pays dee 6. ann 10+19+19 = 48, bob -10+10+10 = 10,
    # cid -19-10-6 = -35, dee -19-10+6 = -23.
    ("r3", "regular", {"ann": 48, "bob": 10, "cid": -35, "dee": -23},
     {"dee": {"ann": -19, "bob": -10, "cid": 6}}),
    # ann in Fantasyland: QQ2 (7) / 77722 full house (12) / JJJJ4 quads (10) = 29, scoops bob
    # (4): 6 + 29 - 4 = 31.
    ("r4", "regular", {"ann": 31, "bob": -31}, {}),
    # r2's boards under 2-4 with a flat scoop for a foul. ann-bob 2-1: 1 row + 1 majority = 2,
    # royalties +9: 11. A foul is a scoop, 3 rows + 1 = 4, no royalties: ann-cid 4, bob-cid 4.
    # ann 15, bob -11 + 4 = -7, cid -8.
    ("o2", "regular", {"ann": 15, "bob": -7, "cid": -8},
     {"ann": {"bob": 11, "cid": 4}, "bob": {"cid": 4}}),
    # r2 with cap 12, button cid so ann settles first: ann-bob 10 (ann 10), ann-cid 19 capped to
    # 2 (ann reaches 12), bob-cid 10 (cid reaches -12). Raw points stay 29 / 0 / -29.
    ("o3", "regular", {"ann": 12, "bob": 0, "cid": -12},
     {"ann": {"bob": 10, "cid": 2}, "cid": {"ann": -2, "bob": -10}}),
    # Majority: 2-1 is worth 1; royalties still exchanged: 1 + 9 = 10.
    ("o4", "regular", {"ann": 10, "bob": -10}, {}),
    # No middle trips: ann 66 (1) / 777 (0, would be 2) / JJJ44 (6) = 7 scoops bob (4):
    # 6 + 7 - 4 = 9 (11 under the American table).
    ("o5", "regular", {"ann": 9, "bob": -9}, {}),
    # Race: each banks its own: ann 2 rows + 13 royalties = 15; bob 1 row + 4 = 5.
    ("o6", "pineapple", {"ann": 15, "bob": 5}, {"ann": {"bob": 15}, "bob": {"ann": 5}}),
    # Turbo street detail builds r2's ann board against bob: 1 + 9 = 10.
    ("t1", "turbo", {"ann": 10, "bob": -10}, {}),
    # Surrender cost 3: ann-bob 10 as before, dora pays 3 to each. ann 13, bob -7, dora -6.
    ("p1", "pineapple", {"ann": 13, "bob": -7, "dora": -6},
     {"ann": {"bob": 10, "dora": 3}, "dora": {"ann": -3, "bob": -3}}),
    # ann's r4 Fantasyland board (29) scoops bob (AK3 / AA / flush, 4): 31; dora surrendered
    # (cost 2): ann 33, bob -31 + 2 = -29, dora -4.
    ("p2", "pineapple", {"ann": 33, "bob": -29, "dora": -4}, {}),
    # Progressive: ann 555 (13) / 999 (2) / JJJ44 (6) = 21 scoops bob KK (8) / AA / flush (4) =
    # 12: 6 + 21 - 12 = 15.
    ("pp1", "progressive-pineapple", {"ann": 15, "bob": -15}, {}),
    # Double (race): ann 66 / 777 / JJJ44 = 1 + 2 + 6 = 9 scoops: 3 rows + 3 + 9 = 15; bob
    # banks his flush, 4.
    ("d2", "double", {"ann": 15, "bob": 4}, {}),
]


@pytest.mark.parametrize(("hand_id", "variant", "points", "vs"), GOLDEN,
                         ids=[g[0] for g in GOLDEN])
def test_golden_points(sample_results: dict[str, dict[str, Any]], hand_id: str, variant: str,
                       points: dict[str, float], vs: dict[str, dict[str, float]]) -> None:
    result = sample_results[hand_id]
    assert result["variant"] == variant
    assert {name: p["points"] for name, p in result["players"].items()} == points
    for name, expected in vs.items():
        for opponent, value in expected.items():
            assert result["players"][name]["vs"][opponent] == value


# Royalties (top, middle, bottom) and Fantasyland cards next hand, by hand from
# docs/variations.md sections 5-6.
GOLDEN_PLAYERS = [
    ("r1", "Ivey", (1, 0, 6), 0),            # 66 top is below QQ
    ("r2", "ann", (7, 0, 6), 13),            # QQ top: regular Fantasyland, 13 cards
    ("r2", "cid", (0, 0, 0), 0),             # fouled: no royalties, no Fantasyland
    ("r4", "ann", (7, 12, 10), 13),          # stays (classic: full house middle, quads bottom)
    ("o4", "ann", (7, 0, 6), 0),             # Fantasyland off
    ("o5", "ann", (1, 0, 6), 0),             # no royalty for middle trips
    ("o6", "ann", (7, 0, 6), 14),            # pineapple QQ: 14 cards
    ("p2", "ann", (7, 12, 10), 14),          # pineapple stay on quads bottom, 14 cards
    ("pp1", "ann", (13, 2, 6), 14),          # progressive stay on trips top: repeat 14
    ("pp1", "bob", (8, 0, 4), 15),           # progressive entry with KK: 15
    ("d2", "ann", (1, 2, 6), 0),             # in FL without trips top or quads bottom: leaves
]


@pytest.mark.parametrize(("hand_id", "name", "royalties", "fl_next"), GOLDEN_PLAYERS)
def test_golden_royalties_and_fantasyland(sample_results: dict[str, dict[str, Any]],
                                          hand_id: str, name: str,
                                          royalties: tuple[int, int, int], fl_next: int) -> None:
    player = sample_results[hand_id]["players"][name]
    assert tuple(player["royalties"].values()) == royalties
    assert list(player["royalties"]) == ["top", "middle", "bottom"]
    assert player["fantasyland_next"] == fl_next


def test_fouls_surrenders_and_raw_points(sample_results: dict[str, dict[str, Any]]) -> None:
    r2 = sample_results["r2"]["players"]
    assert [r2[n]["fouled"] for n in ("ann", "bob", "cid")] == [False, False, True]
    o3 = sample_results["o3"]["players"]
    assert (o3["ann"]["raw_points"], o3["cid"]["raw_points"]) == (29, -29)
    dora = sample_results["p1"]["players"]["dora"]
    assert dora["surrendered"] and dora["hand_names"] is None and not dora["fouled"]
    assert sample_results["p2"]["players"]["ann"]["reported_points"] == 30  # the room's, not ours
    assert sample_results["o2"]["rules"] == {"scoring": "2-4", "foul_payout": "scoop"}


def test_the_whole_object_of_one_hand(capsys: pytest.CaptureFixture[str]) -> None:
    status, objs = run_json(capsys, SAMPLES / "regular.jsonl")
    assert status == 0
    assert objs[0] == {
        "file": str(SAMPLES / "regular.jsonl"), "line": 1,
        "source": "home-game", "hand_id": "r1", "variant": "regular",
        "players": {
            "Ivey": {"seat": 0, "fantasyland": False, "surrendered": False, "fouled": False,
                     "hand_names": {"top": "Pair of Sixes", "middle": "Pair of Kings",
                                    "bottom": "Full house, Jacks full of Fours"},
                     "royalties": {"top": 1, "middle": 0, "bottom": 6}, "fantasyland_next": 0,
                     "points": 4, "raw_points": 4, "vs": {"Hellmuth": 4}, "reported_points": 4},
            "Hellmuth": {"seat": 1, "fantasyland": False, "surrendered": False, "fouled": False,
                         "hand_names": {"top": "Ace high", "middle": "Pair of Aces",
                                        "bottom": "Flush, Queen high"},
                         "royalties": {"top": 0, "middle": 0, "bottom": 4},
                         "fantasyland_next": 0, "points": -4, "raw_points": -4,
                         "vs": {"Ivey": -4}, "reported_points": -4},
        },
    }


def test_points_print_as_ints_when_integral(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    line = (SAMPLES / "pineapple.jsonl").read_text(encoding="utf-8").split("\n")[0]
    hand = json.loads(line)
    hand["rules"] = {"surrender_cost": 1.5}
    path = tmp_path / "half.jsonl"
    path.write_text(json.dumps(hand) + "\n", encoding="utf-8")
    main(["score", "--json", str(path)])
    out = capsys.readouterr().out
    assert ".0," not in out and ".0}" not in out
    players = json.loads(out)["players"]
    assert (players["ann"]["points"], players["bob"]["points"]) == (11.5, -8.5)  # 10 + 1.5
    dora = players["dora"]
    assert dora["points"] == -3 and isinstance(dora["points"], int)
    assert dora["vs"] == {"ann": -1.5, "bob": -1.5}
    main(["score", str(path)])
    table = capsys.readouterr().out
    assert "ann -1.5, bob -1.5" in table and "-3 " in table and ".0 " not in table


# --------------------------------------------------------------------------------------------
# Tables


def test_table_is_aligned_and_readable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(SAMPLES / "regular.jsonl")]) == 0
    out = capsys.readouterr().out
    block = out.split("\n\n")[1].splitlines()  # hand r2
    title, header, *rows = block
    assert "home-game hand r2" in title and "regular" in title and "button cid" in title
    assert [r.split()[0] for r in rows] == ["ann", "bob", "cid"]
    for column in ("top", "middle", "bottom", "foul", "royalties", "FL next", "points", "vs"):
        assert column in header
    points_at = header.index("points")
    assert [r[points_at:].split()[0] for r in rows] == ["+29", "0", "-29"]
    assert rows[2][header.index("foul"):].startswith("FOUL")
    assert rows[0][header.index("FL next"):].startswith("13 cards")
    assert rows[0][header.index("royalties"):].startswith("7/0/6 = 13")
    assert rows[0][header.index("top"):].startswith("Pair of Queens")
    assert rows[0].endswith("bob +10, cid +19")


def test_table_shows_the_room_result_and_mismatches(capsys: pytest.CaptureFixture[str]) -> None:
    main(["score", str(SAMPLES / "pineapple.jsonl")])
    blocks = capsys.readouterr().out.split("\n\n")
    assert "reported" in blocks[0].splitlines()[1] and "MISMATCH" not in blocks[0]
    assert "+30  MISMATCH" in blocks[1]  # the room said 30, the rules give 33


# --------------------------------------------------------------------------------------------
# Bad hands, partial hands, unreadable files


def test_rejected_hands_are_reported_and_the_rest_scored(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = SAMPLES / "bad-hands.jsonl"
    status, objs = run_json(capsys, path)
    assert status == 1
    assert [o["line"] for o in objs] == list(range(1, 15))
    scored = [o["hand_id"] for o in objs if "players" in o]
    assert scored == ["b01-good", "b13-good"]
    errors = [o for o in objs if "error" in o]
    assert len(errors) == 11
    for err in errors:
        assert set(err) == {"file", "line", "hand_id", "error"}
        assert err["file"] == str(path) and err["hand_id"].startswith(f"b{err['line']:02d}-")
        assert err["hand_id"] in err["error"]
    assert "unknown card '1x'" in errors[1]["error"]
    assert objs[-1] == {"file": str(path), "line": 14, "hand_id": "b14-still-being-written",
                        "partial": True, "message": objs[-1]["message"]}


def test_text_mode_reports_rejections_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(SAMPLES / "bad-hands.jsonl")]) == 1
    captured = capsys.readouterr()
    assert "hand b01-good" in captured.out and "hand b13-good" in captured.out
    lines = captured.err.splitlines()
    assert len(lines) == 12
    assert lines[0].startswith(f"{SAMPLES / 'bad-hands.jsonl'}:2: rejected: hand "
                               "'b02-invalid-json': invalid JSON")
    assert lines[-1].startswith(f"{SAMPLES / 'bad-hands.jsonl'}:14: note: ")


def test_partial_last_hand_alone_is_not_an_error(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    good = (SAMPLES / "regular.jsonl").read_text(encoding="utf-8").split("\n")[0]
    path = tmp_path / "live.jsonl"
    path.write_text(good + "\n" + good[:80], encoding="utf-8")
    status, objs = run_json(capsys, path)
    assert status == 0
    assert "players" in objs[0] and objs[1]["partial"] is True and objs[1]["line"] == 2


@pytest.mark.parametrize(("make", "expected"), [
    (lambda d: d / "missing.jsonl", "cannot read: No such file or directory"),
    (lambda d: d, "is a folder"),
    (lambda d: (d / "latin1.jsonl", (d / "latin1.jsonl").write_bytes(
        '{"source": "café"}\n'.encode("latin-1")))[0], "not UTF-8 text (byte 0xe9"),
])
def test_unreadable_files_give_one_line_and_status_1(tmp_path: Path, make: Any, expected: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    bad = make(tmp_path)
    status = main(["score", str(bad), str(SAMPLES / "regular.jsonl")])
    captured = capsys.readouterr()
    assert status == 1
    assert captured.err.count("\n") == 1 and expected in captured.err
    assert captured.err.startswith(f"ofc score: {bad}")
    assert "Traceback" not in captured.err
    assert "hand r4" in captured.out  # the readable file is still scored
    status, objs = run_json(capsys, bad)
    assert status == 1 and objs == [{"file": str(bad), "error": objs[0]["error"]}]
    assert expected in objs[0]["error"]


def test_no_files_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score"]) == 2
    assert "give one or more FILE" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# Encodings and names


@pytest.mark.parametrize("codec", ["utf-8-sig", "utf-16", "utf-16-be"])
def test_other_encodings_score_the_same(tmp_path: Path, codec: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    text = (SAMPLES / "nasty-names.jsonl").read_text(encoding="utf-8")
    _, expected = run_json(capsys, SAMPLES / "nasty-names.jsonl")
    path = tmp_path / f"{codec}.jsonl"
    data = text.replace("\n", "\r\n")
    path.write_bytes(("\ufeff" + data).encode(codec) if codec == "utf-16-be"
                     else data.encode(codec))
    status, objs = run_json(capsys, path)
    assert status == 0
    assert [{k: v for k, v in o.items() if k != "file"} for o in objs] == [
        {k: v for k, v in o.items() if k != "file"} for o in expected]


def test_names_survive_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    status, objs = run_json(capsys, SAMPLES / "nasty-names.jsonl")
    assert status == 0
    assert list(objs[0]["players"]) == ['Robert "Bobby" O\'Neil', EVIL, "🂡 Ace 🃏 ♠"]
    assert objs[0]["hand_id"] == 'n1 "quoted" <x>'
    assert objs[0]["players"][EVIL]["vs"] == {'Robert "Bobby" O\'Neil': -10, "🂡 Ace 🃏 ♠": 10}
    assert list(objs[1]["players"]) == ["Дмитрий Ж.", "Ann\u00a0Lee"]
    main(["score", str(SAMPLES / "nasty-names.jsonl")])
    table = capsys.readouterr().out
    assert EVIL in table and "Дмитрий Ж." in table and "Ann\u00a0Lee" in table


def test_control_characters_in_names_are_escaped_in_tables(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = json.loads((SAMPLES / "regular.jsonl").read_text(encoding="utf-8").split("\n")[0])
    hand["players"][0]["name"] = "Iv\x1b[31mey"
    hand["hero"] = hand["players"][0]["name"]
    record_from_dict(hand)  # a valid hand: the name is data
    path = tmp_path / "ctl.jsonl"
    path.write_text(json.dumps(hand) + "\n", encoding="utf-8")
    main(["score", str(path)])
    table = capsys.readouterr().out
    assert "\x1b" not in table and "Iv\\x1b[31mey" in table
    main(["score", "--json", str(path)])
    assert "Iv\x1b[31mey" in json.loads(capsys.readouterr().out)["players"]


# --------------------------------------------------------------------------------------------
# The installed console script


def test_installed_ofc_script(ofc_script: str) -> None:
    done = subprocess.run([ofc_script, "score", "--json", str(SAMPLES / "regular.jsonl"),
                           str(SAMPLES / "bad-hands.jsonl")],
                          capture_output=True, text=True, encoding="utf-8", timeout=120,
                          check=False)
    assert done.returncode == 1, done.stderr
    objs = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(objs) == 4 + 14
    assert objs[0]["players"]["Ivey"]["points"] == 4
    assert "Traceback" not in done.stderr


def test_module_entry_point_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "ofc_cli.cli", "score",
                           str(SAMPLES / "double-match.jsonl")], capture_output=True, text=True,
                          encoding="utf-8", cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("double-app hand d") == 3
