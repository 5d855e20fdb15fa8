"""The one writer of a season stream: every command that changes a season appends here.

A command reads the season's version before it decides anything (:meth:`SeasonStream.at`),
decides from what it then reads, and appends with that version, in the same transaction
as everything it writes with it (a game's rows, read models). Another command that
appended meanwhile makes the append a :class:`SeasonChanged`: refused in one line, and
the transaction around it writes nothing. A command that appends more than once (a season
run recording game after game) goes on from its own last append, so anything another
command appends in between refuses its next one.

A league season (``kind`` ``season``, the league events) and a Matrix Hockey season
(``matrix_season``) are both written through this module. A league season's events are
first folded by the season's rules (:mod:`replay.leagues.season`, the code the audit
folds the stored stream with) onto the season as read: what they refuse is
:class:`SeasonRefused`, one line, and nothing is written. (A Matrix season's events are
the referee's, engine/matrix/, decided before they reach here; an import's rows are
audited whole before they are.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from events.base import Event
from events.catalogue import LEAGUE
from events.errors import RinklogError, StreamConflict
from events.league import SeasonCreated, SeasonTableGameStarted
from events.store import EventStore
from replay.leagues.season import SeasonRefused, SeasonState, fold

T = TypeVar("T")

__all__ = ["SeasonChanged", "SeasonRefused", "SeasonStream", "decided_again"]

TRIES = 8  # a lost race is decided again this many times before it is refused


class SeasonChanged(RinklogError):
    """A season appended to by another command after this one read it; nothing written."""


def decided_again(act: Callable[[], T]) -> T:
    """``act`` (which reads the season, decides and appends), done again from the season
    as it then stands when another command appended first, up to :data:`TRIES` times;
    then its :class:`SeasonChanged` (a people's act on the web, docs/web.md)."""
    for _ in range(TRIES - 1):
        try:
            return act()
        except SeasonChanged:
            continue
    return act()


@dataclass
class SeasonStream:
    """A season stream as a command read it: ``version`` is what it decided from (0: a
    season not created yet), then its own appends' versions."""

    store: EventStore
    season_id: str
    version: int
    # the league season folded at ``version`` (None: not folded yet, or not a league season)
    _state: SeasonState | None = field(default=None, repr=False)

    @classmethod
    def at(cls, store: EventStore, season_id: str) -> SeasonStream:
        """The season as it stands now: read this before reading anything to decide from."""
        return cls(store, season_id, store.version(season_id))

    def events(self) -> list[Any]:
        """The season's events up to the version read (none of another command's since)."""
        if not self.version:
            return []
        return [row.event for row in self.store.read(self.season_id, 1, self.version)]

    def state(self) -> SeasonState | None:
        """The league season as its rules fold it at the version read (None: a season
        system's stream, or none yet)."""
        if self._state is None and self.version:
            events = self.events()
            if isinstance(events[0], SeasonCreated):
                self._state = fold(events)
        return self._state

    def append(self, events: Sequence[Event]) -> int:
        """Append ``events`` onto the version decided from; :class:`SeasonChanged` if the
        season moved on meanwhile, :class:`SeasonRefused` if the season's rules refuse
        one of them (either way the caller's transaction then writes nothing)."""
        return self._append(lambda: self.store.append(self.season_id, events, self.version),
                            events)

    def append_encoded(self, rows: Sequence[tuple[str, bytes]]) -> int:
        """:meth:`append` of rows already encoded in the stream's format (an import)."""
        return self._append(lambda: self.store.append_encoded(self.season_id, rows,
                                                              self.version))

    def create(self, events: Sequence[Event], *, kind: str = "season", system: str = LEAGUE,
               meta: dict[str, Any] | None = None) -> int:
        """Create the season with its first events (its opening)."""
        return self._append(lambda: self.store.append(self.season_id, events, 0, kind=kind,
                                                      system=system, meta=meta), events)

    def create_encoded(self, rows: Sequence[tuple[str, bytes]], *, meta: dict[str, Any],
                       format: int) -> int:
        """Create the season from rows already encoded (an import of its export)."""
        return self._append(lambda: self.store.append_encoded(
            self.season_id, rows, 0, kind="season", system=LEAGUE, meta=meta, format=format))

    def append_with_index(self, events: Sequence[Event], meta: dict[str, Any], *, kind: str,
                          system: str) -> int:
        """Append (or create, at version 0) with the stream's index metadata refreshed."""
        return self._append(lambda: self.store.append(self.season_id, events, self.version,
                                                      kind=kind, system=system, meta=meta))

    def start_table_game(self, game_id: str, number: int, events: Sequence[Event], *,
                         system: str, meta: dict[str, Any]) -> None:
        """Store a season game's first events (one to be played at the table) and mark it
        started in the season (SeasonTableGameStarted), in one transaction, before its
        first roll. Another command that stored the same game meanwhile refuses it in one
        line, with nothing written."""
        with self.store.transaction():
            try:
                self.store.append(game_id, events, expected_version=0, kind="game",
                                  system=system, meta=meta)
            except StreamConflict:
                raise SeasonChanged(f"game {game_id} was stored by another command while this "
                                    f"ran: nothing written; resume it with rinklog play "
                                    f"--resume {game_id}") from None
            self.append([SeasonTableGameStarted(game=game_id, number=number)])

    def _append(self, write: Callable[[], int], events: Sequence[Event] = ()) -> int:
        state = self._decided(events)
        try:
            self.version = write()
        except StreamConflict:
            if not self.version:
                raise SeasonChanged(f"season {self.season_id} was created by another "
                                    "command while this ran: nothing written; run it "
                                    "again") from None
            now = self.store.version(self.season_id)
            raise SeasonChanged(f"season {self.season_id} changed while this ran (version "
                                f"{self.version}, now {now}): nothing written; run it "
                                "again") from None
        self._state = state
        return self.version

    def _decided(self, events: Sequence[Event]) -> SeasonState | None:
        """The league season with ``events`` folded on (refused as the audit would refuse
        them); None when they are not a league season's to fold."""
        if not events:
            return None
        state = self.state()
        if state is None and (self.version or not isinstance(events[0], SeasonCreated)):
            return None
        return fold(events, state)
