"""Export a game to one portable, self-verifying file; import it; diff two streams.

The file is msgpack (msgspec) of :class:`ExportFile`: format name and version, the game id,
ruleset, head hash, stream meta, every row as stored (payload bytes, prev hash, hash) and
the full content of the cards and charts blobs the game names. Import checks everything
(hash chain to the head, blob hashes, decoding, canonical bytes, the full rule re-check)
before it writes a byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import msgspec

from events.bones import decoder
from events.common import GameCreated
from events.errors import RinklogError, StreamConflict
from events.store import EventStore, blob_hash
from replay.audit import AuditReport, audit_events
from replay.games import CARD_MEDIA, CHART_MEDIA, read_game

FORMAT = "rinklog-export"
FORMAT_VERSION = 1
_ENCODER = msgspec.msgpack.Encoder()


class ExportRow(msgspec.Struct, frozen=True, array_like=True):
    seq: int
    type: str
    payload: bytes
    prev_hash: str
    hash: str


class ExportBlob(msgspec.Struct, frozen=True):
    hash: str
    media_type: str
    content: bytes


class ExportFile(msgspec.Struct, frozen=True):
    format: Literal["rinklog-export"]
    version: int
    game_id: str
    kind: str
    ruleset: str
    ruleset_version: int
    head_hash: str
    meta: dict[str, Any]
    rows: list[ExportRow]
    blobs: list[ExportBlob]


class ImportRefused(RinklogError):
    """An export file that does not verify; nothing was written."""


def export_game(store: EventStore, game_id: str) -> bytes:
    events = read_game(store, game_id)
    created = events[0]
    if not isinstance(created, GameCreated):
        raise RinklogError(f"{game_id} does not start with GameCreated")
    info = store.info(game_id)
    rows = [ExportRow(r.seq, r.type, r.payload, r.prev_hash, r.hash)
            for r in store.iter_events(game_id, decode=False)]
    blobs = [ExportBlob(created.home.card_hash, CARD_MEDIA, store.get_blob(created.home.card_hash))]
    if created.away.card_hash != created.home.card_hash:
        blobs.append(ExportBlob(created.away.card_hash, CARD_MEDIA,
                                store.get_blob(created.away.card_hash)))
    blobs.append(ExportBlob(created.charts_hash, CHART_MEDIA, store.get_blob(created.charts_hash)))
    return _ENCODER.encode(ExportFile(
        format=FORMAT, version=FORMAT_VERSION, game_id=game_id, kind=info.kind,
        ruleset=created.ruleset, ruleset_version=created.ruleset_version,
        head_hash=info.head_hash, meta=info.meta, rows=rows, blobs=blobs))


@dataclass(frozen=True)
class Verified:
    file: ExportFile
    report: AuditReport


def verify_export(data: bytes, origin: str = "file") -> Verified:
    """Check an export completely; raise ImportRefused naming the first problem."""
    try:
        file = msgspec.msgpack.decode(data, type=ExportFile)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as err:
        # ValueError covers a mangled UTF-8 string inside an otherwise valid file.
        raise ImportRefused(f"{origin}: not a rinklog export file ({err}); nothing written"
                            ) from None
    if file.version != FORMAT_VERSION:
        raise ImportRefused(f"{origin}: export format version {file.version} is not supported "
                            f"(this rinklog reads {FORMAT_VERSION}); nothing written")
    blobs: dict[str, bytes] = {}
    for blob in file.blobs:
        if blob_hash(blob.content) != blob.hash:
            raise ImportRefused(f"{origin}: blob {blob.hash[:16]}… does not match its hash; "
                                "nothing written")
        blobs[blob.hash] = blob.content

    def get_blob(digest: str) -> bytes:
        if digest not in blobs:
            raise RinklogError(f"the file holds no blob {digest}")
        return blobs[digest]

    report = audit_events(file.rows, file.head_hash, file.meta, get_blob, file.game_id)
    if report.failure is not None:
        f = report.failure
        raise ImportRefused(f"{origin}: {f.check} check fails at event {f.seq} ({f.rule}): "
                            f"expected {f.expected}, found {f.recorded}; nothing written")
    created = decoder.decode(file.rows[0].payload)
    # (a branch's GameCreated keeps its parent's game id: only the ruleset must agree)
    if not isinstance(created, GameCreated) or created.ruleset != file.ruleset \
            or created.ruleset_version != file.ruleset_version:
        raise ImportRefused(f"{origin}: the ruleset does not match the game's first event; "
                            "nothing written")
    for row in file.rows:  # the store re-encodes events: the bytes must already be canonical
        if _ENCODER.encode(decoder.decode(row.payload)) != row.payload:
            raise ImportRefused(f"{origin}: event {row.seq} is not in canonical form; "
                                "nothing written")
    return Verified(file, report)


def import_game(store: EventStore, data: bytes, origin: str = "file") -> AuditReport:
    """Verify an export and write it as a new stream with its blobs."""
    verified = verify_export(data, origin)
    file = verified.file
    if store.exists(file.game_id):
        raise StreamConflict(f"game {file.game_id} is already in {store.path}; nothing written")
    events = [decoder.decode(row.payload) for row in file.rows]
    for blob in file.blobs:
        store.put_blob(blob.content, blob.media_type)
    store.append(file.game_id, events, expected_version=0, kind=file.kind, meta=file.meta)
    if store.head_hash(file.game_id) != file.head_hash:  # cannot happen after the checks
        raise RinklogError(f"imported {file.game_id} but its head hash differs")
    return verified.report


# --- diff --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Difference:
    seq: int | None  # None: identical
    a: Any  # the decoded event of A at seq, or None when A has ended
    b: Any
    a_type: str = ""
    b_type: str = ""


def diff_games(store: EventStore, game_a: str, game_b: str) -> Difference:
    """The first seq at which two streams part (hashes differ), with both events."""
    read_game(store, game_a)
    read_game(store, game_b)
    rows_a = store.read(game_a, decode=False)
    rows_b = store.read(game_b, decode=False)
    for ra, rb in zip(rows_a, rows_b, strict=False):
        if ra.hash != rb.hash:
            return Difference(ra.seq, _decode(ra.payload), _decode(rb.payload), ra.type, rb.type)
    if len(rows_a) == len(rows_b):
        return Difference(None, None, None)
    seq = min(len(rows_a), len(rows_b)) + 1
    ra = rows_a[seq - 1] if len(rows_a) >= seq else None
    rb = rows_b[seq - 1] if len(rows_b) >= seq else None
    return Difference(seq, ra and _decode(ra.payload), rb and _decode(rb.payload),
                      ra.type if ra else "", rb.type if rb else "")


def _decode(payload: bytes) -> Any:
    try:
        return decoder.decode(payload)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return msgspec.msgpack.decode(payload)


def write_export(store: EventStore, game_id: str, path: Path) -> int:
    data = export_game(store, game_id)
    path.write_bytes(data)
    return len(data)
