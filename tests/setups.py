"""Game setups for tests: a :class:`GameSetup` built from teams and options the way the
CLI builds one (replay/games/game_setup.py), then the library's own call with it."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from engine.systems import system_of
from events.bones import NO_FACEOFF_OPTIONS, FaceoffOptions
from events.store import EventStore
from replay.cli.app import main
from replay.games import game_streams
from replay.games.game_setup import Dice, GameOptions, GameSetup
from replay.games.registry import DEFAULT_RULESET
from replay.systems import kit_for


def setup_for(home: Any, away: Any, charts: Any = None, *, ruleset: str = DEFAULT_RULESET,
              fixtures: str | Path | None = None, faceoff: FaceoffOptions = NO_FACEOFF_OPTIONS,
              options: tuple[str, ...] = (), coach: Any = None, overtime_skaters: int = 5,
              late_penalty_house_rule: bool = False, dice: Dice | None = None) -> GameSetup:
    """A one game's setup of two teams (ids in the fixtures, or loaded cards) and the
    chart pack (None: the fixtures'); ``coach`` a coach setup (a coach file's)."""
    kit = kit_for(ruleset)
    home = kit.find_team(home, fixtures) if isinstance(home, str) else home
    away = kit.find_team(away, fixtures) if isinstance(away, str) else away
    chosen = GameOptions(overtime_skaters, late_penalty_house_rule, {
        **({"faceoff": faceoff} if faceoff != NO_FACEOFF_OPTIONS else {}),
        **({"options": tuple(options)} if options else {})})
    pack = chosen.game_charts(kit, kit.default_charts(fixtures) if charts is None else charts)
    return GameSetup(system_of(ruleset), ruleset, {home.id: home, away.id: away}, pack,
                     chosen, coach, dice or Dice())


def simulate(store: EventStore, home: str, away: str, *, seed: str | None = None,
             game_id: str | None = None, **setup: Any) -> game_streams.GameResult:
    """``rinklog sim``'s library call: a seeded game between two fixture teams."""
    return game_streams.simulate(store, setup_for(home, away, dice=Dice(seed=seed), **setup),
                                 game_id=game_id)


def run_cli(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    """``rinklog ARGV`` through ``main`` (its error handling), ``stdin`` as its input:
    the exit code, stdout and stderr."""
    with CliRunner().isolation(input=stdin) as (out, err, _):
        code = main(argv)
        sys.stdout.flush()
        sys.stderr.flush()
        return code, out.getvalue().decode(), err.getvalue().decode()


DICEDEMO = Path(__file__).resolve().parents[1] / "fixtures/dicehockey/leagues/dicedemo"


def cut_league(where: Path, name: str, games: int, playoffs: str) -> Path:
    """The DICE Hockey demo league named ``name``, ``games`` games a team, its
    ``[playoffs]`` table's body ``playoffs``, as the folder ``where/name``."""
    folder = where / name
    shutil.copytree(DICEDEMO, folder)
    toml = folder / "league.toml"
    text = toml.read_text().replace("games = 82", f"games = {games}")
    text = text.replace('name = "dicedemo"', f'name = "{name}"').split("[playoffs]")[0]
    toml.write_text(f"{text}[playoffs]\n{playoffs}")
    return folder


def tiny_league(where: Path) -> Path:
    """The DICE Hockey demo league cut to 4 games a team and a 4-team, two-round playoff
    of single games, as the folder ``where/tiny`` (the odds tests' league)."""
    return cut_league(where, "tiny", 4, "teams = 4\nseries = [1, 1]\n")
