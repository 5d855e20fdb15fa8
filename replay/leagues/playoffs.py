"""Playing a season's postseason (issue 22, docs/postseason.md): ``rinklog playoffs``.

Once every game of the regular season is stored and ended, the final standings (rule 29's
order, as ``rinklog standings`` prints them) seed the league's ``[playoffs]`` format
(engine.league.playoffs); the opening events go into the season's own stream. Each
playoff game is a game stream of the season (``{season}-p{round}-{slot}-{game}``, its dice
seeded from the season's seed and that id, GameCreated.number 0, the option ``playoff``:
overtime to a winner, no shootout), with the season's cards, charts, options, coach habits
and opening pin, the home team from the series' home-ice pattern and the starting goalies
by rule 27. The games of one *wave* (game n of every open series of the round) are
played in parallel (``workers``), then stored one by one in slot order, each in one
transaction with the season's record of it (``SeasonGameRecorded``) and the bracket's
events it brings (``SeriesGameRecorded``, ``SeriesWon``, the next round, ``PlayoffsWon``):
so any number of workers gives the same streams, and a run stopped anywhere continues
from what is stored.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import msgspec

from engine.dice import SeededDice
from engine.league.formats import PlayoffFormat, divisions_of
from engine.league.playoffs import RULE as BRACKET_RULE
from engine.league.playoffs import Bracket, ScheduledGame, fold, next_games, open_playoffs
from engine.league.playoffs import record_game as bracket_game
from engine.systems import system_of
from events import formats
from events.common import GameCreated, GameEnded
from events.errors import RinklogError, StreamConflict
from events.formats import encode_events
from events.league import SeasonCreated
from events.postseason import (
    LotteryDraw,
    LotteryOpened,
    LotteryOrderSet,
    PlayoffsOpened,
    PostseasonEvent,
    SeriesGameRecorded,
)
from events.store import EventStore, chain_hashes
from projections import store as read_models
from replay.leagues.ledger import (
    SIMULATED,
    SeasonLedger,
    coach_setup,
    game_notes,
    ledger_of,
    record_game,
)
from replay.leagues.naming import (
    PLAYOFF_NUMBER,
    PLAYOFF_OPTION,
    playoff_game_id,
    playoff_seed,
    season_game_id,
)
from replay.leagues.playoff_setup import playoff_options, playoff_pick, playoff_starter
from replay.leagues.stored_seasons import load_season
from replay.leagues.stored_seasons import standings as season_standings
from replay.systems import kit_for_system
from replay.tooling.audit import AuditFinding, MemoryBlobs, audit_encoded
from replay.tooling.game_setup import GameOptions, GameSetup
from replay.tooling.game_streams import CARD_MEDIA, CHART_MEDIA, play_game
from replay.tooling.registry import ruleset_of_season
from replay.workers import Workers, open_crew

__all__ = ["PLAYOFF_OPTION", "PostseasonRun", "play_postseason", "playoff_options",
           "postseason_events", "regular_season_left"]

Progress = Callable[[int], None]  # playoff games stored so far


@dataclass(frozen=True)
class PostseasonRun:
    season_id: str
    champion: str | None
    played: int  # playoff games played by this run
    stored: int  # playoff games in the database after it
    seconds: float
    overplays: tuple[str, ...] = ()  # "p{round}-{slot}-{game} TEAM GOALIE": rule 27 overplays


@dataclass(frozen=True)
class _Setup:
    """What every playoff game of a season is played with, sent to each worker once."""

    season: SeasonCreated
    game: GameSetup
    opening: str  # the season opening's hash, which every game pins
    habits: tuple[dict[str, Any], dict[str, Any]]
    read_models: tuple[str, ...]
    ledger: SeasonLedger
    blobs: MemoryBlobs  # the season's cards and charts, for the audit
    audit: bool = True


@dataclass(frozen=True)
class _Fixture:
    game: ScheduledGame
    goalies: tuple[str, str]  # home, away starters (rule 27)


@dataclass(frozen=True)
class _Played:
    game_id: str
    encoded: list[tuple[str, bytes]]
    hashes: list[bytes]
    meta: dict[str, Any]
    rows: dict[str, dict[str, list[dict]]]
    winner: str  # the winning team's id
    failure: AuditFinding | None = None  # what the audit found (None: passed, or not run)


class _Seasons:
    """The audit's season lookup for a playoff game not stored yet: the season, and its
    ledger with the series record the game is about to get (not yet its head)."""

    complete = False

    def __init__(self, season: SeasonCreated, ledger: SeasonLedger) -> None:
        self.season, self.recorded = season, ledger

    def __call__(self, season_id: str) -> SeasonCreated | str:
        return self.season if season_id == self.season.season_id else \
            f"no season stream {season_id!r}"

    def ledger(self, season_id: str) -> SeasonLedger | None:
        return self.recorded if season_id == self.season.season_id else None


def postseason_events(store: EventStore, season_id: str) -> list[Any]:
    """The postseason events a season stream holds, in order."""
    return [r.event for r in store.read(season_id) if isinstance(r.event, PostseasonEvent)]


def regular_season_left(store: EventStore, created: SeasonCreated) -> list[int]:
    """The schedule numbers of the regular season's games not stored and ended."""
    left = []
    for number, _, _ in created.schedule:
        game_id = season_game_id(created.season_id, number)
        version = store.version(game_id) if store.exists(game_id) else 0
        if not version or not isinstance(store.read(game_id, version, version)[0].event,
                                         GameEnded):
            left.append(number)
    return left


def _season_setup(store: EventStore, created: SeasonCreated) -> tuple[GameSetup, Any]:
    """The season's game setup from its stream (cards, charts, options) and its ledger."""
    ruleset = ruleset_of_season(created)
    system = system_of(ruleset)
    kit = kit_for_system(system.name)
    teams = {tid: msgspec.json.decode(store.get_blob(digest), type=system.team_type)
             for tid, digest in created.team_hashes.items()}
    charts = msgspec.json.decode(store.get_blob(created.charts_hash), type=system.charts_type)
    ledger = ledger_of(store, created.season_id)
    if ledger.coach is None:
        raise RinklogError(f"season {created.season_id} was stored before seasons recorded "
                           "their games: it has no postseason")
    habits = (ledger.coach.home, ledger.coach.away)
    setup = GameSetup(system, ruleset, teams, charts,
                      GameOptions.of_season(system, kit, created),
                      coach=coach_setup(ruleset, habits))
    setup = replace(setup, options=playoff_options(setup.options, setup.rules, kit))
    return setup, ledger


def _starts(store: EventStore, bracket: Bracket, game: ScheduledGame) -> dict[str, int]:
    """Each goalie's starts in this series so far (rule 27 counts a start, R-post-27b)."""
    starts: dict[str, int] = {}
    for played in bracket.series(game.round, game.slot).games:
        created = store.read(played.game_id, 1, 1)[0].event
        assert isinstance(created, GameCreated)
        for goalie in (created.home_goalie, created.away_goalie):
            starts[goalie] = starts.get(goalie, 0) + 1
    return starts


def _wave_of(bracket: Bracket) -> list[ScheduledGame]:
    """The next wave: game n of every open series of the round still to play its game n,
    n the lowest such, in slot order. So the games are stored in (round, game, slot)
    order whatever run stored the ones before (a run stopped inside a wave goes on with
    the rest of that wave, not the next games of the series it had finished)."""
    games = next_games(bracket)
    first = min(g.game for g in games)
    return [g for g in games if g.game == first]


def _check_unrecorded(store: EventStore, season_id: str, wave: list[ScheduledGame]) -> None:
    """A game of the wave already in the database has no series record yet: another run
    is writing it, or it was written some other way; the bracket cannot go past it."""
    for game in wave:
        game_id = playoff_game_id(season_id, game.round, game.slot, game.game)
        if store.exists(game_id):
            raise RinklogError(f"playoff game {game_id} is in the database but its series "
                               "has no record of it (another run writing it, or written "
                               "otherwise); let that run finish, then run again")


def _goalies(store: EventStore, setup: GameSetup, bracket: Bracket,
             game: ScheduledGame) -> tuple[str, str]:
    starts = _starts(store, bracket, game)
    return (playoff_starter(setup.kit, setup.team(game.home), starts),
            playoff_starter(setup.kit, setup.team(game.away), starts))


def _overplays(setup: GameSetup, fixture: _Fixture, starts: dict[str, int]) -> list[str]:
    """The starters of a game who overplay rule 27's series limit (R-post-27c)."""
    game = fixture.game
    out = []
    for team in (game.home, game.away):
        pick = playoff_pick(setup.kit, setup.team(team), starts)
        if pick is not None and pick.overplay:
            out.append(f"p{game.round}-{game.slot}-{game.game} {team} {pick.goalie}")
    return out


_worker: _Setup | None = None


def _init(setup: _Setup) -> None:
    global _worker
    _worker = setup


def _play(fixture: _Fixture) -> _Played:
    """One playoff game, encoded and chained for the store, its read models folded."""
    assert _worker is not None
    return _play_with(_worker, fixture)


def _play_with(setup: _Setup, fixture: _Fixture) -> _Played:
    season, game = setup.season, fixture.game
    game_id = playoff_game_id(season.season_id, game.round, game.slot, game.game)
    seed = playoff_seed(season.seed, game.round, game.slot, game.game)
    system = setup.game.system
    played = play_game(setup.game, setup.game.team(game.home), setup.game.team(game.away),
                       game_id=game_id, dice=SeededDice(seed, game_id, system.derive_roll),
                       seed=seed, goalies=fixture.goalies, season=season.season_id,
                       number=PLAYOFF_NUMBER,
                       notes=game_notes(setup.habits, season.season_id, setup.opening))
    ended = played.events[-1]
    if not isinstance(ended, GameEnded) or ended.winner == "none":
        raise RinklogError(f"playoff game {game_id} ended without a winner (its ruleset's "
                           f"{PLAYOFF_OPTION!r} option must play overtime to one)")
    encoded = encode_events(played.events, formats.NEW_STREAM_FORMAT)
    hashes = chain_hashes(payload for _, payload in encoded)
    winner = game.home if ended.winner == "home" else game.away
    meta, events, failure = played.meta(), played.events, None
    if setup.audit:  # the checks of rinklog audit on exactly the rows to be stored
        record = SeriesGameRecorded(round=game.round, slot=game.slot, game=game.game,
                                    game_id=game_id, home=game.home, away=game.away,
                                    winner=winner, rule=BRACKET_RULE)
        lookup = _Seasons(season, dataclasses.replace(setup.ledger,
                                                      series_games={game_id: record}))
        report, events = audit_encoded(game_id, kind="game", system=system.name,
                                       format=formats.NEW_STREAM_FORMAT, meta=meta,
                                       encoded=encoded, hashes=hashes, blobs=setup.blobs,
                                       season_of=lookup)
        failure = report.failure
    rows = (read_models.game_rows(system.name, game_id, events, setup.read_models)
            if failure is None else {})
    return _Played(game_id, encoded, hashes, meta, rows, winner, failure)


def _wave(setup: _Setup, fixtures: list[_Fixture], crew: Workers | None) -> list[_Played]:
    """The games of one wave, played here or by the crew, in the fixtures' order."""
    if crew is None:
        return [_play_with(setup, f) for f in fixtures]
    for i, fixture in enumerate(fixtures):
        crew.submit(i, fixture)
    done = dict(crew.result() for _ in fixtures)
    return [done[i] for i in range(len(fixtures))]


def _store(store: EventStore, setup: _Setup, played: _Played, game: ScheduledGame,
           bracket: Bracket) -> Bracket:
    """The game, the season's record of it and the bracket's events, in one transaction;
    then its read models."""
    season_id = setup.season.season_id
    if played.failure is not None:  # a rinklog bug: the games before it are kept
        f = played.failure
        raise RinklogError(f"playoff game {played.game_id} failed its audit as played "
                           f"({f.check} check at seq {f.seq}: expected {f.expected}; "
                           f"recorded {f.recorded}); nothing of it was stored")
    events = bracket_game(bracket, game.round, game.slot, played.game_id, played.winner)
    try:
        with store.transaction():
            store.append_encoded(played.game_id, played.encoded, 0, kind="game",
                                 system=setup.game.system.name, meta=played.meta,
                                 format=formats.NEW_STREAM_FORMAT, hashes=played.hashes)
            record_game(store, season_id, played.game_id, PLAYOFF_NUMBER, SIMULATED,
                        played.hashes[-1].hex())
            store.append(season_id, events, store.version(season_id))
    except StreamConflict:
        raise StreamConflict(f"season {season_id}: another run stored {played.game_id} "
                             "meanwhile; let it finish (or stop it) and run again") from None
    if played.rows:
        read_models.save(store, played.game_id, len(played.encoded), played.rows)
    return fold(events, bracket)


def play_postseason(store: EventStore, season_id: str, fmt: PlayoffFormat | None,
                    workers: int = 1, progress: Progress | None = None,
                    projections: tuple[str, ...] = read_models.PROJECTIONS,
                    audit: bool = True, cluster: str | None = None) -> PostseasonRun:
    """Play the postseason of a stored season to its champion, or on from where a
    stopped run left it. ``fmt``: the league's ``[playoffs]`` (None: the league has no
    postseason; a postseason already opened goes on with the format it recorded).
    ``audit``: each game audited as played (the checks of ``rinklog audit``, in the worker
    that played it) before it is stored, as a season's games are. ``cluster``: a Dask
    scheduler's address, whose workers play the games instead (docs/cluster.md)."""
    if workers < 1:
        raise RinklogError(f"--workers must be at least 1, got {workers}")
    start = time.perf_counter()
    season = load_season(store, season_id)
    created = season.created
    left = regular_season_left(store, created)
    if left:
        raise RinklogError(f"season {season_id}: the regular season is not over ({len(left)} "
                           f"of {len(created.schedule)} games not stored and ended, the first "
                           f"game {left[0]}); play it first (rinklog season)")
    events = postseason_events(store, season_id)
    if not any(isinstance(e, PlayoffsOpened) for e in events):
        if fmt is None:
            raise RinklogError(f"league {created.league} has no [playoffs] table in its "
                               "league.toml: its seasons have no postseason")
        order = [r.team for r in season_standings(store, season)]
        opening = open_playoffs(fmt, order, divisions_of(created.divisions))
        _season_setup(store, created)  # refuses a ruleset without the playoff option first
        store.append(season_id, opening, store.version(season_id))
        events = opening
    bracket = fold(e for e in events if not _lottery(e))
    game_setup, ledger = _season_setup(store, created)
    blobs = {digest: (store.get_blob(digest), CARD_MEDIA)
             for digest in created.team_hashes.values()}
    blobs[created.charts_hash] = (store.get_blob(created.charts_hash), CHART_MEDIA)
    setup = _Setup(created, game_setup, ledger.opening,
                   (ledger.coach.home, ledger.coach.away) if ledger.coach else ({}, {}),
                   tuple(projections), ledger, MemoryBlobs(blobs), audit)
    stored = sum(len(s.games) for r in bracket.rounds for s in r.series)
    played_now = 0
    overplays: list[str] = []
    crew = (open_crew(workers, _init, _play, (setup,), "playoff game", cluster=cluster)
            if (workers > 1 or cluster is not None) and bracket.champion is None else None)
    try:
        while bracket.champion is None:
            wave = _wave_of(bracket)
            _check_unrecorded(store, season_id, wave)
            fixtures = [_Fixture(g, _goalies(store, game_setup, bracket, g)) for g in wave]
            for fixture in fixtures:
                overplays += _overplays(game_setup, fixture,
                                        _starts(store, bracket, fixture.game))
            for game, played in zip(wave, _wave(setup, fixtures, crew), strict=True):
                bracket = _store(store, setup, played, game, bracket)
                played_now += 1
                stored += 1
                if progress:
                    progress(stored)
    finally:
        if crew is not None:
            crew.stop()
    return PostseasonRun(season_id, bracket.champion, played_now, stored,
                         time.perf_counter() - start, tuple(overplays))


def _lottery(event: Any) -> bool:
    return isinstance(event, LotteryOpened | LotteryDraw | LotteryOrderSet)
