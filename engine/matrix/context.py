"""What one referee command works with: a copy of the season it evolves as it decides,
the events it has decided so far, and the dice."""

from __future__ import annotations

from typing import Any

from engine.matrix.dice import Dice, DieSource
from engine.matrix.state import SeasonState, evolve

__all__ = ["Referee"]


class Referee:
    """``emit`` appends an event and applies it to ``state`` (a copy: the season the
    command was given is never changed), so each step reads what the ones before decided."""

    def __init__(self, state: SeasonState, source: DieSource) -> None:
        self.state = state.copy()
        self.events: list[Any] = []
        self.dice = Dice(source, state.dice, self.emit)

    def emit(self, event: Any) -> None:
        self.events.append(event)
        evolve(self.state, event)
