"""Re-run a recorded game through the rules and find the first event that does not follow.

The stream's dice are fed back to ``decide``; every decision the rules make from the
state before it must equal the recorded one, byte for byte. Coach choices are not
re-decided but checked for legality (6.41, 15.00, 21.00). Used by the audit, and to
resume or branch a stopped game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.systems import system_of
from events.base import Event
from events.common import BranchStarted, GameCreated


@dataclass(frozen=True)
class Mismatch:
    seq: int
    expected: str
    recorded: str
    rule: str


@dataclass
class Refold:
    """A stream re-run through the rules: the state at its end, the first event that does
    not follow (``mismatch``), and, for a stream cut inside a decision, the events the
    rules still owe (``pending``, not applied to ``state``)."""

    state: Any  # the system's game state
    mismatch: Mismatch | None = None
    pending: list[Event] = field(default_factory=list)


def refold(events: Sequence[Event], home: Any, away: Any, charts: Any) -> Refold:
    """Fold ``events`` by re-deciding every step from its recorded roll (the audit's
    check, and the way a stopped game is resumed).

    A branch's lineage events (BranchStarted) are not rules: they are passed over, and a
    mismatch is reported at its seq in ``events``.
    """
    forks = [seq for seq, e in enumerate(events, 1) if isinstance(e, BranchStarted)]
    if not forks:
        return _refold(events, home, away, charts)
    result = _refold([e for e in events if not isinstance(e, BranchStarted)], home, away, charts)
    if result.mismatch is not None:
        seq = result.mismatch.seq
        for fork in forks:
            if seq >= fork:
                seq += 1
        result.mismatch = Mismatch(seq, result.mismatch.expected, result.mismatch.recorded,
                                   result.mismatch.rule)
    return result


def _refold(events: Sequence[Event], home: Any, away: Any, charts: Any) -> Refold:
    created = events[0]
    assert isinstance(created, GameCreated)
    system = system_of(created.ruleset)
    evolve, decide = system.evolve, system.decide
    state = system.initial_state(created, home, away, charts)
    i = 1
    while i < len(events):
        event = events[i]
        if isinstance(event, system.choice_events):
            try:
                system.check_choice(state, event)
            except system.illegal_choice as err:
                return Refold(state, Mismatch(i + 1, "a legal coach choice", str(err), "6.41"))
            evolve(state, event)
            i += 1
            continue
        if state.finished or not state.queue:
            return Refold(state, Mismatch(i + 1, "the end of the game", type(event).__name__,
                                          "6.00"))
        step = state.queue[0]
        roll = None
        if step.needs_roll:
            if not isinstance(event, system.roll_event) or event.n != state.rolls + 1 \
                    or event.purpose != step.kind:
                return Refold(state, Mismatch(i + 1, f"roll {state.rolls + 1} for {step.kind}",
                                              type(event).__name__, "3.00"))
            evolve(state, event)
            roll = event.roll
            i += 1
        expected = decide(state, roll)
        recorded = events[i:i + len(expected)]
        for offset, (want, got) in enumerate(zip(expected, recorded, strict=False)):
            if want != got:
                return Refold(state, Mismatch(i + offset + 1, repr(want), repr(got),
                                              getattr(want, "rule", "")))
        for want in recorded:
            evolve(state, want)
        if len(recorded) < len(expected):
            return Refold(state, pending=list(expected[len(recorded):]))
        i += len(expected)
    return Refold(state)


def recheck(events: list[Event], home: Any, away: Any, charts: Any) -> Mismatch | None:
    """The first event (by seq, 1-based) the rules do not reproduce, or None."""
    result = refold(events, home, away, charts)
    if result.mismatch is not None:
        return result.mismatch
    if result.pending:
        return Mismatch(len(events) + 1, repr(result.pending[0]), "end of stream", "")
    if not result.state.finished:
        return Mismatch(len(events) + 1, "more events: the game is not over", "end of stream", "")
    return None
