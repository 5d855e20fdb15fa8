"""A game stream's audit shipped to a worker with no database (``rinklog audit --all
--cluster``, docs/cluster.md).

A local ``audit --all`` worker opens the database file; a Dask worker is another machine.
So the process that reads the database sends each game stream whole: its stored rows and
``streams`` row, its stored read models (:class:`projections.store.StoredReadModels`), and
what the database says of its season, exactly as the local audit's season lookup answers
it (the season's first event once its stream passes the audit, else why not; its
ledger; who is out of the game). The worker runs the same checks on them
(:func:`replay.leagues.audit.audit_stream_events`, then the read models), so a report is
the same as the local one. Every blob of the database and the facts of every season
stream go to each worker once (the crew's ``init``); a game naming a season that is no
season stream of the database takes its season's answer along.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import msgspec

from events.common import Absent, GameCreated
from events.formats import decoder
from events.league import SeasonCreated
from events.store import EventStore, StoredEvent, StreamRecord
from projections.store import StoredReadModels, stored_read_models
from replay.leagues.ledger import SeasonLedger
from replay.leagues.naming import PLAYOFF_NUMBER

__all__ = ["SeasonFacts", "ShippedGame", "ShippedSeasons", "StoreSeasons", "packed_rows",
           "season_facts", "shipped_game", "unpacked_rows"]


class StoreSeasons(Protocol):
    """The local audit's season lookup against a database (``audit._StoreSeasons``)."""

    def __call__(self, season_id: str) -> SeasonCreated | str: ...

    def ledger(self, season_id: str) -> SeasonLedger | None: ...

    def absent(self, season_id: str, number: int) -> list[Absent]: ...

    def playoff_absent(self, season_id: str, game_id: str) -> list[Absent]: ...


@dataclass(frozen=True)
class SeasonFacts:
    """A season as the database's lookup answers for it."""

    season: SeasonCreated | str  # its first event once its stream passes the audit, or why not
    ledger: SeasonLedger | None


def season_facts(seasons: StoreSeasons, season_id: str) -> SeasonFacts:
    return SeasonFacts(seasons(season_id), seasons.ledger(season_id))


@dataclass(frozen=True)
class ShippedGame:
    """One stream listed as a game, with everything its audit reads of the database."""

    stream: str
    record: StreamRecord
    packed: bytes  # its stored rows, :func:`packed_rows` (a third of the time of a pickle)
    read_models: StoredReadModels | None
    season_id: str = ""  # the season its GameCreated names ("": none, or it does not decode)
    number: int = 0  # its number in that season
    facts: SeasonFacts | None = None  # that season's, when it is no season stream
    absent: list[Absent] | None = None  # who is out of it, where the season schedules it
    # who is out of it as a playoff game (R-post-absent), when it is numbered as one
    playoff_absent: list[Absent] | None = None
    game_id: str = ""  # its GameCreated's game id (a branch's stream is another)


def shipped_game(store: EventStore, stream: str, record: StreamRecord, seasons: StoreSeasons,
                 known: dict[str, SeasonFacts]) -> ShippedGame:
    """Stream ``stream`` (listed as a game) as a worker audits it; ``known``: the facts of
    the database's season streams, which each worker has already."""
    rows = store.raw_rows(stream)
    game = ShippedGame(stream, record, packed_rows(rows), stored_read_models(store, stream))
    created = _created(rows, record.format)
    if created is None or not created.season:
        return game
    season_id = created.season
    facts = known.get(season_id) or season_facts(seasons, season_id)
    absent = playoff_absent = None
    if isinstance(facts.season, SeasonCreated) and any(
            f[0] == created.number for f in facts.season.schedule):
        absent = seasons.absent(season_id, created.number)
    if isinstance(facts.season, SeasonCreated) and created.number == PLAYOFF_NUMBER:
        playoff_absent = seasons.playoff_absent(season_id, created.game_id)
    return ShippedGame(stream, record, game.packed, game.read_models, season_id,
                       created.number, None if season_id in known else facts, absent,
                       playoff_absent, created.game_id)


_ROWS = msgspec.msgpack.Decoder(list[tuple])  # each value back as it was (int, str, bytes)


def packed_rows(rows: list[StoredEvent]) -> bytes:
    """A stream's stored rows as read (seq, type, payload, prev hash, hash, the stored hash
    cell: whatever a hand edit left there, as :meth:`EventStore.raw_rows` reads it),
    packed; an UNSET cell (an older layout's row, whose hash is a claim) as False."""
    return msgspec.msgpack.encode([
        (r.seq, r.type, r.payload, r.prev_hash, r.hash,
         False if r.stored is msgspec.UNSET else r.stored) for r in rows])


def unpacked_rows(packed: bytes) -> list[StoredEvent]:
    unset = msgspec.UNSET
    return [StoredEvent(seq, kind, None, payload, prev, digest,
                        unset if stored is False else stored)
            for seq, kind, payload, prev, digest, stored in _ROWS.decode(packed)]


def _created(rows: list[StoredEvent], format: int) -> GameCreated | None:
    """The GameCreated the stream opens with, if it does (else its audit fails before any
    season is looked up)."""
    if not rows:
        return None
    try:
        first = decoder(GameCreated, format).decode(rows[0].payload)
    except Exception:  # noqa: BLE001 - an unknown format, a payload that does not decode
        return None
    return first if isinstance(first, GameCreated) else None


class ShippedSeasons:
    """A worker's season lookup for one shipped game: the answers the database gave for
    its season. Asked of any other season (a rinklog bug), it raises, and the stream's
    audit fails in one line rather than answer otherwise than the database would."""

    def __init__(self, game: ShippedGame, known: dict[str, SeasonFacts]) -> None:
        self.game = game
        self.facts = game.facts or known.get(game.season_id)

    def _of(self, season_id: str) -> SeasonFacts:
        if season_id != self.game.season_id or self.facts is None:
            raise LookupError(f"season {season_id!r} was not shipped with {self.game.stream}")
        return self.facts

    def __call__(self, season_id: str) -> SeasonCreated | str:
        return self._of(season_id).season

    def ledger(self, season_id: str) -> SeasonLedger | None:
        return self._of(season_id).ledger

    def absent(self, season_id: str, number: int) -> list[Absent]:
        self._of(season_id)
        if self.game.absent is None or number != self.game.number:
            raise LookupError(f"who is out of game {number} was not shipped with "
                              f"{self.game.stream}")
        return list(self.game.absent)

    def playoff_absent(self, season_id: str, game_id: str) -> list[Absent]:
        self._of(season_id)
        if self.game.playoff_absent is None or game_id != self.game.game_id:
            raise LookupError(f"who is out of playoff game {game_id} was not shipped with "
                              f"{self.game.stream}")
        return list(self.game.playoff_absent)
