"""The import fuzzed, seeded and small (``benchmarks/fuzz_import.py`` is the same at 100,000
hands): valid hands written in every way the docs allow, broken ones in every way they forbid
(:mod:`benchmarks.fuzz_lib`); nothing escapes, every broken hand is reported at its line, every
valid hand is stored with the result ``ofc score`` gives for its canonical spelling, importing
again stores nothing, rescoring changes nothing."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from benchmarks import fuzz_lib
from ingest.formats import ofc_hh_fast
from ingest.formats.encoding import decode_bytes

CHUNK = 40
"""The importer's chunk of lines in these runs: several chunks per file, so the first hand of
a chunk is fuzzed too."""


@pytest.fixture(scope="module")
def corpus() -> fuzz_lib.Corpus:
    return fuzz_lib.build(240, seed=12, per_file=110, chunk=CHUNK)


def test_the_corpus_holds_every_edit_and_both_paths(corpus: fuzz_lib.Corpus) -> None:
    """The fuzz below cannot pass by generating nothing hard: every forbidden edit is made,
    the first hand of every file and chunk is edited, and the bulk reader takes some hands
    and leaves others (respelled) to the record reader."""
    kinds = Counter(k for e in corpus.expected.values() for k in e.broken.values())
    assert set(kinds) >= set(fuzz_lib.FORBIDDEN) | {"bad first card"}
    taken = deferred = 0
    for name, data in corpus.files:
        exp = corpus.expected[name]
        if exp.refused_line is not None:
            continue
        lines = decode_bytes(data, name).split("\n")[:-1]
        starts = set(range(1, len(lines) + 1, CHUNK))
        assert starts <= set(exp.broken) | set(exp.valid)
        fast, left = ofc_hh_fast.read_lines([(n, line) for n, line in enumerate(lines, 1)
                                             if line.strip()])
        taken += len(fast.columns)
        deferred += len(left)
    assert taken > 50 and deferred > 100


def test_the_import_survives_the_fuzz(corpus: fuzz_lib.Corpus, tmp_path: Path) -> None:
    outcome = fuzz_lib.run(corpus, tmp_path, chunk=CHUNK)
    assert (outcome.crashes, outcome.mismatches) == (0, 0), "\n".join(outcome.problems)
    assert outcome.hands == 240 and outcome.broken > 40


def test_a_generated_hand_is_valid_in_every_spelling() -> None:
    """The generator's hands are valid as written and once respelled (else the fuzz would
    count a generator bug as the importer's)."""
    from ingest.formats.ofc_hh import loads_line, record_from_dict

    rng = random.Random(3)
    for k in range(60):
        hand = fuzz_lib.valid_hand(rng, "home", str(k))
        record = record_from_dict(loads_line(fuzz_lib.dumps(hand)))
        again = record_from_dict(loads_line(fuzz_lib.respell(rng, hand)))
        assert again.players == record.players, json.dumps(hand)
