"""A forger's tools for the trust tests: write events as a consistent stream (the chain
re-hashed, the index re-derived) and audit it, without a database."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from events.store import GENESIS, StoredEvent, StreamRecord, chain_hash, encode_meta
from projections.index import stream_index
from replay.tooling.audit import AuditReport, BlobSource, audit_stream, stream_system

_ENCODER = msgspec.msgpack.Encoder()


def chained(events: Sequence[Any]) -> list[StoredEvent]:
    """Rows for ``events``, hashed from the genesis as the store hashes them."""
    rows, prev = [], GENESIS
    for seq, event in enumerate(events, start=1):
        payload = _ENCODER.encode(event)
        digest = chain_hash(prev, payload)
        tag = getattr(type(event).__struct_config__, "tag", None) or type(event).__name__
        rows.append(StoredEvent(seq, str(tag), event, payload, prev, digest))
        prev = digest
    return rows


def audit_forged(blobs: BlobSource, stream: str, events: Sequence[Any],
                 meta: dict[str, Any] | None = None, kind: str | None = None,
                 system: str | None = None) -> AuditReport:
    """Audit ``events`` stored as stream ``stream`` with everything made consistent."""
    rows = chained(events)
    index = stream_index(events)
    record = StreamRecord(stream, kind or index.kind or "game", len(rows),
                          rows[-1].hash if rows else GENESIS,
                          encode_meta(index.meta if meta is None else meta),
                          system if system is not None else
                          (stream_system(rows[0]) if rows else None) or "bones")
    return audit_stream(stream, record, rows, blobs, lambda season: f"no season {season!r}")
