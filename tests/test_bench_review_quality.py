"""``bench_review_quality.py --combine``: runs of several seeds, or cut short, summarised as one."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import bench_review_quality as quality


def _row(regret: float, tie: bool, differs: bool, named: bool) -> dict[str, object]:
    return {"street": 1, "candidates": 9, "ref_best_rolled_out": True,
            "learned": {"regret": regret, "same_or_within_2se": True, "ev_lost": 1.5,
                        "gain": 1.0, "ev_lost_error": 0.5, "tie": tie, "tie_differs": differs,
                        "stable": not tie, "same_or_named_tie": named, "top2": False,
                        "pair_bottom": None, "ace_top": True}}


def _log(path: Path, rows: list[dict[str, object]], cpu: dict[str, float], final: bool) -> Path:
    lines = [f"{i} {json.dumps(r)}" for i, r in enumerate(rows)]
    summary = json.dumps({"cpu_s": cpu})
    lines.append(summary if final else f"so far: {summary}")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_two_logs_are_summarised_as_one_run(tmp_path: Path) -> None:
    rows = [_row(0.5, False, False, True), _row(-0.5, True, True, True)]
    done = _log(tmp_path / "seed5.log", rows, {"learned": 1.0, "reference": 100.0}, final=True)
    cut = _log(tmp_path / "seed6.log", [_row(2.0, True, False, False)],
               {"learned": 0.5, "reference": 40.0}, final=False)
    out = quality.combine([done, cut], ["learned"])
    first = out["learned"]["first_five"]  # type: ignore[index]
    assert first["decisions"] == 3
    assert first["regret"] == quality.mean_se([0.5, -0.5, 2.0])
    assert (first["ties"], first["ties_that_differ"]) == (2, 1)
    assert first["same_or_named_tie"] == round(2 / 3, 2)
    assert first["ace_top"] == "3 of 3" and first["pair_bottom"] == "0 of 0"
    assert out["cpu_s"] == {"learned": 1.5, "reference": 140.0}
    assert out["reference_best_rolled_out_by_the_review"] == "3 of 3"
