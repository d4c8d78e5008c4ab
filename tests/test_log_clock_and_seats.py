"""The store keeps what a log says about time and seats: the UTC offset a hand's time was
written with (``hands.utc_offset``, copied to ``hand_players``) and each player's own seat
number (``hand_players.log_seat``), through both ofc-hh/1 readers, the other formats, rescoring
(which reads no log again) and the upgrade of a schema 5 store (which reads them from the raw
text of ofc-hh/1 hands)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import duckdb
import pytest

from ingest import fast_path, store
from ingest.api import import_files, import_paths, rescore, upgrade
from ingest.stored_hands import load_records

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "data" / "samples"


def hand(hand_id: str, played_at: str, seats: tuple[int, int], **extra: object) -> str:
    obj = {"format": "ofc-hh/1", "source": "clock", "hand_id": hand_id, "played_at": played_at,
           "variant": "regular", "players": [
               {"name": "ann", "seat": seats[0], "board": "QhQd2c-KsKd9s5h3c-JhJdJc4s4d"},
               {"name": "bob", "seat": seats[1], "board": "AhKc3d-AsAd8h7c2h-QcTc8c6c5c"}],
           **extra}
    return json.dumps(obj)


LINES = [hand("h1", "2026-11-29T10:00:00-05:00", (1, 3)),
         hand("h2", "2026-11-29T21:30:00+05:30", (0, 4)),
         hand("h3", "2026-11-29T15:00:00Z", (2, 5))]
WANTED = {"h1": (-300, [1, 3]), "h2": (330, [0, 4]), "h3": (0, [2, 5])}


def stored(con: duckdb.DuckDBPyConnection) -> dict[str, tuple[int | None, list[int | None]]]:
    rows = con.execute("""
        SELECT h.hand_id, h.utc_offset, list(p.log_seat ORDER BY p.seat),
               bool_and(p.utc_offset IS NOT DISTINCT FROM h.utc_offset)
        FROM hands h JOIN hand_players p USING (hand_key) GROUP BY ALL""").fetchall()
    assert all(copied for *_, copied in rows), "hand_players.utc_offset is a copy of hands'"
    return {hand_id: (offset, seats) for hand_id, offset, seats, _ in rows}


@pytest.mark.parametrize("fast", [True, False])
def test_offset_and_seats_are_stored_by_both_readers(tmp_path: Path, fast: bool,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast_path, "FAST_PATH", fast)
    con = store.connect(tmp_path / "s.duckdb")
    import_files([("clock.jsonl", "\n".join(LINES).encode())], con)
    assert stored(con) == WANTED
    # the moment itself is still the same instant, in UTC
    utc = con.execute("SELECT strftime(timezone('UTC', played_at), '%H:%M') FROM hands "
                      "WHERE hand_id = 'h1'").fetchone()
    assert utc == ("15:00",)


def test_rescoring_keeps_them_and_what_it_cannot_know(tmp_path: Path) -> None:
    """Rescoring reads the store, not the logs: a known offset and seat stay, and so does an
    unknown one (NULL, as for hands stored before schema 6), in bulk and as records (a hand
    with match events takes the record path)."""
    event = [{"type": "match_end", "by": "ann", "winner": "ann"}]
    lines = [*LINES, hand("h4", "2026-11-29T10:10:00-05:00", (1, 3), variant="double",
                          match_id="m1", events=event)]
    con = store.connect(tmp_path / "s.duckdb")
    import_files([("clock.jsonl", "\n".join(lines).encode())], con)
    before = stored(con)
    assert before["h4"] == (-300, [1, 3])
    con.execute("UPDATE hands SET utc_offset = NULL WHERE hand_id = 'h3'")
    con.execute("UPDATE hand_players SET utc_offset = NULL, log_seat = NULL WHERE hand_key = "
                "(SELECT hand_key FROM hands WHERE hand_id = 'h3')")
    result = rescore(con)
    assert result.hands == 4 and not result.failed
    assert stored(con) == {**before, "h3": (None, [None, None])}
    # read back as a record, the hand has its log's clock and seat numbers again
    key = con.execute("SELECT hand_key FROM hands WHERE hand_id = 'h4'").fetchone()[0]
    record, _ = load_records(con, [key])[key]
    assert record.played_at == "2026-11-29T10:10:00-05:00"
    assert [p.seat for p in record.players] == [1, 3]


def test_a_schema_5_store_gets_them_from_the_raw_text(tmp_path: Path) -> None:
    path = tmp_path / "old.duckdb"
    (tmp_path / "clock.jsonl").write_text("\n".join(LINES) + "\n")
    import_paths([tmp_path / "clock.jsonl", SAMPLES / "live" / "dimas-home-game.txt"], path)
    con = duckdb.connect(str(path))
    con.execute("ALTER TABLE hands DROP COLUMN utc_offset")
    con.execute("ALTER TABLE hand_players DROP COLUMN utc_offset")
    con.execute("ALTER TABLE hand_players DROP COLUMN log_seat")
    con.execute("UPDATE meta SET value = '5' WHERE key = 'schema_version'")
    con.close()
    con = store.connect(path)
    assert upgrade(con, path, notify=lambda _: None) is not None
    found = stored(con)
    assert {k: found[k] for k in WANTED} == WANTED
    # a live log's zone is a directive of its file, not in a hand's raw text: left unknown
    live = {(o, *s) for k, (o, s) in found.items() if k not in WANTED}
    assert len(found) > len(WANTED) and live <= {(None,) * n for n in range(3, 6)}


def test_every_format_gives_its_offset(tmp_path: Path) -> None:
    """The record path's formats: each hand's offset is the one its time was written with
    (the live log writes +01:00, then sets ``@timezone Europe/Moscow``: +03:00 in November; the
    app's export writes +01:00 in one row, a Europe/Moscow ``Timezone`` cell in another)."""
    paths = [SAMPLES / "live" / "dimas-home-game.txt", *sorted((SAMPLES / "csv").iterdir()),
             SAMPLES / "double-match.jsonl"]
    report = import_paths(paths, tmp_path / "s.duckdb")
    assert report.stored > 0
    con = duckdb.connect(str(tmp_path / "s.duckdb"), read_only=True)
    rows = con.execute("""
        SELECT h.source, h.hand_id, h.utc_offset, h.played_at IS NULL,
               list(p.log_seat ORDER BY p.seat) = list(p.seat ORDER BY p.seat)
        FROM hands h JOIN hand_players p USING (hand_key) GROUP BY ALL""").fetchall()
    by_source: dict[str, set[int | None]] = {}
    for source, _, offset, undated, in_order in rows:
        assert in_order, "live and CSV seat players in listing order, as do these ofc-hh logs"
        assert (offset is None) == undated
        by_source.setdefault(source, set()).add(offset)
    assert by_source["dimas-home-game"] == {60, 180}
    assert by_source["double-app"] == {180}
    assert by_source["app-export"] == {60, 180}


def test_iso_offsets_are_read_like_python_does() -> None:
    """An independent check of the offset reader against ``datetime.fromisoformat``."""
    from ingest.hand_tables import utc_offsets
    texts = ["2026-11-29T10:00:00-05:00", "2026-11-29T10:00+0530", "2026-11-29T10:00:00Z",
             "2026-11-29 10:00:00.250-03:30", "2026-11-29T10:00:00+14:00"]
    python = [int(datetime.fromisoformat(t).utcoffset().total_seconds() // 60) for t in texts]
    assert utc_offsets(texts).to_pylist() == python
