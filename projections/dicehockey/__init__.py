"""DICE Hockey's read models: pure folds of a DICE Hockey stream into the shared read-model
types (projections/models/).

Imports events only (never the engine). Where Hockey Bones gives seconds of a 20-minute
period, DICE Hockey gives **timing spaces** (12: a period is the two teams' timing ratings
added, in shots and turnovers; 22 Timing: every turnover and the first shot of each
possession fill one space), and a penalty killed by clears (15) counts clears. Every unit
is in docs/json.md ("DICE Hockey").
"""

from events.dicehockey import DiceHockeyEvent
from projections.dicehockey.game import build_game
from projections.dicehockey.ice import TIMING_SPACES
from projections.dicehockey.penalties import build_penalties
from projections.dicehockey.scoresheet import build_scoresheet
from projections.dicehockey.stats import build_stats
from projections.dicehockey.strengths import build_strengths
from projections.dicehockey.toi import build_toi, build_toi_by_player
from projections.registration import ReadModels, SystemProjections

__all__ = ["PROJECTIONS", "build_penalties", "build_scoresheet", "build_stats",
           "build_strengths", "build_toi"]

# The stream index reads none of DICE Hockey's own events: a game's score in its metadata
# is GameEnded's (projections/index.py). The audit holds stored metadata to that fold, so
# counting goals as they are scored would take a registration of its own index reads.
PROJECTIONS = SystemProjections(
    name="dicehockey",
    events=DiceHockeyEvent,
    read_models=ReadModels(scoresheet=build_scoresheet, toi=build_toi, penalties=build_penalties,
                           stats=build_stats, unit=TIMING_SPACES,
                           strengths=build_strengths, toi_by_player=build_toi_by_player,
                           game=build_game),
)
