"""Positional constructors for the frozen record types, for code that builds millions of them.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``
(about 0.85 us for a five-field :class:`~ofc_core.hand.StreetPlay`); the engine builds 15
street records, three player records and three boards for every simulated hand. The
constructors here set the slots directly (about 0.45 us) and give values equal, field for
field, to the class's own constructor. They take every field, in declaration order, with no
defaults and no checks: use them only where the values are already known to be right.

>>> from ofc_core.hand import StreetPlay
>>> make = positional(StreetPlay)
>>> make((), (), (), None, None) == StreetPlay()
True
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import fields
from typing import Any, TypeVar, cast

T = TypeVar("T")


def positional(cls: type[T]) -> Callable[..., T]:
    """A constructor of ``cls`` (a frozen dataclass with ``slots=True`` and no
    ``__post_init__``) taking every field positionally and setting its slots directly.

    >>> from ofc_core.board import Board
    >>> positional(Board)((), (), ()) == Board((), (), ())
    True
    """
    names = [f.name for f in fields(cast(Any, cls))]
    if "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} needs slots and no __post_init__")
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    scope.update({f"set_{n}": cls.__dict__[n].__set__ for n in names})
    body = "".join(f"    set_{n}(record, {n})\n" for n in names)
    exec(f"def make({', '.join(names)}):\n    record = new(cls)\n{body}    return record\n",
         scope)
    make: Callable[..., T] = scope["make"]
    make.__doc__ = f"{cls.__name__}({', '.join(names)}), every field given, slots set directly."
    return make


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while many records (or other values without
    cycles) are built, and restore it as it was.

    The collector would otherwise walk the new values again and again as they pile up. When
    it is switched back on, the values made meanwhile are handed to its oldest generation
    (``gc.freeze`` then ``gc.unfreeze``, which moves them without looking at them): left in
    the youngest, the first collection after would walk every one of them once more (about
    8 us a simulated hand). They are still collected as usual if they ever form a cycle.
    When the program has frozen objects of its own (``gc.freeze``), they are left alone and
    so is this step.

    >>> import gc
    >>> with gc_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if not gc.get_freeze_count():  # (never unfreeze what someone else froze)
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()
