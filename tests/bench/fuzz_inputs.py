"""Fuzz rinklog's input channels with many random inputs; report every traceback or hang.

    python tests/bench/fuzz_inputs.py [--inputs 10000] [--seed 1] [--timeout 20]

Inputs are spread over the channels of tests/fuzzing.py: rolls files, rolls typed at the
``sim --rolls -`` and ``play`` prompts, team / chart / league TOML files, command-line
arguments, odd database files, export files (``import``) and receipts (``audit
--receipt``). Each input runs in this process through ``replay.cli.main``; one that raises
out of it, prints a traceback, exits with another code than 0/1/2, or fails without a
one-line ``rinklog: error:`` is a failure, and one still running after ``--timeout``
seconds is a hang. Exit 1 when any input failed or hung.
Not part of ``make test`` (about 10 minutes for 10,000 inputs on 2 cores).
"""

from __future__ import annotations

import argparse
import collections
import random
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/ for fuzzing
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository

import fuzzing  # noqa: E402


class Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise Hang


def channels(game_db: Path) -> dict[str, tuple[float, Callable[[random.Random, Path], object]]]:
    """name -> (share of the inputs, run one random input in a work folder)."""
    team, charts = fuzzing.TEAM.read_bytes(), fuzzing.CHARTS.read_bytes()
    every_command = fuzzing.commands()

    def rolls_file(rng: random.Random, work: Path) -> object:
        lines = [fuzzing.random_roll_line(rng) if rng.random() < 0.3 else
                 " ".join(str(rng.randint(1, 6)) for _ in range(4))
                 for _ in range(rng.randint(0, 30))]
        data = "\n".join(lines).encode()
        return fuzzing.rolls_file(work, fuzzing.mutate(rng, data) if rng.random() < 0.3 else data)

    def prompt_text(rng: random.Random) -> str:
        words = ["", "q", "home C=x", "away G=-", "first away", "pressure", "none"]
        return "\n".join(rng.choice(words) if rng.random() < 0.2 else
                         fuzzing.random_roll_line(rng) for _ in range(rng.randint(0, 12)))

    def toml(kind: str, base: bytes) -> Callable[[random.Random, Path], object]:
        def one(rng: random.Random, work: Path) -> object:
            data = (bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 200)))
                    if rng.random() < 0.1 else fuzzing.mutate(rng, base))
            return fuzzing.toml_file(work, kind, data)
        return one

    honest = fuzzing.honest_export(game_db, game_db.parent)

    def export(rng: random.Random, work: Path) -> object:
        kind = rng.random()
        data = (fuzzing.nested_msgpack(rng.randint(1, 200_000)) if kind < 0.05 else
                bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 200))) if kind < 0.1
                else fuzzing.mutate(rng, honest))
        return fuzzing.export_file(work, data, honest)

    receipt = game_db.parent / "receipt.json"
    assert fuzzing.run(["receipt", "--all", "-o", str(receipt), "--db", str(game_db)]).code == 0
    kept = receipt.read_bytes()

    def receipt_file(rng: random.Random, work: Path) -> object:
        kind = rng.random()
        data = (fuzzing.nested_json(rng.randint(1, 200_000)) if kind < 0.05 else
                bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 200))) if kind < 0.1
                else fuzzing.mutate(rng, kept))
        return fuzzing.receipt_file(work, data, game_db)

    def odd_db(rng: random.Random, work: Path) -> object:
        data = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 64)))
        return fuzzing.odd_database(work, rng.choice(fuzzing.ODD_DATABASES), data,
                                    rng.choice(fuzzing.DB_COMMANDS), game_db)

    return {
        "rolls file": (0.2, rolls_file),
        "rolls prompt": (0.13, lambda rng, work: fuzzing.rolls_prompt(work, prompt_text(rng))),
        "play prompt": (0.08, lambda rng, work: fuzzing.play_prompt(work, prompt_text(rng))),
        "team toml": (0.1, toml("team", team)),
        "chart toml": (0.06, toml("chart", charts)),
        "league toml": (0.08, toml("league", fuzzing.LEAGUE_BASE)),
        "export file": (0.08, export),
        "receipt file": (0.02, receipt_file),
        "cli arguments": (0.14, lambda rng, work: fuzzing.cli_args(
            work, fuzzing.random_argv(rng, work / "args.db", every_command))),
        "odd database": (0.11, odd_db),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--timeout", type=int, default=20, help="seconds before a hang")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    signal.signal(signal.SIGALRM, _alarm)
    runs: collections.Counter[str] = collections.Counter()
    codes: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)
    failures: list[tuple[str, str]] = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rinklog-fuzz-") as tmp:
        base = Path(tmp)
        (base / "game").mkdir()
        game_db = fuzzing.game_database(base / "game")
        table = channels(game_db)
        names = list(table)
        weights = [table[n][0] for n in names]
        work = base / "work"
        for i in range(args.inputs):
            if i % 250 == 0:  # start over: a fresh folder and argument database
                shutil.rmtree(work, ignore_errors=True)
                work.mkdir()
                shutil.copy(game_db, work / "args.db")
            name = rng.choices(names, weights)[0]
            runs[name] += 1
            signal.alarm(args.timeout)
            try:
                outcome = table[name][1](rng, work)
                codes[name][getattr(outcome, "code", -1)] += 1
            except fuzzing.Failure as err:
                failures.append((name, str(err)))
            except Hang:
                failures.append((name, f"hang: still running after {args.timeout}s"))
            finally:
                signal.alarm(0)
            if (i + 1) % 1000 == 0:
                print(f"{i + 1} inputs, {len(failures)} failures, "
                      f"{time.perf_counter() - start:.0f}s", file=sys.stderr)
    seconds = time.perf_counter() - start
    print(f"fuzzed {sum(runs.values())} inputs in {seconds:.0f}s (seed {args.seed!r}): "
          f"{len(failures)} failures")
    for name in names:
        bad = sum(1 for n, _ in failures if n == name)
        exits = ", ".join(f"exit {c}: {n}" for c, n in sorted(codes[name].items()))
        print(f"  {name:<14} {runs[name]:>6} inputs  {bad} failures  ({exits})")
    for name, text in failures[:20]:
        print(f"\n[{name}] {text}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
