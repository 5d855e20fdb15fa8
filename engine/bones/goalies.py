"""Goalies (11.00-11.20): goalie action codes, rebounds and clearing the puck."""

from __future__ import annotations

from typing import Final, NamedTuple, cast

from engine.bones.cards import Goalie, Skater
from engine.bones.codes import parse_goalie_cell
from engine.bones.dice import DiceRange
from engine.bones.passing import resolve_interception
from engine.bones.rolls import white
from engine.bones.scoring import goal_events
from engine.bones.state import FORWARD_SLOTS, GameState, Step, is_defenseman, other
from engine.bones.stoppages import continue_or_stop
from engine.bones.timing import fatigue_defense
from events.bones import (
    ClearingChecked,
    GoalieInjured,
    GoalieResult,
    PenaltyShotAwarded,
    PlayStopped,
    PuckIntercepted,
    PuckPassed,
    ReboundChecked,
    Roll,
)

# The names of modules that are not compiled (the events, the cards, the cell parser) as
# Final aliases where they are used at every shot: compiled, an imported name is looked
# up in this module's dictionary at every use (about 130 instructions); a Final one is a
# C static.
_GOALIE_RESULT: Final = GoalieResult
_PLAY_STOPPED: Final = PlayStopped
_PARSE_GOALIE_CELL: Final = parse_goalie_cell


def decide_goalie(state: GameState, step: Step, roll: Roll) -> list:
    side, shooter, kind = step.side, step.player, step.shot
    gside = other(side)
    gteam = state.team(gside)
    goalie = gteam.goalie
    status = gteam.players[goalie]
    assert status.facts().goalie  # his card's kind read once a card, no isinstance
    card = cast(Goalie, status.card)
    text = card.action[roll.blue - 1][white(roll) - 2]
    cell = _PARSE_GOALIE_CELL(text)
    in_range = step.in_range
    # Each GoalieResult made by _result: compiled, a closure is an object made at every
    # call, and each of its calls goes through Python's calling convention.
    if cell.goal_if_in_range and in_range:
        return [_result(state, gside, goalie, text, "goal"),
                *goal_events(state, side, shooter, "normal", "11.10")]
    if kind == "R":
        # 11.20: after a skater's R, every result but a goal is a rebound chance.
        return [_result(state, gside, goalie, text, "rebound", rule="11.20"),
                *rebound(state, side, shooter, roll.red)]
    code = cell.code
    if code in ("OWN", "*"):
        receiving = gside if code == "OWN" else side
        player = state.team(receiving).slots.get(cell.slot or "")
        if player is not None:
            outcome = "to_defense" if code == "OWN" else "to_offense"
            return [_result(state, gside, goalie, text, outcome, player), PuckPassed(
                side=receiving, from_player=goalie, to_player=player, slot=cell.slot or "",
                roll=state.rolls, rule=state.cite("11.10")) if code == "OWN" else PuckIntercepted(
                side=receiving, from_player=None, to_player=player, slot=cell.slot or "",
                roll=state.rolls, rule=state.cite("11.10")), *continue_or_stop(state)]
        # 11.10: nobody there, frozen
        return frozen(state, _result(state, gside, goalie, text, "frozen"), gside)
    if code == "R":
        if kind == "rebound" or state.shots_this_sequence >= 2:
            return frozen(state, _result(state, gside, goalie, text, "frozen", rule="11.20"), gside)
        return [_result(state, gside, goalie, text, "rebound", rule="11.20"),
                *rebound(state, side, shooter, roll.red)]
    if code == "X" and (cell.number is None or roll.red <= cell.number):
        return [_result(state, gside, goalie, text, "penalty")]
    if code == "PS" and roll.red == 1:
        return [_result(state, gside, goalie, text, "penalty_shot")]
    events = frozen(state, _result(state, gside, goalie, text, "frozen"), gside)
    if code == "F?" and roll.red == 1:
        backup = next((pid for pid, s in gteam.players.items()
                       if s.is_goalie and pid != goalie and not s.out), None)
        events.append(GoalieInjured(side=gside, goalie=goalie, replacement=backup,
                                    roll=state.rolls, rule="11.10"))
    return events


def _result(state: GameState, gside: str, goalie: str, text: str, outcome: str,
            player: str | None = None, rule: str = "11.10") -> GoalieResult:
    """The goalie's cell read (11.10, 11.20) and what it came to."""
    # Made positionally (compiled, a msgspec Struct made with keywords matches each
    # keyword by name): side, goalie, cell, outcome, player, roll, rule (cited: game.decide
    # passes it over).
    return _GOALIE_RESULT(gside, goalie, text, outcome, player, state.rolls,
                          state.cite(rule))


def frozen(state: GameState, event: GoalieResult, goalie_side: str) -> list:
    return [event, _PLAY_STOPPED("frozen", goalie_side)]  # reason, zone: made positionally


def rebound(state: GameState, side: str, shooter: str, red: int) -> list:
    """11.20: the red die picks the rebounder off the goalie's rebound chart."""
    if red == 6:
        return [ReboundChecked(side=side, chart="upper", slot=None, player=None,
                               roll=state.rolls, rule="11.20")]
    goalie = state.team(other(side)).card(state.team(other(side)).goalie)
    assert isinstance(goalie, Goalie)
    return _rebounder(state, side, goalie.rebounds.upper[red - 1], "upper")


def decide_rebound_lower(state: GameState, step: Step, roll: Roll) -> list:
    goalie = state.team(other(step.side)).card(state.team(other(step.side)).goalie)
    assert isinstance(goalie, Goalie)
    return _rebounder(state, step.side, goalie.rebounds.lower[roll.red - 1], "lower")


def _rebounder(state: GameState, side: str, slot: str, chart: str) -> list:
    player = state.team(side).slots.get(slot)
    events: list = [ReboundChecked(side=side, chart=chart, slot=slot, player=player,
                                   roll=state.rolls, rule="11.20")]
    if player is None:
        # Quick reference: a puck off the goalie to an empty slot is frozen.
        return [*events, PlayStopped(reason="frozen", zone=other(side))]
    return events


class ClearingTotal(NamedTuple):
    """The defending team's clearing total (11.20), and the modifiers that applied."""

    total: int
    modifiers: list[str]


def clearing_total(state: GameState, side: str, rebounder: str) -> ClearingTotal:
    """11.20: LD + RD clearing ratings of the defending team, less one for a screen."""
    defending = state.team(other(side))
    total, notes = 0, []
    for slot in ("LD", "RD"):
        pid = defending.slots.get(slot)
        if pid is None:
            continue
        card = defending.card(pid)
        if isinstance(card, Skater) and is_defenseman(card):
            tired = fatigue_defense(defending.players[pid]) if state.uses("fatigue") else 0
            total += max(0, card.clearing - tired)
    shooters = state.team(side)
    if state.strength(side) != "sh":
        for slot in FORWARD_SLOTS:
            pid = shooters.slots.get(slot)
            if pid and pid != rebounder:
                card = shooters.card(pid)
                if isinstance(card, Skater) and (card.screening or is_defenseman(card)):
                    total, notes = total - 1, ["-1 screen"]
                    break
    return ClearingTotal(max(0, total), notes)


def decide_clearing(state: GameState, step: Step, roll: Roll) -> list:
    side, rebounder, shooter = step.side, step.player, step.shooter
    total = clearing_total(state, side, rebounder).total
    table = state.charts.clearing
    text = table[min(total, len(table) - 1)]
    # 11.20 "roll all four dice": in range as 3.20 reads it, blue and whites against the
    # range's numbers, the red at a parenthesised value (ruling R-11.20a).
    cleared = DiceRange.parse(text).contains(roll)
    events: list = [ClearingChecked(side=other(side), total=total, range=text, cleared=cleared,
                                    roll=state.rolls, rule="11.20")]
    if cleared:
        # Quick reference: a clear is an interception off the shooter's pass chart.
        moved = resolve_interception(state, side, shooter, roll.red, rule="11.20")
        return events + moved + continue_or_stop(state)
    return events


def decide_penalty_shot_red(state: GameState, step: Step, roll: Roll) -> list:
    awarded = roll.red <= 2  # 11.10 PS1: a re-rolled red 1 or 2
    events: list = [PenaltyShotAwarded(side=step.side, shooter=step.player, awarded=awarded,
                                       roll=state.rolls, rule="11.10")]
    if not awarded:
        events.append(PlayStopped(reason="frozen", zone=other(step.side)))
    return events


def queue_after_goalie(state: GameState, event: GoalieResult) -> None:
    outcome = event.outcome  # read once: a msgspec event's field is a generic look-up
    if outcome == "penalty":
        state.replace_step(Step("penalty", side=event.side, player=event.goalie, source="goalie"))
    elif outcome == "penalty_shot":
        step = state.queue[0]
        state.replace_step(Step("ps_red", side=step.side, player=step.player))
    elif outcome == "rebound":
        step = state.queue[0]
        state.replace_step(Step("rebound", side=step.side, shooter=step.player))


def queue_after_rebound(state: GameState, event: ReboundChecked) -> None:
    shooter = state.queue[0].shooter
    if event.slot is None:
        state.replace_step(Step("rebound_lower", side=event.side, shooter=shooter))
    elif event.player is not None:
        state.replace_step(Step("clearing", side=event.side, player=event.player,
                                shooter=shooter))


def queue_after_clearing(state: GameState, event: ClearingChecked) -> None:
    step = state.queue[0]
    if not event.cleared:
        state.replace_step(Step("shot", side=step.side, player=step.player, shot="rebound"))


def queue_after_penalty_shot(state: GameState, event: PenaltyShotAwarded) -> None:
    if event.awarded:
        state.replace_step(Step("shot", side=event.side, player=event.shooter, shot="ps"))


def apply_goalie_injured(state: GameState, event: GoalieInjured) -> None:
    team = state.team(event.side)
    if event.replacement is not None:
        team.players[event.goalie].out = "game"
        team.goalie = event.replacement
        team.slots["G"] = event.replacement
