"""`make bench`: season odds runs per second against the engine-only cost of the same
games (issue 23, docs/odds.md: the goal is at least 0.8 of it).

A half-played season of a small league (default: dicedemo's eight teams, 8 games each,
rule 9's draft playoffs) is stored once; then ``--runs`` odds runs are played in this
process (one worker), each the rest of the regular season, the playoffs and the lottery.
The engine-only cost is the time spent inside ``play_game`` (creating each game and
running the rules over its dice) during those very runs, so both figures cover the same
games; the rest is the odds' own bookkeeping (standings, bracket, lottery, counting).
Run: `.venv/bin/python tests/bench/bench_odds.py [--runs N] [--games G]`.
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
from replay.leagues.odds import odds_season, run_odds
from replay.leagues.runner import run_season
from replay.leagues.schedule import make_schedule

DICEDEMO = Path(__file__).resolve().parents[2] / "fixtures/dicehockey/leagues/dicedemo"


def main(runs: int, games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench"
        shutil.copytree(DICEDEMO, folder)
        toml = folder / "league.toml"
        toml.write_text(toml.read_text().replace("games = 82", f"games = {games}")
                        .replace('name = "dicedemo"', 'name = "bench"'))
        loaded = load_league(folder)
        fixtures = [(f.number, f.home, f.away) for f in make_schedule(loaded, "b")]
        with open_store(Path(tmp) / "bench.db") as store:
            run_season(store, league_setup(loaded), league="bench", schedule=fixtures,
                       seed="b", divisions=loaded.divisions, games=len(fixtures) // 2,
                       audit=False, projections=())
            stored = odds_season(store, "bench-b", lambda _name: loaded.playoffs)
    engine = {"seconds": 0.0, "games": 0}
    play_game = odds_run.play_game

    def timed(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - play_game's own
        start = time.process_time()
        game = play_game(*args, **kwargs)
        engine["seconds"] += time.process_time() - start
        engine["games"] += 1
        return game

    odds_run.play_game = timed
    try:
        start = time.process_time()
        results = run_odds(stored.odds, "bench", runs, workers=1)
        total = time.process_time() - start
    finally:
        odds_run.play_game = play_game
    assert sum(r.games for r in results) == engine["games"]
    print(f"machine: {platform.node()} ({platform.machine()} {platform.processor() or ''}) "
          f"python {platform.python_version()}")
    print(f"odds: {runs} runs of {engine['games'] / runs:.1f} games in {total:.2f}s CPU = "
          f"{runs / total:.2f} runs/s; engine alone on the same games {engine['seconds']:.2f}s "
          f"= {runs / engine['seconds']:.2f} runs/s; ratio {engine['seconds'] / total:.3f} "
          "(goal >= 0.8)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--games", type=int, default=8, help="a season's games per team")
    args = parser.parse_args()
    main(args.runs, args.games)
