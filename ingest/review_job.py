"""The review job: one review of a store at a time, in a process of its own, that the dashboard
and ``ofc review`` both see.

A review takes seconds a hand (rollouts), so it never runs in a page's script thread: the page
(or an import with the auto-review setting on) starts an ``ofc review`` process with
:func:`start`, and ``ofc review`` run from a terminal is the same kind of job. Beside the store
``ofc.duckdb`` three small files hold the job:

- ``ofc.duckdb.review.lock``: an exclusive ``flock`` held by the reviewing process for its whole
  life (released by the system if it dies). One review at a time per store: a second one is
  refused with :class:`ReviewBusy`, whose message says who runs the first and how far it is.
  :func:`start` takes the lock itself and hands it to the process it starts (an inherited file
  descriptor, named by ``$OFC_REVIEW_LOCK_FD``), so no second job can slip in between.
- ``ofc.duckdb.review.json``: the job's status (:class:`JobStatus`: who started it, whose
  hands, the policy and precision, hands done of the total, decisions stored, its state),
  rewritten after each hand; a page reads it at each run, so the progress shows after a reload
  and in every tab.
- ``ofc.duckdb.review.cancel``: asks the job to stop (:func:`cancel`). The job looks for it
  after each hand, stores the decisions it has reviewed and ends "cancelled": what is stored
  stays stored (the next review goes on from there).

The job writes the store only to store decisions (a short transaction every
:data:`WRITE_EVERY_SECONDS` or so), so the dashboard's pages read in between and show the
decisions as they are stored.

The auto-review setting (:func:`auto_review`, :func:`set_auto_review`) is kept in the store's
``meta`` table, off by default.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> db = folder / "ofc.duckdb"
>>> read_status(db) is None
True
>>> with claim(db, JobStatus(player="ann", origin="command", total=3)) as job:
...     job.progress(1, 2)
...     busy = read_status(db)
...     try:
...         with claim(db, JobStatus(player="bob", origin="dashboard")):
...             pass
...     except ReviewBusy as exc:
...         refused = str(exc)
>>> busy.running, busy.done, busy.decisions
(True, 1, 2)
>>> refused.startswith("a review is already running on")
True
>>> final = read_status(db)
>>> final.running, final.state
(False, 'done')
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

import duckdb

from . import store

LOCK_FD_ENV = "OFC_REVIEW_LOCK_FD"
"""The file descriptor of the job's lock handed to the process :func:`start` starts."""
WRITE_EVERY_SECONDS = 10.0
"""A job stores its reviewed hands' decisions at least this often (and at the end). A write
opens the store, replaces the decisions and checkpoints as it closes, about 0.1 CPU s: every
2 s that was 6% of a review's CPU (150 hands: 22 writes, 2.8 of 46 CPU s), every 10 s under 2%
(6 writes, 0.7 s). The progress (hands done) is still written after each hand."""
AUTO_KEY = "auto_review"
"""The ``meta`` key of the auto-review setting ('on' or absent)."""
STATES = ("starting", "running", "done", "cancelled", "failed")
"""A job's states: the first two while it runs."""


class ReviewBusy(Exception):
    """Another review of the same store is running (the message says whose and how far)."""


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".review.lock")


def status_path(db: Path) -> Path:
    return db.with_name(db.name + ".review.json")


def cancel_path(db: Path) -> Path:
    return db.with_name(db.name + ".review.cancel")


def todo_path(db: Path) -> Path:
    """The hands a started job reviews (:func:`start` writes them, ``ofc review --todo``
    reads them)."""
    return db.with_name(db.name + ".review.todo")


@dataclass(frozen=True, slots=True)
class JobStatus:
    """What a review job is doing (or did last). ``origin``: ``'dashboard'`` (the Review or
    Import page's button), ``'auto'`` (the auto-review setting, after an import) or
    ``'command'`` (``ofc review`` in a terminal). ``running`` is read from the lock, never
    from the file (a job killed without a word is not running)."""

    player: str = ""
    origin: str = "command"
    policy: str = ""
    precision: str = ""
    total: int = 0
    done: int = 0
    decisions: int = 0
    state: str = "starting"
    message: str = ""
    pid: int = 0
    started_at: float = 0.0
    updated_at: float = 0.0
    running: bool = False

    def seconds_left(self) -> float | None:
        """The time left at the rate so far (``None`` before the first hand).

        >>> JobStatus(total=10, done=4, started_at=0.0, updated_at=8.0).seconds_left()
        12.0
        """
        if self.done <= 0 or self.updated_at <= self.started_at:
            return None
        return (self.updated_at - self.started_at) / self.done * (self.total - self.done)

    @property
    def starter(self) -> str:
        """Who started the job, in words.

        >>> JobStatus(origin="auto").starter
        'the auto-review after an import'
        """
        return {"dashboard": "the dashboard", "auto": "the auto-review after an import"}.get(
            self.origin, "ofc review")

    def line(self) -> str:
        """The job in one line.

        >>> JobStatus(player="ann", total=37, done=12, decisions=70, started_at=0.0,
        ...           updated_at=30.0, running=True, state="running", policy="learned",
        ...           precision="0.5 points").line().split("; ")
        ["reviewing ann's hands: 12 of 37 done, about 1 min left (70 decisions stored", \
'policy learned, precision 0.5 points', 'started by ofc review)']
        """
        if self.running:
            left = self.seconds_left()
            head = (f"reviewing {self.player}'s hands: {self.done:,} of {self.total:,} done"
                    + (f", about {duration(left)} left" if left is not None else ""))
        else:
            head = {"done": "the last review is done", "cancelled": "the last review was "
                    "cancelled", "failed": "the last review failed"}.get(
                        self.state, "the last review ended without a word (stopped?)")
            head += f": {self.player}'s hands, {self.done:,} of {self.total:,} reviewed"
        details = [f"{self.decisions:,} decisions stored"]
        if self.policy:
            details.append(f"policy {self.policy}, precision {self.precision}")
        details.append(f"started by {self.starter}")
        tail = f": {self.message}" if self.message and not self.running else ""
        return f"{head} ({'; '.join(details)}){tail}"


def duration(seconds: float) -> str:
    """A time left in words.

    >>> duration(40), duration(75), duration(3 * 3600 + 60)
    ('40 s', '1 min', '3 h 1 min')
    """
    if seconds < 60:
        return f"{max(1, round(seconds))} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"


def read_status(db: Path) -> JobStatus | None:
    """The store's running or last review job (``None``: none ever ran, or its file is
    unreadable)."""
    try:
        data = json.loads(status_path(db).read_text(encoding="utf-8"))
        known = {f.name for f in fields(JobStatus)}
        found = JobStatus(**{k: v for k, v in data.items() if k in known})
    except (OSError, ValueError, TypeError):
        return None
    return replace(found, running=store.lock_held(lock_path(db)))


def _write_status(db: Path, status: JobStatus) -> None:
    """Replace the status file at once (a reader never sees half of it)."""
    target = status_path(db)
    part = target.with_name(f"{target.name}.{os.getpid()}")
    data = asdict(status)
    data.pop("running")
    part.write_text(json.dumps(data), encoding="utf-8")
    os.replace(part, target)


def busy_message(db: Path, status: JobStatus | None) -> str:
    """What a second review is told."""
    what = status.line() if status is not None else "its status is not known yet"
    return (f"a review is already running on {db.name}: {what}. One review at a time per "
            "store: wait for it (ofc review --status), or cancel it on the dashboard's Review "
            "page.")


def _take_lock(db: Path) -> int:
    """The job lock's descriptor, held exclusively (:class:`ReviewBusy` when held)."""
    fd = os.open(lock_path(db), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise ReviewBusy(busy_message(db, read_status(db))) from None
    return fd


def _inherited(db: Path) -> int | None:
    """The job lock handed over by :func:`start` (``$OFC_REVIEW_LOCK_FD``), if it is this
    store's."""
    value = os.environ.pop(LOCK_FD_ENV, "")
    if not value.isdigit():
        return None
    fd = int(value)
    try:
        same = os.fstat(fd).st_ino == os.stat(lock_path(db)).st_ino
    except OSError:
        return None
    if not same:
        os.close(fd)
        return None
    return fd


class Job:
    """A running review's handle: :meth:`progress` after each hand, :meth:`cancelled` to
    look whether it was asked to stop; made by :func:`claim`."""

    def __init__(self, db: Path, status: JobStatus, fd: int) -> None:
        self.db = db
        self.status = status
        self.fd = fd

    def begin(self, total: int, policy: str = "", precision: str = "") -> None:
        """The hands to review are known: the job is running."""
        self._save(replace(self.status, total=total, state="running",
                           policy=policy or self.status.policy,
                           precision=precision or self.status.precision))

    def progress(self, done: int, decisions: int) -> None:
        """``done`` hands reviewed so far, ``decisions`` stored."""
        self._save(replace(self.status, done=done, decisions=decisions, state="running"))

    def cancelled(self) -> bool:
        return cancel_path(self.db).exists()

    def end(self, state: str, message: str = "") -> None:
        self._save(replace(self.status, state=state, message=message))

    def _save(self, status: JobStatus) -> None:
        self.status = replace(status, updated_at=time.time())
        _write_status(self.db, self.status)


@contextmanager
def claim(db: Path, status: JobStatus) -> Iterator[Job]:
    """Hold the store's one review job for the ``with`` block (the lock handed over by
    :func:`start`, else taken here: :class:`ReviewBusy` if another job holds it). The job
    ends 'done' after the block, 'cancelled' if it was asked to stop, 'failed' (with the
    error's words) if the block raised."""
    db = Path(db)
    fd = _inherited(db)
    if fd is None:
        fd = _take_lock(db)
    elif not status.player:  # started by start(): whose hands, as its starter named them
        earlier = read_status(db)
        status = replace(status, player=earlier.player if earlier else "the listed players")
    cancel_path(db).unlink(missing_ok=True)
    job = Job(db, replace(status, pid=os.getpid(), started_at=time.time(), state="starting"), fd)
    try:
        job._save(job.status)
        yield job
    except BaseException as exc:
        stopped = isinstance(exc, KeyboardInterrupt)
        job.end("cancelled" if stopped else "failed",
                "interrupted" if stopped else (str(exc) or type(exc).__name__))
        raise
    else:
        if job.status.state in ("starting", "running"):
            job.end("cancelled" if job.cancelled() else "done")
    finally:
        cancel_path(db).unlink(missing_ok=True)
        os.close(fd)


def cancel(db: Path) -> bool:
    """Ask the running job to stop after the hand it reviews (``False``: none runs)."""
    status = read_status(db)
    if status is None or not status.running:
        return False
    cancel_path(db).touch()
    return True


def start(db: Path, command: Sequence[str], seats: Sequence[tuple[str, str, str]] | None,
          status: JobStatus) -> JobStatus:
    """Start ``command`` (an ``ofc review`` process; ``--todo FILE`` is added unless ``seats``
    is ``None``) in a session of its own to review ``seats`` (``(source, hand_id, player)``),
    handing it the job lock;
    :class:`ReviewBusy` when a job runs. Its output goes to ``ofc.duckdb.review.log``.
    The status it starts with is written before this returns, so a page run right after
    sees the job."""
    db = Path(db)
    fd = _take_lock(db)
    try:
        todo = todo_path(db)
        listed = [] if seats is None else ["--todo", str(todo)]
        if seats is not None:
            todo.write_text("".join(json.dumps(list(s)) + "\n" for s in seats),
                            encoding="utf-8")
        cancel_path(db).unlink(missing_ok=True)
        first = replace(status, total=len(seats or ()), state="starting", started_at=time.time(),
                        updated_at=time.time())
        env = dict(os.environ, **{LOCK_FD_ENV: str(fd)})
        log = db.with_name(db.name + ".review.log")
        with open(log, "wb") as out:
            child = subprocess.Popen([*command, *listed], pass_fds=(fd,), env=env,
                                     stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                     start_new_session=True)
        first = replace(first, pid=child.pid)
        _write_status(db, first)
    finally:
        os.close(fd)  # the child holds the lock now
    return replace(first, running=True)


def read_todo(path: Path) -> list[tuple[str, str, str]]:
    """The seats written by :func:`start` (``ValueError`` naming the line when one is not a
    ``[source, hand_id, player]`` list)."""
    seats = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        item = json.loads(line)
        if not (isinstance(item, list) and len(item) == 3
                and all(isinstance(v, str) for v in item)):
            raise ValueError(f"{path}: line {number}: not a [source, hand_id, player] list")
        seats.append((item[0], item[1], item[2]))
    return seats


def stop_now(db: Path) -> None:
    """End the running job's process at once (SIGTERM to its session): for tests and for a
    job that does not answer :func:`cancel`."""
    status = read_status(db)
    if status is not None and status.running and status.pid:
        try:
            os.killpg(status.pid, signal.SIGTERM)
        except OSError:
            pass


def auto_review(con: duckdb.DuckDBPyConnection) -> int | None:
    """The first import the auto-review setting covers (``None``: the setting is off, as by
    default): hands stored by this import or a later one are reviewed after each import and
    watched file."""
    row = con.execute("SELECT value FROM meta WHERE key = ?", [AUTO_KEY]).fetchone()
    return int(row[0]) if row is not None and str(row[0]).isdigit() else None


def set_auto_review(con: duckdb.DuckDBPyConnection, on: bool) -> None:
    """Turn the auto-review setting on (for the hands of imports from the next one) or off."""
    con.execute("DELETE FROM meta WHERE key = ?", [AUTO_KEY])
    if on:
        row = con.execute("SELECT coalesce(max(import_id), 0) + 1 FROM imports").fetchone()
        con.execute("INSERT INTO meta (key, value) VALUES (?, ?)",
                    [AUTO_KEY, str(row[0] if row else 1)])


def auto_seats(con: duckdb.DuckDBPyConnection, version: str) -> list[tuple[str, str, str]]:
    """What the auto-review reviews: the seats of my names (``my_names``, each in its
    source or in all) in hands stored since the setting was turned on (:func:`auto_review`),
    that a review can value (no stored reason not to) and that have no decision of this
    ``version`` yet, oldest first (none when the setting is off)."""
    since = auto_review(con)
    if since is None:
        return []
    rows = con.execute("""
        SELECT h.source, h.hand_id, hp.player FROM hands h
        JOIN hand_players hp ON hp.hand_key = h.hand_key
        JOIN my_names m ON m.name = hp.player AND (m.source IS NULL OR m.source = h.source)
        WHERE h.import_id >= ? AND coalesce(hp.review_reason, 0) = 0
          AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.source = h.source
                          AND d.hand_id = h.hand_id AND d.player = hp.player
                          AND d.version = ?)
        ORDER BY h.played_at NULLS FIRST, h.hand_key, hp.player""", [since, version]).fetchall()
    return list(dict.fromkeys((str(s), str(h), str(p)) for s, h, p in rows))


def after_import(db: Path, command: Sequence[str], on: bool) -> JobStatus | None:
    """After an import (``on``: the caller read :func:`auto_review` as set): start the
    auto-review job, ``command --auto`` (it finds its hands itself, :func:`auto_seats`,
    and goes on while new ones arrive); ``None`` when the setting is off or a job runs
    already (its hands are then reviewed by the next one: the setting covers every import
    since it was turned on)."""
    if not on or store.lock_held(lock_path(db)):
        return None
    try:
        return start(db, [*command, "--auto"], None,
                     JobStatus(player="my names", origin="auto"))
    except ReviewBusy:
        return None


def imported_seats(con: duckdb.DuckDBPyConnection, import_ids: Sequence[int],
                   players: Sequence[str], version: str) -> list[tuple[str, str, str]]:
    """The seats of ``players`` (my names) in the hands of these imports that a review could
    value (no stored reason not to) and that have no decision of this ``version`` yet,
    oldest first: what the Import page's "Review my new hands" sends to the job."""
    if not import_ids or not players:
        return []
    rows = con.execute("""
        SELECT h.source, h.hand_id, hp.player FROM hands h
        JOIN hand_players hp ON hp.hand_key = h.hand_key
        WHERE h.import_id IN (SELECT unnest(?::BIGINT[]))
          AND hp.player IN (SELECT unnest(?::VARCHAR[]))
          AND coalesce(hp.review_reason, 0) = 0
          AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.source = h.source
                          AND d.hand_id = h.hand_id AND d.player = hp.player
                          AND d.version = ?)
        ORDER BY h.played_at NULLS FIRST, h.hand_key""",
                       [list(import_ids), list(players), version]).fetchall()
    return [(str(s), str(h), str(p)) for s, h, p in rows]
