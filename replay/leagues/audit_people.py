"""The audit's check of the files a league's people sent (issue 36, docs/web.md): every
version of a game a coach submitted or disputed with is in the database, as the blob its
event names, and is the export of that game ending at the head hash the event records.

The season's rules (season_people.py) already hold who did what and in which order; this
is the part they cannot see, the files, checked by ``rinklog audit --all`` (a season's
game export carries its season stream but not these files).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from events.people import EXPORT_MEDIA, ResultDisputed, ResultSubmitted
from events.store import EventStore, blob_hash
from replay.leagues.audit_report import AuditFinding, AuditReport

__all__ = ["audit_people_files"]

RULE = "docs/web.md"


class _Entry(msgspec.Struct):  # what an export file's receipt says of its game (transfer.py)
    game: str
    head_hash: str


class _Receipt(msgspec.Struct):
    games: list[_Entry]


class _ExportFile(msgspec.Struct):
    format: Literal["rinklog-export"]
    receipt: _Receipt


def audit_people_files(store: EventStore) -> list[AuditReport]:
    """A failing report for each season whose people's files do not check out."""
    reports = []
    for info in store.streams(kind="season"):
        for row in store.read(info.stream):
            event = row.event
            if not isinstance(event, ResultSubmitted | ResultDisputed) \
                    or not isinstance(event.export, str):
                continue
            wrong = _file_wrong(store, event.export, event.game, str(event.head))
            if wrong is not None:
                reports.append(AuditReport(info.stream, row.seq, "", 0, AuditFinding(
                    "blobs", row.seq, f"{type(event).__name__}.export: {wrong[0]}",
                    wrong[1], RULE), kind="season"))
                break
    return reports


def _file_wrong(store: EventStore, digest: str, game: str, head: str) -> tuple[str, str] | None:
    found = store.blob_record(digest)
    if found is None:
        return f"the export file {digest[:16]}…", "no such blob"
    content, media = found
    if media != EXPORT_MEDIA or blob_hash(content) != digest:
        return f"an export file ({EXPORT_MEDIA}) matching its hash", media
    try:
        games = msgspec.msgpack.decode(content, type=_ExportFile).receipt.games
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, RecursionError):
        games = []
    if len(games) != 1:
        return "a game's export file", "no such file"
    entry = games[0]
    if (entry.game, entry.head_hash) != (game, head):
        return f"the export of {game} ending at {head[:16]}…", (
            f"{entry.game} ending at {entry.head_hash[:16]}…")
    return None
