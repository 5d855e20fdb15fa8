"""A whole season as one portable, self-verifying file: ``rinklog export S`` (a season id)
and ``rinklog import`` of it (issue 32: season games travel with their season).

The file is msgpack (msgspec) of :class:`SeasonExport`: the season's receipt (the Merkle
tree of its games, its stream's head and its standings, signed with a league key if one
was given: docs/trust.md), the season stream and every game of the season, each with its
rows as stored and its payload format, and the blobs they name. Import writes it all into
a database in memory first, audits every stream there as ``rinklog audit --all`` does
and makes the season's receipt again, which must be the one in the file; only then is it
written, the season through its one writer (replay/leagues/season_stream.py), in one
transaction, and audited again where it lies. A game file (``rinklog export GAME``) goes
to replay/leagues/transfer.py: this module hands both kinds to the CLI.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import msgspec
import nacl.signing

from events.catalogue import LEAGUE, open_store
from events.errors import RinklogError, StreamConflict
from events.people import ReceiptPublished, ResultDisputed, ResultSubmitted
from events.store import EventStore
from projections import store as read_models
from replay.leagues.audit import audit_all, audit_games
from replay.leagues.receipts import ReceiptError, load_receipt, verify_signature
from replay.leagues.season_league import season_blobs
from replay.leagues.season_receipts import SeasonReceipt, season_receipt
from replay.leagues.season_stream import SeasonStream
from replay.leagues.transfer import (
    ExportBlob,
    ExportRow,
    ImportRefused,
    Verified,
    export_game,
    export_rows,
    import_verified,
    verify_export,
)

__all__ = ["ImportedSeason", "SeasonExport", "VerifiedSeason", "export_file", "import_file",
           "verify_file"]

FORMAT: Literal["rinklog-season-export"] = "rinklog-season-export"
VERSION = 1
_ENCODER = msgspec.msgpack.Encoder()


class ExportStream(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One stream of a season export: as the ``streams`` table lists it, and its rows."""

    stream: str
    kind: str
    system: str
    format: int
    meta: dict[str, Any]
    rows: list[ExportRow]


class SeasonExport(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    format: Literal["rinklog-season-export"]
    version: int
    receipt: SeasonReceipt
    season: ExportStream
    games: list[ExportStream]
    blobs: list[ExportBlob]


class _Header(msgspec.Struct):
    format: str


@dataclass(frozen=True)
class VerifiedSeason:
    """A season export that checked out, in the database in memory it was audited in."""

    file: SeasonExport
    checked: EventStore
    signed_by: str | None
    origin: str


@dataclass(frozen=True)
class ImportedSeason:
    season: str
    games: int
    events: int
    head: str
    signed_by: str | None


# --- export -------------------------------------------------------------------------------

def export_file(store: EventStore, stream: str, path: Path, *, force: bool = False,
                key: nacl.signing.SigningKey | None = None) -> int:
    """``rinklog export ID -o PATH``: a season's file for a season id, a game's for a game
    (replay/leagues/transfer.py); the bytes written. Neither an existing file (unless
    ``force``) nor the database itself is ever written over."""
    store.refuse_as_output(path)
    if path.exists() and not force:
        raise RinklogError(f"{path} already exists; give --force to overwrite it")
    is_season = store.exists(stream) and store.info(stream).kind == "season"
    data = export_season(store, stream, key) if is_season else export_game(store, stream, key)
    try:
        path.write_bytes(data)
    except OSError as err:
        raise RinklogError(f"{path}: cannot write: {err.strerror or err}") from None
    return len(data)


def export_season(store: EventStore, season_id: str,
                  key: nacl.signing.SigningKey | None = None) -> bytes:
    """The export of a season that passes the audit (its receipt is made, and refused,
    as ``rinklog receipt --season`` makes it): its stream, every game of it (not a branch)
    and the blobs they name."""
    receipt = season_receipt(store, season_id, key)
    games = [s.stream for s in store.streams(kind="game")
             if s.meta.get("season") == season_id and s.meta.get("parent") is None]
    streams = [_stream(store, season_id), *(_stream(store, g) for g in games)]
    digests = {*_season_blobs(store, season_id), *(d for g in games for d in _game_blobs(store, g))}
    blobs = []
    for digest in sorted(digests):
        found = store.blob_record(digest)
        if found is None:
            raise RinklogError(f"season {season_id}: blob {digest[:16]}… is missing "
                               "(run rinklog audit)")
        blobs.append(ExportBlob(digest, found[1], found[0]))
    return _ENCODER.encode(SeasonExport(FORMAT, VERSION, receipt, streams[0], streams[1:],
                                        blobs))


def _stream(store: EventStore, stream: str) -> ExportStream:
    info = store.info(stream)
    return ExportStream(stream, info.kind, info.system, info.format, info.meta,
                        export_rows(store, stream))


def _season_blobs(store: EventStore, season_id: str) -> list[str]:
    """The blobs the season stream names: its opening's, and the files its people sent
    (issue 36), which ``audit --all`` holds to their events wherever the season goes."""
    events = [row.event for row in store.read(season_id)]
    sent = [e.export for e in events
            if isinstance(e, ResultSubmitted | ResultDisputed) and isinstance(e.export, str)]
    published = [e.receipt for e in events if isinstance(e, ReceiptPublished)]
    return [*season_blobs(events[0]), *sent, *published]


def _game_blobs(store: EventStore, game_id: str) -> list[str]:
    created = store.read(game_id, 1, 1)[0].event
    return [created.home.card_hash, created.away.card_hash, created.charts_hash]


# --- import -------------------------------------------------------------------------------

def verify_file(data: bytes, origin: str = "file", *,
                public_key: nacl.signing.VerifyKey | None = None,
                receipt: Path | None = None) -> Verified | VerifiedSeason:
    """Check an export file completely, before any database is opened: a game's
    (:func:`replay.leagues.transfer.verify_export`, held to ``receipt`` if given) or a
    season's (:func:`verify_season`)."""
    try:
        kind = msgspec.msgpack.decode(data, type=_Header).format
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, RecursionError):
        kind = ""  # the game reader says what is wrong with it
    if kind == FORMAT:
        if receipt is not None:
            raise ImportRefused(f"{origin}: a season's export carries its own receipt; "
                                "--receipt holds a game's file to a receipt of games")
        return verify_season(data, origin, public_key)
    return verify_export(data, origin, public_key=public_key,
                         receipt=load_receipt(receipt) if receipt else None,
                         receipt_origin=str(receipt))


def import_file(store: EventStore, verified: Verified | VerifiedSeason
                ) -> Verified | ImportedSeason:
    """Write a verified export: a game (into a database holding its season, if it has
    one: :func:`replay.leagues.transfer.import_verified`) or a whole season."""
    if isinstance(verified, VerifiedSeason):
        return import_season(store, verified)
    return import_verified(store, verified)


def verify_season(data: bytes, origin: str = "file",
                  public_key: nacl.signing.VerifyKey | None = None) -> VerifiedSeason:
    """A season export written into a database in memory and audited there whole; its
    receipt made again must be the file's (and signed by ``public_key``, if given)."""
    def refuse(why: str) -> ImportRefused:
        return ImportRefused(f"{origin}: {why}; nothing written")

    try:
        file = msgspec.msgpack.decode(data, type=SeasonExport)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, RecursionError) as err:
        raise refuse(f"not a rinklog season export ({str(err)[:200]})") from None
    if file.version != VERSION:
        raise refuse(f"season export version {file.version} is not supported (this rinklog "
                     f"reads {VERSION})")
    if file.season.kind != "season" or file.season.system != LEAGUE or \
            file.season.stream != file.receipt.season:
        raise refuse(f"its season stream is not the season {file.receipt.season} its "
                     "receipt names")
    checked = open_store(":memory:")
    try:
        return VerifiedSeason(file, checked, _checked(checked, file, origin, public_key),
                              origin)
    except BaseException:
        checked.close()
        raise


def _checked(checked: EventStore, file: SeasonExport, origin: str,
             public_key: nacl.signing.VerifyKey | None) -> str | None:
    """Write the file into ``checked``, with its read models and standings, and hold it to
    the audit and to its receipt; the signer's key (hex), if it is signed."""
    def refuse(why: str) -> ImportRefused:
        return ImportRefused(f"{origin}: {why}; nothing written")

    try:
        _write(checked, file)
        read_models.update(checked, [g.stream for g in file.games])
        if file.receipt.standings_digest:  # the receipt holds stored standings to theirs
            read_models.save_standings(checked)
    except (RinklogError, ValueError, TypeError) as err:
        raise refuse(f"its streams cannot be written as they are ({err})") from None
    failed = next((r for r in audit_all(checked) if r.failure is not None), None)
    if failed is not None and failed.failure is not None:
        f = failed.failure
        raise refuse(f"{failed.game_id} fails its {f.check} check at event {f.seq} "
                     f"({f.rule}): expected {f.expected}, found {f.recorded}")
    try:
        made = season_receipt(checked, file.receipt.season)
        signer = verify_signature(file.receipt, origin, public_key)
    except (ReceiptError, RinklogError) as err:
        raise ImportRefused(f"{err}; nothing written") from None
    if msgspec.structs.replace(file.receipt, signature=None) != made:
        raise refuse("its receipt is not the one its season and games give")
    return signer


def import_season(store: EventStore, verified: VerifiedSeason) -> ImportedSeason:
    """Write a verified season into ``store``, which must hold neither it nor any of its
    games: one transaction, the season through its writer; audited where it lies, its read
    models and standings stored."""
    file, season_id = verified.file, verified.file.season.stream
    try:
        if store.exists(season_id):
            raise StreamConflict(f"{store.path} holds season {season_id} already; nothing "
                                 "written (a game of it imports on its own)")
        there = [g.stream for g in file.games if store.exists(g.stream)]
        if there:
            raise StreamConflict(f"{store.path} holds {there[0]} already; nothing written")
        with store.transaction():
            _write(store, file)
            streams = [season_id, *(g.stream for g in file.games)]
            for stream, report in zip(streams, audit_games(store, streams, read_models=False),
                                      strict=True):
                if report.failure is not None:
                    f = report.failure
                    raise ImportRefused(f"{verified.origin}: in {store.path} {stream} fails "
                                        f"its {f.check} check at event {f.seq}; nothing "
                                        "written")
    finally:
        verified.checked.close()
    read_models.update(store, [g.stream for g in file.games])
    read_models.save_standings(store)
    return ImportedSeason(season_id, len(file.games), sum(len(g.rows) for g in file.games),
                          store.head_hash(season_id), verified.signed_by)


def _write(store: EventStore, file: SeasonExport) -> None:
    """The file's blobs, season and games into ``store``, as stored where they came from."""
    for blob in file.blobs:
        store.put_blob(blob.content, blob.media_type)
    season = file.season
    SeasonStream.at(store, season.stream).create_encoded(
        [(r.type, r.payload) for r in season.rows], meta=season.meta, format=season.format)
    for game in file.games:
        store.append_encoded(game.stream, [(r.type, r.payload) for r in game.rows], 0,
                             kind=game.kind, system=game.system, meta=game.meta,
                             format=game.format)
