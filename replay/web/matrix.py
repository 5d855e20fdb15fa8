"""A Matrix Hockey season on the web (docs/web.md): a manager sends his team's picks
for a week before its deadline (checked as ``rinklog matrix picks`` checks them, shown
to his team only until the week is played); the commissioner sets each week's deadline,
plays the week (the referee, ``rinklog matrix play``) and invites managers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from litestar import Request, get, post
from litestar.response import Redirect, Template

from events.catalogue import open_store
from replay.leagues.matrix import season as matrix_season
from replay.leagues.matrix import web as matrix_web
from replay.leagues.matrix.web import MATRIX_PEOPLE
from replay.reports.matrix.site import matrix_files
from replay.web import accounts
from replay.web.common import (
    Form,
    WebSystem,
    acting,
    admin_act,
    coach_link,
    commissioner_of,
    league_of,
    member_of,
    page,
)

__all__ = ["WEB"]


@dataclass
class PicksForm:
    team: str
    week: int
    picks: str


@dataclass
class DeadlineForm:
    week: int
    deadline: str


@dataclass
class WeekForm:
    week: int


@dataclass
class InviteForm:
    team: str


def _weeks(store: object, season_id: str) -> list[tuple[int, bool, str]]:
    weeks, played = matrix_web.weeks(store, season_id)  # type: ignore[arg-type]
    people = matrix_web.people_of(matrix_season.load(store, season_id))  # type: ignore[arg-type]
    return [(w, w in played, people.deadlines.get(w, "")) for w in weeks]


@get("/picks", sync_to_thread=True)
def picks_page(request: Request) -> Template:
    league = league_of(request)
    with league.store() as store:
        me = member_of(request, store)
        weeks = _weeks(store, league.season_id)
        sent = matrix_web.own_picks(store, league.season_id, me.team)
    return page("picks.html.j2", request, me=me, weeks=weeks, sent=sent)


@post("/picks/send", sync_to_thread=True)
def picks_send(request: Request, data: Annotated[PicksForm, Form]) -> Redirect:
    league = league_of(request)
    acting(request, data.team, lambda store, me: matrix_web.send_picks(
        store, league.season_id, me.name, data.team, data.week, data.picks, league.clock))
    return Redirect("/picks", status_code=303)


@get("/referee", sync_to_thread=True)
def referee_page(request: Request) -> Template:
    league = league_of(request)
    with open_store(league.db) as store:
        commissioner_of(request, store)
        weeks = _weeks(store, league.season_id)
        members = matrix_web.people_of(matrix_season.load(store, league.season_id)).managers
        all_teams = league.people.teams(store, league.season_id)
        refused = accounts.refusals(store)
    return page("referee.html.j2", request, weeks=weeks, managers=members, teams=all_teams,
                refused=refused, link=request.query_params.get("link"))


@post("/referee/deadline", sync_to_thread=True)
def referee_deadline(request: Request, data: Annotated[DeadlineForm, Form]) -> Redirect:
    league = league_of(request)
    admin_act(request, lambda store, me: matrix_web.set_deadline(
        store, league.season_id, me.name, data.week, data.deadline, league.clock))
    return Redirect("/referee", status_code=303)


@post("/referee/play", sync_to_thread=True)
def referee_play(request: Request, data: Annotated[WeekForm, Form]) -> Redirect:
    league = league_of(request)
    admin_act(request, lambda store, me: matrix_season.play(store, league.season_id, data.week))
    return Redirect("/referee", status_code=303)


@post("/referee/invite", sync_to_thread=True)
def referee_invite(request: Request, data: Annotated[InviteForm, Form]) -> Redirect:
    return Redirect(f"/referee?link={coach_link(request, data.team)}", status_code=303)


WEB = WebSystem(MATRIX_PEOPLE, [picks_page, picks_send, referee_page, referee_deadline,
                                 referee_play, referee_invite], matrix_files,
                "/referee", "/picks")
"""Matrix Hockey's league on the web, for the command line's registry (replay/cli/app.py)."""
