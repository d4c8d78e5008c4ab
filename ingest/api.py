"""The ingest package's public API: the one way in for everything above it.

The store has one owner: every write to the hand tables or the ledger (importing, merging,
rescoring, removing an import such as the demo sample, upgrading an older store), to the
decision review's table (``write_decisions``; a practice hand reviewed: ``review_and_store``),
the hands played or entered in the dashboard (``store_record``, ``store_text``: the importer's
own path), to the user's names (``set_my_names``, ``set_alias``,
``add_my_name``, ``remove_my_name``), to the user's notes and tags (``set_hand_note``,
``set_hand_tags``, ``set_player_note``, ``set_player_tags``, and both at once:
``set_hand_annotation``, ``set_player_annotation``), to the watched folders
(``add_folder``, ``remove_folder``, a :class:`Watcher`'s imports), to the knockout brackets
(``create_knockout``, ``record_knockout_series``, ``record_knockout_from_matches``,
``draw_knockout_round``, ``undo_knockout``) and to the auto-review
setting (``set_auto_review``) is a function here; the review job that writes decisions from a
process of its own is started, watched and cancelled here too (``start_review``,
``review_status``, ``cancel_review``, ``review_after_import``: :mod:`ingest.review_job`), and import
ids come from the reports these functions return. The dashboard imports ingest only through
this module (``tests/test_layering.py`` checks it); the ``ofc`` command may reach further in.

The pre-aggregated tables (:mod:`ingest.aggregates`) are kept current by these writers;
:func:`rebuild_aggregates` builds them on any connection holding the base tables (or views of
them), :func:`aggregates_present` says whether a connection has them.

``open_parquet`` opens the Parquet tables of ``ofc export --parquet`` or ``ofc spark score``
as a read-only store (views in memory) that the same queries read.

Opening a store never upgrades it: an entry point calls :func:`connect`, then :func:`upgrade`
(:func:`import_paths` does both itself).
"""

from __future__ import annotations

from .aggregates import AGGREGATES, HOUR_US
from .aggregates import present as aggregates_present
from .aggregates import rebuild as rebuild_aggregates
from .aliases import aliases, set_alias
from .archives import MAX_UPLOAD_MB, Limits, Refusal, unpack
from .audit import Audit, Difference, audit_import, combined
from .decisions import (
    AlternativeRow,
    DecisionRow,
    decision_json,
    older_decisions,
    player_hands,
    read_decisions,
    reviewed_hands,
    stored_decisions,
    write_decisions,
)
from .decisions_parquet import decisions_folder, merge_decisions
from .demo import DEMO_KEY, DEMO_REMOVED_KEY, demo_import_ids, load_demo, remove_demo
from .formats.live_write import live_text, name_problem
from .formats.notation import parse_rules, parse_street
from .foul_sql import LOWER_SQL, RELATION_SQL, UPPER_SQL
from .identity import (
    BadName,
    MyName,
    Suggestion,
    add_my_name,
    hands_seating,
    my_names,
    remove_my_name,
    set_my_names,
    similar_names,
    suggested_names,
)
from .knockout import KnockoutError, Logged
from .knockout import bracket as knockout_bracket
from .knockout import brackets as knockout_brackets
from .knockout import create as create_knockout
from .knockout import draw_next as draw_knockout_round
from .knockout import log as knockout_log
from .knockout import played_matches as knockout_matches
from .knockout import record as record_knockout_series
from .knockout import record_from_matches as record_knockout_from_matches
from .knockout import undo as undo_knockout
from .ledger import remove_imports
from .match_sql import CUBE_SQL, DECISION_SQL
from .merge import MergeConflict, merge_records
from .money import RACE
from .names import currency_name, currency_names, room_name, room_names
from .notes import (
    NOTE_MAX_CHARS,
    NOTE_TABLES,
    TAG_MAX_CHARS,
    Annotation,
    NoteError,
    hand_annotation,
    player_annotation,
    player_tag_lists,
    set_hand_annotation,
    set_hand_note,
    set_hand_tags,
    set_player_annotation,
    set_player_note,
    set_player_tags,
    tag_choices,
    tag_key,
)
from .parquet_store import PARQUET_ENV, ParquetError, open_parquet
from .parquet_store import stamp as parquet_stamp
from .pipeline import import_files, import_paths, iter_log_files
from .practice import NotStored, review_and_store, review_rows, store_record, store_text
from .puzzles import PuzzleAnswer, record_of, stored_record, write_answer
from .removal import Removal
from .reports import FileReport, HandIssue, ImportReport, Progress, RescoreResult
from .rescoring import rescore
from .review_job import JobStatus, ReviewBusy, auto_review, imported_seats, set_auto_review
from .review_job import after_import as review_after_import
from .review_job import cancel as cancel_review
from .review_job import read_status as review_status
from .review_job import start as start_review
from .review_rows import decision_row, policy_name
from .store import DB_ENV, StoreBusy, StoreError, connect, default_db_path, writer_waiting
from .upgrade import upgrade
from .watch import FolderCheck, Watcher, WatchPass
from .watched_folders import (
    FolderError,
    WatchedFolder,
    WatchError,
    add_folder,
    check_folder,
    folder_errors,
    remove_folder,
    watched_folders,
)

AGGREGATE_TABLES = tuple(AGGREGATES)
"""The pre-aggregated tables' names."""

__all__ = [
    "decisions_folder", "merge_decisions",
    "AGGREGATE_TABLES", "HOUR_US", "aggregates_present", "rebuild_aggregates",
    "CUBE_SQL", "DECISION_SQL", "LOWER_SQL", "RELATION_SQL", "UPPER_SQL", "RACE",
    "MAX_UPLOAD_MB", "Limits", "Refusal", "unpack",
    "DB_ENV", "DEMO_KEY", "DEMO_REMOVED_KEY", "DecisionRow", "FileReport", "HandIssue",
    "ImportReport", "MergeConflict", "Progress", "RescoreResult", "StoreBusy", "StoreError",
    "connect", "default_db_path", "demo_import_ids", "import_files", "import_paths",
    "iter_log_files", "load_demo", "merge_records", "player_hands", "read_decisions",
    "remove_demo", "remove_imports", "rescore", "reviewed_hands", "upgrade", "write_decisions",
    "writer_waiting", "AlternativeRow", "decision_json", "older_decisions", "stored_decisions",
    "PARQUET_ENV", "ParquetError", "open_parquet", "parquet_stamp",
    "Audit", "Difference", "audit_import", "combined",
    "aliases", "set_alias",
    "BadName", "MyName", "Suggestion", "add_my_name", "my_names", "remove_my_name",
    "set_my_names", "suggested_names", "hands_seating", "similar_names",
    "NOTE_MAX_CHARS", "NOTE_TABLES", "TAG_MAX_CHARS", "Annotation", "NoteError",
    "hand_annotation", "player_annotation", "player_tag_lists", "set_hand_annotation",
    "set_hand_note", "set_hand_tags", "set_player_annotation", "set_player_note",
    "set_player_tags", "tag_choices", "tag_key",
    "JobStatus", "ReviewBusy", "auto_review", "set_auto_review", "review_after_import",
    "cancel_review", "review_status", "start_review", "imported_seats",
    "FolderCheck", "FolderError", "WatchError", "WatchPass", "WatchedFolder", "Watcher",
    "add_folder", "check_folder", "folder_errors", "remove_folder", "watched_folders",
    "decision_row", "policy_name", "NotStored", "review_and_store", "review_rows",
    "store_record", "store_text", "live_text", "name_problem",
    "parse_rules", "parse_street", "PuzzleAnswer", "record_of", "stored_record",
    "write_answer",
    "currency_name", "currency_names", "room_name", "room_names", "Removal",
    "KnockoutError", "Logged", "create_knockout", "draw_knockout_round", "knockout_bracket",
    "knockout_brackets", "knockout_log", "knockout_matches", "record_knockout_from_matches",
    "record_knockout_series", "undo_knockout",
]
