"""`make bench`: a Matrix Hockey season of 84 teams into a fresh database, audited.

1. Open: ``rinklog matrix open --league demo`` (the text's 7 divisions, 84 teams).
2. Play: the demo managers' seeded picks for all 11 weeks, both cups, and the close
   (which opens season 2): events and events/s.
3. Audit: ``audit_all`` of the database (both seasons' streams and the blobs): events/s.
4. Size: the file's bytes per event after ``VACUUM``.

Run: `make bench` or `.venv/bin/python tests/bench/bench_matrix.py [--seed S]`.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from replay.games.game_streams import open_store
from replay.leagues.audit import audit_all
from replay.leagues.matrix import season as library
from replay.leagues.matrix.demo import run_demo_season


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", default="bench", help="league and managers' seed")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rinklog-bench-") as tmp:
        path = Path(tmp) / "matrix.db"
        with open_store(path) as store:
            start = time.perf_counter()
            season_id = library.open_league(store, "demo", args.seed)
            run_demo_season(store, season_id, args.seed)
            took = time.perf_counter() - start
            events = sum(info.version for info in store.streams())
            teams = len(library.load(store, season_id).state.teams)
            print(f"matrix:      {teams} teams, 11 weeks, cups and close: {events:,} events "
                  f"in {took:.2f}s = {events / took:,.0f} events/s")
            start = time.perf_counter()
            reports = audit_all(store)
            took = time.perf_counter() - start
            assert all(r.ok for r in reports), [r.to_json() for r in reports if not r.ok]
            audited = sum(r.events for r in reports)
            print(f"matrix:      audit --all, {audited:,} events in {took:.2f}s = "
                  f"{audited / took:,.0f} events/s")
            store.connection.execute("VACUUM")
        print(f"matrix:      {path.stat().st_size / events:.0f} bytes an event on disk")


if __name__ == "__main__":
    main()
