"""Matrix Hockey's projections: what the stream index reads of a Matrix Hockey season
stream (docs/matrix.md). Matrix Hockey plays seasons, not games at the table, so it has no
game read models; its standings are its own (engine/matrix/seasons.py).

Imports events only (never the engine).
"""

from collections.abc import Mapping
from typing import Any

from events.matrix import GamePlayed, MatrixEvent, SeasonClosed, SeasonOpened, WeekEnded
from projections.registration import IndexReads, SystemProjections

__all__ = ["KIND", "PROJECTIONS"]

KIND = "matrix_season"  # the stream kind of a Matrix Hockey season


def _opened(e: SeasonOpened) -> dict[str, Any]:
    return {"league": e.league, "season_number": e.season, "seed": e.seed,
            "weeks_played": 0, "games": 0}


def _played(meta: Mapping[str, Any], e: GamePlayed) -> dict[str, Any]:
    return {"games": meta["games"] + 1}


def _week(meta: Mapping[str, Any], e: WeekEnded) -> dict[str, Any]:
    return {"weeks_played": e.week}


def _closed(meta: Mapping[str, Any], e: SeasonClosed) -> dict[str, Any]:
    return {"closed": True, "next_season": e.next_season}


PROJECTIONS = SystemProjections(
    name="matrix",
    events=MatrixEvent,
    index=IndexReads(opens={SeasonOpened: (KIND, _opened)},
                     reads={(KIND, GamePlayed): _played, (KIND, WeekEnded): _week,
                            (KIND, SeasonClosed): _closed}),
)
