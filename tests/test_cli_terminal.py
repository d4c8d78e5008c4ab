"""The long commands on a terminal and off it (issue 23, point 6): ``ofc import``, ``ofc
simulate`` and ``ofc review`` draw a progress bar (count of the total, rate, time spent and
left) when standard error is a terminal, and write nothing of it to a pipe; ``ofc me add``
warns about a name no stored hand seats; ``--out`` is the file ``ofc simulate`` writes.

The terminal is a real pseudo-terminal (``pty``): the command runs in a child process whose
standard error is the terminal's end, as in a user's shell.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from ofc_cli.cli import main as ofc

ROOT = Path(__file__).resolve().parent.parent

BAR = re.compile(r"(?P<done>\d[\d.]*[kMG]?)/(?P<total>\d[\d.]*[kMG]?) "
                 r"\[\d\d:\d\d<\d\d:\d\d, +\d[\d.]*[kMG]?(?P<unit>[A-Za-z]+)/s")
"""tqdm's count, elapsed<left and rate: ``120/200 [00:01<00:00, 95.3hand/s``."""


def on_terminal(*args: str, cwd: Path) -> tuple[int, str, str]:
    """``ofc ARGS`` with standard error on a pseudo-terminal (standard output a pipe): exit
    status, what the terminal showed, and standard output."""
    main_end, child_end = pty.openpty()
    fcntl.ioctl(child_end, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "ofc_cli.cli", *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=child_end, stdin=subprocess.DEVNULL,
                            env={**os.environ})
    os.close(child_end)
    shown = b""
    while True:
        ready, _, _ = select.select([main_end], [], [], 1.0)
        if ready:
            try:
                chunk = os.read(main_end, 65536)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            shown += chunk
        elif proc.poll() is not None:
            break
    out = proc.stdout.read().decode() if proc.stdout else ""
    os.close(main_end)
    return proc.wait(timeout=60), shown.decode(errors="replace"), out


def in_a_pipe(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ofc_cli.cli", *args], cwd=cwd, text=True,
                          capture_output=True, timeout=300)


def bars(shown: str) -> list[re.Match[str]]:
    return list(BAR.finditer(shown))


SIMULATE = ("simulate", "--variant", "pineapple", "--players", "2", "--hands", "300",
            "--seed", "5", "--names", "Hero,Bob")


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two small Hero-perspective logs, simulated off the terminal."""
    folder = tmp_path_factory.mktemp("logs")
    for seed in ("1", "2"):
        done = in_a_pipe("simulate", "--variant", "pineapple", "--players", "2", "--hands",
                         "40", "--seed", seed, "--names", "Hero,Bob", "--perspective", "hero",
                         "--hero", "Hero", "--out", str(folder / f"s{seed}.jsonl"), cwd=ROOT)
        assert done.returncode == 0, done.stderr
        written = next(folder.glob(f"s{seed}*.jsonl"))  # the file --out names
        written.rename(folder / f"s{seed}.jsonl")
    return folder


def test_simulate_draws_a_bar_on_a_terminal_and_nothing_in_a_pipe(tmp_path: Path) -> None:
    code, shown, _ = on_terminal(*SIMULATE, "--out", str(tmp_path / "t.jsonl"), cwd=ROOT)
    assert code == 0, shown
    drawn = bars(shown)
    assert drawn and drawn[-1]["total"] == "300" and drawn[0]["unit"] == "hand", shown
    assert "simulating" in shown and "\r" in shown
    piped = in_a_pipe(*SIMULATE, "--out", str(tmp_path / "p.jsonl"), cwd=ROOT)
    assert piped.returncode == 0
    assert not bars(piped.stderr) and "\r" not in piped.stderr
    assert piped.stderr == f"{tmp_path / 'p.jsonl'}: 300 hands\n"
    assert (tmp_path / "t.jsonl").read_bytes() == (tmp_path / "p.jsonl").read_bytes()


def test_import_draws_a_bar_of_bytes_with_the_file_and_nothing_in_a_pipe(
        tmp_path: Path, logs: Path) -> None:
    code, shown, out = on_terminal("import", str(logs), "--db", str(tmp_path / "t.duckdb"),
                                   cwd=ROOT)
    assert code == 0, shown
    drawn = bars(shown)
    assert drawn and drawn[0]["unit"] == "B", shown  # bytes read of the total: kB, MB, ...
    assert "importing" in shown and ".jsonl" in shown and "hands/s" in shown
    assert "total: 80 stored" in out
    piped = in_a_pipe("import", str(logs), "--db", str(tmp_path / "p.duckdb"), cwd=ROOT)
    assert piped.returncode == 0 and "total: 80 stored" in piped.stdout
    assert piped.stderr == ""


def test_review_draws_a_bar_of_hands_and_nothing_in_a_pipe(tmp_path: Path, logs: Path) -> None:
    for db in ("t", "p"):
        assert in_a_pipe("import", str(logs / "s1.jsonl"), "--db", str(tmp_path / f"{db}.duckdb"),
                         cwd=ROOT).returncode == 0
    review = ("review", "--player", "Hero", "--hands", "6", "--rollouts", "8")
    code, shown, out = on_terminal(*review, "--db", str(tmp_path / "t.duckdb"), cwd=ROOT)
    assert code == 0, shown
    drawn = bars(shown)
    assert drawn and drawn[-1]["total"] == "6" and drawn[0]["unit"] == "hand", shown
    assert "reviewing" in shown and "reviewed 6 hands" in out
    piped = in_a_pipe(*review, "--db", str(tmp_path / "p.duckdb"), cwd=ROOT)
    assert piped.returncode == 0 and "reviewed 6 hands" in piped.stdout
    assert piped.stderr == ""


def test_me_add_warns_about_a_name_no_hand_seats_and_adds_it(
        tmp_path: Path, logs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "me.duckdb")
    assert ofc(["import", str(logs / "s1.jsonl"), "--db", db]) == 0
    capsys.readouterr()
    assert ofc(["me", "add", "Hero", "--db", db]) == 0
    said = capsys.readouterr()
    assert said.out == "added Hero\n" and said.err == ""  # Hero sits in every hand
    assert ofc(["me", "add", "hero ", "--db", db]) == 0
    said = capsys.readouterr()
    assert said.out == "added hero \n"
    assert "warning: no stored hand seats 'hero '" in said.err
    assert "names in the stored hands like it: 'Hero'" in said.err
    assert ofc(["me", "add", "Nobody", "--db", db]) == 0
    said = capsys.readouterr()
    assert "no stored hand seats 'Nobody'" in said.err and "like it" not in said.err
    assert ofc(["me", "add", "Bob", "--source", "elsewhere", "--db", db]) == 0
    assert "no stored hand of elsewhere seats 'Bob'" in capsys.readouterr().err
    assert ofc(["me", "--db", db]) == 0
    listed = capsys.readouterr().out
    assert "  Nobody  (every source)" in listed and "  hero   (every source)" in listed


def test_simulate_out_is_the_file_written(tmp_path: Path) -> None:
    one = tmp_path / "X.jsonl"
    done = in_a_pipe(*SIMULATE, "--perspective", "hero", "--hero", "Hero", "--out", str(one),
                     cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["X.jsonl"]
    assert done.stderr == f"{one}: 300 hands\n"
    assert {json.loads(line)["hero"] for line in one.read_text().splitlines()} == {"Hero"}
    # every player's log: {name} in --out, else the name before the extension
    every = tmp_path / "every"
    done = in_a_pipe(*SIMULATE, "--perspective", "hero", "--out", str(every / "{name}.jsonl"),
                     cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in every.iterdir()) == ["Bob.jsonl", "Hero.jsonl"]
    done = in_a_pipe(*SIMULATE, "--perspective", "hero", "--out", str(every / "h.jsonl"),
                     cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert {p.name for p in every.iterdir()} >= {"h.Bob.jsonl", "h.Hero.jsonl"}
