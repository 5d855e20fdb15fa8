"""The ``rinklog`` command line: a thin shell over the library.

Each command opens the store (``--db PATH``, default ``$RINKLOG_DB`` else ``./rinklog.db``),
calls one library function and prints. :func:`main` turns every error a user can cause
into one line ``rinklog: error: <message>`` on stderr and exit code 1.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer

from engine.systems import system_of
from events.errors import RinklogError, RollError
from projections.scoresheet import Scoresheet, clock
from projections.systems import game_read_models
from replay.cli.common import (
    CliError,
    CsvOption,
    DbOption,
    OptionalRuleOption,
    RulesetOption,
    dump_csv,
    game_options,
    one_format,
)
from replay.cli.common import dump as _dump
from replay.cli.common import out as _out
from replay.cli.common import read_store as _read_store
from replay.cli.common import table as _table
from replay.cli.projections import register as register_projections
from replay.cli.reports import register as register_reports
from replay.cli.season import register as register_seasons
from replay.cli.tooling import register as register_tooling
from replay.data.validate import validate_path
from replay.leagues.league import load_league
from replay.systems import KITS, kit_for
from replay.tooling.games import open_store, read_game, read_stream, season_kinds, simulate

app = typer.Typer(
    name="rinklog",
    help="rinklog: an event-sourced engine for Hockey Bones.\n\n"
    "Example: rinklog sim --home HFX --away QUE --seed 2026",
    rich_markup_mode=None,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
cards_app = typer.Typer(
    help="Player and team cards: validate or generate.\n\n"
    "Example: rinklog cards validate fixtures/bones/teams",
    rich_markup_mode=None,
    no_args_is_help=True,
)
app.add_typer(cards_app, name="cards")
for _kit in KITS.values():  # each system's own commands: rinklog <system> ..., and cards
    if _kit.cli is not None:
        app.add_typer(_kit.cli(), name=_kit.system)
    if _kit.cards_cli is not None:
        cards_app.add_typer(_kit.cards_cli())


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("rinklog")
        except PackageNotFoundError:
            number = "unknown (not installed)"
        typer.echo(f"rinklog {number}")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option(
        "--version", help="print the version and exit", callback=_show_version,
        is_eager=True)] = False) -> None:
    """rinklog: an event-sourced engine for Hockey Bones.

    Example: rinklog sim --home HFX --away QUE --seed 2026
    """

_json_line = msgspec.json.Encoder()



# --- teams, sim, games -------------------------------------------------------------------

LeagueTeams = Annotated[str | None, typer.Option(
    "--league", help="take the teams from a league: a folder with league.toml and teams/, "
    "or a bundled league's name (demo); default: the fixture teams")]


def _league_root(league: str | None) -> Path | None:
    """The folder of a league, checked whole (league.toml and every team) before use."""
    return None if league is None else load_league(league).root


def _overtime_skaters(league: str | None) -> int:
    """5 (the text's overtime, 6.00), or what the league's league.toml sets."""
    return 5 if league is None else load_league(league).league.overtime_skaters


def _late_penalty_house_rule(league: str | None, flag: bool) -> bool:
    """The house rule when asked for, or when the league's league.toml plays it."""
    return flag or (league is not None and load_league(league).league.late_penalty_house_rule)


@app.command()
def teams(
    league: LeagueTeams = None,
    ruleset: RulesetOption = "bones",
    as_json: Annotated[bool, typer.Option("--json", help="a JSON list of {id, name}")] = False,
) -> None:
    """List the teams in the fixtures (or a league), one id per line.

    Example: rinklog teams --league demo --json
    """
    found = kit_for(ruleset).list_teams(_league_root(league))
    if as_json:
        _dump([{"id": t.id, "name": t.name} for t in found])
    else:
        for team in found:
            _out(team.id)


def _coach_from(path: Path | None, ruleset: str) -> Any:
    """The default coach a coach file sets up (docs/coach.md); None: the plain default."""
    if path is None:
        return None
    kit = kit_for(ruleset)
    return kit.season_coach(kit.coach_setup_file(path))


class PromptDice:
    """Dice a person rolls at the table and types in, read as the game system reads them;
    a typo is asked again, not kept."""

    def __init__(self, ruleset: str) -> None:
        self.parse = system_of(ruleset).parse_roll
        self.how = kit_for(ruleset).roll_prompt

    def roll(self, n: int) -> Any:
        while True:
            try:
                text = typer.prompt(f"roll {n} ({self.how})", err=True)
            except typer.Abort:  # end of input or Ctrl-C: the game is stored only whole
                typer.echo("", err=True)  # end the prompt's line
                raise RollError(f"-: input ended at roll {n}, before the game ended; "
                                "no game stored (use rinklog play to stop and resume)") from None
            try:
                return self.parse(text)
            except RollError as err:
                typer.echo(f"  {err}", err=True)


@app.command()
def sim(
    home: Annotated[str, typer.Option("--home", help="home team id, e.g. HFX")],
    away: Annotated[str, typer.Option("--away", help="away team id, e.g. QUE")],
    seed: Annotated[str | None, typer.Option("--seed", help="seed for seeded dice")] = None,
    rolls: Annotated[Path | None, typer.Option(
        "--rolls", help="file of typed rolls, one 'blue white white red' per line; "
        "'-' to type each roll at a prompt")] = None,
    game_id: Annotated[str | None, typer.Option(
        "--game-id", help="stream id (default derived from the inputs)")] = None,
    coach: Annotated[Path | None, typer.Option(
        "--coach", help="coach file (docs/coach.md): pulling the goalie, tactics, shooters")] = None,
    late_penalty_house_rule: Annotated[bool, typer.Option(
        "--late-penalty-house-rule", help="the quick reference's house rule: in the last five "
        "minutes of the third and in overtime an X is a penalty only on red 1")] = False,
    league: LeagueTeams = None,
    ruleset: RulesetOption = "bones",
    optional_rule: OptionalRuleOption = None,
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
) -> None:
    """Simulate a whole game and store it as one stream.

    Example: rinklog sim --home HFX --away QUE --seed 2026 --db rinklog.db
    (league teams: rinklog sim --league demo --home ALD --away BRK --seed 1)
    (FaceOff 2008: add --ruleset faceoff2008 [--optional-rule fatigue ...])
    """
    options = game_options(optional_rule, ruleset)
    if (seed is None) == (rolls is None):
        raise CliError("give exactly one of --seed S or --rolls FILE")
    lines = None
    prompt = PromptDice(ruleset) if rolls is not None and str(rolls) == "-" else None
    if rolls is not None and prompt is None:
        try:
            lines = rolls.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as err:
            raise CliError(f"{rolls}: cannot read rolls: {getattr(err, 'strerror', '') or err}"
                           ) from None
    with open_store(db) as store:
        result = simulate(store, home, away, seed=seed, rolls=lines,
                          rolls_origin=str(rolls) if rolls else "rolls", game_id=game_id,
                          dice=prompt, coach=_coach_from(coach, ruleset),
                          late_penalty_house_rule=_late_penalty_house_rule(
                              league, late_penalty_house_rule),
                          fixtures=_league_root(league),
                          overtime_skaters=_overtime_skaters(league),
                          ruleset=ruleset, **options)
    if as_json:
        _dump(result.to_json())
    else:
        _out(f"{result.home} {result.home_goals} - {result.away_goals} {result.away} "
             f"({result.decided})  game {result.game_id}  {result.events} events  "
             f"head {result.head_hash[:8]}…")


@app.command()
def games(
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="a JSON list of games")] = False,
    ids: Annotated[bool, typer.Option("--ids", help="only the game ids, one per line")] = False,
    as_csv: CsvOption = False,
) -> None:
    """List the games in the database, with branches' parents and games in progress.

    Example: rinklog games --db rinklog.db --ids
    """
    one_format(as_json, as_csv)
    with _read_store(db) as store:
        rows = [{"game_id": s.stream, "home": s.meta.get("home"), "away": s.meta.get("away"),
                 "score": {"home": s.meta.get("home_goals"), "away": s.meta.get("away_goals")},
                 "decided": s.meta.get("decided"), "events": s.version,
                 "head_hash": s.head_hash, "parent": s.meta.get("parent"),
                 "parent_seq": s.meta.get("parent_seq"),
                 "in_progress": "decided" not in s.meta} for s in store.streams(kind="game")]
        rows += [{"game_id": s.stream, "kind": s.kind, "league": s.meta.get("league"),
                  "season": s.meta.get("season_number"), "weeks_played": s.meta.get("weeks_played"),
                  "games": s.meta.get("games"), "events": s.version, "head_hash": s.head_hash,
                  "in_progress": not s.meta.get("closed", False)}
                 for kind in sorted(season_kinds()) for s in store.streams(kind=kind)]
    if as_json:
        _dump(rows)
        return
    if as_csv:
        dump_csv(rows)
        return
    for r in rows:
        if ids:
            _out(r["game_id"])
        elif "kind" in r:
            _out(f"{r['game_id']:<24} {r['league']} season {r['season']}: week "
                 f"{r['weeks_played']} played, {r['games']} games "
                 f"({'in progress' if r['in_progress'] else 'closed'})  {r['events']} events  "
                 f"head {r['head_hash'][:8]}…")
        else:
            status = "in progress" if r["in_progress"] else r["decided"]
            lineage = (f"  branch of {r['parent']} at {r['parent_seq']}"
                       if r["parent"] is not None else "")
            _out(f"{r['game_id']:<24} {r['home']} {r['score']['home']} - {r['score']['away']} "
                 f"{r['away']} ({status})  {r['events']} events  "
                 f"head {r['head_hash'][:8]}…{lineage}")


# --- events, scoresheet -----------------------------------------------------------------

def _compact(value: Any) -> str:
    if isinstance(value, str):
        return value if value and " " not in value else json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool | int | float) or value is None:
        return json.dumps(value)
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@app.command()
def events(
    game: Annotated[str, typer.Argument(help="game id (see rinklog games --ids)")],
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
) -> None:
    """Print a game's events, one per line: seq type key=value...

    Example: rinklog events HFX-QUE-2026 --json
    """
    with _read_store(db) as store:
        read_stream(store, game)  # UnknownGame with the ids there are
        for row in store.iter_events(game):
            payload = msgspec.to_builtins(row.event)
            if as_json:
                sys.stdout.write(_json_line.encode(
                    {"seq": row.seq, "type": row.type, "hash": row.hash, **payload}
                ).decode() + "\n")
            else:
                fields = " ".join(f"{k}={_compact(v)}" for k, v in payload.items()
                                  if k != "type")
                _out(f"{row.seq} {row.type} {fields}".rstrip())


def _period_name(n: int) -> str:
    """1, 2, 3, OT, then a playoff game's 2OT, 3OT... (DICE Hockey 13, ruling R-6.00c)."""
    return str(n) if n <= 3 else "OT" if n == 4 else f"{n - 3}OT"


def render_scoresheet(sheet: Scoresheet, show_time: Callable[[int], str] = clock) -> str:
    """The scoresheet as aligned plain text (names, not ids); ``show_time`` shows a goalie's
    time on ice in the game system's unit."""
    h, a = sheet.home, sheet.away
    out = [f"{h.name} ({h.team}) {h.goals} - {a.goals} {a.name} ({a.team})  "
           f"[{sheet.decided or 'in progress'}]", f"game {sheet.game_id}", ""]
    periods = [_period_name(i + 1) for i in range(len(h.shots))]
    so = ["SO"] if sheet.decided == "SO" else []
    out.append("Score by period")
    out += _table(["Team", *periods, *so, "T"],
                  [[t.team, *t.goals_by_period,
                    *([t.goals - sum(t.goals_by_period)] if so else []), t.goals]
                   for t in (h, a)], right=set(range(1, len(periods) + 3)))
    out += ["", "Shots on goal"]
    out += _table(["Team", *periods, "T"], [[t.team, *t.shots, sum(t.shots)] for t in (h, a)],
                  right=set(range(1, len(periods) + 2)))
    out += ["", "Goals"]
    out += _table(["Per", "Time", "Team", "Scorer", "Assists", "Str"],
                  [[_period_name(g.period), g.time, g.team, g.scorer_name,
                    ", ".join(g.assist_names) or "unassisted", g.strength]
                   for g in sheet.goals]) if sheet.goals else ["  none"]
    out += ["", "Penalties"]
    out += _table(["Per", "Time", "Team", "Player", "Type", "Min"],
                  [[_period_name(p.period), p.time, p.team, p.player_name, p.type, p.minutes]
                   for p in sheet.penalties], right={5}) if sheet.penalties else ["  none"]
    out += ["", "Power play / PIM"]
    out += _table(["Team", "PP", "PIM"],
                  [[t.team, f"{t.pp.goals}/{t.pp.opportunities}", t.pim] for t in (h, a)],
                  right={1, 2})
    out += ["", "Goalies"]
    out += _table(["Team", "Goalie", "TOI", "SA", "SV", "GA"],
                  [[g.team, g.name, show_time(g.toi), g.shots_against, g.saves, g.goals_against]
                   for g in sheet.goalies], right={2, 3, 4, 5})
    if sheet.shootout:
        out += ["", "Shootout"]
        out += _table(["#", "Team", "Shooter", "Result"],
                      [[i, s.team, s.shooter_name, "goal" if s.scored else "miss"]
                       for i, s in enumerate(sheet.shootout, start=1)], right={0})
    return "\n".join(out)


@app.command()
def scoresheet(
    game: Annotated[str, typer.Argument(help="game id (see rinklog games --ids)")],
    db: DbOption = "rinklog.db",
    as_json: Annotated[bool, typer.Option("--json", help="the scoresheet as JSON")] = False,
) -> None:
    """Print a game's scoresheet: score, goals, penalties, shots, goalies.

    Example: rinklog scoresheet HFX-QUE-2026 --db rinklog.db
    """
    with _read_store(db) as store:
        # the stream's id in the header: a branch's own, not its parent's in GameCreated
        events = read_game(store, game)
        models = game_read_models(store, game)
        sheet = msgspec.structs.replace(models.scoresheet(events), game_id=game)
    if as_json:
        _dump(sheet.to_json())
    else:
        _out(render_scoresheet(sheet, models.show_time))


# --- cards ------------------------------------------------------------------------------

@cards_app.command("validate")
def cards_validate(
    path: Annotated[Path, typer.Argument(help="a team/chart .toml file, or a folder")],
    as_json: Annotated[bool, typer.Option(
        "--json", help='{"ok", "files", "errors": [...]} as JSON')] = False,
) -> None:
    """Check card files; prints 'ok: N files' or every fault found, one a line (exit 1).

    Example: rinklog cards validate fixtures/bones/teams
    """
    errors = validate_path(path)
    count = len(list(path.rglob("*.toml"))) if path.is_dir() else int(path.exists())
    if as_json:
        _dump({"ok": not errors, "files": count, "errors": errors})
    elif errors:
        for line in errors:
            typer.echo(line, err=True)
    else:
        _out(f"ok: {count} files")
    if errors:
        raise typer.Exit(1)


register_projections(app)
register_tooling(app)
register_seasons(app)
register_reports(app)


# --- entry point ------------------------------------------------------------------------

def _one_line(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return text or type(err).__name__


# typer's click (its own copy in newer typers): usage errors derive from BadParameter's base
_UsageError: type[Exception] = typer.BadParameter.__mro__[1]


def _usage_line(err: Exception) -> str:
    ctx = getattr(err, "ctx", None)
    hint = f" (see {ctx.command_path} --help)" if ctx is not None else ""
    return f"rinklog: error: {_one_line(err.format_message()).rstrip('.')}{hint}"  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    """Run the app; user errors become one line on stderr and exit code 1, usage errors
    (an unknown option, a missing argument) one line and exit code 2.

    With ``argv`` (tests) the exit code is returned; without, the process exits with it.
    """
    try:
        code = app(args=argv, prog_name="rinklog", standalone_mode=False)
        code = code if isinstance(code, int) else 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        if type(sys.stdout).__name__ == "PacifyFlushWrapper":
            code = 0  # click's sign that the reader left early (`| head`): not a failure
    except BrokenPipeError:
        code = 0
    except _UsageError as err:
        if type(err).__name__ == "NoArgsIsHelpError":  # bare `rinklog`: the help
            err.show()  # type: ignore[attr-defined]
        else:
            print(_usage_line(err), file=sys.stderr)
        code = 2
    except typer.Abort:
        print("rinklog: stopped (end of input or Ctrl-C)", file=sys.stderr)
        code = 1
    except (RinklogError, msgspec.ValidationError, msgspec.DecodeError,
            sqlite3.DatabaseError, OSError) as err:
        print(f"rinklog: error: {_one_line(err)}", file=sys.stderr)
        code = 1
    if argv is None:
        sys.exit(code)
    return code
