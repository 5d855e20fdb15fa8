"""The database in Datasette: `rinklog serve` serves it read-only on localhost with
rinklog's canned queries (box score, goalies, scoring summary, standings, a player's game
log), whose rows equal the read models; and the same answers come from plain SQL."""

from __future__ import annotations

import html
import json
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from pages_data import served

from replay.cli.app import main

pytest.importorskip("datasette", reason="Datasette is an optional extra (rinklog[serve])")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _page(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - localhost
        return response.read().decode()


def _get(url: str) -> object:
    with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - localhost
        return json.loads(response.read())


@pytest.fixture(scope="module")
def season_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("ds") / "league.db"
    assert main(["season", "--games", "4", "--workers", "1", "--db", str(db)]) == 0
    assert main(["projections", "update", "--db", str(db)]) == 0
    return db


def test_plain_sql_reads_names_box_scores_and_standings(season_db: Path) -> None:
    db = sqlite3.connect(season_db)
    rows = db.execute("SELECT name, g, a, p FROM box_score WHERE game_id = 'demo-1-0001'"
                      ).fetchall()
    assert len(rows) == 36 and all(isinstance(r[0], str) and " " in r[0] for r in rows)
    goals = db.execute("SELECT home_goals + away_goals FROM rm_scoresheet_games "
                       "WHERE game_id = 'demo-1-0001'").fetchone()[0]
    assert sum(r[1] for r in rows) == goals - db.execute(
        "SELECT count(*) FROM rm_scoresheet_goals WHERE game_id = 'demo-1-0001' "
        "AND period = 5").fetchone()[0]
    standings = db.execute("SELECT team, gp, points FROM rm_standings WHERE season = 'demo-1'"
                           " ORDER BY rank").fetchall()
    assert sum(gp for _, gp, _ in standings) == 2 * 4
    db.close()


def test_rinklog_serve_answers_the_canned_queries(season_db: Path) -> None:
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "replay.cli", "serve", "--db",
                               str(season_db), "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _get(f"{base}/-/versions.json")
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(server.stderr.read().decode()) from None
                time.sleep(0.2)
        name = season_db.stem
        box = _get(f"{base}/{name}/game_box_score.json?game_id=demo-1-0001&_shape=array")
        db = sqlite3.connect(season_db)
        want = db.execute("SELECT sum(g), sum(a) FROM rm_player_stats "
                          "WHERE game_id = 'demo-1-0001'").fetchone()
        assert (sum(r["g"] for r in box), sum(r["a"] for r in box)) == want
        standings = _get(f"{base}/{name}/season_standings.json?season=demo-1&_shape=array")
        assert [r["team"] for r in standings] == [t for (t,) in db.execute(
            "SELECT team FROM rm_standings WHERE season = 'demo-1' ORDER BY rank")]
        player = box[0]["name"]
        log = _get(f"{base}/{name}/player_game_log.json?name={urllib.request.quote(player)}"
                   "&_shape=array")
        assert log and {r["game_id"] for r in log} <= {f"demo-1-000{n}" for n in range(1, 5)}
        goalies = _get(f"{base}/{name}/game_goalies.json?game_id=demo-1-0001&_shape=array")
        assert {r["decision"] for r in goalies} >= {"W"}
        db.close()
        # the database is served immutable: a POST to a canned query is refused in one
        # line (405), not a server error, and the server goes on answering
        post = urllib.request.Request(f"{base}/{name}/season_standings.json",
                                      data=b"season=demo-1", method="POST")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(post, timeout=10)  # noqa: S310 - localhost
        assert refused.value.code == 405
        assert json.loads(refused.value.read())["error"].startswith("read-only")
        assert _get(f"{base}/-/versions.json")
        # issue 24 (17): the canned queries are on the front page, each a link that opens
        # its form, and every table and view says what it holds
        from replay.datasette import metadata_for

        meta = metadata_for(season_db)
        front = _page(f"{base}/")
        for key, query in meta["databases"][name]["queries"].items():
            assert f'<a href="/{name}/{key}">{html.escape(query["title"])}</a>' in front, key
            assert query["title"] in html.unescape(_page(f"{base}/{name}/{key}")), key
        tables = meta["databases"][name]["tables"]
        db = sqlite3.connect(season_db)
        shown = {n for (n,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE"
            " 'ev\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")}
        db.close()
        assert shown <= set(tables), shown - set(tables)
        for table in ("rm_standings", "rm_goalie_stats", "box_score"):
            assert tables[table]["description"] in html.unescape(_page(f"{base}/{name}/{table}"))
    finally:
        server.terminate()  # what a service manager sends
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
    with socket.socket() as probe:  # stopping rinklog serve stopped the server: none listens
        assert probe.connect_ex(("127.0.0.1", port)) != 0


def test_serve_without_a_database_is_one_line(tmp_path: Path, capsys) -> None:
    assert main(["serve", "--db", str(tmp_path / "none.db")]) == 1
    assert capsys.readouterr().err.strip() == f"rinklog: error: {tmp_path / 'none.db'}: no such database"


def test_every_canned_query_runs_in_plain_sqlite(season_db: Path) -> None:
    """The metadata's canned queries are plain SQL over the read models: each runs in any
    SQLite tool, with its parameters, and finds rows."""
    from replay.datasette import metadata_for

    queries = metadata_for(season_db)["databases"][season_db.stem]["queries"]
    db = sqlite3.connect(season_db)
    name = db.execute("SELECT name FROM rm_rosters LIMIT 1").fetchone()[0]
    params = {"game_id": "demo-1-0001", "season": "demo-1", "name": name}
    for title, query in queries.items():
        rows = db.execute(query["sql"], params).fetchall()
        assert rows, title
    db.close()


def test_events_as_json_for_plain_sql(tmp_path: Path) -> None:
    """projections update --events keeps every game event as JSON: json_extract reads
    any field, the rows equal the events, and the audit holds them to the stream."""
    from replay.games.game_streams import open_store, read_game
    from replay.leagues.audit import audit_all

    db = tmp_path / "events.db"
    assert main(["sim", "--home", "HFX", "--away", "QUE", "--seed", "sql", "--db", str(db)]) == 0
    assert main(["projections", "update", "--events", "--db", str(db)]) == 0
    raw = sqlite3.connect(db)
    goals = raw.execute("SELECT json_extract(event, '$.scorer') FROM rm_events "
                        "WHERE game_id = 'HFX-QUE-sql' AND type = 'GoalScored' ORDER BY seq"
                        ).fetchall()
    with open_store(db) as store:
        events = read_game(store, "HFX-QUE-sql")
        assert [s for (s,) in goals] == [e.scorer for e in events
                                         if type(e).__name__ == "GoalScored"]
        assert raw.execute("SELECT count(*) FROM rm_events").fetchone()[0] == len(events)
        assert all(r.ok for r in audit_all(store))
    raw.execute("UPDATE rm_events SET event = json_set(event, '$.n', 99) WHERE seq = 5")
    raw.commit()
    raw.close()
    with open_store(db) as store:
        assert not all(r.ok for r in audit_all(store))  # a changed copy is caught



def test_each_canned_query_page_names_its_parameters(season_db: Path) -> None:
    """Issue 34 item 14: "`serve`'s canned queries name their parameters in the page so
    `?game=` is not silently empty": each query's description, on its page, says which
    parameter to fill and how it goes in the address."""
    import re

    from replay.datasette import metadata_for

    queries = metadata_for(season_db)["databases"][season_db.stem]["queries"]
    assert {"game_box_score", "season_standings", "player_game_log"} <= set(queries)
    for name, query in queries.items():
        page = served(season_db, f"/{season_db.stem}/{name}")
        described = page.split('<div class="metadata-description">', 1)[1].split("</div>")[0]
        for parameter in sorted(set(re.findall(r":(\w+)", query["sql"]))):
            assert f"?{parameter}=" in html.unescape(described), (name, parameter)


def test_a_web_leagues_passwords_and_sessions_read_as_null(tmp_path: Path) -> None:
    """rinklog serve on a league on the web's database (docs/web.md): its people's tables
    show nothing, whatever SQL asks."""
    import asyncio

    from replay.datasette import datasette_app
    db = tmp_path / "league.db"
    assert main(["season", "--league", "demo", "--seed", "1", "--games", "0", "--workers",
                 "1", "--db", str(db)]) == 0
    raw = sqlite3.connect(db)
    with raw:
        raw.execute("CREATE TABLE web_accounts (name TEXT PRIMARY KEY, password TEXT)")
        raw.execute("INSERT INTO web_accounts VALUES ('ana', '$argon2id$secret')")
    raw.close()
    app = datasette_app(db, warnings=[])

    async def asked(sql: str) -> list:
        answer = await app.client.get(f"/league.json?sql={urllib.request.quote(sql)}"
                                      "&_shape=array")
        return answer.json()
    assert asyncio.run(asked("select name, password from web_accounts")) == [
        {"name": None, "password": None}]
    assert asyncio.run(asked("select count(*) as n from streams")) == [{"n": 1}]
