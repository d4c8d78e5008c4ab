"""The bulk ofc-hh/1 path stores exactly what the reference reader stores, and sends every line
it is not sure of back to the reference reader."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from benchmarks.bench_import import hand_line
from ingest import store
from ingest.api import import_files
from ingest.formats import ofc_hh_fast
from tests.helpers.store import PERSPECTIVE_A, PERSPECTIVE_B, import_both_ways

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"
GOLDEN = ROOT / "tests" / "golden" / "import"


def canonical_lines(n: int, seed: int = 1) -> list[str]:
    from datetime import datetime, timedelta, timezone

    rng = random.Random(seed)
    when = datetime(2026, 5, 1, tzinfo=timezone.utc)
    return [hand_line(rng, "fast", "s1", k, when + timedelta(minutes=k)) for k in range(n)]


def test_generated_hands_are_read_by_the_fast_path() -> None:
    lines = canonical_lines(50)
    fast, deferred = ofc_hh_fast.read_lines([(k + 1, line) for k, line in enumerate(lines)])
    assert deferred == [] and len(fast.columns) == 50


def test_a_key_given_twice_is_found_by_a_real_parse_not_by_counting() -> None:
    """Counting ``":`` only flags a line: a name holding ``":`` is still the fast path's, a
    key given twice (which JSON parsers silently merge) goes to the reference reader, at any
    level."""
    line = canonical_lines(1, seed=4)[0]
    quoted = line.replace('"name": "villain"', '"name": "vil\\": lain"')
    twice = line.replace('"source": "fast"', '"source": "fast", "source": "other"')
    deep = line.replace('"seat": 0', '"seat": 0, "seat": 0', 1)
    assert len({line, quoted, twice, deep}) == 4
    fast, deferred = ofc_hh_fast.read_lines(list(enumerate([line, quoted, twice, deep], 1)))
    assert deferred == [2, 3] and len(fast.columns) == 2


def test_samples_store_the_same_both_ways(tmp_path: Path, monkeypatch) -> None:
    files = [(p.name, p.read_bytes()) for p in sorted(SAMPLES.glob("*.jsonl"))]
    files.append(("session.jsonl", (GOLDEN / "session.jsonl").read_bytes()))
    files.append(("gen.jsonl", ("\n".join(canonical_lines(200)) + "\n").encode()))
    fast, slow = import_both_ways(tmp_path, files, monkeypatch)
    assert fast == slow


def mutations(line: str) -> list[str]:
    """Lines one edit away from a canonical one: some still valid, most not, several that a
    lax reader would accept."""
    obj = json.loads(line)
    hero_street = obj["players"][0]["streets"][1]
    out = [
        line.replace('"source": "fast"', '"source": "fast", "source": "other"'),  # twice
        line.replace('"hand_id": ', '"hand_id" : '),
        line.replace('"variant": "pineapple"', '"variant": "regular"'),
        line.replace('"variant": "pineapple"', '"variant": "texas"'),
        line.replace('"hero": "hero"', '"hero": "nobody"'),
        line.replace('"button": "', '"button": "x'),
        line.replace('"seat": 1', '"seat": "1"'),
        line.replace('"seat": 1', '"seat": 0'),
        line.replace('"seat": 1', '"seat": true'),
        line.replace('"name": "villain"', '"name": "hero"'),
        line.replace('"name": "villain"', '"name": "   "'),
        line.replace('"name": "villain"', '"name": "vil\\"lain"'),
        line.replace('"name": "villain"', '"name": "\\u00a0"'),
        line.replace('"name": "villain"', '"name": "a\\": b"'),
        line.replace('"played_at": "2026-05-01T00:00:00+00:00"', '"played_at": "2026-05-01"'),
        line.replace('"played_at": "2026-05-01T00:00:00+00:00"', '"played_at": "yesterday"'),
        line.replace('"session_id": "s1"', '"session_id": ""'),
        line.replace('"session_id": "s1"', '"session_id": 7'),
        line.replace('"hand_id": "s1-0"', '"hand_id": 17'),
        line.replace('"format": "ofc-hh/1"', '"format": "ofc-hh/2"'),
        line.replace('"variant":', '"stake": 0.5, "currency": "EUR", "variant":'),
        line.replace('"variant":', '"stake": true, "variant":'),
        line.replace('"variant":', '"stake": NaN, "variant":'),
        line.replace('"variant":', '"rules": {"scoring": "2-4"}, "variant":'),
        line.replace('"variant":', '"rules": {"scoring": "3-5"}, "variant":'),
        line.replace('"variant":', '"rules": {"cap": null}, "variant":'),
        line.replace('"variant":', '"mystery": 1, "variant":'),
        line.replace('"seat": 0', '"seat": 0, "reported_points": 3'),
        line.replace('"seat": 0', '"seat": 0, "reported_points": "3"'),
        line.replace('"seat": 0', '"seat": 0, "fantasyland": false'),
        line.replace('"seat": 0', '"seat": 0, "fantasyland": 1'),
        line.replace('"seat": 2', '"seat": 2, "surrendered": true'),
        line.replace('"seat": 0', '"seat": 0, "board": null'),
        line.replace('"seat": 0', '"seat": 0, "colour": "red"'),
        line.replace(f'"dealt": "{hero_street["dealt"]}"',
                     f'"dealt": "{hero_street["dealt"].lower()}"'),
        line.replace(f'"dealt": "{hero_street["dealt"]}"',
                     f'"dealt": "{hero_street["dealt"].replace(" ", "  ")}"'),
        line.replace(f'"dealt": "{hero_street["dealt"]}"',
                     f'"dealt": " {hero_street["dealt"]}"'),
        line.replace(f'"dealt": "{hero_street["dealt"]}"', '"dealt": null'),
        line.replace(f'"discard": "{hero_street["discard"]}"', '"discard": null'),
        line.replace(f'"discard": "{hero_street["discard"]}"', '"discard": ""'),
        line.replace(f'"discard": "{hero_street["discard"]}"', '"discard": 7'),
        line.replace(f'"dealt": "{hero_street["dealt"]}"', '"dealt": ["Ah"]'),
        line.replace(f'"dealt": "{hero_street["dealt"]}"',
                     f'"dealt": "{hero_street["dealt"][:-3]}"'),
        line.replace("}]}, {", "}], \"board\": {\"top\": \"\"}}, {", 1),
        line.replace('"streets": [{', '"streets": [{"dealt": null, ', 1),
        line.replace('{"dealt"', '{"top": null, "dealt"', 1),
        line.replace('"players": [', '"players": [], "x": [', 1),
        line[:-1],
        line + " ",
        "\ufeff" + line,
        line.replace("Ah", "A♥"),
        line.replace("Th", "10h"),
        line.replace("Kd", "Kd", 1) + "\r",
    ]
    return [m for m in out if m != line]


def test_mutated_lines_store_the_same_both_ways(tmp_path: Path, monkeypatch) -> None:
    base = canonical_lines(3, seed=9)
    lines = []
    for line in base:
        lines.append(line)
        lines += mutations(line)
    text = "\n".join(lines) + "\n"
    fast, slow = import_both_ways(tmp_path, [("mut.jsonl", text.encode())], monkeypatch)
    assert fast == slow
    assert fast[0]["rejected"] > 20 and fast[0]["stored"] >= 3


@pytest.mark.parametrize("seed", range(3))
def test_random_byte_edits_store_the_same_both_ways(tmp_path: Path, monkeypatch,
                                                    seed: int) -> None:
    rng = random.Random(seed)
    lines = []
    for line in canonical_lines(60, seed=seed):
        k = rng.randrange(len(line))
        edit = rng.choice(["delete", "swap", "dup"])
        if edit == "delete":
            line = line[:k] + line[k + 1:]
        elif edit == "swap" and k + 1 < len(line):
            line = line[:k] + line[k + 1] + line[k] + line[k + 2:]
        else:
            line = line[:k] + line[k] + line[k:]
        lines.append(line)
    text = "\n".join(lines)  # no final newline: the last line may be partial
    fast, slow = import_both_ways(tmp_path, [("edits.jsonl", text.encode())], monkeypatch)
    assert fast == slow


def test_two_perspectives_merge_the_same_both_ways(tmp_path: Path, monkeypatch) -> None:
    files = [("a.jsonl", (PERSPECTIVE_A + "\n").encode()),
             ("b.jsonl", (PERSPECTIVE_B + "\n").encode()),
             ("a.jsonl", (PERSPECTIVE_A + "\n" + PERSPECTIVE_A + "\n").encode())]
    fast, slow = import_both_ways(tmp_path, files, monkeypatch)
    assert fast == slow
    assert [f["merged"] for f in fast[0]["files"]] == [0, 1, 0]


def test_files_commit_in_order_and_import_settings_are_restored(tmp_path: Path) -> None:
    """Each file commits on a worker while the next one is parsed: the reports, the ledger and
    the hand keys still follow the files' order, a bad file between good ones changes nothing
    else, and DuckDB's threads and checkpoint threshold are given back after the import."""
    lines = canonical_lines(30, seed=5)
    files = [("a.jsonl", "\n".join(lines[:10]).encode() + b"\n"),
             ("bad.jsonl", b"\xff\xfe\xfd not a log"),
             ("b.jsonl", "\n".join(lines[10:20]).encode() + b"\n"),
             ("c.jsonl", "\n".join(lines[20:]).encode() + b"\n")]
    con = store.connect(tmp_path / "order.duckdb")
    try:
        con.execute("SET checkpoint_threshold = '20MB'")
        con.execute("SET threads = 2")
        before = con.execute("SELECT current_setting('checkpoint_threshold'), "
                             "current_setting('threads')").fetchone()
        report = import_files(files, con)
        after = con.execute("SELECT current_setting('checkpoint_threshold'), "
                            "current_setting('threads')").fetchone()
        ledger = con.execute("SELECT path, stored FROM imports ORDER BY import_id").fetchall()
        ids = [r[0] for r in con.execute("SELECT hand_id FROM hands ORDER BY hand_key")
               .fetchall()]
    finally:
        con.close()
    assert after == before
    assert [f.path for f in report.files] == ["a.jsonl", "bad.jsonl", "b.jsonl", "c.jsonl"]
    assert [f.stored for f in report.files] == [10, 0, 10, 10]
    assert report.files[1].unreadable
    assert ledger == [("a.jsonl", 10), ("bad.jsonl", 0), ("b.jsonl", 10), ("c.jsonl", 10)]
    assert ids == [json.loads(line)["hand_id"] for line in lines]
