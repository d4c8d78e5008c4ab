"""``ofc simulate`` as a user runs it: files that the format reader and the scorer accept,
byte-identical for a seed, hero files as a room logs them, clear errors for bad arguments."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from ingest.formats import ParsedHand, ParseIssue
from ingest.formats.ofc_hh import parse_text
from ofc_cli.cli import main
from ofc_core.hand import validate
from ofc_core.rules import PRESETS
from ofc_core.scoring import score_hand


def _simulate(tmp_path: Path, *args: str, out: str = "hands.jsonl") -> Path:
    path = tmp_path / out
    assert main(["simulate", *args, "--out", str(path)]) == 0
    return path


def _read(path: Path) -> list:
    items = list(parse_text(path.read_text(encoding="utf-8"), path.name))
    assert not [i for i in items if isinstance(i, ParseIssue)]
    return [i.record for i in items if isinstance(i, ParsedHand)]


@pytest.mark.parametrize("variant,players", [("regular", 4), ("turbo", 2), ("pineapple", 3),
                                             ("progressive-pineapple", 3), ("double", 2)])
def test_files_reparse_and_report_the_scorers_points(tmp_path, variant, players):
    path = _simulate(tmp_path, "--variant", variant, "--players", str(players), "--hands", "15",
                     "--sessions", "2", "--seed", "5", "--policies", "chaser,careful,random")
    records = _read(path)
    assert len({r.session_id for r in records}) == 2
    assert len(records) >= 30
    ruleset = PRESETS[variant]
    for r in records:
        assert validate(r) == []
        assert len(r.players) == players and r.variant == variant
        result = score_hand(r.seats(), ruleset, r.first_to_act)
        assert [p.reported_points for p in r.players] == [p.points for p in result.players]
    if variant == "double":
        assert all(r.match_id for r in records)
        assert any(e.type == "match_end" for r in records for e in r.events)


def test_same_seed_same_bytes(tmp_path):
    args = ["--variant", "pineapple", "--hands", "20", "--policies", "careful,chaser",
            "--room-error-rate", "0.2", "--seed"]
    a = _simulate(tmp_path, *args, "42", out="a.jsonl").read_bytes()
    b = _simulate(tmp_path, *args, "42", out="b.jsonl").read_bytes()
    c = _simulate(tmp_path, *args, "43", out="c.jsonl").read_bytes()
    assert a == b and a != c


def test_room_errors_are_a_fraction_of_hands(tmp_path):
    path = _simulate(tmp_path, "--variant", "turbo", "--hands", "200", "--seed", "1",
                     "--room-error-rate", "0.1")
    records = _read(path)
    wrong = 0
    for r in records:
        result = score_hand(r.seats(), r.ruleset, r.first_to_act)
        reported = [p.reported_points for p in r.players]
        wrong += reported != [p.points for p in result.players]
        assert sum(reported) == sum(p.points for p in result.players)
    assert 5 <= wrong <= 40


def test_hero_perspective_writes_one_file_per_player(tmp_path):
    _simulate(tmp_path, "--variant", "pineapple", "--hands", "60", "--seed", "3", "--names",
              "Hero,Anna,Zoë", "--policies", "chaser", "--perspective", "hero")
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["hands.Anna.jsonl", "hands.Hero.jsonl", "hands.Zoë.jsonl"]
    records = _read(tmp_path / "hands.Zoë.jsonl")
    assert {r.hero for r in records} == {"Zoë"}
    hidden_fl = 0
    for r in records:
        for p in r.players:
            mine = p.name == "Zoë"
            for s in p.streets:
                assert (s.dealt is not None) == mine
                discards = len(s.dealt) - len(s.placed) if mine else 0
                assert (s.discard is not None) == (discards > 0)
            hidden_fl += p.fantasyland and not mine
    assert hidden_fl > 0
    line = (tmp_path / "hands.Zoë.jsonl").read_text(encoding="utf-8").splitlines()[0]
    players = {p["name"]: p for p in json.loads(line)["players"]}
    assert any("discard" in s for s in players["Zoë"]["streets"])
    assert not any("discard" in s or "dealt" in s for s in players["Anna"]["streets"])


def test_different_simulations_never_share_hand_ids(tmp_path):
    """The default session ids carry a fingerprint of what decides the hands: two runs that
    differ only in their policies import side by side, while the same run seen from two
    players merges into the same hands."""
    from ingest.api import import_paths

    common = ["--variant", "pineapple", "--hands", "30", "--seed", "3"]
    careful = _read(_simulate(tmp_path, *common, out="careful.jsonl"))
    mixed = _read(_simulate(tmp_path, *common, "--policies", "careful,chaser,random",
                            out="mixed.jsonl"))
    _simulate(tmp_path, *common, "--perspective", "hero", out="seen.jsonl")
    assert not {r.hand_id for r in careful} & {r.hand_id for r in mixed}
    assert all(r.hand_id.startswith("sim-pineapple-s3-") for r in careful + mixed)
    report = import_paths([tmp_path], tmp_path / "t.duckdb")
    assert (report.stored, report.rejected) == (60, 0)
    assert report.merged + report.duplicate == 90  # the three hero files: the careful run


def test_hero_option_writes_that_players_log_to_out(tmp_path):
    _simulate(tmp_path, "--variant", "double", "--hands", "10", "--names", "Hero,Anna",
              "--perspective", "hero", "--hero", "Hero")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hands.jsonl"]
    assert {r.hero for r in _read(tmp_path / "hands.jsonl")} == {"Hero"}


@pytest.mark.parametrize("args,message", [
    (["--variant", "pineapple", "--players", "4"], "pineapple is played by 2-3 players"),
    (["--variant", "double", "--players", "3"], "double is played by 2 players"),
    (["--variant", "regular", "--policies", "careful,bold"], "unknown policy 'bold'"),
    (["--variant", "regular", "--players", "2", "--names", "a,b,c"], "3 names for 2 players"),
    (["--variant", "turbo", "--hands", "0"], "at least 1"),
    (["--variant", "turbo", "--start", "2026-01-01T10:00"], "needs a UTC offset"),
    (["--variant", "turbo", "--perspective", "hero", "--hero", "Nobody"], "not one of"),
])
def test_bad_arguments_are_explained(tmp_path, capsys, args, message):
    assert main(["simulate", *args, "--out", str(tmp_path / "x.jsonl")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "x.jsonl").exists()


def test_unknown_variant_is_refused_by_the_parser(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--variant", "chinese", "--out", str(tmp_path / "x.jsonl")])
    assert "invalid choice: 'chinese'" in capsys.readouterr().err


def test_demo_data_is_what_the_documented_commands_write(tmp_path):
    """``data/demo`` must be reproducible from the commands in docs/simulator.md."""
    root = Path(__file__).resolve().parents[1]
    doc = (root / "docs" / "simulator.md").read_text(encoding="utf-8")
    block = doc[doc.index("## Demo data"):]
    block = block[block.index("```bash") + 7:]
    block = block[:block.index("```")]
    common = next(line for line in block.splitlines() if line.startswith("common="))
    common_args = shlex.split(common.split("=", 1)[1])[0]
    commands = [line for line in block.splitlines() if line.startswith("ofc simulate")]
    assert len(commands) >= 5
    for line in commands:
        args = shlex.split(line.replace("$common", common_args))[1:]
        out = Path(args[args.index("--out") + 1])
        args[args.index("--out") + 1] = str(tmp_path / out.name)
        args = [a for arg in args for a in (shlex.split(arg) if arg == common_args else [arg])]
        assert main(args) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    committed = sorted(p.name for p in (root / "data" / "demo").glob("*.jsonl"))
    assert written == committed
    for name in written:
        assert (tmp_path / name).read_bytes() == (root / "data" / "demo" / name).read_bytes(), name


def test_rule_overrides_are_played_and_recorded(tmp_path):
    path = _simulate(tmp_path, "--variant", "pineapple", "--hands", "30", "--policies", "chaser",
                     "--rules", "scoring=2-4,button_in_fl=rotates,cap=12")
    records = _read(path)
    assert {tuple(sorted(r.rules.items())) for r in records} == {
        (("button_in_fl", "rotates"), ("cap", 12), ("scoring", "2-4"))}
    for r in records:
        result = score_hand(r.seats(), r.ruleset, r.first_to_act)
        assert [p.reported_points for p in r.players] == [p.points for p in result.players]
        assert all(abs(p.points) <= 12 for p in result.players)


def test_bad_rule_overrides_are_explained(tmp_path, capsys):
    assert main(["simulate", "--variant", "turbo", "--rules", "scoring=3-5",
                 "--out", str(tmp_path / "x.jsonl")]) == 2
    assert "--rules: rules.scoring: unknown value '3-5'" in capsys.readouterr().err


def test_sessions_are_played_and_written_one_at_a_time(tmp_path, monkeypatch):
    """Only one session's records are held: the next session is played after the last one
    was handed out (and written)."""
    import argparse

    from ofc_cli import cmd_simulate

    played: list[str] = []
    real = cmd_simulate.play_session

    def play(table, spec, rng, progress=None):
        played.append(spec.session_id)
        return real(table, spec, rng, progress)

    monkeypatch.setattr(cmd_simulate, "play_session", play)
    parser = argparse.ArgumentParser()
    cmd_simulate.add_arguments(parser)
    args = parser.parse_args(["--variant", "turbo", "--hands", "3", "--sessions", "3",
                              "--session-prefix", "s", "--out", str(tmp_path / "x.jsonl")])
    sessions = cmd_simulate.simulate(args, cmd_simulate.table_for(args))
    assert played == []
    first = next(sessions)
    assert played == ["s-1"] and {r.session_id for r in first} == {"s-1"}
    assert [len(s) for s in sessions] == [3, 3] and played == ["s-1", "s-2", "s-3"]


def test_an_interrupted_run_leaves_no_file(tmp_path, monkeypatch):
    """Files are written as .part and renamed at the end: a run stopped after its first
    session (Ctrl-C: ``ofc`` says "interrupted", exit 130) leaves neither a short file nor
    the .part."""
    from ofc_cli import cmd_simulate

    real = cmd_simulate.play_session
    calls = []

    def play(table, spec, rng, progress=None):
        calls.append(spec.session_id)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(table, spec, rng, progress)

    monkeypatch.setattr(cmd_simulate, "play_session", play)
    assert main(["simulate", "--variant", "pineapple", "--hands", "4", "--sessions", "3",
                 "--perspective", "hero", "--out", str(tmp_path / "x.jsonl")]) == 130
    assert len(calls) == 2 and list(tmp_path.iterdir()) == []


def test_an_unwritable_output_is_explained(tmp_path, capsys):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be", encoding="utf-8")
    out = blocker / "hands.jsonl"
    assert main(["simulate", "--variant", "turbo", "--hands", "2", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"ofc simulate: cannot write {blocker}" in err and ".part" not in err
    assert "Traceback" not in err


def test_a_huge_session_gets_a_memory_note(tmp_path, capsys, monkeypatch):
    from ofc_cli import cmd_simulate

    monkeypatch.setattr(cmd_simulate, "BIG_SESSION", 5)
    _simulate(tmp_path, "--variant", "turbo", "--hands", "6")
    err = capsys.readouterr().err
    assert "a session is held in memory" in err and "--sessions" in err
    _simulate(tmp_path, "--variant", "turbo", "--hands", "5", out="small.jsonl")
    assert "held in memory" not in capsys.readouterr().err


def test_a_terminated_run_leaves_no_file(tmp_path):
    """``kill`` (SIGTERM) while a session is played: exit status 143, no file, no .part."""
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "big.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "ofc_cli.cli", "simulate", "--variant",
                             "pineapple", "--hands", "200", "--sessions", "400", "--out",
                             str(out)], stderr=subprocess.PIPE, text=True)
    part = tmp_path / "big.jsonl.part"
    deadline = time.monotonic() + 60
    while not part.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert part.exists(), "the run never started writing"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143 and "Traceback" not in err, (proc.returncode, err[-2000:])
    assert list(tmp_path.iterdir()) == [], (list(tmp_path.iterdir()), err[-2000:])
