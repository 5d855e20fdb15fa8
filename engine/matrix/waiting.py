"""3.1.3 and 2.1.2.1: the waiting list.

- A team is named on the waiting list during a season (``matrix wait``); it gets the 3
  points of 2.1.2.1 ("Teams who got on the waiting list before the end of the season will
  get those 3 points too") when it takes a slot at the close.
- "A new team ONR on the first week might be replaced immediately by a team from the
  waiting list" (``matrix replace``, after week 1 and before week 2): the new team takes
  the slot and its record, like a third-ONR replacement (ruling M-3.1.3f).
- A dummy plays "till the end of the season": at the close its slot goes to the next team
  of the waiting list (ruling M-3.1.3g); with nobody waiting it stays a dummy.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from engine.matrix.context import Referee
from engine.matrix.state import SeasonState
from events.errors import RinklogError
from events.matrix import NewTeamReplaced, SlotHandedOn, WaitingListJoined

__all__ = ["WAITING_GREAT_SAVES", "WAITING_POINTS", "WaitingListError", "hand_on_dummies",
           "join", "replace_new_team"]

WAITING_POINTS = 3  # 2.1.2.1: the 3 points of a team on the waiting list before the end
WAITING_GREAT_SAVES = 2  # 2.1.3.1: "every team get 2 Great Saves" (and no games: no more)
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class WaitingListError(RinklogError):
    """A waiting-list command the rules refuse."""


def join(state: SeasonState, team_id: str, name: str) -> list[Any]:
    """Name a team on the waiting list (while the season is not closed)."""
    if state.closed is not None:
        raise WaitingListError(f"{state.season_id} is closed: name the team on the next "
                               "season's waiting list")
    if not _ID.match(team_id):
        raise WaitingListError(f"--id {team_id!r}: lower-case letters, digits and '-'")
    if not name.strip():
        raise WaitingListError(f"--name: the name of {team_id} is empty")
    taken = set(state.teams) | {t for t, _ in state.waiting_list} | {"referee"}
    if team_id in taken:
        raise WaitingListError(f"--id {team_id!r}: already a team or on the waiting list of "
                               f"{state.season_id}")
    return [WaitingListJoined(team_id, name, "2.1.2.1, 3.1.3")]


def replace_new_team(state: SeasonState, team: str, new_teams: Collection[str] | None
                     ) -> list[Any]:
    """3.1.3: a new team ONR in week 1 replaced at once by the next waiting team.
    ``new_teams``: the teams new to the league this season (None: not known here, the
    audit of one stream; a league's first season: every team is new)."""
    where = f"{state.season_id}: team {team}"
    if team not in state.teams:
        raise WaitingListError(f"{where}: no such team")
    if state.closed is not None or 1 not in state.weeks_played or 2 in state.weeks_played:
        raise WaitingListError(f"{where}: a new team is replaced right after week 1 (3.1.3)")
    record = state.teams[team]
    if record.dummy or record.joined:
        raise WaitingListError(f"{where}: already replaced")
    if not any(g.week == 1 and side.team == team and side.replaced == "onr"
               for g in state.results for side in (g.home, g.away)):
        raise WaitingListError(f"{where}: not ONR in week 1 (3.1.3)")
    if state.created.season > 1 and new_teams is not None and team not in new_teams:
        raise WaitingListError(f"{where}: not a new team (it played the season before)")
    waiting = state.waiting()
    if not waiting:
        raise WaitingListError(f"{where}: the waiting list is empty (matrix wait names a team)")
    new_id, new_name = waiting[0]
    return [NewTeamReplaced(team, new_name, new_id, "3.1.3")]


def hand_on_dummies(ref: Referee) -> None:
    """At the close: each dummy's slot, in the referee's order, to the next waiting team."""
    for team in ref.state.team_order():
        waiting = ref.state.waiting()
        if ref.state.teams[team].dummy and waiting:
            new_id, new_name = waiting[0]
            ref.emit(SlotHandedOn(team, new_id, new_name, WAITING_POINTS // 3,
                                  WAITING_GREAT_SAVES, "3.1.3, 2.1.2.1"))
