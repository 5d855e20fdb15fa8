"""One odds run (issue 23, docs/odds.md): the rest of a stored season and its postseason
played once, in memory, from what :class:`OddsSeason` carries, with the dice of the run.

The lean path: a game is played by the game loop (``play_outcome``) and only its first and
last events are kept (GameCreated, GameEnded: what the standings fold reads), with what it
rules for later games; nothing is encoded, hashed, audited or stored, so a run costs the
engine and little else. A worker
never reads the database (it may be on another machine, ``--cluster``): every input is
in the :class:`OddsSeason` sent once to each worker (``init_odds``), and a job is a run
number (``odds_task``); both functions are module-level and their arguments picklable.

Run ``r`` plays exactly the games ``rinklog odds --replay r`` stores: game ``n`` of the
schedule with the dice seed ``game_seed(run seed, n)``, a playoff game with
``playoff_seed(run seed, ...)`` and the lottery with ``seeded_lottery_roll(run seed,
"lottery")``, the run seed being ``odds_run_seed(season, odds seed, r)``
(replay/leagues/naming.py), with the season's cards, charts, options, coach habits,
starting goalies (the season's share-out; rule 27 in the playoffs) and who is out of each
game (replay/leagues/availability.py), as ``rinklog season`` and ``rinklog playoffs``
would play them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.dice import SeededDice
from engine.league.formats import divisions_of
from engine.league.lottery import lottery_entries, run_lottery, seeded_lottery_roll
from engine.league.playoffs import Bracket, ScheduledGame, fold, open_playoffs, record_game
from events.common import GameCreated, GameEnded, GamesOut
from events.errors import RinklogError
from events.league import SeasonCreated
from events.postseason import DRAFT_TEAMS, PlayoffFormat
from projections.standings import build_standings
from replay.games.coach_habits import game_notes
from replay.games.game_setup import GameSetup
from replay.games.game_streams import play_outcome
from replay.leagues.availability import Availability, PlayoffAvailability
from replay.leagues.ledger import season_game_setup
from replay.leagues.naming import (
    PLAYOFF_NUMBER,
    game_seed,
    odds_run_seed,
    playoff_game_id,
    playoff_seed,
    season_game_id,
)
from replay.leagues.playoff_setup import playoff_options, playoff_starter
from replay.leagues.playoff_wave import recorded_games, wave_of
from replay.leagues.postseason import LOTTERY_ID
from replay.leagues.runner import goalie_starts
from replay.leagues.schedule import fixtures_by_number
from replay.systems import kit_for_system

__all__ = ["OddsSeason", "RunResult", "init_odds", "odds_task", "play_run", "play_runs"]


@dataclass(frozen=True)
class OddsSeason:
    """A stored season as an odds run starts from it (replay/leagues/odds.py reads it)."""

    created: SeasonCreated
    teams: dict[str, Any]  # the season's cards by team id, as its system reads them
    charts: Any
    habits: tuple[dict[str, Any], dict[str, Any]]  # the season's coach habits (home, away)
    opening: str  # the season opening's hash, which every game pins ("": no records)
    played: tuple[tuple[GameCreated, GameEnded], ...]  # regular-season games stored, ended
    remaining: tuple[int, ...]  # schedule numbers still to play, in schedule order
    outs: dict[int, tuple[GamesOut, ...]]  # what each stored game rules for later ones
    postseason: tuple[Any, ...]  # the stream's playoff events so far (no lottery's)
    series_starts: dict[tuple[int, int], dict[str, int]]  # goalie starts per stored series
    playoff_format: PlayoffFormat | None  # the league's [playoffs] (None: no postseason)
    drawn_picks: tuple[str, ...] | None  # a lottery already drawn: its picks, first first
    previous_first: str  # the league's previous first pick (rule 31), "" if none
    # what each stored playoff game rules for later ones (R-post-absent), by game id: the
    # bracket's recorded games and the wave's games ended at the table
    playoff_outs: dict[str, tuple[GamesOut, ...]] = field(default_factory=dict)
    # the wave's games ended at the table, not recorded in their series yet: their winners
    # (``rinklog playoffs`` records them in their slot rather than play them, R-post-play)
    table_winners: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RunResult:
    """What one run keeps: the final points, standings order, playoff teams, who went on
    in each round (won a series or had a bye), the champion and the lottery's picks."""

    run: int
    points: dict[str, int]
    order: tuple[str, ...]
    playoff_teams: tuple[str, ...]
    rounds: int  # rounds of the playoffs (0: none)
    advanced: tuple[tuple[str, ...], ...]  # per round
    champion: str | None
    picks: tuple[str, ...]
    games: int  # games this run played
    run_seed: str = ""  # odds_run_seed(season, odds seed, run): its record's leaf keeps it


@dataclass(frozen=True)
class _Context:
    season: OddsSeason
    seed: str
    regular: GameSetup
    playoff: GameSetup | None
    starters: dict[int, tuple[str, str]]
    notes: list[Any]


_context: _Context | None = None


def _context_of(season: OddsSeason, seed: str) -> _Context:
    created = season.created
    regular = season_game_setup(created, season.teams, season.charts, season.habits)
    kit = kit_for_system(regular.system.name)
    playoff = None
    if season.playoff_format is not None or season.postseason:
        playoff = replace(regular, options=playoff_options(regular.options, regular.rules, kit))
    starters = goalie_starts(dict(season.teams), created.schedule, kit)
    notes = game_notes(season.habits, created.season_id, season.opening) if season.opening \
        else []
    return _Context(season, seed, regular, playoff, starters, notes)


def init_odds(season: OddsSeason, seed: str) -> None:
    """A worker's start: the season and the odds seed, once."""
    global _context
    _context = _context_of(season, seed)


def odds_task(run: int) -> RunResult:
    """A worker's job: run ``run``."""
    assert _context is not None
    return _play(_context, run)


def play_run(season: OddsSeason, seed: str, run: int) -> RunResult:
    """Run ``run`` here (the bench, a test)."""
    return _play(_context_of(season, seed), run)


def play_runs(season: OddsSeason, seed: str, runs: list[int]) -> list[RunResult]:
    """The runs ``runs`` here, in that order (the audit's replay of an odds record)."""
    ctx = _context_of(season, seed)
    return [_play(ctx, run) for run in runs]


def _play(ctx: _Context, run: int) -> RunResult:
    season = ctx.season
    created = season.created
    sid = created.season_id
    run_seed = odds_run_seed(sid, ctx.seed, run)
    setup = ctx.regular
    system = setup.system
    results = list(season.played)
    availability = Availability(created.schedule, system.games_out)
    for number, outs in season.outs.items():
        availability.record(number, outs)
    fixtures = fixtures_by_number(created.schedule)
    games = 0
    for number in season.remaining:
        home, away = fixtures[number]
        game_id = season_game_id(sid, number)
        dice_seed = game_seed(run_seed, number)
        game = play_outcome(setup, setup.team(home), setup.team(away), game_id=game_id,
                         dice=SeededDice(dice_seed, game_id, system.derive_roll),
                         seed=dice_seed, goalies=ctx.starters[number], season=sid,
                         number=number, absent=availability.absent(number), notes=ctx.notes)
        results.append((game.created, game.end))
        if system.games_out is not None:
            availability.record(number, game.outs)
        games += 1
    table = build_standings(results)
    points = dict.fromkeys(season.teams, 0) | {r.team: r.points for r in table}
    ranked = [r.team for r in table]
    order = ranked + [t for t in season.teams if t not in set(ranked)]  # none played yet
    bracket, played = _postseason(ctx, run_seed, order, availability)
    games += played
    playoff_teams = tuple(s.team for s in bracket.seeds) if bracket is not None else ()
    return RunResult(run, points, tuple(order), playoff_teams,
                     len(bracket.format.series or []) if bracket is not None else 0,
                     _advanced(bracket), bracket.champion if bracket is not None else None,
                     _picks(season, order, playoff_teams, run_seed), games, run_seed)


def _postseason(ctx: _Context, run_seed: str, order: list[str],
                availability: Availability) -> tuple[Bracket | None, int]:
    """The bracket played to its champion from what is stored (or opened from the run's
    final standings), as ``rinklog playoffs`` plays it (replay/leagues/playoffs.py
    ``play_postseason``): wave by wave (replay/leagues/playoff_wave.py ``wave_of``), a
    game ended at the table recorded with its result, every other one played with the
    run's dice, rule 27's starters and who is out of it (the regular season's rulings
    carried on, R-post-absent); and how many games it took."""
    season = ctx.season
    created = season.created
    if season.postseason:
        bracket = fold(season.postseason)
    elif season.playoff_format is not None:
        bracket = fold(open_playoffs(season.playoff_format, order,
                                     divisions_of(created.divisions)))
    else:
        return None, 0
    starts = {key: dict(value) for key, value in season.series_starts.items()}
    out = PlayoffAvailability(availability)
    for game_id, home, away in recorded_games(bracket):
        out.add(game_id, home, away)
        out.record_outs(game_id, season.playoff_outs.get(game_id, ()))
    games = 0
    while bracket.champion is None:
        wave = wave_of(bracket)
        ids = [playoff_game_id(created.season_id, g.round, g.slot, g.game) for g in wave]
        for g, game_id in zip(wave, ids, strict=True):  # each team's next game
            out.add(game_id, g.home, g.away)
            if game_id in season.table_winners:
                out.record_outs(game_id, season.playoff_outs.get(game_id, ()))
        for g, game_id in zip(wave, ids, strict=True):  # stored in slot order
            winner = season.table_winners.get(game_id)
            if winner is None:
                winner = _play_playoff_game(ctx, run_seed, g, game_id, starts, out)
                games += 1
            bracket = fold(record_game(bracket, g.round, g.slot, game_id, winner), bracket)
    return bracket, games


def _play_playoff_game(ctx: _Context, run_seed: str, g: ScheduledGame, game_id: str,
                       starts: dict[tuple[int, int], dict[str, int]],
                       out: PlayoffAvailability) -> str:
    """One playoff game with the run's dice; its winner (its rulings recorded in ``out``,
    its starters in ``starts``)."""
    setup = ctx.playoff
    assert setup is not None
    system, kit = setup.system, setup.kit
    mine = starts.setdefault((g.round, g.slot), {})
    goalies = (playoff_starter(kit, setup.team(g.home), mine),
               playoff_starter(kit, setup.team(g.away), mine))
    seed = playoff_seed(run_seed, g.round, g.slot, g.game)
    game = play_outcome(setup, setup.team(g.home), setup.team(g.away), game_id=game_id,
                     dice=SeededDice(seed, game_id, system.derive_roll), seed=seed,
                     goalies=goalies, season=ctx.season.created.season_id,
                     number=PLAYOFF_NUMBER, absent=out.absent(game_id), notes=ctx.notes)
    if game.end.winner == "none":
        raise RinklogError(f"playoff game {game_id} ended without a winner")
    for goalie in goalies:
        mine[goalie] = mine.get(goalie, 0) + 1
    if system.games_out is not None:
        out.record_outs(game_id, game.outs)
    return g.home if game.end.winner == "home" else g.away


def _advanced(bracket: Bracket | None) -> tuple[tuple[str, ...], ...]:
    """Per round, the teams that went on: its series' winners and its byes."""
    if bracket is None:
        return ()
    return tuple(tuple(r.byes) + tuple(s.winner for s in r.series if s.winner)
                 for r in bracket.rounds)


def _picks(season: OddsSeason, order: list[str], playoff_teams: tuple[str, ...],
           run_seed: str) -> tuple[str, ...]:
    """The lottery's picks (rule 31), first pick first: as drawn, or drawn with the
    run's dice from its final standings (the playoff teams of its bracket, else rule 9's
    six); none when every team is in the playoffs."""
    if season.drawn_picks is not None:
        return season.drawn_picks
    playoffs = list(playoff_teams) if playoff_teams else order[:DRAFT_TEAMS]
    if not lottery_entries(order, playoffs):
        return ()
    drawn = run_lottery(order, playoffs, season.previous_first,
                        seeded_lottery_roll(run_seed, LOTTERY_ID))
    return tuple(d.team for d in sorted(drawn.draws, key=lambda d: d.pick))
