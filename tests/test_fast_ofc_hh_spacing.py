"""White space before a key's colon: the bulk ofc-hh/1 reader counts keys by their ``":``, so
a key written ``"source" :`` or ``"source"\\t:`` (the only white space JSON allows there on one
line) goes to the reference reader, which finds a key given twice; other white space after a
quote can only be inside a string, and stays on the bulk path."""

from __future__ import annotations

import random
from datetime import datetime, timezone

from benchmarks.bench_import import hand_line
from ingest.formats import ofc_hh_fast


def _line() -> str:
    return hand_line(random.Random(7), "fast", "s1", 0, datetime(2026, 5, 1, tzinfo=timezone.utc))


def test_a_key_spaced_from_its_colon_goes_to_the_reference_reader() -> None:
    line = _line()
    spaced = [line.replace('"source": "fast"', f'"source": "fast", "source"{gap}: "other"')
              for gap in (" ", "\\t", "  \\t ")]
    spaced = [s.replace("\\t", "\t") for s in spaced]
    inside = line.replace('"name": "villain"', '"name": "vil\\u00a0\\": \u00a0lain"')
    nbsp = line.replace('"name": "villain"', '"name": "vil\u00a0lain\u2003"')
    lines = [line, *spaced, inside, nbsp]
    assert len(set(lines)) == len(lines)
    fast, deferred = ofc_hh_fast.read_lines(list(enumerate(lines, 1)))
    assert deferred == [1, 2, 3]
    assert len(fast.columns) == 3
    assert "vil\u00a0lain\u2003" in fast.columns.name
