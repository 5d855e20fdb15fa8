"""The season as the ledger of its games (issue 20).

A season stream is its ``SeasonCreated`` and ``SeasonCoachSet`` (its *opening*: schedule,
seed, cards, options and the coach-file habits of its default coach), then a record of
each game as it is stored: ``SeasonGameRecorded(game, number, mode, head)``, appended in
the transaction that writes the game's last rows, and, for a game played at the table,
``SeasonTableGameStarted(game, number)`` appended with its first event, before its first
roll. Every game of the season pins the opening's hash (``SeasonGameOpened``, right after
its GameCreated), so the season's schedule cannot change under games already played.

This module reads and writes those facts; the audit holds the games to them
(:mod:`replay.leagues.audit_season`). A season stream of ``SeasonCreated`` alone was
written before season records: it has no ledger (``SeasonLedger.recorded`` is False).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.league.playoffs import ScheduledGame, fold, next_games
from engine.systems import SEASON_SYSTEMS, system_of
from events.base import Event
from events.common import GameCreated, GameEnded
from events.errors import RinklogError, UnknownGame
from events.league import (
    SeasonCoachSet,
    SeasonCreated,
    SeasonGameRecorded,
    SeasonTableGameStarted,
)
from events.odds import OddsRunReplayed
from events.postseason import (
    LotteryDraw,
    LotteryOpened,
    LotteryOrderSet,
    PlayoffsOpened,
    PostseasonEvent,
    SeriesGameRecorded,
)
from events.store import EventStore
from projections import store as read_models
from replay.games.coach_habits import Habits, coach_habits, coach_setup
from replay.games.game_setup import GameOptions, GameSetup
from replay.games.registry import ruleset_of_season
from replay.games.session import store_committer
from replay.leagues.naming import playoff_game_id
from replay.leagues.season import SIMULATED, TABLE
from replay.leagues.season_stream import SeasonStream
from replay.systems import kit_for

__all__ = ["SIMULATED", "TABLE", "RecordedGame", "SeasonLedger", "ledger_of", "read_ledger",
           "record_game", "recorded_games", "table_committer", "ruleset_of",
           "odds_run_of", "odds_runs", "save_read_models"]


@dataclass(frozen=True)
class RecordedGame:
    """One game as its season recorded it, in the season stream's order."""

    game: str
    number: int
    mode: str  # "simulated" or "table"
    head: str  # the game's final head hash
    seq: int  # the record's seq in the season stream


@dataclass(frozen=True)
class SeasonLedger:
    """What a season stream records: its opening and its games."""

    created: SeasonCreated
    coach: SeasonCoachSet | None  # None: written before season records
    opening: str  # the hash of the SeasonCoachSet row ("" before season records)
    games: list[RecordedGame] = field(default_factory=list)  # in the stream's order
    # table games marked started: game -> (number, the mark's seq)
    started: dict[str, tuple[int, int]] = field(default_factory=dict)
    # playoff games as the bracket recorded them (issue 22): game -> its SeriesGameRecorded
    series_games: dict[str, SeriesGameRecorded] = field(default_factory=dict)
    # the bracket's events (the postseason's but the lottery's), in order
    bracket_events: tuple[Event, ...] = ()
    # rinklog odds --replay (docs/odds.md): the OddsRunReplayed's seq and the run's seed
    reseeded: tuple[int, str] | None = None

    def next_playoff_game(self, game: str) -> ScheduledGame | None:
        """The series game the bracket has made ready under id ``game`` (a playoff game
        started at the table, not recorded by its series yet: its teams and rinks are the
        bracket's next game of its series); None if none is."""
        if not any(isinstance(e, PlayoffsOpened) for e in self.bracket_events):
            return None
        season = self.created.season_id
        return next((g for g in next_games(fold(self.bracket_events))
                     if playoff_game_id(season, g.round, g.slot, g.game) == game), None)

    def dice_seed(self, seq: int | None = None) -> str:
        """The seed the season's dice derive from for what its stream records at ``seq``
        (a game's record, a lottery's opening; None: not recorded yet): the season's own,
        or after an odds run replayed into it (OddsRunReplayed), that run's seed."""
        if self.reseeded is not None and (seq is None or seq > self.reseeded[0]):
            return self.reseeded[1]
        return self.created.seed

    def game_dice_seed(self, game: str) -> str:
        """The seed game ``game``'s dice derive from (its record's place, if any)."""
        record = self.record_of(game)
        return self.dice_seed(record.seq if record is not None else None)

    @property
    def recorded(self) -> bool:
        """Whether the season keeps records (False: written before season records)."""
        return self.coach is not None

    def record_of(self, game: str) -> RecordedGame | None:
        return next((g for g in self.games if g.game == game), None)


def ruleset_of(created: SeasonCreated) -> str:
    return ruleset_of_season(created)


def read_ledger(events: Sequence[Event], hashes: Sequence[str]) -> SeasonLedger:
    """The ledger of a season stream's events and their row hashes (the stream is
    assumed to have passed its own audit, :func:`replay.leagues.audit_season.season_stream`)."""
    created = events[0]
    assert isinstance(created, SeasonCreated)
    coach = events[1] if len(events) > 1 and isinstance(events[1], SeasonCoachSet) else None
    games: list[RecordedGame] = []
    started: dict[str, tuple[int, int]] = {}
    series: dict[str, SeriesGameRecorded] = {}
    reseeded: tuple[int, str] | None = None
    for seq, event in enumerate(events, 1):
        if isinstance(event, SeasonGameRecorded):
            games.append(RecordedGame(event.game, event.number, event.mode, event.head, seq))
        elif isinstance(event, SeasonTableGameStarted):
            started[event.game] = (event.number, seq)
        elif isinstance(event, SeriesGameRecorded):
            series[event.game_id] = event
        elif isinstance(event, OddsRunReplayed) and reseeded is None:
            reseeded = (seq, event.run_seed)
    bracket = tuple(e for e in events if isinstance(e, PostseasonEvent)
                    and not isinstance(e, LotteryOpened | LotteryDraw | LotteryOrderSet))
    return SeasonLedger(created, coach, hashes[1] if coach is not None else "", games, started,
                        series, bracket, reseeded)


def odds_run_of(season_id: str, events: Sequence[Event]) -> tuple[int, str] | None:
    """Where a season stream says it is an odds run (``rinklog odds --replay``: its
    OddsRunReplayed, a league season's or a Matrix season's) and what it is, in one line;
    None for the season as played."""
    for seq, event in enumerate(events, 1):
        if isinstance(event, _ODDS_RUN_EVENTS):
            return seq, (f"season {season_id} is odds run {event.run} of seed {event.seed} "
                         f"from version {seq - 1}, not the season as played")
    return None


# a league season's, and each season system's (Matrix Hockey's), from the registry
_ODDS_RUN_EVENTS = (OddsRunReplayed, *(s.odds_run_event for s in SEASON_SYSTEMS.values()
                                       if s.odds_run_event is not None))


def odds_runs(store: EventStore, season_id: str | None = None) -> list[str]:
    """The line of :func:`odds_run_of` for each season in the database that is an odds
    run (or for season ``season_id`` alone): what ``audit``, ``receipt --season``, the
    listings and the pages say first."""
    kinds = ("season", "matrix_season")
    ids = ([s.stream for k in kinds for s in store.streams(kind=k)] if season_id is None
           else [season_id] if store.exists(season_id) and store.info(season_id).kind in kinds
           else [])
    notes = []
    for stream in ids:
        try:
            found = odds_run_of(stream, [row.event for row in store.read(stream)])
        except RinklogError:  # a stream that does not decode: its audit says so
            continue
        if found is not None:
            notes.append(found[1])
    return notes


def ledger_of(store: EventStore, season_id: str) -> SeasonLedger:
    """The ledger of a stored season stream, as stored (not audited)."""
    if not store.exists(season_id) or store.info(season_id).kind != "season":
        raise UnknownGame(f"no season {season_id!r} in {store.path}")
    rows = store.read(season_id)
    return read_ledger([r.event for r in rows], [r.hash for r in rows])


def recorded_games(store: EventStore, season_id: str) -> list[RecordedGame]:
    """A season's games as its stream records them, in the order it recorded them (the
    order a season receipt's Merkle tree takes them in): game id, number, how it was
    played (``simulated`` or ``table``) and its final head hash. Empty for a season
    written before season records (and for one with no game stored yet)."""
    return list(ledger_of(store, season_id).games)


def season_game_setup(created: SeasonCreated, teams: dict[str, Any], charts: Any,
                      habits: Habits) -> GameSetup:
    """The setup a stored season's games are played with: its teams' cards and charts (as
    its stream's blobs decode them), its options, and the coach its habits record."""
    ruleset = ruleset_of_season(created)
    system = system_of(ruleset)
    return GameSetup(system, ruleset, teams, charts,
                     GameOptions.of_season(system, kit_for(ruleset), created),
                     coach=coach_setup(ruleset, habits))


# --- writing -----------------------------------------------------------------------------

def record_game(season: SeasonStream, game: str, number: int, mode: str, head: str) -> None:
    """Append the record of a stored game to its season (inside the caller's
    :meth:`EventStore.transaction`, with the game's rows), onto the version the caller
    decided from."""
    season.append([SeasonGameRecorded(game=game, number=number, mode=mode, head=head)])


def table_committer(store: EventStore, game_id: str,
                    on_events: Callable[[list[Event]], None] | None = None
                    ) -> Callable[[list[Event]], None]:
    """The ``commit`` of a game played at the table (``rinklog play``): each batch stored
    as it comes (replay/games/session.py ``store_committer``), and a game of a season
    that keeps records recorded by its season as it ends (issue 20)."""
    return _recording(store, game_id, store_committer(store, game_id, on_events))


def _recording(store: EventStore, game_id: str,
               commit: Callable[[list[Event]], None]) -> Callable[[list[Event]], None]:
    """``commit`` for a game played at the table: a game of a season that keeps records
    also gets its record (mode ``table``, its head) in the transaction that stores its
    last batch (the one with GameEnded). Any other game: ``commit`` itself."""
    created = store.read(game_id, 1, 1)[0].event
    if not isinstance(created, GameCreated) or not created.season:
        return commit
    if not ledger_of(store, created.season).recorded:
        return commit
    season, number = created.season, created.number

    def recording(batch: list[Event]) -> None:
        if not any(isinstance(e, GameEnded) for e in batch):
            commit(batch)
            return
        with store.transaction():  # the season read inside it: nothing else writes now
            commit(batch)
            record_game(SeasonStream.at(store, season), game_id, number, TABLE,
                        store.head_hash(game_id))
            save_read_models(store, game_id)

    return recording


def save_read_models(store: EventStore, game_id: str) -> None:
    """A season game's read models and every season's standings, inside the caller's
    transaction: a game played at the table is current in the season's standings, leaders
    and pages (and its audit) when it is stored, as a simulated one is (issue 32)."""
    events = [row.event for row in store.read(game_id)]
    system = system_of(events[0].ruleset).name
    read_models.save(store, game_id, len(events), read_models.game_rows(system, game_id, events))
    read_models.save_standings(store)


def opening_events(created: SeasonCreated, setup: Any) -> list[Event]:
    """A new season stream's opening: its SeasonCreated and the coach habits it plays
    every game with."""
    home, away = coach_habits(setup)
    system_of(ruleset_of(created))  # a known ruleset (the caller checked it)
    return [created, SeasonCoachSet(home=home, away=away)]


def check_opening(ledger: SeasonLedger, setup: Any) -> None:
    """A season played on must be played with the habits it recorded."""
    if ledger.coach is None:
        raise RinklogError(
            f"season {ledger.created.season_id} was stored before seasons recorded their "
            "games, so it cannot grow; start it again in another --db")
    home, away = coach_habits(setup)
    if (ledger.coach.home, ledger.coach.away) != (home, away):
        raise RinklogError(
            f"season {ledger.created.season_id} is played with other coach settings "
            f"(home {ledger.coach.home or 'default'}, away {ledger.coach.away or 'default'});"
            " give the coach file it was started with")
