"""A reader is never shown a forgery without a word (issue 33, item 3).

The issue: "A byte edited in a stored game: `scoresheet`, `stats`, `standings`, the pages
and `serve` show the edited figures with no warning until someone runs `audit`. Every read
command checks the hash chain of the streams it shows against their stored heads [...] and
puts one warning line first (the stream, the seq range of the break, "run rinklog audit")
when it doesn't hold; pages carry the same as a banner." Done when "a read command on a
tampered database warns first".

The database is a short demo season (its read models stored by the season run); each test
edits a copy with plain SQL, as a forger would, and runs the read commands.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from pages_data import served

from events.catalogue import open_store
from replay.cli.app import main
from replay.data.integrity import Broken, chain_breaks, read_model_breaks

SEASON = "demo-1"
GAME = "demo-1-0002"  # 1,292 events: checkpoints every 32 rows
KEY = "(SELECT key FROM streams WHERE stream = ?)"


@pytest.fixture(scope="module")
def season_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("tamper") / "season.db"
    assert main(["season", "--league", "demo", "--seed", "1", "--games", "4", "--workers", "1",
                 "--db", str(db)]) == 0
    return db


@pytest.fixture
def db(season_db: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "season.db"
    shutil.copy(season_db, copy)
    return copy


def edit_payload_byte(db: Path, stream: str, seq: int) -> None:
    """One digit of a stored payload changed in place (the payload still decodes)."""
    with sqlite3.connect(db) as conn:
        (payload,) = conn.execute(f"SELECT payload FROM events WHERE stream_key = {KEY} AND seq = ?",
                                  (stream, seq)).fetchone()
        at = next(i for i, b in enumerate(payload) if chr(b) in "123456789")
        forged = payload[:at] + (b"2" if payload[at:at + 1] != b"2" else b"3") + payload[at + 1:]
        conn.execute(f"UPDATE events SET payload = ? WHERE stream_key = {KEY} AND seq = ?",
                     (forged, stream, seq))


def edit_read_model_row(db: Path, game: str) -> None:
    """A skater's goals in a game's stored stats read model, raised by five."""
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rm_player_stats SET g = g + 5 WHERE game_id = ? AND player ="
                     " (SELECT player FROM rm_player_stats WHERE game_id = ? ORDER BY player"
                     " LIMIT 1)", (game, game))
        assert conn.total_changes == 1


READ_COMMANDS = [
    ["scoresheet", GAME], ["scoresheet", GAME, "--json"], ["events", GAME],
    ["events", GAME, "--json"], ["toi", GAME], ["penalties", GAME], ["stats", GAME],
    ["stats", "--all", "--json"], ["stats", "--all", "--csv"], ["standings"],
    ["standings", "--json"], ["standings", "--by", "division"], ["leaders"],
    ["leaders", "--json"], ["games"], ["games", "--json"], ["explain", GAME, "40"],
]


def run(argv: list[str], db: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    assert main([*argv, "--db", str(db)]) == 0, capsys.readouterr().err
    captured = capsys.readouterr()
    return captured.out, captured.err


@pytest.mark.parametrize("argv", READ_COMMANDS, ids=" ".join)
def test_a_read_command_on_an_edited_payload_warns_first(
        argv: list[str], db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"puts one warning line first (the stream, the seq range of the break, "run rinklog
    audit") when it doesn't hold": event 40 lies between the checkpoints at 32 and 64, so
    the break is events 33-64; the command still shows what it shows, exit code 0, and
    its --json stays JSON (the warning is on stderr)."""
    edit_payload_byte(db, GAME, 40)
    out, err = run(argv, db, capsys)
    first = err.splitlines()[0]
    assert first.startswith("rinklog: warning: ")
    assert f"game {GAME}" in first and "events 33-64" in first
    assert "run rinklog audit" in first
    assert sum("warning" in line for line in err.splitlines()) == 1
    if "--json" in argv:
        json.loads(out) if argv[0] != "events" else [json.loads(x) for x in out.splitlines()]


@pytest.mark.parametrize("argv", READ_COMMANDS, ids=" ".join)
def test_a_read_command_on_an_untouched_database_says_nothing(
        argv: list[str], db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, err = run(argv, db, capsys)
    assert "warning" not in err


def test_the_break_is_typed_stream_and_seq_range(db: Path) -> None:
    """The library's answer: the stream and the seq range the changed payload lies in
    (between two checkpoints, or after the last one: up to the head)."""
    edit_payload_byte(db, GAME, 40)
    edit_payload_byte(db, "demo-1-0003", 1170)  # 1,174 events: after the checkpoint at 1,152
    with open_store(db, create=False) as store:
        found = chain_breaks(store, [SEASON, "demo-1-0001", GAME, "demo-1-0003"])
    assert found == [Broken(GAME, 33, 64, "events"), Broken("demo-1-0003", 1153, 1174, "events")]


def test_an_edited_read_model_row_is_found_by_the_read_model_check(db: Path) -> None:
    """"a read-model row edited with the events intact must also warn": the check folds the
    game again and names the table whose stored rows differ (the commands about one game
    below, and every audit; leaders and serve hold only chains and the standings, as a whole
    season's games folded again would cost them half a minute, docs/trust.md)."""
    edit_read_model_row(db, GAME)
    with open_store(db, create=False) as store:
        assert read_model_breaks(store, [GAME, "demo-1-0001"], ("stats",)) == [
            Broken(GAME, 0, 0, "rm_player_stats")]


SHOWN_WITH_ITS_READ_MODELS = [
    ["scoresheet", GAME], ["scoresheet", GAME, "--json"], ["events", GAME], ["toi", GAME],
    ["penalties", GAME, "--csv"], ["stats", GAME], ["explain", GAME, "40"],
]


@pytest.mark.parametrize("argv", SHOWN_WITH_ITS_READ_MODELS, ids=" ".join)
def test_a_game_command_names_its_edited_read_model(
        argv: list[str], db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A command about one game folds its events (what it shows is right), and names a
    stored read model of the game that differs from them (what SQL tools and serve show)."""
    edit_read_model_row(db, GAME)
    _, err = run(argv, db, capsys)
    assert err.startswith(f"rinklog: warning: game {GAME}'s stored read model rm_player_stats "
                          "does not match its events")


def test_standings_name_edited_stored_standings(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rm_standings SET points = points + 2 WHERE season = ? AND rank = 1",
                     (SEASON,))
    _, err = run(["standings", "--json"], db, capsys)
    assert err.startswith(f"rinklog: warning: season {SEASON}'s stored read model "
                          "rm_standings does not match its events")


def test_every_page_of_a_season_site_carries_the_banner(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"pages carry the same as a banner": the edited game's page and every page that
    sums the season's games; another game's own page does not."""
    edit_payload_byte(db, GAME, 40)
    site = tmp_path / "site"
    _, err = run(["report", "--season", SEASON, "-o", str(site)], db, capsys)
    assert err.splitlines()[0].startswith("rinklog: warning: ")
    for page in ("index.html", f"games/{GAME}.html"):
        text = (site / page).read_text(encoding="utf-8")
        banner = text.split("<body>\n", 1)[1].split("\n", 1)[0]
        assert 'class="banner"' in banner and GAME in banner and "events 33-64" in banner
    assert 'class="banner"' not in (site / "games" / "demo-1-0001.html").read_text(
        encoding="utf-8")
    page = tmp_path / "game.html"
    run(["report", GAME, "-o", str(page)], db, capsys)
    assert 'class="banner"' in page.read_text(encoding="utf-8").split("<body>\n", 1)[1][:400]


def test_an_untouched_site_has_no_banner(db: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site"
    run(["report", "--season", SEASON, "-o", str(site)], db, capsys)
    assert not any('class="banner"' in p.read_text(encoding="utf-8")
                   for p in site.rglob("*.html"))


def _served(db: Path, path: str) -> str:
    pytest.importorskip("datasette")
    return served(db, path)


@pytest.mark.parametrize("edit", ["payload", "standings"])
def test_serve_shows_a_banner_on_every_page(edit: str, db: Path) -> None:
    """`serve` shows a banner too, on its front page, a table's and a canned query's:
    for a game's edited events, and for a season's edited stored standings."""
    if edit == "payload":
        edit_payload_byte(db, GAME, 40)
    else:
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE rm_standings SET points = points + 2 WHERE season = ? "
                         "AND rank = 1", (SEASON,))
        conn.close()
    named = GAME if edit == "payload" else SEASON
    for path in ("/", "/season", "/season/rm_player_stats", "/season/season_standings"):
        page = _served(db, path)
        assert 'class="message-error rinklog-warning"' in page, path
        assert named in page.split('rinklog-warning">', 1)[1].split("</p>", 1)[0]


def test_serve_on_an_untouched_database_has_no_banner(db: Path) -> None:
    assert "rinklog-warning" not in _served(db, "/")


MUTATIONS = {
    "a payload byte": lambda c: edit_payload_byte_in(c, 40),
    "the last payload": lambda c: edit_payload_byte_in(c, 1292),
    "a stored checkpoint hash": lambda c: c.execute(
        f"UPDATE events SET hash = zeroblob(32) WHERE stream_key = {KEY} AND seq = 64", (GAME,)),
    "a hash written where none is kept": lambda c: c.execute(
        f"UPDATE events SET hash = zeroblob(32) WHERE stream_key = {KEY} AND seq = 65", (GAME,)),
    "the head": lambda c: c.execute(
        "UPDATE streams SET head_hash = ? WHERE stream = ?", ("1" * 64, GAME)),
    "the last row removed": lambda c: c.execute(
        f"DELETE FROM events WHERE stream_key = {KEY} AND seq = 1292", (GAME,)),
    "hash_every": lambda c: c.execute(
        "UPDATE streams SET hash_every = 16 WHERE stream = ?", (GAME,)),
}


def edit_payload_byte_in(conn: sqlite3.Connection, seq: int) -> None:
    (payload,) = conn.execute(f"SELECT payload FROM events WHERE stream_key = {KEY} AND seq = ?",
                              (GAME, seq)).fetchone()
    conn.execute(f"UPDATE events SET payload = ? WHERE stream_key = {KEY} AND seq = ?",
                 (payload.replace(b"]", b" ]", 1), GAME, seq))


@pytest.mark.parametrize("mutation", MUTATIONS)
def test_the_quick_pass_agrees_with_the_chain_check(mutation: str, db: Path) -> None:
    """The quick pass every read command runs (EventStore.chain_holds) holds exactly when
    the chain check (EventStore.verify) finds nothing: on an honest stream, and on each
    edit."""
    with open_store(db, create=False) as store:
        assert store.chain_holds(GAME) and store.verify(GAME) is None
    with sqlite3.connect(db) as conn:
        MUTATIONS[mutation](conn)
    with open_store(db, create=False) as store:
        assert not store.chain_holds(GAME) and store.verify(GAME) is not None
        assert store.chain_holds("demo-1-0001")


def test_a_season_receipt_of_edited_standings_warns_first(
        db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A season's receipt signs the digest of its stored standings (rm_standings): a row
    edited there is named first (then the receipt's own audit refuses it)."""
    run(["receipt", "--season", SEASON, "-o", str(tmp_path / "honest.json")], db, capsys)
    assert "warning" not in capsys.readouterr().err
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rm_standings SET points = points + 2 WHERE season = ? AND rank = 1",
                     (SEASON,))
    assert main(["receipt", "--season", SEASON, "-o", str(tmp_path / "r.json"), "--db",
                 str(db)]) == 1
    err = capsys.readouterr().err
    assert "fails the audit" in err.splitlines()[1]
    assert err.startswith(f"rinklog: warning: season {SEASON}'s stored read model "
                          "rm_standings does not match its events")
