"""``ofc score FILE... [--json]``: score every hand of log files with the scalar scorer.

Each hand is scored by :func:`ofc_core.scoring.score_hand` under the ruleset it was played with.
A bad hand is reported (file, line, hand, reason) and the other hands are still scored; the exit
status is 1 if any hand was rejected or any file could not be read. A truncated last hand (a
file still being written) is reported but is not an error.

With ``--json`` every hand gives one JSON object per line: :func:`result_to_json` for a scored
hand, ``{"file", "line", "hand_id", "error"}`` for a rejected one, ``{..., "partial": true}``
for a truncated last hand, ``{"file", "error"}`` for a file that cannot be read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from dashboard import names
from ingest.formats import ParsedHand, ParseIssue, detect, ofc_hh
from ingest.formats.encoding import DecodeError, decode_bytes
from ofc_core.board import ROW_NAMES
from ofc_core.hand import HandRecord
from ofc_core.scoring import HandResult, PlayerResult, score_hand


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="hand history files (ofc-hh/1 JSON Lines, or any format "
                             "`ofc import` reads)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per hand per line instead of tables")
    parser.add_argument("--db", metavar="PATH", default=None,
                        help="with no FILE: print the results stored in this database (as "
                             "imported, not recomputed) in the same shape")


def _num(value: float) -> float:
    """Integral numbers as ints, so points print as ``6`` rather than ``6.0``."""
    return int(value) if float(value).is_integer() else value


def _player_json(record: HandRecord, p: PlayerResult) -> dict[str, Any]:
    seat = next(s for s in record.players if s.name == p.name)
    out: dict[str, Any] = {
        "seat": seat.seat,
        "fantasyland": seat.fantasyland,
        "surrendered": p.surrendered,
        "fouled": p.fouled,
        "hand_names": None if p.hand_names is None else dict(zip(
            ROW_NAMES, p.hand_names, strict=True)),
        "royalties": dict(zip(ROW_NAMES, p.royalties, strict=True)),
        "fantasyland_next": p.fantasyland_next,
        "points": _num(p.points),
        "raw_points": _num(p.raw_points),
        "vs": {name: _num(v) for name, v in p.vs.items()},
    }
    if p.stood_for:
        out["jokers"] = {str(joker): str(card) for joker, card in p.stood_for}
    if seat.reported_points is not None:
        out["reported_points"] = _num(seat.reported_points)
    return out


def result_to_json(record: HandRecord, result: HandResult) -> dict[str, Any]:
    """The ``ofc score --json`` object of one scored hand.

    ``points`` is the player's net for the hand (after caps when the ruleset has them; under
    race scoring, the points banked); ``raw_points`` is before caps; ``vs`` maps each opponent
    to what this player won from them.

    >>> from ofc_core.hand import PlayerRecord
    >>> from ofc_core.board import Board
    >>> rec = HandRecord("home", "1", "regular", (
    ...     PlayerRecord("Ivey", 0, Board.parse("6h 6d 2c", "Ks Kd 9s 5h 3c", "Jh Jd Jc 4s 4d")),
    ...     PlayerRecord("Hellmuth", 1, Board.parse("Ah Kc 3d", "As Ad 8h 7c 2h",
    ...                                              "Qc Tc 8c 6c 5c"))))
    >>> out = result_to_json(rec, score_hand(rec.seats(), rec.ruleset, rec.first_to_act))
    >>> out["players"]["Ivey"]["royalties"], out["players"]["Ivey"]["vs"]
    ({'top': 1, 'middle': 0, 'bottom': 6}, {'Hellmuth': 4})
    """
    out: dict[str, Any] = {"source": record.source, "hand_id": record.hand_id,
                           "variant": record.variant}
    if record.rules:
        out["rules"] = dict(record.rules)
    out["players"] = {p.name: _player_json(record, p) for p in result.players}
    return out


# --------------------------------------------------------------------------------------------
# Text tables


def _clean(text: str) -> str:
    """Control characters in names shown escaped, so a name cannot drive the terminal."""
    return "".join(f"\\x{ord(c):02x}" if unicodedata.category(c) == "Cc" else c for c in text)


def _width(text: str) -> int:
    """Terminal columns: wide (CJK, emoji) characters take two, combining marks none."""
    return sum(0 if unicodedata.combining(c) or unicodedata.category(c) == "Cf"
               else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def _signed(value: float) -> str:
    value = _num(value)
    return f"+{value}" if value > 0 else str(value)


def _table_row(record: HandRecord, p: PlayerResult) -> list[str]:
    seat = next(s for s in record.players if s.name == p.name)
    names = p.hand_names or ("surrendered", "", "")
    fl = f"{p.fantasyland_next} cards" if p.fantasyland_next else "-"
    row = [_clean(p.name) + (" (FL)" if seat.fantasyland else ""), *names,
           "FOUL" if p.fouled else "", "/".join(map(str, p.royalties)) + f" = {p.royalty_total}",
           fl, _signed(p.points),
           ", ".join(f"{_clean(n)} {_signed(v)}" for n, v in p.vs.items())]
    if any(s.reported_points is not None for s in record.players):
        reported = seat.reported_points
        mark = "" if reported is None or _num(reported) == _num(p.points) else "  MISMATCH"
        row.append("" if reported is None else _signed(reported) + mark)
    return row


def format_table(record: HandRecord, result: HandResult, where: str) -> str:
    """A readable aligned table of one hand: one row per player."""
    header = ["player", "top", "middle", "bottom", "foul", "royalties", "FL next", "points",
              "vs"]
    rows = [_table_row(record, p) for p in result.players]
    if len(rows[0]) > len(header):
        header.append("reported")
    widths = [max(_width(r[i]) for r in [header, *rows]) for i in range(len(header))]
    title = f"{where}  {_clean(names.room(record.source))} hand {_clean(record.hand_id)}  " \
            f"{names.ruleset(record.ruleset.label)}"
    if record.button is not None:
        title += f"  button {_clean(record.button)}"
    lines = [title] + ["  ".join(_pad(c, w) for c, w in zip(r, widths, strict=True)).rstrip()
                       for r in [header, *rows]]
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Running


def read_log(path: str) -> str:
    """The decoded text of a log file; raises ``ValueError`` with a one-line message."""
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise ValueError(f"{path}: is a folder (give the files inside it)") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return decode_bytes(data, path)
    except DecodeError as exc:
        raise ValueError(str(exc)) from None


def _emit(out: TextIO, obj: dict[str, Any]) -> None:
    out.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _issue(path: str, item: ParseIssue, as_json: bool, out: TextIO, err: TextIO) -> int:
    if as_json:
        obj: dict[str, Any] = {"file": path, "line": item.line, "hand_id": item.hand_id}
        obj.update({"partial": True, "message": item.message} if item.partial
                   else {"error": item.message})
        _emit(out, obj)
    else:
        label = "note" if item.partial else "rejected"
        err.write(f"{path}:{item.line}: {label}: {_clean(item.message)}\n")
    return 0 if item.partial else 1


def _hand(path: str, item: ParsedHand, as_json: bool, out: TextIO, err: TextIO) -> int:
    record = item.record
    try:
        result = score_hand(record.seats(), record.ruleset, record.first_to_act)
    except ValueError as exc:
        message = f"hand {record.hand_id!r}: cannot be scored: {exc}"
        return _issue(path, ParseIssue(item.line, record.hand_id, message, item.raw), as_json,
                      out, err)
    except Exception as exc:  # a bug of ours: this hand's error, never a traceback
        message = f"hand {record.hand_id!r}: cannot be scored: {_bug(exc)}"
        return _issue(path, ParseIssue(item.line, record.hand_id, message, item.raw), as_json,
                      out, err)
    if as_json:
        _emit(out, {"file": path, "line": item.line} | result_to_json(record, result))
    else:
        out.write(format_table(record, result, f"{path}:{item.line}") + "\n\n")
    return 0


def score_file(path: str, as_json: bool, out: TextIO, err: TextIO) -> int:
    """Score every hand of one file; returns 1 if a hand was rejected or the file unreadable."""
    try:
        text = read_log(path)
    except ValueError as exc:
        if as_json:
            _emit(out, {"file": path, "error": str(exc)})
        err.write(f"ofc score: {exc}\n")
        return 1
    status = 0
    last = 0
    try:
        fmt = detect(text, path) or ofc_hh.FORMAT
        for item in fmt.parse(text, path):
            if isinstance(item, ParseIssue):
                status |= _issue(path, item, as_json, out, err)
            elif isinstance(item, ParsedHand):  # a tournament summary scores nothing
                status |= _hand(path, item, as_json, out, err)
            last = item.line
    except BrokenPipeError:  # the reader of our output left: run() stops quietly
        raise
    except Exception as exc:  # a bug of a reader: the rest of this file is its error
        message = f"{path}: reading failed after line {last}: {_bug(exc)}"
        if as_json:
            _emit(out, {"file": path, "error": message})
        err.write(f"ofc score: {_clean(message)}\n")
        return 1
    return status


def _bug(exc: Exception) -> str:
    return (f"{type(exc).__name__}: {exc}. This is a bug in OFC Analytics: please report it "
            "with the file.")


def score_db(path: str, as_json: bool, out: TextIO, err: TextIO) -> int:
    """Print the stored hands' results (read from the tables, not recomputed), in import
    order, in the shape of :func:`score_file`; 2 if the database cannot be used."""
    from ingest import store
    from ingest.stored_hands import stored_results

    try:
        con = store.connect(path, read_only=True)
    except store.StoreError as exc:
        err.write(f"ofc score: {exc}\n")
        return 2
    try:
        for record, result, file, line in stored_results(con):
            if as_json:
                _emit(out, {"file": file, "line": line} | result_to_json(record, result))
            else:
                out.write(format_table(record, result, f"{file}:{line}") + "\n\n")
    finally:
        con.close()
    return 0


def run(args: argparse.Namespace) -> int:
    files: Sequence[str] = args.files
    if args.db is not None:
        if files:
            print("ofc score: give FILEs or --db, not both", file=sys.stderr)
            return 2
        try:
            return score_db(args.db, args.json, sys.stdout, sys.stderr)
        except BrokenPipeError:  # `ofc score --db ... | head`
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 141
    if not files:
        print("ofc score: give one or more FILEs to score", file=sys.stderr)
        return 2
    status = 0
    try:
        for path in files:
            status |= score_file(path, args.json, sys.stdout, sys.stderr)
            sys.stdout.flush()
    except BrokenPipeError:  # `ofc score ... | head`: the reader left, stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status
