"""Hockey Bones' own commands: ``rinklog cards generate`` (its card generator, cardgen.py).

Its ``app``, which the root app (app.py) adds to ``rinklog cards`` beside the shared
``cards validate``. A command is one library call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from replay.cli.common import out

app = typer.Typer(rich_markup_mode=None)
"""Hockey Bones' commands under ``rinklog cards``."""


@app.command("generate")
def cards_generate(
    outdir: Annotated[Path, typer.Argument(help="folder to write OUTDIR/<team>.toml into")],
    teams: Annotated[list[str], typer.Argument(help="TEAM:Name[:strength], strength -1..1")],
    seed: Annotated[str, typer.Option("--seed", help="generator seed")] = "rinklog",
    force: Annotated[bool, typer.Option("--force", help="overwrite existing team files")
                     ] = False,
) -> None:
    """Generate invented teams (deterministic for a seed); existing files are kept
    unless --force.

    Example: rinklog cards generate out HFX:"Halifax Harbourmen" QUE:"Quebec Glaciers":0.3
    """
    import replay.systems.bones.cardgen as cardgen
    for path, _ in cardgen.write_teams(outdir, teams, seed, force=force):
        out(f"wrote {path}")
