"""Where a page run's time goes, measured inside the server when ``OFC_PROFILE`` names a file.

``benchmarks/bench_first_load.py`` starts ``ofc dashboard`` with ``OFC_PROFILE=FILE``; each
page run (``app.py`` wraps it in :func:`page_run`) then appends one JSON line to the file:

- ``page`` (the URL path), ``started`` and ``ended`` (seconds since the epoch), ``wall_ms``,
  ``cpu_ms`` (the run's thread) and ``process_cpu_ms`` (every thread of the server, DuckDB's
  included, over the run);
- ``queries``: each :func:`dashboard.db.query` of the run, ``[name, ms, computed]`` (computed:
  the cache missed and the query ran);
- ``parts``: the run's wall milliseconds by what the run's thread was doing, from a stack
  sample every millisecond or so (each sample stands for the time since the one before):
  ``import`` (Python importing a module, or waiting for the server's warm-up to import it:
  :mod:`dashboard.serve`), ``store`` (opening the store), ``query`` (in
  ``dashboard/queries``, DuckDB and its conversion to pandas included), ``plotly`` (building
  a figure and turning it into JSON), ``widgets`` (the rest of Streamlit: elements, tables
  turned into Arrow, the cache's lookups), ``page`` (everything else: the views' own code).

A stack counts as the first of those (in that order) that any of its frames belongs to. The
sampler is a thread that reads the run thread's stack (``sys._current_frames``); it gets the
interpreter lock at each switch interval, so a run in pure Python is sampled about every 5 ms
and one waiting on DuckDB every millisecond. Without ``OFC_PROFILE`` nothing is measured and
nothing is written: :func:`page_run` and :func:`query_timer` cost one dictionary lookup.

>>> classify(["/x/streamlit/elements/plotly_chart.py", "/x/plotly/basedatatypes.py"])
'plotly'
>>> classify(["/x/dashboard/views/overview.py", "<frozen importlib._bootstrap>"])
'import'
>>> classify(["/x/dashboard/views/overview.py"])
'page'
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

ENV = "OFC_PROFILE"
"""The environment variable naming the file each page run's profile line is appended to."""
SAMPLE_SECONDS = 0.001
PARTS = ("import", "store", "query", "plotly", "widgets", "page")
_SEP = os.sep
_MARKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("import", ("<frozen importlib._bootstrap", f"{_SEP}dashboard{_SEP}serve.py")),
    ("store", (f"{_SEP}ingest{_SEP}store.py", f"{_SEP}ingest{_SEP}upgrade.py")),
    ("query", (f"{_SEP}dashboard{_SEP}queries{_SEP}",)),
    ("plotly", (f"{_SEP}plotly{_SEP}", f"{_SEP}_plotly_utils{_SEP}")),
)
"""The parts a frame anywhere on the stack decides, with the file names that mark them, in
the order they win."""
_WIDGETS = (f"{_SEP}streamlit{_SEP}", f"{_SEP}pyarrow{_SEP}")
_OURS = tuple(f"{_SEP}{package}{_SEP}" for package in ("dashboard", "ingest", "ofc_core"))


def classify(files: Sequence[str]) -> str:
    """The part of :data:`PARTS` a stack (its frames' file names, innermost first) counts
    for: the first of :data:`_MARKS` found on it, else ``widgets`` or ``page`` by the
    innermost frame that is Streamlit's (or pyarrow's, which it calls) or ours (the frames of
    pandas, numpy or the standard library count for whoever called them).

    >>> classify(["/x/pandas/core/frame.py", "/x/dashboard/views/fouls.py",
    ...           "/x/streamlit/runtime/scriptrunner/exec_code.py"])
    'page'
    >>> classify(["/x/streamlit/elements/arrow.py", "/x/dashboard/widgets.py"])
    'widgets'
    """
    for part, marks in _MARKS:
        if any(mark in name for name in files for mark in marks):
            return part
    for name in files:
        if any(mark in name for mark in _WIDGETS):
            return "widgets"
        if any(mark in name for mark in _OURS):
            return "page"
    return "page"


@dataclass
class _Run:
    thread: int
    page: str = ""
    started: float = field(default_factory=time.time)
    wall: float = field(default_factory=time.perf_counter)
    cpu: float = field(default_factory=time.thread_time)
    process: float = field(default_factory=time.process_time)
    queries: list[tuple[str, float, bool]] = field(default_factory=list)
    parts: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PARTS, 0.0))
    stop: threading.Event = field(default_factory=threading.Event)
    sampler: threading.Thread | None = None


_current = threading.local()


def _stack_files(frame: FrameType | None) -> list[str]:
    files = []
    while frame is not None:
        files.append(frame.f_code.co_filename)
        frame = frame.f_back
    return files


def _sample(run: _Run) -> None:
    """Sample ``run``'s thread until the run stops; each sample weighs the time since the
    one before."""
    last = time.perf_counter()
    while not run.stop.wait(SAMPLE_SECONDS):
        frame = sys._current_frames().get(run.thread)
        now = time.perf_counter()
        if frame is not None:
            run.parts[classify(_stack_files(frame))] += now - last
        last = now


def begin() -> None:
    """Start profiling a page run now (when ``OFC_PROFILE`` is set), before the app's own
    imports; :func:`page_run` then carries it on."""
    if os.environ.get(ENV) and getattr(_current, "run", None) is None:
        run = _Run(threading.get_ident())
        run.sampler = threading.Thread(target=_sample, args=(run,), name="ofc-profile",
                                       daemon=True)
        _current.run = run
        run.sampler.start()


@contextmanager
def page_run() -> Iterator[None]:
    """Profile the page run around it (begun here unless :func:`begin` did): one JSON line
    appended to ``OFC_PROFILE``'s file when the run ends, however it ends (``st.stop``, a
    switch of page). Nothing without ``OFC_PROFILE``."""
    target = os.environ.get(ENV)
    begin()
    run: _Run | None = getattr(_current, "run", None)
    if not target or run is None:
        yield
        return
    try:
        yield
    finally:
        _current.run = None
        run.stop.set()
        if run.sampler is not None:
            run.sampler.join()
        _write(Path(target), run)


def name_page(page: str) -> None:
    """Name the page of the run in progress (its URL path), once the app knows it."""
    run: _Run | None = getattr(_current, "run", None)
    if run is not None:
        run.page = page


def _write(path: Path, run: _Run) -> None:
    line = {
        "page": run.page, "started": run.started, "ended": time.time(),
        "wall_ms": round((time.perf_counter() - run.wall) * 1000, 1),
        "cpu_ms": round((time.thread_time() - run.cpu) * 1000, 1),
        "process_cpu_ms": round((time.process_time() - run.process) * 1000, 1),
        "queries": [[name, round(ms, 1), computed] for name, ms, computed in run.queries],
        "parts": {k: round(v * 1000, 1) for k, v in run.parts.items()},
    }
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


@contextmanager
def query_timer(name: str) -> Iterator[None]:
    """Time one ``dashboard.db.query`` of the run in progress (nothing when not profiling);
    :func:`computed`, called inside, says the cache missed."""
    run: _Run | None = getattr(_current, "run", None)
    if run is None:
        yield
        return
    _current.computed = False
    start = time.perf_counter()
    try:
        yield
    finally:
        run.queries.append((name, (time.perf_counter() - start) * 1000,
                            bool(getattr(_current, "computed", False))))


def computed() -> None:
    """The query being timed missed the cache and runs (called by the cached function)."""
    _current.computed = True
