"""`make bench`: rebuild every stored projection for 100 simulated games; print events/s
beside the raw speed of reading and decoding the same streams with nothing folded (CPU
time, best of three each, in the same process): the rebuild's share of that limit.

Run: `make bench` or `.venv/bin/python tests/bench/bench_projections.py [GAMES]`.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: setups
from setups import simulate  # noqa: E402

from projections import store as rm  # noqa: E402
from replay.games.game_streams import open_store  # noqa: E402

TEAMS = ("HFX", "QUE", "WPG", "SAS")


def main(games: int = 100) -> None:
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp) / "bench.db") as store:
        for n in range(games):
            home, away = TEAMS[n % 4], TEAMS[(n + 1 + n // 4) % 4]
            if home == away:
                away = TEAMS[(n + 2) % 4]
            simulate(store, home, away, seed=f"bench-{n}")
        ids = [info.stream for info in store.streams(kind="game")]
        raw = took = float("inf")
        for _ in range(3):
            start = time.process_time()
            for game_id in ids:
                [row.event for row in store.iter_events(game_id)]
            raw = min(raw, time.process_time() - start)
            start = time.process_time()
            events = rm.rebuild(store)
            took = min(took, time.process_time() - start)
    print(f"projections rebuild: {games} games, {events:,} events in {took:.2f}s = "
          f"{events / took:,.0f} events/s ({1000 * took / games:.1f} ms/game); raw read + "
          f"decode {events / raw:,.0f} events/s; rebuild/raw = {raw / took:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
