"""Shots and saves (7, 8, 19, 20, 22).

A PS is read on the shooter's goal range, a GS on the opposing goalie's, a breakaway on
the shooter's range +30 (19). Goons (22: +1 to the shot roll against a goon, unless the
shooters have one too) and, as an option, forward defense (20) add to the roll; a 00 is
always a goal (20). A miss is a save (8): the Saves section of the card shot on says who
has the puck (the defense, or the offense for a rebound); a goalie card's 95-99 is a
penalty (15). Only a possession's first shot is a timing space (9, 22).
"""

from __future__ import annotations

from typing import Final, cast

from engine.dicehockey.bands import band
from engine.dicehockey.cards import GOON
from engine.dicehockey.dice import roll_value
from engine.dicehockey.lines import on_ice, skaters_on_ice
from engine.dicehockey.passing import parity_defense
from engine.dicehockey.puck import assists, count_space, strength
from engine.dicehockey.rulesets import VERSION_2
from engine.dicehockey.state import FORWARD_SLOTS, GameState, Modifier, Step, other
from events.base import Event
from events.dicehockey import (
    GoalScored,
    PenaltyEnded,
    PenaltyErased,
    PlayStopped,
    Roll,
    ShotTaken,
)

BREAKAWAY: Final = 30  # 19: "add +30"
GOALIE_PENALTY: Final = 95  # 15: "Goalie's have a penalty range of 95-99"


def shot_modifier(state: GameState, side: str) -> Modifier:
    """What the defense adds to a shot roll (20, 22)."""
    modifier, why = 0, []
    theirs = on_ice(state, other(side))
    if _goon(state, other(side), theirs) and not _goon(state, side, on_ice(state, side)):
        modifier += 1
        why.append("22: against a goon +1")
    if state.uses("forward_defense"):
        forwards = sum(state.card(other(side), theirs[s]).defense for s in FORWARD_SLOTS
                       if theirs[s])
        if forwards:
            modifier += forwards
            why.append(f"20: forward defense +{forwards}")
    return Modifier(modifier, why)


def _goon(state: GameState, side: str, slots: dict[str, str | None]) -> bool:
    # (a loop, not a generator: no object made at every shot; the goons read from the
    # cards once a game)
    team = state.team(side)
    if team.goons_of is not team.cards:
        team.goons = frozenset([card.id for card in team.cards.values()
                                if card.penalty >= GOON])
        team.goons_of = team.cards
    goons = team.goons
    if not goons:
        return False
    for player in slots.values():
        if player is not None and player in goons:
            return True
    return False


def decide_shot(state: GameState, step: Step, roll: Roll) -> list[Event]:
    side, shooter, kind = step.side, step.player, step.shot
    opponent = state.team(other(side))
    card = state.card(side, shooter)
    goalie = opponent.goalie_card()
    empty_net = opponent.pulled
    if kind == "GS":
        upto, read_on = goalie.goal, goalie
    else:
        upto, read_on = card.goal, card
    if kind == "breakaway":
        upto = min(99, upto + BREAKAWAY)
    modified = shot_modifier(state, side)
    modifier, modifiers = modified.total, modified.why
    raw = roll_value(roll)
    value = raw + modifier
    # 20: a 00 always scores; ruling R-DH-22a: a breakaway into an empty net always scores
    goal = raw == 0 or value <= upto or empty_net
    first = state.possession_shots == 0  # ruling R-DH-19a: a breakaway's too
    # 12: "Once you have moved your pawn to the number 21, the period has ended": a
    # breakaway played out after the turnover that filled the period (ruling R-DH-12a)
    # counts no space past the period's length
    spaces = count_space(state, "shot", "22") if first and state.space < state.length else []
    puck_side: str | None = None
    puck_to: str | None = None
    slot: str | None = None
    penalty = False
    after: list[Event] = []
    if goal:
        # 9, 12: the goal goes in at the space its shot fills (version 1 stored the one
        # before a possession's first shot: such a game keeps it)
        # (one space: count_space also ends box times, 18, in the same list)
        at = state.space + (1 if spaces else 0) if state.version >= VERSION_2 \
            else state.space
        after = goal_events(state, side, shooter, empty_net, space=at)
    elif read_on is goalie and min(99, value) >= GOALIE_PENALTY:
        penalty = True
    else:
        if kind == "breakaway" and step.miss:
            puck_side, slot = other(side), step.miss
        else:
            save = band(read_on.saves, min(99, value))  # ruling R-DH-8a: the modified number
            puck_side, slot = (other(side) if save.team == "D" else side), save.to
        slots = on_ice(state, puck_side)
        if slots.get(slot) is None:
            slot = parity_defense(roll)  # 20: an empty box, even RD, odd LD
        puck_to = slots[slot]
    # positionally, in declared order (side, shooter, goalie, kind, upto, raw, modifier,
    # modifiers, goal, rebound, puck_side, puck_to, slot, penalty, roll, rule): no keyword
    # matched
    return [ShotTaken(side, shooter, None if empty_net else opponent.goalie, kind, upto, raw,
                      modifier, modifiers, goal, not first, puck_side, puck_to, slot, penalty,
                      state.rolls, "19" if kind == "breakaway" else "8"),
            *spaces, *after]


def goal_events(state: GameState, side: str, scorer: str, empty_net: bool,
                kind: str = "", rule: str = "8", space: int | None = None) -> list[Event]:
    """A goal (5, 7, 15): assists, delayed penalties erased, a power-play minor ended (a
    double minor's first two clears), then a face-off. ``space``: the timing space it goes
    in at (None: the count as it stands)."""
    opponent = state.team(other(side))
    events: list[Event] = [GoalScored(
        side=side, scorer=scorer, assists=assists(state, scorer) if kind != "PS" else [],
        goalie=None if empty_net else opponent.goalie, period=state.period,
        space=state.space if space is None else space,
        strength=kind or ("EN" if empty_net else strength(state, side)),
        home_on_ice=skaters_on_ice(state, "home"), away_on_ice=skaters_on_ice(state, "away"),
        roll=state.rolls, rule=rule)]
    events += [PenaltyErased(side=c.side, player=c.player, infraction=c.infraction,
                             roll=state.rolls, rule="15")
               for c in state.delayed if c.side != side]
    if kind != "PS" and strength(state, side) == "PP":  # ruling R-DH-15h: the earliest
        released = next((p for p in opponent.penalties
                         if p.short and p.kind in ("minor", "double_minor")), None)
        if released is not None:
            left = 2 if released.kind == "double_minor" and released.clears_left > 2 else 0
            events.append(PenaltyEnded(id=released.id, side=other(side),
                                       player=released.player, reason="goal",
                                       clears_left=left, roll=state.rolls, rule="15"))
    return [*events, PlayStopped("goal", side, state.rolls, "5")]  # (reason, side, roll, rule)


# ShotTaken's fields by their place (tests/dicehockey/test_dicehockey_events_made.py pins
# the order), for a shot's fields read together as a tuple (game.fields_of says why)
SHOT_SIDE: Final = 0
SHOT_SHOOTER: Final = 1
SHOT_GOAL: Final = 8
SHOT_PUCK_SIDE: Final = 10
SHOT_PUCK_TO: Final = 11
SHOT_SLOT: Final = 12
SHOT_PENALTY: Final = 13


def apply_shot(state: GameState, event: ShotTaken, fields: tuple[object, ...]) -> None:
    """``fields``: the event's, as a tuple in their declared order."""
    state.possession_shots += 1
    side = cast(str, fields[SHOT_SIDE])
    if fields[SHOT_PENALTY]:  # 15: the goalie's penalty range; Chart A next
        state.pending.append(Step("penalty_who", side=side,
                                  player=cast(str, fields[SHOT_SHOOTER]), source="goalie"))
    elif not fields[SHOT_GOAL] and fields[SHOT_PUCK_SIDE] == side:
        state.rebound = True  # 8: the offense kept it
