"""Timing (6.00-6.41) and fatigue (17.00): time sequences, shifts, rest, penalty clocks."""

from __future__ import annotations

from typing import Final, cast

import msgspec

from engine.bones import draft
from engine.bones.state import REST_SEQUENCES as REST_SEQUENCES
from engine.bones.state import SECONDS_PER_SEQUENCE, GameState, PlayerStatus, TeamState
from events.bones import LinesChanged, PenaltyEnded, SequencePlayed
from events.errors import RinklogError

# The names of modules that are not compiled (the events, the cards) as Final aliases
# where they are used at every step: compiled, an imported name is looked up in this
# module's dictionary at every use (about 130 instructions); a Final one is a C static.
_SEQUENCE_PLAYED: Final = SequencePlayed

FULL_SHIFT_MIN: Final = 3  # 6.40: 3-5 consecutive sequences make a full shift, 1-2 a half
MAX_STINT: Final = 5  # 6.40: no more than 5 consecutive sequences, save the puck carrier


def ticking_penalties(team: TeamState) -> list[int]:
    """Indexes of penalties whose man-short time runs now: the first two (ruling R-14.10a)."""
    running: list[int] = []
    for i, pen in enumerate(team.penalties):
        if pen.short_left > 0:
            running.append(i)
            if len(running) == 2:
                break
    return running


def number_listed(numbers: list[int], k: int) -> bool:
    """``k in numbers`` as a native loop (compiled, ``in`` on a list is a generic call):
    the penalties ``ticking_penalties`` names, the coach's wanted slots."""
    for one in numbers:
        if one == k:
            return True
    return False


def play_sequence(state: GameState) -> list:
    """Events for one time sequence used (6.10): the sequence, and penalties it ends."""
    if state.clock_expired:
        # 6.00: a period is 50 sequences, overtime 12; a play that would use one more is
        # a defect of the rules code, never a game event.
        raise RinklogError(f"6.00: period {state.period} has used its {state.period_length} "
                           "sequences")
    home, away = state.home, state.away
    # Made positionally, each argument named by its field (events/bones.py's order):
    # compiled, a msgspec Struct made with keywords matches every keyword by name.
    events: list = [
        _SEQUENCE_PLAYED(
            state.period,  # period
            state.sequence + 1,  # sequence
            home.skaters_on_ice(),  # home
            away.skaters_on_ice(),  # away
            None if home.pulled else home.goalie,  # home_goalie
            None if away.pulled else away.goalie,  # away_goalie
            home.man_short(),  # home_short
            away.man_short(),  # away_short
        )
    ]
    # Each team written out: compiled, a loop over a tuple of the two builds the tuple
    # and walks it generically.
    if home.penalties:
        _served(state, home, events)
    if away.penalties:
        _served(state, away, events)
    return events


def _served(state: GameState, team: TeamState, events: list) -> None:
    """14.10: the team's penalties this sequence serves."""
    ticking = ticking_penalties(team)
    for i, pen in enumerate(team.penalties):
        short = pen.short_left - 1 if number_listed(ticking, i) else pen.short_left
        box = pen.box_left - 1 if pen.box_left > 0 else 0
        if pen.box_left > 0 and pen.kind == "game_misconduct":
            box = pen.box_left  # off for the game: never "served"
        if short <= 0 and box <= 0 and (pen.box_left > 0 or pen.short_left > 0):
            events.append(PenaltyEnded(id=pen.id, reason="served", period=state.period,
                                       sequence=state.sequence + 1, rule="14.10"))


# A SequencePlayed's fields read together, as a tuple in their declared order (five of
# them are read at every sequence: compiled, each read by name is a generic look-up of
# about 160 instructions, ``astuple`` all of them in one call of about two; as
# engine/bones/actions.py's ``fields_of``). The places are pinned by
# tests/bones/test_bones_events_made.py.
fields_of: Final = msgspec.structs.astuple
SEQUENCE_NUMBER: Final = 1  # SequencePlayed: period, sequence, home, away, home_goalie,
SEQUENCE_HOME: Final = 2  # away_goalie, home_short, away_short
SEQUENCE_AWAY: Final = 3
SEQUENCE_HOME_GOALIE: Final = 4
SEQUENCE_AWAY_GOALIE: Final = 5


def apply_sequence(state: GameState, event: SequencePlayed) -> None:
    fields: tuple[object, ...] = fields_of(event)
    state.sequence = cast(int, fields[SEQUENCE_NUMBER])
    state.shots_this_sequence = 0
    if state.draft_league:
        draft.mark_special_teams(state, event)  # draft rule 16
    # Each team written out, as in play_sequence; who was on the ice read from the event
    # (6.10: the sequence records it, as the slots stood when it was played).
    _sequence_played(state.home, cast("list[str]", fields[SEQUENCE_HOME]),
                     cast("str | None", fields[SEQUENCE_HOME_GOALIE]))
    _sequence_played(state.away, cast("list[str]", fields[SEQUENCE_AWAY]),
                     cast("str | None", fields[SEQUENCE_AWAY_GOALIE]))
    state.coach_window = True


def _sequence_played(team: TeamState, skaters: list[str], goalie: str | None) -> None:
    # 6.40, 6.41: those on the ice play one more sequence of their stint, the others rest
    # one more. The team's count of sequences goes up by one, and every rest with it
    # (``PlayerStatus.rest``); those on the ice keep theirs. Only they are touched.
    count = team.count
    count.played += 1
    played = count.played
    players = team.players
    for pid in skaters:  # a sixth attacker too
        _played_on(players.get(pid), played)
    if goalie is not None:  # the goalie in net
        _played_on(players.get(goalie), played)
    if not team.penalties:
        return
    ticking = ticking_penalties(team)
    for i, pen in enumerate(team.penalties):
        if number_listed(ticking, i):
            pen.short_left -= 1
        if pen.box_left > 0 and pen.kind != "game_misconduct":
            pen.box_left -= 1


def _played_on(on: PlayerStatus | None, played: int) -> None:
    """One more sequence of his stint, his rest unchanged: counted once for a player named
    twice (in a line-up the rules refuse), marked with the team's count of sequences (no
    list of those counted made and searched at every sequence)."""
    if on is None or on.counted_at == played:
        return
    on.counted_at = played
    on.rest_from += 1
    on.stint += 1


def _in_slots(values: list[str | None], pid: str) -> bool:
    """``pid`` stands in one of the slots (``values``, None for an empty slot): a native
    loop (compiled, ``in`` on a list is a generic call)."""
    for one in values:
        if one is not None and one == pid:
            return True
    return False


def end_stint(status: PlayerStatus) -> None:
    """Charge the shift a player just finished (6.40) and start his rest (6.41)."""
    if status.stint > 0:
        status.shifts += 1.0 if status.stint >= FULL_SHIFT_MIN else 0.5
    if status.special:  # draft rule 16: a special-teams stint, he sits out his next shift
        status.special, status.sit_out = False, True
    status.stint = 0
    status.rest = 0


def apply_lines(state: GameState, event: LinesChanged) -> None:
    team = state.team(event.side)
    slots = event.slots  # an event's field: each read is a generic look-up
    # Who is on the ice before and after, as the six slots' values (one C call each, no
    # slot looked up by name, as ``TeamState.skaters_on_ice`` looks up five): the G slot
    # holds the goalie of record unless he is pulled, and a sixth attacker when he is
    # (this function sets ``pulled`` so, and a goalie replaced in net is put in G with
    # him), so the filled slots are everyone on the ice: the skaters, a sixth attacker,
    # the goalie in net.
    before = list(team.slots.values())
    was_pulled = team.pulled
    new = dict(slots)
    team.slots = new
    team.pulled = new.get("G") != team.goalie
    if team.pulled and not was_pulled:
        team.pulled_on_the_fly = event.on_the_fly
    after = list(new.values())
    for pid in before:
        if pid and not _in_slots(after, pid):
            # 6.40, 6.41: off the ice, his shift ends and his rest starts (ending it twice
            # for a name listed twice changes nothing more)
            end_stint(team.players[pid])
    if state.draft_league:  # draft rule 16: who went on, who sat out a shift
        arrived = {slot: pid for slot, pid in slots.items()
                   if pid and not _in_slots(before, pid) and not team.players[pid].is_goalie}
        for pid in arrived.values():
            draft.went_on(team.players[pid])
        draft.sat_out(team, arrived)


def excess_shifts(status: PlayerStatus) -> int:
    """Whole shifts played beyond the card's shift rating (17.00)."""
    rating = status.facts().shift  # read once a card (a card's field is a generic look-up)
    return max(0, int(status.shifts - rating)) if rating else 0


def fatigue_numeric(status: PlayerStatus) -> int:
    """17.00: minus one on numeric codes for every shift over the rating."""
    return excess_shifts(status)


def fatigue_defense(status: PlayerStatus) -> int:
    """17.00: minus one to defense and clearing for each two excess shifts from the third."""
    excess = excess_shifts(status)
    return (excess - 1) // 2 if excess >= 3 else 0


def period_seconds(sequence: int, seconds: int) -> int:
    """6.30: an exact time is the start of its sequence plus the seconds rolled."""
    return (sequence - 1) * SECONDS_PER_SEQUENCE + seconds
