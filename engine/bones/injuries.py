"""Injuries (18.00, 18.10): a ``?`` cell checked against the other team's intimidation."""

from __future__ import annotations

from engine.bones.rolls import white
from engine.bones.state import GameState, Step, other
from events.bones import InjuryChecked, Roll


def opposing_intimidation(state: GameState, player: str, side: str = "") -> int:
    """18.00: the intimidation bars of the other team's skaters on the ice (OIP)."""
    team = state.team(other(side or state.side_of(player)))
    return sum(getattr(team.card(pid), "intimidation", 0) for pid in team.skaters_on_ice())


def decide_injury(state: GameState, step: Step, roll: Roll) -> list:
    oip = opposing_intimidation(state, step.player, step.side)
    adjusted = roll.blue - 1
    result = ""
    if oip >= adjusted:
        result = state.charts.injuries[min(oip, 5)][white(roll) - 2]
    return [InjuryChecked(player=step.player, oip=oip, adjusted_blue=adjusted, result=result,
                          roll=state.rolls, rule="18.00")]


def apply_injury(state: GameState, event: InjuryChecked) -> None:
    step = state.queue.pop(0)
    state.injured = state.injured_side = ""
    side = step.side or state.side_of(event.player)
    team = state.team(side)
    status = team.players[event.player]
    if event.result in ("G", "P"):
        status.out = "game" if event.result == "G" else "period"
        for slot, pid in team.slots.items():
            if pid == event.player and slot != "G":
                team.slots[slot] = None
    elif event.result:
        status.modifier += int(event.result)  # 18.10: cumulative for the game
