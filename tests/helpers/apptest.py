"""Streamlit's ``AppTest`` on the dashboard, with a database of the test's."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "dashboard" / "app.py")
TIMEOUT = 60
"""Seconds an AppTest run may take (a shared, busy machine)."""


def app(db: Path, monkeypatch: pytest.MonkeyPatch, **params: str) -> AppTest:
    """The app on ``db`` (through ``OFC_DB``), its URL holding ``params``; not run yet."""
    monkeypatch.setenv("OFC_DB", str(db))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(params)
    return at


def open_page(at: AppTest, page: str) -> AppTest:
    """Run the app once (the default page registers the navigation), then switch to ``page``."""
    at.run()
    return at.switch_page(page).run()
