"""A league's people, whatever its kind (issue 36, docs/web.md): a league season's
(season_people.py, results.py) or a Matrix Hockey season's (matrix/web.py). What the web's
accounts need of either: the teams, who is who, and joining."""

from __future__ import annotations

from dataclasses import dataclass

from events.errors import RinklogError
from events.store import EventStore
from replay.leagues import results
from replay.leagues.matrix import web as matrix_web
from replay.leagues.matrix.season import KIND as MATRIX_KIND
from replay.leagues.matrix.season import load as load_matrix

__all__ = ["Member", "is_matrix", "join", "league_season", "members", "teams"]


@dataclass(frozen=True)
class Member:
    role: str  # coach (a team's coach or manager) or commissioner
    team: str


def is_matrix(store: EventStore, season_id: str) -> bool:
    return store.info(season_id).kind == MATRIX_KIND


def league_season(store: EventStore, season_id: str | None = None) -> str:
    """``season_id`` (a league season or a Matrix season), or the database's one season."""
    seasons = [s.stream for kind in ("season", MATRIX_KIND) for s in store.streams(kind=kind)]
    if season_id is not None:
        if season_id not in seasons:
            raise RinklogError(f"{store.path}: no season {season_id!r} (it holds: "
                               f"{', '.join(seasons) or 'none'})")
        return season_id
    if len(seasons) != 1:
        raise RinklogError(f"{store.path}: holds {len(seasons)} seasons "
                           f"({', '.join(seasons) or 'none'}); name one with --season")
    return seasons[0]


def teams(store: EventStore, season_id: str) -> list[str]:
    if is_matrix(store, season_id):
        return sorted(load_matrix(store, season_id).state.teams)
    created = results.season_state(store, season_id).created
    assert created is not None
    return sorted(created.team_hashes)


def members(store: EventStore, season_id: str) -> dict[str, Member]:
    if is_matrix(store, season_id):
        found = matrix_web.people_of(load_matrix(store, season_id)).members
    else:
        found = results.season_state(store, season_id).people.members  # type: ignore[assignment]
    return {name: Member(joined.role, joined.team) for name, joined in found.items()}


def join(store: EventStore, season_id: str, account: str, role: str, team: str,
         clock: results.Clock = results.now_utc) -> None:
    if is_matrix(store, season_id):
        matrix_web.join(store, season_id, account, role, team, clock)
    else:
        results.join(store, season_id, account, role, team, clock)
