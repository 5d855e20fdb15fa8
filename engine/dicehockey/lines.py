"""Lines (9, 10, 11, 15, 22): who stands in each slot, when a coach may move a pawn, and
the rotation a line change must respect.

A team's pawns point at one forward line and one pair of its lineup cards; ``on_ice``
turns them into slots: a player out (fight, misconduct, injury, ejection) is replaced
from the fourth line or the bench, and a team short-handed leaves its LW box empty (and
its RW box at 5 on 3), the LW stepping into any other hole the penalty left (15). The
lineup cards are the team file's until the coach re-sets them, which 10 allows only
between periods, at his own time out or after one of his players is injured (ruling
R-DH-10b).
"""

from __future__ import annotations

from typing import Final, NamedTuple, cast

import msgspec

from engine.dicehockey.cards import Lines
from engine.dicehockey.rulesets import VERSION_2
from engine.dicehockey.state import (
    DEFENSE_SLOTS,
    FORWARD_SLOTS,
    LINES,
    PAIRS,
    ROTATION,
    SLOTS,
    GameState,
    OnIce,
    SlotsSeen,
    TeamState,
    Turns,
)
from events.dicehockey import LinesChanged, LineupRearranged

# An event's fields read together, as a tuple in their declared order (game.fields_of says
# why, and why its answer is named a tuple; kept here too so that it is a C static of this
# module)
fields_of: Final = msgspec.structs.astuple


def line_players(team: TeamState, forwards: int, defense: int) -> dict[str, str | None]:
    lines = team.lines
    line, pair = lines.forwards[forwards - 1], lines.defense[defense - 1]
    if len(line) != 3 or len(pair) != 2:  # 10: a line of LW, C, RW; a pair of LD, RD
        raise ValueError(f"10: line {forwards} or pair {defense} of {team.team.id} is not "
                         "three forwards and two defensemen")
    # (the slots written out: ``dict(zip(...))`` was a generic call and an iterator)
    return {"LW": line[0], "C": line[1], "RW": line[2], "LD": pair[0], "RD": pair[1]}


def slots_for(team: TeamState, forwards: int, defense: int, extra: str | None = None,
              version: int = VERSION_2) -> dict[str, str | None]:
    """The slots of a team with these pawns (15, ruling R-DH-15i: PK boxes; ruling
    R-DH-10a: stand-ins).

    A pure function of the team's cards, lineup cards and standing (who is out, the
    penalties running), asked thousands of times a game for a few dozen different
    answers: each answer is kept and handed out as a copy. ``version``: the ruleset
    version of the game (GameState.version), with an extra attacker.

    The answers of the team's standing (``TeamState.seen``, found once when the standing
    changes and shared with every game and state that stands so: state._STANDINGS) are
    keyed by the pawns alone: no frozenset nor tuple of the penalties built and hashed
    at each ask."""
    return dict(kept_slots(team, forwards, defense, extra, version))


def kept_slots(team: TeamState, forwards: int, defense: int, extra: str | None = None,
               version: int = VERSION_2) -> dict[str, str | None]:
    """``slots_for``'s answer itself, not a copy: to be read, never changed (the coach's
    proposal and the rules' check read it; an event is given a copy)."""
    seen_here = team.seen
    if seen_here is None:
        team.seen = seen_here = SlotsSeen()
        seen_here.restart(team, version)
    elif not seen_here.holds(team, version):
        seen_here.restart(team, version)
    # no extra attacker (almost every ask): the pawns as one number, no tuple made
    mine: object = forwards * 4 + defense if extra is None else (forwards, defense, extra)
    answer = seen_here.answers.get(mine)
    if answer is None:
        answer = seen_here.answers[mine] = _slots_for(team, forwards, defense, extra, version)
    return answer


def _slots_for(team: TeamState, forwards: int, defense: int,
               extra: str | None, version: int) -> dict[str, str | None]:
    players: dict[str, str | None] = line_players(team, forwards, defense)  # its own
    taken = set(players.values())
    for slot, pid in players.items():
        if pid is not None and pid in team.out and not _short_in_box(team, pid):
            players[slot] = _stand_in(team, slot, taken)
    for slot, pid in players.items():
        if pid is not None and _short_in_box(team, pid):
            players[slot] = None
    short = team.men_short()
    empty = ("LW", "RW")[:short]
    spare = [players[s] for s in empty if players[s] is not None]
    for slot in empty:
        players[slot] = None
    for slot in SLOTS:
        if slot not in empty and players[slot] is None:
            players[slot] = spare.pop(0) if spare else _stand_in(team, slot, taken)
    if extra:
        # 22: the extra attacker (goalie pulled, or a delayed call) is a sixth skater: one
        # whose line has since come on plays his own slot, and the first free dressed
        # skater takes the extra attacker's place (ruling R-DH-22f). One in the box (15:
        # "Take the player off of his line and place him in the penalty box"), injured or
        # ejected is off the ice: the first free skater takes his place too (ruling
        # R-DH-22g; version 1 kept him on).
        gone = extra in team.out and version >= VERSION_2
        players["EA"] = extra if extra not in taken and extra not in players.values() \
            and not gone else _free_skater(team, set(players.values()))
    return players


def _free_skater(team: TeamState, on: set[str | None]) -> str | None:
    for card in team.team.skaters:
        if card.id not in on and card.id not in team.out:
            return card.id
    return None


def extra_attacker(state: GameState, side: str, pulled: bool | None = None) -> str | None:
    """``side``'s extra attacker (22): for its pulled goalie (``pulled`` says whether the
    goalie is out, if not as now), else during the other team's delayed penalty."""
    team = state.team(side)
    if team.pulled if pulled is None else pulled:
        return team.extra_attacker
    return state.delayed_ea if state.delayed and state.delayed[0].side != side else None


def on_ice(state: GameState, side: str) -> dict[str, str | None]:
    """``side``'s slots now. Kept in the team's state (``TeamState.ice``) until anything
    they come from changes: the answer is shared, to be read and never changed."""
    team = state.team(side)
    # no pulled goalie nor delayed penalty (nearly every ask): no extra attacker (22)
    extra = extra_attacker(state, side) if team.pulled or state.delayed else None
    ice = team.ice
    if ice is None:
        team.ice = ice = OnIce()
    elif ice.holds(team, extra, state.version):
        return ice.slots
    slots = kept_slots(team, team.forwards, team.defense, extra, state.version)
    ice.keep(team, extra, state.version, slots)
    return slots


def skaters_on_ice(state: GameState, side: str) -> list[str]:
    return [pid for pid in on_ice(state, side).values() if pid is not None]


def slot_of(state: GameState, side: str, player_id: str) -> str | None:
    for slot, pid in on_ice(state, side).items():
        if pid == player_id:
            return slot
    return None


def _short_in_box(team: TeamState, player_id: str) -> bool:
    return any(p.player == player_id and p.short for p in team.penalties)


def _stand_in(team: TeamState, slot: str, taken: set[str | None]) -> str | None:
    """Ruling R-DH-10a: a player who cannot play is replaced by the fourth line's player in
    the same slot, else the first dressed skater free (a face-off man for C)."""
    lines = team.lines
    index = SLOTS.index(slot)
    candidates = [lines.forwards[3][index]] if slot in FORWARD_SLOTS else []
    candidates += [card.id for card in team.team.skaters]
    if slot == "C":
        candidates = [c for c in candidates if team.cards[c].faceoff is not None] + candidates
    for pid in candidates:
        if pid not in taken and pid not in team.out:
            taken.add(pid)
            return pid
    return None


# --- change windows (9) ----------------------------------------------------------------

class Changes(NamedTuple):
    """What a team may change now (9): its forward line, its pair."""

    forwards: bool
    defense: bool


# The four answers, made once: compiled, building a NamedTuple runs its interpreted __new__.
_BOTH: Final = Changes(True, True)
_NEITHER: Final = Changes(False, False)
_FORWARDS_ONLY: Final = Changes(True, False)
_DEFENSE_ONLY: Final = Changes(False, True)


def may_change(state: GameState, side: str) -> Changes:
    """Whether ``side`` may move its forward and its defense pawn now (9): at a whistle
    or after a dump both (ruling R-DH-9d); otherwise by who has the puck."""
    if not state.coach_window:
        return _NEITHER
    if state.window in ("stoppage", "dump"):
        return _BOTH
    if state.puck is None:
        return _NEITHER
    on_defense = state.carrier_slot in DEFENSE_SLOTS
    if side == state.puck.side:  # the carrier's unit stays: the other one may change
        return _FORWARDS_ONLY if on_defense else _DEFENSE_ONLY
    return _BOTH if on_defense else _FORWARDS_ONLY  # the forwards, and the pair too when
    # the puck is with the other team's defense


_ROTATION_AND_FOURTH: Final = (*ROTATION, 4)  # 9: a fourth line that sat a period rotates


def rotation(team: TeamState) -> tuple[int, ...]:
    return _ROTATION_AND_FOURTH if team.fourth_in_rotation else ROTATION


def change_fault(state: GameState, event: LinesChanged) -> str | None:
    """Why a line change breaks 9, 10, 11 or 15, or None."""
    # the event's fields read together (side, forwards, defense, slots, rule; a msgspec
    # field read by name from compiled code is a generic attribute look-up; the order is
    # pinned by tests/dicehockey/test_dicehockey_events_made.py)
    fields: tuple[object, ...] = fields_of(event)
    side, forwards, defense = cast(str, fields[0]), cast(int, fields[1]), cast(int, fields[2])
    team = state.team(side)
    may_f, may_d = may_change(state, side)
    if forwards != team.forwards and not may_f:
        return "9: the forward line may not change now (see who has the puck)"
    if defense != team.defense and not may_d:
        return "9: the pair may not change now (see who has the puck)"
    if not 1 <= forwards <= 4 or not 1 <= defense <= 3:
        return "9: four forward lines and three pairs"
    if team.men_short() and forwards not in (1, 2):
        return "15: only the first two lines kill penalties"
    # ruling R-DH-9b: a team killing a penalty sends lines 1 and 2 (15), outside the
    # rotation; the team on the power play keeps to it (9 makes no exception)
    if forwards != team.forwards and not team.men_short() and \
            held(line_turns(state, team), forwards):
        return (f"9: line {forwards} waits for lines "
                f"{sorted(team.f_waiting[forwards])} to take a full shift")
    if defense != team.defense and held(pair_turns(state, team), defense):
        return (f"9: pair {defense} waits for pairs "
                f"{sorted(team.d_waiting[defense])} to take a full shift")
    expected = kept_slots(team, forwards, defense, extra_attacker(state, side), state.version)
    if not keeps_carrier(state, side, expected):
        return "9: the player with the puck stays on the ice"
    if must_start_fourth(state, side) and forwards != 4:
        return "9: a fourth line that sat a period starts the next one"
    if fields[3] != expected:
        return f"10: the slots of line {forwards} and pair {defense} are {expected}"
    if fields[4] != "9":
        return f"line changes are rule 9, not {event.rule}"
    return None


def keeps_carrier(state: GameState, side: str, slots: dict[str, str | None]) -> bool:
    """Ruling R-DH-9c: a change never takes the player with the puck off the ice."""
    puck = state.puck
    if puck is None or puck[0] != side:
        return True
    carrier = puck[1]
    for player in slots.values():  # (a loop: no values view searched generically)
        if player == carrier:
            return True
    return False


def must_start_fourth(state: GameState, side: str) -> bool:
    team = state.team(side)
    return team.fourth_in_rotation and not state.period_opened and not team.men_short()


def apply_change(state: GameState, event: LinesChanged) -> None:
    """Move the pawns; the lines that left wait their turn (9, 11). A line coming on has
    not had its shift yet: it counts once full (``shifts_taken``)."""
    fields: tuple[object, ...] = fields_of(event)  # (side, forwards, defense, ...): read together
    team = state.team(cast(str, fields[0]))
    forwards, defense = cast(int, fields[1]), cast(int, fields[2])
    if forwards != team.forwards:
        _leave(team.f_waiting, team.forwards, _forward_waits(team, team.forwards))
        team.forwards, team.f_spaces, team.f_possessions = forwards, 0, 0
        team.f_counted = False  # its full shift is still to come
    if defense != team.defense:
        # ruling R-DH-11a: a B-stamina pair waits as any pair does
        leaving = team.defense
        _leave(team.d_waiting, leaving, {pair for pair in PAIRS if pair != leaving})
        team.defense, team.d_spaces, team.d_possessions = defense, 0, 0
        team.d_counted = False


def shifts_taken(team: TeamState) -> None:
    """9: "until Lines 2 and 3 have taken a full shift": a unit on the ice whose shift is
    full (ruling R-DH-9b: two timing spaces, or two possessions) no longer
    holds back the lines waiting for it. Asked each time a space or a possession counts:
    once counted, a unit's full shift is not counted again while it stays on
    (``TeamState.f_counted``; nothing but a change or a rest adds to the waits)."""
    if not team.f_counted and team.f_full():
        line = team.forwards
        _arrive(team.f_waiting, line)
        _latest(team.f_shifts, line)
        if line == 4:
            team.fourth_played = True  # 9: the fourth line's full shift this period
        team.f_counted = True
    if not team.d_counted and team.d_full():
        _arrive(team.d_waiting, team.defense)
        _latest(team.d_shifts, team.defense)
        team.d_counted = True


def _forward_waits(team: TeamState, line: int) -> set[int]:
    """Whom a line leaving waits for (9): the other regular lines; a regular line with a
    B-stamina player waits for all three others (11); ruling R-DH-9b: the fourth line,
    outside the rotation, waits for nobody."""
    if line == 4 and not team.fourth_in_rotation:
        return set()
    # (loops and comprehensions: no generator, nor sets made only to be subtracted)
    if line != 4 and _has_b_stamina(team, line):
        return {each for each in LINES if each != line}
    return {each for each in rotation(team) if each != line}


def _has_b_stamina(team: TeamState, line: int) -> bool:
    """11: whether forward line ``line`` has a B-stamina player, read from the cards once
    a lineup (the lineup cards are replaced, never changed, when re-set: 10)."""
    lines = team.lines
    if team.b_lines_of is not lines:
        cards = team.cards
        team.b_lines = [any(cards[player].stamina == "B" for player in forwards)
                        for forwards in lines.forwards]
        team.b_lines_of = lines
    return team.b_lines[line - 1]


def line_turns(state: GameState, team: TeamState) -> Turns:
    """The team's forward lines as the rotation reads them now (9, 11): one ``Turns`` kept
    in the team's state and brought up to date at each ask (the waiting lines and the
    shifts are the team's own, read in place, as ever), not one made at each ask."""
    turns = team.f_turns
    if turns is None or turns.waiting is not team.f_waiting \
            or turns.shifts is not team.f_shifts:  # a state copied without its own
        team.f_turns = turns = Turns(team.f_waiting, LINES, ROTATION, 0, team.f_shifts, 0)
    turns.regular, turns.on, turns.version = rotation(team), team.forwards, state.version
    return turns


def pair_turns(state: GameState, team: TeamState) -> Turns:
    """The team's pairs as the rotation reads them now (9), kept as ``line_turns``."""
    turns = team.d_turns
    if turns is None or turns.waiting is not team.d_waiting \
            or turns.shifts is not team.d_shifts:
        team.d_turns = turns = Turns(team.d_waiting, PAIRS, PAIRS, 0, team.d_shifts, 0)
    turns.on, turns.version = team.defense, state.version
    return turns


def held(turns: Turns, line: int) -> bool:
    """Whether ``line`` may not come on yet (9, 11): it waits for a line still to take
    its full shift. The rules' check (``change_fault``) and the default coach both ask
    this.

    Ruling R-DH-9b: a shift cut short (a penalty kill, a coach's early change) can leave
    lines waiting for each other, none of which could ever come on. Once the line on the
    ice has had its full shift (nobody waits for it), a line can still take a shift when
    it waits for nobody or only for lines that can. When no rotation line can (9: "You
    must use all 3 lines regularly"), the one the rotation owes a shift comes on: the one
    whose latest full shift is the oldest (one that has had none first; then the one
    that left first). Version 1 let the one that left first come on even when another
    line could, which could skip a line for good."""
    waiting = turns.waiting
    if not waiting.get(line):
        return False
    on = turns.on
    for others in waiting.values():  # (a loop, not a generator: asked at every change)
        if on in others:
            return True
    can = {on}  # the line on, and those waiting for nobody (a loop: no generator made)
    for each in turns.every:
        if not waiting.get(each):
            can.add(each)
    grew = True
    while grew:
        more = {each for each in turns.every if each not in can and waiting[each] <= can}
        grew = bool(more)
        can |= more
    if line in can:
        return True
    if turns.version < VERSION_2:  # ruling R-DH-9b, version 1: the line that left first
        return next(each for each in waiting if each not in can) != line
    if any(each in can for each in turns.regular if each != turns.on):
        return True  # ruling R-DH-9b: a rotation line can still take its turn first
    return line != owed(turns)


def owed(turns: Turns) -> int:
    """Ruling R-DH-9b: of the rotation lines off the ice, the one whose latest full shift
    is the oldest (none at all first), then the one that left first."""
    left = list(turns.waiting)
    return min((each for each in turns.regular if each != turns.on and each in left),
               key=lambda each: (turns.shifts.index(each) if each in turns.shifts else -1,
                                 left.index(each)))


def _leave(waiting: dict[int, set[int]], line: int, others: set[int]) -> None:
    """``others``: a set of its own, kept (each caller makes it)."""
    if line in waiting:  # in the order the lines left (ruling R-DH-9b)
        del waiting[line]
    waiting[line] = others


def _arrive(waiting: dict[int, set[int]], line: int) -> None:
    """Ruling R-DH-9b: a line's full shift counts for the lines waiting for it."""
    for others in waiting.values():
        if line in others:  # (asked at every possession and space: most find nothing)
            others.remove(line)


def _latest(shifts: list[int], line: int) -> None:
    """Ruling R-DH-9b: ``line`` has the latest full shift (asked again while it stays on)."""
    if not shifts or shifts[-1] != line:
        if line in shifts:
            shifts.remove(line)
        shifts.append(line)


# --- lineup cards (10) -------------------------------------------------------------------

LINEUP_WHEN: Final = {"period": "between periods", "time_out": "at its time out",
                      "injury": "after its player's injury"}


def lineup_fault(state: GameState, event: LineupRearranged) -> str | None:
    """Why a re-set of the lineup cards breaks 10, or None: only when the text lets the
    lines be re-set, every dressed skater in one box, a face-off man at C, no goalie."""
    team = state.team(event.side)
    if not team.lineup_open or not state.coach_window:
        return ("10: the lines stay set until the period ends, the team calls its time "
                "out or one of its players is injured")
    if len(event.forwards) != 4 or any(len(line) != 3 for line in event.forwards) \
            or len(event.defense) != 3 or any(len(pair) != 2 for pair in event.defense):
        return "10: four forward lines of LW, C, RW and three pairs of LD, RD"
    placed = [p for line in [*event.forwards, *event.defense] for p in line]
    goalies = sorted({p for p in placed if p in team.goalies})
    if goalies:
        return f"10: goalies cannot play another position ({', '.join(goalies)})"
    strangers = sorted({p for p in placed if p not in team.cards})
    if strangers:
        return f"10: not dressed skaters of {team.team.id}: {', '.join(strangers)}"
    twice = sorted({p for p in placed if placed.count(p) > 1})
    missing = [p for p in team.cards if p not in placed]
    if twice or missing:
        return (f"10: every dressed skater in one box: {', '.join(twice)} placed more than "
                f"once, {', '.join(missing)} missing")
    no_faceoff = [line[1] for line in event.forwards if team.cards[line[1]].faceoff is None]
    if no_faceoff:
        return f"10: only a player with a face-off rating plays C, not {', '.join(no_faceoff)}"
    if [*event.forwards, *event.defense] == [*team.lines.forwards, *team.lines.defense]:
        return "10: the lineup cards are already set that way"
    if event.rule != "10":
        return f"lineup cards are rule 10, not {event.rule}"
    return None


def apply_lineup(state: GameState, event: LineupRearranged) -> None:
    """10: the boxes re-set; the pawns, and the lines' shifts and waits (9, 11), stay."""
    team = state.team(event.side)
    team.lines = Lines(forwards=[list(line) for line in event.forwards],
                       defense=[list(pair) for pair in event.defense],
                       goalies=team.lines.goalies)


def rearranged(team: TeamState, first: str, second: str) -> LineupRearranged:
    """``team``'s lineup cards with two dressed skaters' boxes swapped (10)."""
    def swap(box: list[str]) -> list[str]:
        return [second if p == first else first if p == second else p for p in box]
    return LineupRearranged(side=team.side, forwards=[swap(line) for line in team.lines.forwards],
                            defense=[swap(pair) for pair in team.lines.defense], rule="10")


def rest_all(team: TeamState) -> None:
    """12, 9: a time out or a new period rests every line."""
    team.f_waiting.clear()
    team.d_waiting.clear()
    team.f_shifts.clear()
    team.d_shifts.clear()
    team.f_spaces = team.d_spaces = team.f_possessions = team.d_possessions = 0
    team.f_counted = team.d_counted = False
