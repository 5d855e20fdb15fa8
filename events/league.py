"""League events: the streams of a league's seasons (a season's games are game streams of
their own system)."""

from __future__ import annotations

from typing import Literal

from msgspec import UNSET, Raw, UnsetType

from events.base import Event
from events.common import CoachSetting, GameCoachSet, SeasonGameOpened

__all__ = ["GAME_NOTES", "GameCoachSet", "SeasonCoachSet", "SeasonCreated", "SeasonGameOpened",
           "SeasonGameRecorded", "SeasonTableGameStarted"]


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
    late_penalty_house_rule: bool = False  # Hockey Bones' house rule (its system reads it)
    # The league's ruleset and its game system's league options (UNSET: none, unchanged
    # bytes). The options are FaceOff's (events.bones.FaceoffOptions), kept as the bytes
    # of the stream's payload format so that this module names no system's types: the
    # Bones system writes and reads them (events.bones.faceoff_field, faceoff_options).
    ruleset: str | UnsetType = UNSET
    faceoff: Raw | UnsetType = UNSET
    # Another system's optional rules, by name, which every game records (UNSET: none).
    options: list[str] | UnsetType = UNSET
    # The season stream's version (UNSET: 1, a season opened before issue 33): from 2
    # every OddsRecorded in it carries its runs (docs/trust.md, "Recorded odds").
    season_version: int | UnsetType = UNSET
    # The hash of the league file (league.toml) the season was begun with, stored as a blob
    # beside its cards (issue 34): its later commands read the league from the database,
    # never from a folder that may have moved or changed. UNSET: a season stored before,
    # whose later commands still need ``--league``.
    league_hash: str | UnsetType = UNSET


# --- the season as the ledger of its games (issue 20) ----------------------------------------
# A season stream: SeasonCreated, SeasonCoachSet (together its "opening"), then one record
# per game as it is stored (docs/trust.md). A season stream of SeasonCreated alone was
# written before season records.

class SeasonCoachSet(Event, frozen=True):
    """Second event of a season stream: the coach-file habits (docs/coach.md) its default
    coach plays every game with, for the home and the away team of each game: only the
    settings that differ from the default coach's (``{}``: the default coach). Its row's
    hash is the season's *opening* hash, which every game of the season pins."""

    home: dict[str, CoachSetting]
    away: dict[str, CoachSetting]


class SeasonTableGameStarted(Event, frozen=True):
    """Game ``number`` of the season is to be played at the table (typed dice, choices
    typed at the prompt): appended with the game's first event, before its first roll."""

    game: str
    number: int


class SeasonGameRecorded(Event, frozen=True):
    """Game ``number`` of the season is stored, whole: ``mode`` says how it was played
    (``simulated``: the season's seeded dice and default coach; ``table``: typed dice and
    choices, started by a SeasonTableGameStarted) and ``head`` is its final head hash.
    Appended in the same transaction as the game's last rows."""

    game: str
    number: int
    mode: Literal["simulated", "table"]
    head: str


GAME_NOTES = (SeasonGameOpened, GameCoachSet)
"""Events a game stream may carry right after its GameCreated that are no rule: the audit
checks them, the refold passes over them (like a branch's BranchStarted)."""
