"""Possession, timing spaces and the whistle (7, 9, 12, 21B, 22): what every rule area
needs when the puck moves, a timing space is counted or play stops."""

from __future__ import annotations

from typing import Final

from engine.dicehockey.lines import on_ice, shifts_taken, skaters_on_ice, slot_of
from engine.dicehockey.state import (
    FORWARD_SLOTS,
    SIDES,
    Call,
    GameState,
    TeamState,
    holding,
    other,
)
from events.base import Event
from events.dicehockey import (
    PenaltyAssessed,
    PenaltyEnded,
    PlayStopped,
    TimingSpaceCounted,
)


def give_puck(state: GameState, side: str, player: str, slot: str | None = None) -> None:
    """``player`` of ``side`` has the puck. A new possession resets the shots and the
    handlers (7, 22), counts for every line on the ice (9), and makes a forward who
    takes it after a possession of more than one shot dump it (21B). ``slot``: where the
    event says he stands, taken when the slots agree (one look-up, not a walk of them)."""
    previous = state.puck
    # the slots stay as they are below
    if slot is None or on_ice(state, side).get(slot) != player:
        slot = slot_of(state, side, player)
    if previous is None or previous[0] != side:
        forward = slot in FORWARD_SLOTS
        if previous is not None and state.possession_shots > 1 and forward:
            state.dump = "21B"
        else:
            state.dump = ""
        state.possession_shots = 0
        state.rebound = False
        state.handlers = [player]
        state.en_passes = 0
        state.fresh_possession = True
        _possession(state.home)  # (home, then away, written out: no tuple walked)
        _possession(state.away)
    elif not state.handlers or state.handlers[-1] != player:
        state.handlers.append(player)
    held = holding(side, player)  # the puck and its carrier's pass, made once
    state.puck = state.pass_puck = held[0]
    state.pass_queue = held[1]
    state.carrier_slot = slot or ""
    state.coach_window = True
    state.window = "puck"


def _possession(team: TeamState) -> None:
    """9: a possession for each unit on the ice, and the shifts it fills."""
    team.f_possessions += 1
    team.d_possessions += 1
    shifts_taken(team)


def assists(state: GameState, scorer: str) -> list[str]:
    """7: the last two players to handle the puck before the goal; ruling R-DH-7a: the
    scorer's own earlier touches are passed over, so a team-mate gets the credit."""
    found: list[str] = []
    for player in reversed(state.handlers):
        if player != scorer and player not in found:
            found.append(player)
        if len(found) == 2:
            break
    return found


def strength(state: GameState, side: str) -> str:
    """EV, PP or SH for a goal by ``side`` (by the penalties' men short, 15)."""
    mine, theirs = state.team(side).men_short(), state.team(other(side)).men_short()
    return "PP" if mine < theirs else "SH" if mine > theirs else "EV"


def step_roll(state: GameState) -> int:
    """The ``n`` of the roll the step being decided used; 0 for a step without dice."""
    step = state.pending[0] if state.pending else state.flow_step()
    return state.rolls if step is not None and step.needs_roll else 0


def count_space(state: GameState, reason: str, rule: str) -> list[Event]:
    """A timing space (9, 12, 22) with who was on the ice, and the box times (fights,
    misconducts: 18) it ends."""
    # positionally, in declared order (period, space, reason, home_on_ice, away_on_ice,
    # roll, rule)
    events: list[Event] = [TimingSpaceCounted(
        state.period, state.space + 1, reason, skaters_on_ice(state, "home"),
        skaters_on_ice(state, "away"), step_roll(state), rule)]
    if state.home.penalties or state.away.penalties:  # the common case: no box time to end
        for side in SIDES:
            for penalty in state.team(side).penalties:
                if not penalty.short and penalty.spaces_left == 1:
                    events.append(PenaltyEnded(id=penalty.id, side=side,
                                               player=penalty.player, reason="served",
                                               clears_left=0, roll=step_roll(state),
                                               rule="18"))
    return events


def apply_space(state: GameState, event: TimingSpaceCounted) -> None:
    state.space = event.space
    _space(state.home)  # (home, then away, written out: no tuple walked)
    _space(state.away)


def _space(team: TeamState) -> None:
    """9, 18: a timing space for each unit on the ice and each box time served."""
    team.f_spaces += 1
    team.d_spaces += 1
    shifts_taken(team)
    for penalty in team.penalties:
        if not penalty.short and penalty.spaces_left > 0:
            penalty.spaces_left -= 1


def whistle(state: GameState, reason: str, rule: str, calls: tuple[Call, ...] = ()) -> list[Event]:
    """Play stops: delayed penalties and ``calls`` made now go in the box (15, 18), then a
    face-off follows."""
    boxed = [penalty_event(state, call, state.next_penalty_id + i)
             for i, call in enumerate([*state.delayed, *calls])]
    # positionally, in declared order (reason, side, roll, rule)
    return [*boxed, PlayStopped(reason, state.puck[0] if state.puck else None,
                                step_roll(state), rule)]


def penalty_event(state: GameState, call: Call, penalty_id: int) -> PenaltyAssessed:
    """A penalty put in the box: minors, double minors and majors killed by 2, 4, 5
    clears (15); a fight sits 5 timing spaces (18); ruling R-DH-15d: a misconduct sits 10."""
    return PenaltyAssessed(
        id=penalty_id, side=call.side, player=call.player, infraction=call.infraction,
        kind=call.kind, minutes=MINUTES[call.kind], clears=CLEARS.get(call.kind, 0),
        spaces=SPACES.get(call.kind, 0), short=call.kind in CLEARS, period=state.period,
        space=state.space, roll=step_roll(state), rule=call.rule)


def apply_stopped(state: GameState, event: PlayStopped) -> None:
    state.puck = None
    state.dump = ""
    state.rebound = False
    state.handlers = []
    state.en_passes = 0
    state.possession_shots = 0
    state.whistle_side = event.side
    state.window = "stoppage"
    state.coach_window = True
    state.delayed = []
    state.delayed_ea = None


MINUTES: Final = {"minor": 2, "double_minor": 4, "major": 5, "misconduct": 10,
                  "game_misconduct": 10, "fight": 5, "penalty_shot": 0}
CLEARS: Final = {"minor": 2, "double_minor": 4, "major": 5}  # 15: clears instead of minutes
SPACES: Final = {"fight": 5, "misconduct": 10}  # 18: "5 shots/turnovers"; ruling R-DH-15d

__all__ = ["apply_space", "apply_stopped", "assists", "count_space",
           "give_puck", "on_ice", "penalty_event", "step_roll", "strength", "whistle"]
