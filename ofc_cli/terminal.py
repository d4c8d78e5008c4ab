"""What the commands write to a terminal: progress bars and text from files made harmless.

:class:`Progress` is the progress bar of the long commands (``ofc import``, ``ofc simulate``,
``ofc review``, ``ofc rescore``), drawn by tqdm on standard error: what is done of the total,
the rate, the time spent and the time left, and a short note (the file being read). It draws
only when its stream is a terminal: piped, redirected or in CI it writes nothing, so a log
file holds the commands' results only.

>>> import io
>>> bar = Progress("importing", stream=io.StringIO())  # not a terminal: silent
>>> bar(5, 10, "a.jsonl"); bar.close()
>>> bar.stream.getvalue()
''
"""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import Any, TextIO

from tqdm import tqdm


def clean_text(text: str) -> str:
    """Control characters escaped, so a file or player name cannot drive the terminal.

    >>> clean_text("ann\\x1b[2J")
    'ann\\\\x1b[2J'
    """
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


NOTE_WIDTH = 50
"""At most this many characters of a bar's note: a longer one keeps its end (a file's name
and the count after it), its start cut to ``…``."""


def cut(note: str, width: int = NOTE_WIDTH) -> str:
    """``note`` kept to ``width`` characters, its end kept.

    >>> cut("/a/very/long/folder/s1.jsonl: 40 hands, 153 hands/s", 32)
    '…s1.jsonl: 40 hands, 153 hands/s'
    """
    return note if len(note) <= width else "…" + note[-(width - 1):]


class Progress:
    """A progress bar fed ``bar(done, total, note)``, the shape of
    :data:`ingest.api.Progress` (``note`` may be left out).

    ``what`` heads the bar; ``unit`` names what is counted (``"hand"``; ``"B"`` counts bytes,
    shown as kB, MB, ...); ``notes=False`` leaves the notes out (when they only repeat the
    count and the rate). The bar appears at the first call and is wiped by :meth:`close` (the
    command then prints its summary); ``stream`` is standard error unless given."""

    def __init__(self, what: str, unit: str = "hand", *, notes: bool = True,
                 stream: TextIO | None = None) -> None:
        self.what = what
        self.unit = unit
        self.notes = notes
        self.stream = sys.stderr if stream is None else stream
        self.silent = not _is_terminal(self.stream)
        self.bar: tqdm[Any] | None = None

    def _open(self, total: int) -> tqdm[Any]:
        in_bytes = self.unit == "B"
        sized = _columns(self.stream) > 0  # a terminal that gives no width (0) gets 80
        return tqdm(total=total, desc=self.what, unit=self.unit, unit_scale=in_bytes,
                    unit_divisor=1024 if in_bytes else 1000, file=self.stream, leave=False,
                    dynamic_ncols=sized, ncols=None if sized else FALLBACK_COLUMNS,
                    mininterval=0.2, smoothing=0.1)

    def __call__(self, done: int, total: int, note: str = "") -> None:
        if self.silent:
            return
        if self.bar is None:
            self.bar = self._open(total)
        bar = self.bar
        if bar.total != total:
            bar.total = total
        if note and self.notes:
            bar.set_postfix_str(cut(clean_text(note)), refresh=False)
        bar.update(max(0, done - bar.n))

    def close(self) -> None:
        """Draw the final count and rate once (a fast run may end between two redraws),
        then wipe the bar."""
        if self.bar is not None:
            self.bar.refresh()
            self.bar.close()
            self.bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


FALLBACK_COLUMNS = 80


def _columns(stream: TextIO) -> int:
    """The terminal's width, 0 when it says none."""
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return 0


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False
