"""Seasons: a league's schedule played in worker processes, every game its own stream.

Workers play games in memory, encode and chain them, audit each on exactly those rows
(:func:`replay.leagues.audit.audit_encoded`) and fold its read models; this process is the
only writer: it checks each game that comes back (replay/leagues/returned.py) and appends
it with its read models in one transaction, in schedule order. A season that is
stopped (Ctrl-C, a killed process) keeps every finished game and no half game; running
it again plays the rest, and the database ends up as if it had never stopped.
"""

from __future__ import annotations

import random
import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass, replace
from typing import Any

import msgspec
from msgspec import UNSET

from engine.dice import SeededDice
from engine.systems import system_of
from events import formats
from events.blobs import blob_hash
from events.checkpoints import Chained
from events.common import Absent, GamesOut
from events.errors import RinklogError, StreamConflict
from events.formats import same_event
from events.league import SeasonCreated
from events.plurals import counted
from events.store import EventStore
from projections import store as read_models
from projections.index import stream_index
from replay.games.coach_habits import game_notes
from replay.games.game_setup import GameOptions, GameSetup
from replay.games.game_streams import CARD_MEDIA, CHART_MEDIA, create_game, play_game
from replay.games.registry import DEFAULT_RULESET, ruleset_of_season
from replay.leagues.audit import AuditFinding, MemoryBlobs, audit_game
from replay.leagues.availability import Availability, stored_availability
from replay.leagues.handover import hand_over
from replay.leagues.ledger import (
    SIMULATED,
    SeasonLedger,
    check_opening,
    ledger_of,
    opening_events,
    record_game,
)
from replay.leagues.naming import game_seed, season_game_id
from replay.leagues.returned import SlotSeasons, checked_return
from replay.leagues.season import SEASON_VERSION
from replay.leagues.season_league import LEAGUE_MEDIA
from replay.leagues.season_stream import SeasonStream
from replay.systems import Kit, kit_for, kit_for_system
from replay.workers import Cluster, open_crew, quiet_collector

_canonical = msgspec.json.Encoder(order="deterministic")

Progress = Callable[[int, int], None]  # (games stored, games in the season)

_AHEAD = 3  # games per worker queued or finished ahead of the writer


@dataclass(frozen=True)
class SeasonRun:
    season_id: str
    games: int  # games in the season (or the cut asked for)
    played: int  # games played by this run
    skipped: int  # games already in the database
    events: int
    seconds: float
    audited: int = 0  # games this run audited before storing them
    read_models: tuple[str, ...] = ()  # the read models stored beside each game
    writer_cpu: float = 0.0  # CPU seconds of this process from the first game to the last
    verified: tuple[str, ...] = ()  # games whose rules this process re-ran (--verify)
    verify_seed: int | None = None  # the seed they were chosen by


@dataclass(frozen=True)
class _WorkerSetup:
    """What every game of a season is played (and audited) with, sent to each worker once."""

    season: SeasonCreated
    game: GameSetup  # the league's teams, charts, options and its coach (a setup, always)
    blobs: MemoryBlobs  # the cards and charts as the writer stores them, for the audit
    format: int  # the payload format of the new games' streams
    audit: bool
    read_models: tuple[str, ...]
    ledger: SeasonLedger | None = None  # the season's opening, which every game pins


@dataclass(frozen=True)
class _Played:
    """A game played in a worker, ready for the writer: its rows and the hashes stored,
    its index, the rows of its read models, and what the audit found (None: it passed, or
    it was not audited)."""

    game_id: str
    rows: Chained  # its events as stored: tags, payloads, checkpoint hashes, head
    meta: dict[str, Any]
    read_models: dict[str, dict[str, list[tuple]]]  # projections.store.game_rows
    failure: AuditFinding | None
    games_out: tuple[GamesOut, ...] = ()  # what it rules for its teams' later games (17)
    number: int = 0  # its number in the schedule


_setup: _WorkerSetup | None = None


def _init(setup: _WorkerSetup) -> None:
    global _setup
    _setup = setup


def goalie_starts(teams: dict[str, Any], schedule: Sequence[tuple[int, str, str]],
                  kit: Kit | None = None) -> dict[int, tuple[str, str]]:
    """Starting goalies for every game, shared out by the cards' games (the system's kit
    names each team's starters and their games): each game goes to the goalie furthest
    behind his share (the coach's choice, Hockey Bones 4.00). Worked out from the
    schedule alone, so every worker agrees. ``kit``: the teams' system's (None: the
    default ruleset's)."""
    kit = kit or kit_for(DEFAULT_RULESET)
    shares = {tid: kit.goalie_shares(team) for tid, team in teams.items()}
    starts: dict[str, dict[str, int]] = {tid: {} for tid in teams}
    played: dict[str, int] = dict.fromkeys(teams, 0)
    chosen: dict[int, tuple[str, str]] = {}
    for number, home, away in schedule:
        pick = []
        for tid in (home, away):
            goalies = shares[tid]
            total = sum(games for _, games in goalies) or len(goalies)
            played[tid] += 1
            mine = starts[tid]
            best, _ = max(goalies, key=lambda g: ((g[1] or 1) / total * played[tid]
                                                  - mine.get(g[0], 0), -goalies.index(g)))
            mine[best] = mine.get(best, 0) + 1
            pick.append(best)
        chosen[number] = (pick[0], pick[1])
    return chosen


def _play(fixture: tuple[int, str, str, str, str, tuple[Absent, ...]]) -> _Played:
    """In a worker: one game, encoded and chained for the store, audited as it will be
    stored, and its read models folded while its events are in memory. ``fixture`` ends
    with who is out of it (availability.py), worked out by the writer."""
    assert _setup is not None
    setup, season = _setup, _setup.season
    number, home, away, home_goalie, away_goalie, absent = fixture
    game_id = season_game_id(season.season_id, number)
    # the season's seed, or an odds run's replayed into it (docs/odds.md)
    dice_seed = game_seed(setup.ledger.dice_seed() if setup.ledger else season.seed, number)
    system = setup.game.system
    game = play_game(setup.game, setup.game.team(home), setup.game.team(away),
                     game_id=game_id, dice=SeededDice(dice_seed, game_id, system.derive_roll),
                     seed=dice_seed, goalies=(home_goalie, away_goalie),
                     season=season.season_id, number=number, absent=absent,
                     notes=_pins(setup, season.season_id))
    ready = hand_over(game, game_id, system, format=setup.format, blobs=setup.blobs,
                      projections=setup.read_models,
                      season_of=_season_of if setup.audit else None)
    return _Played(game_id, ready.rows, ready.meta, ready.read_models, ready.failure,
                   ready.games_out, number)


def _pins(setup: _WorkerSetup, season_id: str) -> list[Any]:
    """What a season game carries after its GameCreated: the opening it is played under
    and the season's coach habits (issue 20)."""
    ledger = setup.ledger
    if ledger is None or ledger.coach is None:
        return []
    return game_notes((ledger.coach.home, ledger.coach.away), season_id, ledger.opening)


class _WorkerSeasons:
    """The audit's season lookup in a worker: the season being played (its stream was
    audited by the writer before any game was played) and its opening; the game is not
    in its record yet (the writer records it with its rows), so that is not checked."""

    complete = False

    def __call__(self, season_id: str) -> SeasonCreated | str:
        assert _setup is not None
        season = _setup.season
        return season if season_id == season.season_id else f"no season stream {season_id!r}"

    def ledger(self, season_id: str) -> SeasonLedger | None:
        assert _setup is not None
        return _setup.ledger if season_id == _setup.season.season_id else None


_season_of = _WorkerSeasons()


def _cut_short(recorded: SeasonCreated, created: SeasonCreated) -> bool:
    """A season recorded with the first part of this schedule (before seasons recorded
    their whole schedule), and otherwise the same."""
    schedule = [tuple(f) for f in recorded.schedule]
    return (len(schedule) < len(created.schedule)
            and schedule == [tuple(f) for f in created.schedule[:len(schedule)]]
            and msgspec.structs.replace(recorded, schedule=created.schedule) == created)


def run_season(store: EventStore, setup: GameSetup, *, league: str,
               schedule: Sequence[tuple[int, str, str]], seed: str, workers: int = 1,
               divisions: Sequence[tuple[str, str, list[str]]] = (),
               progress: Progress | None = None, games: int | None = None, audit: bool = True,
               projections: Sequence[str] = read_models.PROJECTIONS,
               cluster: Cluster | None = None, verify: int = 0,
               verify_seed: int | None = None, league_file: bytes | None = None,
               skip: frozenset[int] = frozenset()) -> SeasonRun:
    """Play every scheduled game of the league ``league`` not yet in the database, each
    with ``setup`` (the league's teams, chart pack, options and coach: every game of a
    season plays the league's ruleset); resumable at any point.

    The season records the whole ``schedule``; ``games`` plays only its first N, so a
    later run with a larger N (or None: all) plays on through the same schedule.

    Each game is stored with the read models ``projections`` (every one by default) and,
    with ``audit``, only once the audit passes on exactly the rows stored (the chain,
    decoding, identity, index, blobs, the season, the dice and every rule: the checks of
    ``rinklog audit``, run in the worker that played it); the season's standings are
    stored at the end. A game failing its audit stops the run in one line, before it is
    written (a rinklog bug: the games before it are kept).

    ``cluster``: a Dask scheduler's address; its workers play the games instead of
    ``workers`` local processes (docs/cluster.md), this process still the only writer.
    Every game that comes back is checked here before it is stored (returned.py);
    ``verify`` of them, chosen by ``verify_seed`` (None: drawn now), have their rules
    re-run here too (docs/trust.md). ``league_file``: the league.toml a new season keeps
    (season_league.py; None: none). ``games`` 0 opens the season, playing none; ``skip``:
    numbers left to the table (the web's coached games, docs/web.md)."""
    if games is not None and games < 0:
        raise RinklogError(f"--games must be at least 0, got {games}")
    season_id = f"{league}-{seed}"
    system, coach = setup.system, setup.coach
    start = time.perf_counter()
    created, blobs = _season_created(store, setup, league, schedule, seed, divisions, league_file)
    season = SeasonStream.at(store, season_id)  # what this run decides from
    _open_season(season, created, coach, league_file)
    check_opening(ledger := ledger_of(store, season_id), coach)
    if audit:  # the season stream itself, which every game's audit is held to
        report = audit_game(store, season_id, read_models=False)
        if report.failure is not None:
            raise RinklogError(_failed(season_id, report.failure, "stored"))
    # from the whole schedule: a cut changes none
    starters = goalie_starts(dict(setup.teams), schedule, setup.kit)
    cut = [f for f in (schedule if games is None else schedule[:games]) if f[0] not in skip]
    todo = [(*f, *starters[f[0]]) for f in cut
            if not store.exists(season_game_id(season_id, f[0]))]
    done, events = len(cut) - len(todo), 0
    if progress:
        progress(done, len(cut))
    # every game's coach is built from a coach setup: the league's, else the system's default
    played_with = replace(setup, coach=setup.kit.default_coach_setup if coach is None else coach)
    worker = _WorkerSetup(created, played_with, MemoryBlobs(blobs), formats.NEW_STREAM_FORMAT,
                    audit, tuple(projections), ledger)
    # who is out of each game: from the season's games stored, then as each is played
    availability = stored_availability(store, season_id, schedule, system)
    verify_seed = secrets.randbelow(2**32) if verify_seed is None else verify_seed
    numbers = sorted(f[0] for f in todo)
    rechecked = frozenset(random.Random(verify_seed).sample(numbers, min(verify, len(numbers))))
    results = _results(todo, worker, workers, availability, cluster, rechecked)
    writer_cpu = time.process_time()  # the writer's own CPU (waiting for the workers is none)
    with closing(results), quiet_collector():  # the crew stopped however the loop ends
        for played in results:
            _store_played(season, played, system.name, worker.format)
            done += 1
            events += len(played.rows.payloads)
            if progress:
                progress(done, len(cut))
    writer_cpu = time.process_time() - writer_cpu
    if projections:
        read_models.save_standings(store)
    return SeasonRun(season_id, len(cut), len(todo), len(cut) - len(todo), events,
                     time.perf_counter() - start, audited=len(todo) if audit else 0,
                     read_models=tuple(projections), writer_cpu=writer_cpu,
                     verified=tuple(season_game_id(season_id, n) for n in sorted(rechecked)),
                     verify_seed=verify_seed if verify else None)


def _season_created(store: EventStore, setup: GameSetup, league: str,
                    schedule: Sequence[tuple[int, str, str]], seed: str,
                    divisions: Sequence[tuple[str, str, list[str]]],
                    league_file: bytes | None = None
                    ) -> tuple[SeasonCreated, dict[str, tuple[bytes, str]]]:
    """The season's first event, its cards and charts stored as blobs, and those blobs'
    bytes by hash (what the workers' audits read of them: the same bytes); the league
    file is pinned by hash (stored as the season is created, :func:`_open_season`)."""
    cards = {tid: _canonical.encode(t) for tid, t in setup.teams.items()}
    chart_bytes = _canonical.encode(setup.charts)
    team_hashes = {tid: store.put_blob(content, CARD_MEDIA) for tid, content in cards.items()}
    charts_hash = store.put_blob(chart_bytes, CHART_MEDIA)
    blobs = {team_hashes[tid]: (content, CARD_MEDIA) for tid, content in cards.items()}
    blobs[charts_hash] = (chart_bytes, CHART_MEDIA)
    created = SeasonCreated(season_id=f"{league}-{seed}", league=league, seed=seed,
                            charts_hash=charts_hash, team_hashes=team_hashes,
                            schedule=[tuple(f) for f in schedule],
                            divisions=[(c, d, list(t)) for c, d, t in divisions],
                            # UNSET for the default ruleset, so its seasons' bytes are unchanged
                            ruleset=UNSET if setup.ruleset == DEFAULT_RULESET else setup.ruleset,
                            **setup.options.season_fields(setup.system,
                                                          formats.NEW_STREAM_FORMAT),
                            season_version=SEASON_VERSION,  # odds with their runs, issue 33
                            # the league the season keeps (season_league.py, issue 34)
                            league_hash=UNSET if league_file is None else blob_hash(league_file))
    return created, blobs


def _open_season(season: SeasonStream, created: SeasonCreated, coach: Any,
                 league_file: bytes | None = None) -> None:
    """Create the season with its opening (and its league file), or check that the one
    stored is this one."""
    if not season.version:
        opening = opening_events(created, coach)
        with season.store.transaction():
            if league_file is not None:
                season.store.put_blob(league_file, LEAGUE_MEDIA)
            season.create(opening, meta=stream_index(opening).meta)
        return
    recorded = season.store.read(season.season_id, 1, 1)[0].event
    if isinstance(recorded, SeasonCreated) and recorded.season_version is UNSET:
        created = msgspec.structs.replace(created, season_version=UNSET)  # opened before
    if isinstance(recorded, SeasonCreated) and recorded.league_hash is UNSET:
        created = msgspec.structs.replace(created, league_hash=UNSET)  # kept no league file
    if not same_event(recorded, created) and _cut_short(recorded, created):
        raise RinklogError(f"season {season.season_id} was stored by an older rinklog with "
                           f"only its first {counted(len(recorded.schedule), 'game')} scheduled, so it "
                           "cannot grow; start it again in another --db")
    if not same_event(recorded, created):
        raise RinklogError(f"season {season.season_id} is already in this database with "
                           "another league, schedule or cards; use another --seed or --db")


def _store_played(season: SeasonStream, played: _Played, system: str, format: int) -> None:
    """The game, the season's record of it and its read models: one transaction (one
    commit a game), so a stopped season never keeps a game without them."""
    store = season.store
    try:
        with store.transaction():
            version = store.append_chained(played.game_id, played.rows, kind="game",
                                           system=system, meta=played.meta, format=format)
            record_game(season, played.game_id, played.number, SIMULATED,
                        played.rows.head.hex())
            if played.read_models:
                read_models.save(store, played.game_id, version, played.read_models)
    except StreamConflict:  # stored since this run listed what to play
        raise StreamConflict(_writing_meanwhile(
            season.season_id, f"stored {played.game_id} while this run played it")) from None


def _writing_meanwhile(season_id: str, what: str) -> str:
    """A season run that finds another one writing the same season (a second ``rinklog
    season`` on the same database): the append's expected version says so; say what to do."""
    return (f"another process is writing season {season_id} to this database: it {what} "
            "(nothing was written twice); let that run finish, or stop it, then run the "
            "same command again to play what is left")


def _failed(stream: str, failure: AuditFinding, how: str) -> str:
    return (f"{stream} fails its audit as {how} ({failure.check} check at event "
            f"{failure.seq}: expected {failure.expected}, recorded {failure.recorded}; rule "
            f"{failure.rule}); nothing of it was written: please report it as a rinklog bug")


def _checked(setup: _WorkerSetup, number: int, played: _Played, availability: Availability,
             rechecked: frozenset[int] = frozenset()) -> _Played:
    """Game ``number`` as a worker returned it, held here to what the writer can check
    itself (replay/leagues/returned.py) before anything is learned from it: what is
    stored is what its events give; its rules re-run here if it is ``rechecked``
    (--verify). A failure its worker's audit found is a rinklog bug."""
    game_id = season_game_id(setup.season.season_id, number)
    if played.failure is not None:
        raise RinklogError(_failed(game_id, played.failure, "played"))
    lookup = SlotSeasons(setup.season, setup.ledger, availability.absent(number))
    back = checked_return(played, game_id, setup.game.system, format=setup.format,
                          blobs=setup.blobs, season_of=lookup,
                          projections=setup.read_models, rules=number in rechecked)
    return _Played(game_id, back.rows, back.meta, back.read_models, None, back.games_out,
                   number)


def _results(todo: list[tuple[int, str, str, str, str]], setup: _WorkerSetup, workers: int,
             availability: Availability, cluster: Cluster | None = None,
             rechecked: frozenset[int] = frozenset()):
    """Played games in schedule order, from this process, a crew of worker processes or
    a Dask cluster's workers, each checked (:func:`_checked`) as it comes back."""
    if not todo or (cluster is None and (workers <= 1 or len(todo) < 2)):
        _init(setup)
        return _in_turn(todo, setup, availability, rechecked)
    return _pooled(todo, setup, workers, availability, cluster, rechecked)


def _in_turn(todo, setup: _WorkerSetup, availability: Availability,
             rechecked: frozenset[int]):
    """Games played here one after the other: every earlier game is known by then."""
    for f in todo:
        played = _checked(setup, f[0], _play((*f, tuple(availability.absent(f[0])))),
                          availability, rechecked)
        availability.record(f[0], played.games_out)
        yield played


def _pooled(todo, setup, workers, availability: Availability, cluster: Cluster | None = None,
            rechecked: frozenset[int] = frozenset()):
    """Games from worker processes (or a cluster's), in schedule order, with at most
    ``_AHEAD`` games a worker played (or being played) ahead of the writer: a writer
    slower than the workers (a slow disk, a busy machine) makes them wait instead of
    piling finished games up in this process (~200 KB a game).

    A game is sent only once who is out of it is known, every earlier game of both its
    teams having come back (availability.py: a system whose rulings end with the game
    never waits), so any number of workers plays the same games. The game the writer
    waits for next is always ready (every earlier game has come back), and always sent."""
    crew = open_crew(workers, _init, _play, (setup,), "game", cluster=cluster, result=_Played)
    ahead_most = _AHEAD * crew.size
    waiting = deque(todo)  # not sent yet, in schedule order
    order = deque(f[0] for f in todo)  # not yet yielded, in schedule order
    done: dict[int, _Played | RinklogError] = {}
    ahead = 0  # sent and not yet yielded
    try:
        while order:
            kept: list = []
            while waiting and len(kept) < ahead_most:  # a window: later games wait
                f = waiting.popleft()
                if f[0] == order[0] or (ahead < ahead_most
                                        and availability.ready(f[0])):
                    crew.submit(f[0], (*f, tuple(availability.absent(f[0]))))
                    ahead += 1
                else:
                    kept.append(f)
            waiting.extendleft(reversed(kept))
            if order[0] not in done:
                number, played = crew.result()
                try:
                    played = _checked(setup, number, played, availability, rechecked)
                except RinklogError as refused:  # raised in its turn: the games before it
                    done[number] = refused  # are stored (its rulings never known, so no
                    continue  # later game of its teams is sent)
                done[number] = played
                availability.record(number, played.games_out)
                continue
            game = done.pop(order.popleft())
            ahead -= 1
            if isinstance(game, RinklogError):
                raise game
            yield game
            del game
    finally:
        crew.stop()


def table_game(store: EventStore, season_id: str, number: int) -> str:
    """Create game ``number`` of a stored season as a game played at the table: the
    scheduled teams with the season's cards, charts, options and starting goalies, typed
    dice (``live``: it may stop and resume). Once it ends it counts in the season like a
    simulated game, and ``rinklog season`` skips it. Returns the game id."""
    if not store.exists(season_id) or store.info(season_id).kind != "season":
        raise RinklogError(f"no season {season_id!r} in {store.path}")
    stream = SeasonStream.at(store, season_id)  # what this command decides from
    season = store.read(season_id, 1, 1)[0].event
    assert isinstance(season, SeasonCreated)
    fixture = next((f for f in season.schedule if f[0] == number), None)
    if fixture is None:
        raise RinklogError(f"season {season_id} has no game {number} "
                           f"(its schedule numbers 1..{len(season.schedule)})")
    game_id = season_game_id(season_id, number)
    if store.exists(game_id):
        raise RinklogError(f"game {number} of {season_id} is already in the database "
                           f"({game_id}); resume it with rinklog play --resume {game_id}")
    ruleset = ruleset_of_season(season)
    system = system_of(ruleset)
    teams = {tid: msgspec.json.decode(store.get_blob(digest), type=system.team_type)
             for tid, digest in season.team_hashes.items()}
    charts = msgspec.json.decode(store.get_blob(season.charts_hash), type=system.charts_type)
    setup = GameSetup(system, ruleset, teams, charts,
                      GameOptions.of_season(system, kit_for_system(system.name), season))
    goalies = goalie_starts(teams, season.schedule, setup.kit)[number]
    _, home, away = fixture
    ledger = ledger_of(store, season_id)
    # 15, 17: who is out of it comes from every earlier game of both teams, so those first
    availability = stored_availability(store, season_id, season.schedule, system)
    missing = availability.waiting_on(number)
    if missing:
        raise RinklogError(f"game {number} of {season_id} has to wait for its teams' earlier "
                           f"games {', '.join(map(str, missing))} ({system.title} carries "
                           "injuries and suspensions into later games); play or simulate "
                           "them first")
    game = create_game(setup, teams[home], teams[away], game_id=game_id, goalies=goalies,
                       season=season_id, number=number, live=True,
                       absent=availability.absent(number))
    if game.created.charts_hash != season.charts_hash:
        raise RinklogError(f"season {season_id}'s chart pack does not give its games' pack")
    if ledger.coach is None:  # a season stored before season records: as it was then
        store.append(game_id, game.events, expected_version=0, kind="game",
                     system=system.name, meta=game.meta())
        return game_id
    game.events.extend(game_notes(({}, {}), season_id, ledger.opening))
    stream.start_table_game(game_id, number, game.events, system=system.name,
                            meta=game.meta())
    return game_id
