"""Typed dice at a prompt (`rinklog sim --rolls -`): a typo is asked again, never kept."""

from __future__ import annotations

from typer.testing import CliRunner

from events.bones import DiceRolled
from replay.cli.app import app
from replay.games.game_streams import open_store, read_game


def test_prompt_reasks_a_typo_and_records_only_good_rolls(tmp_path):
    db = tmp_path / "live.db"
    typed = "3 4 2 6\n7 7 7 7\n3 4 2\n" + "2 3 4 5\n" * 3000
    result = CliRunner().invoke(app, ["sim", "--home", "HFX", "--away", "QUE", "--rolls", "-",
                                      "--db", str(db)], input=typed)
    assert result.exit_code == 0, result.output
    assert "not a roll" in result.output
    with open_store(db) as store:
        (info,) = store.streams()
        rolls = [e.roll for e in read_game(store, info.stream) if isinstance(e, DiceRolled)]
    assert info.stream == "HFX-QUE-live1"
    assert str(rolls[0]) == "3 4 2 6"
    assert all(str(r) == "2 3 4 5" for r in rolls[1:])


def test_prompt_that_ends_early_writes_nothing(tmp_path):
    db = tmp_path / "live.db"
    result = CliRunner().invoke(app, ["sim", "--home", "HFX", "--away", "QUE", "--rolls", "-",
                                      "--db", str(db)], input="3 4 2 6\n" * 10)
    assert result.exit_code != 0
    with open_store(db) as store:
        assert store.streams() == []
