"""In headless Chromium: the Import page takes one of each real log (FPDB's frames, a hand file,
FPDB's database, the pineapple app's database, a zip of a hand file) and shows the audit of the
rooms' reported points against ours (on the session's ``writable_dashboard``; the captures
another test imported first are removed before, ``tests/helpers/captures.py``)."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from ingest.formats import LogFile, ParsedHand, detect, detect_file
from ingest.formats.encoding import decode_bytes
from ofc_core.scoring import score_hand
from tests.helpers.browser import Dashboard, Page, no_exception, settle
from tests.helpers.captures import without_captures

ROOT = Path(__file__).resolve().parent.parent
CAPTURE = ROOT / "data" / "samples" / "fpdb-swc"
APP = ROOT / "data" / "samples" / "pineapple-app" / "ofc_logs.db"

pytestmark = pytest.mark.slow


def differing_hands(paths: list[Path]) -> set[str]:
    """Hands whose reported points are not the scalar scorer's, read with the readers (not
    through the store)."""
    out = set()
    for path in paths:
        file = LogFile(path.name, path.read_bytes(), path)
        fmt = detect_file(file)
        if fmt is not None:
            items = fmt.parse_file(file)
        else:
            text = decode_bytes(file.data, path.name)
            items = detect(text, path.name).parse(text, path.name)
        for item in items:
            if not isinstance(item, ParsedHand):
                continue
            r = item.record
            result = score_hand(r.seats(), r.ruleset, r.first_to_act)
            if any(p.reported_points != result.player(p.name).points for p in r.players):
                out.add(r.hand_id)
    return out


def test_import_page_shows_the_audit_of_real_logs(writable_dashboard: Dashboard, tab: Page,
                                                  tmp_path: Path) -> None:
    from playwright.sync_api import expect

    files = [CAPTURE / "raw_messages.jsonl", CAPTURE / "hand_1480001.json",
             CAPTURE / "fpdb.db3", APP]
    packed = tmp_path / "more-hands.zip"
    with zipfile.ZipFile(packed, "w") as z:
        z.write(CAPTURE / "hand_1480002.json", "Capture/hand_1480002.json")
    expected = differing_hands([*files, CAPTURE / "hand_1480002.json"])
    assert expected
    without_captures(writable_dashboard)  # stored by a test that ran first: audited here
    page = tab
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.goto(writable_dashboard.url)
    page.get_by_role("link", name="Import").click()
    page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(
        [*files, packed])
    page.get_by_role("button", name=re.compile(r"^Import 5 files")).click()
    expect(page.get_by_text("Ledger", exact=True)).to_be_visible(timeout=60_000)
    settle(page)
    expect(page.get_by_text("Audit against the room", exact=True)).to_be_visible()
    expect(page.get_by_text(f"{len(expected)} hands where the room's result differs from ours")
           ).to_be_visible()
    expect(page.get_by_text("Assumed by the readers", exact=True)).to_be_visible()
    page.screenshot(path=tmp_path / "import-audit.png", full_page=True)
    no_exception(page)
