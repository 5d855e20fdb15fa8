"""League games at the table: a scheduled game of a stored season played with typed dice
(rinklog play --season S --game N) counts in the season like a simulated one, and a
season run skips it."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from engine.systems import system_of
from events.common import GameEnded
from replay.cli.app import app, main
from replay.games.game_streams import open_store, read_game
from replay.games.session import continue_game, resume_point
from replay.leagues.audit import audit_all
from replay.leagues.ledger import table_committer
from replay.leagues.runner import season_game_id, table_game
from replay.leagues.stored_seasons import load_season, standings
from replay.systems import Prompter, kit_for


class _Table:
    """A person at the table: rolls from a seed typed in, enter at every coach prompt."""

    def __init__(self, ruleset: str) -> None:
        self.derive = system_of(ruleset).derive_roll
        self.coach = kit_for(ruleset).prompt_coach(Prompter(self._answer, lambda line: None))

    def _answer(self, text: str) -> str:
        if text.startswith("roll "):
            return str(self.derive("table", "dice", int(text.split()[1])))
        return ""


def test_a_table_game_counts_in_the_season_and_the_season_skips_it(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    assert main(["season", "--games", "4", "--workers", "1", "--db", str(db)]) == 0
    with open_store(db) as store:
        gid = table_game(store, "demo-1", 5)
        assert gid == season_game_id("demo-1", 5)
        table = _Table("bones")
        continue_game(resume_point(store, gid), table.coach, table.coach,
                      table_committer(store, gid))
        created, *_, end = read_game(store, gid)
        assert created.live and created.dice == "manual" and created.number == 5
        assert isinstance(end, GameEnded)
    assert main(["season", "--games", "6", "--workers", "1", "--db", str(db)]) == 0
    with open_store(db) as store:
        season = load_season(store, "demo-1")
        assert len(season.game_ids) == 6  # games 1-4, the table's 5, then 6 simulated
        assert read_game(store, gid)[0].live  # the season run did not play it again
        played = sum(r.gp for r in standings(store, season))
        assert played == 2 * 6
        reports = audit_all(store)
        assert all(r.ok for r in reports), [r.failure for r in reports if not r.ok]


def test_play_season_game_at_the_prompt_stops_and_the_run_skips_it(tmp_path: Path,
                                                                    capsys) -> None:
    db = tmp_path / "league.db"
    assert main(["season", "--games", "2", "--workers", "1", "--db", str(db)]) == 0
    result = CliRunner().invoke(app, ["play", "--season", "demo-1", "--game", "3",
                                      "--db", str(db)], input="q\n")
    assert result.exit_code == 0, result.output
    assert "game 3 of season demo-1" in result.output and "resume with" in result.output
    assert main(["season", "--games", "4", "--workers", "1", "--db", str(db)]) == 0
    with open_store(db) as store:
        unfinished = read_game(store, season_game_id("demo-1", 3))
        assert unfinished[0].live and not isinstance(unfinished[-1], GameEnded)
        assert sum(r.gp for r in standings(store, load_season(store, "demo-1"))) == 2 * 3
        assert all(r.ok for r in audit_all(store))
    capsys.readouterr()
    assert main(["play", "--season", "demo-1", "--game", "3", "--db", str(db)]) == 1
    assert "play --resume demo-1-0003" in capsys.readouterr().err
    assert main(["play", "--season", "demo-1", "--game", "99999", "--db", str(db)]) == 1
    assert "has no game 99999" in capsys.readouterr().err
    assert main(["play", "--season", "demo-1", "--db", str(db)]) == 1
    assert "go together" in capsys.readouterr().err


def test_a_table_game_leaves_the_season_audited_and_its_receipt_given(tmp_path: Path,
                                                                       capsys) -> None:
    """Issue 32 (2): read models move with their events. Right after a game of a season
    played at the table ends, with no other command, the season's stored standings hold
    it, `audit --all` passes and `receipt --season` is given (before, both refused until
    `projections update`: "rm_standings: 8 stored rows differ from the 8 its games give")."""
    db = tmp_path / "league.db"
    assert main(["season", "--games", "4", "--workers", "1", "--db", str(db)]) == 0
    with open_store(db) as store:
        gid = table_game(store, "demo-1", 5)
        table = _Table("bones")
        continue_game(resume_point(store, gid), table.coach, table.coach,
                      table_committer(store, gid))
        stored = store.connection.execute(
            "SELECT sum(gp) FROM rm_standings WHERE season = 'demo-1'").fetchone()[0]
        assert stored == 2 * 5  # games 1-4 and the table's 5
        assert store.connection.execute(
            "SELECT count(*) FROM rm_scoresheet_games WHERE game_id = ?", (gid,)).fetchone()[0] > 0
    capsys.readouterr()
    assert main(["audit", "--all", "--db", str(db)]) == 0, capsys.readouterr()
    assert main(["receipt", "--season", "demo-1", "--db", str(db)]) == 0, capsys.readouterr()
