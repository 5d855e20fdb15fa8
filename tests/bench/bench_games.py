"""`make bench`: simulate 100 seeded games into a fresh database, re-check them all.

Prints games/s and events/s for simulation (including the SQLite append) and for
re-running every decision (replay/audit). With ``--play RULESET`` it times the rules
engine alone instead: seeded games played with ``play_game`` and no store, CPU ms a game,
best of three (docs/benchmarks.md); ``--play matrix`` times a Matrix Hockey season of the
text's twelve teams, CPU ms a game played. With ``--engines`` it does that for every
system twice, in fresh processes, on the pure-Python engine (RINKLOG_PURE=1) and on the
compiled one (setup.py), and prints the speed-up. Run: `make bench` or
`.venv/bin/python tests/bench/bench_games.py [GAMES] [--play RULESET | --engines]` (RULESET: bones,
faceoff2008, dicehockey or matrix).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: setups, engine_digest

from setups import setup_for, simulate  # noqa: E402

import engine  # noqa: E402
from engine.dice import SeededDice  # noqa: E402
from engine.systems import system_of  # noqa: E402
from replay.games.game_streams import load_inputs, open_store, play_game, read_game  # noqa: E402
from replay.games.refold import recheck  # noqa: E402
from replay.systems import kit_for  # noqa: E402

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
    print(machine())
    print(f"simulate+store: {games} games in {sim:.2f}s = {games / sim:.1f} games/s, "
          f"{events / sim:,.0f} events/s ({events / games:.0f} events/game, "
          f"{1000 * sim / games:.1f} ms/game)")
    print(f"read+re-check:  {events / audit:,.0f} events/s")


def machine() -> str:
    return (f"machine: {platform.machine()} {platform.processor() or ''} {platform.node()}, "
            f"{os.cpu_count()} cores, python {platform.python_version()}, engine "
            f"{'compiled' if engine.BUILD.compiled else 'pure'} ({engine.BUILD.why})")


def play_matrix(seasons: int, rounds: int = 3) -> None:
    """Play ``seasons`` seeded seasons of the example league in memory, ``rounds`` times;
    print the best CPU time a game played (GamePlayed)."""
    from engine_digest import matrix_season_events

    from events.matrix import GamePlayed

    best, games = float("inf"), 0
    for _ in range(rounds):
        start, games = time.process_time(), 0
        for n in range(seasons):
            games += sum(isinstance(e, GamePlayed) for e in matrix_season_events(f"bench-{n}"))
        best = min(best, time.process_time() - start)
    print(machine())
    print(f"play matrix: {seasons} seasons, {games // seasons} games/season, "
          f"{1000 * best / games:.2f} ms/game (CPU, best of {rounds})")


ENGINE_BENCH = (("bones", 1), ("faceoff2008", 1), ("dicehockey", 1), ("matrix", 10))


def engines(games: int, baseline: bool = True, turns: int = 3) -> None:
    """Every system's play, pure and compiled, each in a fresh process; CPU ms a game. With
    ``baseline``, beside main's compiled engine when issue 35 was filed (tests/bench/
    baseline.py), and issue 35's goals: at most 2 ms a game compiled, 3x faster than it.
    This machine's CPU time a game moves by half from one minute to the next, so the
    compiled engine and the baseline take ``turns`` turns each, one after the other, and
    each keeps its best."""
    print(machine())
    if not engine.compiled_modules():
        print("engines: no compiled modules installed (the build found no C compiler, or "
              "`make uncompile`): only the pure engine to time")
    compare = baseline
    if baseline:
        from baseline import ISSUE_35_BASELINE, BaselineError, baseline_play_ms
        try:
            baseline_play_ms("matrix", 1)  # built here (once) and checked compiled
        except BaselineError as err:
            print(f"engines: {err}: no baseline to compare with")
            compare = False
    print(f"{'play':<12} {'pure ms/game':>13} {'compiled ms/game':>17} {'speed-up':>9}"
          + (f" {'baseline ' + ISSUE_35_BASELINE[:7]:>17} {'faster':>7}" if compare else ""))
    verdicts = []
    for ruleset, divide in ENGINE_BENCH:
        n = max(1, games // divide)
        pure = _play_ms(ruleset, n, "1")
        compiled = before = float("inf")
        for _ in range(turns if compare else 1):
            compiled = min(compiled, _play_ms(ruleset, n, "0"))
            if compare:
                before = min(before, baseline_play_ms(ruleset, n))
        row = f"{ruleset:<12} {pure:>13.2f} {compiled:>17.2f} {pure / compiled:>8.2f}x"
        if compare:
            faster = before / compiled
            row += f" {before:>17.2f} {faster:>6.2f}x"
            if ruleset != "matrix":  # the issue's goal is a game of the three dice systems
                ok = compiled <= 2.0 and faster >= 3.0
                verdicts.append(f"  {ruleset}: {compiled:.2f} ms, {faster:.2f}x: " + (
                    "met" if ok else f"NOT met: {max(0.0, compiled - 2.0):.2f} ms over 2 ms, "
                    f"{max(0.0, 3.0 - faster):.2f}x short of 3x"))
        print(row)
    if verdicts:
        print("goals (issue 35): the compiled engine at most 2 ms of CPU a game and at least "
              "3x faster than the baseline, in the same run:")
        print("\n".join(verdicts))


def _play_ms(ruleset: str, games: int, pure: str) -> float:
    """CPU ms a game of ``--play ruleset`` in a fresh process, pure ("1") or compiled."""
    done = subprocess.run([sys.executable, __file__, str(games), "--play", ruleset],
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "RINKLOG_PURE": pure})
    if pure == "0" and "engine compiled" not in done.stdout:
        return float("nan")
    return float(done.stdout.split(" ms/game")[0].rsplit(" ", 1)[1])


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
    print(machine())
    print(f"play {ruleset}: {games} games, {events / games:.0f} events/game, "
          f"{1000 * best / games:.2f} ms/game (CPU, best of {rounds})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=100, help="games (default 100)")
    parser.add_argument("--play", metavar="RULESET", help="time play alone, no store: bones, "
                        "faceoff2008, dicehockey or matrix (GAMES seasons)")
    parser.add_argument("--engines", action="store_true",
                        help="every system's play, pure and compiled (GAMES games each), "
                        "beside issue 35's baseline build (tests/bench/baseline.py)")
    parser.add_argument("--no-baseline", action="store_true",
                        help="with --engines: no baseline build (it takes minutes once)")
    args = parser.parse_args()
    if args.engines:
        engines(args.games, baseline=not args.no_baseline)
    elif args.play == "matrix":
        play_matrix(args.games)
    elif args.play:
        play_only(args.games, args.play)
    else:
        main(args.games)
