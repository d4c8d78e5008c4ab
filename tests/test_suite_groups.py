"""The suite's xdist groups hold (docs/testing.md, "Groups and parallel runs").

``tests/conftest.py`` puts every browser test in the group ``browser`` and every Spark test in
``spark`` so that, under ``--dist loadgroup``, one worker runs each group and starts one
Chromium, its servers and one JVM. That rests on pytest-xdist renaming each test's id to
``<id>@<group>``; pytest 9.2 keeps the id elsewhere, the renaming is lost and every worker
started its own Chromium, servers and Spark (the suite's CPU went from about 400 s to 588 s).
These tests fail if the groups stop holding, whatever the versions installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PLANTED_CONFTEST = '''
import pytest

@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    for item in items:
        item.add_marker(pytest.mark.xdist_group("together"))
'''

PLANTED_TEST = '''
import os
from pathlib import Path

def test_{n}(request):
    out = Path(__file__).parent / "ran_{n}.txt"
    out.write_text(os.environ["PYTEST_XDIST_WORKER"] + " " + request.node.nodeid)
'''


def test_a_group_runs_on_one_worker_under_loadgroup(tmp_path: Path) -> None:
    """Four tests in four modules, one group: two workers, yet all four on one of them, and
    each test's id carries ``@together``."""
    (tmp_path / "conftest.py").write_text(PLANTED_CONFTEST)
    for n in range(4):
        (tmp_path / f"test_planted_{n}.py").write_text(PLANTED_TEST.format(n=n))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
         "--dist", "loadgroup", "-o", "addopts=", str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    ran = [(tmp_path / f"ran_{n}.txt").read_text().split(" ", 1) for n in range(4)]
    assert len({worker for worker, _ in ran}) == 1, ran
    assert all(nodeid.endswith("@together") for _, nodeid in ran), ran


def test_this_test_carries_its_modules_group(request: pytest.FixtureRequest) -> None:
    """In the suite itself: a test of no browser or Spark fixture is grouped by its module
    (under xdist's ``loadgroup``; run without workers, its id is the plain one)."""
    nodeid = request.node.nodeid
    if os.environ.get("PYTEST_XDIST_WORKER") and request.config.getoption("loadgroup", False):
        assert nodeid.endswith("@tests/test_suite_groups.py"), nodeid
    else:
        assert "@" not in nodeid, nodeid
