"""Re-run a recorded game through the rules and find the first event that does not follow.

The stream's dice are fed back to ``decide``; every decision the rules make from the
state before it must equal the recorded one, byte for byte. Coach choices are not
re-decided but checked for legality (6.41, 15.00, 21.00).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.bones.cards import Charts, Team
from engine.bones.game import IllegalChoice, check_choice, decide, evolve, initial_state
from events.base import Event
from events.bones import ShootoutOrderChosen
from events.common import DiceRolled, GameCreated, LinesChanged, TacticDeclared

CHOICES = (LinesChanged, ShootoutOrderChosen, TacticDeclared)


@dataclass(frozen=True)
class Mismatch:
    seq: int
    expected: str
    recorded: str
    rule: str


def recheck(events: list[Event], home: Team, away: Team, charts: Charts) -> Mismatch | None:
    """The first event (by seq, 1-based) the rules do not reproduce, or None."""
    created = events[0]
    assert isinstance(created, GameCreated)
    state = initial_state(created, home, away, charts)
    i = 1
    while i < len(events):
        event = events[i]
        if isinstance(event, CHOICES):
            try:
                check_choice(state, event)
            except IllegalChoice as err:
                return Mismatch(i + 1, "a legal coach choice", str(err), "6.41")
            evolve(state, event)
            i += 1
            continue
        if state.finished or not state.queue:
            return Mismatch(i + 1, "the end of the game", type(event).__name__, "6.00")
        step = state.queue[0]
        roll = None
        if step.needs_roll:
            if not isinstance(event, DiceRolled) or event.n != state.rolls + 1:
                return Mismatch(i + 1, f"roll {state.rolls + 1} for {step.kind}",
                                type(event).__name__, "3.00")
            evolve(state, event)
            roll = event.roll
            i += 1
        expected = decide(state, roll)
        recorded = events[i:i + len(expected)]
        for offset, (want, got) in enumerate(zip(expected, recorded, strict=False)):
            if want != got:
                return Mismatch(i + offset + 1, repr(want), repr(got), getattr(want, "rule", ""))
        if len(recorded) < len(expected):
            return Mismatch(len(events) + 1, repr(expected[len(recorded)]), "end of stream", "")
        for want in expected:
            evolve(state, want)
        i += len(expected)
    if not state.finished:
        return Mismatch(len(events) + 1, "more events: the game is not over", "end of stream", "")
    return None
