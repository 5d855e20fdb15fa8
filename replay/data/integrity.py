"""Whether what a read command is about to show still checks out (issue 33): a stream's
hash chain held to its stored head, and a stored read model held to the events it was
folded from, so a byte edited in the database is never shown without a word.

:func:`chain_breaks` hashes a stream's payloads forward (events/checkpoints.py) and names
the range of seqs a changed payload lies in: between two checkpoints (``hash_every``
rows apart), or after the last one up to the head. :func:`read_model_breaks` folds the
projections a command shows from a game's events and names each stored table whose rows
differ. A read command never writes: nothing here is stored; a :class:`ReadWatch` keeps
its verdicts in memory for one command, so a stream is checked once however often the
command reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import msgspec

from events.checkpoints import chain_break
from events.store import EventStore
from projections import store as read_models

__all__ = ["STANDINGS", "STORED", "Broken", "ReadWatch", "breaks", "chain_breaks", "database_breaks",
           "read_model_breaks", "warning", "watch"]

STANDINGS = "standings"
"""Among a check's projections: a season stream's stored standings (``rm_standings``)."""
STORED = (*read_models.PROJECTIONS, STANDINGS)
"""Every read model a database stores of a stream."""


class Broken(msgspec.Struct, frozen=True):
    """One stream whose stored data does not check out: its events (``what`` "events",
    seqs ``first``-``last``) or one of its stored read-model tables (``what`` the table;
    no seq range: 0, 0)."""

    stream: str
    first: int
    last: int
    what: str
    kind: str = "game"  # the stream's kind (game, season, matrix_season)

    def describe(self) -> str:
        owner = f"{self.kind.replace('_', ' ')} {self.stream}'s"
        if self.what != "events":
            return (f"{owner} stored read model {self.what} does not match its events "
                    "(changed after it was stored?)")
        if self.first == self.last:
            return (f"{owner} event {self.first} does not match its hash chain (changed, "
                    "removed or moved after it was stored?)")
        return (f"{owner} events {self.first}-{self.last} do not match their hash chain "
                "(changed after they were stored?)")


def warning(found: Sequence[Broken]) -> str:
    """One line for every break found: what a read command prints before its output and a
    page shows as its banner."""
    return "; ".join(b.describe() for b in found) + ": run rinklog audit"


def _seq_range(seq: int, version: int, every: int) -> tuple[int, int]:
    """The seqs a break reported at ``seq`` lies in: a checkpoint's break covers the rows
    since the checkpoint before it, a break past the last row (the head) those since the
    last checkpoint; any other break (a row missing, a hash where none is kept) is its own."""
    if type(every) is not int or every < 1:
        return seq, seq
    if seq > version:
        since = (version // every) * every
        return (since + 1 if since < version else version), version
    if every > 1 and seq % every == 0:
        return seq - every + 1, seq
    return seq, seq


def chain_breaks(store: EventStore, streams: Iterable[str]) -> list[Broken]:
    """Each of ``streams`` whose hash chain does not hold against its stored head, with the
    seq range of the break (a stream the database does not hold is left to the command,
    which names it)."""
    found = []
    for stream in dict.fromkeys(streams):
        record = store.stream_record(stream)
        if record is None or store.chain_holds(stream):  # the quick pass: most streams
            continue
        broken = chain_break(store.iter_events(stream, decode=False),
                             expected_head=record.head_hash, hash_every=record.hash_every)
        if broken is not None:
            found.append(Broken(stream, *_seq_range(broken.seq, record.version,
                                                    record.hash_every), "events", record.kind))
    return found


def read_model_breaks(store: EventStore, streams: Iterable[str],
                      projections: Sequence[str]) -> list[Broken]:
    """The stored read-model tables of ``projections`` (:data:`STANDINGS`: a season's
    standings) that differ from what the events of ``streams`` give now: each game's
    projections folded again from its events (only those asked for), each season's
    standings from its games' first and last events."""
    found: list[Broken] = []
    for stream in dict.fromkeys(streams):
        record = store.stream_record(stream)
        if record is None:
            continue
        if record.kind == "season" and STANDINGS in projections:
            if read_models.stored_standings_differences(store, stream):
                found.append(Broken(stream, 0, 0, "rm_standings", record.kind))
            continue
        stored = read_models.stored_read_models(store, stream, system=record.system)
        if stored is None or not any(p in stored.marks for p in projections):
            continue
        shown = read_models.StoredReadModels(
            stored.system, {p: m for p, m in stored.marks.items() if p in projections},
            {t: rows for t, rows in stored.tables.items()
             if read_models.TABLES[t][0] in projections})
        events = [row.event for row in store.iter_events(stream)]
        tables = dict.fromkeys(line.split(":", 1)[0] for line in
                               read_models.read_model_differences(shown, stream, events))
        found += [Broken(stream, 0, 0, table, record.kind) for table in tables]
    return found


class ReadWatch:
    """A read command's checks (installed as its store's ``on_read``): every stream is
    checked the first time the command reads it, and the streams and read models it shows
    without reading their events when it says so (:func:`breaks`); each check that finds
    something new hands ``warn`` one line (:func:`warning`) before the command prints."""

    def __init__(self, store: EventStore, warn: Callable[[str], None]) -> None:
        self._store, self._warn = store, warn
        self._chains: dict[str, list[Broken]] = {}
        self._models: dict[tuple[str, str], list[Broken]] = {}

    def __call__(self, stream: str) -> None:
        self.breaks([stream])

    def breaks(self, streams: Sequence[str], projections: Sequence[str] = ()) -> list[Broken]:
        streams = list(dict.fromkeys(streams))
        new = [s for s in streams if s not in self._chains]
        self._chains.update((s, []) for s in new)  # first: the check's own reading comes here
        fresh = chain_breaks(self._store, new)
        for broken in fresh:
            self._chains[broken.stream].append(broken)
        groups: dict[tuple[str, ...], list[str]] = {}  # the projections a stream lacks
        for stream in streams:  # a broken chain's stream: its events are not the measure
            missing = tuple(p for p in projections if (stream, p) not in self._models
                            and not self._chains[stream])
            if missing:
                groups.setdefault(missing, []).append(stream)
                self._models.update(((stream, p), []) for p in missing)
        for missing, group in groups.items():  # each game folded once for all of them
            for broken in read_model_breaks(self._store, group, missing):
                owner = _owner(broken.what)
                self._models[broken.stream, owner if owner in missing else missing[0]
                             ].append(broken)
                fresh.append(broken)
        if fresh:
            self._warn(warning(fresh))
        return [b for s in streams for b in self._chains[s]] + [
            b for s in streams for p in projections for b in self._models.get((s, p), [])]


def _owner(table: str) -> str:
    """The projection whose stored rows a table holds (a checkpoint's: none, "")."""
    if table == "rm_standings":
        return STANDINGS
    return read_models.TABLES[table][0] if table in read_models.TABLES else ""


def watch(store: EventStore, warn: Callable[[str], None]) -> EventStore:
    """``store`` with a :class:`ReadWatch` on every stream it reads (a read command's)."""
    store.on_read = ReadWatch(store, warn)
    return store


def breaks(store: EventStore, streams: Sequence[str],
           projections: Sequence[str] = ()) -> list[Broken]:
    """The breaks of ``streams`` and of the stored ``projections`` of those whose chain
    holds (a broken chain is the warning; the audit says the rest): asked of the store's
    :class:`ReadWatch` when it has one (checked once a command, and warned of), else
    checked now."""
    watching = store.on_read
    if isinstance(watching, ReadWatch):
        return watching.breaks(streams, projections)
    found = chain_breaks(store, streams)
    broken = {b.stream for b in found}  # their events are not the measure of their rows
    return found + read_model_breaks(store, [s for s in streams if s not in broken], projections)


def database_breaks(store: EventStore, *, read_models: bool = True) -> list[Broken]:
    """Every stream of the database and every read model it stores (what ``serve`` shows).
    Without ``read_models``: every stream's chain and each season's standings only (a
    whole season's games folded again costs a pure-Python build about half a minute on a
    32-team season; ``rinklog audit`` holds every stored row)."""
    if read_models:
        return breaks(store, store.stream_ids(), STORED)
    seasons = [info.stream for info in store.streams(kind="season")]
    return breaks(store, store.stream_ids()) + breaks(store, seasons, (STANDINGS,))
