"""``rinklog league serve``: a league on the web (issue 36, docs/web.md), a Litestar
application over one league database.

- Public, read only: the season's site with each game's audit verdict, the season file
  to play a game at the table with, the published receipts (public.py).
- Coaches (one team each, by invitation): submit a game played at the table (its export
  file, or the dice typed in), confirm or dispute the other team's, see their own.
- The commissioner: settle disputes with both versions side by side, play the simulated
  games due, count results left unanswered past the window, invite, publish receipts.

Every act goes through the library (replay/leagues/results.py, commissioner.py): an
event of the season stream, appended through its one writer. Sessions are server-side
(a random key in an HttpOnly, SameSite=Strict cookie; Secure behind TLS), every form
carries Litestar's CSRF token, login attempts are rate limited per address, bodies are
limited in size, and a request for another team is refused with 403 and logged.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import nacl.signing
from litestar import Litestar, Request, Response, get, post
from litestar.config.csrf import CSRFConfig
from litestar.datastructures import State, UploadFile
from litestar.enums import RequestEncodingType
from litestar.exceptions import NotAuthorizedException
from litestar.middleware.rate_limit import RateLimitConfig
from litestar.middleware.session.server_side import ServerSideSessionConfig
from litestar.params import Body, FromPath
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import Redirect, Template
from litestar.template.config import TemplateConfig

from events.catalogue import open_store
from events.errors import RinklogError
from events.people import COMMISSIONER
from events.store import EventStore
from replay.leagues import commissioner, results
from replay.leagues.season_league import stored_league
from replay.leagues.season_transfer import export_season
from replay.leagues.typed_games import typed_export
from replay.leagues.versions import compare_versions
from replay.web import accounts
from replay.web.public import PublicSite
from replay.web.sessions import SessionTable
from replay.web.views import schedule_lines, submissions

__all__ = ["MAX_UPLOAD", "WebLeague", "league_app"]

MAX_UPLOAD = 4 * 1024 * 1024  # an export file of a game is a few hundred kB
LOGINS_A_MINUTE = 10
Form = Body(media_type=RequestEncodingType.URL_ENCODED)
Upload = Body(media_type=RequestEncodingType.MULTI_PART)


@dataclass
class WebLeague:
    """The league the application serves: its database and season, and the clock."""

    db: Path
    season_id: str
    site: PublicSite
    sign_key: nacl.signing.SigningKey | None = None
    clock: results.Clock = results.now_utc

    def store(self) -> EventStore:
        return open_store(self.db, create=False)

    def confirm_hours(self, store: EventStore) -> int:
        created = results.season_state(store, self.season_id).created
        assert created is not None
        league = stored_league(store, created)
        return 48 if league is None else league.web.confirm_hours


def _league(request: Request) -> WebLeague:
    return request.app.state["league"]  # type: ignore[no-any-return]


def _member(request: Request, store: EventStore) -> accounts.Account:
    name = request.session.get("account") if request.session else None
    found = accounts.account_of(store, _league(request).season_id, name) if name else None
    if found is None:
        raise NotAuthorizedException("log in first")
    return found


def _page(name: str, request: Request, **context: Any) -> Template:
    league = _league(request)
    account = request.session.get("account") if request.session else None
    return Template(template_name=name, context={"season": league.season_id,
                                                 "account": account, **context})


# --- public --------------------------------------------------------------------------------

@get("/", sync_to_thread=True)
def home() -> Redirect:
    return Redirect("/season/index.html", status_code=303)


@get("/season/{path:path}", sync_to_thread=True)
def season_page(request: Request, path: FromPath[str]) -> Response[str]:
    page = _league(request).site.page(path.lstrip("/") or "index.html")
    if page is None:
        return Response("no such page", status_code=404, media_type="text/plain")
    media = "text/css" if path.endswith(".css") else "text/html"
    return Response(_with_bar(page, request), media_type=media)


def _with_bar(page: str, request: Request) -> str:
    account = request.session.get("account") if request.session else None
    links = ['<a href="/receipts">receipts</a>', '<a href="/season.rinklog">season file</a>']
    links.append(f'<a href="/me">{account}</a>' if account else '<a href="/login">log in</a>')
    bar = f'<nav class="web-bar">{" · ".join(links)}</nav>\n'
    return page.replace("<body>\n", f"<body>\n{bar}", 1)


@get("/season.rinklog", sync_to_thread=True)
def season_file(request: Request) -> Response[bytes]:
    league = _league(request)
    with league.store() as store:
        data = export_season(store, league.season_id)
    return Response(data, media_type="application/octet-stream", headers={
        "Content-Disposition": f'attachment; filename="{league.season_id}.rinklog"'})


@get("/receipts", sync_to_thread=True)
def receipts_page(request: Request) -> Template:
    return _page("receipts.html.j2", request, receipts=_league(request).site.receipts())


@get("/receipts/{digest:str}", sync_to_thread=True)
def receipt_file(request: Request, digest: FromPath[str]) -> Response[bytes]:
    data = _league(request).site.receipt(digest.removesuffix(".json"))
    if data is None:
        return Response(b"no such receipt", status_code=404, media_type="text/plain")
    return Response(data, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="receipt-{digest[:12]}.json"'})


# --- accounts ------------------------------------------------------------------------------

@dataclass
class LoginForm:
    name: str
    password: str


@dataclass
class JoinForm:
    name: str
    password: str
    again: str


@get("/login", sync_to_thread=True)
def login_page(request: Request) -> Template:
    return _page("login.html.j2", request)


# (a GET and a POST of one path both run on threads make Litestar 2.25 fail its GET:
# the forms post to paths of their own)
@post("/login/check", sync_to_thread=True,
      middleware=[RateLimitConfig(rate_limit=("minute", LOGINS_A_MINUTE)).middleware])
def login(request: Request, data: Annotated[LoginForm, Form]) -> Response[Any]:
    league = _league(request)
    with league.store() as store:
        ok = accounts.check_password(store, data.name, data.password)
    if not ok:
        return Template(template_name="login.html.j2", status_code=401, context={
            "season": league.season_id, "account": None,
            "error": "wrong account name or password"})
    request.clear_session()
    request.set_session({"account": data.name})
    return Redirect("/me", status_code=303)


@post("/logout", sync_to_thread=True)
def logout(request: Request) -> Redirect:
    request.clear_session()
    return Redirect("/season/index.html", status_code=303)


@get("/join/{token:str}", sync_to_thread=True)
def join_page(request: Request, token: FromPath[str]) -> Template:
    with _league(request).store() as store:
        found = accounts.invitation(store, token)
    return _page("join.html.j2", request, invitation=found, token=token)


@post("/join/{token:str}/accept", sync_to_thread=True)
def join(request: Request, token: FromPath[str], data: Annotated[JoinForm, Form]) -> Response[Any]:
    if data.password != data.again:
        raise results.ActRefused("the two passwords differ")
    league = _league(request)
    with open_store(league.db) as store:
        accounts.accept(store, token, data.name, data.password, league.clock)
    request.clear_session()
    request.set_session({"account": data.name})
    return Redirect("/me", status_code=303)


@get("/me", sync_to_thread=True)
def me(request: Request) -> Redirect:
    with _league(request).store() as store:
        account = _member(request, store)
    return Redirect("/admin" if account.role == COMMISSIONER else "/coach")


# --- coaches -------------------------------------------------------------------------------

@dataclass
class SubmitForm:
    team: str
    file: UploadFile


@dataclass
class TypedForm:
    team: str
    number: int
    rolls: str


@dataclass
class AnswerForm:
    team: str
    game: str


@dataclass
class DisputeForm:
    team: str
    game: str
    reason: str
    file: UploadFile | None = None


@get("/coach", sync_to_thread=True)
def coach_page(request: Request) -> Template:
    league = _league(request)
    with league.store() as store:
        account = _member(request, store)
        state = results.season_state(store, league.season_id)
        mine = [s for s in submissions(store, league.season_id) if account.team in
                (s.team, _other_team(state, s.number, s.team))]
        games = schedule_lines(store, state, account.team)
    to_answer = [s for s in mine if s.state == "waiting" and s.team != account.team]
    return _page("coach.html.j2", request, me=account, games=games, submissions=mine,
                 to_answer=to_answer)


def _other_team(state: results.SeasonState, number: int, team: str) -> str:
    assert state.created is not None
    for n, home, away in state.created.schedule:
        if n == number:
            return away if team == home else home
    return ""


def _acting(request: Request, team: str, act: Callable[[EventStore, accounts.Account], Any]
            ) -> Any:
    """``act`` by the logged-in coach for ``team``: 403 (logged) for another team."""
    league = _league(request)
    with open_store(league.db) as store:
        account = _member(request, store)
        if account.team != team:
            raise results.NotYours(f"{account.name} is the coach of {account.team or 'no team'}"
                                   f", not of {team}")
        return act(store, account)


@post("/coach/submit", sync_to_thread=True)
def coach_submit(request: Request, data: Annotated[SubmitForm, Upload]) -> Redirect:
    content = data.file.file.read(MAX_UPLOAD + 1)
    league = _league(request)
    _acting(request, data.team, lambda store, me: results.submit(
        store, league.season_id, me.name, data.team, content,
        data.file.filename or "upload", league.clock))
    return Redirect("/coach", status_code=303)


@post("/coach/typed", sync_to_thread=True)
def coach_typed(request: Request, data: Annotated[TypedForm, Form]) -> Redirect:
    league = _league(request)

    def act(store: EventStore, me: accounts.Account) -> None:
        home, away = next(((h, a) for n, h, a in results.season_state(
            store, league.season_id).created.schedule if n == data.number),  # type: ignore[union-attr]
            ("", ""))
        if data.team not in (home, away):
            raise results.NotYours(f"game {data.number} is not a game of {data.team}")
        content = typed_export(league.db, league.season_id, data.number,
                               data.rolls.splitlines(), "the rolls typed")
        results.submit(store, league.season_id, me.name, data.team, content,
                       "the rolls typed", league.clock)
    _acting(request, data.team, act)
    return Redirect("/coach", status_code=303)


@post("/coach/confirm", sync_to_thread=True)
def coach_confirm(request: Request, data: Annotated[AnswerForm, Form]) -> Redirect:
    league = _league(request)
    _acting(request, data.team, lambda store, me: results.confirm(
        store, league.season_id, me.name, data.team, data.game, league.clock))
    return Redirect("/coach", status_code=303)


@post("/coach/dispute", sync_to_thread=True)
def coach_dispute(request: Request, data: Annotated[DisputeForm, Upload]) -> Redirect:
    league = _league(request)
    content = data.file.file.read(MAX_UPLOAD + 1) if data.file is not None else b""
    _acting(request, data.team, lambda store, me: results.dispute(
        store, league.season_id, me.name, data.team, data.game, data.reason,
        content or None, "the disputed version", league.clock))
    return Redirect("/coach", status_code=303)


# --- the commissioner ----------------------------------------------------------------------

@dataclass
class SettleForm:
    game: str
    verdict: str
    note: str


@dataclass
class PlayForm:
    through: int


@dataclass
class InviteForm:
    team: str


def _commissioner(request: Request, store: EventStore) -> accounts.Account:
    account = _member(request, store)
    if account.role != COMMISSIONER:
        raise results.NotYours(f"{account.name} is not the commissioner")
    return account


@get("/admin", sync_to_thread=True)
def admin_page(request: Request) -> Template:
    league = _league(request)
    with open_store(league.db) as store:
        judge = _commissioner(request, store)
        state = results.season_state(store, league.season_id)
        found = submissions(store, league.season_id)
        disputes = []
        for item in found:
            if item.state != "disputed":
                continue
            counter = store.get_blob(item.counter) if item.counter else None
            disputes.append((item, compare_versions(store, league.season_id,
                                                    store.get_blob(item.export), counter,
                                                    judge.name)))
        games = schedule_lines(store, state)
        refused = accounts.refusals(store)
    return _page("admin.html.j2", request, state=state, submissions=found, disputes=disputes,
                 games=games, refused=refused, link=request.query_params.get("link"),
                 teams=sorted(state.created.team_hashes),  # type: ignore[union-attr]
                 can_sign=league.sign_key is not None)


def _admin_act(request: Request, act: Callable[[EventStore, accounts.Account], Any]) -> Any:
    with open_store(_league(request).db) as store:
        return act(store, _commissioner(request, store))


@post("/admin/settle", sync_to_thread=True)
def admin_settle(request: Request, data: Annotated[SettleForm, Form]) -> Redirect:
    league = _league(request)
    _admin_act(request, lambda store, me: results.settle(
        store, league.season_id, me.name, data.game, data.verdict, data.note, league.clock))
    return Redirect("/admin", status_code=303)


@post("/admin/play", sync_to_thread=True)
def admin_play(request: Request, data: Annotated[PlayForm, Form]) -> Redirect:
    league = _league(request)
    _admin_act(request, lambda store, me: commissioner.play_due(
        store, league.season_id, me.name, data.through))
    return Redirect("/admin", status_code=303)


@post("/admin/lapse", sync_to_thread=True)
def admin_lapse(request: Request) -> Redirect:
    league = _league(request)
    _admin_act(request, lambda store, me: results.lapse_due(
        store, league.season_id, league.confirm_hours(store), league.clock))
    return Redirect("/admin", status_code=303)


@post("/admin/receipt", sync_to_thread=True)
def admin_receipt(request: Request) -> Redirect:
    league = _league(request)
    if league.sign_key is None:
        raise results.ActRefused("the server was started without --sign-key: no receipts")
    _admin_act(request, lambda store, me: commissioner.publish_receipt(
        store, league.season_id, me.name, league.sign_key, league.clock))  # type: ignore[arg-type]
    return Redirect("/receipts", status_code=303)


@post("/admin/invite", sync_to_thread=True)
def admin_invite(request: Request, data: Annotated[InviteForm, Form]) -> Redirect:
    league = _league(request)
    token = _admin_act(request, lambda store, me: accounts.invite(
        store, league.season_id, "coach", data.team))
    return Redirect(f"/admin?link=/join/{token}", status_code=303)


# --- errors --------------------------------------------------------------------------------

def _refused(request: Request, err: Exception) -> Response[Any]:
    status = (403 if isinstance(err, results.NotYours) else
              409 if "changed while this ran" in str(err) else 400)
    if status == 403:
        league = _league(request)
        with open_store(league.db) as store:
            accounts.log_refusal(store, at=league.clock(), account=str(
                request.session.get("account", "") if request.session else ""),
                address=request.client.host if request.client else "",
                method=request.method, path=request.url.path, status=403, why=str(err))
    return Template(template_name="refused.html.j2", status_code=status, context={
        "season": _league(request).season_id, "why": str(err),
        "account": request.session.get("account") if request.session else None})


def _log_in_first(request: Request, err: Exception) -> Response[Any]:
    return Redirect("/login", status_code=303)


def league_app(db: Path, season_id: str | None = None, *, secure: bool = False,
               sign_key: nacl.signing.SigningKey | None = None,
               clock: results.Clock = results.now_utc) -> Litestar:
    """The application over the league database ``db`` (``secure``: behind TLS, so
    cookies are Secure)."""
    with open_store(db, create=False) as store:
        season_id = results.league_season(store, season_id)
        with store.transaction():
            accounts.tables(store.connection)
    league = WebLeague(Path(db), season_id, PublicSite(Path(db), season_id), sign_key, clock)

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(db, timeout=30)
    return Litestar(
        route_handlers=[home, season_page, season_file, receipts_page, receipt_file,
                        login_page, login, logout, join_page, join, me, coach_page,
                        coach_submit, coach_typed, coach_confirm, coach_dispute, admin_page,
                        admin_settle, admin_play, admin_lapse, admin_receipt, admin_invite],
        state=State({"league": league}),
        template_config=TemplateConfig(directory=Path(__file__).parent / "templates",
                                       engine=JinjaTemplateEngine),
        csrf_config=CSRFConfig(secret=secrets.token_hex(32), cookie_secure=secure,
                               cookie_httponly=True, cookie_samesite="strict"),
        middleware=[ServerSideSessionConfig(secure=secure, httponly=True, samesite="strict",
                                            max_age=14 * 24 * 3600).middleware],
        stores={"sessions": SessionTable(connect)},
        request_max_body_size=MAX_UPLOAD,
        exception_handlers={RinklogError: _refused, NotAuthorizedException: _log_in_first},
    )
