"""The audit of a season stream, as pure functions over its events: the seeded dice
equal their derivation, every pick sent was legal when sent, and every command's events
are what the referee decides again from the state before it and the season's dice.

The referee runs again with the *seeded* dice, not the recorded ones: a die typed at the
table comes from the week's ``[referee]`` table (bonus, ONR, X), so an unseeded die that
no table entry gives is decided again as the seeded die it should have been, and the
first such die is the finding, named by its seq (docs/matrix.md, "The referee's dice")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from msgspec import UNSET
from mypy_extensions import mypyc_attr

from engine.matrix import waiting
from engine.matrix.dice import SeededDie, derive_die, odds_run_seed
from engine.matrix.odds_check import check_odds_record
from engine.matrix.people import People, act, after_picks
from engine.matrix.referee import (
    check_picks,
    close_season,
    fixtures,
    next_season,
    open_season,
    play_week,
    week_plays,
)
from engine.matrix.state import SeasonState, evolve, initial_state
from engine.matrix.table import check_table
from events.errors import RinklogError
from events.formats import same_event
from events.matrix import (
    MATRIX_SEASON_VERSION,
    ClosingStarted,
    DieRolled,
    MatrixOddsRecorded,
    MemberJoined,
    NewTeamReplaced,
    OddsRunReplayed,
    PicksDeadlineSet,
    PicksSent,
    PicksSubmitted,
    RefereeCupDrawsEntered,
    RefereeDrawsEntered,
    SeasonClosed,
    SeasonOpened,
    WaitingListJoined,
    WeekStarted,
)

__all__ = ["Finding", "check_dice", "check_lineage", "fold", "recheck"]

# compiled (setup.py), a plain Python class: a native one cannot be copied or pickled
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Finding:
    seq: int
    expected: str
    recorded: str
    rule: str


def fold(events: Sequence[Any]) -> SeasonState:
    """The season after ``events`` (the first is its SeasonOpened)."""
    state = initial_state(events[0])
    for event in events[1:]:
        evolve(state, event)
    return state


def check_dice(events: Sequence[Any]) -> tuple[int, Finding | None]:
    """``(seeded dice checked, first bad die)``: dice numbered 1, 2, ... in order, seeded
    ones equal to their derivation, typed ones a face of the die."""
    created = events[0]
    seed = created.seed  # an odds run's seed after an OddsRunReplayed (recheck checks it)
    checked = 0
    n = 0
    for seq, e in enumerate(events, start=1):
        if isinstance(e, OddsRunReplayed):
            seed = e.run_seed
        if not isinstance(e, DieRolled):
            continue
        n += 1
        if e.n != n:
            return checked, Finding(seq, f"die {n}", f"die {e.n}", "dice numbering")
        if not 1 <= e.face <= e.faces:
            return checked, Finding(seq, f"a face 1-{e.faces}", str(e.face), "dice")
        if e.seeded:
            want = derive_die(seed, created.season_id, e.n, e.faces)
            checked += 1
            if want != e.face:
                return checked, Finding(seq, f"die {e.n} = {want} of {e.faces} (seed "
                                        f"{seed!r}, season {created.season_id})",
                                        str(e.face), "seeded dice (docs/matrix.md)")
    return checked, None


def _words(event: Any) -> str:
    return msgspec.json.encode(event).decode()[:300]


def _compare(events: Sequence[Any], start: int, decided: list[Any]) -> Finding | None:
    for i, want in enumerate(decided):
        seq = start + i + 1
        if start + i >= len(events):
            return Finding(seq, _words(want), "end of stream", getattr(want, "rule", "?"))
        got = events[start + i]
        if (isinstance(got, DieRolled) and isinstance(want, DieRolled) and not got.seeded
                and want.seeded):
            return Finding(seq, f"die {want.n} ({want.purpose}) seeded: {want.value} (no "
                           f"entry of the week's [referee] table types it)",
                           f"typed at the table: {got.value} ({got.purpose})",
                           "table dice (docs/matrix.md)")
        if not same_event(got, want):  # whichever order a dict was built in
            return Finding(seq, _words(want), _words(got), getattr(want, "rule", "")
                           or getattr(got, "rule", "") or "referee")
    return None


def recheck(events: Sequence[Any]) -> Finding | None:
    """The first event that does not follow from the ones before it, or None."""
    created = events[0]
    if not isinstance(created, SeasonOpened):
        return Finding(1, "SeasonOpened", type(created).__name__, "3.1.1")
    # Typed dice come from the recorded [referee] tables; every other die is seeded.
    dice = SeededDie(created.seed, created.season_id)
    try:
        decided = open_season(created, dice)
    except RinklogError as err:
        return Finding(1, "a season the referee can open", str(err), "3.1.1")
    found = _compare(events, 0, decided)
    if found:
        return found
    state = fold(decided)
    people = People()  # the league on the web's acts (people.py)
    replayed = False
    runs_required = _odds_runs_required(created)
    i = len(decided)
    while i < len(events):
        event = events[i]
        if people.expecting is not None and not isinstance(event, PicksSent):
            return Finding(i + 1, f"the PicksSent of {people.expecting[1]} for week "
                           f"{people.expecting[0]}", type(event).__name__, "docs/web.md")
        try:
            if isinstance(event, MemberJoined | PicksDeadlineSet | PicksSubmitted):
                wrong = act(people, state, event)
                if wrong is not None:
                    return Finding(i + 1, wrong, type(event).__name__, "docs/web.md")
                decided = [event]
            elif isinstance(event, PicksSent):
                wrong = after_picks(people, event.week, event.team)
                if wrong is not None:
                    return Finding(i + 1, wrong, "PicksSent", "docs/web.md")
                check_picks(state, event)
                decided = [event]
            elif isinstance(event, RefereeDrawsEntered | RefereeCupDrawsEntered):
                if event.week in state.weeks_played:
                    raise RinklogError(f"week {event.week} is already played")
                table, cup = ((event, None) if isinstance(event, RefereeDrawsEntered)
                              else (state.table.get(event.week), event))
                if table is None or table.week != event.week:
                    raise RinklogError(f"week {event.week}: cup draws without the week's "
                                       "[referee] table")
                check_table(state, week_plays(fixtures(state, event.week)), table, cup)
                decided = [event]
            elif isinstance(event, WaitingListJoined):
                decided = waiting.join(state, event.id, event.name)
            elif isinstance(event, NewTeamReplaced):
                decided = waiting.replace_new_team(state, event.team, None)
            elif isinstance(event, WeekStarted):
                decided = play_week(state, event.week, dice)
            elif isinstance(event, ClosingStarted):
                decided = close_season(state, dice)
            elif isinstance(event, OddsRunReplayed):
                decided = [_odds_run(state, event, replayed)]
                replayed = True
                dice = SeededDie(event.run_seed, created.season_id)
            elif isinstance(event, MatrixOddsRecorded):  # a reading: its sums (docs/odds.md)
                decided = [check_odds_record(state, event, runs_required)]
                runs_required = runs_required or event.leaves is not UNSET
            else:
                return Finding(i + 1, "picks, a week started or the closing (what a command "
                               "starts with)", type(event).__name__, "referee")
        except RinklogError as err:
            return Finding(i + 1, "an event the rules allow here", f"{err}", "referee")
        found = _compare(events, i, decided)
        if found:
            return found
        for e in decided:
            evolve(state, e)
        i += len(decided)
    return None


def _odds_run(state: SeasonState, event: OddsRunReplayed, replayed: bool) -> OddsRunReplayed:
    """An odds run replayed (docs/odds.md): once, between weeks, before the close, its
    seed the derivation's."""
    if replayed:
        raise RinklogError("a second odds run replayed in one season")
    if state.week or state.closed is not None:
        raise RinklogError("an odds run replayed inside a week or after the close")
    want = odds_run_seed(state.season_id, event.seed, event.run)
    if event.run < 1 or want != event.run_seed:
        raise RinklogError(f"odds run {event.run} of seed {event.seed!r} has the run seed "
                           f"{want}, not {event.run_seed}")
    return event


def _odds_runs_required(created: SeasonOpened) -> bool:
    """Whether every odds record of the season must carry its runs (issue 33): a season
    opened with its version (docs/trust.md, "Recorded odds")."""
    version = created.season_version
    return isinstance(version, int) and version >= MATRIX_SEASON_VERSION


def check_lineage(previous: Sequence[Any], heads: Sequence[str], first: SeasonOpened
                  ) -> Finding | None:
    """A season opened by ``close``: its first event is what the closed season before it
    (``previous``, with the hash of each of its events) gives: the divisions after
    promotion and relegation, the allowances, the WG entrants, the head hash."""
    closed = next((i for i, e in enumerate(previous) if isinstance(e, SeasonClosed)), None)
    if closed is None:
        return Finding(1, f"season {first.previous} closed", "a season not closed", "3.1.6")
    want = next_season(fold(previous[:closed + 1]), heads[closed])
    if not same_event(want, first):
        return Finding(1, _words(want), _words(first), "3.1.6, 2.1.2.1, 2.1.3.1, 3.3.1")
    return None
