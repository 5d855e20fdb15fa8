"""A league's people, whatever its kind (issue 36, docs/web.md): what the web's accounts
need of a season: its teams, who is who, and joining. A league season's are here
(season_people.py, results.py); a season system's own (Matrix Hockey's,
replay/leagues/matrix/web.py) is handed down by the command line's registry
(replay/cli/app.py), as its pages are."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from events.catalogue import LEAGUE
from events.errors import RinklogError
from events.plurals import counted
from events.store import EventStore
from replay.leagues import results

__all__ = ["SEASON_PEOPLE", "LeaguePeople", "Member", "league_season", "people_of"]


@dataclass(frozen=True)
class Member:
    role: str  # coach (a team's coach or manager) or commissioner
    team: str


@dataclass(frozen=True)
class LeaguePeople:
    """A kind of season's people: its teams, its members by account, joining one."""

    system: str  # the season stream's system: league, or a season system (matrix)
    teams: Callable[[EventStore, str], list[str]]
    members: Callable[[EventStore, str], dict[str, Member]]
    join: Callable[..., None]  # (store, season, account, role, team, clock)


def _teams(store: EventStore, season_id: str) -> list[str]:
    created = results.season_state(store, season_id).created
    assert created is not None
    return sorted(created.team_hashes)


def _members(store: EventStore, season_id: str) -> dict[str, Member]:
    found = results.season_state(store, season_id).people.members
    return {name: Member(joined.role, joined.team) for name, joined in found.items()}


SEASON_PEOPLE = LeaguePeople(LEAGUE, _teams, _members, results.join)
"""A league season's people (its stream's MemberJoined, season_people.py)."""


def league_season(store: EventStore, season_id: str | None,
                  systems: Mapping[str, Any]) -> str:
    """``season_id``, or the database's one season (a league's, or a season system's of
    ``systems``, by stream system)."""
    seasons = [s.stream for s in store.streams()
               if s.kind != "game" and (s.system == LEAGUE or s.system in systems)]
    if season_id is not None:
        if season_id not in seasons:
            raise RinklogError(f"{store.path}: no season {season_id!r} (it holds: "
                               f"{', '.join(seasons) or 'none'})")
        return season_id
    if len(seasons) != 1:
        raise RinklogError(f"{store.path}: holds {counted(len(seasons), 'season')} "
                           f"({', '.join(seasons) or 'none'}); name one with --season")
    return seasons[0]


def people_of(store: EventStore, season_id: str,
              systems: Mapping[str, LeaguePeople]) -> LeaguePeople:
    """The people of ``season_id``'s kind: a league season's, or its season system's."""
    system = store.info(season_id).system
    if system == LEAGUE:
        return SEASON_PEOPLE
    if system not in systems:
        raise RinklogError(f"{season_id}: a {system} season has no league on the web")
    return systems[system]
