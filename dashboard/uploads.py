"""Uploaded files, checked before the importer sees them: the size limit per file and zips
unpacked with caps (:mod:`ingest.archives`), then imported.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import duckdb

from ingest.api import (
    MAX_UPLOAD_MB,
    FileReport,
    Limits,
    Progress,
    Refusal,
    StoreError,
    import_files,
    unpack,
)

__all__ = ["MAX_UPLOAD_MB", "Limits", "Refusal", "UploadOutcome", "import_uploads", "unpack"]


@dataclass(frozen=True, slots=True)
class UploadOutcome:
    import_ids: tuple[int, ...]
    """The imports of this upload (from the importer's report): its ledger."""
    refused: tuple[Refusal, ...]
    imported: int
    """Files handed to the importer."""
    error: str | None = None
    """Why the import stopped, if the database failed (:class:`ingest.api.StoreError`)."""
    reports: tuple[FileReport, ...] = ()
    """The importer's report of each file (its readers' notes, its audit)."""


def import_uploads(con: duckdb.DuckDBPyConnection, uploads: Iterable[tuple[str, bytes]],
                   progress: Progress | None = None, limits: Limits | None = None,
                   ) -> UploadOutcome:
    """Check and unpack ``uploads``, then import them on ``con`` (through its own cursor)
    with :func:`ingest.api.import_files`."""
    unpacked = unpack(uploads, limits or Limits())
    ids: tuple[int, ...] = ()
    reports: tuple[FileReport, ...] = ()
    if unpacked.files:
        cur = con.cursor()
        try:
            report = import_files(list(unpacked.files), cur, progress=progress)
        except StoreError as exc:
            return UploadOutcome(import_ids=(), refused=unpacked.refused,
                                 imported=len(unpacked.files), error=str(exc))
        finally:
            cur.close()
        ids = tuple(f.import_id for f in report.files if f.import_id is not None)
        reports = report.files
    return UploadOutcome(import_ids=ids, refused=unpacked.refused, imported=len(unpacked.files),
                         reports=reports)
