"""League events: the streams of a league's seasons (a season's games are game streams of
their own system)."""

from __future__ import annotations

from msgspec import UNSET, UnsetType

from events.base import Event
from events.common import FaceoffOptions

__all__ = ["SeasonCreated"]


class SeasonCreated(Event, frozen=True):
    """First event of a season stream: the league, the season seed and the schedule.

    Every game of the season is its own stream, ``{season_id}-{number:04d}``, with dice
    seeded by ``{seed}/{number}``, so the season is the same with any number of workers.
    """

    season_id: str
    league: str
    seed: str
    charts_hash: str
    team_hashes: dict[str, str]
    schedule: list[tuple[int, str, str]]  # (number, home, away)
    divisions: list[tuple[str, str, list[str]]] = []  # (conference, division, team ids)
    overtime_skaters: int = 5  # the league's options, which every game of it records too
    late_penalty_house_rule: bool = False
    # The league's ruleset and FaceOff options; UNSET for Hockey Bones (unchanged bytes).
    ruleset: str | UnsetType = UNSET
    faceoff: FaceoffOptions | UnsetType = UNSET
    # Another system's optional rules, by name, which every game records (UNSET: none).
    options: list[str] | UnsetType = UNSET
