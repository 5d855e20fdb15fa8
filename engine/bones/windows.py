"""What the one loop asks a Hockey Bones coach, and when (docs/systems.md, "The one loop"):
at a window before a face-off or an action, and at a step that waits for his choice.

Here, in a compiled module, rather than in the system's registration (engine/bones/
system.py, interpreted): the loop asks at every window, about 160 times a game."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.bones.state import GameState, Step
from events.base import Event

__all__ = ["choose", "window_asks"]

Asker = Callable[[GameState], list[Event]]


def window_asks(step: Step, coach: object) -> Sequence[Asker]:
    """At a stoppage or a played sequence the coach changes lines (6.41); before a
    face-off a coach with ``tactics`` also announces pressure offense or the checking game
    (19.00, 20.00), after his line changes. (The loop asks once a step kind a game.)"""
    lines: Asker = coach.lines  # type: ignore[attr-defined]
    if step.kind != "faceoff":
        return (lines,)
    tactics: Asker | None = getattr(coach, "tactics", None)
    return (lines,) if tactics is None else (lines, tactics)


def choose(state: GameState, step: Step, coach: object) -> list[Event]:
    """A step that waits for the coach: shootout shooters (21.00), or the extra skater
    of a delayed penalty (14.60), which comes as a line change putting a skater in G."""
    if step.kind == "shootout_order":
        return [coach.shootout(state)]  # type: ignore[attr-defined]
    return list(coach.lines(state))  # type: ignore[attr-defined]
