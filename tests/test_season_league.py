"""A season keeps its league (issue 34, "What users see, round 3", item 8).

Issue 34 item 8: "A season made with ``--league ./myleague`` needs ``--league
./myleague`` again for ``playoffs``, ``lottery --draw`` and ``odds`` ("no league.toml
there and no bundled league of that name"). The season keeps its league: the league file
is stored with the season (as its cards already are) and pinned in its first event, so
every later command reads it from the database; ``--league`` stays only to point at a
changed league, which is refused if it would change a season already begun."

The league is tests/setups.py's ``tiny`` (dicedemo's eight teams, 4 games each, its
``[playoffs] teams = 4, series = [1, 1]``): no bundled league of that name, so without
the stored file every later command would have to be given its folder.
"""

from __future__ import annotations

import gzip
import shutil
import sqlite3
from pathlib import Path

import pytest
from msgspec import UNSET
from setups import run_cli, tiny_league

from events.blobs import blob_hash
from events.league import SeasonCreated
from replay.games.game_streams import open_store
from replay.leagues.postseason import read_bracket
from replay.leagues.season_league import LEAGUE_MEDIA, league_file_wrong

SEED = "3"
SEASON = f"tiny-{SEED}"
OLD_DB = Path(__file__).resolve().parent / "data/odds-v1.db.gz"


def _ok(*argv: str) -> str:
    code, out, err = run_cli(list(argv))
    assert code == 0, err
    return out


def _refused(*argv: str) -> str:
    """``rinklog ARGV`` refused: exit 1 and one line on stderr (returned)."""
    code, _, err = run_cli(list(argv))
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1, err
    return lines[0]


@pytest.fixture(scope="module")
def begun(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The tiny season half played (8 of 16 games) from a league folder, the folder then
    deleted: what is left is the database."""
    where = tmp_path_factory.mktemp("season-league")
    folder = tiny_league(where)
    toml = (folder / "league.toml").read_bytes()
    db = where / "begun.db"
    _ok("season", "--league", str(folder), "--seed", SEED, "--games", "8", "--workers", "1",
        "--db", str(db))
    shutil.rmtree(folder)
    return {"db": db, "where": where, "toml": toml}


@pytest.fixture
def db(begun: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the begun season's database, run from a folder with no league in it."""
    monkeypatch.chdir(tmp_path)
    return Path(shutil.copy(begun["db"], tmp_path / "s.db"))


def _created(db: Path, season: str = SEASON) -> SeasonCreated:
    with open_store(db) as store:
        created = store.read(season, 1, 1)[0].event
    assert isinstance(created, SeasonCreated)
    return created


def _state(db: Path) -> tuple[dict[str, str], list[str]]:
    """Every stream's head hash and every blob: what a refused command must not touch."""
    with open_store(db) as store:
        return ({s.stream: store.head_hash(s.stream) for s in store.streams()},
                sorted(store.blob_hashes()))


def test_the_league_file_is_stored_and_pinned_in_the_first_event(begun) -> None:
    """"the league file is stored with the season (as its cards already are) and pinned
    in its first event"."""
    created = _created(begun["db"])
    assert created.league_hash == blob_hash(begun["toml"])
    with open_store(begun["db"]) as store:
        assert store.blob_record(created.league_hash) == (begun["toml"], LEAGUE_MEDIA)


def test_every_later_command_reads_the_league_from_the_database(db: Path) -> None:
    """The folder is gone: ``season`` (playing on), ``standings``, ``odds``, ``lottery
    --draw`` and ``playoffs`` all run without ``--league``, and the postseason is the
    stored league's ``[playoffs] teams = 4, series = [1, 1]``: two rounds of four teams."""
    out = _ok("season", "--seed", SEED, "--workers", "1", "--db", str(db))
    assert out.startswith(f"season {SEASON}: 8 games played") and "8 already stored" in out
    assert "GP" in _ok("standings", "--season", SEASON, "--db", str(db))
    assert SEASON in _ok("odds", SEASON, "--runs", "2", "--workers", "1", "--db", str(db))
    _ok("lottery", SEASON, "--draw", "--db", str(db))
    _ok("playoffs", SEASON, "--workers", "1", "--db", str(db))
    with open_store(db) as store:
        bracket = read_bracket(store, SEASON)
    assert bracket.round_count == 2 and bracket.champion
    assert len({t for s in bracket.rounds[0].series for t in (s.high, s.low)}) == 4
    assert _ok("audit", "--all", "--db", str(db)).strip().splitlines()[-1].startswith(
        "no findings")


def test_the_same_league_from_another_folder_is_taken(db: Path, tmp_path: Path) -> None:
    """``--league`` may name the same league elsewhere (a comment added changes no
    setting): the season plays on."""
    folder = tiny_league(tmp_path / "elsewhere")
    with (folder / "league.toml").open("a") as toml:
        toml.write("# moved here\n")
    out = _ok("season", "--league", str(folder), "--seed", SEED, "--games", "9",
              "--workers", "1", "--db", str(db))
    assert "1 game played" in out
    _ok("odds", SEASON, "--runs", "1", "--workers", "1", "--league", str(folder),
        "--db", str(db))


@pytest.mark.parametrize("command", [
    ["season", "--seed", SEED, "--workers", "1"],
    ["playoffs", SEASON, "--workers", "1"],
    ["playoffs", SEASON, "--ready"],
    ["lottery", SEASON, "--draw"],
    ["odds", SEASON, "--runs", "1", "--workers", "1"],
])
def test_a_changed_league_is_refused_in_one_line_and_nothing_written(
        db: Path, tmp_path: Path, command: list[str]) -> None:
    """"--league stays only to point at a changed league, which is refused if it would
    change a season already begun": a [playoffs] table and a team's cards changed, each
    named, exit 1, nothing written."""
    folder = tiny_league(tmp_path / "changed")
    toml = folder / "league.toml"
    toml.write_text(toml.read_text().replace("series = [1, 1]", "series = [3, 3]"))
    team = folder / "teams" / "drf.toml"
    team.write_text(team.read_text().replace('name = "Driftwood Pilots"',
                                             'name = "Driftwood Flyers"'))
    before = _state(db)
    line = _refused(*command, "--league", str(folder), "--db", str(db))
    assert f"season {SEASON} keeps the league it was begun with" in line
    assert "league.toml's playoffs" in line and "the cards of DRF" in line
    assert "nothing written" in line
    assert _state(db) == before


def test_a_league_file_edited_in_the_database_fails_the_audit(db: Path) -> None:
    """The audit holds the stored league file to its pin: a forger who edits it (another
    [playoffs] for the season) is caught by ``audit --all``."""
    created = _created(db)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE blobs SET content = replace(content, 'teams = 4', 'teams = 2') "
                    "WHERE hash = ?", (created.league_hash,))
    code, out, _ = run_cli(["audit", "--all", "--db", str(db)])
    assert code != 0
    season = next(line for line in out.splitlines() if line.startswith(f"{SEASON}:"))
    assert "FAILED" in season and "league file" in season


def test_a_league_file_must_say_the_season_s_league() -> None:
    """The audit's check of the file beside SeasonCreated: another league's name, or
    other divisions, is no file of this season."""
    created = SeasonCreated(season_id="tiny-3", league="tiny", seed="3", charts_hash="",
                            team_hashes={}, schedule=[],
                            divisions=[("East", "North", ["ALD", "BRK"])])
    good = (b'name = "tiny"\n[[conferences]]\nname = "East"\n[[conferences.divisions]]\n'
            b'name = "North"\nteams = ["ALD", "BRK"]\n')
    assert league_file_wrong(created, good) is None
    assert "'other'" in league_file_wrong(created, good.replace(b'"tiny"', b'"other"'))
    assert "divisions" in league_file_wrong(created, good.replace(b'"BRK"]', b'"CDV"]'))
    assert "does not read" in league_file_wrong(created, b"name = ")


def test_an_old_season_audits_and_keeps_needing_its_league(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/data/odds-v1.db.gz, stored before seasons kept their league file: it audits
    clean, keeps its bytes, and its later commands still need ``--league`` (one line
    saying so), which they take as before."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "old.db"
    db.write_bytes(gzip.decompress(OLD_DB.read_bytes()))
    assert _created(db, "tiny-v1").league_hash is UNSET
    before = _state(db)
    _ok("audit", "--all", "--db", str(db))
    line = _refused("odds", "tiny-v1", "--runs", "1", "--workers", "1", "--db", str(db))
    assert "stored before seasons kept their league file" in line and "--league" in line
    folder = tiny_league(tmp_path)
    _ok("odds", "tiny-v1", "--runs", "1", "--workers", "1", "--league", str(folder),
        "--db", str(db))
    assert _state(db) == before


def test_two_seasons_of_one_seed_need_league_to_say_which(db: Path, tmp_path: Path) -> None:
    """``season`` without ``--league`` plays on the season of its seed; two of them (two
    leagues) are one line asking for ``--league``."""
    folder = tiny_league(tmp_path / "other")
    toml = folder / "league.toml"
    toml.write_text(toml.read_text().replace('name = "tiny"', 'name = "other"'))
    _ok("season", "--league", str(folder), "--seed", SEED, "--games", "1", "--workers", "1",
        "--db", str(db))
    line = _refused("season", "--seed", SEED, "--workers", "1", "--db", str(db))
    assert "2 seasons of seed '3'" in line and "give --league" in line


@pytest.mark.parametrize("command", [["playoffs"], ["lottery"], ["odds"], ["season"]])
def test_help_says_league_is_optional_for_a_stored_season(command: list[str]) -> None:
    """Each command's help says a stored season's league is the default for --league."""
    out = " ".join(_ok(*command, "--help").split())
    assert "the league the season stored" in out or "plays on with the league it stored" in out
