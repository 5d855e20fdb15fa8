"""The stream index: what the ``streams`` table lists of a stream, folded from its events.

The index (``kind`` and ``meta`` of a stream) is for finding games fast, never evidence:
everything in it is derived from the hash-chained events, and the audit derives it again
and requires the stored kind and metadata text to equal it byte for byte. So a score, a
season, a branch's lineage or a game's completion can only be changed by changing the
chain, which the audit and a receipt catch. (The stream's ``system`` is index too; the
audit derives it from the ``GameCreated`` ruleset through the game-system registry, which
a projection does not import.) What the index reads of a system's own events (a Hockey
Bones goal, a Matrix Hockey season's weeks) each system registers (projections/systems.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from events.common import BranchStarted, GameCreated, GameEnded
from events.league import SeasonCreated
from projections.systems import index_tables

__all__ = ["StreamIndex", "stream_index"]


class StreamIndex:
    """An incremental fold of a stream into its ``kind`` and ``meta``.

    A game: ``home``, ``away``, ``ruleset``, the score so far, ``decided`` once it ended,
    ``live`` for a game played at the table, ``season``/``number`` for a season's game and
    ``parent``/``parent_seq``/``dice_schedule`` for a branch (its latest fork). A season:
    ``league``, ``seed`` and the number of scheduled ``games``. ``kind`` stays None for a
    stream whose first event is neither a GameCreated nor a SeasonCreated. A Matrix Hockey
    season (``matrix_season``): ``league``, ``season_number``, ``seed``, ``weeks_played``,
    ``games`` played, and ``closed``/``next_season`` once closed.
    """

    def __init__(self) -> None:
        self.kind: str | None = None
        self.meta: dict[str, Any] = {}
        self._first = True
        self._tables = index_tables()

    def add(self, event: Any) -> dict[str, Any]:
        """Fold one event; return the metadata fields it changed (to merge into a stream)."""
        if self._first:
            self._first = False
            return self._opened(event)
        changed: dict[str, Any]
        reader = self._tables.reads.get((self.kind, type(event)))
        if reader is not None:  # a system's own event
            changed = reader(self.meta, event)
        elif self.kind == "game" and _of_game(type(event)):
            if isinstance(event, GameEnded):
                changed = {"home_goals": event.home_goals, "away_goals": event.away_goals,
                           "decided": event.decided}
            else:
                assert isinstance(event, BranchStarted)
                changed = {"parent": event.parent, "parent_seq": event.parent_seq,
                           "dice_schedule": [[start, seed] for start, seed in event.dice_schedule]}
        else:
            return {}  # most events: nothing of the index (no look-up of the meta)
        self.meta.update(changed)
        return changed

    def _opened(self, event: Any) -> dict[str, Any]:
        changed: dict[str, Any] = {}
        if isinstance(event, GameCreated):
            self.kind = "game"
            changed = {"home": event.home.team_id, "away": event.away.team_id,
                       "ruleset": event.ruleset, "home_goals": 0, "away_goals": 0}
            if event.live:
                changed["live"] = True
            if event.season:
                changed.update(season=event.season, number=event.number)
        elif isinstance(event, SeasonCreated):
            self.kind = "season"
            changed = {"league": event.league, "seed": event.seed,
                       "games": len(event.schedule)}
        elif type(event) in self._tables.opens:  # a system's own kind of stream
            self.kind, opened = self._tables.opens[type(event)]
            changed = opened(event)
        self.meta.update(changed)
        return changed


# Whether a class is one the index reads of any game (GameEnded, BranchStarted), by class:
# compiled, ``isinstance`` against a msgspec class is the slow generic check, and every
# event of a game is asked (the audit and the writer fold every stream's index).
_GAME_READS: dict[type, bool] = {}


def _of_game(cls: type) -> bool:
    known = _GAME_READS.get(cls)
    if known is None:
        known = _GAME_READS[cls] = issubclass(cls, (GameEnded, BranchStarted))
    return known


def stream_index(events: Iterable[Any]) -> StreamIndex:
    """The index of a whole stream."""
    index = StreamIndex()
    for event in events:
        index.add(event)
    return index
