"""`make bench`: simulate 100 seeded games into a fresh database, re-check them all.

Prints games/s and events/s for simulation (including the SQLite append) and for
re-running every decision (replay/audit). With ``--play RULESET`` it times the rules
engine alone instead: seeded games played with ``play_game`` and no store, CPU ms a game,
best of three (README Benchmarks). Run: `make bench` or
`.venv/bin/python tests/bench/bench_games.py [GAMES] [--play bones|dicehockey]`.
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from pathlib import Path

from setups import setup_for, simulate

from engine.dice import SeededDice
from engine.systems import system_of
from replay.systems import kit_for
from replay.tooling.game_streams import load_inputs, open_store, play_game, read_game
from replay.tooling.refold import recheck

TEAMS = ("HFX", "QUE", "WPG", "SAS")
PLAY_TEAMS = {"bones": TEAMS, "dicehockey": ("ALD", "BRK", "CDV", "DRF", "ELM", "FRN", "GLN",
                                              "HTH")}


def pairing(teams: tuple[str, ...], n: int) -> tuple[str, str]:
    """Home and away of the n-th bench game: every team meets every other in turn."""
    home, away = teams[n % len(teams)], teams[(n + 1 + n // len(teams)) % len(teams)]
    if home == away:
        away = teams[(n + 2) % len(teams)]
    return home, away


def main(games: int = 100) -> None:
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "bench.db") as store:
        start = time.perf_counter()
        ids, events = [], 0
        for n in range(games):
            home, away = pairing(TEAMS, n)
            result = simulate(store, home, away, seed=f"bench-{n}")
            ids.append(result.game_id)
            events += result.events
        sim = time.perf_counter() - start
        start = time.perf_counter()
        for game_id in ids:
            stream = read_game(store, game_id)
            assert recheck(stream, *load_inputs(store, stream[0])) is None
        audit = time.perf_counter() - start
    print(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}")
    print(f"simulate+store: {games} games in {sim:.2f}s = {games / sim:.1f} games/s, "
          f"{events / sim:,.0f} events/s ({events / games:.0f} events/game, "
          f"{1000 * sim / games:.1f} ms/game)")
    print(f"read+re-check:  {events / audit:,.0f} events/s")


def play_only(games: int, ruleset: str, rounds: int = 3) -> None:
    """Play ``games`` seeded games of ``ruleset`` in memory, ``rounds`` times; print the
    best CPU time a game (other work on the machine shows in wall time, less in CPU)."""
    kit = kit_for(ruleset)
    teams = PLAY_TEAMS[system_of(ruleset).name]
    cards = {team: kit.find_team(team, None) for team in teams}
    charts = kit.default_charts(None)
    derive = system_of(ruleset).derive_roll
    best, events = float("inf"), 0
    for _ in range(rounds):
        start, events = time.process_time(), 0
        for n in range(games):
            home, away = pairing(teams, n)
            game_id, seed = f"{home}-{away}-bench-{n}", f"bench-{n}"
            setup = setup_for(cards[home], cards[away], charts, ruleset=ruleset)
            game = play_game(setup, cards[home], cards[away], game_id=game_id, seed=seed,
                             dice=SeededDice(seed, game_id, derive))
            events += len(game.events)
        best = min(best, time.process_time() - start)
    print(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}")
    print(f"play {ruleset}: {games} games, {events / games:.0f} events/game, "
          f"{1000 * best / games:.2f} ms/game (CPU, best of {rounds})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=100, help="games (default 100)")
    parser.add_argument("--play", metavar="RULESET",
                        help="time play alone, no store: bones, faceoff2008 or dicehockey")
    args = parser.parse_args()
    if args.play:
        play_only(args.games, args.play)
    else:
        main(args.games)
