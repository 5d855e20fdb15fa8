"""A forger's tools for the trust tests: write events as a consistent stream (the chain
re-hashed, the index re-derived) and audit it, without a database. A forger writes in the
stream's payload format, so the forgery is as well-formed as an honest stream."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.base import tag_of
from events.formats import NEW_STREAM_FORMAT, encoder
from events.store import GENESIS, StoredEvent, StreamRecord, chain_hash, encode_meta
from projections.index import stream_index
from replay.leagues.audit import AuditReport, BlobSource, audit_stream, stream_system


def chained(events: Sequence[Any], format: int = NEW_STREAM_FORMAT) -> list[StoredEvent]:
    """Rows for ``events`` in payload ``format``, hashed from the genesis as the store
    hashes them."""
    encode = encoder(format)
    rows, prev = [], GENESIS
    for seq, event in enumerate(events, start=1):
        payload = encode(event)
        digest = chain_hash(prev, payload)
        rows.append(StoredEvent(seq, tag_of(type(event)), event, payload, prev, digest))
        prev = digest
    return rows


def audit_forged(blobs: BlobSource, stream: str, events: Sequence[Any],
                 meta: dict[str, Any] | None = None, kind: str | None = None,
                 system: str | None = None, format: int = NEW_STREAM_FORMAT) -> AuditReport:
    """Audit ``events`` stored as stream ``stream`` (in payload ``format``) with everything
    made consistent."""
    rows = chained(events, format)
    index = stream_index(events)
    record = StreamRecord(stream, kind or index.kind or "game", len(rows),
                          rows[-1].hash if rows else GENESIS,
                          encode_meta(index.meta if meta is None else meta),
                          system if system is not None else
                          (stream_system(rows[0], format) if rows else None) or "bones",
                          format)
    return audit_stream(stream, record, rows, blobs, lambda season: f"no season {season!r}")


def replace_stream(path: Any, stream: str, events: Sequence[Any], *, kind: str = "game",
                   system: str = "bones") -> str:
    """Put ``events`` in the database at ``path`` as stream ``stream``, in place of what
    it held (if anything): the rows deleted behind rinklog's back, then written as the
    store writes a stream (the chain hashed from the genesis, the index derived from the
    events), so the forgery is as consistent as an honest stream. Returns its head."""
    from replay.games.game_streams import open_store

    delete_stream(path, stream)
    with open_store(path) as store:
        store.append(stream, list(events), 0, kind=kind, system=system,
                     meta=stream_index(events).meta)
        return store.head_hash(stream)


def delete_stream(path: Any, stream: str) -> None:
    """Remove a stream and its rows, as a forger with sqlite3 would."""
    import sqlite3

    raw = sqlite3.connect(path)
    raw.execute("DELETE FROM events WHERE stream_key=(SELECT key FROM streams WHERE stream=?)",
                (stream,))
    raw.execute("DELETE FROM streams WHERE stream=?", (stream,))
    raw.commit()
    raw.close()


def rebuild_read_models(path: Any) -> None:
    """Every read model and the standings rebuilt from the streams as they now are (a
    forger covering his tracks)."""
    from projections import store as read_models
    from replay.games.game_streams import open_store

    with open_store(path) as store:
        read_models.rebuild(store)
        read_models.save_standings(store)
