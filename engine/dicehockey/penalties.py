"""Penalties (15, 21D, 22): Penalty Chart A (who), Chart B (what), delayed penalties,
the box, and penalties killed by clears instead of time.

A penalty off a skater's card (97-98) or a goalie's (95-99) is always a minor. On the
team with the puck it stops play at once; on the defense it is delayed (15): play goes
on, an extra attacker joins the offense (22, ruling R-DH-22b), and the whistle comes when
the defense gains the puck or play stops; a goal first erases it. A goalie's penalty
stops play at once (ruling R-DH-15c: he has covered the puck).
"""

from __future__ import annotations

from engine.dicehockey.cards import band
from engine.dicehockey.lines import on_ice
from engine.dicehockey.puck import whistle
from engine.dicehockey.state import SLOTS, Call, GameState, Penalty, Step, other
from events.base import Event
from events.dicehockey import (
    ClearCounted,
    InfractionRolled,
    PenaltyAssessed,
    PenaltyCalled,
    PenaltyEnded,
    PenaltyErased,
    Roll,
)


def ranked(state: GameState, side: str, rank: int) -> str:
    """15: the player of ``side``'s five with the ``rank``-th highest penalty rating;
    ruling R-DH-15a: a tie goes to the first in slot order (LW, C, RW, LD, RD), and a rank
    past a short-handed team's skaters is its last."""
    slots = on_ice(state, side)
    players = [slots[s] for s in SLOTS if slots[s]]
    order = sorted(players, key=lambda p: -state.card(side, p).penalty)
    return order[min(rank, len(order)) - 1]


def decide_who(state: GameState, step: Step, roll: Roll) -> list[Event]:
    """Penalty Chart A. ``step.side`` is the offense: the team that had the puck."""
    entry = band(state.charts.penalty_a, roll.value)
    side = step.side if entry.team == "offense" else other(step.side)
    return [PenaltyCalled(side=side, player=ranked(state, side, entry.rank), team=entry.team,
                          rank=entry.rank, source=step.source, roll=state.rolls, rule="15")]


def apply_called(state: GameState, event: PenaltyCalled) -> None:
    offense = event.side if event.team == "offense" else other(event.side)
    state.pending.append(Step("penalty_what", side=offense, player=event.player,
                              source=event.source, team=event.side))


def decide_what(state: GameState, step: Step, roll: Roll) -> list[Event]:
    """Penalty Chart B: the infraction; always a minor off a card (15)."""
    called = step.team
    infraction = band(state.charts.penalty_b, roll.value).infraction
    delayed = called != step.side and step.source == "skater"
    event = InfractionRolled(side=called, player=step.player, infraction=infraction,
                             kind="minor", delayed=delayed, roll=state.rolls, rule="15")
    if delayed:
        return [event]
    call = Call(called, step.player, infraction, "minor")
    return [event, *whistle(state, "penalty", "15", (call,))]


def apply_infraction(state: GameState, event: InfractionRolled) -> None:
    if event.delayed:
        state.delayed.append(Call(event.side, event.player, event.infraction, event.kind))
        state.delayed_ea = delayed_extra_attacker(state, other(event.side))


def delayed_extra_attacker(state: GameState, side: str) -> str | None:
    """Ruling R-DH-22b: during a delayed penalty the offense adds its dressed skater off the
    ice with the widest goal range (22: "take any player from any line")."""
    team = state.team(side)
    if team.pulled:
        return None  # the goalie is already out for an extra attacker
    on = set(on_ice(state, side).values())
    free = [c for c in team.team.skaters if c.id not in on and c.id not in team.out]
    return max(free, key=lambda c: c.goal).id if free else None


def decide_assess(state: GameState, step: Step, roll: Roll | None) -> list[Event]:
    """The whistle of a delayed penalty: the defense has the puck, or play is dead."""
    return whistle(state, "penalty", "15")


def apply_assessed(state: GameState, event: PenaltyAssessed) -> None:
    team = state.team(event.side)
    state.next_penalty_id = event.id + 1
    if event.kind == "game_misconduct":
        team.out[event.player] = "ejected"  # 15: replaced, the team is not short
        state.pending.append(Step("suspension", side=event.side, player=event.player))
        return
    team.penalties.append(Penalty(event.id, event.player, event.kind, event.clears,
                                  event.spaces, event.short))
    team.out[event.player] = "box"


def apply_cleared(state: GameState, event: ClearCounted) -> None:
    left = dict(zip(event.penalties, event.left, strict=True))
    for penalty in state.team(event.side).penalties:
        if penalty.id in left:
            penalty.clears_left = left[penalty.id]


def apply_ended(state: GameState, event: PenaltyEnded) -> None:
    team = state.team(event.side)
    for penalty in list(team.penalties):
        if penalty.id != event.id:
            continue
        if event.clears_left:  # 15: a double minor serves its second two clears
            penalty.clears_left = event.clears_left
            return
        team.penalties.remove(penalty)
        if not any(p.player == penalty.player for p in team.penalties) \
                and team.out.get(penalty.player) == "box":
            del team.out[penalty.player]


def apply_erased(state: GameState, event: PenaltyErased) -> None:
    state.delayed = [c for c in state.delayed if c.player != event.player]


__all__ = ["apply_assessed", "apply_called", "apply_cleared", "apply_ended", "apply_erased",
           "apply_infraction", "decide_assess", "decide_what", "decide_who",
           "delayed_extra_attacker", "ranked"]
