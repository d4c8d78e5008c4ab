"""Hypothesis profiles: ``ci`` runs every property test's full count of examples (as its
``examples(n)`` says), ``dev`` a tenth of them (at least 5), for a quick run while working.

``ci`` is the default when the ``CI`` environment variable is set (``.ci/run`` sets it, as CI
services do), ``dev`` otherwise; ``HYPOTHESIS_PROFILE=ci`` (or pytest's
``--hypothesis-profile ci``) chooses. A property test states its count at ``ci``, e.g.
``@settings(max_examples=examples(200), deadline=None)``.
"""

from __future__ import annotations

import os

from hypothesis import settings

FULL = 100
"""``max_examples`` of the ``ci`` profile (Hypothesis's own default): ``examples(n)`` gives
``n`` under it."""

settings.register_profile("ci", max_examples=FULL)
settings.register_profile("dev", max_examples=FULL // 10)


def default_profile() -> str:
    """``HYPOTHESIS_PROFILE`` if set, else ``ci`` when ``CI`` is set (not ``0``/``false``),
    else ``dev``."""
    chosen = os.environ.get("HYPOTHESIS_PROFILE")
    if chosen:
        return chosen
    ci = os.environ.get("CI", "").strip().lower()
    return "ci" if ci not in ("", "0", "false", "no") else "dev"


def load_profile() -> None:
    settings.load_profile(default_profile())


def examples(at_ci: int) -> int:
    """The ``max_examples`` of a property test that runs ``at_ci`` examples under ``ci``,
    under the loaded profile (see :func:`scaled`)."""
    return scaled(at_ci, settings.default.max_examples)


def scaled(at_ci: int, profile_examples: int) -> int:
    """``at_ci`` scaled by a profile's ``max_examples`` against ``ci``'s: ``dev`` runs a tenth,
    at least 5, never more than ``at_ci``.

    >>> scaled(200, FULL // 10), scaled(40, FULL // 10), scaled(3, FULL // 10)
    (20, 5, 3)
    >>> scaled(200, FULL)
    200
    """
    return min(at_ci, max(5, at_ci * profile_examples // FULL))
