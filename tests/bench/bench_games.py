"""`make bench`: simulate 100 seeded games into a fresh database, re-check them all.

Prints games/s and events/s for simulation (including the SQLite append) and for
re-running every decision (replay/audit). Run: `make bench` or
`.venv/bin/python tests/bench/bench_games.py [GAMES]`.
"""

from __future__ import annotations

import platform
import sys
import tempfile
import time
from pathlib import Path

from replay.tooling.games import load_inputs, open_store, read_game, simulate
from replay.tooling.refold import recheck

TEAMS = ("HFX", "QUE", "WPG", "SAS")


def main(games: int = 100) -> None:
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "bench.db") as store:
        start = time.perf_counter()
        ids, events = [], 0
        for n in range(games):
            home, away = TEAMS[n % 4], TEAMS[(n + 1 + n // 4) % 4]
            if home == away:
                away = TEAMS[(n + 2) % 4]
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


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
