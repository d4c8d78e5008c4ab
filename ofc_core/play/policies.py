"""The bots by name: how simulated players place their cards.

Every policy follows :class:`ofc_core.play.engine.Policy`: given a
:class:`~ofc_core.play.engine.View` (own board, dealt cards, opponents' visible boards,
ruleset) it returns a legal :class:`~ofc_core.play.engine.Placement`. The bots live in their
own modules:

- ``careful`` (:mod:`ofc_core.play.careful`): greedy on rank and suit counts, pairs a queen or
  better on top only when covering it is likely;
- ``chaser`` (:mod:`ofc_core.play.chaser`): the same machinery, chasing Fantasyland, with a
  look-ahead while a Fantasyland top is at stake;
- ``random`` (:mod:`ofc_core.play.random_bot`): a uniformly random legal move;
- ``strong`` (:mod:`ofc_core.play.strong`): the placement the learned value of a position
  rates best, without seeing the future (by the hand's preset's value where one ships; as
  ``careful`` where none does).

All of them set a Fantasyland hand with the exact solver (:mod:`ofc_core.play.fl_solver`) and
decide the Double cube by the score (:mod:`ofc_core.play.cube`); shared row helpers are in
:mod:`ofc_core.play.rows`. Randomness comes only from the ``rng`` the engine passes in.

>>> import random
>>> from ofc_core.play.engine import Table
>>> from ofc_core.play.sessions import SessionSpec, play_session
>>> from ofc_core.rules import PRESETS
>>> table = Table(PRESETS["pineapple"], ("ann", "bob", "cy"),
...               tuple(POLICIES[n]() for n in ("careful", "chaser", "random")))
>>> hands = play_session(table, SessionSpec("doc", hands=20), random.Random(3))
>>> len(hands)
20
"""

from __future__ import annotations

from collections.abc import Callable

from ofc_core.play.careful import CAREFUL, HeuristicPolicy
from ofc_core.play.chaser import CHASER
from ofc_core.play.engine import Policy
from ofc_core.play.random_bot import RandomPolicy
from ofc_core.play.strong import StrongPolicy


def _careful() -> Policy:
    return HeuristicPolicy(CAREFUL)


def _chaser() -> Policy:
    return HeuristicPolicy(CHASER)


def _random() -> Policy:
    return RandomPolicy()


def _strong() -> Policy:
    return StrongPolicy()


POLICIES: dict[str, Callable[[], Policy]] = {
    "careful": _careful,
    "chaser": _chaser,
    "random": _random,
    "strong": _strong,
}
"""Policy factories by name (the ``--policies`` of ``ofc simulate``)."""


def policy(name: str) -> Policy:
    """The policy called ``name``.

    >>> policy("careful").name
    'careful'
    >>> policy("bold")
    Traceback (most recent call last):
    ...
    ValueError: unknown policy 'bold' (one of careful, chaser, random, strong)
    """
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r} (one of {', '.join(POLICIES)})")
    return POLICIES[name]()
