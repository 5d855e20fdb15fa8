"""Issue 32's "done when", checked from outside through the ``rinklog`` command alone: two
season-changing commands started together on one database, a season game played at the
table, and a season game imported.

- **The races.** Each unordered pair of ``season``, ``playoffs``, ``lottery --draw``,
  ``odds --record``, ``play --season`` and ``import`` (a command with itself included),
  ``--trials`` times: a copy of a prepared database, both commands started at the same
  moment (two processes, the order alternating by trial), then ``audit --all``. Each must
  apply (exit 0) or be refused in one line (non-zero, one line on stderr, no traceback),
  and the season must audit clean. Alongside the audit the database's ``event_rows``
  view (docs/storage.md) is read for what the commands said they did: the season
  stream records nothing twice (no event repeated, one opening of the playoffs and of
  the lottery), each recorded game is the stream stored, an odds run that exited 0 is
  recorded, a table game or an import that said "head H" left that head.
- **The table game.** Game 8 of the season played at the table (the dice typed at
  ``play``'s prompt), and a playoff game the bracket made ready: ``audit --all`` and
  ``receipt --season`` succeed right after, with no other command.
- **The imports.** Game 8, played at the table in another copy of the season (and the same
  game simulated), imported into the commissioner's database (the season, game 8 to
  play): accepted, audits clean. Into an empty database, or one holding another season:
  refused in one line naming the season to import first; after importing that season's
  export there, the game is accepted.

The league is the DICE Hockey demo league's eight teams cut to 2 games a team (8 games),
its postseason rule 9's six with two byes played as single games (``series = [1, 1, 1]``)
so that a trial takes seconds. Each pair is played on the database where both commands
mean something: the regular season played whole for ``playoffs``, ``lottery --draw`` and
``odds --record`` among themselves, else the season with game 8 left (``season`` plays it,
``play --season S --game 8`` plays it at the table, ``import`` brings it from elsewhere;
``playoffs`` and ``lottery --draw`` apply there only once another command has finished it).

Run: ``.venv/bin/python tests/check_races.py [--trials 20] [--jitter 0] [--pair A,B]
[--playoff-table] [--keep DIR]``. It prints a table and every failure (commands, exit
codes, stderr, the audit's failing lines) and exits 1 on any; every trial's commands and
output go to ``trials.log`` in ``--keep``. Not collected by pytest (not ``test_*.py``),
not part of ``make test``: 21 pairs of 20 trials take about half an hour on two busy
cores (4 s a trial: three rinklog processes, each a second to start, the audit running
while the next trial races). ``--playoff-table`` adds four pairs: a playoff game at the
table against ``playoffs``, ``lottery --draw``, ``odds --record`` and itself, the
playoffs open.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import re
import select
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "fixtures" / "dicehockey" / "leagues" / "dicedemo"
LEAGUE, SEED = "races", "7"
SEASON = f"{LEAGUE}-{SEED}"
LAST = 8  # the schedule's last game (8 teams, 2 games a team)
GAME = f"{SEASON}-{LAST:04d}"
PLAYOFF_GAME = f"{SEASON}-p1-1-1"
TIMEOUT = 300  # seconds a command may take before it counts as hung
REFUSED = re.compile(r"rinklog: error: season (\S+) changed while this ran \(version (\d+), "
                     r"now (\d+)\): nothing written; run it again")
PROMPT_END = re.compile(r"\]: $")  # click's prompt: "... [status]: "
ONCE = ("SeasonCreated", "postseason.PlayoffsOpened", "postseason.PlayoffsWon",
        "postseason.LotteryOpened", "postseason.LotteryOrderSet")


def rinklog_path() -> str:
    beside = Path(sys.executable).parent / "rinklog"
    return str(beside) if beside.exists() else (shutil.which("rinklog") or "rinklog")


RINKLOG = rinklog_path()


# --- running the command -------------------------------------------------------------------


@dataclass
class Result:
    argv: list[str]
    rc: int | None  # None: killed after TIMEOUT
    out: str
    err: str
    seconds: float = 0.0

    def shown(self) -> str:
        return " ".join(a if a and " " not in a else repr(a) for a in self.argv)


class Started:
    """A rinklog process under way; ``table_dice`` set: a table game, whose prompts are
    answered as a person would (random dice at each roll, enter at each coach prompt)."""

    def __init__(self, argv: list[str], where: Path, table_dice: str | None = None) -> None:
        self.argv, self.began = argv, time.monotonic()
        self.out_file = tempfile.TemporaryFile(dir=where)
        self.err_file = tempfile.TemporaryFile(dir=where)
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if table_dice is None:
            self.proc = subprocess.Popen([RINKLOG, *argv], stdin=subprocess.DEVNULL,
                                         stdout=self.out_file, stderr=self.err_file, env=env)
            self.thread = None
            return
        self.proc = subprocess.Popen([RINKLOG, *argv], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.err_file, env=env)
        self.table_out = b""
        self.thread = threading.Thread(target=self._at_the_table, args=(table_dice,))
        self.thread.start()

    def _at_the_table(self, seed: str) -> None:
        rng, fd = random.Random(seed), self.proc.stdout.fileno()  # type: ignore[union-attr]
        deadline = self.began + TIMEOUT
        while True:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                self.proc.kill()
                return
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return
            self.table_out += chunk
            last = self.table_out.rsplit(b"\n", 1)[-1].decode(errors="replace")
            if not PROMPT_END.search(last):
                continue
            answer = (f"{rng.randrange(10)} {rng.randrange(10)}" if last.startswith("roll ")
                      else "n" if "[y/n]" in last else "")  # enter: the coach as shown
            try:
                self.proc.stdin.write(f"{answer}\n".encode())  # type: ignore[union-attr]
                self.proc.stdin.flush()  # type: ignore[union-attr]
            except BrokenPipeError:
                return

    def finish(self) -> Result:
        try:
            rc: int | None = self.proc.wait(max(1.0, self.began + TIMEOUT - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            rc = None
        if self.thread is not None:
            self.thread.join()
            out = self.table_out.decode(errors="replace")
        else:
            self.out_file.seek(0)
            out = self.out_file.read().decode(errors="replace")
        self.err_file.seek(0)
        err = self.err_file.read().decode(errors="replace")
        self.out_file.close()
        self.err_file.close()
        return Result(self.argv, rc, out, err, time.monotonic() - self.began)


def run(argv: list[str], where: Path, table_dice: str | None = None) -> Result:
    return Started(argv, where, table_dice).finish()


def verdict(result: Result) -> str:
    """``applied``, ``refused`` (one line) or ``other: why``."""
    lines = [line for line in result.err.splitlines() if line.strip()]
    if result.rc is None:
        return f"other: no exit after {TIMEOUT} s (killed)"
    if "Traceback" in result.err:
        return f"other: a traceback (exit {result.rc})"
    if result.rc == 0:
        if result.argv[0] == "play" and "game over:" not in result.out:
            return "other: exit 0, the table game not over"
        return "applied"
    if len(lines) != 1:
        return f"other: exit {result.rc} with {len(lines)} lines on stderr"
    return "refused"


def refusal(result: Result, db: Path) -> str:
    """The refusal's line, its versions and paths generalised (for counting alike ones)."""
    line = result.err.strip().replace(str(db), "DB")
    return re.sub(r"\(version \d+, now \d+\)", "(version V, now N)", line)


# --- what the database holds (read only, beside the audit) ---------------------------------


def season_rows(db: Path) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """The season stream's (type, payload) rows, and every stream's head hash."""
    if not db.exists():
        return [], {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        rows = conn.execute("SELECT type, CAST(payload AS TEXT) FROM event_rows "
                            "WHERE stream = ? ORDER BY seq", (SEASON,)).fetchall()
        heads = dict(conn.execute("SELECT stream, head_hash FROM streams").fetchall())
    conn.close()
    return rows, heads


def said_head(result: Result, game: str) -> str | None:
    """The head a table game or an import printed for ``game`` ("head 4fe6f97e…")."""
    found = re.search(rf"{re.escape(game)}\b.*?head ([0-9a-f]{{8}})", result.out)
    return found.group(1) if found else None


def game_written(result: Result) -> str | None:
    """The game an ``import`` or a ``play --season`` writes (and prints the head of)."""
    if result.argv[0] == "import":
        return GAME
    if result.argv[0] != "play":
        return None
    game = result.argv[result.argv.index("--game") + 1]
    return f"{SEASON}-{int(game):04d}" if game.isdigit() else game


def invariants(db: Path, results: list[Result], odds_before: int) -> list[str]:
    """What the commands said they did, against the season stream they left."""
    rows, heads = season_rows(db)
    problems = [f"{tag} recorded {n} times" for tag, n in Counter(t for t, _ in rows).items()
                if tag in ONCE and n > 1]
    problems += [f"{tag} recorded twice, the same bytes: {payload[:100]}"
                 for (tag, payload), n in Counter(rows).items() if n > 1]
    recorded = {}  # game id -> (mode, head) of its SeasonGameRecorded
    for tag, payload in rows:
        if tag == "SeasonGameRecorded":
            _, game, _, mode, head = json.loads(payload)[:5]
            if heads.get(game) != head:
                problems.append(f"{game}: recorded head {head[:8]}, stored {heads.get(game)}")
            recorded[game] = (mode, head)
    applied = [r for r in results if verdict(r) == "applied"]
    odds = sum(tag == "odds.OddsRecorded" for tag, _ in rows)
    ran = sum(r.argv[0] == "odds" for r in applied)
    if odds != odds_before + ran:
        problems.append(f"{odds - odds_before} OddsRecorded, {ran} odds --record exited 0")
    for r in applied:
        game = game_written(r)
        if game is not None:
            head = said_head(r, game)
            if head is None or not heads.get(game, "").startswith(head) \
                    or not recorded.get(game, ("", ""))[1].startswith(head):
                problems.append(f"`{r.shown()}` said head {head}: stored "
                                f"{heads.get(game, 'nothing')[:8]}, recorded {recorded.get(game)}")
            elif r.argv[0] == "play" and recorded[game][0] != "table":
                problems.append(f"{game}, played at the table, recorded as {recorded[game][0]}")
        if r.argv[0] in ("season", "import") and GAME not in recorded:
            problems.append(f"`{r.shown()}` exited 0 and game {LAST} is not recorded")
        if r.argv[0] == "lottery" and not any(t == "postseason.LotteryOrderSet" for t, _ in rows):
            problems.append("lottery --draw exited 0 and no LotteryOrderSet is recorded")
        if r.argv[0] == "playoffs" and not any(x.argv[0] == "play" for x in results) \
                and not any(t == "postseason.PlayoffsWon" for t, _ in rows):
            problems.append("playoffs exited 0 and no PlayoffsWon is recorded")
    return problems


def odds_count(db: Path) -> int:
    return sum(tag == "odds.OddsRecorded" for tag, _ in season_rows(db)[0])


# --- the league and its databases -------------------------------------------------------


@dataclass
class Setup:
    where: Path
    league: Path
    one_left: Path  # games 1-7 stored, game 8 to play
    complete: Path  # the regular season whole
    opened: Path  # the regular season whole, the playoffs opened (--ready)
    table_export: Path  # game 8 played at the table in another copy, exported
    sim_export: Path  # game 8 simulated, exported
    checks: list[tuple[str, bool, str]] = field(default_factory=list)


def copy_db(source: Path, target: Path) -> Path:
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", f"{target}{suffix}")
    return target


def must(result: Result, what: str) -> Result:
    if result.rc != 0:
        raise SystemExit(f"setup failed: {what}: `rinklog {result.shown()}` exit {result.rc}\n"
                         f"{result.err}{result.out[-2000:]}")
    return result


def make_league(where: Path) -> Path:
    league = where / LEAGUE
    shutil.copytree(DEMO, league)
    toml = league / "league.toml"
    text = toml.read_text()
    for old, new in (("games = 82", "games = 2"), ('name = "dicedemo"', f'name = "{LEAGUE}"'),
                     ('format = "draft"', "teams = 6\nbyes = 2\nseries = [1, 1, 1]")):
        assert old in text, f"{toml}: no {old!r} to change"
        text = text.replace(old, new)
    toml.write_text(text)
    return league


def build(where: Path) -> Setup:
    league = make_league(where)
    one_left = where / "one_left.db"
    must(run(["season", "--league", str(league), "--seed", SEED, "--games", str(LAST - 1),
              "--workers", "1", "--db", str(one_left)], where), "7 games of the season")
    complete = copy_db(one_left, where / "complete.db")
    must(run(["season", "--league", str(league), "--seed", SEED, "--workers", "1",
              "--db", str(complete)], where), "the rest of the season")
    sim_export = where / "game8-simulated.rinklog"
    must(run(["export", GAME, "-o", str(sim_export), "--db", str(complete)], where), "export")
    opened = copy_db(complete, where / "opened.db")
    ready = must(run(["playoffs", SEASON, "--ready", "--league", str(league), "--db",
                      str(opened)], where), "playoffs --ready")
    assert PLAYOFF_GAME in ready.out, f"playoffs --ready lists no {PLAYOFF_GAME}: {ready.out}"
    setup = Setup(where, league, one_left, complete, opened, where / "game8-table.rinklog",
                  sim_export)
    elsewhere = copy_db(one_left, where / "elsewhere.db")
    played = run(["play", "--season", SEASON, "--game", str(LAST), "--db", str(elsewhere)],
                 where, table_dice="elsewhere")
    setup.checks += right_after_the_table(setup, played, elsewhere, "game 8")
    must(run(["export", GAME, "-o", str(setup.table_export), "--db", str(elsewhere)], where),
         "export of the table game")
    return setup


# --- the table game and the imports -----------------------------------------------------


def right_after_the_table(setup: Setup, played: Result, db: Path,
                          what: str) -> list[tuple[str, bool, str]]:
    """A table game, then at once audit --all and receipt --season (issue 32 done-when 2)."""
    name = f"table game ({what}): `{played.shown()}`"
    if verdict(played) != "applied":
        return [(name, False, f"exit {played.rc}: {played.err.strip()}\n{played.out[-800:]}")]
    audit = run(["audit", "--all", "--workers", "1", "--db", str(db)], setup.where)
    receipt = run(["receipt", "--season", SEASON, "--db", str(db)], setup.where)
    return [(f"{name}, then `audit --all`", audit.rc == 0, audit_failure(audit)),
            (f"{name}, then `receipt --season {SEASON}`", receipt.rc == 0,
             f"exit {receipt.rc}: {receipt.err.strip()}")]


def playoff_table_check(setup: Setup) -> list[tuple[str, bool, str]]:
    db = copy_db(setup.opened, setup.where / "playoff_table.db")
    played = run(["play", "--season", SEASON, "--game", PLAYOFF_GAME, "--db", str(db)],
                 setup.where, table_dice="playoff")
    return right_after_the_table(setup, played, db, "a playoff game")


def import_checks(setup: Setup) -> list[tuple[str, bool, str]]:
    """Issue 32 done-when 4: into the commissioner's database accepted and audited clean;
    into an empty one (or another season's) refused in one line naming the season."""
    checks = []
    for export in (setup.table_export, setup.sim_export):
        db = copy_db(setup.one_left, setup.where / f"commissioner-{export.stem}.db")
        imported = run(["import", str(export), "--db", str(db)], setup.where)
        name = f"`import {export.name}` into the commissioner's database (game 8 to play)"
        checks.append((name, verdict(imported) == "applied",
                       f"exit {imported.rc}: {imported.err.strip()}"))
        if imported.rc == 0:
            audit = run(["audit", "--all", "--workers", "1", "--db", str(db)], setup.where)
            checks.append((f"{name}, then `audit --all`", audit.rc == 0, audit_failure(audit)))
            checks += [(f"{name}: {p}", False, "") for p in invariants(db, [imported], 0)]
    other = setup.where / "other-season.db"
    must(run(["season", "--league", str(setup.league), "--seed", "8", "--games", "1",
              "--workers", "1", "--db", str(other)], setup.where), "another season")
    for label, db in (("an empty database", setup.where / "empty.db"),
                      ("a database holding another season", other)):
        refused = run(["import", str(setup.table_export), "--db", str(db)], setup.where)
        line = refused.err.strip()
        ok = (verdict(refused) == "refused" and SEASON in line and "import" in line
              and GAME not in season_rows(db)[1])
        checks.append((f"`import {setup.table_export.name}` into {label}: refused in one "
                       f"line naming {SEASON}", ok, f"exit {refused.rc}: {line}"))
    season_file = setup.where / "season.rinklog"
    must(run(["export", SEASON, "-o", str(season_file), "--db", str(setup.one_left)],
             setup.where), "the season's export")
    db = setup.where / "empty.db"
    first = run(["import", str(season_file), "--db", str(db)], setup.where)
    then = run(["import", str(setup.table_export), "--db", str(db)], setup.where)
    audit = run(["audit", "--all", "--workers", "1", "--db", str(db)], setup.where)
    checks.append(("after the refusal's advice (the season's export imported there first), "
                   "the game is accepted and audits clean",
                   first.rc == 0 and then.rc == 0 and audit.rc == 0,
                   f"season import exit {first.rc}: {first.err.strip()}; game import exit "
                   f"{then.rc}: {then.err.strip()}; {audit_failure(audit)}"))
    return checks


def audit_failure(audit: Result) -> str:
    """The audit's lines that are not ``ok`` (all of stderr), for a report."""
    bad = [line for line in audit.out.splitlines() if ": ok (" not in line]
    return f"audit exit {audit.rc}: " + "\n".join(bad + audit.err.strip().splitlines())[:3000]


# --- the races ---------------------------------------------------------------------------


COMMANDS = ("season", "playoffs", "lottery --draw", "odds --record", "play --season", "import")
POSTSEASON = {"playoffs", "lottery --draw", "odds --record"}
# --playoff-table: a playoff game at the table, on the database whose playoffs are open
PLAYOFF_TABLE = "play --season (playoff)"
PLAYOFF_PAIRS = [(command, PLAYOFF_TABLE) for command in sorted(POSTSEASON)] + [
    (PLAYOFF_TABLE, PLAYOFF_TABLE)]


def argv_of(command: str, setup: Setup, db: Path, slot: int) -> tuple[list[str], str | None]:
    """The command's arguments (and a table game's dice seed); ``slot`` 0 or 1 in a pair."""
    dbs = ["--db", str(db)]
    league = ["--league", str(setup.league)]  # the season names it "races": not bundled
    return {
        "season": (["season", *league, "--seed", SEED, "--workers", "1", *dbs], None),
        "playoffs": (["playoffs", SEASON, "--workers", "1", *league, *dbs], None),
        "lottery --draw": (["lottery", SEASON, "--draw", *league, *dbs], None),
        "odds --record": (["odds", SEASON, "--runs", "2", "--seed", f"race{slot}",
                           "--workers", "1", "--record", *league, *dbs], None),
        "play --season": (["play", "--season", SEASON, "--game", str(LAST), *dbs],
                          f"dice{slot}-{db.parent.name}"),
        "import": (["import", str(setup.table_export), *dbs], None),
        PLAYOFF_TABLE: (["play", "--season", SEASON, "--game", PLAYOFF_GAME, *dbs],
                        f"dice{slot}-{db.parent.name}"),
    }[command]


def base_of(pair: tuple[str, str], setup: Setup) -> tuple[str, Path]:
    if PLAYOFF_TABLE in pair:
        return "playoffs open", setup.opened
    if set(pair) <= POSTSEASON:
        return "regular season whole", setup.complete
    return "game 8 to play", setup.one_left


@dataclass
class Trial:
    number: int
    db: Path
    results: list[Result]
    problems: list[str]
    delay: float
    audit: Result = field(init=False)  # once the audit, left running meanwhile, exits

    @property
    def failed(self) -> bool:
        return (self.audit.rc != 0 or bool(self.problems)
                or any(verdict(r).startswith("other") for r in self.results))


def one_trial(pair: tuple[str, str], setup: Setup, number: int, jitter: float,
              rng: random.Random) -> tuple[Trial, Started]:
    """The pair started together on a copy of its base database; the audit is started
    once both have exited and left running (the next trial races meanwhile)."""
    base = base_of(pair, setup)[1]
    slug = re.sub(r"\W+", "_", f"{pair[0]} x {pair[1]}").strip("_")
    where = setup.where / "trials" / f"{slug}-{number}"
    where.mkdir(parents=True)
    db = copy_db(base, where / "s.db")
    odds_before = odds_count(db)
    order = [0, 1] if number % 2 == 0 else [1, 0]  # who is started first alternates
    delay = rng.uniform(0, jitter) if jitter else 0.0
    started: dict[int, Started] = {}
    for i, slot in enumerate(order):
        if i and delay:
            time.sleep(delay)
        argv, dice = argv_of(pair[slot], setup, db, slot)
        started[slot] = Started(argv, where, table_dice=dice)
    results = [started[0].finish(), started[1].finish()]
    audit = Started(["audit", "--all", "--workers", "1", "--db", str(db)], where)
    return Trial(number, db, results, invariants(db, results, odds_before), delay), audit


def race(pair: tuple[str, str], setup: Setup, trials: int, jitter: float) -> list[Trial]:
    rng = random.Random(f"{pair}")
    done: list[Trial] = []
    auditing: tuple[Trial, Started] | None = None
    for number in range(1, trials + 1):
        trial, audit = one_trial(pair, setup, number, jitter, rng)
        if auditing is not None:
            auditing[0].audit = auditing[1].finish()
        done.append(trial)
        auditing = (trial, audit)
    if auditing is not None:
        auditing[0].audit = auditing[1].finish()
    for trial in done:
        log_trial(setup.where / "trials.log", pair, trial)
    return done


def log_trial(log: Path, pair: tuple[str, str], trial: Trial) -> None:
    """Every trial's commands, exits, stderr and last lines, for reading afterwards."""
    lines = [f"== {pair[0]} x {pair[1]} trial {trial.number}: {outcome(pair, trial)}; "
             f"audit exit {trial.audit.rc}; invariants {trial.problems or 'ok'}"]
    for r in trial.results:
        lines += [f"  $ rinklog {r.shown()}  -> exit {r.rc} in {r.seconds:.1f}s"]
        lines += [f"    err: {line}" for line in r.err.rstrip().splitlines()[-20:]]
        lines += [f"    out: {line}" for line in r.out.rstrip().splitlines()[-2:]]
    with log.open("a") as f:
        f.write("\n".join(lines) + "\n")


# --- the report --------------------------------------------------------------------------


def outcome(pair: tuple[str, str], trial: Trial) -> str:
    words = []
    for command, result in zip(pair, trial.results, strict=True):
        v = verdict(result)
        kind = ("refused (race)" if REFUSED.fullmatch(result.err.strip()) else "refused (other)"
                ) if v == "refused" else v.split(":")[0]
        words.append(f"{command} {kind}")
    return " / ".join(words)


def pair_summary(pair: tuple[str, str], base: str, trials: list[Trial]) -> list[str]:
    lines = [f"{pair[0]} x {pair[1]}  [{base}]  {len(trials)} trials, "
             f"{sum(t.failed for t in trials)} failed, "
             f"{sum(t.audit.rc != 0 for t in trials)} audits failed, "
             f"{sum(bool(t.problems) for t in trials)} with broken invariants, "
             f"longest {max(max(r.seconds for r in t.results) for t in trials):.1f}s"]
    for what, n in Counter(outcome(pair, t) for t in trials).most_common():
        lines.append(f"    {n:3d}x {what}")
    refusals = Counter((r.argv[0], refusal(r, t.db)) for t in trials for r in t.results
                       if verdict(r) == "refused")
    for (command, line), n in refusals.most_common():
        lines.append(f"         {command} refused {n}x: {line}")
    return lines


def failure_report(pair: tuple[str, str], trial: Trial) -> list[str]:
    first, then = (0, 1) if trial.number % 2 == 0 else (1, 0)  # as one_trial started them
    lines = [f"FAILED {pair[0]} x {pair[1]}, trial {trial.number} ({trial.db}): "
             f"{pair[first]} started first, {pair[then]} {trial.delay * 1000:.0f} ms later"]
    for result in trial.results:
        lines.append(f"  $ rinklog {result.shown()}")
        lines.append(f"    exit {result.rc} after {result.seconds:.1f}s: {verdict(result)}")
        lines += [f"    stderr: {line}" for line in result.err.rstrip().splitlines()[-40:]]
        lines += [f"    stdout: {line}" for line in result.out.rstrip().splitlines()[-3:]]
    if trial.audit.rc != 0:
        lines.append(f"  $ rinklog {trial.audit.shown()}")
        lines += [f"    {line}" for line in audit_failure(trial.audit).splitlines()]
    lines += [f"  invariant: {p}" for p in trial.problems]
    return lines


def table(rows: list[tuple[tuple[str, str], str, list[Trial]]]) -> list[str]:
    head = f"{'pair':48} {'base':22} {'trials':>6} {'applied':>8} {'refused':>8} {'other':>6} " \
           f"{'audit!':>6} {'invar!':>6}"
    out = [head, "-" * len(head)]
    for pair, base, trials in rows:
        verdicts = Counter(verdict(r).split(":")[0] for t in trials for r in t.results)
        out.append(f"{pair[0] + ' x ' + pair[1]:48} {base:22} {len(trials):6d} "
                   f"{verdicts['applied']:8d} {verdicts['refused']:8d} {verdicts['other']:6d} "
                   f"{sum(t.audit.rc != 0 for t in trials):6d} "
                   f"{sum(bool(t.problems) for t in trials):6d}")
    return out


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=20, help="trials a pair (default 20)")
    parser.add_argument("--jitter", type=float, default=0.0,
                        help="start the second command up to this many seconds after the "
                        "first, at random (default 0: the same moment)")
    parser.add_argument("--pair", action="append", default=[],
                        help="only this pair, e.g. 'playoffs,lottery --draw' (repeatable)")
    parser.add_argument("--playoff-table", action="store_true",
                        help="also race a playoff game played at the table against playoffs, "
                        "lottery --draw, odds --record and itself (the playoffs open)")
    parser.add_argument("--keep", type=Path, help="a folder to keep every database in")
    return parser.parse_args()


def chosen_pairs(wanted: list[str], playoff_table: bool) -> list[tuple[str, str]]:
    pairs = list(itertools.combinations_with_replacement(COMMANDS, 2))
    if not wanted:
        return pairs + (PLAYOFF_PAIRS if playoff_table else [])
    pairs += PLAYOFF_PAIRS
    picked = [tuple(w.split(",")) for w in wanted]
    unknown = [p for p in picked if p not in pairs and p[::-1] not in pairs]
    if unknown:
        raise SystemExit(f"--pair {unknown}: pairs of {', '.join(COMMANDS)}")
    return [p if p in pairs else p[::-1] for p in picked]  # type: ignore[misc]


def main() -> int:
    args = parse_args()
    began = time.monotonic()
    where = args.keep or Path(tempfile.mkdtemp(prefix="rinklog-races-"))
    where.mkdir(parents=True, exist_ok=True)
    if any(where.iterdir()):
        raise SystemExit(f"--keep {where}: not empty (give a new folder)")
    setup = build(where)
    setup.checks += playoff_table_check(setup) + import_checks(setup)
    print(f"league {setup.league} (8 games, playoffs 6 teams, single games), season {SEASON}; "
          f"setup and single checks {time.monotonic() - began:.0f}s")
    for name, ok, detail in setup.checks:
        print(f"{'ok    ' if ok else 'FAILED'} {name}" + ("" if ok else f"\n    {detail}"))
    rows, failures = [], []
    for pair in chosen_pairs(args.pair, args.playoff_table):
        base = base_of(pair, setup)[0]
        trials = race(pair, setup, args.trials, args.jitter)
        rows.append((pair, base, trials))
        print("\n".join(pair_summary(pair, base, trials)), flush=True)
        failures += [line for t in trials if t.failed for line in failure_report(pair, t)]
    print()
    print("\n".join(table(rows)))
    print("\n".join(failures))
    failed = bool(failures) or not all(ok for _, ok, _ in setup.checks)
    print(f"{'FAILED' if failed else 'ok'}: {len(rows)} pairs x {args.trials} trials "
          f"(jitter {args.jitter}s) in {time.monotonic() - began:.0f}s")
    if args.keep is None:
        shutil.rmtree(where, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
