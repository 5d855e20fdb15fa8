"""`make bench`: a full demo season into a fresh database, against SQLite's limit.

``--league demo`` (the default) is the Hockey Bones demo (1,312 games); ``--league
dicedemo`` the DICE Hockey demo (328 games); any bundled league or league folder works.

1. Season: ``run_season`` (workers play each game, audit it on the rows to be stored and
   fold every read model; this process appends each game and its read models, and the
   standings at the end) into a fresh temporary database: games/s and events/s. With
   ``--no-audit`` the workers do not audit.
2. Limit: the same rows (read back from the season's database, so the same row count per
   game and the same payload and hash sizes) written with plain ``sqlite3``
   ``executemany`` into another fresh database with the same ``events`` schema (integer
   stream and type keys, 32-byte hashes, no prev_hash) and the store's pragmas, one
   transaction per game. Only the writes are timed (wall and CPU). The ratio season/limit
   says how close the season gets to what SQLite alone can store. Then the same again with
   each game's read-model rows too (the same ``rm_`` tables), in its transaction: what the
   writer's CPU a game is held to.
3. Size: bytes an event on disk (the file after ``VACUUM`` / events), every read model
   included.
4. Projections: ``projections.store.rebuild`` over the whole season: events/s.
5. Audit: ``audit_all`` of the database with ``--workers`` processes, what ``rinklog audit
   --all`` runs (chain, decode, blobs, seeded dice, every decision re-checked, the stored
   read models against a rebuild); ``--audit N``: ``audit_game`` in this process on N games
   spread over the season instead.
6. Peak memory: max RSS of this process and of the largest worker child
   (``getrusage``), measured right after the season and again at the end.
7. Where a season's time goes: the CPU of the workers and of the writer during the season
   (``getrusage``; on a machine of K cores the wall time is at least their sum / K), and
   a profile of ``--profile N`` games (default 40) played in this process: each step's
   share of a game (play, encode and chain, audit and its re-run of the rules, read models,
   the writer's inserts).

8. Scaling: ``--curve 1,2,4,8,16`` (the default) prints, from the per-game CPU of the
   workers and of the writer measured in 7, the season's wall time with K workers on a
   machine of at least K + 1 cores (the workers' CPU / K, or the writer's, whichever is
   longer: past that K the single writer is the limit), beside the measured run.
9. Goals (issue 35), each beside the raw SQLite limit of the same run: season/limit, the
   demo season's wall time (the whole 1,312 games on 2 workers), the audit's events/s, the
   writer's CPU a game against ``executemany`` of the same rows (read models included),
   bytes an event; "met", or the gap and the profile that
   explains it (``--audit-profile N`` games audited in this process under cProfile, each
   check's share; the bytes an event by table with ``dbstat``).

Run: `make bench` or `.venv/bin/python tests/bench/bench_season.py [--games N]
[--workers K] [--audit N] [--no-audit] [--league L] [--profile N] [--audit-profile N]
[--curve K,K,...]`.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import resource
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from events.schema import SCHEMA
from projections import store as rm
from projections.store import TABLES
from replay.games.game_setup import league_setup
from replay.games.game_streams import open_store
from replay.leagues.audit import audit_all, audit_game, season_lookup
from replay.leagues.league import load_league
from replay.leagues.runner import run_season, season_game_id
from replay.leagues.schedule import make_schedule
from replay.systems import kit_for

EVENTS_DDL = next(s for s in SCHEMA.split(";") if "TABLE IF NOT EXISTS events" in s)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def peak_mib(who: int) -> float:
    """Max RSS in MiB (``ru_maxrss`` is KiB on Linux, bytes on macOS)."""
    rss = resource.getrusage(who).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


class Limit:
    """Plain executemany of a season's rows: events, seconds (wall), CPU seconds."""

    def __init__(self, events: int, seconds: float, cpu: float) -> None:
        self.events, self.seconds, self.cpu = events, seconds, cpu


def physical_limit(source: sqlite3.Connection, path: Path, game_ids: list[str],
                   read_models: bool = False) -> Limit:
    """Write the season's rows again with plain executemany, one transaction per game
    (with ``read_models``, each game's rows of every ``rm_`` table too, in its
    transaction)."""
    db = sqlite3.connect(str(path), isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "wal_autocheckpoint=4000",
                   "journal_size_limit=67108864"):  # the same as EventStore
        db.execute(f"PRAGMA {pragma}")
    db.execute(EVENTS_DDL)
    tables = []
    if read_models:
        for table in TABLES:
            found = source.execute("SELECT sql FROM sqlite_master WHERE name = ?",
                                   (table,)).fetchone()
            if found:
                db.execute(found[0])
                columns = [r[1] for r in source.execute(f"PRAGMA table_info({table})")]
                tables.append((table, ", ".join(f"[{c}]" for c in columns),
                               ", ".join("?" for _ in columns)))
    events, took, cpu = 0, 0.0, 0.0
    insert = ("INSERT INTO events (stream_key, seq, type_key, payload, hash)"
              " VALUES (?, ?, ?, ?, ?)")
    for game_id in game_ids:
        rows = source.execute(
            "SELECT stream_key, seq, type_key, payload, hash FROM events"
            " WHERE stream_key = (SELECT key FROM streams WHERE stream = ?) ORDER BY seq",
            (game_id,)).fetchall()
        models = [(f"INSERT INTO {table} ({names}) VALUES ({marks})", source.execute(
            f"SELECT {names} FROM {table} WHERE game_id = ? ORDER BY {names}",
            (game_id,)).fetchall()) for table, names, marks in tables]
        start, start_cpu = time.perf_counter(), time.process_time()
        db.execute("BEGIN IMMEDIATE")
        db.executemany(insert, rows)
        for sql, model_rows in models:
            db.executemany(sql, model_rows)
        db.execute("COMMIT")
        took += time.perf_counter() - start
        cpu += time.process_time() - start_cpu
        events += len(rows)
    db.close()
    return Limit(events, took, cpu)


def cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


# what a season game costs, step by step: (label, the function whose cumulative time it is)
STEPS = (
    ("play (the rules and the coach)", "play_game"),
    ("chain the rows (BLAKE2b)", "chain_hashes"),
    ("audit, all of it", "audit_encoded"),
    ("  of which the rules re-run", "recheck"),
    ("  of which the seeded dice", "_dice"),
    ("  of which decoding the rows", "_decode"),
    ("read models folded", "game_rows"),
    ("writer: insert the events", "append_chained"),
    ("writer: insert the read models", "save"),
)


def profile_breakdown(store_path: Path, league, fixtures, charts, ruleset: str,
                      audit: bool) -> None:
    """A season of ``fixtures`` played in this process under cProfile: each step's
    cumulative share (profiling slows every call, so read shares, not times)."""
    with open_store(store_path) as store:
        profile = cProfile.Profile()
        profile.enable()
        run_season(store, league_setup(league), league=league.name, schedule=fixtures,
                   seed="profile", workers=1, audit=audit)
        profile.disable()
    stats = pstats.Stats(profile).stats  # {(file, line, name): (cc, nc, tt, ct, callers)}
    total = sum(tt for _, _, tt, _, _ in stats.values())
    cumulative: dict[str, float] = {}
    for (_, _, name), (_, _, _, ct, _) in stats.items():
        cumulative[name] = max(cumulative.get(name, 0.0), ct)
    print(f"profile:     {len(fixtures)} games in one process under cProfile, share of the "
          "run:")
    for label, name in STEPS:
        print(f"               {label:34} {100 * cumulative.get(name, 0.0) / total:5.1f}%")


# what an audited stream costs, check by check: (label, the functions whose cumulative time
# it is: the first the profile has)
AUDIT_STEPS = (
    ("read the rows (and hash them)", ("stored_rows", "raw_rows")),
    ("hash chain checked", ("_chain",)),
    ("decode the payloads", ("_decode",)),
    ("seeded dice", ("_dice",)),
    ("the rules re-run (engine)", ("recheck",)),
    ("read models folded and compared", ("stored_differences",)),
    ("season and playoffs checks", ("_season_game",)),
)


def audit_profile(store, game_ids: list[str], n: int) -> None:
    """``n`` games spread over the season audited in this process under cProfile (what
    each worker of ``audit --all`` does a stream): each check's cumulative share."""
    sample = [game_ids[i * len(game_ids) // n] for i in range(n)]
    seasons = season_lookup(store)
    audit_game(store, sample[0], seasons=seasons)  # the season stream, audited once
    profile = cProfile.Profile()
    profile.enable()
    for game_id in sample:
        audit_game(store, game_id, seasons=seasons)
    profile.disable()
    stats = pstats.Stats(profile).stats
    total = sum(tt for _, _, tt, _, _ in stats.values())
    cumulative: dict[str, float] = {}
    for (_, _, name), (_, _, _, ct, _) in stats.items():
        cumulative[name] = max(cumulative.get(name, 0.0), ct)
    print(f"audit profile: {n} games audited in this process under cProfile, share:")
    for label, names in AUDIT_STEPS:
        share = next((cumulative[name] for name in names if name in cumulative), 0.0)
        print(f"               {label:34} {100 * share / total:5.1f}%")


def size_breakdown(conn: sqlite3.Connection, events: int) -> dict[str, float]:
    """Bytes an event of each table and index (``dbstat``, the file as it is), the
    ``rm_`` tables together, and what an event row holds on average."""
    by_table = dict(conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"))
    # the hash's bytes over every row: NULL between checkpoints (schema 5) counts as 0
    payload, hashes = conn.execute("SELECT avg(length(payload)),"
                                   " sum(length(hash)) * 1.0 / count(*) FROM events").fetchone()
    read_models = sum(v for k, v in by_table.items() if k.startswith("rm_"))
    table = by_table.get("events", 0)
    return {"events table": table / events, "of which payload": payload or 0.0,
            "of which hash": hashes or 0.0,
            "of which keys, headers, pages": table / events - (payload or 0) - (hashes or 0),
            "rm_ tables (read models)": read_models / events,
            "  rm_toi_player_shifts": by_table.get("rm_toi_player_shifts", 0) / events,
            "everything else (streams, blobs, schema)":
                (sum(by_table.values()) - table - read_models) / events}


def db_bytes(conn: sqlite3.Connection) -> int:
    """The database's size (its pages, the WAL's last versions included)."""
    return conn.execute("PRAGMA page_count").fetchone()[0] * conn.execute(
        "PRAGMA page_size").fetchone()[0]


def verdict(ok: bool, gap: str) -> str:
    return "met" if ok else f"NOT met: {gap}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None,
                        help="play only the first N games of the season (default: all 1,312)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", default="bench", help="season seed (default 'bench')")
    parser.add_argument("--league", default="demo",
                        help="a bundled league or a league folder (default 'demo')")
    parser.add_argument("--audit", type=int, default=0,
                        help="audit N games spread over the season in this process instead "
                        "of audit --all with the workers (default 0)")
    parser.add_argument("--no-audit", action="store_true",
                        help="the season's workers do not audit the games they play")
    parser.add_argument("--profile", type=int, default=40,
                        help="games profiled in this process at the end (0: none)")
    parser.add_argument("--audit-profile", type=int, default=20,
                        help="games whose audit is profiled in this process (0: none)")
    parser.add_argument("--curve", default="1,2,4,8,16",
                        help="worker counts of the scaling curve (default 1,2,4,8,16)")
    args = parser.parse_args(argv)

    league = load_league(args.league)
    ruleset = league.league.ruleset
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(league, args.seed, args.games)]
    charts = kit_for(ruleset).default_charts(league.root)
    games = len(fixtures)
    machine = (f"{platform.platform()}, {os.cpu_count()} cores ({cpu_model()}), "
               f"python {platform.python_version()}, SQLite {sqlite3.sqlite_version}")
    print(f"machine: {machine}")
    with tempfile.TemporaryDirectory(prefix="rinklog-bench-") as tmp:
        with open_store(Path(tmp) / "season.db") as store:
            cpu_parent, cpu_children = (cpu_seconds(resource.RUSAGE_SELF),
                                        cpu_seconds(resource.RUSAGE_CHILDREN))
            run = run_season(store, league_setup(league), league=league.name,
                             schedule=fixtures, seed=args.seed, workers=args.workers,
                             audit=not args.no_audit)
            parent_season = peak_mib(resource.RUSAGE_SELF)
            children_season = peak_mib(resource.RUSAGE_CHILDREN)
            season_rate = run.events / run.seconds
            what = "not audited" if args.no_audit else "each audited"
            print(f"season:      {league.name} ({ruleset}), {games} games ({what}, every "
                  f"read model), {run.events:,} events, {args.workers} workers, "
                  f"{run.seconds:.1f}s = {games / run.seconds:.1f} games/s, "
                  f"{season_rate:,.0f} events/s ({run.events / games:.0f} events/game)")
            writer = cpu_seconds(resource.RUSAGE_SELF) - cpu_parent
            workers = cpu_seconds(resource.RUSAGE_CHILDREN) - cpu_children
            print(f"season CPU:  workers {1000 * workers / games:.1f} ms/game, writer "
                  f"{1000 * writer / games:.1f} ms/game (its season set-up and standings "
                  f"included; from the first game stored to the last "
                  f"{1000 * run.writer_cpu / games:.1f}): {workers + writer:.1f} CPU s over "
                  f"{os.cpu_count()} cores, {run.seconds:.1f}s wall")
            writer = run.writer_cpu  # the writer's CPU a game: what limits the workers

            game_ids = [season_game_id(run.season_id, n) for n, _, _ in fixtures]
            limit = physical_limit(store.connection, Path(tmp) / "limit.db", game_ids)
            assert limit.events == run.events, (limit.events, run.events)
            limit_rate = limit.events / limit.seconds
            print(f"limit:       plain sqlite3 executemany, one transaction per game: "
                  f"{limit.seconds:.2f}s = {games / limit.seconds:,.0f} games/s, "
                  f"{limit_rate:,.0f} events/s; season/limit = {season_rate / limit_rate:.1%}")
            with_models = physical_limit(store.connection, Path(tmp) / "limit-rm.db",
                                         game_ids, read_models=True)
            print(f"limit + rm:  the same with each game's read-model rows: "
                  f"{with_models.seconds:.2f}s wall, {1000 * with_models.cpu / games:.2f} ms "
                  f"CPU/game; the writer's CPU/game is {writer / with_models.cpu:.2f}x that")

            written = db_bytes(store.connection)
            store.connection.execute("VACUUM")
            size = db_bytes(store.connection)
            print(f"size:        {size / 1e6:,.0f} MB = {size / run.events:.1f} bytes an event "
                  f"(after VACUUM, every read model included); as the season wrote it "
                  f"{written / run.events:.1f}")
            parts = size_breakdown(store.connection, run.events)
            print("             " + "; ".join(f"{k} {v:.1f}" for k, v in parts.items()))

            start = time.perf_counter()
            folded = rm.rebuild(store)
            took = time.perf_counter() - start
            print(f"projections: rebuild of {folded:,} events in {took:.1f}s = "
                  f"{folded / took:,.0f} events/s ({1000 * took / games:.1f} ms/game)")

            start = time.perf_counter()
            if 0 < args.audit < games:
                sample = [game_ids[i * games // args.audit] for i in range(args.audit)]
                reports = [audit_game(store, game_id) for game_id in sample]
                which = f"a sample of {len(sample)} games in this process"
            else:
                reports = audit_all(store, workers=args.workers)
                which = f"audit --all, {args.workers} workers"
            took = time.perf_counter() - start
            assert all(r.ok for r in reports), [r.to_json() for r in reports if not r.ok]
            audited = sum(r.events for r in reports)
            audit_rate = audited / took
            print(f"audit:       {which}, {audited:,} events in {took:.1f}s = "
                  f"{audit_rate:,.0f} events/s ({1000 * took / len(reports):.1f} ms/stream)")
            if args.audit_profile:
                audit_profile(store, game_ids, min(args.audit_profile, games))
    print(f"peak RSS:    after the season: parent {parent_season:.0f} MiB, largest worker "
          f"{children_season:.0f} MiB; at the end (after rebuild and audit): parent "
          f"{peak_mib(resource.RUSAGE_SELF):.0f} MiB")

    per_worker, per_writer = workers / games, writer / games
    print(f"scaling:     from the season's CPU: workers {1000 * per_worker:.1f} ms/game, "
          f"writer {1000 * per_writer:.1f} ms/game; with K workers (and a core for the "
          "writer) a season takes max(workers' CPU / K, writer's CPU) a game:")
    for k in (int(c) for c in args.curve.split(",") if c.strip()):
        wall = games * max(per_worker / k, per_writer)
        limited = "the writer" if per_writer >= per_worker / k else "the workers"
        measured = (f"; measured here with {k}: {run.seconds:.1f}s on {os.cpu_count()} cores"
                    if k == args.workers else "")
        print(f"               K={k:<3} {wall:6.1f}s ({limited}; the writer alone allows "
              f"{games * per_writer:.1f}s){measured}")

    season_ratio = season_rate / limit_rate
    writer_ratio = writer / with_models.cpu
    print(f"goals (issue 35), on {machine}:")
    print(f"  season/limit {season_ratio:.2f} (goal >= 0.5): "
          + verdict(season_ratio >= 0.5, f"{0.5 - season_ratio:.2f} short; the season "
                    f"is the workers' {1000 * per_worker:.1f} ms of CPU a game (the profile "
                    "below: the rules played and re-run by the audit) over "
                    f"{os.cpu_count()} cores, the writer's share "
                    f"{per_writer / (per_writer + per_worker):.0%}"))
    if args.league == "demo" and args.games is None and args.workers == 2:
        print(f"  the demo season {run.seconds:.1f}s on 2 workers (goal <= 10 s): " + verdict(
            run.seconds <= 10, f"{run.seconds - 10:.1f}s over: the workers' CPU a game above"))
    if 0 < args.audit < games:
        print(f"  audit: not measured ({which}; the goal is audit --all's)")
    else:
        print(f"  audit --all {audit_rate:,.0f} events/s with {args.workers} workers (goal >= "
              "250,000 on 2 cores): " + verdict(
                  audit_rate >= 250_000, f"{250_000 - audit_rate:,.0f} events/s short; the "
                  "audit profile above: the rules re-run and the read models folded again"))
    over = 1000 * (per_writer - 1.3 * with_models.cpu / games)
    print(f"  writer CPU {1000 * per_writer:.2f} ms/game = {writer_ratio:.3f}x executemany of "
          f"the same rows with read models {1000 * with_models.cpu / games:.2f} (goal <= 1.3x): "
          + verdict(writer_ratio <= 1.3, f"{writer_ratio - 1.3:.3f}x ({over:.2f} ms a game) "
                    "over; what the writer does beyond SQLite's inserting is the game "
                    "received and unpickled, its streams row, the season's record of it, "
                    "the read models' old rows deleted and their checkpoints"))
    print(f"  bytes an event {size / run.events:.1f} (goal <= 150, every read model "
          "included): " + verdict(size / run.events <= 150, f"{size / run.events - 150:.1f} B "
                                   f"over; the events table is {parts['events table']:.1f} "
                                   f"(payload {parts['of which payload']:.1f}, hash "
                                   f"{parts['of which hash']:.1f}), the read models "
                                   f"{parts['rm_ tables (read models)']:.1f} (rm_toi_player_shifts "
                                   f"{parts['  rm_toi_player_shifts']:.1f}); the payload "
                                   "is the hash chain's and the rest is near SQLite's least: "
                                   "schema 5 stores a row's hash at checkpoints only, docs/storage.md"))
    if args.profile:
        with tempfile.TemporaryDirectory(prefix="rinklog-bench-") as tmp:
            profile_breakdown(Path(tmp) / "profile.db", league, fixtures[:args.profile],
                              charts, ruleset, audit=not args.no_audit)


if __name__ == "__main__":
    main()
