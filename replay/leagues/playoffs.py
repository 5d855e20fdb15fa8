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

A game of the wave may be played at the table instead (``rinklog play --season S --game
ID``, replay/leagues/playoff_table.py): the run never plays it; once it has ended the run
records its series result in its slot, and while it is being played the run stops at it
(the wave's games before it stored), since every later record follows it (R-post-play).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.dice import SeededDice
from engine.league.formats import PlayoffFormat, divisions_of
from engine.league.playoffs import RULE as BRACKET_RULE
from engine.league.playoffs import Bracket, ScheduledGame, fold, open_playoffs
from engine.league.playoffs import record_game as bracket_game
from events import formats
from events.checkpoints import Chained
from events.common import Absent, GameEnded, GamesOut
from events.errors import RinklogError, StreamConflict
from events.league import SeasonCreated
from events.plurals import counted
from events.postseason import PlayoffsOpened, SeriesGameRecorded
from events.store import EventStore
from projections import store as read_models
from replay.games.coach_habits import game_notes
from replay.games.game_setup import GameSetup
from replay.games.game_streams import CARD_MEDIA, CHART_MEDIA, play_game
from replay.leagues.audit import AuditFinding, MemoryBlobs
from replay.leagues.handover import hand_over
from replay.leagues.ledger import SIMULATED, SeasonLedger, ledger_of, record_game
from replay.leagues.naming import (
    PLAYOFF_NUMBER,
    PLAYOFF_OPTION,
    playoff_game_id,
    playoff_seed,
    season_game_id,
)
from replay.leagues.playoff_setup import (
    playoff_goalies,
    playoff_options,
    playoff_pick,
    season_setup,
    series_starts,
)
from replay.leagues.playoff_wave import (
    AT_THE_TABLE,
    READY,
    WaveGame,
    bracket_events,
    ended,
    events_if_ended,
    playoff_availability,
    postseason_events,
    ready_games,
    scheduled,
    wave_of,
    wave_status,
)
from replay.leagues.postseason import DrawnLottery, draw_lottery, read_lottery
from replay.leagues.returned import SlotSeasons, checked_return
from replay.leagues.season_league import check_given, season_playoffs
from replay.leagues.season_stream import SeasonStream
from replay.leagues.stored_seasons import load_season
from replay.leagues.stored_seasons import standings as season_standings
from replay.workers import Cluster, Workers, open_crew

__all__ = ["PLAYOFF_OPTION", "PostseasonRun", "WaveGame", "draw_season_lottery",
           "league_playoffs", "open_postseason", "play_postseason", "playoff_options",
           "postseason_events", "ready_games", "regular_season_left", "run_playoffs"]

Progress = Callable[[int], None]  # playoff games stored so far


@dataclass(frozen=True)
class PostseasonRun:
    season_id: str
    champion: str | None
    played: int  # playoff games played by this run
    stored: int  # playoff games in the database after it
    seconds: float
    overplays: tuple[str, ...] = ()  # "p{round}-{slot}-{game} TEAM GOALIE": rule 27 overplays
    waiting: str = ""  # the playoff game being played at the table that the run stopped at


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
    absent: tuple[Absent, ...] = ()  # who is out of it (R-post-absent)


@dataclass(frozen=True)
class _Played:
    game_id: str
    rows: Chained  # its events as stored: tags, payloads, checkpoint hashes, head
    meta: dict[str, Any]
    read_models: dict[str, dict[str, list[tuple]]]  # projections.store.game_rows
    winner: str  # the winning team's id
    failure: AuditFinding | None = None  # what the audit found (None: passed, or not run)
    games_out: tuple[GamesOut, ...] = ()  # what it rules for its teams' later games (15, 17)


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
    seed = playoff_seed(setup.ledger.dice_seed(), game.round, game.slot, game.game)  # odds.md
    system = setup.game.system
    played = play_game(setup.game, setup.game.team(game.home), setup.game.team(game.away),
                       game_id=game_id, dice=SeededDice(seed, game_id, system.derive_roll),
                       seed=seed, goalies=fixture.goalies, season=season.season_id,
                       number=PLAYOFF_NUMBER, absent=fixture.absent,
                       notes=game_notes(setup.habits, season.season_id, setup.opening))
    ended = played.events[-1]
    if not isinstance(ended, GameEnded) or ended.winner == "none":
        raise RinklogError(f"playoff game {game_id} ended without a winner (its ruleset's "
                           f"{PLAYOFF_OPTION!r} option must play overtime to one)")
    winner = game.home if ended.winner == "home" else game.away
    lookup = None
    if setup.audit:  # the checks of rinklog audit on exactly the rows to be stored
        record = SeriesGameRecorded(round=game.round, slot=game.slot, game=game.game,
                                    game_id=game_id, home=game.home, away=game.away,
                                    winner=winner, rule=BRACKET_RULE)
        lookup = _Seasons(season, dataclasses.replace(setup.ledger,
                                                      series_games={game_id: record}))
    ready = hand_over(played, game_id, system, format=formats.NEW_STREAM_FORMAT,
                      blobs=setup.blobs, projections=setup.read_models, season_of=lookup)
    return _Played(game_id, ready.rows, ready.meta, ready.read_models, winner, ready.failure,
                   ready.games_out)


def _wave(setup: _Setup, fixtures: list[_Fixture], crew: Workers | None) -> list[_Played]:
    """The games of one wave, played here or by the crew, in the fixtures' order."""
    if crew is None:
        return [_play_with(setup, f) for f in fixtures]
    for i, fixture in enumerate(fixtures):
        crew.submit(i, fixture)
    done = dict(crew.result() for _ in fixtures)
    return [done[i] for i in range(len(fixtures))]


def _checked(setup: _Setup, fixture: _Fixture, played: _Played) -> _Played:
    """A playoff game as a worker returned it, held here to what the writer can check
    itself (replay/leagues/returned.py), its winner read from its own events."""
    game = fixture.game
    game_id = playoff_game_id(setup.season.season_id, game.round, game.slot, game.game)
    if played.failure is not None:  # a rinklog bug: the games before it are kept
        f = played.failure
        raise RinklogError(f"playoff game {game_id} failed its audit as played "
                           f"({f.check} check at seq {f.seq}: expected {f.expected}; "
                           f"recorded {f.recorded}); nothing of it was stored")
    record = SeriesGameRecorded(round=game.round, slot=game.slot, game=game.game,
                                game_id=game_id, home=game.home, away=game.away,
                                winner=played.winner, rule=BRACKET_RULE)
    lookup = SlotSeasons(setup.season, dataclasses.replace(
        setup.ledger, series_games={game_id: record}), fixture.absent)
    back = checked_return(played, game_id, setup.game.system,
                          format=formats.NEW_STREAM_FORMAT, blobs=setup.blobs,
                          season_of=lookup, projections=setup.read_models)
    ended = back.events[-1]
    winner = ""
    if isinstance(ended, GameEnded) and ended.winner in ("home", "away"):
        winner = game.home if ended.winner == "home" else game.away
    if winner != played.winner:
        raise RinklogError(f"{game_id} as a worker returned it does not hold: its events "
                           f"end with winner {winner or 'none'}, the worker said "
                           f"{played.winner}; nothing of it was stored (does every worker "
                           "run this rinklog, unchanged?)")
    return _Played(game_id, back.rows, back.meta, back.read_models, winner, None,
                   back.games_out)


def _store(season: SeasonStream, setup: _Setup, played: _Played, game: ScheduledGame,
            bracket: Bracket) -> Bracket:
    """The game, its read models, the season's record of it and the bracket's events, in
    one transaction onto the season as this run decided from it (``played``: checked,
    :func:`_checked`)."""
    store, season_id = season.store, season.season_id
    events = bracket_game(bracket, game.round, game.slot, played.game_id, played.winner)
    try:
        with store.transaction():
            store.append_chained(played.game_id, played.rows, kind="game",
                                 system=setup.game.system.name, meta=played.meta,
                                 format=formats.NEW_STREAM_FORMAT)
            record_game(season, played.game_id, PLAYOFF_NUMBER, SIMULATED,
                        played.rows.head.hex())
            season.append(events)
            if played.read_models:
                read_models.save(store, played.game_id, len(played.rows.payloads),
                                 played.read_models)
    except StreamConflict:
        raise StreamConflict(f"season {season_id}: another run stored {played.game_id} "
                             "meanwhile; let it finish (or stop it) and run again") from None
    return fold(events, bracket)


def play_postseason(store: EventStore, season_id: str, fmt: PlayoffFormat | None,
                    workers: int = 1, progress: Progress | None = None,
                    projections: tuple[str, ...] = read_models.PROJECTIONS,
                    audit: bool = True, cluster: Cluster | None = None) -> PostseasonRun:
    """Play the postseason of a stored season to its champion, or on from where a
    stopped run left it. ``fmt``: the league's ``[playoffs]`` (None: the league has no
    postseason; a postseason already opened goes on with the format it recorded).
    ``audit``: each game audited as played (the checks of ``rinklog audit``, in the worker
    that played it) before it is stored, as a season's games are. ``cluster``: a Dask
    scheduler's address, whose workers play the games instead (docs/cluster.md)."""
    if workers < 1:
        raise RinklogError(f"--workers must be at least 1, got {workers}")
    start = time.perf_counter()
    season = SeasonStream.at(store, season_id)  # what this run decides from
    created = load_season(store, season_id).created
    _refuse_open_season(store, created)
    events = postseason_events(store, season_id)
    if not any(isinstance(e, PlayoffsOpened) for e in events):
        if fmt is None:
            raise RinklogError(f"league {created.league} has no [playoffs] table in its "
                               "league.toml: its seasons have no postseason")
        opening = opening_events(store, created, fmt)
        season.append(opening)
        events = opening
    bracket = fold(bracket_events(events))
    game_setup, ledger = season_setup(store, created)
    blobs = {digest: (store.get_blob(digest), CARD_MEDIA)
             for digest in created.team_hashes.values()}
    blobs[created.charts_hash] = (store.get_blob(created.charts_hash), CHART_MEDIA)
    setup = _Setup(created, game_setup, ledger.opening,
                   (ledger.coach.home, ledger.coach.away) if ledger.coach else ({}, {}),
                   tuple(projections), ledger, MemoryBlobs(blobs), audit)
    stored = sum(len(s.games) for r in bracket.rounds for s in r.series)
    out = playoff_availability(store, created, bracket, game_setup.system)
    played_now = 0
    overplays: list[str] = []
    waiting = ""
    crew = (open_crew(workers, _init, _play, (setup,), "playoff game", cluster=cluster,
                      result=_Played)
            if (workers > 1 or cluster is not None) and bracket.champion is None else None)
    try:
        while bracket.champion is None and not waiting:
            wave = wave_status(store, season_id, wave_of(bracket))
            # in slot order up to a game still being played at the table (R-post-play)
            stop = next((i for i, g in enumerate(wave) if g.status == AT_THE_TABLE),
                        len(wave))
            waiting = wave[stop].game_id if stop < len(wave) else ""
            wave = wave[:stop]
            for g in wave:  # each team's next game, after all its earlier ones
                out.add(g.game_id, g.home, g.away, events_if_ended(store, g))
            fixtures = [_Fixture(scheduled(g),
                                 playoff_goalies(store, game_setup, bracket, scheduled(g)),
                                 tuple(out.absent(g.game_id)))
                        for g in wave if g.status == READY]
            for fixture in fixtures:
                overplays += _overplays(game_setup, fixture,
                                        series_starts(store, bracket, fixture.game))
            played = iter(zip(fixtures, _wave(setup, fixtures, crew), strict=True))
            for game in wave:
                if game.status == READY:
                    done = _checked(setup, *next(played))
                    bracket = _store(season, setup, done, scheduled(game), bracket)
                    out.record_outs(game.game_id, done.games_out)
                    played_now += 1
                else:
                    bracket = _record_table_game(season, game, bracket)
                stored += 1
                if progress:
                    progress(stored)
    finally:
        if crew is not None:
            crew.stop()
    return PostseasonRun(season_id, bracket.champion, played_now, stored,
                         time.perf_counter() - start, tuple(overplays), waiting)


def _record_table_game(season: SeasonStream, game: WaveGame, bracket: Bracket) -> Bracket:
    """The series record of a playoff game played at the table and ended (its season
    recorded it, mode ``table``, in the transaction of its last rows): the bracket's
    events it brings, in its slot."""
    last = ended(season.store, game.game_id)
    if last is None or last.winner == "none":
        raise RinklogError(f"playoff game {game.game_id} ended without a winner (its "
                           f"ruleset's {PLAYOFF_OPTION!r} option must play overtime to one)")
    winner = game.home if last.winner == "home" else game.away
    events = bracket_game(bracket, game.round, game.slot, game.game_id, winner)
    season.append(events)
    return fold(events, bracket)


def league_playoffs(store: EventStore, created: SeasonCreated,
                    league: str | None = None) -> PlayoffFormat | None:
    """The ``[playoffs]`` format of a season's league, None when its league.toml has
    none: the league file the season stored, or ``league`` when it is the same league
    (replay/leagues/season_league.py). A season stored before seasons kept their league
    file: ``league`` or its bundled league by name, else one line saying to give
    ``--league``."""
    return season_playoffs(store, created, league)


def _opened(store: EventStore, season_id: str) -> bool:
    return any(isinstance(e, PlayoffsOpened) for e in postseason_events(store, season_id))


def run_playoffs(store: EventStore, season_id: str, league: str | None = None,
                 workers: int = 1, progress: Progress | None = None,
                 projections: tuple[str, ...] = read_models.PROJECTIONS,
                 audit: bool = True, cluster: Cluster | None = None) -> PostseasonRun:
    """``rinklog playoffs``: the postseason of a stored season played (see
    :func:`play_postseason`) under its league's ``[playoffs]`` format, read from the
    league its SeasonCreated names (or ``league``) only when the playoffs are not open yet
    (once open, the format they recorded goes on)."""
    created = load_season(store, season_id).created
    check_given(store, created, league)
    fmt = None if _opened(store, season_id) else league_playoffs(store, created, league)
    return play_postseason(store, season_id, fmt, workers=workers, progress=progress,
                           projections=projections, audit=audit, cluster=cluster)


def open_postseason(store: EventStore, season_id: str,
                    league: str | None = None) -> list[WaveGame]:
    """``rinklog playoffs --ready``: open a season's playoffs (PlayoffsOpened, round 1) if
    they are not open yet, as :func:`run_playoffs` does first, playing no game; the games
    ready to play (:func:`replay.leagues.playoff_wave.ready_games`)."""
    season = SeasonStream.at(store, season_id)  # what this command decides from
    created = load_season(store, season_id).created
    check_given(store, created, league)
    if not _opened(store, season_id):
        _refuse_open_season(store, created)
        fmt = league_playoffs(store, created, league)
        if fmt is None:
            raise RinklogError(f"league {created.league} has no [playoffs] table in its "
                               "league.toml: its seasons have no postseason")
        season.append(opening_events(store, created, fmt))
    return ready_games(store, season_id)


def opening_events(store: EventStore, created: SeasonCreated, fmt: PlayoffFormat) -> list[Any]:
    """The playoffs' opening of a complete regular season (PlayoffsOpened, round 1): the
    final standings (rule 29's order) seeding ``fmt``; a ruleset without the ``playoff``
    game option is refused first."""
    season = load_season(store, created.season_id)
    order = [r.team for r in season_standings(store, season)]
    opening = open_playoffs(fmt, order, divisions_of(created.divisions))
    season_setup(store, created)  # refuses a ruleset without the playoff option
    return opening


def _refuse_open_season(store: EventStore, created: SeasonCreated) -> None:
    left = regular_season_left(store, created)
    if left:
        raise RinklogError(f"season {created.season_id}: the regular season is not over "
                           f"({len(left)} of {counted(len(created.schedule), 'game')} not stored and "
                           f"ended, the first game {left[0]}); play it first (rinklog season)")


def draw_season_lottery(store: EventStore, season_id: str, rolls: Sequence[int] | None = None,
                        league: str | None = None) -> DrawnLottery:
    """``rinklog lottery --draw``: rule 31's lottery of a stored season, drawn by the
    non-playoff teams of its league's ``[playoffs]`` format (read as :func:`run_playoffs`
    reads it, from the league its SeasonCreated names or ``league``): when the playoffs are
    not open yet, their opening is appended with the lottery, in one transaction, so the
    season stream records the seeds the lottery leaves out and the audit re-derives both
    (R-post-31d). A league with no ``[playoffs]`` table draws with rule 9's six."""
    season = SeasonStream.at(store, season_id)  # what this command decides from
    created = load_season(store, season_id).created
    check_given(store, created, league)
    opening: list[Any] = []
    if (not read_lottery(store, season_id).opened and not _opened(store, season_id)
            and ledger_of(store, season_id).recorded
            and not regular_season_left(store, created)):
        fmt = league_playoffs(store, created, league)
        if fmt is not None:
            opening = opening_events(store, created, fmt)
    return draw_lottery(store, season_id, rolls, opening, season=season)

