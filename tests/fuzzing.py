"""Fuzzing rinklog's input channels: what one input is, how it is fed in, what counts as a
failure. Shared by tests/test_fuzz_inputs.py (hypothesis, a few dozen inputs a channel)
and tests/bench/fuzz_inputs.py (random inputs by the ten thousand).

Every channel feeds one input through ``replay.cli.main`` in this process, as the
``rinklog`` command would, and :func:`check` raises :class:`Failure` unless the command
ended as a user would want: exit 0, 1 or 2, no traceback, and an exit 1 or 2 that explains
itself in one ``rinklog: error: ...`` line (commands that report findings, such as
``audit`` or ``cards validate``, may exit 1 with their report instead, and a command
group given no command prints its help with exit 2). An exception that
escapes ``main`` is a failure too: it would have been a traceback.

Channels: rolls files (``sim --rolls FILE``), rolls typed at a prompt (``sim --rolls -``,
``play``), team / chart / league TOML files, command-line arguments, odd database files,
export files (``import FILE``), receipts (``audit --receipt FILE``), lottery rolls
(``lottery --draw --rolls FILE``), numeric options at their limits.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import random
import shutil
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from replay.cli.app import main

ROOT = Path(__file__).resolve().parent.parent
TEAM = ROOT / "fixtures" / "bones" / "teams" / "hfx.toml"
CHARTS = ROOT / "fixtures" / "bones" / "charts" / "standard.toml"
LEAGUE = ROOT / "fixtures" / "bones" / "leagues" / "demo" / "league.toml"
LEAGUE_BASE = b"""name = "fuzz"
games = 2

[[conferences]]
name = "North"

[[conferences.divisions]]
name = "Coast"
teams = ["HFX", "QUE"]
"""
REPORTS = {"audit", "cards", "diff", "league", "replay"}  # may exit 1 with a report

# Characters that make trouble: digits of other scripts, superscripts, fullwidth forms,
# separators, quotes, brackets, control characters, a surrogate-free emoji.
TRICKY = "0123456789 \t,#-+=.:[]{}\"'\\\n²³¹٣۳߃३১੩௩౩๓໓༣၃៣᠓３⁶₆ⅷ①\u00a0\u2028\x00\x1b🏒é"


_serial = itertools.count(1)


def _fresh() -> str:
    """A name never used before in this process (hypothesis reseeds ``random``)."""
    return f"{os.getpid()}-{next(_serial)}"


class Failure(AssertionError):
    """A channel input that rinklog did not handle as a user error."""


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str


def run(argv: list[str], stdin: str | bytes | None = None) -> Outcome:
    """``rinklog ARGV`` through ``main``; an escaping exception becomes a Failure."""
    with CliRunner().isolation(input=stdin) as (out, err, _):
        try:
            code = main(argv)
        except BaseException as exc:  # noqa: BLE001 - anything here is what we look for
            raise Failure(f"rinklog {argv!r}: {type(exc).__name__}: {exc}") from exc
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        outcome = Outcome(code, out.getvalue().decode(errors="replace"),
                          err.getvalue().decode(errors="replace"))
    check(argv, outcome)
    return outcome


def check(argv: list[str], o: Outcome) -> None:
    where = f"rinklog {argv!r} -> exit {o.code}\nstdout: {o.out[-500:]!r}\nstderr: {o.err[-500:]!r}"
    if o.code not in (0, 1, 2):
        raise Failure(f"unexpected exit code: {where}")
    if "Traceback" in o.err or "Traceback" in o.out:
        raise Failure(f"traceback: {where}")
    if o.code == 0 or (o.code == 1 and argv and argv[0] in REPORTS):
        return
    if o.code == 2 and o.err.startswith("Usage:") and "Commands:" in o.err:
        return  # `rinklog` or `rinklog cards` with no command: the help, as click does
    last = o.err.rstrip("\n").rsplit("\n", 1)[-1]
    if not last.startswith("rinklog: error: "):
        raise Failure(f"exit {o.code} without a 'rinklog: error:' line: {where}")
    if o.code == 2 and len(o.err.strip().splitlines()) != 1:
        raise Failure(f"a usage error of more than one line: {where}")


# --- channels ---------------------------------------------------------------------------

def rolls_file(work: Path, data: bytes) -> Outcome:
    path = work / f"rolls-{_fresh()}.txt"
    path.write_bytes(data)
    return run(["sim", "--home", "HFX", "--away", "QUE", "--rolls", str(path),
                "--db", str(work / "rolls.db")])


def rolls_prompt(work: Path, text: str) -> Outcome:
    return run(["sim", "--home", "HFX", "--away", "QUE", "--rolls", "-",
                "--db", str(work / "prompt.db")], stdin=text)


def play_prompt(work: Path, text: str) -> Outcome:
    """``play`` reads rolls, line changes, tactics and shootout orders from the prompt."""
    db = work / f"play-{_fresh()}.db"
    return run(["play", "--home", "HFX", "--away", "QUE", "--db", str(db)], stdin=text)


def toml_file(work: Path, kind: str, data: bytes) -> Outcome:
    """A team, chart pack or league.toml file: validated, then played with (``sim`` with
    ``--league``, or with ``RINKLOG_FIXTURES`` naming a root that holds the file)."""
    tag = f"{kind}-{_fresh()}"
    sim = ["sim", "--home", "HFX", "--away", "QUE", "--seed", tag, "--db", str(work / "toml.db")]
    if kind == "league":
        folder = work / tag
        (folder / "teams").mkdir(parents=True)
        for team in ("hfx", "que"):
            shutil.copy(ROOT / "fixtures" / "bones" / "teams" / f"{team}.toml",
                        folder / "teams" / f"{team}.toml")
        (folder / "league.toml").write_bytes(data)
        run(["league", "check", "--league", str(folder)])
        return run([*sim, "--league", str(folder)])
    root = work / tag / "bones"
    (root / "teams").mkdir(parents=True)
    (root / "charts").mkdir()
    shutil.copy(ROOT / "fixtures" / "bones" / "teams" / "que.toml", root / "teams" / "que.toml")
    if kind == "team":
        target = root / "teams" / "hfx.toml"
        shutil.copy(CHARTS, root / "charts" / "standard.toml")
    else:
        target = root / "charts" / "standard.toml"
        shutil.copy(TEAM, root / "teams" / "hfx.toml")
    target.write_bytes(data)
    run(["cards", "validate", str(target)])
    saved = os.environ.get("RINKLOG_FIXTURES")
    os.environ["RINKLOG_FIXTURES"] = str(root.parent)
    try:
        return run(sim)
    finally:
        if saved is None:
            del os.environ["RINKLOG_FIXTURES"]
        else:
            os.environ["RINKLOG_FIXTURES"] = saved


def cli_args(work: Path, argv: list[str]) -> Outcome:
    """Any arguments (mostly ``--db`` a database holding a game and a branch of it), run
    in ``work``. Seasons and calibrations are held to one game on one worker (the last
    --games/--workers wins)."""
    if argv and argv[0] in ("season", "calibrate"):
        argv = [*argv, "--games", "1", "--workers", "1"]
    with contextlib.chdir(work):  # files the command writes (exports, cards, rinklog.db)
        return run(argv, stdin="")


ODD_DATABASES = ("empty", "bytes", "sqlite-header", "foreign", "folder", "flipped",
                 "truncated", "bad-version")
DB_COMMANDS = (["games"], ["games", "--json"], ["events", "HFX-QUE-1"],
               ["scoresheet", "HFX-QUE-1"], ["stats", "--all"], ["standings"], ["leaders"],
               ["audit", "--all"], ["replay", "HFX-QUE-1"], ["projections", "update"],
               ["projections", "rebuild"], ["toi", "HFX-QUE-1"], ["diff", "HFX-QUE-1", "X"],
               ["explain", "HFX-QUE-1", "5"], ["sim", "--home", "HFX", "--away", "QUE",
                                                "--seed", "9"])


def odd_database(work: Path, kind: str, data: bytes, command: list[str], game_db: Path) -> Outcome:
    """A command pointed at a database file that is not a sound rinklog database. A
    foreign SQLite file must come out byte for byte as it went in."""
    path = work / f"odd-{_fresh()}.db"
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "bytes":
        path.write_bytes(data)
    elif kind == "sqlite-header":
        path.write_bytes(b"SQLite format 3\x00" + data)
    elif kind == "foreign":
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE recipes (name TEXT, body BLOB)")
            conn.execute("INSERT INTO recipes VALUES (?, ?)", ("soup", data))
        conn.close()
    elif kind == "folder":
        path.mkdir()
    elif kind in ("flipped", "truncated"):
        raw = bytearray(game_db.read_bytes())
        if kind == "truncated":
            raw = raw[: int.from_bytes(data[:4].ljust(4, b"\0"), "big") % len(raw)]
        else:
            for i, b in enumerate(data[:16]):
                at = (int.from_bytes(data[i:i + 4].ljust(4, b"\0"), "big") * 7919) % len(raw)
                raw[at] ^= b or 1
        path.write_bytes(bytes(raw))
    elif kind == "bad-version":
        shutil.copy(game_db, path)
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE rinklog_meta SET value = ? WHERE key = 'schema_version'",
                         (data.decode("latin-1"),))
        conn.close()
    before = path.read_bytes() if kind == "foreign" else None
    outcome = run([*command, "--db", str(path)])
    if before is not None and path.read_bytes() != before:
        raise Failure(f"rinklog {command!r} changed a foreign SQLite file")
    return outcome


def export_file(work: Path, data: bytes, honest: bytes) -> Outcome:
    """``rinklog import`` of a (changed) export file into a fresh database: anything but
    the honest file must be refused, and a refused file writes no game."""
    path, db = work / f"export-{_fresh()}.rinklog", work / f"import-{_fresh()}.db"
    path.write_bytes(data)
    outcome = run(["import", str(path), "--db", str(db)])
    if outcome.code == 0 and data != honest:
        raise Failure(f"import accepted a changed export file ({len(data)} bytes)")
    if outcome.code != 0 and db.exists():
        with sqlite3.connect(db) as conn:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            rows = conn.execute("SELECT count(*) FROM events").fetchone()[0] \
                if "events" in tables else 0
        conn.close()
        if rows:
            raise Failure("a refused export file left events in the database")
    return outcome


def receipt_file(work: Path, data: bytes, db: Path) -> Outcome:
    """``rinklog audit --receipt FILE``: a (changed) receipt of games or of a season."""
    path = work / f"receipt-{_fresh()}.json"
    path.write_bytes(data)
    return run(["audit", "--receipt", str(path), "--db", str(db)])


def lottery_rolls(work: Path, text: str, db: Path, season: str) -> Outcome:
    """``rinklog lottery SEASON --draw --rolls FILE`` on a copy of a season's database."""
    path, copy = work / f"lottery-{_fresh()}.txt", work / f"lottery-{_fresh()}.db"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    shutil.copy(db, copy)
    return run(["lottery", season, "--draw", "--rolls", str(path), "--db", str(copy)])


# Every whole-number option and argument of the CLI, in a command that reaches it
# (``{season}``: a season of ``{league}``, a league of a few games; ``{game}`` one of its
# games), the value at ``N``. tests/test_fuzz_inputs.py checks that this names every one there is.
NUMERIC = {
    ("league serve", "--port"): ["league", "serve", "--port", "N"],  # never served: refused
    ("penalties", "--at"): ["penalties", "{game}", "--at", "N"],
    ("audit", "--workers"): ["audit", "{game}", "--workers", "N"],
    ("audit", "--odds-runs"): ["audit", "{season}", "--odds-runs", "N"],
    ("audit", "--verify"): ["audit", "--all", "--verify", "N"],
    ("audit", "--verify-seed"): ["audit", "--all", "--verify-seed", "N"],
    ("branch", "--at"): ["branch", "{game}", "--at", "N", "--game-id", "b-N"],
    ("explain", "seq"): ["explain", "{game}", "--", "N"],
    ("explain", "--goal"): ["explain", "{game}", "--goal", "N"],
    ("explain", "--penalty"): ["explain", "{game}", "--penalty", "N"],
    ("season", "--games"): ["season", "--league", "{league}", "--seed", "N", "--games", "N",
                            "--workers", "1"],
    ("season", "--workers"): ["season", "--league", "{league}", "--seed", "N", "--games", "1",
                              "--workers", "N"],
    ("season", "--verify"): ["season", "--league", "{league}", "--seed", "N", "--games", "1",
                             "--workers", "1", "--verify", "N"],
    ("season", "--verify-seed"): ["season", "--league", "{league}", "--seed", "N", "--games",
                                  "1", "--workers", "1", "--verify", "1", "--verify-seed", "N"],
    ("leaders", "--top"): ["leaders", "--season", "{season}", "--top", "N"],
    ("calibrate", "--games"): ["calibrate", "--league", "{league}", "--games", "N"],
    ("playoffs", "--workers"): ["playoffs", "{season}", "--workers", "N", "--ready"],
    ("odds", "--runs"): ["odds", "{season}", "--runs", "N"],
    ("odds", "--workers"): ["odds", "{season}", "--runs", "1", "--workers", "N"],
    ("odds", "--replay"): ["odds", "{season}", "--replay", "N", "--out", "odds-N.db"],
    ("serve", "--port"): ["serve", "--port", "N"],
    ("matrix picks", "--week"): ["matrix", "picks", "{season}", "picks-N.txt", "--week", "N"],
    ("matrix play", "--week"): ["matrix", "play", "{season}", "--week", "N"],
    ("matrix results", "--week"): ["matrix", "results", "{season}", "--week", "N"],
}
LIMITS = ("0", "-1", str(2**63), "9" * 20)  # 2**63: past SQLite's INTEGER


def numeric_option(work: Path, key: tuple[str, str], value: str, db: Path, season: str,
                   league: Path) -> Outcome:
    """One whole-number option at a limit, against a copy of a season's database."""
    copy = work / f"numeric-{_fresh()}.db"
    shutil.copy(db, copy)
    names = {"{season}": season, "{game}": f"{season}-0001", "{league}": str(league)}
    argv = [names.get(a, a) for a in NUMERIC[key]]
    argv = [value if a == "N" else a.replace("-N", f"-{_fresh()}") for a in argv]
    with contextlib.chdir(work):
        return run([*argv, "--db", str(copy)], stdin="")


def nested_json(depth: int, inside: bytes = b"") -> bytes:
    """A JSON document of ``depth`` nested arrays (a recursion bomb), optionally as the
    value of a field of an object that starts as ``inside`` does."""
    bomb = b"[" * depth + b"]" * depth
    return b"{" + inside + b'"x":' + bomb + b"}" if inside else bomb


def honest_export(game_db: Path, work: Path) -> bytes:
    """The export file of the branch in :func:`game_database`."""
    path = work / f"honest-{_fresh()}.rinklog"
    outcome = run(["export", "HFX-QUE-1-b1", "-o", str(path), "--db", str(game_db)])
    assert outcome.code == 0, outcome
    return path.read_bytes()


def nested_msgpack(depth: int) -> bytes:
    """A msgpack document of ``depth`` nested one-element arrays (a recursion bomb)."""
    return b"\x91" * depth + b"\x01"


def game_database(work: Path) -> Path:
    """A database with one seeded game (HFX-QUE-1) and a branch of it (HFX-QUE-1-b1),
    checkpointed into one file so a copy of the file is the whole database."""
    db = work / "game.db"
    for argv in (["sim", "--home", "HFX", "--away", "QUE", "--seed", "1"],
                 ["branch", "HFX-QUE-1", "--at", "300", "--seed", "x"]):
        outcome = run([*argv, "--db", str(db)])
        assert outcome.code == 0, outcome
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return db


# --- random inputs for the standalone fuzzer ----------------------------------------------

def mutate(rng: random.Random, base: bytes) -> bytes:
    """``base`` with a few random edits: spans replaced by tricky text or raw bytes,
    truncation, duplication."""
    data = bytearray(base)
    for _ in range(rng.randint(1, 4)):
        what = rng.random()
        at = rng.randrange(len(data) + 1)
        end = min(len(data), at + rng.randint(0, 40))
        if what < 0.5:
            junk = "".join(rng.choice(TRICKY) for _ in range(rng.randint(0, 12))).encode()
        elif what < 0.7:
            junk = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 8)))
        elif what < 0.85:
            data = data[:at]
            continue
        else:
            junk = bytes(data[at:end]) * 2
        data[at:end] = junk
    return bytes(data)


def random_roll_line(rng: random.Random) -> str:
    if rng.random() < 0.5:
        dice = [str(rng.randint(0, 7)) for _ in range(rng.randint(3, 5))]
        if rng.random() < 0.5:
            dice[rng.randrange(len(dice))] = rng.choice("²³٣۳३３⁶₆①ⅷ")
        return rng.choice((" ", ",", "  ", "\t", ", ")).join(dice)
    return "".join(rng.choice(TRICKY) for _ in range(rng.randint(0, 16)))


VALUES = ("HFX", "QUE", "hfx", "SAS", "HFX-QUE-1", "HFX-QUE-1-b1", "1", "0", "-1", "2", "400",
          "99999999", "demo", "", "-", "x.db", "game.db", "division", "conference", "league",
          "out", "HFX:Halifax:0.5", "A:B:9", "²", "٣", "nan", "../..", "/", "\x00", "demo-1",
          "fixtures/bones", "--json", "--help")


SERVERS = {"serve"}  # run until stopped: tests/test_datasette.py serves and stops them


def commands() -> list[tuple[list[str], list[tuple[list[str], bool]], int]]:
    """Every command: its path, its options (names, is a flag) and how many arguments."""
    import typer.main

    from replay.cli.app import app

    found = []

    def walk(group: object, prefix: list[str]) -> None:
        for name, command in getattr(group, "commands", {}).items():
            if hasattr(command, "commands"):
                walk(command, [*prefix, name])
                continue
            if name in SERVERS:
                continue
            options = [(list(p.opts), bool(getattr(p, "is_flag", False)))
                       for p in command.params if p.param_type_name == "option"]
            arguments = sum(1 for p in command.params if p.param_type_name == "argument")
            found.append(([*prefix, name], options, arguments))

    walk(typer.main.get_command(app), [])
    return found


def random_argv(rng: random.Random, game_db: Path,
                table: list[tuple[list[str], list[tuple[list[str], bool]], int]]) -> list[str]:
    """A command with some of its own options and arguments, values drawn from game ids,
    numbers, paths and tricky text; now and then a stray word."""
    path, options, arguments = rng.choice(table)
    argv = list(path)
    for _ in range(arguments + rng.choice((-1, 0, 0, 0, 1))):
        argv.append(rng.choice(VALUES))
    for names, flag in rng.sample(options, rng.randint(0, len(options))):
        if names == ["--db"]:
            continue
        argv.append(rng.choice(names))
        if not flag:
            argv.append(rng.choice(VALUES) if rng.random() < 0.85 else
                        "".join(rng.choice(TRICKY) for _ in range(rng.randint(0, 8))))
    if rng.random() < 0.05:
        argv.insert(rng.randrange(len(argv) + 1), rng.choice(VALUES))
    if rng.random() < 0.9:
        argv += ["--db", str(game_db)]
    return argv
