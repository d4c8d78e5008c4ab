"""``ofc dashboard [--db PATH | --parquet DIR] [--port N]``: start the Streamlit dashboard.

On a fresh machine (no database at the path) the database is created first and the committed
demo sample (``data/demo/``) is imported, so the dashboard opens on something to look at; the
app says it is demo data and removes it in one click.

``--parquet DIR`` opens the tables ``ofc spark score`` or ``ofc export --parquet`` wrote
instead, read-only (:func:`ingest.api.open_parquet`): the same pages, every write off. The
folder is checked before the server starts, so a wrong one is a message, not a page error.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path

from dashboard.demo import demo_files, load_demo
from dashboard.uploads import MAX_UPLOAD_MB
from ingest import api, store

APP = Path(__file__).resolve().parent.parent / "dashboard" / "app.py"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=None,
                        help=f"database file (default ${store.DB_ENV} or data/ofc.duckdb)")
    parser.add_argument("--parquet", type=Path, default=None, metavar="DIR",
                        help="read the Parquet tables of `ofc spark score` or `ofc export "
                             "--parquet` in DIR instead of a database (read-only: importing, "
                             "notes, tags and names are off)")
    parser.add_argument("--port", type=int, default=8501, help="port to serve on (8501)")
    parser.add_argument("--address", default="localhost",
                        help="address to listen on (default localhost: only this computer; "
                             "0.0.0.0 shares your results with your network)")


def streamlit_command(db: Path, port: int, address: str | None = None,
                      parquet: Path | None = None) -> list[str]:
    """The ``streamlit run`` command line (headless, no usage statistics), through
    :mod:`dashboard.serve`, which warms the app up while the server starts; over the Parquet
    tables in ``parquet`` when given."""
    cmd = [sys.executable, "-m", "dashboard.serve", "run", str(APP),
           "--server.headless", "true", "--server.port", str(port),
           "--browser.gatherUsageStats", "false",
           "--server.maxUploadSize", str(MAX_UPLOAD_MB),  # the Import page's limit
           "--server.fileWatcherType", "none",
           # no full garbage collection after every run: 0.1-0.3 s of CPU each time, and an
           # open page runs its freshness poll every 2 s (Python's own collector still runs)
           "--runner.postScriptGC", "false",
           "--client.toolbarMode", "minimal"]  # no "Deploy" button: this is a local tool
    if address:
        cmd += ["--server.address", address]
    if parquet is not None:
        return [*cmd, "--", "--parquet", str(parquet)]
    return [*cmd, "--", "--db", str(db)]


def prepare(db: Path) -> None:
    """Create the database with the demo sample when it does not exist yet."""
    if db.exists():
        return
    print(f"Creating {db} with the demo sample ({len(demo_files())} files)...", flush=True)
    con = store.connect(db)
    try:
        ids = load_demo(con)
        (hands,) = con.execute("SELECT count(*) FROM hands").fetchone() or (0,)
        print(f"Loaded {hands} demo hands ({len(ids)} imports). Remove them from the "
              "dashboard when you have imported your own logs.", flush=True)
    finally:
        con.close()


def run_parquet(args: argparse.Namespace) -> int:
    """``--parquet DIR``: check that the folder opens, then serve it read-only."""
    folder = args.parquet.resolve()
    if args.db is not None:
        print("ofc dashboard: give --db or --parquet, not both", file=sys.stderr)
        return 1
    try:
        con = api.open_parquet(folder)
        (hands,) = con.execute("SELECT count(*) FROM hands").fetchone() or (0,)
        con.close()
    except api.StoreError as exc:
        print(f"ofc dashboard: {exc}", file=sys.stderr)
        return 1
    env = {k: v for k, v in os.environ.items() if k != store.DB_ENV}
    env[api.PARQUET_ENV] = str(folder)
    print(f"OFC Analytics dashboard on http://localhost:{args.port} (read-only: {hands:,} hands "
          f"of the Parquet tables in {folder})", flush=True)
    return serve(streamlit_command(folder, args.port, args.address, parquet=folder), env)


def run(args: argparse.Namespace) -> int:
    if args.parquet is not None:
        return run_parquet(args)
    db = (args.db or store.default_db_path()).resolve()
    try:
        prepare(db)
    except store.StoreError as exc:
        print(f"ofc dashboard: {exc}", file=sys.stderr)
        return 1
    env = {**os.environ, store.DB_ENV: str(db)}
    print(f"OFC Analytics dashboard on http://localhost:{args.port} (database {db})", flush=True)
    return serve(streamlit_command(db, args.port, args.address), env)


FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
"""Signals passed on to Streamlit: ``kill``, Ctrl-C, a closed terminal."""

STOP_SECONDS = 20.0
"""How long Streamlit gets to stop after a forwarded signal before it is killed."""


def serve(command: list[str], env: dict[str, str]) -> int:
    """Run Streamlit until it exits; SIGTERM, SIGINT and SIGHUP sent to this process are passed
    on to it and waited for, so a stopped dashboard leaves neither the port nor the database
    held. Exit status: 0 after a signal, else Streamlit's."""
    child = subprocess.Popen(command, env=env)
    received: list[int] = []

    def forward(signum: int, _frame: object) -> None:
        received.append(signum)
        if child.poll() is None:
            child.send_signal(signum)

    previous = {sig: signal.signal(sig, forward) for sig in FORWARDED}
    try:
        while True:
            try:
                code = child.wait(timeout=STOP_SECONDS if received else None)
                break
            except subprocess.TimeoutExpired:
                child.kill()  # it ignored the signal: do not leave it serving
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0 if received else code
