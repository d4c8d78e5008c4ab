"""``ofc-tournament/1``: tournament summaries, JSON Lines, one tournament per line, in a file
beside the hands (the simulator writes ``<name>.tournament.jsonl``). The fields are in
docs/format.md ("Tournament summaries"); a summary is not a hand: the importer keeps it in
``tournament_summaries`` (docs/schema.md), the latest import of a tournament's summary
replacing an earlier one.

>>> line = ('{"format": "ofc-tournament/1", "source": "club", "id": "wk49", "kind": "chips",'
...         ' "buy_in": 10, "fee": 1, "currency": "EUR", "prize_pool": 40,'
...         ' "results": [{"player": "ann", "place": 1, "prize": 28},'
...         ' {"player": "bob", "place": 2, "prize": 12}, {"player": "cy", "place": 3}]}')
>>> s = summary_from_dict(json.loads(line))
>>> s.buy_in, [(f.player, f.place, f.prize) for f in s.finishes][-1]
(10.0, ('cy', 3, 0.0))
>>> summary_to_dict(s) == json.loads(line) | {"results": summary_to_dict(s)["results"]}
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ofc_core.tournament import Finish, Series, TournamentSummary, summary_problems

from . import ParsedHand, ParsedSummary, ParseIssue
from .ofc_hh import loads_line
from .tournament_fields import check_keys, json_type, kind, number, plain, text, whole

FORMAT_NAME = "ofc-tournament/1"

SUMMARY_KEYS = ("format", "source", "id", "name", "kind", "started_at", "buy_in", "fee",
                "currency", "starting_stack", "prize_pool", "players", "results", "series")
"""A summary's keys, in the order the writer emits them."""
RESULT_KEYS = ("player", "place", "prize")
SERIES_KEYS = ("round", "players", "wins", "winner", "forfeit", "matches")


def _list(obj: dict[str, Any], key: str) -> list[Any]:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError(f"{key}: expected a list, got {json_type(value)}")
    return value


def _finish(value: Any, n: int) -> Finish:
    where = f"results[{n}]."
    if not isinstance(value, dict):
        raise ValueError(f"results[{n}]: expected an object, got {json_type(value)}")
    check_keys(value, RESULT_KEYS, f"results[{n}]: ")
    player = text(value, "player", where, required=True)
    place = whole(value, "place", where)
    if place is None:
        raise ValueError(f"{where}place: missing")
    assert player is not None
    return Finish(player, place, number(value, "prize", where) or 0.0)


def _pair(value: Any, where: str, kind_of: type, what: str) -> tuple[Any, Any]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, kind_of) and not isinstance(v, bool) for v in value)):
        raise ValueError(f"{where}: expected a list of two {what}")
    return value[0], value[1]


def _series(value: Any, n: int) -> Series:
    where = f"series[{n}]."
    if not isinstance(value, dict):
        raise ValueError(f"series[{n}]: expected an object, got {json_type(value)}")
    check_keys(value, SERIES_KEYS, f"series[{n}]: ")
    players = _pair(value.get("players"), f"{where}players", str, "names")
    wins = _pair(value.get("wins", [0, 0]), f"{where}wins", int, "whole numbers")
    forfeit = value.get("forfeit") or False
    if not isinstance(forfeit, bool):
        raise ValueError(f"{where}forfeit: expected true or false")
    matches = value.get("matches") or []
    if not isinstance(matches, list) or not all(isinstance(m, str) for m in matches):
        raise ValueError(f"{where}matches: expected a list of match ids")
    round_ = whole(value, "round", where)
    winner = text(value, "winner", where, required=True)
    assert winner is not None
    return Series(round_ or 1, players, wins, winner, forfeit, tuple(matches))


def summary_from_dict(obj: Any) -> TournamentSummary:
    """The summary an ``ofc-tournament/1`` object describes; a ``ValueError`` names the first
    problem (or every problem :func:`ofc_core.tournament.summary_problems` finds)."""
    if not isinstance(obj, dict):
        raise ValueError(f"a tournament summary is a JSON object, got {json_type(obj)}")
    check_keys(obj, SUMMARY_KEYS, "")
    if obj.get("format") not in (None, FORMAT_NAME):
        raise ValueError(f"format {obj.get('format')!r} is not {FORMAT_NAME}")
    source, tid = text(obj, "source", "", True), text(obj, "id", "", True)
    assert source is not None and tid is not None
    summary = TournamentSummary(
        source, tid, kind(obj, ""), text(obj, "name", ""), text(obj, "started_at", ""),
        number(obj, "buy_in", ""), number(obj, "fee", ""), text(obj, "currency", ""),
        number(obj, "starting_stack", ""), number(obj, "prize_pool", ""),
        whole(obj, "players", "", 2),
        tuple(_finish(v, n) for n, v in enumerate(_list(obj, "results"))),
        tuple(_series(v, n) for n, v in enumerate(_list(obj, "series"))))
    problems = summary_problems(summary)
    if problems:
        raise ValueError("; ".join(problems))
    return summary


def _series_to_dict(s: Series) -> dict[str, Any]:
    out: dict[str, Any] = {"round": s.round, "players": list(s.players), "wins": list(s.wins),
                           "winner": s.winner}
    if s.forfeit:
        out["forfeit"] = True
    if s.matches:
        out["matches"] = list(s.matches)
    return out


def summary_to_dict(s: TournamentSummary) -> dict[str, Any]:
    """The ``ofc-tournament/1`` object of a summary (absent fields left out)."""
    out: dict[str, Any] = {"format": FORMAT_NAME, "source": s.source, "id": s.id}
    if s.name is not None:
        out["name"] = s.name
    out["kind"] = s.kind.value
    for key in ("started_at", "buy_in", "fee", "currency", "starting_stack", "prize_pool",
                "players"):
        value = getattr(s, key)
        if value is not None:
            out[key] = plain(value) if isinstance(value, float) else value
    if s.finishes:
        out["results"] = [{"player": f.player, "place": f.place, "prize": plain(f.prize)}
                          for f in s.finishes]
    if s.series:
        out["series"] = [_series_to_dict(x) for x in s.series]
    return out


def dumps_summary(s: TournamentSummary) -> str:
    """One summary as one JSON line."""
    return json.dumps(summary_to_dict(s), ensure_ascii=False, separators=(", ", ": "))


def parse_text(text_: str, filename: str) -> Iterator[ParsedSummary | ParseIssue]:
    """Every summary of a file: a :class:`ParsedSummary` per good line, a :class:`ParseIssue`
    naming the tournament per bad one (blank lines are skipped).

    >>> [i.message for i in parse_text('{"format": "ofc-tournament/1", "id": "x"}', "t")]
    ["tournament 'x': missing required field 'source'"]
    """
    for number_, line in enumerate(text_.removeprefix("\ufeff").split("\n"), start=1):
        raw = line.removesuffix("\r")
        if not raw.strip():
            continue
        tid = None
        try:
            obj = loads_line(raw)
            tid = obj.get("id") if isinstance(obj, dict) else None
            yield ParsedSummary(summary_from_dict(obj), number_, raw)
        except ValueError as exc:
            named = f"tournament {tid!r}: " if isinstance(tid, str) else ""
            yield ParseIssue(number_, tid if isinstance(tid, str) else None,
                             f"{named}{exc}", raw)


@dataclass(frozen=True)
class OfcTournamentFormat:
    """The registry entry for ``ofc-tournament/1``: a file whose first line that opens a JSON
    object names this format."""

    name: str = FORMAT_NAME
    version: str = "1"

    def sniff(self, text_: str, filename: str) -> bool:
        """Whether the first line that is not blank opens a summary.

        >>> FORMAT.sniff('{"format": "ofc-tournament/1", "id": "x"}', "t.jsonl")
        True
        """
        for ln in text_.removeprefix("\ufeff").split("\n", 20)[:20]:
            if ln.strip():
                return ln.lstrip().startswith("{") and f'"{FORMAT_NAME}"' in ln
        return False

    def parse(self, text_: str, filename: str,
              ) -> Iterator[ParsedHand | ParseIssue | ParsedSummary]:
        return parse_text(text_, filename)


FORMAT = OfcTournamentFormat()
