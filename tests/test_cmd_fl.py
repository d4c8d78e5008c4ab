"""``ofc fl``: the best Fantasyland set from the command line, one deal or one per line of
standard input, as a table, a line or JSON; bad input is one line on stderr and exit 2."""

from __future__ import annotations

import io
import json

import pytest

from ofc_cli.cli import main
from ofc_core.board import ROWS, Board
from ofc_core.rules import PRESETS, resolve

DEAL = "As Ad Ac Kh Kd Qs Qh 9h 8h 7h 6h 5h 2c 3d"


def test_json_has_the_rows_discard_royalties_stay_and_value(capsys) -> None:
    assert main(["fl", DEAL, "--variant", "pineapple", "--stay-value", "10", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"top", "middle", "bottom", "discard", "royalties", "stays", "value"}
    board = Board.parse(*(" ".join(out[row]) for row in ("top", "middle", "bottom")))
    assert not board.is_foul
    ruleset = PRESETS["pineapple"]
    assert out["row_royalties"] == [ruleset.paid_royalties.points(row, s)
                                    for row, s in zip(ROWS, board.strengths(), strict=True)]
    assert out["royalties"] == sum(out["row_royalties"])
    assert out["value"] == out["royalties"] + (10 if out["stays"] else 0)
    assert sorted(out["top"] + out["middle"] + out["bottom"] + out["discard"]) == \
        sorted(DEAL.split())


def test_the_table_names_each_row_and_the_value(capsys) -> None:
    assert main(["fl", DEAL, "--variant", "progressive-pineapple", "--stay-value", "10"]) == 0
    out = capsys.readouterr().out
    for word in ("top", "middle", "bottom", "discard", "royalties", "value"):
        assert word in out
    assert "Straight flush" in out


def test_rules_change_the_stay(capsys) -> None:
    deal = "7h 7d 7c As Ks Qs Js 9s 6h 5d 4c 3h 2s Kd"
    args = ["fl", deal, "--variant", "pineapple", "--stay-value", "15", "--json"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["stays"] is True
    assert main([*args, "--rules", '{"fantasyland": "off"}']) == 0
    off = json.loads(capsys.readouterr().out)
    assert off["stays"] is False and off["value"] == off["royalties"]
    assert resolve("pineapple", {"fantasyland": "off"}).fantasyland is False


def test_stdin_one_line_per_deal_and_bad_lines_exit_2(monkeypatch, capsys) -> None:
    lines = [DEAL, "", "As As", "7h 7d 7c As Ks Qs Js 9s 6h 5d 4c 3h 2s Kd Zz"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["fl", "-", "--variant", "pineapple", "--stay-value", "10"]) == 2
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert len(out) == 1 and out[0].startswith("KhKd3d-AsAdAcQsQh-9h8h7h6h5h/2c")
    assert "line 3" in captured.err and "line 4" in captured.err and "unknown card 'Zz'" in \
        captured.err
    assert "Traceback" not in captured.err


@pytest.mark.parametrize("args,message", [
    (["fl", "As Ad", "--variant", "pineapple"], "13-17 cards, got 2"),
    (["fl", DEAL.replace("3d", "As"), "--variant", "pineapple"], "a card appears twice: As"),
    (["fl", DEAL, "--variant", "pineapple", "--rules", "{bad"], "--rules is not JSON"),
    (["fl", DEAL, "--variant", "pineapple", "--rules", "[1]"], "must be a JSON object"),
    (["fl", DEAL, "--variant", "pineapple", "--rules", '{"cap": -1}'], "rules.cap"),
    (["fl", DEAL.replace("3d", "X1"), "--variant", "pineapple"],
     "not a card of the 52-card deck (no jokers at this table): X1"),
    (["fl", DEAL.replace("3d", "X2"), "--variant", "pineapple", "--rules", '{"jokers": 1}'],
     "not a card of the 53-card deck: X2"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, capsys) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.splitlines()) == 1


def test_an_unknown_variant_is_refused_by_the_parser(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["fl", DEAL, "--variant", "chinese"])
    assert exit_.value.code == 2


def test_jokers_are_solved_at_a_joker_table(capsys) -> None:
    """X1 and X2 are set like cards and resolved by the table's rule: two jokers and a queen
    make three queens on top (20 and a stay); the JSON says what each joker stood for."""
    deal = "X1 X2 Ah 7d 7c 5s 9h Jd Qc 3s 4h 8d Tc 2h"
    assert main(["fl", deal, "--variant", "joker-pineapple", "--stay-value", "10",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["top"] == ["X2", "X1", "Qc"] and out["row_royalties"][0] == 20
    assert out["stays"] and out["exact"] and out["value"] == sum(out["row_royalties"]) + 10
    assert sorted(out["jokers"]) == ["X1", "X2"]
    assert {card[0] for card in out["jokers"].values()} == {"Q"}
    assert main(["fl", deal, "--variant", "joker-pineapple", "--stay-value", "10"]) == 0
    text = capsys.readouterr().out
    assert "X1 stood for Q" in text and "X2 stood for Q" in text
