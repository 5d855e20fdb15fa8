"""Shots on goal (10.00-10.70): shooting ranges, blocked and screened shots, empty nets,
penalty shots."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Final, cast

import msgspec

from engine.bones.cards import Charts, Skater
from engine.bones.dice import DiceRange
from engine.bones.passing import resolve_interception
from engine.bones.rolls import white
from engine.bones.rulesets import RULESETS, Ruleset
from engine.bones.scoring import goal_events
from engine.bones.state import GameState, Step, TeamState, is_defenseman, other
from engine.bones.stoppages import continue_or_stop
from events.bones import PlayStopped, PuckIntercepted, Roll, ShotTaken

PENALTY_SHOT_RANGE: Final = "3-6"  # 10.60
EMPTY_NET: Final = {"S": "2-12", "other": "4-12"}  # 10.50
RANGE_RULES: Final = {"N": "10.10", "P": "10.20", "S": "10.30", "D": "10.40"}  # each range's rule
# Ruling R-10.70a: the blockers that count in the checking game (three otherwise).
CHECKING_BLOCKERS: Final = {"checking1": 4, "checking2": 5}
SCREEN_REDS: Final = 2  # 10.70: on the table's white total, red 1-2 is a screen, 3-6 a block
# FaceOff 10.70: by the number of Blocked Shot ratings among the LD and RD players.
BLUE_LINE_BLOCK_WHITES: Final = {1: [3], 2: [3, 11]}
BONES: Final = RULESETS["bones"]
# The names of modules that are not compiled (the events, the cards) as Final aliases
# where they are used at every step: compiled, an imported name is looked up in this
# module's dictionary at every use (about 130 instructions); a Final one is a C static.
_SHOT_TAKEN: Final = ShotTaken
WHITE_TOTALS: Final = Counter(a + b for a in range(1, 7) for b in range(1, 7))  # ways out of 36


# Each range's bounds by its text (blue, white total, red; red 6 when the range names
# none), read once from its DiceRange (3.20): compiled, DiceRange.parse and .contains are
# interpreted Python, and a shot reads a range at every roll.
_BOUNDS: Final[dict[str, tuple[int, int, int]]] = {}


def roll_in_range(text: str, roll: Roll) -> bool:
    """``DiceRange.parse(text).contains(roll)`` (3.20): the blue die below the range's, or
    equal with the white total below its, or both equal and the red die at most its red
    number (any red when the range names none)."""
    bounds = _BOUNDS.get(text)
    if bounds is None:
        parsed = DiceRange.parse(text)  # raises on a text that is no range, as before
        bounds = (parsed.blue, parsed.white, 6 if parsed.red is None else parsed.red)
        _BOUNDS[text] = bounds
    blue, whites, red = bounds
    rolled = roll.blue
    if rolled != blue:
        return rolled < blue
    total = white(roll)
    if total != whites:
        return total < whites
    return roll.red <= red


def block_whites(charts: Charts, blockers: int, ruleset: Ruleset = BONES) -> list[int]:
    """10.70: the white totals that block or screen a shot against ``blockers`` (1-5;
    FaceOff: 1-2 Blocked Shot ratings on the blue line, its table printed in the text)."""
    if ruleset.blocked_shots == "blue_line":
        return BLUE_LINE_BLOCK_WHITES.get(blockers, [])
    return charts.blocked_shots[min(blockers, 5) - 1]


def block_chance(charts: Charts, blockers: int, ruleset: Ruleset = BONES) -> Fraction:
    """10.70: the exact chance that a shot against ``blockers`` counted blockers is blocked
    (the table's white total, then red 3-6); e.g. 5/36 x 4/6 with three."""
    if blockers <= 0:
        return Fraction(0)
    ways = sum(WHITE_TOTALS[w] for w in set(block_whites(charts, blockers, ruleset)))
    return Fraction(ways, 36) * Fraction(6 - SCREEN_REDS, 6)


def range_name(state: GameState, side: str, slot: str, card: Skater, kind: str) -> str:
    """Which of N, P, S, D a shooter uses (10.10-10.40, 10.11).

    The strength is the penalties' (9.00), whether or not a goalie is pulled: a power-play
    team that pulls its goalie is still on the power play and shoots its P range (10.20),
    as the quick reference's N for "players on the goalie-pulled team" yields to the text
    wherever the text names a range (ruling R-QR-6th)."""
    strength = state.strength(side)
    if strength == "sh":
        return "S"  # 10.30: all players, regardless of position
    if slot in ("LD", "RD") and not is_defenseman(card):
        if strength == "pp" and kind in ("N", "rebound"):
            return "N"  # 10.11
        return "D"  # 10.40, in place of N or P
    if slot == "G" and not is_defenseman(card):
        # A forward as sixth attacker stands at none of the slots 10.10/10.20 name for a
        # forward: the quick reference's N range (ruling R-QR-6th). A defenseman is
        # covered "playing ANY position".
        return "N"
    return "P" if strength == "pp" else "N"  # 10.20, 10.10


def blockers(state: GameState, defending: str) -> int:
    """10.70: defensemen and B forwards on the ice; only three count unless killing a
    penalty or in the checking game (ruling R-10.70a). FaceOff 10.70: the Blocked Shot
    ratings of the players in the LD and RD slots, whoever they are (0-2)."""
    team = state.team(defending)
    if state.ruleset.blocked_shots == "blue_line":
        return _blue_line_blocker(team, "LD") + _blue_line_blocker(team, "RD")
    count = 0
    players = team.players
    for pid in team.skaters_on_ice():
        # The card's kind and B read once with it (PlayerStatus.facts): a defenseman, or
        # a skater whose card says B.
        facts = players[pid].facts()
        if facts.defenseman or facts.blocker:
            count += 1
    level = state.home.tactic or state.away.tactic
    if state.strength(defending) == "sh":
        return count
    cap = CHECKING_BLOCKERS.get(level or "", 3)
    return min(count, cap)


def _blue_line_blocker(team: TeamState, slot: str) -> int:
    """FaceOff 10.70: 1 when the player in ``slot`` is a skater whose card says B, read
    from his card's facts (PlayerStatus.facts: no isinstance against a msgspec class, no
    generator over the two slots)."""
    pid = team.slots.get(slot)
    if not pid:
        return 0
    facts = team.players[pid].facts()
    return 1 if facts.skater and facts.blocker else 0


def range_text(card: Skater, name: str) -> str:
    """The card's range named N, P, S or D (10.10-10.40); a card with no D range shoots
    its N. Each field read by name (a getattr by a name made with ``lower()`` at every
    shot hashes the new string and finds the attribute by it)."""
    if name == "N":
        text = card.n
    elif name == "P":
        text = card.p
    elif name == "S":
        text = card.s
    else:
        text = card.d
    return text or card.n


def decide_shot(state: GameState, step: Step, roll: Roll) -> list:
    side, pid, kind = step.side, step.player, step.shot
    status = state.team(side).players[pid]
    assert status.facts().skater  # his card's kind read once a card, no isinstance
    card = cast(Skater, status.card)
    opp = other(side)
    if kind == "ps":
        in_range = roll_in_range(PENALTY_SHOT_RANGE, roll)
        events: list = [_shot(state, side, pid, "penalty_shot", "PS", PENALTY_SHOT_RANGE,
                              in_range, 0, "", "10.60")]
        if in_range:
            return events + goal_events(state, side, pid, "penalty_shot", "10.60")
        return [*events, PlayStopped(reason="frozen", zone=opp)]
    if state.team(opp).pulled:
        return _empty_net(state, side, pid, card, roll)
    slot = state.slot_of(side, pid) or "C"
    name = range_name(state, side, slot, card, kind)
    text = range_text(card, name)
    count = blockers(state, opp)
    block = ""
    if count and white(roll) in block_whites(state.charts, count, state.ruleset):
        block = "screened" if roll.red <= SCREEN_REDS else "blocked"
    checked = roll
    if block == "screened":
        # 10.70: a screened shot reads the blue die one lower for the range check.
        checked = Roll(max(1, roll.blue - 1), roll.whites, roll.red) if roll.blue > 1 else None
    in_range = True if checked is None else roll_in_range(text, checked)
    rule = "10.70" if block else RANGE_RULES[name]
    events = [_shot(state, side, pid, "rebound" if kind == "rebound" else "normal", name, text,
                    in_range, count, block, rule)]
    if block == "blocked":
        # 10.70: a blocked shot is an interception off the shooter's pass chart.
        moved = resolve_interception(state, side, pid, roll.red, rule="10.70")
        return events + moved + continue_or_stop(state)
    return events


def _shot(state: GameState, side: str, pid: str, kind: str, name: str, text: str,
          in_range: bool, count: int, block: str, rule: str) -> ShotTaken:
    # Made positionally (compiled, a msgspec Struct made with keywords matches each
    # keyword by name), each argument named by its field.
    return _SHOT_TAKEN(
        side,  # side
        pid,  # shooter
        kind,  # kind
        name,  # range_name
        text,  # range
        in_range,  # in_range
        count,  # blockers
        block,  # block
        state.rolls,  # roll
        state.cite(rule),  # rule (cited: game.decide passes it over)
    )


def _empty_net(state: GameState, side: str, pid: str, card: Skater, roll: Roll) -> list:
    name = "S" if state.strength(side) == "sh" else "other"
    text = EMPTY_NET[name]
    in_range = roll_in_range(text, roll)
    events: list = [_shot(state, side, pid, "empty_net", "EN", text, in_range, 0, "", "10.50")]
    if in_range:
        return events + goal_events(state, side, pid, "empty_net", "10.50")
    if roll.red <= 3:
        return [*events, PlayStopped(reason="icing", zone=side)]  # 10.50: an icing
    opp = other(side)
    extra = state.team(opp).slots.get("G")
    assert extra is not None
    return [*events, PuckIntercepted(side=opp, from_player=pid, to_player=extra, slot="G",
                                     roll=state.rolls, rule=state.cite("10.50")),
            *continue_or_stop(state)]


# A ShotTaken's fields read together, as a tuple in their declared order (compiled, each
# read by name is a generic look-up of about 160 instructions, ``astuple`` all of them in
# one call of about two: see engine/bones/actions.py). The places are pinned by
# tests/bones/test_bones_events_made.py.
fields_of: Final = msgspec.structs.astuple
SHOT_SIDE: Final = 0  # ShotTaken: side, shooter, kind, range_name, range, in_range,
SHOT_SHOOTER: Final = 1  # blockers, block, roll, rule
SHOT_KIND: Final = 2
SHOT_IN_RANGE: Final = 5
SHOT_BLOCK: Final = 7


def queue_after_shot(state: GameState, event: ShotTaken) -> None:
    state.shots_this_sequence += 1
    state.pp_passes = 0
    # The event's fields read together (``fields_of``): five of them at most shots.
    fields: tuple[object, ...] = fields_of(event)
    shot_kind = cast(str, fields[SHOT_KIND])
    if fields[SHOT_BLOCK] == "blocked" or shot_kind in ("penalty_shot", "empty_net"):
        return  # the events that follow say what happens
    kind = "rebound" if shot_kind == "rebound" else _first_kind(state)
    state.replace_step(Step("goalie", side=cast(str, fields[SHOT_SIDE]),
                            player=cast(str, fields[SHOT_SHOOTER]), shot=kind,
                            in_range=cast(bool, fields[SHOT_IN_RANGE])))


def _first_kind(state: GameState) -> str:
    step = state.queue[0]
    return "R" if step.shot == "R" else "normal"
