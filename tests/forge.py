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
from replay.tooling.audit import AuditReport, BlobSource, audit_stream, stream_system


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
