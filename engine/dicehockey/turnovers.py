"""Turnovers and dumps (9, 19, 21B, 21C, 22).

TRV B sends the dice to the Turnover chart (19, 21C): a stolen pass, a steal for a
breakaway (a shot on the thief's goal range +30), or a face-off (icing, offside). A dump
(9) clears the puck into the corner: the other team's RD chases it down on an even roll,
its LD on an odd one, and both teams may change both lines. Against a pulled goalie
(22) a dump reads the carrier's column unmodified: PS an empty-net goal, GS a steal by
the extra attacker, a plain pass an icing; after two good passes the empty-net roll reads
PS as a goal and anything else as a dump.
"""

from __future__ import annotations

from engine.dicehockey.bands import band
from engine.dicehockey.dice import roll_value
from engine.dicehockey.lines import on_ice
from engine.dicehockey.passing import parity_defense
from engine.dicehockey.puck import whistle
from engine.dicehockey.shots import goal_events
from engine.dicehockey.state import GameState, Step, other
from events.base import Event
from events.dicehockey import PuckDumped, Roll, TurnoverRolled


def decide_turnover(state: GameState, step: Step, roll: Roll) -> list[Event]:
    """``step.side`` lost the puck."""
    entry = band(state.charts.turnover, roll_value(roll))
    thief = other(step.side)
    if entry.kind in ("icing", "offside"):
        return [TurnoverRolled(side=step.side, kind=entry.kind, to_player=None, slot=None,
                               miss=None, text=entry.text, roll=state.rolls, rule="19"),
                *whistle(state, entry.kind, "19")]
    slots = on_ice(state, thief)
    slot = entry.slot if slots.get(entry.slot) else parity_defense(roll)
    return [TurnoverRolled(side=thief, kind=entry.kind, to_player=slots[slot], slot=slot,
                           miss=entry.miss or None, text=entry.text, roll=state.rolls, rule="19")]


def apply_turnover(state: GameState, event: TurnoverRolled) -> None:
    if event.kind == "breakaway" and event.to_player:
        state.pending.append(Step("shot", side=event.side, player=event.to_player,
                                  shot="breakaway", miss=event.miss or ""))


def decide_dump(state: GameState, step: Step, roll: Roll) -> list[Event]:
    side, carrier = step.side, step.player
    opponent = other(side)
    if state.team(opponent).pulled and step.reason == "choice":
        return _empty_net_dump(state, step, roll)
    slot = parity_defense(roll)  # ruling R-DH-9f: no timing space
    # positionally, in declared order (side, player, reason, outcome, to_side, to_player,
    # roll, rule)
    return [PuckDumped(side, carrier, step.reason, "recovered", opponent,
                       on_ice(state, opponent)[slot], state.rolls,
                       "21B" if step.reason == "21B" else "9")]


def _empty_net_dump(state: GameState, step: Step, roll: Roll) -> list[Event]:
    """22: "Do NOT MODIFY the roll"; ruling R-DH-22c: 90-99 is a plain dump."""
    side, carrier = step.side, step.player
    opponent = other(side)
    raw = roll_value(roll)
    shot = band(state.card(side, carrier).passing, raw).shot if raw < 90 else None

    def dumped(outcome: str, to_side: str | None, to_player: str | None) -> PuckDumped:
        return PuckDumped(side=side, player=carrier, reason="choice", outcome=outcome,
                          to_side=to_side, to_player=to_player, roll=state.rolls, rule="22")

    if shot == "PS":
        return [dumped("goal", None, None), *goal_events(state, side, carrier, True, rule="22")]
    if shot is not None and shot.startswith("GS"):
        return [dumped("steal", opponent, state.team(opponent).extra_attacker)]
    if shot == "":
        return [dumped("icing", None, None), *whistle(state, "icing", "22")]
    return [dumped("recovered", opponent, on_ice(state, opponent)[parity_defense(roll)])]


def decide_empty_net(state: GameState, step: Step, roll: Roll) -> list[Event]:
    """22: after two good passes, a PS is an empty-net goal (ruling R-DH-22d: no shot on
    goal, no timing space); else a dump to the other team's RD (even) or LD (odd)."""
    side, carrier = step.side, step.player
    raw = roll_value(roll)
    shot = band(state.card(side, carrier).passing, raw).shot if raw < 90 else ""
    if shot == "PS":
        return [PuckDumped(side=side, player=carrier, reason="empty_net_passes",
                           outcome="goal", to_side=None, to_player=None, roll=state.rolls,
                           rule="22"),
                *goal_events(state, side, carrier, True, rule="22")]
    to = on_ice(state, other(side))[parity_defense(roll)]
    return [PuckDumped(side=side, player=carrier, reason="empty_net_passes",
                       outcome="recovered", to_side=other(side), to_player=to,
                       roll=state.rolls, rule="22")]
