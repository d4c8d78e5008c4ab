"""How the pages word their numbers, checked on the functions that write them: no confidence
interval from too few hands, the Import page's ledger line, a missing value shown as a dash."""

from __future__ import annotations

from dashboard.queries import overview
from dashboard.views import import_page
from dashboard.views import overview as overview_page


def _summary(hands: int, ci: float | None) -> overview.Summary:
    return overview.Summary(hands, 4.0, 2.0, ci, None, None, None, 0, None, ())


def test_no_interval_from_two_hands() -> None:
    assert overview_page.interval(_summary(2, 0.0)) == "no 95% interval under 30 hands"
    assert overview_page.interval(_summary(1, None)) == "no 95% interval under 30 hands"
    assert overview_page.interval(_summary(40, 1.234)) == "± 1.23 (95% CI)"


def test_ledger_line_counts_refused_files_apart_and_says_file_once() -> None:
    totals = {"stored": 3, "duplicate": 0, "merged": 0, "partial": 0, "rejected": 0}
    line = import_page.ledger_line(1, totals, 1)
    assert "1 files" not in line and "**1 file** read" in line
    assert "**1 file refused**" in line and "0 rejected" not in line
    line = import_page.ledger_line(3, {**totals, "rejected": 2}, 0)
    assert line == "**3 files** read: **3 hands** stored, 0 duplicates, 2 rejected."


def test_missing_values_show_as_a_dash_not_none_or_nan() -> None:
    from dashboard.views import hand_review

    assert hand_review.text_of(None) == "–" and hand_review.text_of(float("nan")) == "–"
    assert hand_review.text_of(None, "") == ""
    assert hand_review.text_of("Pair of Aces") == "Pair of Aces"
    import pandas as pd

    final = pd.DataFrame({"seat": [1, 1, 1], "row_name": ["top", "middle", "bottom"],
                          "cards": [None, None, None], "category": [None] * 3,
                          "hand_name": [None] * 3, "royalty": [float("nan")] * 3,
                          "jokers": [None] * 3})
    seat = pd.DataFrame({"seat": [1]}).itertuples(index=False).__next__()
    html = hand_review.seat_final(seat, final, False)
    assert "nan" not in html and "None" not in html
