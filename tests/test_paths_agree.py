"""The bulk reader (:mod:`ingest.formats.ofc_hh_fast`) and the record reader
(:mod:`ingest.formats.ofc_hh`) accept the same inputs with the same results, on hands of every
preset written in every spelling the docs accept (``benchmarks/fuzz_lib.py``: card spellings,
whitespace, compact boards, key order, escapes, explicit nulls, numeric ids) and broken in
every way they forbid.

The bulk reader takes only what it can read exactly as the record reader does and leaves every
other line to it: so every hand it takes must be one the record reader accepts, with the same
cards, players and scores, and every hand the record reader refuses must be left. Through the
importer, both ways store the same tables."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import fuzz_lib
from ingest.formats import ofc_hh_fast
from ingest.formats.ofc_hh import HandError, loads_line, record_from_dict
from ofc_core.batch import score_records
from tests.helpers.hypo import examples
from tests.helpers.store import import_both_ways

WAYS = ("canonical", "respelled", "first card respelled", "first card bad",
        *sorted(fuzz_lib.FORBIDDEN))


@st.composite
def logs(draw: st.DrawFn, most: int = 8) -> list[str]:
    """Lines of a log: hands of any preset, each canonical, respelled or broken."""
    rng = draw(st.randoms(use_true_random=False))
    ways = draw(st.lists(st.sampled_from(WAYS), min_size=1, max_size=most))
    out = []
    for k, way in enumerate(ways):
        hand = fuzz_lib.valid_hand(rng, "hyp", f"h{k}")
        if way == "canonical":
            out.append(fuzz_lib.dumps(hand))
        elif way == "respelled":
            out.append(fuzz_lib.respell(rng, hand))
        elif way == "first card respelled":
            out.append(fuzz_lib.first_card_respelled(rng, hand))
        elif way == "first card bad":
            out.append(fuzz_lib.first_card_bad(rng, hand))
        else:
            out.append(fuzz_lib.FORBIDDEN[way](rng, hand))
    return out


def record_or_none(line: str):
    try:
        return record_from_dict(loads_line(line))
    except (HandError, ValueError):
        return None


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(logs())
def test_the_bulk_reader_takes_only_what_the_record_reader_reads_alike(lines) -> None:
    fast, left = ofc_hh_fast.read_lines([(n, line) for n, line in enumerate(lines, 1)])
    records = [record_or_none(line) for line in lines]
    taken = list(fast.inputs)
    assert sorted(taken + left) == list(range(len(lines)))
    assert all(records[p] is not None for p in taken), "taken, but the record reader refuses"
    if not taken:
        return
    mine = [records[p] for p in taken]
    assert fast.columns.hand_id == [r.hand_id for r in mine]
    assert fast.columns.name == [p.name for r in mine for p in r.players]
    boards = [" ".join(str(c) for c in getattr(p.board, row)) for r in mine
              for p in r.players for row in ("top", "middle", "bottom")]
    got = [text for player in zip(*(b.to_pylist() for b in fast.columns.board), strict=True)
           for text in player]
    assert got == boards
    theirs = score_records(mine)
    for f in dataclasses.fields(theirs):
        assert np.array_equal(getattr(fast.scores(), f.name), getattr(theirs, f.name)), f.name


@settings(max_examples=examples(12), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(logs(most=12), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_both_ways_store_the_same(tmp_path_factory, monkeypatch, lines, end, bom) -> None:
    tmp: Path = tmp_path_factory.mktemp("both")
    text = ("\ufeff" if bom else "") + end.join(lines) + end
    fast, slow = import_both_ways(tmp, [("hyp.jsonl", text.encode())], monkeypatch)
    assert fast == slow


def test_the_audit_lists_differences_in_file_order_on_both_paths(tmp_path, monkeypatch) -> None:
    """A case Hypothesis found: 2-7 hands whose room points differ, some read by the bulk
    reader and some by the record reader, were listed in storing order, so the two paths'
    reports differed; the audit lists them by line."""
    text = (Path(__file__).parent / "data" / "audit-order-both-paths.jsonl").read_bytes()
    fast, slow = import_both_ways(tmp_path, [("hyp.jsonl", text)], monkeypatch)
    assert fast == slow
    differ = fast[0]["files"][0]["audit"]["differ"]
    assert [d["hand_id"] for d in differ] == ["h1", "h4", "h5"]


def test_the_generated_logs_reach_both_readers() -> None:
    """The strategy's hands are not all taken nor all left by the bulk reader."""
    rng = random.Random(5)
    lines = [fuzz_lib.dumps(fuzz_lib.valid_hand(rng, "hyp", str(k))) for k in range(20)]
    lines += [fuzz_lib.respell(rng, fuzz_lib.valid_hand(rng, "hyp", f"r{k}")) for k in range(20)]
    fast, left = ofc_hh_fast.read_lines([(n, line) for n, line in enumerate(lines, 1)])
    assert len(fast.columns) >= 15 and len(left) >= 5


def test_tournament_hands_store_the_same_both_ways(tmp_path, monkeypatch) -> None:
    """A simulated chip tournament's hands (a ``tournament`` and stacks: the bulk reader
    leaves them to the record reader) among canonical cash hands: both ways store the same
    hand tables and the same tournament tables."""
    from ingest import store
    from ofc_cli.cli import main

    log = tmp_path / "t.jsonl"
    assert main(["simulate", "--variant", "regular", "--tournament", "chips", "--entrants",
                 "4", "--starting-stack", "100", "--seed", "3", "--policies", "random",
                 "--out", str(log)]) == 0
    rng = random.Random(2)
    cash = [fuzz_lib.dumps(fuzz_lib.valid_hand(rng, "hyp", f"c{k}")) for k in range(10)]
    lines = log.read_text(encoding="utf-8").splitlines()
    text = "\n".join(cash[:5] + lines + cash[5:]) + "\n"
    fast, slow = import_both_ways(tmp_path, [("t.jsonl", text.encode())], monkeypatch)
    assert fast == slow
    tables = []
    for way in (True, False):
        con = store.connect(tmp_path / f"{way}.duckdb")
        try:
            tables.append([con.execute(f"SELECT * EXCLUDE ({time}) FROM {t} "
                                       "ORDER BY ALL").fetchall()
                           for t, time in (("tournament_chips", "played_at, hand_key"),
                                           ("tournament_players", "started"))])
        finally:
            con.close()
    assert tables[0] == tables[1] and len(tables[0][0]) > 2 * len(lines)
