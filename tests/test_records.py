"""The record-building helpers of ``ofc_core.records``."""

from __future__ import annotations

import gc
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
    keep = [_Node() for _ in range(10)]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen >= len(keep)
        with gc_paused():
            _ = [[i] for i in range(1_000)]
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
