"""Action codes (8.00-8.20) with pressure offense (19.00) and the checking game (20.00).

A roll on the puck carrier's action matrix comes to a shot, a pass, an interception, a
stoppage or a penalty; numeric codes are compared with Team Defense (9.00).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Literal, cast

import msgspec

from engine.bones.cards import Skater
from engine.bones.codes import SkaterCell, parse_skater_cell
from engine.bones.passing import pp_rules, resolve_interception, resolve_pass
from engine.bones.rolls import white
from engine.bones.state import (
    FORWARD_SLOTS,
    CardFacts,
    GameState,
    PendingShot,
    PlayerStatus,
    Step,
    is_defenseman,
    other,
)
from engine.bones.stoppages import resume
from engine.bones.team_defense import DefenseTotal, blue_line_total, team_defense
from engine.bones.timing import fatigue_numeric, play_sequence
from events.bones import ActionResolved, PlayStopped, PuckPassed, Roll

# Quick reference house rule: the last five minutes of the third are the sequences that
# start at 15:00 or later (6.00, 6.30: a sequence's time is its start, 24 s each); the
# 38th runs 14:48-15:12, so the window opens with the 39th (15:12).
LATE_SEQUENCE: Final = 39

# The board position directly across from each slot, for shadows (ruling R-8.10a).
ACROSS: Final = {"LW": "RW", "RW": "LW", "C": "C", "LD": "RD", "RD": "LD"}

# The names of modules that are not compiled (the events, the cards, the cell parser)
# as Final aliases for the action's hot path: compiled, an imported name is looked up
# in this module's dictionary at every use (about 130 instructions); a Final one is a C
# static.
_ACTION_RESOLVED: Final = ActionResolved
_PLAY_STOPPED: Final = PlayStopped
_PUCK_PASSED: Final = PuckPassed
_PARSE_SKATER_CELL: Final = parse_skater_cell

ActionResult = Literal["shot", "pass", "interception", "stoppage", "penalty", "kill", "play_on"]


@dataclass(slots=True, init=False)
class ActionOutcome:
    """What one action cell comes to (8.00-8.20), before the puck moves: the fields of
    its ``ActionResolved`` event. A value, never changed (``replace`` makes another); not
    frozen only because a frozen dataclass is slow to build, and one is built a roll (its
    ``__init__`` written out for that too: compiled, a generated one stays interpreted)."""

    result: ActionResult
    rule: str
    value: int | None  # the numeric code after modifiers, or the number compared
    target: int | None  # the Team Defense (or other total) it was compared with
    modifiers: list[str]
    shooter: str | None  # who shoots because of it
    shot: str  # the shot's kind: "normal", "R" (11.20) or "N" (10.11)

    def __init__(self, result: ActionResult, rule: str, value: int | None = None,
                 target: int | None = None, modifiers: list[str] | None = None,
                 shooter: str | None = None, shot: str = "") -> None:
        self.result, self.rule, self.value, self.target = result, rule, value, target
        self.modifiers = [] if modifiers is None else modifiers
        self.shooter, self.shot = shooter, shot


@dataclass(slots=True, init=False)
class ModifiedValue:
    """A numeric code after its modifiers, and the modifiers that applied. A value, made
    as ``DefenseTotal`` is (engine/bones/team_defense.py): compiled, not a NamedTuple."""

    value: int
    modifiers: list[str]

    def __init__(self, value: int, modifiers: list[str]) -> None:
        self.value, self.modifiers = value, modifiers


def five_on_five(state: GameState) -> bool:
    """8.10: five skaters on five, and nothing else: a pulled goalie's sixth attacker
    (6 on 5, or 5 on 5 with a goalie off) is another strength."""
    home, away = state.home, state.away
    return not home.pulled and not away.pulled and home.five_skater_slots() \
        and away.five_skater_slots()


def even_or_pulled(state: GameState) -> bool:
    """19.00 / 20.00: tactics apply at 5 on 5 or with a goalie pulled."""
    return five_on_five(state) or state.home.pulled or state.away.pulled


def tactic(state: GameState) -> str | None:
    """The tactic in force (either team's; pressure and checking affect both teams)."""
    declared = state.home.tactic or state.away.tactic
    if not declared:  # nearly always: who is on the ice not asked then
        return None
    if not even_or_pulled(state):
        return None
    return declared


def out_of_position(card: Skater, slot: str) -> bool:
    """15.10: a forward in a forward slot he is not rated for."""
    return slot in FORWARD_SLOTS and not is_defenseman(card) and slot not in card.positions


def _out_of_position(facts: CardFacts, slot: str) -> bool:
    """``out_of_position`` read from the card's facts (PlayerStatus.facts): a card's
    positions are a generic look-up and a list scanned."""
    return slot in FORWARD_SLOTS and not facts.defenseman and slot not in facts.positions


def numeric_value(state: GameState, side: str, slot: str, card: Skater, value: int,
                  pid: str, status: PlayerStatus | None = None,
                  five_slots: bool | None = None) -> ModifiedValue:
    """A numeric code after every modifier of 7.30, 8.10, 17.00, 18.10 and 20.00;
    ``status`` is the carrier's, when the caller has already looked him up, and
    ``five_slots`` whether both teams fill their five skater slots, when it has read it."""
    mods: list[str] = []
    if status is None:
        status = state.team(side).players[pid]
    # His card's facts (``card`` is his card), read once a card: a card's fields are
    # generic look-ups.
    facts = status.facts()
    if state.dz_bonus == side:
        value, mods = value + 2, [*mods, "+2 defensive-zone face-off (7.30)"]
    if state.strength(side) == "pp":
        value, mods = value + 1, [*mods, "+1 power play (8.10)"]
        if slot in ("LD", "RD") and not is_defenseman(card) and state.ruleset.quick_reference:
            value, mods = value - 2, [*mods, "-2 forward on the blue line (quick ref)"]
    if five_slots is None:
        five_slots = state.home.five_skater_slots() and state.away.five_skater_slots()
    if not state.home.pulled and not state.away.pulled and five_slots:  # five_on_five
        opp = state.team(other(side))
        across = opp.slots.get(ACROSS[slot])  # no sixth attacker at 5 on 5
        if across and opp.players[across].facts().shadow:
            value, mods = value - 2, [*mods, "-2 shadowed (8.10)"]
        if _out_of_position(facts, slot):
            value, mods = value - 2, [*mods, "-2 out of position (8.10, 15.10)"]
    tired = fatigue_numeric(status) if state.uses("fatigue") else 0
    if tired:
        value, mods = value - tired, [*mods, f"-{tired} fatigue (17.00)"]
    if status.modifier:
        value, mods = value + status.modifier, [*mods, f"{status.modifier} injury (18.10)"]
    level = tactic(state)
    if level in ("checking1", "checking2"):
        cut = 2 if level == "checking1" else 3
        value, mods = value - cut, [*mods, f"-{cut} checking game (20.00)"]
    return ModifiedValue(value, mods)


def decide_action(state: GameState, step: Step, roll: Roll) -> list:
    assert state.puck is not None
    side, pid = state.puck
    # The carrier looked up once (a player found by id in a dict is about 150
    # instructions), his status handed to what reads it.
    status = state.team(side).players[pid]
    # A skater's card: asked of his card's facts (read once a card), not by isinstance
    # against a msgspec class.
    assert status.facts().skater
    card = cast(Skater, status.card)
    slot = state.slot_of(side, pid) or "C"
    text = card.action[roll.blue - 1][white(roll) - 2]
    cell = _PARSE_SKATER_CELL(text)
    injury = cell.injury  # read once: a msgspec cell's field is a generic look-up
    if injury and not state.uses("injuries"):
        # FaceOff 8.20, 18.000: without the optional injury rules a ? cell plays its code.
        cell = msgspec.structs.replace(cell, injury=False)
        injury = False
    outcome = _outcome(state, side, pid, slot, card, cell, roll, status)
    if state.delayed and outcome.result != "shot":
        # 14.60: the one roll after a delayed call brings a shot or ends the play.
        outcome = replace(outcome, result="stoppage", rule="14.60", modifiers=[
            *outcome.modifiers, "delayed penalty: no shot, play stops (14.60)"])
    moved: list = []
    result = outcome.result
    # Each called directly (compiled, a function held in a variable is called through
    # Python's calling convention).
    if result == "pass":
        moved = resolve_pass(state, side, pid, roll.red)
    elif result == "interception":
        moved = resolve_interception(state, side, pid, roll.red)
    # 12.00: a puck the carrier keeps because the interception found an empty slot is
    # a pass, and on the power play it follows the pass timing of 6.10 and 13.00 (told
    # by its exact class: isinstance against a msgspec class is a generic check).
    kept = bool(moved) and type(moved[-1]) is _PUCK_PASSED
    pp = pp_rules(state, side)
    first_pp_pass = kept and pp and state.pp_passes == 0
    shot, shooter = outcome.shot, outcome.shooter  # as the puck's move leaves them
    if kept:
        # 12.00: the puck stayed with the team, so this is a pass. A forechecked pass's
        # automatic shot (8.10 Pf) is the interceptor's, and no interceptor got the puck;
        # only a second power-play pass brings a shot, the receiver's (13.00).
        shot = "N" if pp and state.pp_passes >= 1 else ""
        shooter = moved[-1].to_player if shot else None
    elif moved and shot and shooter is None:
        shooter = moved[-1].to_player  # 8.10 Pf: the interceptor shoots
    uses_time = not first_pp_pass
    events: list = play_sequence(state) if uses_time else []
    rule, modifiers = _cited(state, outcome)
    # Made positionally, each argument named by its field (events/bones.py's order):
    # compiled, a msgspec Struct made with keywords matches every keyword by name.
    events.append(_ACTION_RESOLVED(
        side,  # side
        pid,  # player
        slot,  # slot
        text,  # cell
        outcome.result,  # result
        outcome.value,  # value
        outcome.target,  # target
        modifiers,  # modifiers
        uses_time,  # time
        state.rolls,  # roll
        rule,  # rule
        shooter,  # shooter
        shot,  # shot
        injury,  # injury
    ))
    if moved:
        events.extend(moved)
        if injury and not shooter:
            events.append(_PLAY_STOPPED("injury", None))  # reason, zone
    elif outcome.result == "stoppage":
        zone = side if outcome.modifiers[:1] == ["icing"] else None
        reason = "penalty" if state.delayed else ("icing" if zone else "infraction")
        events.append(_PLAY_STOPPED(reason, zone))  # made positionally, as ActionResolved
    elif outcome.result in ("kill", "play_on") and injury:
        events.append(_PLAY_STOPPED("injury", None))
    return events


def _cited(state: GameState, outcome: ActionOutcome) -> tuple[str, list[str]]:
    """The outcome's rule and modifier texts as its ``ActionResolved`` is made with them:
    cited in the ruleset's own section numbers (FaceOff's; Hockey Bones' are the code's),
    so ``game.decide`` passes the event over when it cites the events after, instead of
    reading its rule and modifiers back."""
    rule, modifiers = outcome.rule, outcome.modifiers
    citations = state.citations()
    if citations.cites:
        rule = citations.cite(rule)
        cited = citations.cite_texts(modifiers)
        if cited is not None:
            modifiers = cited
    return rule, modifiers


def _outcome(state: GameState, side: str, pid: str, slot: str, card: Skater,
             cell: SkaterCell, roll: Roll, status: PlayerStatus) -> ActionOutcome:
    """What one action cell comes to, read against the situation (8.10, 8.20, 9.00)."""
    strength = state.strength(side)
    opp = other(side)
    empty_net = state.team(opp).pulled
    # The situation (native reads) asked before the cell's mark (a msgspec field, a
    # generic look-up): a + matters only short-handed (8.20), pressure only in 19.00.
    if strength == "sh" and cell.plus:
        return ActionOutcome("kill", "8.20")
    if tactic(state) == "pressure" and cell.pressure:
        return ActionOutcome("shot", "8.20", modifiers=["pressure offense (19.00)"], shooter=pid,
                             shot="normal")
    code, n = cell.code, cell.value
    home = side == "home"
    if code == "N":
        return _numeric(state, side, opp, slot, card, n, pid, status)
    if code == "*":
        return ActionOutcome("shot", "8.10", shooter=pid, shot="normal")
    if code == "R":
        return ActionOutcome("shot", "8.10", shooter=pid, shot="normal" if empty_net else "R")
    if code == "*H":
        if not home:
            return ActionOutcome("interception", "8.10", modifiers=["visitors (8.10)"])
        if n is None:
            return ActionOutcome("shot", "8.10", shooter=pid, shot="normal")
        return _compared(n, team_defense(state, opp, slot), "9.00", pid)
    if code == "*D":
        if five_on_five(state) and out_of_position(card, slot):
            return ActionOutcome("interception", "8.10", value=n,
                                 modifiers=["out of position (8.10)"])
        return _compared(n, blue_line_total(state, opp), "8.10", pid)
    if code == "@":
        if strength == "sh":
            return ActionOutcome("interception", "8.10", modifiers=["short-handed (8.10)"])
        team = state.team(side)
        total = sum(getattr(team.card(p), "passing", 0) for p in team.skaters_on_ice() if p != pid)
        shoots = total >= roll.red
        return ActionOutcome("shot" if shoots else "interception", "8.10", value=roll.red,
                             target=total, modifiers=[f"passing factors {total} vs red {roll.red}"],
                             shooter=pid if shoots else None, shot="N")
    if code in ("P", "PP") or (code == "Pf" and slot not in ("LD", "RD")):
        return _pass_code(state, side, opp, code, n, strength, status)
    if code == "Pf":
        if strength == "pp":
            return ActionOutcome("pass", "8.10", value=n)
        arrows = sum(getattr(state.team(opp).card(p), "forechecking", 0)
                     for s in ("LW", "C", "RW") if (p := state.team(opp).slots.get(s)))
        mods = [f"forechecking {arrows}"]
        if n > arrows:
            return ActionOutcome("pass", "8.10", value=n, target=arrows, modifiers=mods)
        return ActionOutcome("interception", "8.10", value=n, target=arrows, modifiers=mods,
                             shot="N")
    if code in ("X", "XH", "XV"):
        if code == "XH" and not home or code == "XV" and home:
            return ActionOutcome("interception", "8.10")
        if code == "X" and n is not None and roll.red > n:
            return ActionOutcome("play_on", "8.10", value=n, target=roll.red,
                                 modifiers=[f"red {roll.red} > {n}: no penalty"])
        if state.late_penalty_house_rule and _late(state) and roll.red != 1:
            return ActionOutcome("play_on", "QR", modifiers=["late penalty house rule: red not 1"])
        return ActionOutcome("penalty", "8.10")
    if code == "#":
        return ActionOutcome("stoppage", "8.10", modifiers=["infraction"])
    if code == "I":
        if strength == "sh":
            return ActionOutcome("interception", "8.10", modifiers=["short-handed icing"])
        return ActionOutcome("stoppage", "8.10", modifiers=["icing"])
    raise AssertionError(f"unhandled action code {code}")


def _numeric(state: GameState, side: str, opp: str, slot: str, card: Skater, n: int,
             pid: str, status: PlayerStatus) -> ActionOutcome:
    """A numeric code (8.10): its value with the situation's modifiers; over 14 a shot,
    else held to the defending team's Team Defense (9.00)."""
    # Both teams' five skater slots read once (ten slot look-ups) for the code's
    # modifiers at 5 on 5 (8.10) and Team Defense's 9.20.
    five_slots = state.home.five_skater_slots() and state.away.five_skater_slots()
    modified = numeric_value(state, side, slot, card, n, pid, status, five_slots)
    if modified.value > 14:
        return ActionOutcome("shot", "8.10", value=modified.value,
                             modifiers=modified.modifiers, shooter=pid, shot="normal")
    value = max(1, modified.value)
    defense = team_defense(state, opp, slot, five_slots)
    mods = [*modified.modifiers, defense.how]
    if value >= defense.target:
        return ActionOutcome("shot", "9.00", value=value, target=defense.target,
                             modifiers=mods, shooter=pid, shot="normal")
    return ActionOutcome("interception", "9.00", value=value, target=defense.target,
                         modifiers=mods)


def _compared(value: int, defense: DefenseTotal, rule: str, pid: str) -> ActionOutcome:
    """*Hn and *Dn (8.10): a shot when the number reaches the defense's total, else an
    interception; either way the shot kind stays "normal"."""
    shoots = value >= defense.target
    return ActionOutcome("shot" if shoots else "interception", rule, value=value,
                         target=defense.target, modifiers=[defense.how],
                         shooter=pid if shoots else None, shot="normal")


def _pass_code(state: GameState, side: str, opp: str, code: str, n: int | None, strength: str,
               status: PlayerStatus) -> ActionOutcome:
    """P, Pn, PP and a forward's Pf (8.10, 13.00, 18.10)."""
    if code == "PP":
        return ActionOutcome("pass" if pp_rules(state, side) else "interception", "8.10")
    if strength == "sh":
        return ActionOutcome("interception", "8.10", modifiers=["short-handed (8.10)"])
    if n is None and not status.modifier:
        return ActionOutcome("pass", "8.10")
    limit = (6 if n is None else n) + status.modifier  # 18.10: P counts as P6 when hurt
    bars = sum(getattr(state.team(opp).card(p), "intimidation", 0)
               for p in state.team(opp).skaters_on_ice())
    mods = [f"intimidation {bars}"] + ([f"{status.modifier} injury (18.10)"] if status.modifier else [])
    return ActionOutcome("pass" if limit > bars else "interception", "8.10", value=limit,
                         target=bars, modifiers=mods)


def _late(state: GameState) -> bool:
    """The house rule's window: the last five minutes of the third, and all of overtime.
    The action being resolved uses the next sequence; every overtime of a playoff game is
    overtime (ruling R-6.00c)."""
    return state.period >= 4 or (state.period == 3 and state.sequence + 1 >= LATE_SEQUENCE)


# An event's fields read together, as a tuple in their declared order: compiled, each
# field of a msgspec event read by name is a generic attribute look-up (about 160
# instructions); ``astuple`` reads them all in one call (about two reads by name, as
# engine/dicehockey/game.py measured), and a tuple's items are read natively. Worth it
# where three or more fields are read. The places are pinned by
# tests/bones/test_bones_events_made.py (the fields' declared order). Each tuple is
# named ``tuple[object, ...]`` where it is read: mypy may see msgspec untyped in the
# build (``astuple`` then ``Any``, and each item read with ``PyObject_GetItem`` and a
# boxed index, about 100 instructions more an item: a first build in a fresh .venv was
# one, 0.24 M more a game), as engine/dicehockey/game.py names them.
fields_of: Final = msgspec.structs.astuple
ACTION_SIDE: Final = 0  # ActionResolved: side, player, slot, cell, result, value, target,
ACTION_PLAYER: Final = 1  # modifiers, time, roll, rule, shooter, shot, injury
ACTION_RESULT: Final = 4
ACTION_SHOOTER: Final = 11
ACTION_SHOT: Final = 12
ACTION_INJURY: Final = 13


def queue_after_action(state: GameState, event: ActionResolved) -> None:
    """Evolve: what an action result leaves to do next."""
    state.dz_bonus = ""
    # The event's fields read together (``fields_of``): six of them are read here.
    fields: tuple[object, ...] = fields_of(event)
    side, player = cast(str, fields[ACTION_SIDE]), cast(str, fields[ACTION_PLAYER])
    result = cast(str, fields[ACTION_RESULT])
    if fields[ACTION_INJURY]:
        state.injured, state.injured_side = player, side
    # 13.00: consecutive power-play passes. A pass or interception counts here; a puck
    # that really changes hands resets the count when it moves (PuckIntercepted).
    state.pp_passes = state.pp_passes + 1 if result in ("pass", "interception") and pp_rules(
        state, side) else 0
    shot = cast(str, fields[ACTION_SHOT])
    shooter = cast("str | None", fields[ACTION_SHOOTER])
    if result == "shot":
        state.replace_step(Step("shot", side=side, player=shooter or player, shot=shot))
        return
    if result == "penalty":
        state.replace_step(Step("penalty", side=side, player=player, source="action"))
        return
    if shot and shooter:
        state.pending_shot = PendingShot(shooter, shot)
    elif result in ("kill", "play_on"):
        # 8.20 +, 8.10 Xn: the carrier keeps the puck; he rolls again only while the
        # period has sequences left (6.00), like every other play that goes on.
        resume(state)
