"""The league on the web (issue 36, docs/web.md) in a real browser: headless Chromium,
driven by Playwright, clicks through the pages of the four-team test league
(tests/web_league.py) served by uvicorn: a coach joins by his invitation link, coaches
send and confirm a game played at the table, a dispute is settled by the commissioner
from both versions side by side, and a coach's tampered form is refused.

One server for the module, each person a browser context of his own (his own cookies).
Skipped, with the reason, on a machine without Chromium (Debian's ``chromium`` package;
.ci/run installs it): the browser is the machine's, never one Playwright downloads.
"""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Callable, Iterator
from contextlib import redirect_stdout
from pathlib import Path

import pytest

pytest.importorskip("litestar", reason="the web extra (pip install 'rinklog[web]')")
pytest.importorskip("playwright", reason="the dev extra's playwright (pip install -e '.[dev]')")

from playwright.sync_api import Browser, Locator, Page, sync_playwright  # noqa: E402

from events.catalogue import open_store  # noqa: E402
from replay.cli.app import main  # noqa: E402
from replay.web.app import league_app  # noqa: E402
from tests.web_league import (  # noqa: E402
    COACHES,
    COMMISSIONER,
    PASSWORD,
    SEASON,
    League,
    build_league,
    password_of,
    played,
    serving,
)

BROWSER = next((found for name in ("chromium", "chromium-browser", "google-chrome")
                if (found := shutil.which(name))), None)
pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="no Chromium on this machine: the browser tests need Debian's "
    "chromium package (.ci/run installs it)")

# the coaches of ALD, BRK and CDV join before the tests; DRF's joins in the first test
JOINED_FIRST = ("ALD", "BRK", "CDV")
NEWCOMER = "DRF"


def _game(league: League, teams: set[str], nth: int = 0) -> tuple[int, str, str]:
    """The ``nth`` game of the schedule between the two ``teams``: number, home, away."""
    return [g for g in league.schedule if {g[1], g[2]} == teams][nth]


def _game_id(number: int) -> str:
    return f"{SEASON}-{number:04d}"


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> League:
    return build_league(tmp_path_factory.mktemp("web-browser"))


@pytest.fixture(scope="module")
def games(league: League) -> dict[str, bytes]:
    """The export files the tests send, each game played at the table before any is sent
    (a game whose result waits cannot be played again): the confirmed game, the disputed
    game and its other version, the game of the tampered form."""
    return {"confirmed": played(league.db, _game(league, {"ALD", "BRK"})[0]),
            "disputed": played(league.db, _game(league, {"BRK", "CDV"})[0]),
            "counter": played(league.db, _game(league, {"BRK", "CDV"})[0],
                              seed="the other coach's dice"),
            "tampered": played(league.db, _game(league, {"ALD", "BRK"}, nth=1)[0])}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=BROWSER)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def url(league: League, games: dict[str, bytes], browser: Browser) -> Iterator[str]:
    """The league served (its games played at the table first), the coaches of
    JOINED_FIRST joined through their links."""
    with serving(league_app(league.db)) as served:
        for team in JOINED_FIRST:
            context = browser.new_context(base_url=served)
            _join(context.new_page(), league.links[team], COACHES[team])
            context.close()
        yield served


@pytest.fixture
def person(browser: Browser, url: str) -> Iterator[Callable[[], Page]]:
    """A page in a browser context of its own (one person's cookies), each call."""
    contexts = []

    def new() -> Page:
        context = browser.new_context(base_url=url)
        context.set_default_timeout(20_000)
        contexts.append(context)
        return context.new_page()
    yield new
    for context in contexts:
        context.close()


def _posted(page: Page, button: Locator, status: int = 303) -> None:
    """``button`` clicked: its form posted, answered with ``status`` (303: and followed)."""
    with page.expect_response(lambda r: r.request.method == "POST") as answered:
        button.click()
    answer = answered.value
    assert answer.status == status, f"{answer.url}: {answer.status} {answer.text()[:2000]}"
    page.wait_for_load_state()


def _join(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_label("Account name").fill(name)
    page.get_by_label("Password (10 characters or more)").fill(password_of(name))
    page.get_by_label("Again").fill(password_of(name))
    _posted(page, page.get_by_role("button", name="Join"))


def _log_in(page: Page, name: str, password: str | None = None) -> None:
    page.goto("/login")
    page.locator("main").get_by_label("Account").fill(name)
    page.locator("main").get_by_label("Password").fill(password or password_of(name))
    _posted(page, page.get_by_role("button", name="Log in", exact=True))


def _export(data: bytes, name: str = "game.rinklog") -> dict:
    return {"name": name, "mimeType": "application/octet-stream", "buffer": data}


def _send(page: Page, data: bytes, status: int = 303) -> None:
    """The export file ``data`` sent through the coach page's "Send" form."""
    form = page.locator("#submit-file")
    form.locator("input[type=file]").set_input_files(_export(data))
    _posted(page, form.get_by_role("button", name="Send"), status)


def _page_gp(page: Page) -> dict[str, int]:
    """GP by team, as the public standings page shows it."""
    page.goto("/season/index.html")
    table = page.locator("#standings-1")
    column = table.locator("thead th").all_text_contents().index("GP")
    return {str(row.get_attribute("data-team")): int(row.locator("td").nth(column).inner_text())
            for row in table.locator("tr[data-team]").all()}


def _cli_gp(db: Path) -> dict[str, int]:
    """GP by team, as ``rinklog standings --json`` prints it."""
    printed = io.StringIO()
    with redirect_stdout(printed):
        assert main(["standings", "--season", SEASON, "--json", "--db", str(db)]) == 0
    return {row["team"]: row["gp"] for row in json.loads(printed.getvalue())}


def test_a_coach_joins_by_his_link_logs_out_and_logs_in_again(
        league: League, url: str, person: Callable[[], Page]) -> None:
    page = person()
    coach = COACHES[NEWCOMER]
    _join(page, league.links[NEWCOMER], coach)
    assert page.url == f"{url}/coach"
    assert page.locator("h1").inner_text() == f"{coach}, coach of {NEWCOMER}"
    _posted(page, page.get_by_role("button", name="log out"))
    assert page.url == f"{url}/season/index.html"
    assert page.locator("nav.web-bar a[href='/login']").count() == 1
    page.goto("/coach")  # logged out: the coach page sends him to log in
    assert page.url == f"{url}/login"
    _log_in(page, coach)
    assert page.url == f"{url}/coach"
    assert page.locator("h1").inner_text() == f"{coach}, coach of {NEWCOMER}"
    page.goto(league.links[NEWCOMER])  # the link is used once
    assert "used, expired or unknown" in page.locator("h1").inner_text()


def test_a_game_sent_by_one_coach_and_confirmed_by_the_other_counts_on_the_site(
        league: League, games: dict[str, bytes], person: Callable[[], Page]) -> None:
    number, home, away = _game(league, {"ALD", "BRK"})
    game = _game_id(number)
    sender, answerer = person(), person()
    before = _page_gp(sender)
    _log_in(sender, COACHES[home])
    _send(sender, games["confirmed"])
    assert sender.locator("#submissions").get_by_text(game).count() == 1
    _log_in(answerer, COACHES[away])
    answer = answerer.locator(f"#answer-{game}")
    assert answer.count() == 1, answerer.locator("main").inner_text()
    assert _page_gp(answerer) == before  # sent, not counted: it waits for the other coach
    answerer.goto("/coach")
    _posted(answerer, answer.get_by_role("button", name="Confirm"))
    assert answerer.locator(f"#answer-{game}").count() == 0
    shown = _page_gp(answerer)
    # run in the file's order, no game has been played before: GP 1 for both
    assert shown[home] == before.get(home, 0) + 1
    assert shown[away] == before.get(away, 0) + 1
    assert shown == _cli_gp(league.db)
    answerer.goto(f"/season/games/{game}.html")
    assert answerer.locator("#audit-verdict").inner_text().startswith("Audit: ok")


def test_the_commissioner_settles_a_dispute_from_both_versions_side_by_side(
        league: League, games: dict[str, bytes], person: Callable[[], Page]) -> None:
    number, home, away = _game(league, {"BRK", "CDV"})
    game = _game_id(number)
    sender, disputer, judge = person(), person(), person()
    _log_in(sender, COACHES[home])
    _send(sender, games["disputed"])
    _log_in(disputer, COACHES[away])
    dispute = disputer.locator(f"#answer-{game} form[action='/coach/dispute']")
    dispute.get_by_label("Why").fill("we rolled other dice")
    dispute.locator("input[type=file]").set_input_files(_export(games["counter"], "mine.rinklog"))
    _posted(disputer, dispute.get_by_role("button", name="Dispute"))
    assert f"{game}" in disputer.locator("#submissions").inner_text()
    assert "disputed: we rolled other dice" in disputer.locator("#submissions").inner_text()

    _log_in(judge, COMMISSIONER, PASSWORD)
    assert judge.url.endswith("/admin")
    section = judge.locator(f"#dispute-{game}")
    versions = section.locator("table.versions")
    assert versions.locator("thead th").all_text_contents() == ["", "submitted", "disputed"]
    audits = versions.locator("tr", has=judge.locator("th", has_text="audit")).locator("td")
    assert audits.all_text_contents() == ["audit ok", "audit ok"]
    heads = versions.locator("tr", has=judge.locator("th", has_text="head")).locator("td")
    submitted_head, disputed_head = (h.rstrip("…") for h in heads.all_text_contents())
    assert submitted_head != disputed_head
    assert versions.get_by_text("first difference").count() == 1
    section.get_by_label("Verdict").select_option("disputed")
    section.get_by_label("Note").fill("his dice were filmed")
    _posted(judge, section.get_by_role("button", name="Settle"))

    assert judge.url.endswith("/admin")
    assert judge.locator(f"#dispute-{game}").count() == 0
    row = judge.locator("#submissions tr", has_text=game)
    assert row.locator("td").last.inner_text() == (
        "settled: the disputed version counts (his dice were filmed)")
    with open_store(league.db, create=False) as store:
        assert store.head_hash(game).startswith(disputed_head)


def test_a_coachs_tampered_form_cannot_act_for_another_team(
        league: League, games: dict[str, bytes], person: Callable[[], Page]) -> None:
    # ALD's second game with BRK (the first is the confirmed one's): CDV's coach sends
    # its true export file with the form's hidden team changed to ALD
    with open_store(league.db, create=False) as store:
        before = store.version(SEASON)
    page = person()
    _log_in(page, COACHES["CDV"])
    team = page.locator("#submit-file input[name=team]")
    assert team.get_attribute("value") == "CDV"
    team.evaluate("input => { input.value = 'ALD'; }")
    _send(page, games["tampered"], status=403)
    assert page.locator("h1").inner_text() == "Refused"
    assert page.locator("#why").inner_text() == (
        f"{COACHES['CDV']} is the coach of CDV, not of ALD")
    with open_store(league.db, create=False) as store:
        assert store.version(SEASON) == before  # nothing written
