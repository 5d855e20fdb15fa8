"""What a season system's odds give the shared ``rinklog odds`` (docs/odds.md): a season
system (Matrix Hockey) plays its own seasons, so its odds are its own
(replay/leagues/matrix/odds.py), which the command line names (replay/cli/app.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from events.store import EventStore
from replay.workers import Cluster


class OddsReport(Protocol):
    """A season system's odds as counted (``SeasonOdds.report``): docs/odds.md's JSON,
    its CSV rows and its printed lines."""

    def to_json(self, per_run: bool = False) -> dict[str, Any]: ...
    def csv_rows(self) -> list[dict[str, Any]]: ...
    def lines(self) -> list[str]: ...


@dataclass(frozen=True)
class SeasonOdds:
    """``rinklog odds`` of a season system's season stream (docs/odds.md): the shared
    command reads the season (``read``: store, season id -> what every run starts from),
    plays and counts the runs (``report``: season, seed, runs, workers, cluster (a
    ``replay.workers.Cluster``) or None, progress(done, runs) or None), or writes run R
    as a database of its own (``replay``: db, season id, seed, R, out -> the path written, audited clean).
    ``record``: ``--record``, the report appended to the season stream (store, what
    ``read`` gave, the report), refused if the season changed since ``read``.
    ``audit``: the season's odds records held to their runs (store, season id, runs to
    play again of each -> the first failure as an AuditFinding or None, and warnings;
    ``rinklog audit``, issue 33)."""

    read: Callable[[EventStore, str], Any]
    report: Callable[[Any, str, int, int, Cluster | None, Callable[[int, int], None] | None],
                     OddsReport]
    replay: Callable[[str | Path, str, str, int, Path], Path]
    record: Callable[[EventStore, Any, Any], None]
    audit: Callable[[EventStore, str, int], tuple[Any, list[str]]]
