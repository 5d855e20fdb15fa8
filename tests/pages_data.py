"""The database the page tests read: a Hockey Bones, a FaceOff 2008 and a DICE Hockey
game, a short league season of each (Hockey Bones, DICE Hockey) and a Matrix Hockey
season, made with the CLI."""

from __future__ import annotations

import asyncio
from pathlib import Path

from replay.cli.app import main

BONES, FACEOFF, DICE = "HFX-QUE-2026", "HFX-QUE-1-faceoff2008", "ALD-BRK-1-dicehockey"
SEASON, MATRIX = "demo-1", "matrix-example-2026-s1"
DICE_SEASON = "dicedemo-1"
DICE_LEAGUE = Path(__file__).resolve().parent.parent / "fixtures" / "dicehockey" / "leagues" / "dicedemo"
GAMES = {"bones": BONES, "faceoff2008": FACEOFF, "dicehockey": DICE}


def build_db(path: Path) -> Path:
    db = str(path)
    for argv in (["sim", "--home", "HFX", "--away", "QUE", "--seed", "2026"],
                 ["sim", "--ruleset", "faceoff2008", "--home", "HFX", "--away", "QUE",
                  "--seed", "1"],
                 ["sim", "--ruleset", "dicehockey", "--home", "ALD", "--away", "BRK",
                  "--seed", "1"],
                 ["season", "--league", "demo", "--seed", "1", "--games", "8", "--workers", "1"],
                 ["season", "--league", str(DICE_LEAGUE), "--seed", "1", "--games", "4",
                  "--workers", "1"],
                 ["matrix", "open", "--league", "example", "--seed", "2026"],
                 ["matrix", "demo", MATRIX, "--no-close"]):
        assert main([*argv, "--db", db]) == 0, argv
    return path


def served(db: Path, path: str) -> str:
    """The page ``serve`` would answer at ``path`` for ``db`` (Datasette in process)."""
    from replay.datasette import datasette_app
    app = datasette_app(db)

    async def get() -> str:
        response = await app.client.get(path)
        assert response.status_code == 200, path
        return response.text

    return asyncio.run(get())
