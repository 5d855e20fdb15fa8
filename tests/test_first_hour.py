"""The first hour of a new user: one-line errors, the conventions of command-line tools
(--version, usage errors, --json, exit codes), and branches kept apart from results."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from setups import run_cli as run


def one_line_error(code: int, err: str, exit_code: int = 1) -> str:
    lines = err.strip().splitlines()
    assert code == exit_code and len(lines) == 1, (code, err)
    assert lines[0].startswith("rinklog: error: ") and "Traceback" not in err
    return lines[0]


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """HFX-QUE-5 (decided in a shootout), and a branch of it that also goes to one."""
    db = tmp_path_factory.mktemp("first") / "games.db"
    assert run(["sim", "--home", "HFX", "--away", "QUE", "--seed", "5", "--db", str(db)])[0] == 0
    code, out, err = run(["branch", "HFX-QUE-5", "--at", "1100", "--seed", "a", "--db", str(db)])
    assert code == 0, err
    return db


# --- errors ------------------------------------------------------------------------------

@pytest.mark.parametrize("roll", ["3 4 2 ²", "3 4 ٣ 1", "３ 4 2 1", "3 4 2 6 ⁶"])
def test_unicode_digits_are_not_dice(tmp_path: Path, roll: str) -> None:
    rolls = tmp_path / "rolls.txt"
    rolls.write_text(f"{roll}\n", encoding="utf-8")
    db = str(tmp_path / "r.db")
    line = one_line_error(*run(["sim", "--home", "HFX", "--away", "QUE", "--rolls", str(rolls),
                                "--db", db])[::2])
    assert f"{rolls}:1: not a roll" in line
    code, out, err = run(["sim", "--home", "HFX", "--away", "QUE", "--rolls", "-", "--db", db],
                         stdin=f"{roll}\n")
    assert "not a roll" in err and one_line_error(code, err.splitlines()[-1])


@pytest.mark.parametrize("what", ["team", "league", "charts"])
def test_a_toml_file_that_is_not_utf8_is_named(tmp_path: Path, what: str) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"name = \"Qu\xe9bec\"\n")
    if what == "league":
        (tmp_path / "league.toml").write_bytes(b"name = \"Qu\xe9bec\"\n")
        argv = ["league", "check", "--league", str(tmp_path)]
        named = "league.toml"
    elif what == "charts":
        argv = ["sim", "--home", "HFX", "--away", "QUE", "--seed", "1", "--coach", str(bad),
                "--db", str(tmp_path / "x.db")]
        named = "bad.toml"
    else:
        code, out, err = run(["cards", "validate", str(bad)])
        assert code == 1 and "bad.toml: not UTF-8" in err
        return
    line = one_line_error(*run(argv)[::2])
    assert named in line and "not UTF-8" in line


def test_an_empty_db_path_is_refused(tmp_path: Path) -> None:
    line = one_line_error(*run(["sim", "--home", "HFX", "--away", "QUE", "--seed", "1",
                                "--db", ""])[::2])
    assert "--db" in line


def test_a_foreign_sqlite_file_is_refused_untouched(tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
    before = db.read_bytes()
    line = one_line_error(*run(["games", "--db", str(db)])[::2])
    assert "recipes" in line
    assert db.read_bytes() == before  # still in its rollback journal mode, byte for byte
    assert not Path(f"{db}-wal").exists()


def test_end_of_input_at_the_play_prompt_stops_cleanly(tmp_path: Path) -> None:
    db = str(tmp_path / "p.db")
    code, out, err = run(["play", "--home", "HFX", "--away", "QUE", "--db", db],
                         stdin="3 4 2 6\n")
    assert code == 0 and "Aborted" not in out + err
    assert "stopped:" in out and "rinklog play --resume HFX-QUE-live1" in out


# --- conventions -------------------------------------------------------------------------

def test_version() -> None:
    code, out, _ = run(["--version"])
    assert code == 0 and out.startswith("rinklog ") and out.split()[1][0].isdigit()


@pytest.mark.parametrize("argv", [["sim", "--bogus"], ["events"], ["nosuchcommand"],
                                  ["diff", "A"]])
def test_usage_errors_are_one_line_with_exit_2(argv: list[str]) -> None:
    line = one_line_error(*run(argv)[::2], exit_code=2)
    assert "--help" in line


def test_diff_exit_codes_and_json(games: Path) -> None:
    db = ["--db", str(games)]
    assert run(["diff", "HFX-QUE-5", "HFX-QUE-5", *db])[:2] == (0, "identical\n")
    code, out, _ = run(["diff", "HFX-QUE-5", "HFX-QUE-5-b1", "--json", *db])
    found = json.loads(out)
    assert code == 1 and not found["identical"] and found["seq"] > 1100
    assert found["event_a"]["type"] and found["event_b"]["type"]


def test_explain_json_names_the_roll(games: Path) -> None:
    code, out, _ = run(["explain", "HFX-QUE-5", "3", "--json", "--db", str(games)])
    found = json.loads(out)
    assert code == 0 and found["seq"] == 3 and found["explanation"].startswith("seq 3 ")


def test_league_check_json() -> None:
    code, out, _ = run(["league", "check", "--league", "demo", "--json"])
    found = json.loads(out)
    assert found["league"] == "demo" and found["teams"] == 32
    assert code == (0 if found["ok"] else 1) and found["ok"] == (not found["violations"])


def test_cards_validate_lists_every_fault(tmp_path: Path) -> None:
    assert run(["cards", "generate", str(tmp_path), "HFX:Halifax", "--seed", "3"])[0] == 0
    team = tmp_path / "hfx.toml"
    text = team.read_text(encoding="utf-8").splitlines()
    dice = [i for i, line in enumerate(text) if line.startswith(("n = ", "gm_range = "))]
    for i in dice[:3]:
        text[i] = text[i].split("=")[0] + '= "9-9"'
    team.write_text("\n".join(text) + "\n", encoding="utf-8")
    code, out, err = run(["cards", "validate", str(team)])
    assert code == 1 and len(err.strip().splitlines()) == 3
    code, out, _ = run(["cards", "validate", str(team), "--json"])
    assert code == 1 and len(json.loads(out)["errors"]) == 3


def test_cards_generate_keeps_files_and_checks_strength(tmp_path: Path) -> None:
    assert run(["cards", "generate", str(tmp_path), "HFX:Halifax"])[0] == 0
    before = (tmp_path / "hfx.toml").read_bytes()
    line = one_line_error(*run(["cards", "generate", str(tmp_path), "HFX:Halifax",
                                "--seed", "2"])[::2])
    assert "--force" in line and (tmp_path / "hfx.toml").read_bytes() == before
    assert run(["cards", "generate", str(tmp_path), "HFX:Halifax", "--seed", "2",
                "--force"])[0] == 0
    assert (tmp_path / "hfx.toml").read_bytes() != before
    for strength in ("1.5", "-2", "nan"):
        line = one_line_error(*run(["cards", "generate", str(tmp_path / "s"),
                                    f"QUE:Quebec:{strength}"])[::2])
        assert "strength" in line and not (tmp_path / "s").exists()


def test_no_progress_bar_into_a_pipe(tmp_path: Path) -> None:
    code, out, err = run(["season", "--games", "2", "--workers", "1",
                          "--db", str(tmp_path / "s.db")])
    assert code == 0 and err == "" and out.startswith("season demo-1: 2 games played")
    # run again: nothing left to play, and nothing said of --no-audit, which was not given
    code, out, err = run(["season", "--games", "2", "--workers", "1",
                          "--db", str(tmp_path / "s.db")])
    assert code == 0 and out.startswith("season demo-1: 0 games played, 2 already stored")


# --- branches are what-ifs ---------------------------------------------------------------

def test_branch_reports_carry_its_own_id(games: Path) -> None:
    db = ["--db", str(games)]
    assert "game HFX-QUE-5-b1" in run(["scoresheet", "HFX-QUE-5-b1", *db])[1].splitlines()[1]
    assert run(["toi", "HFX-QUE-5-b1", *db])[1].startswith("Time on ice  game HFX-QUE-5-b1")
    assert run(["penalties", "HFX-QUE-5-b1", *db])[1].startswith("Penalties  game HFX-QUE-5-b1")
    assert json.loads(run(["scoresheet", "HFX-QUE-5-b1", "--json", *db])[1])["game_id"] == \
        "HFX-QUE-5-b1"


@pytest.mark.parametrize("game", ["HFX-QUE-5", "HFX-QUE-5-b1"])
def test_replay_reports_the_scoresheet_score(games: Path, game: str) -> None:
    db = ["--db", str(games)]
    sheet = json.loads(run(["scoresheet", game, "--json", *db])[1])
    assert sheet["decided"] == "SO"
    replayed = json.loads(run(["replay", game, "--json", *db])[1])
    assert replayed["score"] == {"home": sheet["home"]["goals"], "away": sheet["away"]["goals"]}


def test_stats_all_leaves_branches_out(games: Path) -> None:
    db = ["--db", str(games)]
    assert json.loads(run(["stats", "--all", "--json", *db])[1])["games"] == ["HFX-QUE-5"]
    assert json.loads(run(["stats", "--all", "--include-branches", "--json", *db])[1]
                      )["games"] == ["HFX-QUE-5", "HFX-QUE-5-b1"]


def test_standings_and_leaders_leave_branches_out(tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "s.db")]
    assert run(["season", "--games", "2", "--workers", "1", *db])[0] == 0
    assert run(["branch", "demo-1-0001", "--at", "200", "--seed", "x", *db])[0] == 0

    def played(*extra: str) -> int:
        return sum(r["gp"] for r in json.loads(run(["standings", "--json", *extra, *db])[1]))

    assert (played(), played("--include-branches")) == (4, 6)
    boards = json.loads(run(["leaders", "--json", "--top", "50", *db])[1])
    wider = json.loads(run(["leaders", "--json", "--top", "50", "--include-branches", *db])[1])
    assert max(r["gp"] for r in boards["P"]) == 1 and max(r["gp"] for r in wider["P"]) == 2


# --- league teams one game at a time -------------------------------------------------------

def test_sim_and_play_take_league_teams(tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "l.db")]
    code, out, _ = run(["teams", "--league", "demo"])
    assert code == 0 and out.split()[:2] == ["ALD", "ASH"]
    code, out, err = run(["sim", "--league", "demo", "--home", "ALD", "--away", "BRK",
                          "--seed", "1", *db])
    assert code == 0 and out.startswith("ALD ") and "game ALD-BRK-1" in out, err
    code, out, _ = run(["play", "--league", "demo", "--home", "ALD", "--away", "BRK", *db],
                       stdin="3 4 2 6\n")
    assert code == 0 and "ALD-BRK-live1" in out
    line = one_line_error(*run(["sim", "--league", "demo", "--home", "HFX", "--away", "BRK",
                                "--seed", "1", *db])[::2])
    assert "no team 'HFX'" in line and "ALD" in line


@pytest.mark.parametrize("command", [["penalties"], ["toi"], ["scoresheet"], ["events"],
                                     ["replay"], ["explain", "demo-1", "2"]])
def test_a_season_id_is_not_a_game(tmp_path: Path, command: list[str]) -> None:
    """Found by tests/bench/fuzz_inputs.py: `penalties SEASON` was a traceback."""
    db = ["--db", str(tmp_path / "s.db")]
    assert run(["season", "--games", "1", "--workers", "1", *db])[0] == 0
    argv = [command[0], "demo-1", *command[2:]] if len(command) > 1 else [*command, "demo-1"]
    line = one_line_error(*run([*argv, *db])[::2])
    assert "'demo-1' is a season, not a game" in line and "demo-1-0001" in line


def test_cards_validate_names_every_faulty_field_of_a_card(tmp_path: Path) -> None:
    import tomllib

    import tomli_w

    from replay.data.reading import FIXTURES

    team = tomllib.loads((FIXTURES / "bones" / "teams" / "hfx.toml").read_text("utf-8"))
    card = team["skaters"][0]
    card.update(defense="x", so=99, bogus=1)
    team["goalies"][0]["games"] = -5
    team["name"] = 5
    path = tmp_path / "hfx.toml"
    path.write_text(tomli_w.dumps(team), encoding="utf-8")
    code, out, _ = run(["cards", "validate", str(path), "--json"])
    errors = json.loads(out)["errors"]
    assert code == 1 and [e.split(": field ")[1].split("'")[1] for e in errors] == \
        ["defense", "so", "bogus", "games", "name"]
    assert all(e.startswith(f"{path}: ") for e in errors)


def test_a_schema_that_is_not_utf8_is_not_a_rinklog_database(tmp_path: Path) -> None:
    """Found by tests/bench/fuzz_inputs.py: a damaged sqlite_master was a traceback."""
    db = tmp_path / "damaged.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE recipes (name TEXT)")
        conn.execute("PRAGMA writable_schema=ON")
        conn.execute("UPDATE sqlite_master SET name = CAST(X'52c5' AS TEXT)")
    conn.close()
    line = one_line_error(*run(["games", "--db", str(db)])[::2])
    assert f"{db} is not a rinklog database" in line


def test_sim_and_play_record_the_league_options(tmp_path: Path) -> None:
    """A league's options (6.00 overtime skaters, the QR house rule) are recorded in the
    GameCreated of a game its teams play one at a time, as in its season."""
    import shutil

    from events.common import GameCreated
    from replay.data.reading import FIXTURES
    from replay.games.game_streams import open_store, read_game

    league = tmp_path / "house"
    shutil.copytree(FIXTURES / "bones" / "leagues" / "demo", league)
    toml = league / "league.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'games = 82', 'games = 82\novertime_skaters = 3\nlate_penalty_house_rule = true'),
        encoding="utf-8")
    db = ["--db", str(tmp_path / "o.db")]
    assert run(["sim", "--league", str(league), "--home", "ALD", "--away", "BRK",
                "--seed", "1", *db])[0] == 0
    assert run(["play", "--league", str(league), "--home", "ALD", "--away", "BRK", *db],
               stdin="3 4 2 6\n")[0] == 0
    with open_store(tmp_path / "o.db") as store:
        for game in ("ALD-BRK-1", "ALD-BRK-live1"):
            created = read_game(store, game)[0]
            assert isinstance(created, GameCreated)
            assert (created.overtime_skaters, created.late_penalty_house_rule) == (3, True)
