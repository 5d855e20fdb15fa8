"""A Matrix Hockey league on the web (issue 36, docs/web.md): managers send their team's
picks for a week through HTTP before the deadline the commissioner set; after it they
are refused; a manager cannot send another team's; the picks are his team's to see until
the week is played; the audit re-checks who sent what and when.

The example league of the rules text (``rinklog matrix open --league example``) and its
worked week's picks (fixtures/matrix/examples/week1-picks.toml: "The picks of the rules'
worked week (3.1.4)").
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("litestar", reason="the web extra (pip install 'rinklog[web]')")

from litestar.testing import TestClient  # noqa: E402

from events.catalogue import open_store  # noqa: E402
from events.matrix import PicksSent, PicksSubmitted  # noqa: E402
from replay.cli.app import SYSTEM_PARTS, main  # noqa: E402
from replay.web.app import league_app  # noqa: E402
from tests.web_league import invite_link  # noqa: E402

SEASON = "matrix-example-2026-s1"
WEEK1 = Path(__file__).parent.parent / "fixtures" / "matrix" / "examples" / "week1-picks.toml"
CSRF = re.compile(r'name="_csrf_token" value="([^"]+)"')
TIMES = ["2026-12-01T09:00:00+00:00"]


def _post(client: TestClient, page: str, path: str, form: dict):  # type: ignore[no-untyped-def]
    token = CSRF.search(client.get(page).text)
    assert token, page
    return client.post(path, data={**form, "_csrf_token": token.group(1)},
                       follow_redirects=False)


def _join(client: TestClient, link: str, name: str) -> None:
    answer = _post(client, link, f"{link}/accept",
                   {"name": name, "password": f"{name}-password", "again": f"{name}-password"})
    assert answer.status_code == 303, answer.text


def _picks_of(team: str) -> str:
    """``team``'s table of the worked week's picks file, as TOML."""
    table = tomllib.loads(WEEK1.read_text())[team]
    return f"[{team}]\n" + "".join(f"{key} = {value!r}\n".replace("'", '"')
                                   for key, value in table.items())


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "matrix.db"
    assert main(["matrix", "open", "--league", "example", "--seed", "2026",
                 "--db", str(path)]) == 0
    secret = tmp_path / "pw"
    secret.write_text("referee-password\n")
    assert main(["league", "admin", "ref", "--password-file", str(secret),
                 "--db", str(path)]) == 0
    return path


def test_picks_before_the_deadline_count_and_after_it_are_refused(db: Path) -> None:
    app = league_app(db, clock=lambda: TIMES[0], systems=SYSTEM_PARTS.web())
    with TestClient(app) as client:
        _join(client, invite_link("sleigh-dogs", db), "sam")
        page = client.get("/picks")
        assert page.status_code == 200 and "manager of sleigh-dogs" in page.text
        _post(client, "/login", "/logout", {})
        _join(client, invite_link("snowmen", db), "sue")
        _post(client, "/login", "/logout", {})
        assert _post(client, "/login", "/login/check",
                     {"name": "ref", "password": "referee-password"}).status_code == 303
        set_at = _post(client, "/referee", "/referee/deadline",
                       {"week": 1, "deadline": "2026-12-04T18:00:00+00:00"})
        assert set_at.status_code == 303, set_at.text
        _post(client, "/login", "/logout", {})
        # before the deadline: sent, as rinklog matrix picks takes them
        _log_in(client, "sam")
        sent = _post(client, "/picks", "/picks/send",
                     {"team": "sleigh-dogs", "week": 1, "picks": _picks_of("sleigh-dogs")})
        assert sent.status_code == 303, sent.text
        assert "<td>F</td>" in client.get("/picks").text  # column F, his own
        # another team's picks: 403
        other = _post(client, "/picks", "/picks/send",
                      {"team": "snowmen", "week": 1, "picks": _picks_of("snowmen")})
        assert other.status_code == 403
        # an illegal pick (3.1.3: columns A-I) is refused as matrix picks refuses it
        bad = _post(client, "/picks", "/picks/send",
                    {"team": "sleigh-dogs", "week": 1,
                     "picks": '[sleigh-dogs]\ncolumn = "Z"\nextra_time = "0"\n'})
        assert bad.status_code == 400
        _post(client, "/login", "/logout", {})
        # after the deadline: refused, nothing written
        TIMES[0] = "2026-12-04T18:00:01+00:00"
        _log_in(client, "sue")
        late = _post(client, "/picks", "/picks/send",
                     {"team": "snowmen", "week": 1, "picks": _picks_of("snowmen")})
        assert late.status_code == 400 and "deadline" in late.text
        # the other manager does not see the first one's picks
        assert "<td>F</td>" not in client.get("/picks").text
    with open_store(db, create=False) as store:
        events = [row.event for row in store.read(SEASON)]
    submitted = [e for e in events if isinstance(e, PicksSubmitted)]
    assert [(e.team, e.account) for e in submitted] == [("sleigh-dogs", "sam")]
    after = events[events.index(submitted[0]) + 1]
    assert isinstance(after, PicksSent) and after.team == "sleigh-dogs"
    assert not any(isinstance(e, PicksSent) and e.team == "snowmen" for e in events)
    assert main(["audit", "--all", "--db", str(db)]) == 0


def _log_in(client: TestClient, name: str) -> None:
    answer = _post(client, "/login", "/login/check", {"name": name, "password": f"{name}-password"})
    assert answer.status_code == 303, answer.text


def test_the_audit_catches_picks_sent_by_someone_else(db: Path, capsys) -> None:
    """A forger re-writes who sent a team's picks and re-hashes the chain: the recheck's
    people's rules (engine/matrix/people.py) name the event."""
    import msgspec

    from replay.leagues.matrix.season import load, record
    from replay.leagues.matrix.web import join
    with open_store(db) as store:
        join(store, SEASON, "sam", "coach", "sleigh-dogs", lambda: TIMES[0])
        season = load(store, SEASON)
        forged = PicksSubmitted(week=1, team="sleigh-dogs", account="mallory", at=TIMES[0])
        picks = msgspec.convert({"week": 1, "team": "sleigh-dogs", "picks": [{
            "competition": "championship", "column": "F", "extra_time": "2",
            "extra_goals": 0, "great_saves": 0, "shootout": ""}]}, PicksSent)
        record(store, season, SEASON, [forged, picks])  # the writer's rules bypassed
    capsys.readouterr()
    assert main(["audit", SEASON, "--db", str(db)]) == 1
    assert "picks of sleigh-dogs sent by its manager, not by 'mallory'" in capsys.readouterr().out
