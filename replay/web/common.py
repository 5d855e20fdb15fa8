"""What the web league's routes share (docs/web.md): the league served, who is logged
in, pages, and acting for a team or as the commissioner (403, logged by the app's error
handler, for anyone else)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nacl.signing
from litestar import Request
from litestar.enums import RequestEncodingType
from litestar.exceptions import NotAuthorizedException
from litestar.params import Body
from litestar.response import Template

from events.catalogue import open_store
from events.people import COMMISSIONER
from events.store import EventStore
from replay.leagues import results
from replay.leagues.people import SEASON_PEOPLE, LeaguePeople
from replay.leagues.season_league import stored_league
from replay.web import accounts
from replay.web.public import PublicSite

__all__ = ["MAX_UPLOAD", "coach_link", "Form", "Upload", "WebLeague", "WebSystem", "acting", "admin_act",
           "commissioner_of", "league_of", "member_of", "page"]

MAX_UPLOAD = 4 * 1024 * 1024  # an export file of a game is a few hundred kB
Form = Body(media_type=RequestEncodingType.URL_ENCODED)
Upload = Body(media_type=RequestEncodingType.MULTI_PART)


@dataclass(frozen=True)
class WebSystem:
    """A season system's league on the web (Matrix Hockey's, replay/web/matrix.py),
    handed down by the command line's registry: its people, its coach's and its
    commissioner's pages, its season site, and where each of them lands."""

    people: LeaguePeople
    routes: list[Any]
    site: Callable[[EventStore, str], dict[str, str]]
    commissioner_page: str
    coach_page: str


@dataclass
class WebLeague:
    """The league the application serves: its database and season, and the clock."""

    db: Path
    season_id: str
    site: PublicSite
    sign_key: nacl.signing.SigningKey | None = None
    clock: results.Clock = results.now_utc
    system: WebSystem | None = None  # a season system's (Matrix Hockey's); None: a league's

    @property
    def people(self) -> LeaguePeople:
        return SEASON_PEOPLE if self.system is None else self.system.people

    def store(self) -> EventStore:
        return open_store(self.db, create=False)

    def confirm_hours(self, store: EventStore) -> int:
        created = results.season_state(store, self.season_id).created
        assert created is not None
        league = stored_league(store, created)
        return 48 if league is None else league.web.confirm_hours


def league_of(request: Request) -> WebLeague:
    """The league the application serves."""
    return request.app.state["league"]  # type: ignore[no-any-return]


def member_of(request: Request, store: EventStore) -> accounts.Account:
    name = request.session.get("account") if request.session else None
    league = league_of(request)
    found = accounts.account_of(store, league.season_id, name, league.people) if name else None
    if found is None:
        raise NotAuthorizedException("log in first")
    return found


def page(name: str, request: Request, **context: Any) -> Template:
    league = league_of(request)
    account = request.session.get("account") if request.session else None
    return Template(template_name=name, context={"season": league.season_id,
                                                 "own_system": league.system is not None,
                                                 "account": account, **context})


def acting(request: Request, team: str, act: Callable[[EventStore, accounts.Account], Any]
            ) -> Any:
    """``act`` by the logged-in coach for ``team``: 403 (logged) for another team."""
    league = league_of(request)
    with open_store(league.db) as store:
        account = member_of(request, store)
        if account.team != team:
            raise results.NotYours(f"{account.name} is the coach of {account.team or 'no team'}"
                                   f", not of {team}")
        return act(store, account)


def commissioner_of(request: Request, store: EventStore) -> accounts.Account:
    account = member_of(request, store)
    if account.role != COMMISSIONER:
        raise results.NotYours(f"{account.name} is not the commissioner")
    return account


def admin_act(request: Request, act: Callable[[EventStore, accounts.Account], Any]) -> Any:
    with open_store(league_of(request).db) as store:
        return act(store, commissioner_of(request, store))


def coach_link(request: Request, team: str) -> str:
    """The commissioner's one-time link for ``team``'s coach to join (a path)."""
    league = league_of(request)
    token = admin_act(request, lambda store, me: accounts.invite(
        store, league.season_id, league.people, "coach", team))
    return f"/join/{token}"
