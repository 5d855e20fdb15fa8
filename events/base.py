"""The base every event shares, and the dice roll every rule reads.

Events are frozen msgspec Structs tagged by class name, so the stored ``type`` column and
the ``type`` key of an encoded event agree. Schema evolution is additive: new fields get
defaults, tags never change.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

Die = Annotated[int, Meta(ge=1, le=6)]


class Event(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag=True):
    """Base of every event in a stream."""


class Roll(msgspec.Struct, frozen=True, forbid_unknown_fields=True, array_like=True):
    """One throw of the four Hockey Bones dice: blue, two whites, red (3.00).

    The whites are kept apart so a typed roll can be checked die by die; the rules read
    their total, ``white`` (2-12).
    """

    blue: Die
    whites: tuple[Die, Die]
    red: Die

    @property
    def white(self) -> int:
        return self.whites[0] + self.whites[1]

    def __str__(self) -> str:
        return f"{self.blue} {self.whites[0]} {self.whites[1]} {self.red}"
