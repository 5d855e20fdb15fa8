"""The rinklog command line: help with examples, JSON shapes, determinism, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from replay.cli.app import main
from replay.games.game_streams import open_store


def _every_command() -> list[list[str]]:
    """Every command and subcommand the app registers, so a new one cannot skip its help."""
    import typer.main

    from replay.cli.app import app

    found: list[list[str]] = [[]]

    def walk(group, prefix: list[str]) -> None:
        for name, command in getattr(group, "commands", {}).items():
            found.append([*prefix, name])
            walk(command, [*prefix, name])

    walk(typer.main.get_command(app), [])
    return found


COMMANDS = _every_command()
SIM_KEYS = {"game_id", "home", "away", "score", "decided", "events", "head_hash"}
SHEET_KEYS = {"game_id", "decided", "home", "away", "goals", "penalties", "goalies", "shootout"}
TEAM_KEYS = {"team", "name", "goals", "shots", "pp", "pim"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str) -> None:
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("rinklog: error: ")
    assert "Traceback" not in err


def sim_json(capsys, db: Path, seed: str, home: str = "HFX", away: str = "QUE") -> dict:
    code, out, err = run(capsys, "sim", "--home", home, "--away", away, "--seed", seed,
                         "--db", str(db), "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.fixture(scope="module")
def reg_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A database holding one game decided in regulation (first seed that gives one)."""
    db = tmp_path_factory.mktemp("reg") / "reg.db"
    for seed in range(1, 40):
        code = main(["sim", "--home", "HFX", "--away", "WPG", "--seed", str(seed),
                     "--db", str(db)])
        assert code == 0
        with open_store(db) as store:
            info = store.streams(kind="game")[-1]
        if info.meta["decided"] == "REG":
            return db, {"game_id": info.stream, **info.meta}
    pytest.fail("no seed in 1..39 gave a game decided in regulation")


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a) or "rinklog")
def test_help_has_an_example(capsys, argv: list[str]) -> None:
    code, out, _ = run(capsys, *argv, "--help")
    assert code == 0
    assert "Example: rinklog" in out


def test_installed_script_help() -> None:
    script = Path(sys.executable).with_name("rinklog")
    if not script.exists():
        pytest.skip("rinklog console script not installed (pip install -e .)")
    done = subprocess.run([str(script), "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert "Example: rinklog" in done.stdout


def test_teams(capsys) -> None:
    code, out, _ = run(capsys, "teams", "--json")
    assert code == 0
    teams = json.loads(out)
    assert len(teams) >= 2
    assert all(set(t) == {"id", "name"} for t in teams)
    code, out, _ = run(capsys, "teams")
    assert out.split() == [t["id"] for t in teams]


def test_sim_json_writes_a_game(capsys, tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    result = sim_json(capsys, db, "7")
    assert set(result) == SIM_KEYS
    assert set(result["score"]) == {"home", "away"}
    assert result["decided"] in {"REG", "OT", "SO"}
    with open_store(db) as store:
        assert store.head_hash(result["game_id"]) == result["head_hash"]
        assert store.version(result["game_id"]) == result["events"]
    code, out, _ = run(capsys, "games", "--db", str(db), "--ids")
    assert out.split() == [result["game_id"]]
    code, out, _ = run(capsys, "games", "--db", str(db), "--json")
    (listed,) = json.loads(out)
    assert {k: listed[k] for k in SIM_KEYS} == result
    assert (listed["parent"], listed["in_progress"]) == (None, False)


def test_sim_text_line(capsys, tmp_path: Path) -> None:
    code, out, _ = run(capsys, "sim", "--home", "HFX", "--away", "QUE", "--seed", "2026",
                       "--db", str(tmp_path / "t.db"))
    assert code == 0
    assert out.startswith("HFX ") and " QUE (" in out and "game HFX-QUE-2026" in out
    assert len(out.strip().splitlines()) == 1


def test_same_seed_same_head_hash(capsys, tmp_path: Path) -> None:
    one = sim_json(capsys, tmp_path / "one.db", "42")
    two = sim_json(capsys, tmp_path / "two.db", "42")
    other = sim_json(capsys, tmp_path / "three.db", "43")
    assert one["head_hash"] == two["head_hash"]
    assert one == two
    assert other["head_hash"] != one["head_hash"]


def test_second_sim_refused(capsys, tmp_path: Path) -> None:
    db = tmp_path / "dup.db"
    first = sim_json(capsys, db, "5")
    code, out, err = run(capsys, "sim", "--home", "HFX", "--away", "QUE", "--seed", "5",
                         "--db", str(db))
    assert_one_line_error(code, err)
    assert out == ""
    with open_store(db) as store:
        assert [s.stream for s in store.streams(kind="game")] == [first["game_id"]]
        assert store.head_hash(first["game_id"]) == first["head_hash"]


def test_seed_or_rolls_required(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "sim", "--home", "HFX", "--away", "QUE",
                       "--db", str(tmp_path / "x.db"))
    assert_one_line_error(code, err)


def test_unknown_team(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "sim", "--home", "HFX", "--away", "NOPE", "--seed", "1",
                       "--db", str(tmp_path / "x.db"))
    assert_one_line_error(code, err)
    assert "NOPE" in err


@pytest.mark.parametrize("command", ["events", "scoresheet"])
def test_unknown_game(capsys, tmp_path: Path, command: str) -> None:
    db = tmp_path / "g.db"
    sim_json(capsys, db, "1")
    code, out, err = run(capsys, command, "NO-SUCH-GAME", "--db", str(db))
    assert_one_line_error(code, err)
    assert "NO-SUCH-GAME" in err
    assert out == ""


def test_missing_database_is_not_created(capsys, tmp_path: Path) -> None:
    db = tmp_path / "missing.db"
    code, _, err = run(capsys, "games", "--db", str(db))
    assert_one_line_error(code, err)
    assert not db.exists()


def test_rolls_file_bad_line(capsys, tmp_path: Path) -> None:
    rolls = tmp_path / "rolls.txt"
    rolls.write_text("# typed at the table\n3 4 2 6\n\n7 1 1 1\n", encoding="utf-8")
    db = tmp_path / "r.db"
    code, _, err = run(capsys, "sim", "--home", "HFX", "--away", "QUE", "--rolls", str(rolls),
                       "--db", str(db))
    assert_one_line_error(code, err)
    assert f"{rolls}:4" in err


def test_rolls_file_runs_out_writes_nothing(capsys, tmp_path: Path) -> None:
    rolls = tmp_path / "few.txt"
    rolls.write_text("3 4 2 6\n1 1 1 1  # two rolls only\n", encoding="utf-8")
    db = tmp_path / "r.db"
    code, _, err = run(capsys, "sim", "--home", "HFX", "--away", "QUE", "--rolls", str(rolls),
                       "--db", str(db))
    assert_one_line_error(code, err)
    assert "ran out of rolls" in err
    with open_store(db) as store:
        assert store.streams(kind="game") == []


def test_rolls_file_missing(capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "sim", "--home", "HFX", "--away", "QUE",
                       "--rolls", str(tmp_path / "nope.txt"), "--db", str(tmp_path / "r.db"))
    assert_one_line_error(code, err)


@pytest.mark.parametrize("argv", [["games"], ["events", "X"], ["scoresheet", "X"],
                                  ["sim", "--home", "HFX", "--away", "QUE", "--seed", "1"]])
def test_corrupted_database(capsys, tmp_path: Path, argv: list[str]) -> None:
    db = tmp_path / "bad.db"
    db.write_bytes(b"\x00garbage, not sqlite\xff" * 64)
    code, _, err = run(capsys, *argv, "--db", str(db))
    assert_one_line_error(code, err)


def test_corrupted_database_subprocess(tmp_path: Path) -> None:
    db = tmp_path / "bad.db"
    db.write_bytes(b"this is not a database" * 100)
    done = subprocess.run([sys.executable, "-m", "replay.cli", "games", "--db", str(db)],
                          capture_output=True, text=True, check=False,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith("rinklog: error: ")


def test_events_json_and_text(capsys, reg_game) -> None:
    db, meta = reg_game
    code, out, _ = run(capsys, "events", meta["game_id"], "--db", str(db), "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows[0]["type"] == "GameCreated" and rows[-1]["type"] == "GameEnded"
    assert [r["seq"] for r in rows] == list(range(1, len(rows) + 1))
    assert all(len(r["hash"]) == 64 for r in rows)
    with open_store(db) as store:
        assert rows[-1]["hash"] == store.head_hash(meta["game_id"])
    code, text, _ = run(capsys, "events", meta["game_id"], "--db", str(db))
    lines = text.splitlines()
    assert len(lines) == len(rows)
    assert lines[1].startswith("2 PeriodStarted period=1")


def test_scoresheet_json(capsys, reg_game) -> None:
    db, meta = reg_game
    code, out, _ = run(capsys, "scoresheet", meta["game_id"], "--db", str(db), "--json")
    assert code == 0
    sheet = json.loads(out)
    assert SHEET_KEYS <= set(sheet)
    assert sheet["decided"] == "REG"
    for side in ("home", "away"):
        assert TEAM_KEYS <= set(sheet[side])
        assert set(sheet[side]["pp"]) == {"opportunities", "goals"}
        assert len(sheet[side]["shots"]) == 3
        assert sheet[side]["goals"] == meta[f"{side}_goals"]
    assert len(sheet["goals"]) == meta["home_goals"] + meta["away_goals"]
    for goal in sheet["goals"]:
        assert {"period", "time", "team", "scorer", "scorer_name", "assists",
                "strength"} <= set(goal)
    for pen in sheet["penalties"]:
        assert {"period", "time", "team", "player", "type", "minutes"} <= set(pen)
    for goalie in sheet["goalies"]:
        assert {"team", "player", "toi", "shots_against", "saves",
                "goals_against"} <= set(goalie)


def test_scoresheet_text_shows_names(capsys, reg_game) -> None:
    db, meta = reg_game
    code, out, _ = run(capsys, "scoresheet", meta["game_id"], "--db", str(db), "--json")
    sheet = json.loads(out)
    code, text, _ = run(capsys, "scoresheet", meta["game_id"], "--db", str(db))
    assert code == 0
    assert "(REG)" in text or "[REG]" in text
    for heading in ("Score by period", "Goals", "Penalties", "Shots on goal", "Goalies"):
        assert heading in text
    for goal in sheet["goals"]:
        assert goal["scorer_name"] in text
    for goalie in sheet["goalies"]:
        assert goalie["name"] in text


def test_cards_validate(capsys, tmp_path: Path) -> None:
    code, out, _ = run(capsys, "cards", "validate", "fixtures/bones")
    assert code == 0
    assert out.startswith("ok: ") and out.strip().endswith("files")
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 'no skaters'\n", encoding="utf-8")
    code, out, err = run(capsys, "cards", "validate", str(tmp_path))
    assert code == 1
    assert len(err.strip().splitlines()) == 1 and "bad.toml" in err


def test_cards_generate(capsys, tmp_path: Path) -> None:
    out_dir = tmp_path / "gen"
    code, out, _ = run(capsys, "cards", "generate", str(out_dir), "ABC:Alpha Bees:0.2",
                       "--seed", "3")
    assert code == 0
    assert (out_dir / "abc.toml").is_file()
    code, out, _ = run(capsys, "cards", "validate", str(out_dir))
    assert code == 0 and out.strip() == "ok: 1 file"  # issue 34 item 14: not "1 files"
    code, _, err = run(capsys, "cards", "generate", str(out_dir), "ABC")
    assert_one_line_error(code, err)


def test_sim_late_penalty_house_rule_is_an_option_recorded_in_the_game(capsys, tmp_path: Path) -> None:
    from events.common import GameCreated
    from replay.games.game_streams import read_game

    db = tmp_path / "late.db"
    code, _, _ = run(capsys, "sim", "--home", "HFX", "--away", "QUE", "--seed", "5",
                     "--late-penalty-house-rule", "--db", str(db))
    assert code == 0
    code, _, _ = run(capsys, "sim", "--home", "HFX", "--away", "QUE", "--seed", "6",
                     "--db", str(db))
    assert code == 0
    with open_store(db) as store:
        created = {gid: read_game(store, gid)[0] for gid in ("HFX-QUE-5", "HFX-QUE-6")}
    assert all(isinstance(c, GameCreated) for c in created.values())
    assert created["HFX-QUE-5"].late_penalty_house_rule is True
    assert created["HFX-QUE-6"].late_penalty_house_rule is False


def test_sim_faceoff2008_json_and_its_options(capsys, tmp_path: Path) -> None:
    """The issue's command line: a FaceOff 2008 game, stored, audited clean."""
    from events.common import GameCreated
    from replay.games.game_streams import read_game

    db = tmp_path / "fo.db"
    code, out, _ = run(capsys, "sim", "--ruleset", "faceoff2008", "--home", "HFX", "--away",
                       "QUE", "--seed", "1", "--json", "--db", str(db))
    assert code == 0
    result = json.loads(out)
    assert result["game_id"] == "HFX-QUE-1-faceoff2008"
    assert result["decided"] in ("REG", "OT", "TIE")
    code, _, _ = run(capsys, "sim", "--ruleset", "faceoff2008", "--optional-rule", "injuries",
                     "--home", "HFX", "--away", "QUE", "--seed", "2", "--db", str(db))
    assert code == 0
    with open_store(db) as store:
        first = read_game(store, "HFX-QUE-2-faceoff2008")[0]
    assert isinstance(first, GameCreated) and first.option("faceoff_injuries")
    assert run(capsys, "audit", "--all", "--db", str(db))[0] == 0
    code, _, err = run(capsys, "sim", "--optional-rule", "fatigue", "--home", "HFX", "--away",
                       "QUE", "--seed", "3", "--db", str(db))
    assert_one_line_error(code, err)
    assert "faceoff2008" in err


# --- counts and their nouns (issue 34 item 14) ---------------------------------------------

NOUNS = ("balls", "bytes", "events", "files", "games", "pages", "picks", "rolls", "runs",
         "seasons", "streams", "teams", "weeks")


def counts_without_counted(source: str) -> list[str]:
    """Each f-string in ``source`` that puts a plural noun right after a number it
    formats (``f"{n} games"``), which reads ``1 games`` when n is 1: such a count goes
    through ``events.plurals.counted``."""
    import ast
    import re
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.JoinedStr):
            continue
        for value, after in zip(node.values, node.values[1:], strict=False):
            if (isinstance(value, ast.FormattedValue) and value.format_spec is None
                    and isinstance(after, ast.Constant) and isinstance(after.value, str)
                    and (word := re.match(r" ([a-z]+)\b", after.value))
                    and word.group(1) in NOUNS):
                found.append(f"{node.lineno}: {{...}}{after.value[:20]}")
    return found


def test_no_command_says_1_pages() -> None:
    """Issue 34 item 14: "Plurals (`wrote 1 pages`, `receipt for 1 games`, `picks of 1
    teams`)": no message of a command counts with a fixed plural."""
    cli = Path(__file__).resolve().parents[1] / "replay" / "cli"
    found = {path.name: hits for path in sorted(cli.glob("*.py"))
             if (hits := counts_without_counted(path.read_text(encoding="utf-8")))}
    assert found == {}
    assert counts_without_counted('f"wrote {pages} pages into {output}"') == [
        "1: {...} pages into "]


def test_no_audit_finding_or_library_message_says_1_games() -> None:
    """The same for what the commands print from the library: the audit's findings and
    warnings, the seasons', receipts' and Matrix Hockey's messages ("1 games" nowhere).
    A stream's owner (``{owner} events 3-9``: "game X's events") is a name, not a count."""
    root = Path(__file__).resolve().parents[1] / "replay"
    found = {}
    for folder in ("leagues", "systems", "data", "games", "reports"):
        for path in sorted((root / folder).rglob("*.py")):
            source = path.read_text(encoding="utf-8").replace("{owner} events", "{owner}: events")
            if hits := counts_without_counted(source):
                found[str(path.relative_to(root))] = hits
    assert found == {}


def test_receipt_of_one_game_says_one_game(capsys, reg_game, tmp_path: Path) -> None:
    """Issue 34 item 14: not "receipt for 1 games"."""
    db, game = reg_game
    code, out, err = run(capsys, "receipt", game["game_id"], "-o", str(tmp_path / "r.json"),
                         "--db", str(db))
    assert code == 0, err
    assert out.startswith("receipt for 1 game written to ")


def test_a_reader_that_leaves_early_is_no_failure(reg_game: tuple[Path, dict]) -> None:
    """`rinklog events GAME | head -n 1` (as the docs pipe commands into head) exits 0:
    the reader leaving early is click's broken pipe, not an error, whichever click names
    its wrapper (newer clicks: ``_PacifyFlushWrapper``). Run ten times: the pipe breaks at
    a different write each time."""
    import subprocess
    import sys

    db, result = reg_game
    rinklog = Path(sys.executable).with_name("rinklog")
    if not rinklog.exists():
        pytest.skip("rinklog is not installed beside this Python")
    script = (f"for i in 1 2 3 4 5 6 7 8 9 10; do '{rinklog}' events {result['game_id']} "
              f"--db '{db}' | head -n 1 > /dev/null; echo ${{PIPESTATUS[0]}}; done")
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.stdout.split() == ["0"] * 10, done.stderr


def test_a_command_that_only_reads_read_models_loads_no_sqlite_utils(tmp_path: Path) -> None:
    """projections/store.py imports sqlite-utils only to make tables: a season stored
    loads it, ``standings`` over it does not (that import was about a tenth of a read
    command's CPU)."""
    db = tmp_path / "s.db"

    def loaded_after(*args: str) -> str:
        script = (
            "import sys\n"
            "from replay.cli.app import main\n"
            f"code = main({list(args)!r})\n"
            "print(code, 'sqlite_utils' in sys.modules, file=sys.stderr)\n")
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=120, cwd=Path(__file__).resolve().parent.parent)
        return done.stderr.splitlines()[-1]

    assert loaded_after("season", "--games", "2", "--workers", "1", "--db", str(db)) \
        == "0 True"
    assert loaded_after("standings", "--db", str(db)) == "0 False"
