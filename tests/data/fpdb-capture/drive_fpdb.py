"""Feed a session of our simulated hands, as SwC frames, to FPDB's own capture code, so that
FPDB's writers make ``raw_messages.jsonl``, its ``hand_<gi>.json`` files and its SQLite
database (the exact command and FPDB's commit: ``PROVENANCE.md`` beside this file).

Run from the OFC Analytics checkout, with a checkout of FPDB (``jejellyroll-fr/fpdb-3``) on the
path and ``HOME`` pointing at a scratch folder (FPDB's capture writes under
``~/Documents/SwC Poker/Capture/``)::

    HOME=/tmp/fpdb-home PYTHONPATH=$PWD:/path/to/fpdb-3 python \
        tests/data/fpdb-capture/drive_fpdb.py tests/data/fpdb-capture

This script is ours; nothing of FPDB is kept in this repository but what its code wrote.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import zipfile
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

from ingest.formats.ofc_hh import dumps_record
from tests.reallogs_fixtures import swc_hand_id
from tests.swc_stream import ENDPOINT, capture_session

RESTART_AT = 1500
"""The frame before which FPDB's capture is restarted (a new process: a new archive whose
sequence starts at 1 again, a new adapter that knows no hand)."""
LOST = 20
"""Frames the client received while the capture was down (never written)."""


def main(out: Path) -> None:
    from fpdb_3_legacy import swc_http_capture as capture  # FPDB's capture module
    from fpdb_3_legacy.http_capture_archive import JsonlRawCaptureArchive
    from fpdb_3_legacy.http_capture_db_import import import_http_capture_directory
    from fpdb_3_legacy.swc_http_adapter import SwCHttpAdapter

    folder = Path(capture.output_dir)
    for old in folder.glob("*"):
        old.unlink()
    capture.raw_archive = JsonlRawCaptureArchive(folder)
    clock = iter(datetime(2026, 11, 20, 18, 0, tzinfo=timezone.utc) + timedelta(seconds=2 * k)
                 for k in range(10**6))
    capture.utc_now_iso = lambda: next(clock).isoformat().replace("+00:00", "Z")
    hands, frames = capture_session()
    for k, frame in enumerate(frames):
        if RESTART_AT <= k < RESTART_AT + LOST:
            continue
        if k == RESTART_AT + LOST:
            capture.raw_archive = JsonlRawCaptureArchive(folder)
            capture.adapter = SwCHttpAdapter()
        capture.process_websocket_payload(frame.payload, ENDPOINT, direction=frame.direction)
    db = sqlite3.connect(folder / "fpdb.db3")
    results = import_http_capture_directory(db, folder)
    db.close()
    print(f"{len(frames)} frames, {len(list(folder.glob('hand_*.json')))} hand files, "
          f"{len(results)} rows in fpdb.db3")
    out.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out / "capture.zip", "w", zipfile.ZIP_DEFLATED,
                         compresslevel=9) as z:
        for path in sorted(folder.iterdir()):
            z.write(path, f"Capture/{path.name}")
    truth = [replace(r, source="swc", hand_id=str(swc_hand_id(r))) for r in hands]
    (out / "truth.jsonl").write_text("".join(dumps_record(r) + "\n" for r in truth),
                                     encoding="utf-8")
    summary = {"hands": len(hands), "frames": len(frames), "restart_at": RESTART_AT,
               "lost": LOST}
    print(json.dumps(summary))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
