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

import logging
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import anyio
import nacl.signing
from litestar import Litestar, Request, Response, get, post
from litestar.config.csrf import CSRFConfig
from litestar.datastructures import State
from litestar.exceptions import NotAuthorizedException
from litestar.middleware.rate_limit import RateLimitConfig
from litestar.middleware.session.server_side import ServerSideSessionConfig
from litestar.params import FromPath
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import Redirect, Template
from litestar.template.config import TemplateConfig

from events.catalogue import open_store
from events.errors import RinklogError
from events.people import COMMISSIONER
from replay.leagues import people, results
from replay.leagues.season_transfer import export_season
from replay.web import accounts, coach, commissioner
from replay.web.common import (
    MAX_UPLOAD,
    Form,
    WebLeague,
    WebSystem,
    league_of,
    member_of,
    page,
)
from replay.web.public import PublicSite
from replay.web.sessions import SessionTable

__all__ = ["MAX_UPLOAD", "league_app"]

LOGINS_A_MINUTE = 10
SWEEP_SECONDS = 300.0
LOG = logging.getLogger("rinklog.web")


# --- public --------------------------------------------------------------------------------

@get("/", sync_to_thread=True)
def home() -> Redirect:
    return Redirect("/season/index.html", status_code=303)


@get("/season/{path:path}", sync_to_thread=True)
def season_page(request: Request, path: FromPath[str]) -> Response[str]:
    page = league_of(request).site.page(path.lstrip("/") or "index.html")
    if page is None:
        return Response("no such page", status_code=404, media_type="text/plain")
    media = "text/css" if path.endswith(".css") else "text/html"
    return Response(_with_bar(page, request), media_type=media)


def _with_bar(page: str, request: Request) -> str:
    account = request.session.get("account") if request.session else None
    links = ['<a href="/receipts">receipts</a>']
    if league_of(request).system is None:
        links.append('<a href="/season.rinklog">season file</a>')
    links.append(f'<a href="/me">{account}</a>' if account else '<a href="/login">log in</a>')
    bar = f'<nav class="web-bar">{" · ".join(links)}</nav>\n'
    return page.replace("<body>\n", f"<body>\n{bar}", 1)


@get("/season.rinklog", sync_to_thread=True)
def season_file(request: Request) -> Response[bytes]:
    league = league_of(request)
    if league.system is not None:  # a Matrix stream holds the picks of weeks not played
        return Response(b"a Matrix season's file is not published while it is played",
                        status_code=404, media_type="text/plain")
    with league.store() as store:
        data = export_season(store, league.season_id)
    return Response(data, media_type="application/octet-stream", headers={
        "Content-Disposition": f'attachment; filename="{league.season_id}.rinklog"'})


@get("/receipts", sync_to_thread=True)
def receipts_page(request: Request) -> Template:
    return page("receipts.html.j2", request, receipts=league_of(request).site.receipts())


@get("/receipts/{digest:str}", sync_to_thread=True)
def receipt_file(request: Request, digest: FromPath[str]) -> Response[bytes]:
    data = league_of(request).site.receipt(digest.removesuffix(".json"))
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
    return page("login.html.j2", request)


# (a GET and a POST of one path both run on threads make Litestar 2.25 fail its GET:
# the forms post to paths of their own)
@post("/login/check", sync_to_thread=True,
      middleware=[RateLimitConfig(rate_limit=("minute", LOGINS_A_MINUTE)).middleware])
def login(request: Request, data: Annotated[LoginForm, Form]) -> Response[Any]:
    league = league_of(request)
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
    with league_of(request).store() as store:
        found = accounts.invitation(store, token)
    return page("join.html.j2", request, invitation=found, token=token)


@post("/join/{token:str}/accept", sync_to_thread=True)
def join(request: Request, token: FromPath[str], data: Annotated[JoinForm, Form]) -> Response[Any]:
    if data.password != data.again:
        raise results.ActRefused("the two passwords differ")
    league = league_of(request)
    with open_store(league.db) as store:
        accounts.accept(store, token, data.name, data.password, league.people, league.clock)
    request.clear_session()
    request.set_session({"account": data.name})
    return Redirect("/me", status_code=303)


@get("/me", sync_to_thread=True)
def me(request: Request) -> Redirect:
    with league_of(request).store() as store:
        account = member_of(request, store)
    system = league_of(request).system
    pages = ("/admin", "/coach") if system is None else (system.commissioner_page,
                                                         system.coach_page)
    return Redirect(pages[0] if account.role == COMMISSIONER else pages[1])


# --- errors --------------------------------------------------------------------------------

def _refused(request: Request, err: Exception) -> Response[Any]:
    status = (403 if isinstance(err, results.NotYours) else
              409 if "changed while this ran" in str(err) else 400)
    if status == 403:
        league = league_of(request)
        with open_store(league.db) as store:
            accounts.log_refusal(store, at=league.clock(), account=str(
                request.session.get("account", "") if request.session else ""),
                address=request.client.host if request.client else "",
                method=request.method, path=request.url.path, status=403, why=str(err))
    return Template(template_name="refused.html.j2", status_code=status, context={
        "season": league_of(request).season_id, "why": str(err),
        "account": request.session.get("account") if request.session else None})


def _log_in_first(request: Request, err: Exception) -> Response[Any]:
    return Redirect("/login", status_code=303)


def league_app(db: Path, season_id: str | None = None, *, secure: bool = False,
               sign_key: nacl.signing.SigningKey | None = None,
               clock: results.Clock = results.now_utc,
               systems: Mapping[str, WebSystem] | None = None,
               sweep_seconds: float | None = SWEEP_SECONDS) -> Litestar:
    """The application over the league database ``db`` (``secure``: behind TLS, so
    cookies are Secure); ``systems``: each season system's league on the web, by name
    (the command line's registry hands them down: a Matrix Hockey season's pages).
    Every ``sweep_seconds`` (None: never) a league season's results left unanswered past
    its window are counted, so its standings move by themselves."""
    systems = systems or {}
    with open_store(db, create=False) as store:
        season_id = people.league_season(store, season_id, systems)
        with store.transaction():
            accounts.tables(store.connection)
        system = systems.get(store.info(season_id).system)
    site = PublicSite(Path(db), season_id, None if system is None else system.site)
    league = WebLeague(Path(db), season_id, site, sign_key, clock, system)

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(db, timeout=30)
    return Litestar(
        route_handlers=[home, season_page, season_file, receipts_page, receipt_file,
                        login_page, login, logout, join_page, join, me,
                        *(coach.ROUTES + commissioner.ROUTES if system is None else system.routes)],
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
        lifespan=[] if system is not None or sweep_seconds is None
        else [_sweeping(league, sweep_seconds)],
    )


def _sweeping(league: WebLeague, seconds: float) -> Callable[[Litestar], Any]:
    """The server's own act, on a timer: results past the league's window counted."""
    def sweep() -> None:
        with open_store(league.db) as store:
            results.lapse_due(store, league.season_id, league.confirm_hours(store), league.clock)

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        async def every() -> None:
            while True:
                try:
                    await anyio.to_thread.run_sync(sweep)
                except RinklogError as err:  # e.g. a file the audit now refuses: said, kept
                    LOG.warning("counting the results past the window: %s", err)
                await anyio.sleep(seconds)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(every)
            yield
            tasks.cancel_scope.cancel()
    return lifespan
