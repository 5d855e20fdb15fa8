"""The coach's pages of a league season on the web (docs/web.md): his team's games, the
results to answer, a game played at the table sent (its export file, or its dice typed),
a result confirmed or disputed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from litestar import Request, get, post
from litestar.datastructures import UploadFile
from litestar.response import Redirect, Template

from events.store import EventStore
from replay.leagues import results
from replay.leagues.season_people import fixture_teams, opponent
from replay.leagues.typed_games import typed_export
from replay.web import accounts
from replay.web.common import MAX_UPLOAD, Form, Upload, acting, league_of, member_of, page
from replay.web.views import schedule_lines, submissions

__all__ = ["ROUTES"]


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
    league = league_of(request)
    with league.store() as store:
        account = member_of(request, store)
        state = results.season_state(store, league.season_id)
        assert state.created is not None
        mine = [s for s in submissions(store, league.season_id) if account.team in
                (s.team, opponent(state.created, s.number, s.team))]
        games = schedule_lines(store, state, account.team)
    to_answer = [s for s in mine if s.state == "waiting" and s.team != account.team]
    return page("coach.html.j2", request, me=account, games=games, submissions=mine,
                 to_answer=to_answer)


@post("/coach/submit", sync_to_thread=True)
def coach_submit(request: Request, data: Annotated[SubmitForm, Upload]) -> Redirect:
    content = data.file.file.read(MAX_UPLOAD + 1)
    league = league_of(request)
    acting(request, data.team, lambda store, me: results.submit(
        store, league.season_id, me.name, data.team, content,
        data.file.filename or "upload", league.clock))
    return Redirect("/coach", status_code=303)


@post("/coach/typed", sync_to_thread=True)
def coach_typed(request: Request, data: Annotated[TypedForm, Form]) -> Redirect:
    league = league_of(request)

    def act(store: EventStore, me: accounts.Account) -> None:
        created = results.season_state(store, league.season_id).created
        assert created is not None
        if data.team not in (fixture_teams(created, data.number) or ()):
            raise results.NotYours(f"game {data.number} is not a game of {data.team}")
        content = typed_export(league.db, league.season_id, data.number,
                               data.rolls.splitlines(), "the rolls typed")
        results.submit(store, league.season_id, me.name, data.team, content,
                       "the rolls typed", league.clock)
    acting(request, data.team, act)
    return Redirect("/coach", status_code=303)


@post("/coach/confirm", sync_to_thread=True)
def coach_confirm(request: Request, data: Annotated[AnswerForm, Form]) -> Redirect:
    league = league_of(request)
    acting(request, data.team, lambda store, me: results.confirm(
        store, league.season_id, me.name, data.team, data.game, league.clock))
    return Redirect("/coach", status_code=303)


@post("/coach/dispute", sync_to_thread=True)
def coach_dispute(request: Request, data: Annotated[DisputeForm, Upload]) -> Redirect:
    league = league_of(request)
    content = data.file.file.read(MAX_UPLOAD + 1) if data.file is not None else b""
    acting(request, data.team, lambda store, me: results.dispute(
        store, league.season_id, me.name, data.team, data.game, data.reason,
        content or None, "the disputed version", league.clock))
    return Redirect("/coach", status_code=303)


ROUTES = [coach_page, coach_submit, coach_typed, coach_confirm, coach_dispute]
