"""Import: upload logs (any supported format, or a .zip of them), watch the folders a poker
client writes its logs to, and read the ledger."""

from __future__ import annotations

import hashlib
import time

import pandas as pd
import streamlit as st

from dashboard import db, me, reviewing, tables, timefmt, watching
from dashboard.cards import md_text
from dashboard.queries import imports
from dashboard.uploads import MAX_UPLOAD_MB, Limits, UploadOutcome, import_uploads
from ingest.api import (
    Audit,
    FolderError,
    WatchedFolder,
    add_folder,
    check_folder,
    folder_errors,
    remove_folder,
    watched_folders,
)

RESULT_KEY = "import_outcome"
COUNTER_KEY = "upload_generation"


def run(files: list[tuple[str, bytes]]) -> UploadOutcome:
    bar = st.progress(0.0, text="Reading files...")

    def progress(done: int, total: int, label: str) -> None:
        share = done / total if total else 1.0
        bar.progress(min(1.0, share), text=md_text(label))

    with db.writing() as con:
        outcome = import_uploads(con, files, progress, Limits())
    bar.progress(1.0, text="Done")
    reviewing.after_import(import_ids=outcome.import_ids)
    return outcome


def plural(n: int, word: str) -> str:
    """A count and its word.

    >>> plural(1, "file"), plural(3, "file")
    ('1 file', '3 files')
    """
    return f"{n:,} {word}{'s' * (n != 1)}"


def ledger_line(files: int, totals: dict[str, int], refused: int) -> str:
    """What an upload did, in one line: files read and refused apart, hands by outcome.

    >>> ledger_line(1, {"stored": 3, "duplicate": 0, "merged": 0, "partial": 0,
    ...                 "rejected": 0}, 1)
    '**1 file** read, **1 file refused** (see the errors below): **3 hands** stored, 0 duplicates.'
    """
    counts = [f"**{plural(totals['stored'], 'hand')}** stored",
              f"{totals['duplicate']:,} duplicates"]
    counts += [f"{totals[k]:,} {k}" for k in ("merged", "partial", "rejected") if totals[k]]
    read = f"**{plural(files, 'file')}** read"
    if refused:
        read += f", **{plural(refused, 'file')} refused** (see the errors below)"
    return f"{read}: {', '.join(counts)}."


def show_outcome(outcome: UploadOutcome) -> None:
    con = db.connection()
    ledger = imports.ledger(con, outcome.import_ids)
    problems = imports.problems(con, outcome.import_ids)
    refused = pd.DataFrame([{"file": r.file, "line": 0, "hand_id": "", "reason": r.reason,
                             "kind": "refused"} for r in outcome.refused],
                           columns=["file", "line", "hand_id", "reason", "kind"])
    problems = pd.concat([refused, problems], ignore_index=True) if len(refused) else problems
    totals = ledger[["hands", "stored", "duplicate", "merged", "partial", "rejected"]].sum()
    if outcome.error is not None:
        st.error(f"The import stopped: {md_text(outcome.error)}")
    st.subheader("Ledger")
    st.markdown(ledger_line(len(ledger), {str(k): int(v) for k, v in totals.items()},
                            len(refused)))
    st.dataframe(tables.words(timefmt.table_times(ledger.drop(columns=["import_id"]))),
                 hide_index=True, width="stretch", key="import_ledger")
    left, right = st.columns(2)
    left.download_button("Download the ledger (CSV)", ledger.to_csv(index=False),
                         file_name="import-ledger.csv", mime="text/csv", on_click="ignore")
    if len(problems):
        st.subheader("Errors and partial hands")
        st.dataframe(tables.words(problems), hide_index=True, width="stretch",
                     key="import_problems",
                     column_config={"Line": st.column_config.NumberColumn("Line", format="%d")})
        right.download_button("Download the errors (CSV)", problems.to_csv(index=False),
                              file_name="import-errors.csv", mime="text/csv", on_click="ignore")
    else:
        st.success("No errors: every hand read was stored or was already there.")
    show_audit(outcome)
    reviewing.import_section(outcome.import_ids)


def show_audit(outcome: UploadOutcome) -> None:
    """The audit of the files' stored hands against the room's own results, and what the
    readers had to assume."""
    audits = [(f.path, f.audit) for f in outcome.reports if f.audit is not None]
    audit_tables(audits, "import")
    notes = pd.DataFrame([{"file": f.path, "hand_id": n.hand_id, "note": n.message}
                          for f in outcome.reports for n in f.notes],
                         columns=["file", "hand_id", "note"])
    if len(notes):
        st.subheader("Assumed by the readers")
        st.dataframe(tables.words(notes), hide_index=True, width="stretch", key="import_notes")


def audit_tables(audits: list[tuple[str, Audit]], key: str,
                 title: str = "Audit against the room") -> None:
    """Per file: how many stored hands' reported results (points, uncapped points, fouls,
    royalties, Fantasyland) all equal ours, and every player and item that differs."""
    audited = [(path, a) for path, a in audits if a.audited]
    if not audited:
        return
    st.subheader(title)
    st.dataframe(tables.words(pd.DataFrame([{"file": path, "hands audited": a.audited,
                                "equal to ours": a.equal, "differ": a.audited - a.equal,
                                **a.by_what()} for path, a in audited]).fillna(0)),
                 hide_index=True, width="stretch", key=f"{key}_audit")
    differ = pd.DataFrame([{"file": path, "hand_id": d.hand_id, "player": d.player,
                            "what": d.what, "theirs": d.reported, "ours": d.ours}
                           for path, a in audited for d in a.differ],
                          columns=["file", "hand_id", "player", "what", "theirs", "ours"])
    if len(differ):
        st.markdown(f"**{differ.hand_id.nunique()}** hands where the room's result differs "
                    "from ours (a rule we lack, a settlement that does not add up, or a bug on "
                    "one side): open them in Hand review.")
        st.dataframe(tables.words(differ), hide_index=True, width="stretch",
                     key=f"{key}_audit_differ")
    else:
        st.success("The room's reported results equal ours in every audited hand.")


def import_history() -> None:
    """Every import so far; any one of them opened: its ledger row, the hands it could not
    store (with why) and its audit."""
    con = db.connection()
    history = imports.ledger(con)
    st.dataframe(tables.words(timefmt.table_times(history)), hide_index=True, width="stretch",
                 key="import_history")
    if not len(history):
        return
    labels: dict[int, str] = {
        int(r["import_id"]): f"#{int(r['import_id'])} {r['file']} ({int(r['hands']):,} hands)"
        for r in history.to_dict("records")}

    def label(import_id: int) -> str:
        return labels[import_id]

    chosen = st.selectbox("Open an import", list(reversed(list(labels))), format_func=label,
                          key="import_history_open")
    if chosen is None:
        return
    problems = imports.problems(con, [chosen])
    if len(problems):
        st.markdown(f"**Not stored from import #{chosen}**")
        st.dataframe(tables.words(problems), hide_index=True, width="stretch",
                     key="history_problems",
                     column_config={"Line": st.column_config.NumberColumn("Line", format="%d")})
    else:
        st.markdown(f"Import #{chosen}: every hand read was stored or was already there.")
    audit_tables([(labels[chosen], imports.audit(con, chosen))], "history",
                 f"Import #{chosen} against the room")


def clock(seconds: float) -> str:
    """A time of day in the server's zone, the zone named."""
    return time.strftime("%H:%M:%S %Z", time.localtime(seconds))


def status_line(folder: WatchedFolder, checked: float | None, waiting: int = 0) -> str:
    """A watched folder's status in one line: the last check (the store's, or this server's
    watcher's when later), its files, the hands stored from them, their errors, and the files
    still being written (left for the next check).

    >>> status_line(WatchedFolder("/logs", None, None, 1, 40, 0), None)
    'not checked yet · 1 file · 40 hands · no errors'
    >>> status_line(WatchedFolder("/logs", None, None, 2, 40, 3), None, waiting=1)
    'not checked yet · 2 files · 40 hands · 3 errors · 1 file being written'
    """
    last = max((t for t in (folder.last_check, checked) if t is not None), default=None)
    errors = plural(folder.errors, "error") if folder.errors else "no errors"
    seen = f"last check {clock(last)}" if last is not None else "not checked yet"
    parts = [seen, plural(folder.files, "file"), plural(folder.hands, "hand"), errors]
    if waiting:
        parts.append(f"{plural(waiting, 'file')} being written")
    return " · ".join(parts)


def watch(typed: str) -> None:
    """Add the folder the user typed (a message when it cannot be watched)."""
    try:
        path = check_folder(typed)
    except FolderError as exc:
        st.error(md_text(str(exc)))
        return
    with db.writing() as con:
        add_folder(con, path)
        watching.wake([f.path for f in watched_folders(con)])
    st.toast(f"Watching {md_text(path)}")


def unwatch(path: str) -> None:
    with db.writing() as con:
        remove_folder(con, path)
        watching.wake([f.path for f in watched_folders(con)])


def folder_statuses() -> None:
    """Each watched folder: its status line, its problem and errors, and a button to stop
    watching it (redrawn every few seconds while there are folders: the watcher works in the
    background)."""
    with db.page_run():
        folders = db.query(watched_folders)
        if not folders:
            st.caption("No folder is watched yet.")
        last = watching.watcher().last
        if folders and last is not None and last.error:
            st.warning(f"The last check of the watched folders did not import: "
                       f"{md_text(last.error)}")
        for folder in folders:
            key = hashlib.sha256(folder.path.encode()).hexdigest()[:12]
            with st.container(border=True, key=f"watched_{key}"):
                left, right = st.columns([6, 1], vertical_alignment="center")
                left.markdown(f"**{md_text(folder.path)}**")
                mine = watching.last_check(folder.path)
                checked, waiting = (mine[0], mine[1].waiting) if mine else (None, 0)
                left.caption(status_line(folder, checked, waiting))
                if right.button("Stop watching", key=f"unwatch_{key}"):
                    unwatch(folder.path)
                    st.rerun()
                if folder.problem:
                    st.warning(md_text(folder.problem))
                if folder.errors:
                    with st.expander(f"Errors of the last imports ({folder.errors:,})"):
                        st.dataframe(tables.words(pd.DataFrame(
                            [{"file": e.file, "line": e.line, "hand_id": e.hand_id,
                              "reason": e.message} for e in db.query(folder_errors, folder.path)],
                            columns=["file", "line", "hand_id", "reason"])),
                            hide_index=True, width="stretch", key=f"watch_errors_{key}")


def watched_folders_section() -> None:
    st.subheader("Watched folders")
    st.markdown("Folders your poker client writes its logs to. While the dashboard runs, new "
                f"files and files that grew are imported every {watching.INTERVAL_SECONDS:g} s "
                "(a hand still being written waits for its end; an unchanged file is not read "
                "again). `ofc import --watch FOLDER` does the same from a terminal; its folders "
                "are listed here too.")
    with st.form("watch_form", clear_on_submit=True, border=False):
        left, right = st.columns([5, 1], vertical_alignment="bottom")
        typed = left.text_input("Folder to watch", placeholder="/home/me/poker/logs",
                                key="watch_folder")
        submitted = right.form_submit_button("Watch", type="primary")
    if submitted and typed.strip():
        watch(typed.strip())
    watched = bool(db.query(watched_folders))
    st.fragment(folder_statuses,
                run_every=watching.INTERVAL_SECONDS if watched else None)()


def main() -> None:
    st.title("Import")
    me.section()
    if db.read_only():  # over Parquet tables: the ledger only (the page's top line says why)
        st.subheader("Every import so far")
        import_history()
        return
    st.markdown(f"Upload session logs: one or many files of any supported format (our "
                "`.jsonl`, live notation, board CSV; FPDB's SwC captures `.json`/`.jsonl` and its "
                "`.db3` database; the pineapple app's `.db`), or a .zip of them "
                f"(up to {MAX_UPLOAD_MB} MB each). Hands already stored are recognised and "
                "skipped; bad hands are listed with file, line and reason, and the good ones "
                "are still imported. Where a log records the room's own result, the audit "
                "compares it with ours.")
    generation = st.session_state.setdefault(COUNTER_KEY, 0)
    uploaded = st.file_uploader("Log files or .zip", accept_multiple_files=True,
                                key=f"uploader_{generation}", max_upload_size=MAX_UPLOAD_MB)
    if uploaded and st.button(f"Import {len(uploaded)} file{'s' * (len(uploaded) != 1)}",
                              type="primary", key="import_button"):
        files = [(f.name, f.getvalue()) for f in uploaded]
        st.session_state[RESULT_KEY] = run(files)
        st.session_state[COUNTER_KEY] = generation + 1
        st.rerun()
    outcome = st.session_state.get(RESULT_KEY)
    if isinstance(outcome, UploadOutcome):
        show_outcome(outcome)
    watched_folders_section()
    with st.expander("Every import so far"):
        import_history()


if __name__ == "__main__":  # Streamlit runs a page as __main__; importing it runs nothing
    main()
