"""Hostile and odd input to an import: card spellings, unknown cards, tokens that are no card,
deep nesting, huge numbers, lone surrogates, wrong types. Each once ended an import in a
traceback; each is now read as the docs say (stored, or that hand's own error)."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import duckdb
import numpy as np
import pytest

from ingest import store
from ingest.api import import_files
from ingest.formats import ofc_hh_fast
from ingest.formats.ofc_hh import loads_line, record_from_dict
from ofc_cli.cmd_score import score_file
from ofc_core.validate_batch import card_table, valid_hands
from tests.helpers.store import LINE, assert_stored_equals_scalar, rows


@pytest.fixture
def con(tmp_path: Path) -> duckdb.DuckDBPyConnection:
    c = store.connect(tmp_path / "t.duckdb")
    yield c
    c.close()


@pytest.mark.parametrize("spelling", ["10h", "th", "TH", "T♥", "t♡", "10H"])
def test_an_accepted_spelling_of_the_first_card_of_a_file_is_stored(con, spelling) -> None:
    """The bulk reader used to give an unknown spelling the card index -1 and check the hand
    on arrays before setting it aside: ``np.bincount`` raised on the first player's -1."""
    line = LINE.replace("Th", spelling, 1)
    report = import_files([("spelled.jsonl", (line + "\n").encode())], con)
    assert (report.stored, report.rejected) == (1, 0)
    assert_stored_equals_scalar(con, record_from_dict(loads_line(LINE)))
    assert rows(con, "SELECT cards FROM hand_rows WHERE seat = 0 AND row_name = 'top'") == [
        ("Th 6d 2c",)]


def test_reimporting_a_file_with_an_unknown_card_reports_it_again(con) -> None:
    """The second import sets the stored first hand aside, so the hand with ``Zz`` became the
    first of the chunk, and its -1 reached ``np.bincount``."""
    bad = LINE.replace('"h1"', '"h2"').replace("Th", "Zz", 1)
    data = (LINE + "\n" + bad + "\n").encode()
    first = import_files([("zz.jsonl", data)], con)
    again = import_files([("zz.jsonl", data)], con)
    assert (first.stored, first.rejected) == (1, 1)
    assert (again.stored, again.duplicate, again.rejected) == (0, 1, 1)
    assert [(e.line, e.hand_id) for e in again.files[0].errors] == [(2, "h2")]
    assert "unknown card 'Zz'" in again.files[0].errors[0].message


def test_the_bulk_reader_leaves_a_respelled_first_hand_to_the_reference_reader() -> None:
    lines = [(1, LINE.replace("Th", "10h", 1)), (2, LINE.replace('"h1"', '"h2"'))]
    fast, deferred = ofc_hh_fast.read_lines(lines)
    assert deferred == [0] and fast.columns.hand_id == ["h2"]


def test_array_validation_takes_a_token_that_is_no_card_as_invalid() -> None:
    """:func:`valid_hands` on a table holding an index outside the deck says "invalid" for
    that hand (whoever made the table) instead of raising."""
    good = record_from_dict(loads_line(LINE))
    table = card_table([good, replace(good, hand_id="h2")])
    for mark in (-1, 64, 1000):
        card = table.card.copy()
        card[0] = mark
        assert valid_hands(replace(table, card=card)).tolist() == [False, True]
    assert valid_hands(table).tolist() == [True, True]
    assert table.card.dtype == np.int64


def _with(key: str, value: str) -> str:
    """LINE with ``"key": value`` added before the variant."""
    return LINE.replace('"variant"', f'"{key}": {value}, "variant"', 1)


HOSTILE = {
    "nested arrays": ('[' * 100_000 + ']' * 100_000, "nested too deeply"),
    "nested objects": ('{"a": ' * 5_000 + "1" + "}" * 5_000, "nested too deeply"),
    "nested hand_id": ('{"hand_id": ' + "[" * 100_000, "nested too deeply"),
    "stake 1e400": (_with("stake", "1e400"), "the number 1e400 is too large"),
    "stake of 400 digits": (_with("stake", "9" * 400), "is too large"),
    "cap of 400 digits": (_with("rules", '{"cap": ' + "9" * 400 + "}"), "is too large"),
    "hand_id 1e400": (LINE.replace('"h1"', "1e400"), "is too large"),
    "reported_points of 400 digits": (
        LINE.replace('"seat": 1', '"seat": 1, "reported_points": ' + "9" * 400), "too large"),
    "a lone surrogate in a name": (LINE.replace('"ann"', '"\\ud800"'), "lone UTF-16 surrogate"),
    "royalties as a list": (_with("rules", '{"royalties": ["american"]}'), "unknown table"),
    "royalties as an object": (_with("rules", '{"royalties": {}}'), "unknown table"),
}
"""Lines the record reader let through to a traceback (in ``ofc score``, or at the store),
with what the message says now."""


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_line_is_its_own_error(con, tmp_path: Path, name: str) -> None:
    line, reason = HOSTILE[name]
    text = "\n".join([LINE.replace('"h1"', '"g1"'), line, LINE.replace('"h1"', '"g3"')]) + "\n"
    for _ in range(2):  # and again: the good hands are duplicates, the bad one reported again
        report = import_files([("hostile.jsonl", text.encode())], con)
        assert report.files[0].unreadable is None
        assert [(e.line, reason in e.message) for e in report.files[0].errors] == [(2, True)]
    assert rows(con, "SELECT hand_id FROM hands ORDER BY hand_id") == [("g1",), ("g3",)]
    path = tmp_path / "hostile.jsonl"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert score_file(str(path), True, out, err) == 1
    results = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [(r["line"], reason in r.get("error", "")) for r in results] == [
        (1, False), (2, True), (3, False)]
