"""A league on the web (issue 36, docs/web.md), driven through HTTP: a test league of four
teams (tests/web_league.py) whose coaches join by invitation, submit, confirm and dispute
table games, whose commissioner settles, and whose public pages are the CLI's figures.

Every request goes through the whole application (Litestar's test client: sessions,
CSRF, the size limit, the rate limit); the twenty submissions at once go to a real
server on this machine.
"""

from __future__ import annotations

import concurrent.futures
import io
import json
import re
import shutil
import time
from contextlib import redirect_stdout
from pathlib import Path

import pytest

pytest.importorskip("litestar", reason="the web extra (pip install 'rinklog[web]')")

import httpx  # noqa: E402
from litestar.testing import TestClient  # noqa: E402

from events.catalogue import open_store  # noqa: E402
from events.people import ResultSubmitted  # noqa: E402
from replay.cli.app import main  # noqa: E402
from replay.web.app import MAX_UPLOAD, league_app  # noqa: E402
from tests.web_league import (  # noqa: E402
    COACHES,
    COMMISSIONER,
    PASSWORD,
    SEASON,
    League,
    build_league,
    password_of,
    played,
    rehashed,
    serving,
    tampered,
)

CSRF = re.compile(r'name="_csrf_token" value="([^"]+)"')


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> tuple[League, dict[int, bytes]]:
    """The league with every coach joined, and table games 1-4 and a second version of
    game 3 as export files."""
    folder = tmp_path_factory.mktemp("web")
    league = build_league(folder)
    with TestClient(league_app(league.db)) as client:
        for team, link in league.links.items():
            joined = _post(client, link, f"{link}/accept", {
                "name": COACHES[team], "password": password_of(COACHES[team]),
                "again": password_of(COACHES[team])})
            assert joined.status_code == 303, joined.text
            _post(client, "/login", "/logout", {})
    games = {n: played(league.db, n) for n in (1, 2, 3, 4)}
    games[-3] = played(league.db, 3, seed="the other coach's dice")
    return league, games


@pytest.fixture
def league(base: tuple[League, dict[int, bytes]], tmp_path: Path) -> League:
    copy = tmp_path / "league.db"
    shutil.copy(base[0].db, copy)
    return League(copy, base[0].links, base[0].schedule)


@pytest.fixture
def games(base: tuple[League, dict[int, bytes]]) -> dict[int, bytes]:
    return base[1]


def _token(client: TestClient | httpx.Client, page: str) -> str:
    found = CSRF.search(client.get(page).text)
    assert found, f"no CSRF token on {page}"
    return found.group(1)


def _post(client: TestClient | httpx.Client, page: str, path: str, form: dict,
          files: dict | None = None) -> httpx.Response:
    """``form`` posted to ``path`` as the page ``page`` posts it (with its CSRF token)."""
    data = {**form, "_csrf_token": _token(client, page)}
    return client.post(path, data=data, files=files, follow_redirects=False)


def _log_in(client: TestClient | httpx.Client, name: str, password: str | None = None) -> None:
    answer = _post(client, "/login", "/login/check",
                   {"name": name, "password": password or password_of(name)})
    assert answer.status_code == 303, answer.text


def _teams(league: League, number: int) -> tuple[str, str]:
    return next((home, away) for n, home, away in league.schedule if n == number)


def _submit(client: TestClient, team: str, data: bytes) -> httpx.Response:
    return _post(client, "/coach", "/coach/submit", {"team": team},
                 files={"file": ("game.rinklog", data, "application/octet-stream")})


def _season_events(db: Path) -> list:
    with open_store(db, create=False) as store:
        return [row.event for row in store.read(SEASON)]


def _standings(db: Path) -> dict[str, tuple[int, int]]:
    """GP and points by team, as ``rinklog standings --json`` prints them."""
    printed = io.StringIO()
    with redirect_stdout(printed):
        assert main(["standings", "--season", SEASON, "--json", "--db", str(db)]) == 0
    return {row["team"]: (row["gp"], row["points"]) for row in json.loads(printed.getvalue())}


def _page_standings(client: TestClient) -> dict[str, tuple[int, int]]:
    """GP and points by team, as the public standings page shows them."""
    page = client.get("/season/index.html").text
    table = page.split('id="standings-1"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr data-team="(\w+)">(.*?)</tr>', table)
    found = {}
    for team, row in rows:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        found[team] = (int(cells[2]), int(cells[6]))
    return found


def _confirm(league: League, client: TestClient, team: str, game: str) -> httpx.Response:
    _log_in(client, COACHES[team])
    return _post(client, "/coach", "/coach/confirm", {"team": team, "game": game})


def test_two_coaches_each_submit_and_confirm_and_the_standings_move(
        league: League, games: dict[int, bytes]) -> None:
    with TestClient(league_app(league.db)) as client:
        assert _page_standings(client) == {}  # no game played
        for number, by_home in ((1, True), (2, False)):
            home, away = _teams(league, number)
            sender, answerer = (home, away) if by_home else (away, home)
            before = _standings(league.db)
            _log_in(client, COACHES[sender])
            assert _submit(client, sender, games[number]).status_code == 303
            game = f"{SEASON}-{number:04d}"
            assert f"{game}" in client.get("/coach").text
            # sent, not counted: the standings wait for the other coach
            assert _standings(league.db) == before == _page_standings(client)
            assert _confirm(league, client, answerer, game).status_code == 303
            after = _standings(league.db)
            assert after[home][0] == before.get(home, (0, 0))[0] + 1
            assert after[away][0] == before.get(away, (0, 0))[0] + 1
        shown = _page_standings(client)
        assert shown == _standings(league.db)
        assert sum(gp for gp, _ in shown.values()) == 4  # two games, two teams each
        page = client.get(f"/season/games/{SEASON}-0001.html").text
        assert "Audit: ok" in page
    assert main(["audit", "--all", "--db", str(league.db)]) == 0


def test_a_dispute_is_settled_by_the_commissioner_with_both_versions(
        league: League, games: dict[int, bytes]) -> None:
    home, away = _teams(league, 3)
    game = f"{SEASON}-0003"
    with TestClient(league_app(league.db)) as client:
        _log_in(client, COACHES[home])
        assert _submit(client, home, games[3]).status_code == 303
        _log_in(client, COACHES[away])
        disputed = _post(client, "/coach", "/coach/dispute",
                         {"team": away, "game": game, "reason": "we rolled other dice"},
                         files={"file": ("mine.rinklog", games[-3], "application/octet-stream")})
        assert disputed.status_code == 303, disputed.text
        # a coach cannot settle
        assert _post(client, "/coach", "/admin/settle", {
            "game": game, "verdict": "disputed", "note": "mine"}).status_code == 403
        _log_in(client, COMMISSIONER, PASSWORD)
        admin = client.get("/admin").text
        section = admin.split(f'id="dispute-{game}"', 1)[1].split("</section>", 1)[0]
        assert section.count("audit ok") == 2 and "first difference" in section
        settled = _post(client, "/admin", "/admin/settle",
                        {"game": game, "verdict": "disputed", "note": "his dice were filmed"})
        assert settled.status_code == 303, settled.text
        assert "settled: the disputed version counts" in client.get("/admin").text
    counter = _export_head(games[-3])
    with open_store(league.db, create=False) as store:
        assert store.head_hash(game) == counter != _export_head(games[3])
    assert main(["audit", "--all", "--db", str(league.db)]) == 0


def _export_head(data: bytes) -> str:
    from replay.leagues.transfer import export_entry
    return export_entry(data).head_hash


def test_forged_and_rehashed_uploads_are_refused_with_the_audits_reason(
        league: League, games: dict[int, bytes]) -> None:
    home, _ = _teams(league, 1)
    before = len(_season_events(league.db))
    with TestClient(league_app(league.db)) as client:
        _log_in(client, COACHES[home])
        forged = _submit(client, home, tampered(games[1]))
        assert forged.status_code == 400
        assert re.search(r"chain check fails at event \d+", forged.text), forged.text
        again = _submit(client, home, rehashed(games[1]))
        assert again.status_code == 400
        assert re.search(r"rules check fails at event \d+", again.text), again.text
        garbage = _submit(client, home, b"not an export")
        assert garbage.status_code == 400 and "not a rinklog export file" in garbage.text
    assert len(_season_events(league.db)) == before  # nothing written


def test_a_coach_acting_for_another_team_gets_403_and_it_is_logged(
        league: League, games: dict[int, bytes]) -> None:
    home, away = _teams(league, 1)
    stranger = next(t for t in COACHES if t not in (home, away))
    before = len(_season_events(league.db))
    with TestClient(league_app(league.db)) as client:
        _log_in(client, COACHES[stranger])
        # his own name on the form, another team's game
        refused = _submit(client, stranger, games[1])
        assert refused.status_code == 403
        # another team's name on the form
        assert _submit(client, home, games[1]).status_code == 403
        assert client.get("/admin").status_code == 403
        _log_in(client, COMMISSIONER, PASSWORD)
        log = client.get("/admin").text.split('id="refused"', 1)[1].split("</table>")[0]
        rows = re.findall(r"<tr><td>[^<]*</td><td>(\w+)</td>.*?<td>(\w+ [/\w]+)</td>", log)
        assert [who for who, _ in rows] == [COACHES[stranger]] * 3
        assert sorted(what for _, what in rows) == ["GET /admin", "POST /coach/submit",
                                                    "POST /coach/submit"]
    assert len(_season_events(league.db)) == before


def test_a_form_without_its_csrf_token_is_refused(league: League,
                                                  games: dict[int, bytes]) -> None:
    home, _ = _teams(league, 1)
    with TestClient(league_app(league.db)) as client:
        _log_in(client, COACHES[home])
        answer = client.post("/coach/submit", data={"team": home}, files={
            "file": ("game.rinklog", games[1], "application/octet-stream")},
            follow_redirects=False)
        assert answer.status_code == 403 and "CSRF" in answer.text
        wrong = client.post("/coach/submit", data={"team": home, "_csrf_token": "0" * 64},
                            files={"file": ("g", games[1], "application/octet-stream")},
                            follow_redirects=False)
        assert wrong.status_code == 403
    assert not any(isinstance(e, ResultSubmitted) for e in _season_events(league.db))


def test_logins_are_limited_and_uploads_are_limited_in_size(league: League) -> None:
    with TestClient(league_app(league.db)) as client:
        codes = [_post(client, "/login", "/login/check",
                       {"name": "alice", "password": "not it at all"}).status_code
                 for _ in range(12)]
        assert codes[0] == 401 and codes[-1] == 429
    with TestClient(league_app(league.db)) as client:
        _log_in(client, "alice")
        big = _submit(client, "ALD", b"\0" * (MAX_UPLOAD + 1))
        assert big.status_code == 413


def test_an_invitation_is_used_once(league: League) -> None:
    link = league.links["ALD"]
    with TestClient(league_app(league.db)) as client:
        page = client.get(link).text
        assert "used, expired or unknown" in page
        again = _post(client, "/login", f"{link}/accept",
                      {"name": "mallory", "password": "x" * 12, "again": "x" * 12})
        assert again.status_code == 400 and "used, expired or unknown" in again.text


def test_the_window_counts_a_result_nobody_answered(league: League,
                                                    games: dict[int, bytes]) -> None:
    home, _ = _teams(league, 4)
    now = ["2026-12-01T12:00:00+00:00"]
    with TestClient(league_app(league.db, clock=lambda: now[0])) as client:
        _log_in(client, COACHES[home])
        assert _submit(client, home, games[4]).status_code == 303
        _log_in(client, COMMISSIONER, PASSWORD)
        now[0] = "2026-12-03T11:00:00+00:00"  # 47 hours on: not yet
        assert _post(client, "/admin", "/admin/lapse", {}).status_code == 303
        assert _standings(league.db) == {}
        now[0] = "2026-12-03T12:00:00+00:00"  # 48 hours: it counts
        assert _post(client, "/admin", "/admin/lapse", {}).status_code == 303
        assert "48 h passed unanswered" in client.get("/admin").text
    assert sum(gp for gp, _ in _standings(league.db).values()) == 2


def test_twenty_submissions_at_once_leave_a_season_the_audit_passes(
        league: League, tmp_path_factory: pytest.TempPathFactory) -> None:
    numbers = [n for n, _, _ in league.schedule][:20]
    files = {n: played(league.db, n, seed="twenty") for n in numbers}
    with serving(league_app(league.db)) as url:
        clients = {team: httpx.Client(base_url=url, timeout=120) for team in COACHES}
        try:
            for team, client in clients.items():
                _log_in(client, COACHES[team])

            def send(number: int) -> int:
                team = _teams(league, number)[0]
                return _post(clients[team], "/coach", "/coach/submit", {"team": team}, files={
                    "file": ("g.rinklog", files[number], "application/octet-stream")}
                ).status_code

            with concurrent.futures.ThreadPoolExecutor(20) as pool:
                codes = list(pool.map(send, numbers))
        finally:
            for client in clients.values():
                client.close()
    assert codes == [303] * 20
    sent = [e for e in _season_events(league.db) if isinstance(e, ResultSubmitted)]
    assert sorted(e.number for e in sent) == sorted(numbers)
    assert main(["audit", "--all", "--db", str(league.db)]) == 0


def test_the_commissioners_acts_are_his_and_recorded(tmp_path: Path) -> None:
    """Two teams with a coach: the commissioner's run plays only the games of the two
    without (the others wait for the table); a coach cannot run it; the signed season
    receipt is published, downloadable and holds the season."""
    league = build_league(tmp_path)
    key = tmp_path / "league.key"
    assert main(["keygen", str(key)]) == 0
    from replay.leagues.receipts import load_signing_key
    app = league_app(league.db, sign_key=load_signing_key(key))
    with TestClient(app) as client:
        for team in ("ALD", "BRK"):
            link = league.links[team]
            _post(client, link, f"{link}/accept", {"name": COACHES[team], "password":
                  password_of(COACHES[team]), "again": password_of(COACHES[team])})
        assert _post(client, "/coach", "/admin/play", {"through": 20}).status_code == 403
        _log_in(client, COMMISSIONER, PASSWORD)
        assert _post(client, "/admin", "/admin/play", {"through": 20}).status_code == 303
        simulated = [n for n, home, away in league.schedule if {home, away} == {"CDV", "DRF"}]
        with open_store(league.db, create=False) as store:
            stored = sorted(int(s.meta["number"]) for s in store.streams(kind="game"))
        assert stored == simulated and simulated
        assert _post(client, "/admin", "/admin/receipt", {}).status_code == 303
        listed = client.get("/receipts").text
        digest = re.search(r'href="/receipts/(\w+)\.json"', listed)
        assert digest and f"<td>{COMMISSIONER}</td>" in listed
        receipt = tmp_path / "receipt.json"
        receipt.write_bytes(client.get(f"/receipts/{digest.group(1)}.json").content)
        refused = _post(client, "/admin", "/admin/postseason/open", {})
        assert refused.status_code == 400 and "play it first" in refused.text  # games left
    acts = [e for e in _season_events(league.db) if type(e).__name__ == "CommissionerActed"]
    assert [(e.account, e.act, e.through) for e in acts] == [(COMMISSIONER, "play", 20)]
    assert main(["audit", "--receipt", str(receipt), "--public-key", f"{key}.pub",
                 "--db", str(league.db)]) == 0
    assert main(["audit", "--all", "--db", str(league.db)]) == 0


def test_the_server_counts_a_result_past_the_window_by_itself(
        league: League, games: dict[int, bytes]) -> None:
    home, _ = _teams(league, 1)
    now = ["2026-12-01T12:00:00+00:00"]
    with TestClient(league_app(league.db, clock=lambda: now[0], sweep_seconds=0.05)) as client:
        _log_in(client, COACHES[home])
        assert _submit(client, home, games[1]).status_code == 303
        assert _standings(league.db) == {}
        now[0] = "2026-12-04T12:00:00+00:00"  # three days on, no one answered
        deadline = time.monotonic() + 30
        while not _standings(league.db):
            assert time.monotonic() < deadline, "the sweep never counted it"
            time.sleep(0.05)
    assert sum(gp for gp, _ in _standings(league.db).values()) == 2


def test_rinklog_league_serve_serves_and_its_commands_refuse_in_one_line(
        league: League, tmp_path: Path, capsys) -> None:
    import subprocess
    import sys

    from tests.web_league import free_port
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "replay.cli", "league", "serve", "--db",
                               str(league.db), "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/season/index.html", timeout=5)
                break
            except httpx.TransportError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(server.stderr.read().decode()) from None  # type: ignore[union-attr]
                time.sleep(0.2)
        assert page.status_code == 200 and f"Season {SEASON}" in page.text
        assert httpx.get(f"http://127.0.0.1:{port}/coach", follow_redirects=False,
                         timeout=5).headers["location"] == "/login"
    finally:
        server.terminate()
        server.wait(10)
    capsys.readouterr()
    assert main(["league", "invite", "XXX", "--db", str(league.db)]) == 1
    assert main(["league", "invite", "ALD", "--db", str(league.db)]) == 1  # has a coach
    assert main(["league", "serve", "--db", str(tmp_path / "none.db")]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 3 and "'XXX': no team of four-2026" in lines[0]
    assert "ALD has a coach already (alice)" in lines[1] and "no such database" in lines[2]


def test_a_game_from_dice_typed_in_the_browser_is_submitted_like_a_file(
        league: League) -> None:
    from tests.web_league import dice
    home, _ = _teams(league, 2)
    with TestClient(league_app(league.db)) as client:
        _log_in(client, COACHES[home])
        short = _post(client, "/coach", "/coach/typed",
                      {"team": home, "number": 2, "rolls": "\n".join(dice("typed")[:40])})
        assert short.status_code == 400 and "ran out of rolls" in short.text
        typed = _post(client, "/coach", "/coach/typed",
                      {"team": home, "number": 2, "rolls": "\n".join(dice("typed"))})
        assert typed.status_code == 303, typed.text
    sent = [e for e in _season_events(league.db) if isinstance(e, ResultSubmitted)]
    assert [(e.number, e.team, e.account) for e in sent] == [(2, home, COACHES[home])]
    with open_store(league.db, create=False) as store:
        assert not store.exists(f"{SEASON}-0002")  # submitted, not counted
