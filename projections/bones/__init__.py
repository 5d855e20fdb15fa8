"""Hockey Bones' read models (FaceOff Hockey 2008 is a ruleset of the same system): pure
folds of a Hockey Bones stream into the shared read-model types (projections/models/).

Imports events only (never the engine). Times are seconds of a 20-minute period (6.10: a
time sequence is 24 s), a goal's and a penalty's shown ``MM:SS`` (docs/json.md).
"""

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from events.bones import BonesEvent, GoalScored
from projections.bones.game import build_game
from projections.bones.penalties import build_penalties
from projections.bones.penalty_types import build_penalty_types
from projections.bones.scoresheet import build_scoresheet, sequence_start
from projections.bones.stats import build_stats
from projections.bones.strengths import build_strengths
from projections.bones.toi import build_toi, build_toi_by_player
from projections.models.times import SECONDS
from projections.registration import IndexReads, ReadModels, SystemProjections

__all__ = ["PROJECTIONS", "SEQUENCE_TIME", "build_penalties", "build_scoresheet", "build_stats",
           "build_strengths", "build_toi"]

REGULATION_PERIODS = 3
PERIOD_SECONDS = 1200  # 6.10: 50 time sequences of 24 s
OVERTIME_SECONDS = 300  # 6.00: a 5-minute regular-season overtime


def _nominal(period: int) -> int:
    """A period's length in seconds: 20 minutes, an overtime 5 (6.00, 6.10)."""
    return PERIOD_SECONDS if period <= REGULATION_PERIODS else OVERTIME_SECONDS


SEQUENCE_TIME = replace(SECONDS, at=sequence_start, nominal=_nominal)
"""Hockey Bones' time: seconds (``MM:SS``), a state's sequence n at its start (6.10), a
period 20 minutes and an overtime 5."""


def _goal(meta: Mapping[str, Any], e: GoalScored) -> dict[str, Any]:
    """A game's score so far in the stream index: each goal as it is scored."""
    key = f"{e.side}_goals"
    return {key: meta[key] + 1}


PROJECTIONS = SystemProjections(
    name="bones",
    events=BonesEvent,
    read_models=ReadModels(scoresheet=build_scoresheet, toi=build_toi, penalties=build_penalties,
                           stats=build_stats, unit=SEQUENCE_TIME,
                           strengths=build_strengths, penalty_types=build_penalty_types,
                           toi_by_player=build_toi_by_player, game=build_game),
    index=IndexReads(reads={("game", GoalScored): _goal}),
)
