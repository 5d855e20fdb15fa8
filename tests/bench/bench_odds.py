"""`make bench`: season odds runs per second against the engine-only cost of the same
games (issue 35, docs/odds.md: the goal is at least 0.9 of it), and the wall time of 1,000
runs of dicedemo's second half on 2 workers (issue 35: at most 3 minutes).

A half-played season of a small league (default: dicedemo's eight teams, 8 games each,
rule 9's draft playoffs) is stored once; then ``--runs`` odds runs are played in this
process (one worker), each the rest of the regular season, the playoffs and the lottery.
The engine-only cost is the time spent inside ``play_outcome`` (creating each game,
running the rules over its dice and dropping the events they make, as ``bench_games``
counts a game) during those very runs, so both figures cover the same games; the rest is
the odds' own bookkeeping (standings, bracket, lottery, counting).
With ``--second-half R`` it then stores the whole dicedemo season half played (164 of its
328 games) and times ``R`` odds runs of the rest, the postseason and the lottery on 2 local
workers, wall clock, what `rinklog odds` does: 1,000 runs take 1000 / R of that.
Run: `.venv/bin/python tests/bench/bench_odds.py [--runs N] [--games G] [--second-half R]`.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import tempfile
import time
from pathlib import Path

from replay.games.game_setup import league_setup
from replay.games.game_streams import open_store
from replay.leagues import odds_run
from replay.leagues.league import load_league
from replay.leagues.odds import StoredSeason, odds_season, run_odds
from replay.leagues.runner import run_season
from replay.leagues.schedule import make_schedule

DICEDEMO = Path(__file__).resolve().parents[2] / "fixtures/dicehockey/leagues/dicedemo"


def half_played(tmp: Path, games: int) -> StoredSeason:
    """dicedemo with ``games`` games a team, its first half played and stored."""
    folder = tmp / "bench"
    shutil.copytree(DICEDEMO, folder)
    toml = folder / "league.toml"
    toml.write_text(toml.read_text().replace("games = 82", f"games = {games}")
                    .replace('name = "dicedemo"', 'name = "bench"'))
    loaded = load_league(folder)
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(loaded, "b")]
    with open_store(tmp / "bench.db") as store:
        run_season(store, league_setup(loaded), league="bench", schedule=fixtures,
                   seed="b", divisions=loaded.divisions, games=len(fixtures) // 2,
                   audit=False, projections=())
        return odds_season(store, "bench-b", lambda _name: loaded.playoffs)


def second_half(runs: int) -> None:
    """1,000 odds runs of dicedemo's second half on 2 workers, from ``runs`` of them."""
    with tempfile.TemporaryDirectory() as tmp:
        stored = half_played(Path(tmp), 82)
        start = time.perf_counter()
        results = run_odds(stored.odds, "bench", runs, workers=2)
        took = time.perf_counter() - start
    games = sum(r.games for r in results) / runs
    thousand = 1000 * took / runs
    print(f"odds, dicedemo's second half: {runs} runs of {games:.0f} games on 2 workers in "
          f"{took:.1f}s wall; 1,000 runs {thousand / 60:.1f} min (goal <= 3 min): "
          + ("met" if thousand <= 180 else f"NOT met: {(thousand - 180) / 60:.1f} min over"))


def main(runs: int, games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        stored = half_played(Path(tmp), games)
    engine = {"seconds": 0.0, "games": 0}
    play_outcome = odds_run.play_outcome

    def timed(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - play_outcome's own
        start = time.process_time()
        game = play_outcome(*args, **kwargs)
        engine["seconds"] += time.process_time() - start
        engine["games"] += 1
        return game

    odds_run.play_outcome = timed
    try:
        start = time.process_time()
        results = run_odds(stored.odds, "bench", runs, workers=1)
        total = time.process_time() - start
    finally:
        odds_run.play_outcome = play_outcome
    assert sum(r.games for r in results) == engine["games"]
    print(f"machine: {platform.node()} ({platform.machine()} {platform.processor() or ''}) "
          f"python {platform.python_version()}")
    print(f"odds: {runs} runs of {engine['games'] / runs:.1f} games in {total:.2f}s CPU = "
          f"{runs / total:.2f} runs/s; engine alone on the same games {engine['seconds']:.2f}s "
          f"= {runs / engine['seconds']:.2f} runs/s; ratio {engine['seconds'] / total:.3f} "
          "(goal >= 0.9): " + ("met" if engine["seconds"] / total >= 0.9 else "NOT met"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--games", type=int, default=8, help="a season's games per team")
    parser.add_argument("--second-half", type=int, default=0, metavar="R",
                        help="then R runs of the whole dicedemo's second half on 2 workers")
    args = parser.parse_args()
    main(args.runs, args.games)
    if args.second_half:
        second_half(args.second_half)
