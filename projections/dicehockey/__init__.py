"""DICE Hockey's read models: pure folds of a DICE Hockey stream into the shared read-model
types (projections/scoresheet.py, toi.py, penalties.py, stats.py).

Imports events only (never the engine). Where Hockey Bones gives seconds of a 20-minute
period, DICE Hockey gives **timing spaces** (12: a period is the two teams' timing ratings
added, in shots and turnovers; 22 Timing: every turnover and the first shot of each
possession fill one space), and a penalty killed by clears (15) counts clears. Every unit
is in docs/json.md ("DICE Hockey").
"""

from projections.dicehockey.penalties import build_penalties
from projections.dicehockey.scoresheet import build_scoresheet
from projections.dicehockey.stats import build_stats
from projections.dicehockey.toi import build_toi

__all__ = ["build_penalties", "build_scoresheet", "build_stats", "build_toi"]
