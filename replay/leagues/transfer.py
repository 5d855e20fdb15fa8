"""Export a game to one portable, self-verifying file; import it; diff two streams.

The file is msgpack (msgspec) of :class:`ExportFile`, format version 3: the game's receipt
(id, kind, ruleset, events, head hash and the index folded from its events; signed with a
league key if one was given), every row as stored (payload bytes, prev hash, hash) with the
stream's payload format (events/formats.py), the full content of the blobs the game names
and, for a season's game, the season stream with its blobs and format. A version-2 file
(before payload formats) is read as format 1, msgpack, every stream's format then. Import
audits the file exactly as ``rinklog audit`` audits a database (chain, decoding, identity,
blobs, season, dice, rules, index), checks that the receipt inside is the one the audit
derives and, when asked, that it is signed by the league's key and matches a receipt the
commissioner kept, all before it writes a byte; each stream is written in the format it
was exported with, so with the same bytes and head hash.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import msgspec
import nacl.signing

from engine.systems import SEASON_SYSTEMS, system_of
from events.catalogue import ALL_EVENTS, LEAGUE
from events.common import GameCreated
from events.errors import RinklogError, StreamConflict
from events.formats import MSGPACK, check_format, decoder, encoder, same_event
from events.league import SeasonCreated, SeasonGameRecorded, SeasonTableGameStarted
from events.plurals import counted
from events.store import EventStore, StreamRecord, blob_hash, encode_meta
from projections.index import stream_index
from projections.systems import read_models
from replay.games.game_streams import read_game, read_stream, season_kinds
from replay.leagues.audit import (
    AuditReport,
    audit_game,
    audit_stream,
    audit_stream_events,
    stream_system,
)
from replay.leagues.ledger import SeasonLedger, ledger_of, read_ledger, save_read_models
from replay.leagues.receipts import (
    Receipt,
    ReceiptEntry,
    ReceiptError,
    check_entry,
    entry_for,
    held_to,
    make_receipt,
    verify_signature,
)
from replay.leagues.season_league import season_blobs
from replay.leagues.season_stream import SeasonStream

FORMAT = "rinklog-export"
FORMAT_VERSION = 3
_READS = (2, FORMAT_VERSION)  # version 2: every payload msgpack (format 1)
_ENCODER = msgspec.msgpack.Encoder()
# the season rows of a game an import brings along (not another copy's people's acts)
_RECORDS = frozenset(cls.__name__ for cls in (SeasonTableGameStarted, SeasonGameRecorded))


class ExportRow(msgspec.Struct, frozen=True, array_like=True):
    seq: int
    type: str
    payload: bytes
    prev_hash: str
    hash: str


class ExportBlob(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    hash: str
    media_type: str
    content: bytes


class ExportFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    format: Literal["rinklog-export"]
    version: int
    receipt: Receipt  # one entry: this game
    rows: list[ExportRow]
    blobs: list[ExportBlob]
    season_rows: list[ExportRow] = []  # a season's game: the season stream
    # version 3: the payload format of the game's rows, and of the season's (None without
    # a season); version 2 has neither: its payloads are msgpack (format 1)
    payload_format: int | None = None
    season_payload_format: int | None = None


class _Header(msgspec.Struct):
    format: Literal["rinklog-export"]
    version: int


class ImportRefused(RinklogError):
    """An export file that does not verify; nothing was written."""


def export_game(store: EventStore, game_id: str,
                key: nacl.signing.SigningKey | None = None) -> bytes:
    """The export file of a game that passes the audit (a failing one is refused)."""
    read_stream(store, game_id)  # UnknownGame with the ids the database holds
    report = audit_game(store, game_id, read_models=False)
    if report.failure is not None:  # a chain that breaks never says what the stream is
        f = report.failure
        raise RinklogError(f"{game_id} fails the audit ({f.check} check at event {f.seq}: "
                           f"expected {f.expected}; recorded {f.recorded}); not exported")
    if report.kind != "game" and report.kind not in season_kinds():
        raise RinklogError(f"{game_id} is a {report.kind or 'stream'}, not a game")
    receipt = make_receipt([entry_for(report)], key)
    rows = export_rows(store, game_id)
    format = store.info(game_id).format
    created = decoder(ALL_EVENTS, format).decode(rows[0].payload)
    if not isinstance(created, GameCreated):  # a refereed season: no blobs, no season
        return _ENCODER.encode(ExportFile(FORMAT, FORMAT_VERSION, receipt, rows, [],
                                          payload_format=format))
    hashes = [created.home.card_hash, created.away.card_hash, created.charts_hash]
    season_rows: list[ExportRow] = []
    season_format = None
    if created.season:
        # the season as of the game's record (or its start at the table): the season's
        # evidence for this game, a prefix of its stream (issue 20)
        ledger = ledger_of(store, created.season)
        record = ledger.record_of(game_id)
        upto = record.seq if record is not None else ledger.started.get(game_id, (0, 0))[1]
        season_rows = export_rows(store, created.season)[:upto or None]
        season_format = store.info(created.season).format
        season = decoder(ALL_EVENTS, season_format).decode(season_rows[0].payload)
        assert isinstance(season, SeasonCreated)
        hashes += season_blobs(season)
    blobs = []
    for digest in dict.fromkeys(hashes):
        found = store.blob_record(digest)
        assert found is not None  # the audit found it
        blobs.append(ExportBlob(digest, found[1], found[0]))
    return _ENCODER.encode(ExportFile(FORMAT, FORMAT_VERSION, receipt, rows, blobs, season_rows,
                                      payload_format=format, season_payload_format=season_format))


def export_rows(store: EventStore, stream: str) -> list[ExportRow]:
    """A stream's rows as stored, as an export file carries them."""
    return [ExportRow(r.seq, r.type, r.payload, r.prev_hash, r.hash)
            for r in store.raw_rows(stream)]


@dataclass(frozen=True)
class Verified:
    file: ExportFile
    report: AuditReport
    signed_by: str | None  # the signer's public key (hex), if the receipt is signed
    season_meta: dict[str, Any] | None = None  # the index of the season stream it carries
    origin: str = "file"  # the file's name, for messages


class _FileBlobs:
    def __init__(self, blobs: dict[str, ExportBlob]) -> None:
        self.blobs = blobs
        self.used: set[str] = set()

    def blob_record(self, digest: str) -> tuple[bytes, str] | None:
        blob = self.blobs.get(digest)
        if blob is None:
            return None
        self.used.add(digest)
        return blob.content, blob.media_type


def export_entry(data: bytes, origin: str = "file") -> ReceiptEntry:
    """The game a game's export file says it holds (its receipt's entry: id, head hash,
    score...), unchecked: :func:`verify_export` checks it."""
    file = _decode_file(data, origin)
    if len(file.receipt.games) != 1:
        raise ImportRefused(f"{origin}: not a game's export file; nothing written")
    return file.receipt.games[0]


def _decode_file(data: bytes, origin: str) -> ExportFile:
    try:
        header = msgspec.msgpack.decode(data, type=_Header)
        if header.version not in _READS:
            raise ImportRefused(f"{origin}: export format version {header.version} is not "
                                f"supported (this rinklog reads {' and '.join(map(str, _READS))}"
                                "; re-export the game with it); nothing written")
        file = msgspec.msgpack.decode(data, type=ExportFile)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, RecursionError) as err:
        # ValueError: a mangled UTF-8 string; RecursionError: absurdly nested data
        raise ImportRefused(f"{origin}: not a rinklog export file ({str(err)[:200]}); "
                            "nothing written") from None
    if file.version == 2:  # every payload msgpack
        if (file.payload_format, file.season_payload_format) != (None, None):
            raise ImportRefused(f"{origin}: an export of version 2 names no payload format "
                                "(its payloads are msgpack); nothing written")
        return msgspec.structs.replace(file, payload_format=MSGPACK, season_payload_format=(
            MSGPACK if file.season_rows else None))
    if (file.season_payload_format is None) != (not file.season_rows):
        raise ImportRefused(f"{origin}: a season's payload format is given if and only if the "
                            "file carries a season stream; nothing written")
    for format in (file.payload_format, file.season_payload_format or MSGPACK):
        try:
            check_format(format)
        except ValueError as err:
            raise ImportRefused(f"{origin}: {err}; nothing written") from None
    return file


def verify_export(data: bytes, origin: str = "file", *,
                  public_key: nacl.signing.VerifyKey | None = None,
                  receipt: Receipt | None = None, receipt_origin: str = "receipt") -> Verified:
    """Check an export completely; raise ImportRefused naming the first problem."""
    file = _decode_file(data, origin)

    def refuse(why: str) -> ImportRefused:
        return ImportRefused(f"{origin}: {why}; nothing written")

    blobs: dict[str, ExportBlob] = {}
    for blob in file.blobs:
        if blob_hash(blob.content) != blob.hash or blob.hash in blobs:
            raise refuse(f"blob {blob.hash[:16]}… does not match its hash or is repeated")
        blobs[blob.hash] = blob
    if len(file.receipt.games) != 1:
        raise refuse(f"the receipt inside names {counted(len(file.receipt.games), 'game')}, not one")
    entry = file.receipt.games[0]
    source = _FileBlobs(blobs)
    seasons = _FileSeason(file.season_rows, file.season_payload_format, source)
    # the file lists no system: the game's is the one its first event gives
    format = file.payload_format
    record = StreamRecord(entry.game, entry.kind, len(file.rows), entry.head_hash,
                          encode_meta(entry.meta),
                          (stream_system(file.rows[0], format) if file.rows else None) or "",
                          format)
    report, events = audit_stream_events(entry.game, record, file.rows, source, seasons)
    failure = check_entry(entry, report)
    if failure is not None:
        raise refuse(f"{failure.check} check fails at event {failure.seq} ({failure.rule}): "
                     f"expected {failure.expected}, found {failure.recorded}")
    if report.kind != "game" and report.kind not in season_kinds():
        raise refuse(f"{entry.game} is a {report.kind}, not a game")
    if file.season_rows and not seasons.used:
        raise refuse("it carries a season stream the game does not belong to")
    if set(blobs) - source.used:
        raise refuse(f"it carries {len(set(blobs) - source.used)} blobs the game does not use")
    # the bytes stored must be canonical in their format (the audit decoded every event of
    # both streams)
    for rows, stream_events, rows_format in ((file.rows, events, format),
                                             (file.season_rows, seasons.events, seasons.format)):
        for row, event in zip(rows, stream_events, strict=True):
            if encoder(rows_format)(event) != row.payload:
                raise refuse(f"event {row.seq} is not in canonical form")
    try:
        signed_by = verify_signature(file.receipt, origin, public_key)
        failure = held_to(receipt, report, receipt_origin).failure if receipt else None
        if failure is not None:
            raise ReceiptError(f"{receipt_origin}: {entry.game} differs from the receipt: "
                               f"expected {failure.expected}, the file has {failure.recorded}")
    except ReceiptError as err:
        raise ImportRefused(f"{err}; nothing written") from None
    return Verified(file, report, signed_by,
                    stream_index(seasons.events).meta if seasons.used else None, origin)


class _FileSeason:
    """The season stream carried in an export file, audited like a stored one."""

    def __init__(self, rows: list[ExportRow], format: int | None, blobs: _FileBlobs) -> None:
        self.rows, self.format, self.blobs = rows, format, blobs
        self.used = False
        self.events: list[Any] = []  # the season stream's events, once it passed

    def ledger(self, season_id: str) -> SeasonLedger | None:
        """The file's season's record of its games (the game must be in it)."""
        if not self.used or not isinstance(self.events[0], SeasonCreated) \
                or self.events[0].season_id != season_id:
            return None
        return read_ledger(self.events, self.hashes)

    def __call__(self, season_id: str) -> SeasonCreated | str:
        if not self.rows:
            return f"the file carries no season stream {season_id!r}"
        try:
            season_decoder = decoder(ALL_EVENTS, self.format)
            events = [season_decoder.decode(row.payload) for row in self.rows]
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError):
            return "the season stream in the file does not decode"
        index = stream_index(events)
        record = StreamRecord(season_id, "season", len(self.rows), self.rows[-1].hash,
                              encode_meta(index.meta), LEAGUE, self.format)
        report = audit_stream(season_id, record, self.rows, self.blobs, self)
        if report.failure is not None:
            return (f"the season stream in the file fails its {report.failure.check} check "
                    f"at {report.failure.seq}")
        self.used, self.events = True, events
        self.hashes = [row.hash for row in self.rows]
        first = events[0]
        return first if isinstance(first, SeasonCreated) else f"{season_id!r} is not a season"


def import_game(store: EventStore, data: bytes, origin: str = "file", **checks: Any
                ) -> Verified:
    """Verify an export and write it as a new stream with its blobs (and its season stream,
    when the database does not hold it yet)."""
    return import_verified(store, verify_export(data, origin, **checks))


def import_verified(store: EventStore, verified: Verified) -> Verified:
    """Write an export that :func:`verify_export` passed: its blobs, its season stream when
    the database does not hold it yet, and its game."""
    file = verified.file
    entry = file.receipt.games[0]
    if store.exists(entry.game):
        raise StreamConflict(f"game {entry.game} is already in {store.path}; nothing written")
    season_id = verified.report.index.get("season")
    season = SeasonStream.at(store, season_id) if season_id else None  # decided from
    if season is not None and not season.version:
        raise ImportRefused(
            f"{verified.origin}: {entry.game} is a game of season {season_id}, which "
            f"{store.path} does not hold: import the season first (`rinklog export "
            f"{season_id} -o FILE` on its database, then `rinklog import FILE`); nothing "
            "written")
    # the season's own records of this game that the stored season lacks (issue 32):
    # checked against the stored ledger by the audit below, in the same transaction
    records = _records_of(store, season_id, file, entry.game) if season is not None else []
    with store.transaction():
        for blob in file.blobs:
            store.put_blob(blob.content, blob.media_type)
        if records:
            season.append_encoded([(r.type, r.payload) for r in records])  # type: ignore[union-attr]
        store.append_encoded(entry.game, [(r.type, r.payload) for r in file.rows], 0,
                             kind=entry.kind, system=_system(verified.report.ruleset),
                             meta=verified.report.index, format=file.payload_format)
        if season is not None:  # its season's standings, leaders and pages hold it now
            save_read_models(store, entry.game)
        # What was written is audited where it now lies, exactly as `rinklog audit` will
        # (with the database's own season stream and blobs): an import that audit would
        # refuse is rolled back whole.
        report = audit_game(store, entry.game, read_models=False)
        if report.failure is not None:
            failure = report.failure
            raise ImportRefused(
                f"{verified.origin}: in {store.path} the game fails its {failure.check} check "
                f"at event {failure.seq} ({failure.rule}): expected {failure.expected}, found "
                f"{failure.recorded}; nothing written")
        if report.head_hash != entry.head_hash:  # cannot happen after the checks
            raise RinklogError(f"imported {entry.game} but its head hash differs")
    return verified


def _records_of(store: EventStore, season_id: str, file: ExportFile,
                game: str) -> list[ExportRow]:
    """The file's season rows that record ``game`` (its start at the table, its record)
    and that the stored season lacks. The file's season and the stored one must be one
    season (the same opening, so the same schedule, cards and seed); StreamConflict for
    another season, ImportRefused when the stored one fails its own chain (its rows'
    hashes are computed from their payloads, so a changed row makes it differ from the
    file's season, which is not its fault)."""
    stored = store.raw_rows(season_id)
    opening = min(2, len(file.season_rows))
    if [r.hash for r in stored[:opening]] != [r.hash for r in file.season_rows[:opening]] \
            or store.info(season_id).format != file.season_payload_format:
        broken = store.verify(season_id)
        if broken is not None:
            raise ImportRefused(f"{store.path}: its season {season_id} fails its chain check "
                                f"at event {broken} (run rinklog audit); nothing written")
        raise StreamConflict(f"{store.path} holds another season {season_id}; nothing written")
    read = decoder(ALL_EVENTS, file.season_payload_format or MSGPACK).decode
    held = {(r.type, bytes(r.payload)) for r in stored}
    return [r for r in file.season_rows if r.type in _RECORDS
            and getattr(read(r.payload), "game", None) == game and (r.type, r.payload) not in held]


def _system(ruleset: str) -> str:
    """The system of a stream whose audit report names ``ruleset`` (a refereed season's
    report names its system)."""
    return ruleset if ruleset in SEASON_SYSTEMS else system_of(ruleset).name


# --- diff --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Difference:
    seq: int | None  # A's seq of the first event that differs; None: the games are identical
    a: Any  # the decoded event of A at seq, or None when A has ended
    b: Any
    a_type: str = ""
    b_type: str = ""
    b_seq: int | None = None  # B's seq of its event (they differ by the lineage events)


def diff_games(store: EventStore, game_a: str, game_b: str) -> Difference:
    """The first event at which two games part, with both events.

    A branch's lineage events (BranchStarted) are passed over on both sides, so a branch
    that repeats its parent is identical to it, and one with new dice parts at the first
    roll that differs. Events are compared by their bytes, or as events when the two
    streams are of different payload formats (an old game and one played since).
    """
    read_game(store, game_a)
    read_game(store, game_b)
    rows_a = [r for r in store.raw_rows(game_a) if r.type != "BranchStarted"]
    rows_b = [r for r in store.raw_rows(game_b) if r.type != "BranchStarted"]
    format_a, format_b = store.info(game_a).format, store.info(game_b).format
    for ra, rb in zip(rows_a, rows_b, strict=False):
        if ra.payload == rb.payload and format_a == format_b:
            continue
        a, b = _decode(ra.payload, format_a), _decode(rb.payload, format_b)
        if format_a == format_b or not same_event(a, b):
            return Difference(ra.seq, a, b, ra.type, rb.type, rb.seq)
    if len(rows_a) == len(rows_b):
        return Difference(None, None, None)
    k = min(len(rows_a), len(rows_b))
    ra = rows_a[k] if len(rows_a) > k else None
    rb = rows_b[k] if len(rows_b) > k else None
    return Difference(ra.seq if ra else (rows_a[-1].seq + 1 if rows_a else 1),
                      ra and _decode(ra.payload, format_a), rb and _decode(rb.payload, format_b),
                      ra.type if ra else "", rb.type if rb else "",
                      rb.seq if rb else (rows_b[-1].seq + 1 if rows_b else 1))


@dataclass(frozen=True)
class Outcome:
    """How two games' results differ, from their scoresheets: each final (``HFX 3 - 2
    QUE (REG)``) and the goals one has that the other has not (a goal is its period,
    time, team and scorer; the lines are the scoresheet's, docs/json.md)."""

    final_a: str
    final_b: str
    score_a: dict[str, int]  # {"home": goals, "away": goals}
    score_b: dict[str, int]
    decided_a: str | None
    decided_b: str | None
    goals_lost: list[dict[str, Any]]  # A's goals that B does not have
    goals_added: list[dict[str, Any]]  # B's goals that A does not have

    @property
    def text(self) -> str:
        lost = "; ".join(goal_words(g) for g in self.goals_lost) or "none"
        added = "; ".join(goal_words(g) for g in self.goals_added) or "none"
        return f"A: {self.final_a}; B: {self.final_b}; goals lost: {lost}; goals added: {added}"

    def to_json(self) -> dict[str, Any]:
        return {"a": {"final": self.final_a, "score": self.score_a, "decided": self.decided_a},
                "b": {"final": self.final_b, "score": self.score_b, "decided": self.decided_b},
                "goals_lost": self.goals_lost, "goals_added": self.goals_added}


def goal_words(goal: dict[str, Any]) -> str:
    time = goal["time"]  # MM:SS; DICE Hockey: the timing space (docs/json.md)
    when = f"space {time}" if isinstance(time, int) else time
    return f"{goal['team']} {goal['scorer_name']} (P{goal['period']} {when}, {goal['strength']})"


def outcome_diff(store: EventStore, game_a: str, game_b: str) -> Outcome:
    """How the outcome changed from game A to game B (a branch and its parent, say):
    both finals and the goals lost and added, from the two games' scoresheets."""
    sheets = []
    for game in (game_a, game_b):
        events = read_game(store, game)
        sheets.append(read_models(store.info(game).system).scoresheet(events))
    a, b = sheets

    def key(goal: Any) -> tuple[Any, ...]:
        return (goal.period, goal.time, goal.team, goal.scorer)

    def final(sheet: Any) -> str:
        return (f"{sheet.home.team} {sheet.home.goals} - {sheet.away.goals} {sheet.away.team} "
                f"({sheet.decided or 'not over'})")

    keys_a, keys_b = {key(g) for g in a.goals}, {key(g) for g in b.goals}
    return Outcome(final(a), final(b),
                   {"home": a.home.goals, "away": a.away.goals},
                   {"home": b.home.goals, "away": b.away.goals}, a.decided, b.decided,
                   [msgspec.to_builtins(g) for g in a.goals if key(g) not in keys_b],
                   [msgspec.to_builtins(g) for g in b.goals if key(g) not in keys_a])


def _decode(payload: bytes, format: int) -> Any:
    try:
        return decoder(ALL_EVENTS, format).decode(payload)  # any system's (tags never clash)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return decoder(Any, format).decode(payload)
