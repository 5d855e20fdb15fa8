"""One game setup, built once and passed whole (issue 21): the ruleset is looked up once
per ``sim``, a league loaded once per command, no shared tooling names a system, and the
CLI's commands are module-level commands of each module's own app."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import engine.systems
from replay.cli.app import main
from replay.games import game_setup as setup_lib
from replay.games import game_streams
from replay.games.game_setup import Dice, game_setup
from replay.games.game_streams import open_store, simulate
from replay.games.registry import DEFAULT_RULESET
from replay.leagues import league as league_lib

ROOT = Path(__file__).resolve().parent.parent
SHARED = [p for folder in ("replay/cli", "replay/games", "replay/leagues", "replay/reports")
          for p in sorted((ROOT / folder).glob("*.py"))
          if p.name != "matrix.py"]  # house-kits moves the Matrix CLI into its system package


def _count_lookups(monkeypatch) -> list[str]:
    """Every ``system_of`` call of the game setup and game stream modules, recorded."""
    calls: list[str] = []
    real = engine.systems.system_of

    def counted(ruleset: str):
        calls.append(ruleset)
        return real(ruleset)

    for module in (setup_lib, game_streams):
        monkeypatch.setattr(module, "system_of", counted)
    return calls


def test_a_sim_looks_its_ruleset_up_once(tmp_path, monkeypatch) -> None:
    calls = _count_lookups(monkeypatch)
    setup = game_setup("faceoff2008", "HFX", "QUE", optional_rules=("fatigue",),
                       dice=Dice(seed="once"))
    assert calls == ["faceoff2008"]
    with open_store(tmp_path / "g.db") as store:
        result = simulate(store, setup)
    assert calls == ["faceoff2008"]  # the setup carries its system down, whole
    assert result.game_id == "HFX-QUE-once-faceoff2008"


def test_sim_with_a_league_loads_it_once(tmp_path, monkeypatch, capsys) -> None:
    loads: list[str] = []
    real = league_lib.load_league

    def counted(name):
        loads.append(str(name))
        return real(name)

    monkeypatch.setattr(league_lib, "load_league", counted)
    assert main(["sim", "--league", "demo", "--home", "ALD", "--away", "BRK", "--seed", "1",
                 "--db", str(tmp_path / "l.db")]) == 0
    assert loads == ["demo"]


def test_a_game_setup_is_one_frozen_value() -> None:
    setup = game_setup(DEFAULT_RULESET, "HFX", "QUE")
    with pytest.raises(dataclasses.FrozenInstanceError):
        setup.ruleset = "faceoff2008"  # type: ignore[misc]
    home, away = setup.matchup()
    assert (home.id, away.id) == ("HFX", "QUE")


def test_the_default_ruleset_is_the_registrys_first() -> None:
    first = next(iter(engine.systems.SYSTEMS.values()))
    assert DEFAULT_RULESET == next(iter(first.rulesets))


def test_no_shared_tooling_names_a_system_as_a_default() -> None:
    """A default system comes from the registry (replay/games/registry.py), not a literal."""
    named = [f"{p.relative_to(ROOT)}:{node.lineno}" for p in SHARED
             for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
             if isinstance(node, ast.Constant) and node.value == "bones"]
    assert named == []


def test_cli_commands_are_module_level() -> None:
    """No replay/cli module registers commands from inside a function (no ``register``,
    no decorated function nested in another)."""
    nested = []
    for path in (ROOT / "replay/cli").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            if node.name == "register":
                nested.append(f"{path.name}: register")
            nested += [f"{path.name}: {inner.name} in {node.name}" for inner in ast.walk(node)
                       if inner is not node and isinstance(inner, ast.FunctionDef)
                       and inner.decorator_list]
    assert nested == []


def test_a_game_records_the_teams_it_was_given_even_after_others_of_the_same_ids() -> None:
    # create_game keeps each loaded team's bytes, hash and sheet (game_streams._encoded),
    # by the object: another team object under the same id is encoded afresh
    import msgspec
    from setups import setup_for

    from replay.systems import kit_for

    kit = kit_for("bones")
    home, away = kit.find_team("HFX", None), kit.find_team("QUE", None)
    charts = kit.default_charts(None)
    setup = setup_for(home, away, charts)
    first = game_streams.create_game(setup, home, away, game_id="g-1", seed="1").created
    renamed = msgspec.structs.replace(home, name="Halifax Renamed")
    second = game_streams.create_game(setup, renamed, away, game_id="g-2", seed="1").created
    again = game_streams.create_game(setup, home, away, game_id="g-3", seed="1").created
    assert (first.home.name, second.home.name, again.home.name) == (
        home.name, "Halifax Renamed", home.name)
    assert second.home.card_hash != first.home.card_hash == again.home.card_hash
    assert first.away == second.away == again.away
