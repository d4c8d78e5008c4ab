"""What an import or a rescoring did: the reports the store's writers return (and the
``ofc import --json`` object), and the per-file tally they are built from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .audit import Audit

Progress = Callable[[int, int, str], None]
"""``progress(done, total, label)``: bytes done of total bytes, and a one-line status."""


@dataclass(frozen=True)
class HandIssue:
    line: int
    hand_id: str | None
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "hand_id": self.hand_id, "message": self.message}


@dataclass(frozen=True)
class FileReport:
    """What importing one file did. ``hands`` counts every hand read:
    ``hands == stored + duplicate + merged + partial + rejected`` (:meth:`adds_up`), the same
    figures the ledger row (``imports``), ``ofc import`` and its ``--json`` give."""

    path: str
    format: str | None
    hands: int = 0
    stored: int = 0
    duplicate: int = 0
    merged: int = 0
    partial: int = 0
    errors: tuple[HandIssue, ...] = ()
    unreadable: str | None = None
    """Why the file could not be read at all (then ``errors`` holds that message at line 0)."""
    import_id: int | None = None
    notes: tuple[HandIssue, ...] = ()
    """What the reader assumed about some hands (a preset the log does not name)."""
    audit: Audit | None = None
    """The room's own results against ours, for the hands this file stored or upgraded."""
    abandoned: int = 0
    """Of ``partial``, the hands the log left without a result for good (a closed session
    moved on): never stored, nothing to wait for."""
    partials: tuple[HandIssue, ...] = ()
    """The ``partial`` hands, each named (line, hand id, why it has no result)."""

    @property
    def rejected(self) -> int:
        return len(self.errors) if self.unreadable is None else 0

    def adds_up(self) -> bool:
        """The ledger's arithmetic: every hand read is in exactly one outcome."""
        return self.hands == (self.stored + self.duplicate + self.merged + self.partial
                              + self.rejected)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "format": self.format, "hands": self.hands,
               "stored": self.stored, "duplicate": self.duplicate, "merged": self.merged,
               "partial": self.partial, "rejected": self.rejected,
               "errors": [e.to_dict() for e in self.errors]}
        if self.abandoned:
            out["abandoned"] = self.abandoned
        if self.partials:
            out["partial_hands"] = [p.to_dict() for p in self.partials]
        if self.notes:
            out["notes"] = [n.to_dict() for n in self.notes]
        if self.audit is not None:
            out["audit"] = self.audit.to_dict()
        return out


@dataclass(frozen=True)
class ImportReport:
    files: tuple[FileReport, ...] = ()
    seconds: float = 0.0

    @property
    def stored(self) -> int:
        return sum(f.stored for f in self.files)

    @property
    def duplicate(self) -> int:
        return sum(f.duplicate for f in self.files)

    @property
    def merged(self) -> int:
        return sum(f.merged for f in self.files)

    @property
    def partial(self) -> int:
        return sum(f.partial for f in self.files)

    @property
    def rejected(self) -> int:
        return sum(f.rejected for f in self.files)

    @property
    def unreadable(self) -> int:
        return sum(f.unreadable is not None for f in self.files)

    @property
    def hands(self) -> int:
        return sum(f.hands for f in self.files)

    @property
    def exit_code(self) -> int:
        """1 if any hand was rejected or any file unreadable, else 0."""
        return 1 if self.rejected or self.unreadable else 0

    def to_dict(self) -> dict[str, Any]:
        """The ``ofc import --json`` object."""
        return {"files": [f.to_dict() for f in self.files], "stored": self.stored,
                "duplicate": self.duplicate, "merged": self.merged, "partial": self.partial,
                "rejected": self.rejected}


@dataclass(frozen=True)
class RescoreResult:
    hands: int
    """Hands rescored."""
    failed: tuple[HandIssue, ...] = ()
    """Stored hands that are not valid under the current rules (kept as they were); ``line``
    is the hand's line in the file it was imported from."""


@dataclass
class Counts:
    hands: int = 0
    stored: int = 0
    duplicate: int = 0
    merged: int = 0
    partial: int = 0
    abandoned: int = 0
    errors: list[HandIssue] = field(default_factory=list)
    rejected_rows: list[dict[str, Any]] = field(default_factory=list)
    notes: list[HandIssue] = field(default_factory=list)
    partials: list[HandIssue] = field(default_factory=list)

    def reject(self, line: int, hand_id: str | None, message: str, raw: str | None,
               partial: bool = False, abandoned: bool = False) -> None:
        """One hand read and not stored: partial (no result: still being written, or
        ``abandoned``) or rejected (``message`` says why). Counted once in ``hands``."""
        self.hands += 1
        if partial:
            self.partial += 1
            self.abandoned += abandoned
            self.partials.append(HandIssue(line, hand_id, message))
        else:
            self.errors.append(HandIssue(line, hand_id, message))
        self.rejected_rows.append({"line": line, "hand_id": hand_id, "message": message,
                                   "partial": partial, "raw": raw})

