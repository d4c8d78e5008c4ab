"""The record-building helpers of ``ofc_core.records``."""

from __future__ import annotations

import gc
import subprocess
import sys
import weakref

from ofc_core.records import gc_paused


class _Node:
    pass


def test_values_made_while_paused_leave_the_young_generation():
    """Left in the youngest generation, they would all be walked by the next collection. (The
    collector is kept off around the test, so no collection moves them meanwhile.)"""
    gc.collect()
    gc.disable()
    try:
        with gc_paused():
            made = [[i] for i in range(50_000)]
        assert gc.get_count()[0] < 1_000  # not the 50,000 lists
        assert not any(o is made[0] for o in gc.get_objects(generation=0))
        assert any(o is made[0] for o in gc.get_objects(generation=2))
    finally:
        gc.enable()


def test_a_cycle_made_while_paused_is_still_collected():
    with gc_paused():
        node = _Node()
        node.me = node
        gone = weakref.ref(node)
    del node
    gc.collect()
    assert gone() is None


def test_the_collector_stays_off_when_it_was_off():
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_objects_frozen_by_the_program_stay_frozen():
    """Run in a fresh interpreter: the freeze count is process-wide, so a thread left running
    by another test (an import's committer inside its own ``gc_paused``) could move it."""
    code = """
import gc
from ofc_core.records import gc_paused
class Node:
    pass
keep = [Node() for _ in range(10)]
gc.freeze()
frozen = gc.get_freeze_count()
assert frozen >= len(keep), frozen
with gc_paused():
    made = [[i] for i in range(1_000)]
assert gc.get_freeze_count() == frozen, (gc.get_freeze_count(), frozen)
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
