"""Play that goes on, and play that stops: what comes next after a puck moves or a
whistle blows (7.00, 14.60, 18.00, 6.00 period ends)."""

from __future__ import annotations

from typing import Final

from engine.bones.penalties import bench_minor_call
from engine.bones.state import GameState, Step, TeamState
from events.bones import PlayStopped, PuckIntercepted, PuckPassed


def continue_or_stop(state: GameState) -> list:
    """After a play ends with a puck in someone's hands: a delayed penalty's roll is over
    (14.60), or an injury stops play (18.00)."""
    if state.delayed:
        return [PlayStopped(reason="penalty", zone=None)]
    if state.injured:
        return [PlayStopped(reason="injury", zone=None)]
    return []


# The steps that carry nothing but their kind, made once: a step is replaced in the queue,
# never changed (engine/bones/state.py), so every state may hold the same one.
ACTION_STEP: Final = Step("action")
END_PERIOD_STEP: Final = Step("end_period")


def resume(state: GameState) -> None:
    """Evolve: the carrier rolls next, unless the clock has run out (6.00)."""
    if state.pending_shot is not None:
        owed, state.pending_shot = state.pending_shot, None
        # The shooter holds the puck now (ids are unique only within a team).
        shooter = owed.shooter
        side = state.puck[0] if state.puck and state.puck[1] == shooter else state.side_of(shooter)
        state.replace_step(Step("shot", side=side, player=shooter, shot=owed.kind))
    elif state.clock_expired:
        state.replace_step(END_PERIOD_STEP)
    else:
        state.replace_step(ACTION_STEP)


# Compiled, isinstance against a msgspec class is the slow generic check; an event's
# class is its exact class. Final: a C static, not a module look-up.
_INTERCEPTED: Final = PuckIntercepted


def apply_puck_moved(state: GameState, event: PuckPassed | PuckIntercepted) -> None:
    state.puck = (event.side, event.to_player)
    if type(event) is _INTERCEPTED:
        state.pp_passes = 0
    # 6.41: the old carrier may be changed on the fly once he loses the puck, even after
    # a pass that used no time (6.20, first power-play pass); else he could play a 6th
    # straight sequence without the puck (6.40).
    state.coach_window = True
    resume(state)


def decide_stop(state: GameState, step: Step, roll: object) -> list:
    """A rollless step that ends the play (after a goal, or called penalties)."""
    zone = step.side or None
    return [PlayStopped(reason=step.reason or "penalty", zone=zone)]


def apply_stop(state: GameState, event: PlayStopped) -> None:
    """Evolve: a stoppage. Penalties are assessed, an injury checked, then a face-off or
    the end of the period; lines may change."""
    state.puck = None
    state.pending_shot = None
    state.delayed = False
    state.dz_bonus = ""
    state.home.tactic = state.away.tactic = None  # 19.00, 20.00: until the next stoppage
    state.home.pulled_on_the_fly = state.away.pulled_on_the_fly = False  # 6.41
    # Each team written out, home first (compiled, a loop over a tuple of the two walks
    # it generically).
    _bench_minor_falls(state, state.home)
    _bench_minor_falls(state, state.away)
    steps: list[Step] = []
    if state.calls:
        steps.append(Step("assess"))
    if state.injured:
        steps.append(Step("injury", side=state.injured_side, player=state.injured))
    sudden_death = state.period >= 4 and state.home.score != state.away.score
    if state.clock_expired or sudden_death:
        steps.append(Step("end_period"))
    else:
        steps.append(Step("faceoff", zone=event.zone))
    if len(steps) == 1:  # nearly every stoppage: no slice made to replace the step
        state.replace_step(steps[0])
    else:
        state.queue[0:1] = steps
    state.coach_window = True


def _bench_minor_falls(state: GameState, team: TeamState) -> None:
    """A bench minor scheduled for this sequence of the period or before is called (5.00)."""
    if team.bench_minor_at is not None and state.sequence >= team.bench_minor_at:
        state.calls.append(bench_minor_call(state, team.side))
        team.bench_minor_at = None
