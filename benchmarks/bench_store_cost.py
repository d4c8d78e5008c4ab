"""What storing a hand in DuckDB costs, table by table: the floor under the import benchmark.

Generates ``--hands`` three-handed pineapple hands with full street detail (the generator of
``bench_import.py``), reads them through the import's bulk path
(``ingest.formats.ofc_hh_fast``: parse,
check, score, Arrow tables) and then, on one DuckDB thread, inserts each table ``--repeat``
times into a fresh database (one transaction each) and checkpoints it, timing CPU per hand:

- **stored layout**: the tables the importer writes (``ingest/schema.sql``);
- **compact layout**: the same content as compact as we can think of (cards as 52-bit masks,
  a player's three rows as columns of one row per player, placements as masks): a lower bound
  for any schema holding what issue #3 asks (raw text, hands, players, rows, pairs,
  placements);
- **front of the import**: sha256, UTF-8 decoding and ``orjson.loads`` alone (collector
  paused), the least any reader of ofc-hh/1 must do per hand.

The last line is one JSON object, with the cores each figure would take at 50,000 hands/s.

    python benchmarks/bench_store_cost.py [--hands 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

import duckdb
import numpy as np
import orjson
import pyarrow as pa
import pyarrow.compute as pc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_import import ROOT, generate  # noqa: E402

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ingest import store  # noqa: E402
from ingest.formats import ofc_hh_fast  # noqa: E402
from ingest.hand_tables import build_tables, insert_tables  # noqa: E402

TARGET = 50_000
"""Hands per second asked by issue #3."""


def stored_tables(text: str) -> dict[str, pa.Table]:
    """The importer's tables for every line of ``text`` (all must pass the bulk path)."""
    lines = [(n, line) for n, line in enumerate(text.split("\n"), start=1) if line.strip()]
    fast, deferred = ofc_hh_fast.parse_lines(lines).finish()
    if deferred:
        raise SystemExit(f"{len(deferred)} generated lines left the bulk path")
    n = len(fast.columns)
    return build_tables(fast.columns, np.arange(1, n + 1, dtype=np.int64),
                        np.ones(n, np.int64), fast.scores())


def compact_tables(tables: Mapping[str, pa.Table], rng: np.random.Generator,
                   ) -> dict[str, pa.Table]:
    """The same content in the most compact layout we know (masks stand in for the cards:
    random values, which compress no better than real ones)."""
    hands, players, rows = tables["hands"], tables["hand_players"], tables["hand_rows"]
    n = hands.num_rows
    for name in ("top", "middle", "bottom"):
        row = rows.filter(pc.equal(rows["row_name"], name))
        players = players.append_column(f"{name}_cards", pa.array(
            rng.integers(0, 1 << 52, row.num_rows)))
        players = players.append_column(f"{name}_strength", row["strength"])
        players = players.append_column(f"{name}_royalty", row["royalty"])
    streets = tables["placements"].num_rows // n
    placements = pa.table({
        "hand_key": pa.array(np.repeat(np.arange(n), streets)),
        "seat": pa.array(tables["placements"]["seat"]),
        "street": pa.array(tables["placements"]["street"]),
        **{c: pa.array(rng.integers(0, 1 << 52, n * streets))
           for c in ("dealt", "top", "middle", "bottom", "discard")}})
    return {"hands": hands, "hand_players": players, "pairs": tables["pairs"],
            "placements": placements}


def storage_cost(con: duckdb.DuckDBPyConnection, name: str, table: pa.Table, hands: int,
                 repeat: int) -> tuple[float, float]:
    """CPU us per hand to insert ``table`` (``repeat`` transactions) and to checkpoint it,
    into the table ``name`` (created from ``table`` unless the schema has it)."""
    con.register("_bench_new", table)
    con.execute(f"CREATE TABLE IF NOT EXISTS {name} AS SELECT * FROM _bench_new LIMIT 0")
    con.unregister("_bench_new")
    insert_tables(con, {name: table})  # warm: the first row groups
    con.execute("CHECKPOINT")
    start = time.process_time()
    for _ in range(repeat):
        con.execute("BEGIN")
        insert_tables(con, {name: table})
        con.execute("COMMIT")
    inserted = time.process_time()
    con.execute("CHECKPOINT")
    done = time.process_time()
    per = 1e6 / (hands * repeat)
    return (inserted - start) * per, (done - inserted) * per


def layout_cost(tables: Mapping[str, pa.Table], hands: int, repeat: int, work: Path,
                label: str, schema: bool) -> dict[str, dict[str, float]]:
    out = {}
    for name, table in tables.items():
        if table.num_rows == 0:
            continue
        path = work / f"{label}-{name}.duckdb"
        con = store.connect(path) if schema else duckdb.connect(str(path))
        try:
            con.execute("SET threads = 1")
            con.execute("SET checkpoint_threshold = '1GB'")
            insert, checkpoint = storage_cost(con, name, table, hands, repeat)
        finally:
            con.close()
        out[name] = {"rows_per_hand": round(table.num_rows / hands, 1),
                     "insert_us": round(insert, 1), "checkpoint_us": round(checkpoint, 1),
                     "total_us": round(insert + checkpoint, 1)}
        print(f"{label:8} {name:13} {table.num_rows / hands:5.1f} rows/hand  insert "
              f"{insert:5.1f}  checkpoint {checkpoint:5.1f}  total {insert + checkpoint:5.1f} "
              "us/hand", file=sys.stderr)
    return out


def front_cost(data: bytes, hands: int) -> dict[str, float]:
    """CPU us per hand of hashing, decoding and ``orjson.loads`` (best of three)."""
    text = data.decode()
    lines = [line for line in text.split("\n") if line]
    steps = {"sha256_us": lambda: hashlib.sha256(data).hexdigest(),
             "decode_us": data.decode,
             "orjson_loads_us": lambda: [orjson.loads(line) for line in lines]}
    out = {}
    gc.disable()
    try:
        for name, step in steps.items():
            best = float("inf")
            for _ in range(3):
                start = time.process_time()
                step()
                best = min(best, time.process_time() - start)
            out[name] = round(best * 1e6 / hands, 2)
    finally:
        gc.enable()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ofc-bench-store-") as tmp:
        work = Path(tmp)
        generate(work / "logs", args.hands, per_file=args.hands)
        data = next((work / "logs").glob("*.jsonl")).read_bytes()
        tables = stored_tables(data.decode())
        hands = tables["hands"].num_rows
        stored = layout_cost(tables, hands, args.repeat, work, "stored", schema=True)
        compact = layout_cost(compact_tables(tables, np.random.default_rng(1)), hands,
                              args.repeat, work, "compact", schema=False)
        front = front_cost(data, hands)
    stored_us = sum(t["total_us"] for t in stored.values())
    compact_us = sum(t["total_us"] for t in compact.values())
    front_us = sum(front.values())
    result = {
        "benchmark": "store_cost", "hands": hands, "repeat": args.repeat,
        "stored_layout_us_per_hand": round(stored_us, 1),
        "compact_layout_us_per_hand": round(compact_us, 1),
        "front_us_per_hand": round(front_us, 1),
        "cores_at_target": {
            "stored_layout": round(stored_us * TARGET / 1e6, 2),
            "compact_layout": round(compact_us * TARGET / 1e6, 2),
            "compact_layout_and_front": round((compact_us + front_us) * TARGET / 1e6, 2),
        },
        "machine_cores": os.cpu_count(), "target_hands_per_s": TARGET,
        "load_average": round(os.getloadavg()[0], 2),
        "stored": stored, "compact": compact, "front": front,
    }
    print(f"storage, stored layout: {stored_us:.1f} us CPU a hand; compact layout: "
          f"{compact_us:.1f}; hashing, decoding and orjson.loads: {front_us:.1f}. At "
          f"{TARGET:,} hands/s: {result['cores_at_target']['stored_layout']} cores, "
          f"{result['cores_at_target']['compact_layout']} cores, "
          f"{result['cores_at_target']['compact_layout_and_front']} cores with the front "
          f"(this machine has {os.cpu_count()})", file=sys.stderr)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
