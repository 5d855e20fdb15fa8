"""The ``rinklog`` command line: a thin shell over the library.

Each command opens the store (``--db PATH``, default ``$RINKLOG_DB`` else ``./rinklog.db``),
calls one library function and prints. Every command module (replay/cli/*.py) has its
own typer app of module-level commands; this root takes each module's commands in, then
the sub-apps (``cards``, ``matrix``, ``projections``, ``league``).
A command imports its library code in its own body, so ``rinklog --help`` and each
command load only what they use (a ``rinklog`` process starts in about 0.3 s of CPU, not
0.8 s; the tests start dozens).
:func:`main` turns every error a user can cause into one line ``rinklog: error:
<message>`` on stderr and exit code 1.
"""

from __future__ import annotations

import functools
import sqlite3
import sys
from typing import Annotated, Any

import msgspec
import typer

from events.errors import RinklogError
from replay.cli import (
    bones,
    cards,
    core,
    lottery,
    matrix,
    odds,
    playoffs,
    projections,
    reports,
    season,
    tooling,
    web,
)
from replay.cli.common import SystemParts

# What `rinklog --help` says: the four games, then an example a job (README: a section each).
# "\b" keeps click from rewrapping the examples into one paragraph.
HELP = (
    "rinklog plays Hockey Bones, FaceOff Hockey 2008, DICE Hockey and Matrix Hockey: every "
    "roll and rule decision is a hash-chained event, so any game can be replayed, audited, "
    "explained and printed.\n\n"
    "\b\n"
    "Example: rinklog sim --home HFX --away QUE --seed 2026   (a game)\n"
    "Example: rinklog season --league demo --seed 2026 --db season.db   (a season)\n"
    "Example: rinklog playoffs demo-2026 --db season.db   (its playoffs; lottery: the draft)\n"
    "Example: rinklog odds demo-2026 --runs 100 --db season.db   (the season's odds)\n"
    "Example: rinklog audit HFX-QUE-2026   (a disputed result; explain, branch, diff)\n"
    "Example: rinklog play --home HFX --away QUE   (a game at the table, with real dice)\n"
    "Example: rinklog matrix play SEASON --week 1 --db matrix.db   (a Matrix Hockey week)\n"
    "Example: rinklog report HFX-QUE-2026 -o game.html   (pages; serve and --csv: data)\n\n"
    "Each command's options and example: rinklog COMMAND --help."
)



def _root_app() -> typer.Typer:
    return typer.Typer(name="rinklog", help=HELP, rich_markup_mode=None, no_args_is_help=True,
                       add_completion=False, pretty_exceptions_enable=False)


app = _root_app()


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("rinklog")
        except PackageNotFoundError:
            number = "unknown (not installed)"
        typer.echo(f"rinklog {number}")
        raise typer.Exit()


def _season_odds() -> dict[str, Any]:
    from replay.leagues.matrix.odds import ODDS as MATRIX_ODDS
    return {"matrix": MATRIX_ODDS}


def _sites() -> dict[str, Any]:
    from replay.reports.matrix.site import matrix_files
    return {"matrix": matrix_files}


def _web() -> dict[str, Any]:
    from replay.web.matrix import WEB as MATRIX_WEB
    return {"matrix": MATRIX_WEB}


# Each system's parts above its kit, one line a system in each: the command line is the
# one layer above them all, so it names them here and hands them down (docs/systems.md).
SYSTEM_PARTS = SystemParts(season_odds=_season_odds, sites=_sites, web=_web)


@app.callback(help=HELP)
def _root(ctx: typer.Context, version: Annotated[bool, typer.Option(
        "--version", help="print the version and exit", callback=_show_version,
        is_eager=True)] = False) -> None:
    """The root of every command: the version option, and each system's parts handed down."""
    ctx.obj = SYSTEM_PARTS


# Every command module's own typer app, its commands at the root (in this order in --help),
# then the sub-apps, each a command group of its own: the shared ones, and each system's
# own (its kit's: ``rinklog matrix ...``; its card commands under ``rinklog cards``).
for module in (core, projections, tooling, season, playoffs, lottery, odds, reports):
    app.add_typer(module.app)
app.add_typer(cards.app, name="cards")
# each system's own commands, one line a system: the command line is the layer above
# every system's kit, so it names them here (docs/systems.md)
app.add_typer(matrix.app, name="matrix")
cards.app.add_typer(bones.app)
season.league_app.add_typer(web.app)  # league serve | invite | admin: the web extra's
for name, sub_app in (("projections", projections.projections_app),
                      ("league", season.league_app)):
    app.add_typer(sub_app, name=name)


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


def _command_name(info: typer.models.CommandInfo) -> str:
    return info.name or typer.main.get_command_name(info.callback.__name__)  # type: ignore[union-attr]


def _app_of(name: str) -> typer.Typer:
    """The root with only the command (or command group) ``name``: what a process running
    one command needs typer to read (every command's signature read is 0.1-0.2 s of a
    command's start); :data:`app` itself for a name it does not hold, so the error is
    typer's own."""
    one = _root_app()
    one.registered_callback = app.registered_callback
    for group in app.registered_groups:
        if group.name == name:
            one.registered_groups.append(group)
            return one
        # a module's app added without a name (typer's placeholder): its commands at the root
        if not isinstance(group.name, str) and group.typer_instance is not None:
            found = [c for c in group.typer_instance.registered_commands if _command_name(c) == name]
            if found:
                one.registered_commands.extend(found)
                return one
    return app


@functools.cache
def _command(name: str | None = None) -> typer.core.TyperGroup:
    """The click command typer makes of :data:`app` (of only the command ``name``), made
    once a process: ``app(...)`` makes it again at every call, reading every command's
    signature (about 0.1 s a call; the tests call :func:`main` in-process thousands of
    times). With pretty exceptions off, ``app(...)`` does nothing else."""
    return typer.main.get_command(app if name is None else _app_of(name))  # type: ignore[return-value]


def _first_word(argv: list[str]) -> str | None:
    """The command a command line names (None: none, or a root option first: the whole
    app reads it)."""
    return argv[0] if argv and not argv[0].startswith("-") else None


def main(argv: list[str] | None = None) -> int:
    """Run the app; user errors become one line on stderr and exit code 1, usage errors
    (an unknown option, a missing argument) one line and exit code 2.

    With ``argv`` (tests) the exit code is returned; without, the process exits with it.
    """
    try:
        command = _command(_first_word(sys.argv[1:] if argv is None else argv))
        code = command(args=argv, prog_name="rinklog", standalone_mode=False)
        code = code if isinstance(code, int) else 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        if type(sys.stdout).__name__.lstrip("_") == "PacifyFlushWrapper":
            # click's sign that the reader left early (`| head`): not a failure (newer
            # clicks name the class _PacifyFlushWrapper)
            code = 0
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
