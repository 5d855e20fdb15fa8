"""A Matrix Hockey league on the web (issue 36, docs/web.md): managers join, the
commissioner sets each week's deadline, a manager sends his team's picks before it.

Each act is an event of the Matrix season stream (events/matrix.py: MemberJoined,
PicksDeadlineSet, PicksSubmitted then the PicksSent), checked by the same rules the
audit folds (engine/matrix/people.py) and appended onto the version it was decided from;
a lost race decides again. Picks are checked as ``rinklog matrix picks`` checks them
(the referee's own check of a pick, when sent) and are shown to their own team only
until the week is played.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from engine.matrix import referee
from engine.matrix.people import People, act
from events.errors import RinklogError
from events.matrix import MemberJoined, Pick, PicksDeadlineSet, PicksSent, PicksSubmitted
from events.store import EventStore
from replay.leagues.matrix.season import SYSTEM, Season, load, record
from replay.leagues.people import LeaguePeople, Member
from replay.leagues.season_stream import decided_again
from replay.systems.matrix.files import read_picks

__all__ = ["MATRIX_PEOPLE", "PicksRefused", "deadline_of", "join", "own_picks", "people_of", "send_picks",
           "set_deadline", "weeks"]



class PicksRefused(RinklogError):
    """Picks or an act the league's rules refuse; nothing written."""


def people_of(season: Season) -> People:
    """The league's people as the stream has them (its acts already checked when they
    were appended, and by the audit)."""
    people = People()
    for event in season.events:
        if isinstance(event, MemberJoined):
            people.members[event.account] = event
            if event.role == "coach":
                people.managers[event.team] = event.account
        elif isinstance(event, PicksDeadlineSet):
            people.deadlines[event.week] = event.deadline
        if isinstance(event, MemberJoined | PicksDeadlineSet | PicksSubmitted):
            people.last_at = event.at
    return people


def _append(store: EventStore, season_id: str, clock: Callable[[], str],
            decide: Callable[[Season, People, str], list[Any]]) -> list[Any]:
    def once() -> list[Any]:
        season = load(store, season_id)
        people = people_of(season)
        events = decide(season, people, max(clock(), people.last_at))
        first = events[0]
        wrong = act(people, season.state, first)
        if wrong is not None:
            raise PicksRefused(f"{season_id}: {type(first).__name__} refused: expected {wrong}; "
                               "nothing written")
        record(store, season, season_id, events)
        return events
    return decided_again(once)


def join(store: EventStore, season_id: str, account: str, role: str, team: str,
         clock: Callable[[], str]) -> None:
    _append(store, season_id, clock, lambda season, people, at: [
        MemberJoined(account=account, role=role, team=team, at=at)])  # type: ignore[arg-type]


def set_deadline(store: EventStore, season_id: str, account: str, week: int, deadline: str,
                 clock: Callable[[], str]) -> None:
    """The commissioner sets week ``week``'s deadline (UTC, ISO 8601)."""
    try:
        when = datetime.fromisoformat(deadline)
    except ValueError:
        raise PicksRefused(f"deadline {deadline!r}: a time like 2026-12-04T18:00+00:00") from None
    if when.utcoffset() is None:
        raise PicksRefused(f"deadline {deadline!r}: say its time zone (+00:00 for UTC)")
    _append(store, season_id, clock, lambda season, people, at: [PicksDeadlineSet(
        week=week, deadline=when.isoformat(), account=account, at=at)])


def deadline_of(store: EventStore, season_id: str, week: int) -> str | None:
    return people_of(load(store, season_id)).deadlines.get(week)


def weeks(store: EventStore, season_id: str) -> tuple[list[int], set[int]]:
    """The season's weeks (from its schedule) and those played."""
    state = load(store, season_id).state
    return sorted(state.schedule), set(state.weeks_played)


def send_picks(store: EventStore, season_id: str, account: str, team: str, week: int,
               text: str, clock: Callable[[], str]) -> PicksSent:
    """``team``'s picks for ``week`` (its tables of a picks file, TOML), sent by its
    manager: refused if the file names another team or the referee's table, if a pick is
    not legal (3.1.3), or once the week's deadline has passed."""
    def decide(season: Season, people: People, at: str) -> list[Any]:
        plays = {t: [fx.competition for fx in referee.fixtures(season.state, week)
                     if t in (fx.home, fx.away)] for t in season.state.teams}
        sent = _read(text, week, plays)
        if [s.team for s in sent.sent] != [team] or sent.table is not None:
            raise PicksRefused(f"picks of {team} only: one table [{team}] (or one a "
                               "competition), no [referee] table")
        try:
            referee.check_picks(season.state, sent.sent[0])
        except RinklogError as err:
            raise PicksRefused(f"picks of {team} for week {week}: {err}") from None
        return [PicksSubmitted(week=week, team=team, account=account, at=at), sent.sent[0]]
    return _append(store, season_id, clock, decide)[1]  # type: ignore[no-any-return]


def _read(text: str, week: int, plays: dict[str, list[str]]) -> Any:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "picks.toml"
        path.write_text(text)
        try:
            return read_picks(path, week, plays)
        except RinklogError as err:
            raise PicksRefused(str(err).replace(str(path), "the picks")) from None


@dataclass(frozen=True)
class SentPicks:
    week: int
    picks: list[Pick]
    played: bool


def own_picks(store: EventStore, season_id: str, team: str) -> list[SentPicks]:
    """What ``team`` sent, week by week (the latest for each week)."""
    season = load(store, season_id)
    found = {e.week: e.picks for e in season.events
             if isinstance(e, PicksSent) and e.team == team}
    return [SentPicks(w, p, w in season.state.weeks_played) for w, p in sorted(found.items())]


def _teams(store: EventStore, season_id: str) -> list[str]:
    return sorted(load(store, season_id).state.teams)


def _members(store: EventStore, season_id: str) -> dict[str, Member]:
    found = people_of(load(store, season_id)).members
    return {name: Member(joined.role, joined.team) for name, joined in found.items()}


MATRIX_PEOPLE = LeaguePeople(SYSTEM, _teams, _members, join)
"""A Matrix Hockey season's people, for the web (replay/leagues/people.py)."""
