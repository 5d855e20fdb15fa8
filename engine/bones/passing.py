"""Passes (13.00) and interceptions (12.00, 12.10): where the red die sends the puck."""

from __future__ import annotations

from typing import Final, cast

from engine.bones.cards import Skater
from engine.bones.state import GameState, other
from events.bones import PuckIntercepted, PuckPassed

# The names of modules that are not compiled (the events, the cards) as Final aliases
# where they are used at every step: compiled, an imported name is looked up in this
# module's dictionary at every use (about 130 instructions); a Final one is a C static.
_PUCK_PASSED: Final = PuckPassed
_PUCK_INTERCEPTED: Final = PuckIntercepted


def pp_rules(state: GameState, side: str) -> bool:
    """Power-play passing rules: a penalty power play, or a pulled goalie with more
    skaters (quick reference, goalie pulled)."""
    if state.strength(side) == "pp":
        return True
    # Whether the goalie is pulled (a native read) asked before whether the ruleset has
    # the quick reference (a plain class's field, a generic look-up): nearly always he
    # is in net, and either way the answer is no.
    team = state.team(side)
    if not team.pulled:
        return False
    if not state.ruleset.quick_reference:
        return False  # FaceOff: its power play is the penalties' (no quick reference)
    return state.skaters(side) > state.skaters(other(side))


def man_advantage(state: GameState, side: str) -> int:
    return state.skaters(side) - state.skaters(other(side))


def pass_target(state: GameState, side: str, card: Skater, red: int) -> str:
    """The slot a pass goes to on the passer's own team (13.00)."""
    if red <= 5:
        return card.passes[red - 1]
    if state.team(side).pulled:
        return "G"  # 13.00: red 6 goes to the sixth skater
    return card.pass_six.pp if pp_rules(state, side) else card.pass_six.es


def resolve_pass(state: GameState, side: str, passer: str, red: int, rule: str = "13.00") -> list:
    """A pass result; on a short-handed team it becomes an interception (13.00)."""
    status = state.team(side).players[passer]
    assert status.facts().skater  # his card's kind read once a card, no isinstance
    card = cast(Skater, status.card)
    if state.strength(side) == "sh":
        return resolve_interception(state, side, passer, red, rule="13.00")
    slot = pass_target(state, side, card, red)
    receiver = state.team(side).slots.get(slot)
    if receiver is None:
        # 13.00: a pass to an empty slot is intercepted instead.
        return resolve_interception(state, side, passer, red, rule="13.00")
    # Made positionally (compiled, a msgspec Struct made with keywords matches each
    # keyword by name): side, from_player, to_player, slot, roll, rule (each pass and
    # interception made with its rule cited: game.decide passes them over).
    return [_PUCK_PASSED(side, passer, receiver, slot, state.rolls, state.cite(rule))]


def resolve_interception(state: GameState, side: str, carrier: str, red: int,
                         rule: str = "12.00") -> list:
    """The carrier loses the puck to the slot his pass chart names on the other team."""
    status = state.team(side).players[carrier]
    assert status.facts().skater  # his card's kind read once a card, no isinstance
    card = cast(Skater, status.card)
    opponents = other(side)
    mine = state.team(side)
    if mine.pulled and (advantage := man_advantage(state, side)) > 0:
        # 12.10: a pulled-goalie team with the extra man keeps some lost pucks.
        keep = {1: red <= 2, 2: red <= 4}.get(advantage, True)
        if keep:
            return _keep(state, side, carrier, card, red, "12.10")
    if red == 6:
        if state.team(opponents).pulled:
            slot = "G"  # 12.00: to the other team's sixth skater
        elif state.strength(side) == "sh":
            slot = card.pass_six.pk
        elif state.strength(side) == "pp":
            return _keep(state, side, carrier, card, red, "12.00")  # a pass after all
        else:
            slot = card.pass_six.es
    else:
        slot = card.passes[red - 1]
    receiver = state.team(opponents).slots.get(slot)
    if receiver is None:
        # 12.00: an interception to an empty slot is a pass; the carrier keeps the puck
        # (and after a pass to an empty slot, both empty: he keeps it too, 13.00).
        return [PuckPassed(side=side, from_player=carrier, to_player=carrier,
                           slot=state.slot_of(side, carrier) or "", roll=state.rolls,
                           rule=state.cite("12.00"))]
    # Made positionally, as a pass: side, from_player, to_player, slot, roll, rule.
    return [_PUCK_INTERCEPTED(opponents, carrier, receiver, slot, state.rolls,
                              state.cite(rule))]


def _keep(state: GameState, side: str, carrier: str, card: Skater, red: int, rule: str) -> list:
    """An interception turned into a pass (12.00 red 6 on the power play, 12.10)."""
    slot = pass_target(state, side, card, red)
    receiver = state.team(side).slots.get(slot) or carrier
    return [PuckPassed(side=side, from_player=carrier, to_player=receiver, slot=slot,
                       roll=state.rolls, rule=state.cite(rule))]
