"""Import benchmark: three-handed pineapple hands with full street detail, end to end.

Generates ``--hands`` hands (default 1,000,000) as ofc-hh/1 session files in a temporary folder
(random legal placements, cheap: no bots), imports them into a fresh database through
``ingest.api.import_paths`` (decode, parse, validate, score, store) and prints a last line
of JSON with hands/s (wall and CPU time of the process, which includes DuckDB's threads) and
the peak memory (RSS) of the process.

    python benchmarks/bench_import.py --hands 100000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CARDS = [r + s for r in "23456789TJQKA" for s in "cdhs"]
SLOTS = ["top"] * 3 + ["middle"] * 5 + ["bottom"] * 5
PLAYERS = ("hero", "villain", "Дмитрий")


def _player(rng: random.Random, name: str, seat: int, cards: list[str], hero: bool) -> dict:
    """One player's pineapple hand: 5 placed, then 4 streets of 3 dealt, 2 placed, 1 discarded;
    rows chosen by a random order of the 13 slots (always legal, often fouled)."""
    slots = SLOTS[:]
    rng.shuffle(slots)
    streets = []
    placed = 0
    for street in range(5):
        dealt = cards[:5] if street == 0 else cards[5 + 3 * (street - 1): 8 + 3 * (street - 1)]
        keep = dealt if street == 0 else dealt[:2]
        rows: dict[str, list[str]] = {}
        for card in keep:
            rows.setdefault(slots[placed], []).append(card)
            placed += 1
        entry: dict[str, str] = {}
        if hero:
            entry["dealt"] = " ".join(dealt)
        for row in ("top", "middle", "bottom"):
            if row in rows:
                entry[row] = " ".join(rows[row])
        if hero:
            entry["discard"] = " ".join(dealt[len(keep):])
        streets.append(entry)
    return {"name": name, "seat": seat, "streets": streets}


def hand_line(rng: random.Random, source: str, session: str, number: int,
              when: datetime) -> str:
    deck = CARDS[:]
    rng.shuffle(deck)
    players = [_player(rng, name, seat, deck[17 * seat: 17 * seat + 17], seat == 0)
               for seat, name in enumerate(PLAYERS)]
    hand = {"format": "ofc-hh/1", "source": source, "hand_id": f"{session}-{number}",
            "session_id": session, "played_at": when.isoformat(), "hero": PLAYERS[0],
            "variant": "pineapple", "button": PLAYERS[number % 3], "players": players}
    return json.dumps(hand, ensure_ascii=False)


def generate(folder: Path, hands: int, *, per_file: int = 10_000, seed: int = 1,
             source: str = "bench") -> list[Path]:
    """Write ``hands`` hands as session files of ``per_file`` hands into ``folder``."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    start = datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=1)))
    files = []
    for first in range(0, hands, per_file):
        session = f"s{first // per_file:05d}"
        path = folder / f"{session}.jsonl"
        with path.open("w", encoding="utf-8", newline="\n") as fp:
            for n in range(first, min(first + per_file, hands)):
                fp.write(hand_line(rng, source, session, n, start + timedelta(minutes=n)) + "\n")
        files.append(path)
    return files


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--per-file", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, default=None,
                        help="generate into (and keep) this folder instead of a temp one")
    args = parser.parse_args()

    from ingest.api import import_paths

    work = Path(tempfile.mkdtemp(prefix="ofc-bench-import-"))
    logs = args.keep or work / "logs"
    try:
        t0 = time.perf_counter()
        if not (args.keep and any(logs.glob("*.jsonl"))):
            generate(logs, args.hands, per_file=args.per_file)
        size = sum(p.stat().st_size for p in logs.glob("*.jsonl"))
        t1 = time.perf_counter()
        print(f"generated {args.hands:,} hands ({size / 1e6:,.0f} MB) in {t1 - t0:.1f} s",
              file=sys.stderr)
        cpu = time.process_time()
        report = import_paths([logs], work / "bench.duckdb")
        t2 = time.perf_counter()
        cpu = time.process_time() - cpu
        seconds = t2 - t1
        result = {
            "benchmark": "import",
            "hands": report.hands,
            "stored": report.stored,
            "rejected": report.rejected,
            "files": len(report.files),
            "megabytes": round(size / 1e6, 1),
            "seconds": round(seconds, 2),
            "hands_per_s": round(report.hands / seconds),
            "cpu_seconds": round(cpu, 2),
            "cpu_hands_per_s": round(report.hands / cpu),
            "load_average": round(os.getloadavg()[0], 1),
            "peak_rss_mb": round(peak_rss_mb()),
        }
        print(json.dumps(result))
        return 0 if report.rejected == 0 else 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
