"""Where events of some classes stand in a stream, found in one pass run in C.

The audit and the refold look up, for a game's ~1,200 events, where its branch events,
game notes and rolls stand. An ``isinstance`` a event in a Python loop costs more than the
check it feeds; here each event's class is looked up in a dict (``isinstance`` answered
once per class, subclasses included, as ``isinstance`` answers it) and the positions
taken with :func:`itertools.compress`, every step in C.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress, count
from typing import Any


class Kinds(dict[type, bool]):
    """``isinstance`` against ``classes``, answered once per class and kept."""

    def __init__(self, classes: type | tuple[type, ...]) -> None:
        super().__init__()
        self.classes = classes

    def __missing__(self, cls: type) -> bool:
        found = self[cls] = issubclass(cls, self.classes)
        return found

    def seqs(self, events: Iterable[Any], start: int = 1) -> list[int]:
        """The positions (counted from ``start``) of the events that are instances of
        ``classes``, in order."""
        return list(compress(count(start), map(self.__getitem__, map(type, events))))

    def first(self, events: Iterable[Any], start: int = 1) -> int | None:
        """The position of the first such event, or None."""
        return next(compress(count(start), map(self.__getitem__, map(type, events))), None)
