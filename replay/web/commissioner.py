"""The commissioner's pages of a league season on the web (docs/web.md): disputes with
both versions side by side and their settling, the simulated games due, results left
unanswered past the window, invitations, the season receipt published."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from litestar import Request, get, post
from litestar.params import FromPath
from litestar.response import Redirect, Template

from events.catalogue import open_store
from replay.leagues import commissioner, results
from replay.leagues.versions import compare_versions
from replay.web import accounts
from replay.web.common import Form, admin_act, coach_link, commissioner_of, league_of, page
from replay.web.views import schedule_lines, submissions

__all__ = ["ROUTES"]

MOST_RUNS = 10_000  # odds on the server's one worker: rinklog odds for more


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


@get("/admin", sync_to_thread=True)
def admin_page(request: Request) -> Template:
    league = league_of(request)
    with open_store(league.db) as store:
        judge = commissioner_of(request, store)
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
    return page("admin.html.j2", request, state=state, submissions=found, disputes=disputes,
                 games=games, refused=refused, link=request.query_params.get("link"),
                 teams=sorted(state.created.team_hashes),  # type: ignore[union-attr]
                 can_sign=league.sign_key is not None)


@post("/admin/settle", sync_to_thread=True)
def admin_settle(request: Request, data: Annotated[SettleForm, Form]) -> Redirect:
    league = league_of(request)
    admin_act(request, lambda store, me: results.settle(
        store, league.season_id, me.name, data.game, data.verdict, data.note, league.clock))
    return Redirect("/admin", status_code=303)


@post("/admin/play", sync_to_thread=True)
def admin_play(request: Request, data: Annotated[PlayForm, Form]) -> Redirect:
    league = league_of(request)
    admin_act(request, lambda store, me: commissioner.play_due(
        store, league.season_id, me.name, data.through, league.clock))
    return Redirect("/admin", status_code=303)


@dataclass
class OddsForm:
    runs: int
    seed: str


@post("/admin/postseason/{step:str}", sync_to_thread=True)
def admin_postseason(request: Request, step: FromPath[str]) -> Redirect:
    """Open the playoffs, play the postseason's simulated games, or draw the lottery."""
    acts = {"open": commissioner.open_playoffs, "play": commissioner.play_postseason,
            "lottery": commissioner.draw_lottery}
    if step not in acts:
        raise results.ActRefused(f"{step!r}: open, play or lottery")
    league = league_of(request)
    admin_act(request, lambda store, me: acts[step](store, league.season_id, me.name,
                                                    league.clock))
    return Redirect("/admin", status_code=303)


@post("/admin/odds", sync_to_thread=True)
def admin_odds(request: Request, data: Annotated[OddsForm, Form]) -> Redirect:
    if not 1 <= data.runs <= MOST_RUNS:
        raise results.ActRefused(f"runs: 1 to {MOST_RUNS}")
    league = league_of(request)
    admin_act(request, lambda store, me: commissioner.record_season_odds(
        store, league.season_id, me.name, data.runs, data.seed, league.clock))
    return Redirect("/season/odds.html", status_code=303)


@post("/admin/lapse", sync_to_thread=True)
def admin_lapse(request: Request) -> Redirect:
    league = league_of(request)
    admin_act(request, lambda store, me: results.lapse_due(
        store, league.season_id, league.confirm_hours(store), league.clock))
    return Redirect("/admin", status_code=303)


@post("/admin/receipt", sync_to_thread=True)
def admin_receipt(request: Request) -> Redirect:
    league = league_of(request)
    if league.sign_key is None:
        raise results.ActRefused("the server was started without --sign-key: no receipts")
    admin_act(request, lambda store, me: commissioner.publish_receipt(
        store, league.season_id, me.name, league.sign_key, league.clock))  # type: ignore[arg-type]
    return Redirect("/receipts", status_code=303)


@post("/admin/invite", sync_to_thread=True)
def admin_invite(request: Request, data: Annotated[InviteForm, Form]) -> Redirect:
    return Redirect(f"/admin?link={coach_link(request, data.team)}", status_code=303)


ROUTES = [admin_page, admin_settle, admin_play, admin_lapse, admin_receipt, admin_invite,
          admin_postseason, admin_odds]
