"""The season aggregate's rules: what a season stream may record, event by event
(issue 20's ledger, issue 32's one aggregate).

:func:`evolve` folds one event of a league season's stream into a :class:`SeasonState`,
or refuses it with the :class:`Finding` that says why. The writer
(:class:`replay.leagues.season_stream.SeasonStream`) folds the stream at the version a
command decided from and evolves the command's events before it appends them, so a
command can write nothing the audit would refuse; the audit
(:func:`replay.leagues.audit_season.season_stream`) folds the stored stream with the same
:func:`evolve`. The rules:

- SeasonCreated first, then SeasonCoachSet (habits the season's ruleset's coach can
  take): the season's *opening*. A stream of SeasonCreated alone was written before
  season records: nothing may follow it.
- then records: each SeasonGameRecorded or SeasonTableGameStarted names a scheduled game
  of the season (or a playoff game) by its own id; a game is recorded once; a table game
  is marked started once, before it is recorded, and a simulated one never is;
- the odds (docs/odds.md): OddsRunReplayed and OddsRecorded each as audit_odds.py says;
  an OddsRecorded in the old form (no runs, before issue 33) only in a season opened
  before (``SeasonCreated.season_version`` UNSET) and before any record with its runs
  (docs/trust.md, "Recorded odds");
- the postseason's events, which :mod:`replay.leagues.audit_postseason` re-derives from
  the standings (a store's), pass here;
- the acts of the league's people (issue 36): as :mod:`replay.leagues.season_people`
  says; a game whose submitted result waits is not recorded, and one whose result counts
  is recorded as that table game, with that head hash.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from msgspec import UNSET

from events.base import Event
from events.errors import RinklogError
from events.league import (
    SeasonCoachSet,
    SeasonCreated,
    SeasonGameRecorded,
    SeasonTableGameStarted,
)
from events.odds import OddsRecorded, OddsRunReplayed
from events.people import PeopleEvent
from events.postseason import PlayoffsOpened, PostseasonEvent
from replay.games.coach_habits import coach_setup
from replay.games.registry import ruleset_of_season
from replay.leagues.audit_odds import recorded_odds, replayed_run
from replay.leagues.naming import PLAYOFF_NUMBER, is_playoff_game, season_game_id
from replay.leagues.odds_leaves import leaves_wrong
from replay.leagues.season_people import People, Wrong, act

__all__ = ["RULE", "SEASON_VERSION", "SIMULATED", "TABLE", "Finding", "SeasonRefused",
           "SeasonState", "evolve", "fold"]

SIMULATED, TABLE = "simulated", "table"  # how a season game was played (its record's mode)
RULE = "season ledger"
SEASON_VERSION = 2
"""The season stream version rinklog opens seasons with (``SeasonCreated.season_version``):
2, every OddsRecorded carries its runs (issue 33). UNSET is 1: a season opened before."""


@dataclass(frozen=True)
class Finding:
    """Why an event may not stand where it does: the audit's ``check`` (``kind`` or
    ``season``), its seq, what was expected there and what is."""

    check: str
    seq: int
    expected: str
    recorded: str
    rule: str = RULE


class SeasonRefused(RinklogError):
    """A command's season events that the season's rules refuse: nothing written."""

    def __init__(self, season_id: str, finding: Finding, event: Event) -> None:
        super().__init__(f"season {season_id}: {type(event).__name__} refused at seq "
                         f"{finding.seq}: expected {finding.expected}, got {finding.recorded} "
                         f"({finding.rule}); nothing written")
        self.finding = finding


@dataclass(frozen=True)
class SeasonState:
    """A league season folded from its stream: ``version`` events so far."""

    created: SeasonCreated | None = None
    version: int = 0
    opened: bool = False  # its SeasonCoachSet stands (a season that keeps records)
    recorded: frozenset[str] = frozenset()  # games recorded
    started: frozenset[str] = frozenset()  # table games marked started
    regular_played: int = 0  # regular-season games recorded (what odds are recorded at)
    replayed: int = 0  # odds runs replayed into it
    # an OddsRecorded must carry its runs: a season of version 2, or one that holds such
    # a record already (the writer was this rinklog's)
    odds_runs_required: bool = False
    playoffs_opened: bool = False  # its PlayoffsOpened stands
    people: People = People()  # the league's people and their acts (season_people.py)


def evolve(state: SeasonState, event: Event) -> SeasonState:
    """``state`` with ``event`` recorded next; :class:`SeasonRefused` (with its
    :class:`Finding`) if the season's rules do not let it stand there."""
    try:
        return _evolve(state, event)
    except _Refused as refused:
        season_id = (state.created.season_id if state.created is not None
                     else getattr(event, "season_id", "?"))
        raise SeasonRefused(season_id, refused.finding, event) from None


def _evolve(state: SeasonState, event: Event) -> SeasonState:
    seq = state.version + 1
    created = state.created
    if created is None:
        if not isinstance(event, SeasonCreated):
            raise _Refused(Finding("kind", seq, "SeasonCreated first", type(event).__name__))
        version = 1 if event.season_version is UNSET else event.season_version
        if version not in (1, SEASON_VERSION):
            raise _Refused(Finding("season", seq, f"a season stream of version 1 or "
                                   f"{SEASON_VERSION}", f"version {version}"))
        return replace(state, created=event, version=seq,
                       odds_runs_required=version >= SEASON_VERSION)
    if not state.opened:
        return _opening(state, created, event, seq)
    if isinstance(event, PostseasonEvent):  # audit_postseason.py holds these
        return replace(state, version=seq, playoffs_opened=state.playoffs_opened
                       or isinstance(event, PlayoffsOpened))
    if isinstance(event, OddsRunReplayed):  # docs/odds.md
        wrong = replayed_run(created, event, state.replayed)
        if wrong is not None:
            raise _Refused(Finding("season", seq, wrong, type(event).__name__, "docs/odds.md"))
        return replace(state, version=seq, replayed=state.replayed + 1)
    if isinstance(event, OddsRecorded):
        return _odds_record(state, created, event, seq)
    if isinstance(event, PeopleEvent):  # issue 36: who did what (season_people.py)
        people = act(state.people, created, event, state.recorded, state.started)
        if isinstance(people, Wrong):
            raise _Refused(Finding("season", seq, people.expected, people.recorded,
                                   "docs/web.md"))
        return replace(state, version=seq, people=people)
    if not isinstance(event, SeasonGameRecorded | SeasonTableGameStarted):
        raise _Refused(Finding("kind", seq, "a SeasonGameRecorded or SeasonTableGameStarted",
                               type(event).__name__, "season stream"))
    return _game_record(state, created, event, seq)


def _odds_record(state: SeasonState, created: SeasonCreated, event: OddsRecorded,
                 seq: int) -> SeasonState:
    """docs/odds.md: its sums, and its runs (issue 33) where the season requires them or
    it carries them; a bracket already open leaves it no ``[playoffs]`` of its own."""
    runs = event.leaves is not UNSET or event.root is not UNSET
    wrong = recorded_odds(created, event, state.regular_played)
    if wrong is None and (runs or state.odds_runs_required):
        wrong = leaves_wrong(created, event)
        if wrong is not None and not runs:
            wrong += ("; this season records odds with their runs (a season of version "
                      f"{SEASON_VERSION}, or one holding such a record already)")
    if wrong is None and state.playoffs_opened and event.playoffs is not UNSET:
        wrong = "no [playoffs] of its own: the season's bracket is open"
    if wrong is not None:
        raise _Refused(Finding("season", seq, wrong, "OddsRecorded", "docs/odds.md"))
    return replace(state, version=seq, odds_runs_required=state.odds_runs_required or runs)


def _opening(state: SeasonState, created: SeasonCreated, event: Event, seq: int) -> SeasonState:
    if not isinstance(event, SeasonCoachSet):
        raise _Refused(Finding("kind", 2, "SeasonCoachSet after SeasonCreated",
                               type(event).__name__))
    ruleset = ruleset_of_season(created)
    try:
        coach_setup(ruleset, (event.home, event.away))
    except ValueError as err:
        raise _Refused(Finding("season", 2, f"coach settings of the {ruleset} default coach",
                               str(err), "docs/coach.md")) from None
    return replace(state, version=seq, opened=True)


def _game_record(state: SeasonState, created: SeasonCreated,
                 event: SeasonGameRecorded | SeasonTableGameStarted, seq: int) -> SeasonState:
    # a playoff game (issue 22) has no schedule number, simulated or at the table
    playoff = event.number == PLAYOFF_NUMBER and is_playoff_game(created.season_id, event.game)
    want = event.game if playoff else season_game_id(created.season_id, event.number)
    scheduled = any(number == event.number for number, _, _ in created.schedule)
    if (not scheduled and not playoff) or event.game != want:
        raise _Refused(Finding("season", seq, f"a game of the schedule of {created.season_id} "
                               "under its own id", f"game {event.game!r}, number {event.number}"))
    game = event.game
    waiting = state.people.waiting.get(game)
    if waiting is not None:
        raise _Refused(Finding("season", seq, f"{game} not played while its submitted result "
                               "waits (docs/web.md)", type(event).__name__))
    accepted = state.people.accepted.get(game)
    if accepted is not None and isinstance(event, SeasonGameRecorded) \
            and (event.mode != TABLE or event.head != accepted):
        raise _Refused(Finding("season", seq, f"{game} recorded as the table game whose result "
                               f"counts (head {accepted[:16]}…, docs/web.md)",
                               f"{event.mode}, head {event.head[:16]}…"))
    if isinstance(event, SeasonTableGameStarted):
        if game in state.started or game in state.recorded:
            raise _Refused(Finding("season", seq, f"{game} started at the table once, before "
                                   "it is recorded", "a second start"))
        return replace(state, version=seq, started=state.started | {game})
    if game in state.recorded:
        raise _Refused(Finding("season", seq, f"{game} recorded once", "a second record"))
    if event.mode == TABLE and game not in state.started:
        raise _Refused(Finding("season", seq, f"{game} marked started at the table before it "
                               "is recorded as a table game", "no SeasonTableGameStarted"))
    if event.mode == SIMULATED and game in state.started:
        raise _Refused(Finding("season", seq, f"{game} recorded as a table game (it was "
                               "started at the table)", "recorded as simulated"))
    return replace(state, version=seq, recorded=state.recorded | {game},
                   regular_played=state.regular_played + (not playoff))


class _Refused(Exception):  # noqa: N818 - carried to the writer's or the audit's words
    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.expected)
        self.finding = finding


def fold(events: Iterable[Event], state: SeasonState | None = None) -> SeasonState:
    """``events`` evolved in order onto ``state`` (None: a season not created yet)."""
    state = state or SeasonState()
    for event in events:
        state = evolve(state, event)
    return state
