"""Season receipts: one signed receipt for a whole season, its games as a Merkle tree.

The leaves are the season's games in the order the season recorded them
(:func:`season_leaves`), each the bytes ``["GAME-ID","HEAD"]`` (compact JSON); the tree is
RFC 6962's (:mod:`replay.leagues.merkle`), as Certificate Transparency builds it. A receipt
signs the tree head as a CT log signs its tree head: the root and the number of games,
with the season stream's head (and its number of events) and the season's standings'
digest beside them. Games only ever join the end of a season, so a later season is a
larger tree whose first leaves are the published ones: a consistency proof (RFC 6962
2.1.2) shows that a week's published receipt is the start of today's season, and an
inclusion proof (2.1.1) that a game with a given head is in a published season, without
rinklog (docs/trust.md has a verifier in a page of standard-library Python).

A game of a league season (Hockey Bones, FaceOff 2008, DICE Hockey) is its own stream and
its head is that stream's head hash. A Matrix Hockey season is one stream
(replay/leagues/matrix/season.py) whose games are its ``GamePlayed`` events; a game's head is the
season stream's hash at that event, which covers the game and everything the season
recorded before it (the picks, the draws and the dice it was played from).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import msgspec
import nacl.signing

from engine.systems import SEASON_SYSTEMS, system_of
from events.errors import RinklogError, UnknownGame
from events.league import SeasonCreated
from events.plurals import counted
from events.store import EventStore
from replay.games.game_streams import season_kinds
from replay.games.registry import ruleset_of_season
from replay.leagues import merkle
from replay.leagues.audit import (
    AuditFinding,
    AuditReport,
    audit_games,
    mark_odds_runs,
)
from replay.leagues.audit_odds_runs import ODDS_RUNS, audit_database, check_odds_records
from replay.leagues.ledger import odds_runs, recorded_games
from replay.leagues.receipts import ReceiptError, Signature, sign_receipt, verify_signature
from replay.workers import Cluster

__all__ = ["InclusionProof", "SeasonAudit", "SeasonGame", "SeasonReceipt", "audit_season_receipt",
           "encode", "is_season_receipt", "leaf_bytes", "load_season_receipt", "season_leaves",
           "season_proof", "season_proofs", "season_receipt"]

FORMAT = "rinklog-season-receipt"
PROOF_FORMAT = "rinklog-season-proof"
VERSION = 1
RULE = "season receipt (RFC 6962)"
_CANONICAL = msgspec.json.Encoder(order="sorted")


class SeasonGame(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A leaf: a game's id and its head hash."""

    game: str
    head: str


class SeasonReceipt(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    format: Literal["rinklog-season-receipt"]
    version: Literal[1]
    season: str
    system: str  # the game system of its games: bones, faceoff2008, dicehockey, matrix
    season_head: str  # the season stream's head hash
    season_events: int  # its number of events
    n_games: int  # the tree's size
    root: str  # the tree's hash (hex)
    standings_digest: str  # SHA-256 of the standings (see _standings_digest); "" if none
    games: list[SeasonGame]  # the leaves, in order: what lets an audit name each game
    signature: Signature | None = None

    def signed_bytes(self) -> bytes:
        """What a signature covers: the tree head, the canonical JSON (sorted keys) of
        every field but the games (the root covers them) and the signature."""
        return _CANONICAL.encode({f: getattr(self, f) for f in self.__struct_fields__
                                  if f not in ("games", "signature")})


class InclusionProof(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """That game ``game`` with head ``head`` is leaf ``index`` (from 0) of the season's
    tree of ``n_games`` leaves and hash ``root`` (RFC 6962 2.1.1's audit path)."""

    format: Literal["rinklog-season-proof"]
    version: Literal[1]
    season: str
    game: str
    head: str
    index: int
    n_games: int
    root: str
    path: list[str]


@dataclass(frozen=True)
class _SeasonNow:
    """A season as the database holds it now."""

    season: str
    system: str
    head: str
    events: int
    standings_digest: str
    games: list[SeasonGame]


def leaf_bytes(game: SeasonGame) -> bytes:
    """A leaf's bytes: compact JSON ``["GAME-ID","HEAD"]`` (ASCII: what ``json.dumps`` of
    the standard library writes, so the verifier in docs/trust.md needs nothing else)."""
    return json.dumps([game.game, game.head], separators=(",", ":")).encode()


def season_leaves(store: EventStore, season: str) -> list[SeasonGame]:
    """The season's games, in the order the season recorded them: the leaves of its tree.

    A league season: its finished games (not branches) as stored, with their heads, in
    the order its season stream recorded them (``SeasonGameRecorded``,
    replay/leagues/ledger.py), so a game played late at the table joins the end of the
    tree and a published tree only ever grows; a game no record names (a season written
    before season records, or one slipped in) follows in schedule order, so a receipt
    names it as added. A Matrix season: its ``GamePlayed`` events in stream order, each
    with the stream's hash there."""
    info = _season_info(store, season)
    refereed = SEASON_SYSTEMS.get(info.system)
    if refereed is not None:
        return [SeasonGame(game, row.hash) for row in store.read(season)
                if (game := refereed.season_game_id(season, row.event)) is not None]
    games = {g.stream: g for g in store.streams(kind="game")
             if g.meta.get("season") == season and g.meta.get("parent") is None
             and "decided" in g.meta}
    order = [g.game for g in recorded_games(store, season) if g.game in games]
    order += sorted((g for g in games if g not in set(order)),
                    key=lambda g: (games[g].meta.get("number", 0), g))
    return [SeasonGame(g, games[g].head_hash) for g in order]


def _season_info(store: EventStore, season: str):
    if not store.exists(season):
        known = [s.stream for kind in ("season", *sorted(season_kinds()))
                 for s in store.streams(kind=kind)]
        raise UnknownGame(f"no season {season!r} in {store.path}"
                          + (f" (seasons: {', '.join(known)})" if known else ""))
    info = store.info(season)
    if info.kind != "season" and info.kind not in season_kinds():
        raise RinklogError(f"{season} is a {info.kind} stream, not a season")
    return info


def _digest(value: Any) -> str:
    return hashlib.sha256(_CANONICAL.encode(value)).hexdigest()


def _standings_digest(store: EventStore, season: str, system: str) -> str:
    """SHA-256 of the canonical JSON of the season's standings: a league season's stored
    ``rm_standings`` rows in rank order ("" when none are stored), a Matrix season's
    standings as ``matrix standings --json`` gives them (it stores none)."""
    refereed = SEASON_SYSTEMS.get(system)
    if refereed is not None:
        events = [row.event for row in store.read(season)]
        return _digest(refereed.standings(refereed.fold(events)))
    db = store.connection
    if not db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='rm_standings'"
                      ).fetchone():
        return ""
    cursor = db.execute("SELECT * FROM rm_standings WHERE season = ? ORDER BY rank", (season,))
    names = [c[0] for c in cursor.description]
    rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    return _digest(rows) if rows else ""


def _now(store: EventStore, season: str) -> _SeasonNow:
    info = _season_info(store, season)
    if info.system in SEASON_SYSTEMS:
        system = info.system
    else:
        created = store.read(season, 1, 1)[0].event
        if not isinstance(created, SeasonCreated):
            raise RinklogError(f"{season}: its first event is no SeasonCreated")
        system = system_of(ruleset_of_season(created)).name
    return _SeasonNow(season, system, info.head_hash, info.version,
                      _standings_digest(store, season, system), season_leaves(store, season))


def _root(games: list[SeasonGame]) -> str:
    return merkle.root([leaf_bytes(g) for g in games]).hex()


def season_receipt(store: EventStore, season: str,
                   key: nacl.signing.SigningKey | None = None) -> SeasonReceipt:
    """The receipt of a season as stored, signed with ``key`` if given. The season stream
    and every game in it are audited first (with their stored read models and the
    season's standings): a season with a failing stream gets no receipt."""
    _season_info(store, season)
    for odds_run in odds_runs(store, season):  # issue 32: an odds run is never the season
        raise ReceiptError(f"{odds_run}: it gets no season receipt")
    now = _now(store, season)
    streams = [season] if now.system in SEASON_SYSTEMS else [season, *(g.game for g in now.games)]
    for stream, report in zip(streams, audit_games(store, streams), strict=True):
        if report.failure is not None:
            f = report.failure
            raise ReceiptError(f"{stream} fails the audit ({f.check} check at event {f.seq}); "
                               f"no receipt is issued for season {season}")
    receipt = SeasonReceipt(FORMAT, VERSION, season, now.system, now.head, now.events,
                            len(now.games), _root(now.games), now.standings_digest, now.games)
    return sign_receipt(receipt, key) if key is not None else receipt


def season_proofs(store: EventStore, season: str) -> dict[str, InclusionProof]:
    """Every game's inclusion proof in the season's tree as stored (a read: no audit)."""
    games = season_leaves(store, season)
    leaves = [leaf_bytes(g) for g in games]
    root = merkle.root(leaves).hex()
    paths = merkle.inclusion_proofs(leaves, range(len(games)))
    return {g.game: InclusionProof(PROOF_FORMAT, VERSION, season, g.game, g.head, i, len(games),
                                   root, [p.hex() for p in path])
            for i, (g, path) in enumerate(zip(games, paths, strict=True))}


def season_proof(store: EventStore, season: str, game: str) -> InclusionProof:
    """One game's inclusion proof in the season's tree as stored."""
    proofs = season_proofs(store, season)
    if game not in proofs:
        raise UnknownGame(f"{game!r} is not a game of season {season} (a finished game of "
                          f"it; its {counted(len(proofs), 'game')} are in `rinklog receipt --season`)")
    return proofs[game]


def encode(value: SeasonReceipt | InclusionProof) -> bytes:
    return msgspec.json.format(_CANONICAL.encode(value), indent=2) + b"\n"


# --- holding a database to a receipt ----------------------------------------------------

def is_season_receipt(path: Path) -> bool:
    """Whether ``path`` holds a season receipt (rather than a receipt of games)."""
    try:
        found = msgspec.json.decode(path.read_bytes())
    except (OSError, msgspec.DecodeError, ValueError, RecursionError):
        return False  # the game receipts' loader says what is wrong with it
    return isinstance(found, dict) and found.get("format") == FORMAT


def load_season_receipt(path: Path) -> SeasonReceipt:
    """A season receipt whose games give its root and size (else it was changed)."""
    try:
        receipt = msgspec.json.decode(path.read_bytes(), type=SeasonReceipt)
    except OSError as err:
        raise ReceiptError(f"{path}: cannot read: {err.strerror or err}") from None
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as err:
        # ValueError: a string that is not UTF-8
        raise ReceiptError(f"{path}: not a rinklog season receipt ({err})") from None
    except RecursionError:  # msgspec's decoder, on JSON nested deeper than Python recurses
        raise ReceiptError(f"{path}: not a rinklog season receipt (JSON nested too "
                           "deeply)") from None
    if receipt.n_games != len(receipt.games) or _root(receipt.games) != receipt.root:
        raise ReceiptError(f"{path}: its {counted(len(receipt.games), 'game')} do not give its root "
                           f"and size ({counted(receipt.n_games, 'game')}, root {receipt.root[:16]}…): "
                           "the receipt was changed")
    return receipt


@dataclass(frozen=True)
class SeasonAudit:
    """What ``audit --receipt SEASON-RECEIPT`` found: the reports (each game the receipt
    and the database disagree on failed with a ``receipt`` check), the signer (hex; None:
    unsigned) and what was checked, a line each."""

    reports: list[AuditReport]
    signer: str | None
    notes: list[str]


def _finding(stream: str, expected: str, recorded: str, head: str = "") -> AuditReport:
    return AuditReport(stream, 0, head, 0, AuditFinding("receipt", 0, expected, recorded, RULE),
                       kind="game")


def audit_season_receipt(store: EventStore, path: Path, pinned: nacl.signing.VerifyKey | None,
                         *, all_streams: bool = False, workers: int = 1,
                         cluster: Cluster | None = None, odds_run: bool = False,
                         odds_replays: int = ODDS_RUNS,
                         odds_systems: Any = None) -> SeasonAudit:
    """Audit the database (every stream with ``all_streams``, else the season and its
    games) and hold its season to the receipt in ``path``: the season stream extends the
    one published, today's games extend the published ones (an RFC 6962 consistency proof
    from the published tree to today's), and each published game is still there, with its
    head, in its place. Every game that differs, is missing, was added among the
    published ones or moved is named; games played since are listed, not failed.
    ``workers``, ``cluster``, ``odds_run``: as :func:`replay.leagues.audit.audit_all`'s
    (a season written by ``rinklog odds --replay`` is named as one and fails);
    ``odds_replays``, ``odds_systems``: the runs of each odds record played again and
    the season systems' odds (audit_odds_runs.audit_database's ``odds_runs``,
    ``systems``)."""
    receipt = load_season_receipt(path)
    signer = verify_signature(receipt, str(path), pinned)
    if not store.exists(receipt.season):
        return SeasonAudit([_finding(receipt.season, f"season {receipt.season} ({path})",
                                     "no such season in the database")], signer, [])
    now = _now(store, receipt.season)
    if all_streams:
        reports = audit_database(store, workers=workers, cluster=cluster, odds_run=odds_run,
                                 odds_runs=odds_replays, systems=odds_systems)
    else:
        streams = [receipt.season] + ([] if now.system in SEASON_SYSTEMS
                                      else [g.game for g in now.games])
        reports = check_odds_records(store, mark_odds_runs(
            store, audit_games(store, streams), odds_run), odds_replays,
            odds_systems)
    findings = [*_season_findings(store, receipt, now, str(path)),
                *_game_findings(receipt.games, now.games, str(path))]
    published, today = len(receipt.games), len(now.games)
    leaves = [leaf_bytes(g) for g in now.games]
    proof = merkle.consistency_proof(leaves, published) if published <= today else []
    # every tree extends the empty one, whose root is SHA-256 of nothing (RFC 6962 2.1);
    # a consistency proof starts from a tree of one leaf or more (RFC 9162 2.1.4.2)
    extends = published <= today and (
        merkle.verify_consistency(published, today, bytes.fromhex(receipt.root),
                                  merkle.root(leaves), proof) if published
        else bytes.fromhex(receipt.root) == merkle.root([]))
    notes = []
    if extends:
        notes.append(f"season {receipt.season}: the {counted(published, 'game')} of receipt {path} are "
                     f"the first {published} of its {today} now (RFC 6962 consistency proof, "
                     f"{counted(len(proof), 'hash', 'hashes')})")
        notes += [f"  {g.game}: played since the receipt, head {g.head[:16]}…"
                  for g in now.games[published:]]
    elif not any(f.game_id != receipt.season for f in findings):
        findings.append(_finding(receipt.season, f"today's games extending the {published} of "
                                 f"{path}", f"{counted(today, 'game')} that do not (consistency proof)"))
    return SeasonAudit(_merged(reports, findings), signer, notes)


def _season_findings(store: EventStore, receipt: SeasonReceipt, now: _SeasonNow,
                     origin: str) -> list[AuditReport]:
    season, found = receipt.season, []
    if receipt.system != now.system:
        found.append(_finding(season, f"system {receipt.system} ({origin})", now.system))
    rows = store.raw_rows(season)
    at = receipt.season_events
    if not 1 <= at <= len(rows) or rows[at - 1].hash != receipt.season_head:
        found.append(_finding(season, f"the season stream extending its event {at} of head "
                              f"{receipt.season_head[:16]}… ({origin})",
                              f"head {rows[at - 1].hash[:16]}… there" if 1 <= at <= len(rows)
                              else f"{counted(len(rows), 'event')}", now.head))
    same = (now.events == at and [g.game for g in now.games] ==
            [g.game for g in receipt.games])
    if same and now.standings_digest != receipt.standings_digest:
        found.append(_finding(season, f"standings digest {receipt.standings_digest[:16]}… "
                              f"({origin})", f"{now.standings_digest[:16]}…"))
    return found


def _game_findings(published: list[SeasonGame], today: list[SeasonGame],
                   origin: str) -> list[AuditReport]:
    """Each published game that is missing, differs or moved, and each game added among
    the published ones."""
    was = {g.game: (i, g.head) for i, g in enumerate(published)}
    now = {g.game: (i, g.head) for i, g in enumerate(today)}
    found = []
    for i, g in enumerate(published):
        if g.game not in now:
            found.append(_finding(g.game, f"game {i + 1} of the season, head {g.head[:16]}… "
                                  f"({origin})", "not in the database's season"))
        elif now[g.game][1] != g.head:
            found.append(_finding(g.game, f"head {g.head[:16]}… ({origin})",
                                  f"head {now[g.game][1][:16]}…", now[g.game][1]))
    # the games both hold, in each one's order: those out of place moved
    kept_then = [g.game for g in published if g.game in now]
    kept_now = [g.game for g in today if g.game in was]
    for then, later in zip(kept_then, kept_now, strict=True):
        if then != later:
            found.append(_finding(later, f"game {was[later][0] + 1} of the season ({origin})",
                                  f"game {now[later][0] + 1}", now[later][1]))
    last = max((now[g][0] for g in kept_now), default=-1)
    for j, g in enumerate(today[:last + 1]):
        if g.game not in was:
            found.append(_finding(g.game, f"no game {g.game} among the published ones "
                                  f"({origin})", f"game {j + 1}, added among them", g.head))
    return found


def _merged(reports: list[AuditReport], findings: list[AuditReport]) -> list[AuditReport]:
    """The audit's reports, a stream that passed it failed with its receipt finding, and
    the findings of streams the audit did not report (or already failed) after them."""
    first = {}
    for f in findings:
        first.setdefault(f.game_id, f)
    merged, used = [], set()
    for r in reports:
        finding = first.get(r.game_id)
        if finding is not None and r.ok:
            r = dataclasses.replace(r, failure=finding.failure)
            used.add(id(finding))
        merged.append(r)
    return merged + [f for f in findings if id(f) not in used]
