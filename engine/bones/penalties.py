"""Penalties (14.00-14.60) and bench minors (5.00).

A penalty roll reads the penalized player's penalty column (odd or even blue). The call
may bring retaliation (14.30), special occurrences (14.20 #), misconducts (14.40) and
game misconducts (14.51, 14.52); everything called is assessed together when play stops,
or after the one roll of a delayed penalty (14.60).
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple, cast

import msgspec

from engine.bones.cards import Goalie, Skater
from engine.bones.dice import DiceRange
from engine.bones.rolls import white
from engine.bones.state import (
    Call,
    GameState,
    Penalty,
    Retaliation,
    Step,
    TeamState,
    is_defenseman,
    other,
)
from engine.bones.timing import SECONDS_PER_SEQUENCE, end_stint
from events.bones import (
    BenchMinorChecked,
    BenchMinorScheduled,
    GameMisconductChecked,
    MisconductChecked,
    PenaltyAssessed,
    PenaltyCalled,
    PenaltyEnded,
    PlayStopped,
    PuckIntercepted,
    RetaliationRolled,
    Roll,
    SpecialOccurrenceRolled,
)


class PenaltyKind(NamedTuple):
    """What a kind of penalty costs (14.10)."""

    minutes: int
    box: int  # time sequences in the box
    releasable: bool  # a minor's short time ends on a power-play goal (14.20)


KINDS: Final[dict[str, PenaltyKind]] = {
    "minor": PenaltyKind(2, 5, True),
    "double_minor": PenaltyKind(4, 10, True),
    "major": PenaltyKind(5, 12, False),
    "minor_major": PenaltyKind(7, 17, False),
    "misconduct": PenaltyKind(10, 25, False),
    "game_misconduct": PenaltyKind(10, 0, False),
    "bench_minor": PenaltyKind(2, 5, True),
}


MINOR: Final = KINDS["minor"].box  # 14.10: a minor, and each half of a double minor, 5 sequences


class Release(NamedTuple):
    """What a power-play goal does to the penalty that made the other team short (14.20)."""

    penalty: Penalty
    # True: the penalty ends (a minor, or a double minor's second minor); False: a double
    # minor's first minor ends and its second begins (14.20 D).
    ends: bool


def power_play_release(state: GameState, side: str, penalty_shot: bool) -> Release | None:
    """The release a goal by ``side`` brings, if it is a power-play goal.

    14.20 D: "The second minor penalty begins when either the first minor penalty ends or
    the opposing team scores a power-play goal": only the power-play team's goal (more
    skaters by penalties, 9.00; a penalty shot is none) cuts a penalty, and only the first
    running minor or double minor of the short team. A short-handed goal or one at even
    strength (4 on 4 with coincidental double minors, 14.20 G) cuts nothing. A double minor
    is in its first minor while more than one minor's time is left of it."""
    if penalty_shot or state.strength(side) != "pp":
        return None
    for pen in state.team(other(side)).penalties:
        if pen.short_left > 0 and pen.releasable:
            first = pen.kind == "double_minor" and max(pen.box_left, pen.short_left) > MINOR
            return Release(pen, ends=not first)
    return None


def start_second_minor(pen: Penalty) -> None:
    """14.20 D: a power-play goal ends a double minor's first minor; the second begins now,
    five sequences in the box, and man short if the double minor made its team short for
    both minors (D, G). An F double minor puts its team short for two minutes only, its
    first minor (14.20 F, ruling R-14.20b): its second minor is served at full strength."""
    pen.box_left = min(pen.box_left, MINOR)
    pen.short_left = min(pen.short_left, MINOR) if pen.short > MINOR else 0


def make_call(side: str, player: str, kind: str, rule: str, short: int | None = None) -> Call:
    minutes, box, releasable = KINDS[kind]
    if short is None:
        short = box if kind in ("minor", "double_minor", "major", "bench_minor") else 0
    return Call(side=side, player=player, kind=kind, minutes=minutes, box=box, short=short,
                releasable=releasable and short > 0, rule=rule)


def decide_penalty(state: GameState, step: Step, roll: Roll) -> list:
    card = state.team(step.side).card(step.player)
    column = card.penalty.odd if roll.blue % 2 else card.penalty.even
    code = column[white(roll) - 2]
    # 14.20 / 14.60: a minor, double minor or major on blue 1-2 is a delayed penalty; its
    # one roll needs a time sequence, so with the period's last one used play stops
    # (6.00, ruling R-14.60c).
    delayed = step.source == "action" and code in ("-", "D", "M") and roll.blue <= 2 \
        and not state.clock_expired
    return [PenaltyCalled(side=step.side, player=step.player, code=code, source=step.source,
                          delayed=delayed, red=roll.red, roll=state.rolls, rule="14.20")]


def apply_called(state: GameState, event: PenaltyCalled) -> None:
    """Evolve: the calls a penalty type makes, and the rolls it still needs (14.20)."""
    side, pid, code, red = event.side, event.player, event.code, event.red
    opp = other(side)
    calls = state.calls
    steps: list[Step] = []
    majors = {side: 0, opp: 0}
    if code == "-":
        calls.append(make_call(side, pid, "minor", "14.20"))
    elif code == "D":
        calls.append(make_call(side, pid, "double_minor", "14.20"))
    elif code == "M":
        calls.append(make_call(side, pid, "major", "14.20"))
        if red != 6:  # 14.20 M: a game misconduct too unless the red die is a six
            calls.append(make_call(side, pid, "game_misconduct", "14.20"))
    elif code == "A":
        calls.append(make_call(side, pid, "minor", "14.20", short=5))
        steps.append(_retaliation(opp, "MI", "minor", short=5))
    elif code == "F":
        calls.append(make_call(side, pid, "double_minor", "14.20", short=5))
        steps.append(_retaliation(opp, "MI", "minor", short=0))
    elif code == "G":
        calls.append(make_call(side, pid, "double_minor", "14.20", short=10))
        steps.append(_retaliation(opp, "MI", "double_minor", short=10))
    elif code in ("B", "#"):
        calls.append(make_call(side, pid, "major", "14.20", short=0))
        steps.append(_retaliation(opp, "MA", "major", short=0))
        majors = {side: 1, opp: 1}
        if code == "#":
            steps.append(Step("special", side=side))
    elif code == "C":
        calls.append(make_call(side, pid, "minor_major", "14.20", short=5 if red <= 4 else 0))
        answer = "major" if red <= 4 else "minor_major"
        steps.append(_retaliation(opp, "MA", answer, short=0))
        majors = {side: 1, opp: 1}
    steps = [s for s in steps
             if s.retaliation is None or _ranked(state, s.side, s.retaliation.scale)]
    for team_side, count in majors.items():
        steps += [Step("gm_check", side=team_side)] * count
    steps.append(Step("misconduct", side=side, player=pid))  # 14.40: action and goalie codes
    if event.source == "goalie" and code in ("B", "C", "M"):
        steps.append(Step("goalie_gm", side=side, player=pid))  # 14.52
    steps.append(Step("time", incident="penalty"))
    if event.delayed:
        state.delayed = True
        if can_pull_for_extra_skater(state, opp):
            # 14.60: the opposing team replaces its goalie with an extra skater (a coach
            # choice: who goes on), then the red die sends the puck to it.
            steps.append(Step("extra_skater", side=opp))
        steps.append(Step("delayed", side=side, player=pid))
    else:
        zone = side if event.source == "goalie" else ""  # 11.10: a frozen puck
        steps.append(Step("stop", side=zone, reason="penalty"))
    state.queue[0:1] = steps


def _retaliation(side: str, scale: Literal["MI", "MA"], penalty: str, short: int) -> Step:
    """14.30: ``side`` answers with ``penalty`` to a player its ``scale`` rating picks."""
    return Step("retaliation", side=side,
                retaliation=Retaliation(scale=scale, penalty=penalty, short=short))


def can_pull_for_extra_skater(state: GameState, side: str) -> bool:
    """14.60: ``side`` has its goalie in net and a dressed skater who can go on."""
    team = state.team(side)
    if team.pulled:
        return False  # its sixth attacker is already on
    on_ice = set(team.skaters_on_ice())
    return any(isinstance(s.card, Skater) and not s.out and pid not in on_ice
               for pid, s in team.players.items())


def _ranked(state: GameState, side: str, scale: str) -> list[str]:
    """14.30 / 14.51: players ranked by MI, MA or GM, highest first (rank 5), zeros out."""
    team = state.team(side)
    if scale == "GM":
        pool = [pid for pid, s in team.players.items() if not s.is_goalie and s.out != "game"]
    else:
        pool = team.skaters_on_ice()
    field = scale.lower()  # the card's rating: mi, ma or gm
    rating = {pid: getattr(team.card(pid), field, 0) for pid in pool}
    # Ties in dressing order: each pool player's place in the roster, read in one walk of
    # it (no dict of the whole roster made); sorted as (rating, place, id) tuples, not by
    # a key closure called through Python's calling convention for each player (the
    # places differ, so the ids are never compared: the order of the key it replaces).
    place = roster_places(team, rating)
    ranked = sorted([(-rating[p], place[p], p) for p in pool if rating[p] > 0])
    return [p for _, _, p in ranked[:5]]


def roster_places(team: TeamState, wanted: dict[str, int]) -> dict[str, int]:
    """The place in the team's roster (its dressing order) of each player ``wanted``."""
    place: dict[str, int] = {}
    i, left = 0, len(wanted)
    for pid in team.players:
        if pid in wanted:
            place[pid] = i
            left -= 1
            if not left:
                break  # every one found: the rest of the roster not walked
        i += 1
    return place


def decide_retaliation(state: GameState, step: Step, roll: Roll) -> list:
    scale = step.retaliation.scale if step.retaliation is not None else "GM"  # gm_pick: 14.51
    ranked = _ranked(state, step.side, scale)
    rank = state.charts.retaliation[roll.blue - 1][white(roll) - 2]
    index = 5 - rank
    player = ranked[index] if index < len(ranked) else None
    rule = "14.30" if scale != "GM" else "14.51"
    return [RetaliationRolled(side=step.side, scale=scale, rank=rank, player=player,
                              roll=state.rolls, rule=rule)]


def apply_retaliation(state: GameState, event: RetaliationRolled) -> None:
    if event.player is None:
        return  # 14.30: nobody there with a rating; roll again
    step = state.queue.pop(0)
    if event.scale == "GM":
        state.calls.append(make_call(event.side, event.player, "game_misconduct", "14.51"))
        return
    assert step.retaliation is not None
    state.calls.append(make_call(event.side, event.player, step.retaliation.penalty, "14.30",
                                 short=step.retaliation.short))


def decide_special(state: GameState, step: Step, roll: Roll) -> list:
    index = state.charts.special_occurrences[roll.blue - 1][white(roll) - 2]
    text = state.charts.occurrences[index].text
    return [SpecialOccurrenceRolled(index=index, text=text, roll=state.rolls, rule="14.20")]


def apply_special(state: GameState, event: SpecialOccurrenceRolled) -> None:
    """14.20 #: extra penalties go to the on-ice skaters with the highest MA ratings not
    yet penalized on the play (ruling R-14.20a); each major may bring a game misconduct."""
    step = state.queue.pop(0)
    occurrence = state.charts.occurrences[event.index]
    extra: list[Step] = []
    for team_side, kinds in ((step.side, occurrence.own), (other(step.side), occurrence.other)):
        for kind in kinds:
            taken = {c.player for c in state.calls}
            candidates = [p for p in _by_rating(state, team_side, "ma") if p not in taken]
            if candidates:
                state.calls.append(make_call(team_side, candidates[0], kind, "14.20", short=0))
                if kind == "major":
                    extra.append(Step("gm_check", side=team_side))
    state.queue[0:0] = extra


def _by_rating(state: GameState, side: str, field: str) -> list[str]:
    team = state.team(side)
    order = {pid: i for i, pid in enumerate(team.players)}
    pool = team.skaters_on_ice()
    return sorted(pool, key=lambda p: (-getattr(team.card(p), field, 0), order[p]))


def decide_misconduct(state: GameState, step: Step, roll: Roll) -> list:
    card = state.team(step.side).card(step.player)
    in_range = DiceRange.parse(card.mc).contains(roll)
    return [MisconductChecked(player=step.player, range=card.mc, in_range=in_range,
                              roll=state.rolls, rule="14.40")]


def apply_misconduct(state: GameState, event: MisconductChecked) -> None:
    step = state.queue.pop(0)
    if event.in_range:
        state.calls.append(make_call(step.side, event.player, "misconduct", "14.40"))


def decide_game_misconduct(state: GameState, step: Step, roll: Roll) -> list:
    team = state.team(step.side)
    if step.kind == "goalie_gm":
        card = team.card(step.player)
        assert isinstance(card, Goalie)
        text, rule = card.gm_range, "14.52"
    else:
        # 14.51, both texts: "Draft leagues use the NHL Game Misconduct Penalty range."
        text, rule = state.nhl_gm_range or team.team.game_misconduct, "14.51"
    in_range = DiceRange.parse(text).contains(roll)
    return [GameMisconductChecked(side=step.side, range=text, in_range=in_range,
                                  roll=state.rolls, rule=rule)]


def apply_game_misconduct(state: GameState, event: GameMisconductChecked) -> None:
    step = state.queue.pop(0)
    if not event.in_range:
        return
    if step.kind == "goalie_gm":
        state.calls.append(make_call(step.side, step.player, "game_misconduct", "14.52"))
    elif _ranked(state, step.side, "GM"):
        state.queue.insert(0, Step("gm_pick", side=step.side))


def decide_delayed(state: GameState, step: Step, roll: Roll) -> list:
    """14.60: the red die sends the puck to the other team, who get one roll. Red 6 goes
    to its extra skater (12.00: a sixth skater on the opposing team); only a team that
    could put none on reads the pass chart's pk (short-handed) or even-strength entry
    (ruling R-14.60a)."""
    card = state.team(step.side).card(step.player)
    assert isinstance(card, Skater)
    opp = other(step.side)
    if roll.red <= 5:
        slot = card.passes[roll.red - 1]
    elif state.team(opp).pulled:
        slot = "G"
    else:
        slot = card.pass_six.pk if state.strength(step.side) == "sh" else card.pass_six.es
    receiver = state.team(opp).slots.get(slot)
    if receiver is None:
        return [PlayStopped(reason="penalty", zone=None)]
    return [PuckIntercepted(side=opp, from_player=step.player, to_player=receiver, slot=slot,
                            roll=state.rolls, rule=state.cite("14.60"))]


def server(state: GameState, side: str) -> str:
    """Who sits for a bench minor (5.00) or a goalie's penalty: the available forward with
    the lowest shift rating (ruling R-14.00a)."""
    team = state.team(side)
    pool = [pid for pid, s in team.players.items()
            if isinstance(s.card, Skater) and not s.out and not is_defenseman(s.card)]
    pool = pool or [pid for pid, s in team.players.items() if isinstance(s.card, Skater) and not s.out]
    return min(pool, key=lambda pid: (team.card(pid).shift, pid))


def bench_minor_call(state: GameState, side: str) -> Call:
    call = make_call(side, server(state, side), "bench_minor", "5.00")
    call.served_by = call.player
    seconds = (state.team(side).bench_minor_at or 1) * SECONDS_PER_SEQUENCE
    call.time = seconds
    return call


def decide_assess(state: GameState, step: Step, roll: object) -> list:
    events = []
    for i, call in enumerate(state.calls):
        status = state.team(call.side).players[call.player]
        served_by = call.served_by
        if call.kind == "game_misconduct":
            served_by = None
        elif served_by is None:
            served_by = server(state, call.side) if status.is_goalie else call.player
        events.append(PenaltyAssessed(
            id=state.next_penalty_id + i, side=call.side, player=call.player,
            served_by=served_by, kind=call.kind, minutes=call.minutes, box=call.box,
            short=call.short, period=state.period, sequence=max(1, state.sequence),
            time=call.time if call.time is not None else state.penalty_time, rule=call.rule,
        ))
    return events


# A PenaltyAssessed's fields read together, by their place (compiled, each read by name
# is a generic look-up of about 160 instructions, and ``apply_assessed`` read seventeen;
# as engine/bones/actions.py's ``fields_of``). The places are pinned by
# tests/bones/test_bones_events_made.py.
fields_of: Final = msgspec.structs.astuple
ASSESSED_ID: Final = 0  # PenaltyAssessed: id, side, player, served_by, kind, minutes, box,
ASSESSED_SIDE: Final = 1  # short, period, sequence, time, rule
ASSESSED_PLAYER: Final = 2
ASSESSED_SERVED_BY: Final = 3
ASSESSED_KIND: Final = 4
ASSESSED_BOX: Final = 6
ASSESSED_SHORT: Final = 7


def apply_assessed(state: GameState, event: PenaltyAssessed) -> None:
    fields: tuple[object, ...] = fields_of(event)
    penalty_id, side = cast(int, fields[ASSESSED_ID]), cast(str, fields[ASSESSED_SIDE])
    player, kind = cast(str, fields[ASSESSED_PLAYER]), cast(str, fields[ASSESSED_KIND])
    served_by = cast("str | None", fields[ASSESSED_SERVED_BY])
    box, short = cast(int, fields[ASSESSED_BOX]), cast(int, fields[ASSESSED_SHORT])
    state.calls.pop(0)
    state.next_penalty_id = penalty_id + 1
    team = state.team(side)
    sitter = served_by or player
    status = team.players[sitter]
    if kind == "game_misconduct" or (status.is_goalie and served_by is None):
        team.players[player].out = "game"
        sitter = player
    else:
        status.out = "box"
    # The box time still ahead of him (his penalties are served in turn): the most of his
    # penalties' box time left, 0 with none (a loop: no generator object made).
    waiting, found = 0, False
    for pen in team.penalties:
        if pen.player == sitter and (not found or pen.box_left > waiting):
            waiting, found = pen.box_left, True
    team.penalties.append(Penalty(
        id=penalty_id, side=side, player=sitter, served_by=served_by, kind=kind,
        box_left=box + (waiting if short == 0 else 0), short_left=short,
        releasable=short > 0 and KINDS[kind].releasable, short=short,
    ))
    _leave_ice(state, side, sitter)
    if kind == "game_misconduct" and team.players[player].is_goalie:
        _replace_goalie(state, side, player)
    if not state.calls:
        state.queue.pop(0)


def _leave_ice(state: GameState, side: str, pid: str) -> None:
    team = state.team(side)
    for slot, holder in team.slots.items():
        if holder == pid and slot != "G":
            team.slots[slot] = None
            end_stint(team.players[pid])


def _replace_goalie(state: GameState, side: str, goalie: str) -> None:
    """An ejected goalie gives way to a dressed goalie who can play; when there is none,
    he stays in net so the game can be finished (ruling R-14.52a)."""
    team = state.team(side)
    backup = next((p for p, s in team.players.items()
                   if s.is_goalie and p != goalie and not s.out), None)
    if backup:
        team.goalie = backup
        team.slots["G"] = backup if not team.pulled else team.slots["G"]
    elif team.goalie == goalie:
        team.players[goalie].out = ""


def apply_ended(state: GameState, event: PenaltyEnded) -> None:
    for team in (state.home, state.away):
        for pen in list(team.penalties):
            if pen.id == event.id:
                team.penalties.remove(pen)
                still = any(p.player == pen.player and p.box_left > 0 for p in team.penalties)
                status = team.players[pen.player]
                if not still and status.out == "box":
                    status.out = ""
                    status.rest = max(status.rest, 3)  # 6.41: back from the box, rested


def decide_bench_check(state: GameState, step: Step, roll: Roll) -> list:
    # FaceOff 6.00: a draft league's games use the league's NHL bench-penalty range.
    text = state.nhl_bench_range or state.team(step.side).team.bench_minor
    return [BenchMinorChecked(side=step.side, range=text,
                              in_range=DiceRange.parse(text).contains(roll), roll=state.rolls,
                              rule="5.00")]


def apply_bench_check(state: GameState, event: BenchMinorChecked) -> None:
    state.queue.pop(0)
    if event.in_range:
        state.queue.insert(0, Step("bench_time", side=event.side))


def decide_bench_time(state: GameState, step: Step, roll: Roll) -> list:
    column = state.charts.bench_penalty[0 if roll.blue % 2 else 1]
    minutes, _, seconds = column[white(roll) - 2].partition(":")
    return [BenchMinorScheduled(side=step.side, period=state.period,
                                time=int(minutes) * 60 + int(seconds), roll=state.rolls,
                                rule="5.00")]


def apply_bench_time(state: GameState, event: BenchMinorScheduled) -> None:
    state.queue.pop(0)
    sequences = -(-event.time // SECONDS_PER_SEQUENCE)  # the sequence that holds that second
    if sequences <= state.period_length:
        state.team(event.side).bench_minor_at = sequences
