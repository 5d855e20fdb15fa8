"""What the one loop asks a Hockey Bones coach, and when (docs/systems.md, "The one loop"):
at a window before a face-off or an action, and at a step that waits for his choice.

Here, in a compiled module, rather than in the system's registration (engine/bones/
system.py, interpreted): the loop asks at every window, about 160 times a game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from engine.bones.state import GameState, Step
from events.base import Event

__all__ = ["choose", "window_asks"]

Asker = Callable[[GameState], list[Event]]


class _Asks:
    """What a coach is asked at a window, made once for him: his bound methods, for a
    face-off and for any other window. Made at every window, they were two generic look-ups
    of the coach's methods (a bound method made at each) and a list (about 620
    instructions a window, 160 windows a game)."""

    __slots__ = ("coach", "faceoff", "other")

    def __init__(self, coach: object) -> None:
        self.coach = coach
        lines: Asker = coach.lines  # type: ignore[attr-defined]
        tactics: Asker | None = getattr(coach, "tactics", None)
        self.other: tuple[Asker, ...] = (lines,)
        self.faceoff: tuple[Asker, ...] = (lines,) if tactics is None else (lines, tactics)


# The asks of the last coach seen (one entry, replaced whole: a thread never reads another
# coach's). Kept here, not on the coach: his own bound methods kept on him would be a
# reference cycle, which the collector paused during a game (engine.loop) would not free.
_LAST_ASKS: Final[list[_Asks | None]] = [None]


def window_asks(step: Step, coach: object) -> Sequence[Asker]:
    """At a stoppage or a played sequence the coach changes lines (6.41); before a
    face-off a coach with ``tactics`` also announces pressure offense or the checking game
    (19.00, 20.00), after his line changes."""
    asks = _LAST_ASKS[0]
    if asks is None or asks.coach is not coach:
        asks = _Asks(coach)
        _LAST_ASKS[0] = asks
    return asks.faceoff if step.kind == "faceoff" else asks.other


def choose(state: GameState, step: Step, coach: object) -> list[Event]:
    """A step that waits for the coach: shootout shooters (21.00), or the extra skater
    of a delayed penalty (14.60), which comes as a line change putting a skater in G."""
    if step.kind == "shootout_order":
        return [coach.shootout(state)]  # type: ignore[attr-defined]
    return list(coach.lines(state))  # type: ignore[attr-defined]
