"""Each game system's read models, by system name: the folds behind ``scoresheet``,
``toi``, ``penalties`` and ``stats``.

Every system's folds return the same read-model types (projections/scoresheet.py
``Scoresheet``, toi.py ``Toi``, penalties.py ``PenaltyReport``, stats.py ``GameStats``), so
the stored tables, the JSON keys and every command that shows them are shared; where a
field is a time, a system gives its own unit (docs/json.md). Standings are shared outright:
they read only the common ``GameCreated`` and ``GameEnded``. A stream's system is the
store's ``streams.system`` (the audit holds it equal to the system of the stream's
ruleset); projections never import the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from events.errors import RinklogError
from projections import dicehockey
from projections.penalties import PenaltyReport, build_penalties
from projections.scoresheet import Scoresheet, build_scoresheet, clock
from projections.stats import GameStats, build_stats
from projections.toi import Toi, build_toi

__all__ = ["READ_MODELS", "ReadModels", "game_read_models", "read_models"]


@dataclass(frozen=True)
class ReadModels:
    scoresheet: Callable[[Iterable[Any]], Scoresheet]
    toi: Callable[[Iterable[Any]], Toi]
    penalties: Callable[..., PenaltyReport]  # (events, at=None): the timers after event ``at``
    stats: Callable[..., GameStats]  # (events, scoresheet=None): the game's, if folded
    # A time field as the text commands show it: Hockey Bones' seconds as MM:SS; a system
    # that counts its own unit (DICE Hockey: timing spaces, clears) shows the number.
    show_time: Callable[[int | None], str] = clock


def _count(value: int | None) -> str:
    return "-" if value is None else str(value)


READ_MODELS: dict[str, ReadModels] = {
    "bones": ReadModels(scoresheet=build_scoresheet, toi=build_toi,
                        penalties=build_penalties, stats=build_stats),
    "dicehockey": ReadModels(scoresheet=dicehockey.build_scoresheet, toi=dicehockey.build_toi,
                             penalties=dicehockey.build_penalties,
                             stats=dicehockey.build_stats, show_time=_count),
}


def read_models(system: str) -> ReadModels:
    """The read models of a system's games (one line naming it when there are none)."""
    try:
        return READ_MODELS[system]
    except KeyError:
        raise RinklogError(f"no read models for game system {system!r} "
                           f"(known: {', '.join(READ_MODELS)})") from None


def game_read_models(store: Any, stream: str) -> ReadModels:
    """The read models of a stored game, by its stream's system."""
    return read_models(store.info(stream).system)
