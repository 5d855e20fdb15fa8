"""The audit: hold a database's streams to their hash chains and to the rules, trusting
nothing else.

One stream is checked by :mod:`replay.leagues.audit_stream` (the checks, in order, and
what each holds); what a check finds is an :class:`~replay.leagues.audit_report.AuditFinding`
in the stream's :class:`~replay.leagues.audit_report.AuditReport`. This module runs the
checks against a store: a stream with its season looked up there (:func:`audit_game`,
with its stored read models), and every stream, blob and row of a database
(:func:`audit_all`), here, on worker processes or on a Dask cluster's workers.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence

from engine.loop import CollectorPaused
from engine.systems import system_of
from events.base import Event
from events.catalogue import open_store
from events.common import (
    Absent,
)
from events.errors import RinklogError, UnknownGame
from events.league import SeasonCreated
from events.people import EXPORT_MEDIA, RECEIPT_MEDIA
from events.store import (
    ChainRow,
    EventStore,
    blob_hash,
)
from projections.store import (
    read_model_differences,
    stored_differences,
    stored_standings_differences,
    unaccounted_rows,
)
from replay.games.game_streams import CARD_MEDIA, CHART_MEDIA
from replay.games.registry import ruleset_of_season
from replay.leagues import audit_playoffs, audit_postseason, audit_season
from replay.leagues.audit_people import audit_people_files
from replay.leagues.audit_report import (
    AuditFinding,
    AuditReport,
    BlobSource,
    MemoryBlobs,
    SeasonLookup,
)
from replay.leagues.audit_shipped import (
    SeasonFacts,
    ShippedGame,
    ShippedSeasons,
    season_facts,
    shipped_game,
    unpacked_rows,
)
from replay.leagues.audit_stream import (
    audit_encoded,
    audit_stream,
    audit_stream_events,
    stream_decoder,
    stream_system,
)
from replay.leagues.audit_verify import DEFAULT_VERIFY, ClusterVerdict, verified
from replay.leagues.availability import (
    Availability,
    PlayoffAvailability,
    stored_availability,
    stored_playoff_availability,
)
from replay.leagues.ledger import SeasonLedger, odds_run_of, read_ledger
from replay.leagues.season_league import LEAGUE_MEDIA
from replay.workers import Cluster, Crew, open_crew

__all__ = ["AuditFinding", "AuditReport", "BlobSource", "MemoryBlobs", "SeasonLookup",
           "audit_all", "audit_all_verdict", "audit_blobs", "audit_encoded", "audit_game", "audit_games",
           "audit_stream",
           "audit_stream_events", "mark_odds_runs", "season_lookup", "stream_decoder",
           "stream_system"]


# --- a database ----------------------------------------------------------------------------

class _StoreSeasons:
    """Season lookups against a store, each season audited once."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.cache: dict[str, SeasonCreated | str] = {}
        self.ledgers: dict[str, SeasonLedger] = {}
        self.refereed_cache: dict[str, tuple[list[Event], list[str]] | str | None] = {}
        self.availability: dict[str, Availability] = {}
        self.playoff_availability: dict[str, PlayoffAvailability] = {}

    def refereed(self, season_id: str) -> tuple[list[Event], list[str]] | str | None:
        """A refereed season's events and their hashes once it passes the audit, why not,
        or None when the database does not hold it."""
        if season_id not in self.refereed_cache:
            self.refereed_cache[season_id] = self._refereed(season_id)
        return self.refereed_cache[season_id]

    def _refereed(self, season_id: str) -> tuple[list[Event], list[str]] | str | None:
        if not self.store.exists(season_id):
            return None
        rows = self.store.stored_rows(season_id)
        report, events = _audit_in_store(self.store, season_id, self, rows)
        if report.failure is not None:
            return (f"season stream {season_id!r} fails its {report.failure.check} check "
                    f"at {report.failure.seq}")
        return events, [r.hash for r in rows]

    def ledger(self, season_id: str) -> SeasonLedger | None:
        """The record a season stream keeps of its games, once it passes the audit."""
        self(season_id)
        return self.ledgers.get(season_id)

    def absent(self, season_id: str, number: int) -> list[Absent]:
        """Who is out of game ``number`` of a season (that passes its audit) as its stored
        games give it; each season's games are read once."""
        if season_id not in self.availability:
            season = self(season_id)
            assert not isinstance(season, str)  # the game's season check passed
            system = system_of(ruleset_of_season(season))
            self.availability[season_id] = stored_availability(
                self.store, season_id, season.schedule, system)
        return self.availability[season_id].absent(number)

    def playoff_absent(self, season_id: str, game_id: str) -> list[Absent]:
        """Who is out of playoff game ``game_id`` of a season (that passes its audit): its
        regular season's stored games, then its playoff games in the order its bracket
        recorded them (and a game started at the table, not recorded yet, last)."""
        if season_id not in self.playoff_availability:
            season, ledger = self(season_id), self.ledger(season_id)
            assert not isinstance(season, str) and ledger is not None
            games = [(r.game_id, r.home, r.away) for r in ledger.series_games.values()]
            for game in ledger.started:
                ready = ledger.next_playoff_game(game) if game not in ledger.series_games \
                    else None
                if ready is not None:
                    games.append((game, ready.home, ready.away))
            system = system_of(ruleset_of_season(season))
            self.playoff_availability[season_id] = stored_playoff_availability(
                self.store, season_id, season.schedule, system, games)
        found = self.playoff_availability[season_id]
        return found.absent(game_id) if game_id in found.numbers else []

    def __call__(self, season_id: str) -> SeasonCreated | str:
        if season_id not in self.cache:
            rows = self.store.stored_rows(season_id)
            report, events = _audit_in_store(self.store, season_id, self, rows)
            if report.failure is not None:
                self.cache[season_id] = (f"season stream {season_id!r} fails its "
                                         f"{report.failure.check} check at {report.failure.seq}"
                                         if report.events else f"no season stream {season_id!r}")
            else:
                first = events[0]
                self.cache[season_id] = first if isinstance(first, SeasonCreated) else \
                    f"{season_id!r} is not a season"
                if isinstance(first, SeasonCreated):
                    self.ledgers[season_id] = read_ledger(events, [r.hash for r in rows])
        return self.cache[season_id]


def season_lookup(store: EventStore) -> SeasonLookup:
    """The season lookups of ``store``, each season audited once: what to pass as
    ``seasons`` to :func:`audit_game` when auditing many games of one database."""
    return _StoreSeasons(store)


def _audit_in_store(store: EventStore, stream: str, seasons: SeasonLookup | None,
                    rows: Sequence[ChainRow] | None = None) -> tuple[AuditReport, list[Event]]:
    rows = store.stored_rows(stream) if rows is None else rows
    return audit_stream_events(stream, store.stream_record(stream), rows, store,
                               seasons or _StoreSeasons(store))


def audit_game(store: EventStore, game_id: str, *, read_models: bool = True,
               seasons: SeasonLookup | None = None) -> AuditReport:
    """Audit one stored stream (a game or a season), and the read models stored for it.
    With the cyclic collector paused throughout (the rows read, the read models folded
    again and compared: no reference cycles, as the checks', audit_stream._audited)."""
    with CollectorPaused():
        return _audit_game(store, game_id, read_models, seasons)


def _audit_game(store: EventStore, game_id: str, read_models: bool,
                seasons: SeasonLookup | None) -> AuditReport:
    rows = store.stored_rows(game_id)  # in columns: what the audit reads (events/rows.py)
    record = store.stream_record(game_id)  # read once: the audit's and the read models'
    if not rows and record is None:
        raise UnknownGame(f"no game {game_id!r} in {store.path}")
    report, events = audit_stream_events(game_id, record, rows, store,
                                         seasons or _StoreSeasons(store))
    if report.ok and report.kind == "season":
        # its playoffs, re-derived from its standings and playoff games (issue 22)
        found = audit_playoffs.check_postseason(store, game_id)
        if found is not None:
            report = dataclasses.replace(report, failure=AuditFinding(
                "postseason", found.seq, found.expected, found.recorded, found.rule))
    if report.ok and read_models and report.kind in ("game", "season"):
        # ``record`` passed the index check: its system is the one the events give
        assert record is not None
        differences = (stored_differences(store, game_id, events, system=record.system)
                       if report.kind == "game"
                       else stored_standings_differences(store, game_id))
        report = _held_to_read_models(report, differences)
    if report.ok and report.kind == "season":
        found = audit_postseason.lottery_in_store(store, game_id, events)
        if found is not None:
            report = dataclasses.replace(report, failure=AuditFinding(
                found.check, found.seq, found.expected, found.recorded, found.rule))
    return report


def audit_games(store: EventStore, streams: Iterable[str], *,
                read_models: bool = True) -> list[AuditReport]:
    """:func:`audit_game` of each of ``streams``, in order, with one season lookup: each
    season, and who its stored games put out of later ones, read once (not once a game:
    a DICE Hockey season's games carry injuries, so each game's audit would re-read every
    earlier game of its season)."""
    seasons = _StoreSeasons(store)
    return [audit_game(store, stream, read_models=read_models, seasons=seasons)
            for stream in streams]


def _held_to_read_models(report: AuditReport, differences: list[str] | None) -> AuditReport:
    if not differences:
        return report
    return dataclasses.replace(report, failure=AuditFinding(
        "read models", report.events, "stored read models equal to a rebuild from "
        "the events", "; ".join(differences), "projections (rinklog projections rebuild)"))


PARALLEL_FROM = 64  # streams: fewer are audited in this process (a crew costs a fork)


def audit_all(store: EventStore, workers: int = 1, cluster: Cluster | None = None, *,
              odds_run: bool = False) -> list[AuditReport]:
    """:func:`audit_all_verdict`'s reports, none re-audited here."""
    return audit_all_verdict(store, workers, cluster, odds_run=odds_run, verify=0)[0]


def audit_all_verdict(store: EventStore, workers: int = 1, cluster: Cluster | None = None, *,
                      odds_run: bool = False, verify: int = DEFAULT_VERIFY,
                      verify_seed: int | None = None
                      ) -> tuple[list[AuditReport], ClusterVerdict | None]:
    """Every stream of the database (listed or orphaned), then every blob; with
    ``workers`` > 1 a big database's streams are audited by that many processes (each
    opens the file read-only), the reports in the same order. With ``cluster`` (a Dask
    scheduler's address) its workers audit the game streams, sent to them whole
    (:mod:`replay.leagues.audit_shipped`), and this process the rest. A season written by
    ``rinklog odds --replay`` fails, named as the odds run it is, unless ``odds_run``
    (then it passes with that warning): :func:`mark_odds_runs`.

    With ``cluster``, the verdict too (None without): the workers that re-ran the rules,
    and ``verify`` of the games they audited re-audited here, chosen by ``verify_seed``
    (None: a seed drawn now); a game whose report here differs fails
    (:mod:`replay.leagues.audit_verify`)."""
    ids = store.stream_ids()
    seasons = _StoreSeasons(store)
    verdict = None
    if cluster is not None:
        reports, shipped, names = _audit_on_cluster(store, ids, seasons, cluster)
        reports, verdict = verified(
            reports, shipped, verify, verify_seed,
            lambda stream: audit_game(store, stream, seasons=seasons), cluster.address, names)
    elif workers > 1 and len(ids) >= PARALLEL_FROM:
        reports = _audit_in_workers(store, ids, workers)
    else:
        reports = [audit_game(store, stream, seasons=seasons) for stream in ids]
    reports = mark_odds_runs(store, _with_missing_season_games(store, seasons, reports),
                             odds_run)
    return (reports + audit_blobs(store) + audit_people_files(store)
            + audit_unaccounted_rows(store), verdict)


def mark_odds_runs(store: EventStore, reports: list[AuditReport],
                   allowed: bool) -> list[AuditReport]:
    """``reports`` with each season that is an odds run (an OddsRunReplayed in its
    stream, docs/odds.md) named as one: failed unless ``allowed``, else warned. The marker
    cannot be taken out unseen: the games (or weeks) after it are seeded from the run, and
    the audit holds their dice to it (issue 32)."""
    out = []
    for report in reports:
        found = None
        if report.ok and report.kind in ("season", "matrix_season"):
            found = odds_run_of(report.game_id,
                                [row.event for row in store.read(report.game_id)])
        if found is None:
            out.append(report)
        elif allowed:
            out.append(dataclasses.replace(report, warnings=(*report.warnings, found[1])))
        else:
            out.append(dataclasses.replace(report, failure=AuditFinding(
                "odds run", found[0], "the season as played (`rinklog audit --all "
                "--odds-run` audits an odds run's database as one)", found[1], "docs/odds.md")))
    return out


def _with_missing_season_games(store: EventStore, seasons: _StoreSeasons,
                               reports: list[AuditReport]) -> list[AuditReport]:
    """``reports`` with a failure named for each game a season recorded (or marked
    started at the table) that the database does not hold as a game of that season:
    deleted, or moved away (a stream of that id that no longer says it is the season's
    game, whose own report is then replaced; one failing already is left as it is)."""
    by_id = {r.game_id: i for i, r in enumerate(reports)}
    out = list(reports)
    for info in store.streams(kind="season"):
        ledger = seasons.ledger(info.stream)
        if ledger is None:
            continue  # the season's own report says why
        held = {r.game_id for r in reports
                if r.kind == "game" and r.index.get("season") == info.stream}
        for gone in audit_season.missing_games(ledger, held):
            found = AuditReport(gone.game, 0, "", 0, AuditFinding(
                "season", 0, f"game {gone.number} of {gone.season}, {gone.what} at seq "
                f"{gone.seq} of the season stream", "no such game of the season in the "
                "database (deleted or moved)", audit_season.RULE), kind="game")
            at = by_id.get(gone.game)
            if at is None:
                out.append(found)
            elif reports[at].ok:
                out[at] = dataclasses.replace(found, events=reports[at].events,
                                              head_hash=reports[at].head_hash)
    return out


_AHEAD = 4  # streams per worker sent ahead of the reports read


def _audit_in_workers(store: EventStore, ids: list[str], workers: int) -> list[AuditReport]:
    crew = Crew(workers, _worker_store, _worker_audit, (str(store.path),), "stream")
    found: dict[str, AuditReport] = {}
    todo = iter(ids)
    try:
        sent = 0
        for stream in itertools.islice(todo, _AHEAD * workers):
            crew.submit(stream, stream)
            sent += 1
        while len(found) < sent:
            stream, report = crew.result()
            found[stream] = report
            for more in itertools.islice(todo, 1):
                crew.submit(more, more)
                sent += 1
    finally:
        crew.stop()
    return [found[stream] for stream in ids]


_worker: tuple[EventStore, _StoreSeasons] | None = None


def _worker_store(path: str) -> None:
    """In a worker: its own read-only connection to the database (never the parent's)."""
    global _worker
    store = open_store(path, create=False)
    _worker = (store, _StoreSeasons(store))


def _worker_audit(stream: str) -> AuditReport:
    assert _worker is not None
    store, seasons = _worker
    return audit_game(store, stream, seasons=seasons)


def _audit_on_cluster(store: EventStore, ids: list[str], seasons: _StoreSeasons,
                      cluster: Cluster) -> tuple[list[AuditReport], list[str], list[str]]:
    """The game streams audited by a Dask cluster's workers, the others (seasons, orphan
    rows) here; every blob and the database's season streams go to each worker once.
    Returns the reports, the streams the workers audited and the workers' names."""
    known = {info.stream: season_facts(seasons, info.stream)
             for info in store.streams(kind="season")}
    blobs = MemoryBlobs({digest: found for digest in store.blob_hashes()
                         if (found := store.blob_record(digest)) is not None})
    crew = open_crew(1, _shipped_init, _shipped_audit, (blobs, known), "stream",
                     cluster=cluster, result=AuditReport)
    found: dict[str, AuditReport] = {}
    shipped: list[str] = []
    todo = iter(ids)
    pending = 0  # sent, not yet back
    try:
        while True:
            for stream in todo:  # up to a window of streams sent ahead
                record = store.stream_record(stream)
                if record is None or record.kind != "game":
                    found[stream] = audit_game(store, stream, seasons=seasons)
                    continue
                crew.submit(stream, shipped_game(store, stream, record, seasons, known))
                shipped.append(stream)
                pending += 1
                if pending >= _AHEAD * crew.size:
                    break
            if not pending:
                break
            stream, report = crew.result()
            found[stream] = report
            pending -= 1
        names = crew.worker_names()  # type: ignore[attr-defined] - a cluster's crew
    finally:
        crew.stop()
    return [found[stream] for stream in ids], shipped, names


_shipped: tuple[MemoryBlobs, dict[str, SeasonFacts]] | None = None


def _shipped_init(blobs: MemoryBlobs, known: dict[str, SeasonFacts]) -> None:
    """In a cluster's worker: the database's blobs and season streams' facts."""
    global _shipped
    _shipped = (blobs, known)


def _shipped_audit(game: ShippedGame) -> AuditReport:
    """In a cluster's worker: :func:`audit_game` of a game stream, on what was shipped."""
    assert _shipped is not None
    blobs, known = _shipped
    report, events = audit_stream_events(game.stream, game.record, unpacked_rows(game.packed),
                                         blobs, ShippedSeasons(game, known))
    if report.ok and report.kind != "game":  # the kind check holds it to its streams row
        raise RinklogError(f"{game.stream} was shipped as a game, audited as a {report.kind}")
    if report.ok and game.read_models is not None:
        report = _held_to_read_models(
            report, read_model_differences(game.read_models, game.stream, events))
    return report


def audit_unaccounted_rows(store: EventStore) -> list[AuditReport]:
    """A failing report for each read-model table holding rows that no stream accounts
    for (a game or season that does not exist, a checkpoint never written)."""
    return [AuditReport(f"read models {line.split(':', 1)[0]}", 0, "", 0, AuditFinding(
        "read models", 0, "every stored read-model row accounted for by a stream and its "
        "checkpoint", line, "projections (rinklog projections rebuild)"), kind="read models")
        for line in unaccounted_rows(store)]


def audit_blobs(store: EventStore) -> list[AuditReport]:
    """A failing report for each stored blob whose content does not match its hash or
    whose media type is not one rinklog writes."""
    reports = []
    for digest in store.blob_hashes():
        found = store.blob_record(digest)
        assert found is not None
        content, media = found
        problem = None
        if blob_hash(content) != digest:
            problem = ("content matching its hash", f"content hashing to "
                       f"{blob_hash(content)[:16]}…")
        elif media not in (CARD_MEDIA, CHART_MEDIA, LEAGUE_MEDIA, EXPORT_MEDIA, RECEIPT_MEDIA):
            problem = (f"media type {CARD_MEDIA}, {CHART_MEDIA}, {LEAGUE_MEDIA}, "
                       f"{EXPORT_MEDIA} or {RECEIPT_MEDIA}", media)
        if problem:
            reports.append(AuditReport(f"blob {digest[:16]}…", 0, digest, 0, AuditFinding(
                "blobs", 0, problem[0], problem[1], "content hashes"), kind="blob"))
    return reports
