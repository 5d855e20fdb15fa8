"""``rinklog cards``: validate player and team cards (a sub-app of the root); the root app
adds each system's own card commands (Hockey Bones' ``generate``: replay/cli/bones.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from events.plurals import counted
from replay.cli.common import dump as _dump
from replay.cli.common import out as _out

app = typer.Typer(
    help="Player and team cards: validate or generate.\n\n"
    "Example: rinklog cards validate fixtures/bones/teams",
    rich_markup_mode=None,
    no_args_is_help=True,
)


@app.command("validate")
def cards_validate(
    path: Annotated[Path, typer.Argument(help="a team/chart .toml file, or a folder")],
    as_json: Annotated[bool, typer.Option(
        "--json", help='{"ok", "files", "errors": [...]} as JSON')] = False,
) -> None:
    """Check card files; prints 'ok: N files' or every fault found, one a line (exit 1).

    Example: rinklog cards validate fixtures/bones/teams
    """
    from replay.leagues.validate import validate_path
    errors = validate_path(path)
    count = len(list(path.rglob("*.toml"))) if path.is_dir() else int(path.exists())
    if as_json:
        _dump({"ok": not errors, "files": count, "errors": errors})
    elif errors:
        for line in errors:
            typer.echo(line, err=True)
    else:
        _out(f"ok: {counted(count, 'file')}")
    if errors:
        raise typer.Exit(1)
