"""The audit of one stream: its rows held to their hash chain and to the rules, trusting
nothing else (:mod:`replay.leagues.audit` runs it over a database).

A stream is checked in this order, and the first thing that does not check out is
reported with its seq, the check, what was expected, what was recorded and the rule:

1. ``stream``: the ``streams`` row exists (and, after the chain, its version is the
   number of rows);
2. ``chain``: every row's seq, prev hash and hash, up to the recorded head hash;
3. ``decode``: the stream's payload format is one rinklog reads, and every payload
   decodes, in that format, as the event type it is stored as;
4. ``kind``: the first event says what the stream is (a game or a season), and the
   ``kind`` column agrees; a stream that is neither is a failure, never a skip;
5. ``identity``: the stream id is the game's (or the branch's, or the season's) own id,
   and a branch's lineage events stand where they say, naming the parent's hash;
6. ``index``: the ``system``, ``kind`` and ``meta`` the ``streams`` table lists are
   exactly what the events give: the system of the ``GameCreated`` ruleset (``league``
   for a season) and the index folded from the events (:mod:`projections.index`), byte
   for byte;
7. ``blobs``: the cards and charts the first event names exist, match their hashes and
   media types, and give the rosters it records; the ruleset is one rinklog knows;
8. ``season``: a season's game is the scheduled game of a season stream that itself
   passes the audit, with the season's teams, charts, options and seed, and (against a
   store) the players out of it (``GameCreated.absent``) that the season's stored earlier
   games of its teams give (:mod:`replay.leagues.availability`: DICE Hockey 15, 17);
   it pins the season's opening, has the season's coach habits and is the game the
   season recorded (:mod:`replay.leagues.audit_season`: the season as the ledger of its
   games; ``audit_all`` names a recorded game the database does not hold);
9. ``dice``: every seeded roll equals its derivation, with the dice schedule in force
   (the game's seed, then each branch's, all inside the chain);
10. ``rules``: every decision follows from the state and its rolls; every choice of a
    simulated game is its default coach's with the habits it records, any other coach
    choice is legal (:mod:`replay.games.refold`); only a live game (``GameCreated.live``) may stop
    before the end;
11. ``read models`` (:func:`audit_game` only): stored read models, where a game has
    them, equal a rebuild from its events; a season's stored standings equal those its
    games give;
12. ``lottery`` (:func:`audit_game`, against a store): a season's draft lottery is the one
    rule 31 draws from its final standings and its league's previous first pick, a
    seeded lottery's rolls their derivation (:mod:`replay.leagues.audit_postseason`).

A season of a *season system* (Matrix Hockey, :data:`engine.systems.SEASON_SYSTEMS`: a
league refereed by rinklog) goes through checks 1-6 as a game does (kind
``matrix_season``, identity: its ``season_id``), then ``dice`` (every seeded die equals
its derivation) and ``rules`` (the referee runs again over the recorded picks and
draws; the first event that does not follow is the finding), both from the system's entry.

Nothing outside the chain decides what is checked: stream metadata is only compared.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec import UNSET

from engine.dice import DiceSchedule, seed_for
from engine.loop import CollectorPaused
from engine.systems import SEASON_SYSTEMS, SYSTEMS, GameSystem, SeasonSystem, system_of
from events.base import Event, tag_of
from events.catalogue import ALL_EVENTS, LEAGUE
from events.checkpoints import chain_break, columns_hold
from events.common import (
    BranchStarted,
    GameCreated,
)
from events.errors import RinklogError
from events.formats import FORMATS, Decoder, decode_stored, decoder
from events.league import SeasonCreated
from events.plurals import counted
from events.store import (
    GENESIS,
    ChainRow,
    StoredEvent,
    StoredRows,
    StreamRecord,
    blob_hash,
    encode_meta,
)
from projections.index import stream_index
from replay.games.coach_habits import coach_for
from replay.games.game_setup import GameOptions
from replay.games.game_streams import CARD_MEDIA, CHART_MEDIA, team_sheet
from replay.games.refold import Mismatch, recheck
from replay.games.registry import ruleset_of_season
from replay.games.scan import Kinds
from replay.leagues import audit_season
from replay.leagues.audit_report import (
    AuditFailed,
    AuditFinding,
    AuditReport,
    BlobSource,
    SeasonLookup,
)
from replay.leagues.ledger import SeasonLedger
from replay.leagues.naming import (
    PLAYOFF_NUMBER,
    game_seed,
    is_playoff_game,
    playoff_game_id,
    playoff_seed,
    season_game_id,
)
from replay.leagues.playoff_setup import playoff_options
from replay.leagues.schedule import fixtures_by_number
from replay.leagues.season_league import LEAGUE_MEDIA, league_file_wrong
from replay.systems import kit_for_system

__all__ = ["audit_encoded", "audit_stream", "audit_stream_events", "stream_decoder",
           "stream_system"]


_FIRST: Any = GameCreated | SeasonCreated  # the first event of every stream, whatever its system


def audit_stream(stream: str, record: StreamRecord | None, rows: Sequence[ChainRow],
                 blobs: BlobSource, season_of: SeasonLookup) -> AuditReport:
    """Audit one stream from its stored rows and ``streams`` row (None: not listed)."""
    return audit_stream_events(stream, record, rows, blobs, season_of)[0]


def audit_stream_events(stream: str, record: StreamRecord | None, rows: Sequence[ChainRow],
                        blobs: BlobSource, season_of: SeasonLookup, *, rules: bool = True
                        ) -> tuple[AuditReport, list[Event]]:
    """:func:`audit_stream`, with the events it decoded (all of them once the report is ok),
    for callers that go on with them rather than decode the rows again. ``rules=False``:
    a game's checks up to its dice, not the rules' re-run (a season's writer holds what
    a worker returns to them, replay/leagues/returned.py)."""
    return _audited(_Audit(stream, record, rows, rules), blobs, season_of)


def _audited(state: _Audit, blobs: BlobSource, season_of: SeasonLookup
             ) -> tuple[AuditReport, list[Event]]:
    """``state``'s checks run: its report (the first finding, if any) and the events.

    With the cyclic collector paused, as a game is played and re-checked (the rules' re-run
    pauses it itself): the audit makes no reference cycles either (tests/test_audit_memory.py
    audits stored games with it off and finds no cyclic garbage), and the collector's
    passes, every 700 new containers (each decoded event's lists), walked the stream's
    events again and again (with audit_game's own pause, 67.8 -> 67.0 M instructions a
    stored game's audit, docs/benchmarks.md)."""
    try:
        with CollectorPaused():
            state.run(blobs, season_of)
    except AuditFailed as failed:
        return state.report(failed.failure), state.events
    return state.report(None), state.events


def audit_encoded(stream: str, *, kind: str, system: str, format: int, meta: dict[str, Any],
                  encoded: Sequence[tuple[str, bytes]], hashes: Sequence[bytes],
                  blobs: BlobSource, season_of: SeasonLookup, rules: bool = True,
                  hashed_here: bool = False) -> tuple[AuditReport, list[Event]]:
    """Audit a new stream before it is stored: the rows, hashes and ``streams`` row that
    :meth:`EventStore.append_encoded` writes for it, checked exactly as :func:`audit_stream`
    checks them once stored (a season's workers audit each game as they play it).
    ``hashes``: the payloads' chain as the caller has it; the chain check hashes every
    payload again and holds them to it, unless ``hashed_here``: the caller computed them
    from these very payloads itself, as the store does when it reads a stream (a season's
    writer, replay/leagues/returned.py, which trusts no worker's hashes and has just
    hashed what came back; the worker's own audit of the same rows hashed them again).
    ``rules``: as :func:`audit_stream_events`."""
    head = hashes[-1].hex() if hashes else GENESIS
    record = StreamRecord(stream, kind, len(encoded), head, encode_meta(meta), system, format)
    if hashed_here:
        if len(encoded) != len(hashes):
            raise ValueError(f"{len(hashes)} hashes for {len(encoded)} rows: one a row")
        # Each row's hash is the one just computed from its payload, stored on the row
        # (hash_every 1) and chained from the row before: the chain check (2) would hold
        # every row to itself and the head to the last hash. It is not run, and a whole
        # row is made only where a check reads one (a branch's parent, the season's
        # head): the rows in columns, as the store reads a stream (events/rows.py
        # StoredRows), each hash its stored cell; the decode check reads the columns.
        digests = list(hashes)
        hashed = StoredRows(list(range(1, len(encoded) + 1)), [tag for tag, _ in encoded],
                            [payload for _, payload in encoded], digests, digests)
        state = _Audit(stream, record, hashed, rules, chain=False)
        return _audited(state, blobs, season_of)
    rows, prev = [], GENESIS
    for seq, ((tag, payload), digest) in enumerate(zip(encoded, hashes, strict=True), 1):
        this = digest.hex()
        # hashed here: the hash as the reader computed it (stored on every row, hash_every 1)
        rows.append(StoredEvent(seq, tag, None, payload, prev, this,
                                this if hashed_here else UNSET))
        prev = this
    return audit_stream_events(stream, record, rows, blobs, season_of, rules=rules)


class _Audit:
    """The facts gathered so far, so a failure at any check still reports them."""

    def __init__(self, stream: str, record: StreamRecord | None, rows: Sequence[ChainRow],
                 rules: bool = True, *, chain: bool = True):
        self.stream, self.record, self.rows = stream, record, rows
        self.rules = rules  # False: a game's checks stop after its dice
        self.chain = chain  # False: rows chained by the caller from these payloads
        self.events: list[Event] = []
        self.seeded = 0
        self.kind = ""
        self.index: dict[str, Any] = {}
        self.created: GameCreated | None = None
        self.season_system = ""  # a refereed season's system (Matrix Hockey)
        self.finished = True
        self.warnings: list[str] = []

    def report(self, failure: AuditFinding | None) -> AuditReport:
        created = self.created
        live = created is not None and created.live
        return AuditReport(
            self.stream, len(self.rows), self.record.head_hash if self.record else "",
            self.seeded, failure, in_progress=live and not self.finished, kind=self.kind,
            ruleset=created.ruleset if created else self.season_system,
            ruleset_version=created.ruleset_version if created else int(bool(self.season_system)),
            index=self.index, warnings=tuple(self.warnings))

    def run(self, blobs: BlobSource, season_of: SeasonLookup) -> None:
        self._stream_row()
        if self.chain:
            self._chain()
        self._version()
        self._decode()
        first = self.events[0]
        season_system = _season_system_of(first)
        if season_system is not None:
            self._refereed_season(first, season_system, season_of)
        elif isinstance(first, SeasonCreated):
            self._season_identity(first)
            self._index()
            self._season_blobs(first, blobs)
        else:
            assert isinstance(first, GameCreated)
            self.created = first
            forks = self._lineage(first)
            self._index()
            self._game(first, forks, blobs, season_of)

    # --- 1-4: the rows themselves --------------------------------------------------------

    def _stream_row(self) -> None:
        if self.record is None:
            raise AuditFailed("stream", 1, f"a streams row for the {counted(len(self.rows), 'event')} of "
                          f"{self.stream!r}", "none (orphan event rows)", "event store")
        if not self.rows:
            raise AuditFailed("kind", 1, "a GameCreated or SeasonCreated event", "no events",
                          "event catalogue")

    def _version(self) -> None:
        assert self.record is not None
        if self.record.version != len(self.rows):
            raise AuditFailed("stream", min(self.record.version, len(self.rows)) + 1,
                          f"version {len(self.rows)} (the rows stored)",
                          f"version {self.record.version}", "event store")

    def _chain(self) -> None:
        head = self.record.head_hash if self.record else ""
        every = self.record.hash_every if self.record else 1
        rows = self.rows
        # a stream the store read in columns: its columns compared whole first, each row
        # made only where that finds anything (about 1,500 instructions a row less)
        if isinstance(rows, StoredRows) and columns_hold(rows.seqs, rows.hashes, rows.cells,
                                                         head, every):
            return
        # the store's definition of the chain, its checkpoints too (events/checkpoints.py)
        bad = chain_break(rows, expected_head=head, hash_every=every)
        if bad is not None:
            raise AuditFailed("chain", bad.seq, bad.expected, bad.found, "hash chain")

    def _decode(self) -> None:
        assert self.record is not None
        format = self.record.format
        if format not in FORMATS:
            known = ", ".join(f"{n} ({name})" for n, name in FORMATS.items())
            raise AuditFailed("decode", 1, f"a payload format rinklog reads: {known}",
                          f"format {format!r}", "event store")
        decoding = stream_decoder(self.rows[0], format)
        rows = self.rows
        # what the check reads of each row: its type tag and payload (and the seq of one
        # that does not hold); a stream read in columns gives them as its columns
        if isinstance(rows, StoredRows):
            seqs, types, payloads = rows.seqs, rows.types, rows.payloads
        else:
            seqs, types, payloads = ([row.seq for row in rows], [row.type for row in rows],
                                     [row.payload for row in rows])
        # every payload decoded and held to its tag in one loop (events/formats.py), up to
        # the first that does not hold, which is decoded again here for the finding
        self.events = decode_stored(decoding, types, payloads)
        stop = len(self.events)  # the first payload that does not hold, if any
        if stop < len(payloads):
            seq, type_ = seqs[stop], types[stop]
            try:
                event = decoding.decode(payloads[stop])
            except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as err:
                raise AuditFailed("decode", seq, f"a {type_} event",
                              f"undecodable payload ({err})", "event catalogue") from None
            raise AuditFailed("decode", seq, f"a {type_} event", tag_of(type(event)),
                              "event catalogue")
        first = self.events[0]
        kinds = {GameCreated: "game", SeasonCreated: "season",
                 **{s.first_event: s.kind for s in SEASON_SYSTEMS.values()}}
        kind = kinds.get(type(first))
        if kind is None:
            raise AuditFailed("kind", 1, "a GameCreated or SeasonCreated event (a stream the "
                          "audit can classify)", type(first).__name__, "event catalogue")
        self.kind = kind
        assert self.record is not None
        if self.record.kind != kind:
            raise AuditFailed("kind", 1, f"kind {kind!r} (the first event is "
                          f"{type(first).__name__})", f"kind {self.record.kind!r}",
                          "stream index")

    # --- 5-9: a game -----------------------------------------------------------------

    def _game(self, created: GameCreated, forks: list[int], blobs: BlobSource,
              season_of: SeasonLookup) -> None:
        rulesets = {r: s.rulesets[r] for s in SYSTEMS.values() for r in s.rulesets}
        rules = rulesets.get(created.ruleset)
        if rules is None or created.ruleset_version not in (rules.version, *rules.replays):
            known = ", ".join(f"{r.name} version {r.version}" for r in rulesets.values())
            raise AuditFailed("identity", 1, f"a ruleset this rinklog plays ({known}); a game of "
                          "an older version is checked by the rinklog that played it",
                          f"{created.ruleset} version {created.ruleset_version}", "rulesets")
        home, away, charts = _inputs(created, blobs)
        for side, team, sheet in (("home", home, created.home), ("away", away, created.away)):
            want = team_sheet(system_of(created.ruleset), team, sheet.card_hash)
            if sheet != want:
                raise AuditFailed("blobs", 1, f"the {side} roster as its cards give it",
                              "a roster (ids, names, positions, shifts) that differs",
                              "content hashes")
        found = audit_season.game_notes(self.events, created)
        if found is not None:
            raise AuditFailed(found.check, found.seq, found.expected, found.recorded, found.rule)
        if created.season:
            self._season_game(created, season_of, bool(forks))
        self._dice(created, forks)
        if not self.rules:
            return
        # A simulated game's choices are its default coach's, with the habits it records
        # (docs/coach.md): re-derived, not only checked for legality. A game played at the
        # table (typed choices) and a branch's continuation are held to legality.
        coach = None
        if not created.live and not forks:
            try:
                coach = coach_for(created.ruleset, audit_season.game_habits(self.events))
            except ValueError as err:
                raise AuditFailed("rules", 2, "coach habits of the ruleset's default coach",
                              str(err), "docs/coach.md") from None
        try:
            mismatch = recheck(self.events, home, away, charts, coach)
        except Exception as err:  # hash-valid but nonsensical events (a re-hashed forgery)
            mismatch = Mismatch(0, "events the rules can replay",
                                f"re-check stopped: {type(err).__name__}: {err}", "?")
        if mismatch is not None and mismatch.recorded == "end of stream" \
                and mismatch.seq == len(self.events) + 1:
            self.finished = False
            if created.live and not forks:
                mismatch = None
            else:
                what = "a branch" if forks else "a simulated game"
                mismatch = Mismatch(mismatch.seq, f"{mismatch.expected} ({what} is complete; "
                                    "only a live game may stop early)", "end of stream",
                                    "6.00")
        if mismatch is not None:
            raise AuditFailed("rules", mismatch.seq, mismatch.expected, mismatch.recorded,
                          mismatch.rule or "?")

    def _lineage(self, created: GameCreated) -> list[int]:
        """Check each BranchStarted (seq, parent hash, ids); return their seqs."""
        forks = _BRANCHES.seqs(self.events)
        owner = created.game_id
        for seq in forks:
            fork = self.events[seq - 1]
            assert isinstance(fork, BranchStarted)
            if seq == 1 or fork.parent_seq != seq - 1:
                raise AuditFailed("identity", seq, f"a branch of event {seq - 1}",
                              f"parent_seq {fork.parent_seq}", "branch lineage")
            if fork.parent_head != self.rows[seq - 2].hash:
                raise AuditFailed("identity", seq, f"parent head {self.rows[seq - 2].hash[:16]}…",
                              f"{fork.parent_head[:16]}…", "branch lineage")
            if not fork.branch_id or fork.branch_id == fork.parent:
                raise AuditFailed("identity", seq, "a branch id of its own",
                              repr(fork.branch_id), "branch lineage")
            owner = fork.branch_id
        if owner != self.stream:
            what = "the branch's id (BranchStarted)" if forks else "the game id (GameCreated)"
            raise AuditFailed("identity", forks[-1] if forks else 1, f"stream {owner!r}, {what}",
                          f"stream {self.stream!r}", "stream identity")
        return forks

    def _season_game(self, created: GameCreated, season_of: SeasonLookup,
                     branch: bool = False) -> None:
        season = season_of(created.season)
        if isinstance(season, str):
            raise AuditFailed("season", 1, f"season {created.season!r} that passes the audit",
                          season, "season schedule")
        scheduled = fixtures_by_number(season.schedule)
        system = system_of(created.ruleset)
        ledger_of = getattr(season_of, "ledger", None)
        ledger = ledger_of(created.season) if ledger_of is not None else None
        playoff = _playoff_fixture(created, ledger)
        # the season's seed, or an odds run's replayed into it (docs/odds.md)
        dice_seed = season.seed if ledger is None else ledger.game_dice_seed(created.game_id)
        want = {
            "game id": season_game_id(season.season_id, created.number),
            "teams": scheduled.get(created.number),
            # a game of the season played at the table (rinklog play --season) has typed
            # dice; every other one the season's seeded dice
            "seed": None if created.live and created.dice == "manual"
            else game_seed(dice_seed, created.number),
            "home cards": season.team_hashes.get(created.home.team_id),
            "away cards": season.team_hashes.get(created.away.team_id),
            "charts": season.charts_hash,
            "overtime skaters": season.overtime_skaters,
            "late-penalty house rule": season.late_penalty_house_rule,
            "ruleset": ruleset_of_season(season),
            "FaceOff options": system.season_fields(season),
            "options": season.options,
        }
        got = {
            "game id": created.game_id, "teams": (created.home.team_id, created.away.team_id),
            "seed": created.seed if created.dice == "seeded" else None,
            "home cards": created.home.card_hash, "away cards": created.away.card_hash,
            "charts": created.charts_hash, "overtime skaters": created.overtime_skaters,
            "late-penalty house rule": created.late_penalty_house_rule,
            "ruleset": created.ruleset,
            "FaceOff options": system.options_of(created),
            "options": created.options,
        }
        if playoff is not None:  # a playoff game: its series' game, with the playoff option
            want.update({
                "game id": playoff_game_id(season.season_id, playoff.round, playoff.slot,
                                           playoff.game),
                "teams": (playoff.home, playoff.away),
                "seed": None if created.live and created.dice == "manual"
                else playoff_seed(dice_seed, playoff.round, playoff.slot, playoff.game)})
            for key, value in _playoff_fields(season, system).items():  # and "playoff"
                want[f"option field {key}"] = value
                got[f"option field {key}"] = msgspec.to_builtins(getattr(created, key))
            del want["options"], want["FaceOff options"]
        for key, value in want.items():
            if got[key] != value:
                raise AuditFailed("season", 1, f"{key} {value!r} (game {created.number} of "
                              f"{created.season})", repr(got[key]), "season schedule")
        if ledger is not None:
            head = self.rows[-1].hash if self.rows else GENESIS
            # a branch (a what-if of a season game) is no game of the season's record
            found = audit_season.season_game(
                self.events, created, head, ledger,
                complete=getattr(season_of, "complete", True) and not branch)
            if found is not None:
                raise AuditFailed(found.check, found.seq, found.expected, found.recorded,
                              found.rule)
        # games missed carry on from the regular season into the playoffs (R-post-absent)
        self._absent(created, season_of, playoff is not None)

    def _absent(self, created: GameCreated, season_of: SeasonLookup,
                playoff: bool = False) -> None:
        """Who is out of a season game (an injury's games missed, a suspension) as the
        season's stored games give it (replay/leagues/availability.py), where the lookup
        reads a store (a season's worker plays each game with the writer's own reading);
        a playoff game's after its teams' regular season and earlier playoff games."""
        absent_from = getattr(season_of, "playoff_absent" if playoff else "absent", None)
        if absent_from is None:
            return
        want = absent_from(created.season, created.game_id if playoff else created.number)
        got = created.absent if created.absent is not UNSET else []
        if got != want:
            missing = [a for a in want if a not in got]
            raise AuditFailed("season", 1, "out of this game: " + (", ".join(
                f"{a.team} {a.player} (ruled out in game {a.game}, rule {a.rule})"
                for a in want) or "nobody") + f" (game {created.number} of {created.season})",
                ("dresses " + ", ".join(f"{a.team} {a.player}" for a in missing)) if missing
                else "out: " + ", ".join(f"{a.team} {a.player}" for a in got),
                "games missed (DICE Hockey 15, 17)")

    def _dice(self, created: GameCreated, forks: list[int]) -> None:
        system = system_of(created.ruleset)
        roll_event, derive_roll, game_id = system.roll_event, system.derive_roll, created.game_id
        schedule: DiceSchedule = [(1, created.seed if created.dice == "seeded" else None)]
        rolls = 0
        events = self.events
        # every roll (found in one pass: scan.py) and every branch event (``forks``, the
        # lineage check's), in stream order
        rolls_at = _kinds(roll_event).seqs(events)
        branches = set(forks)
        for seq in sorted(rolls_at + forks) if forks else rolls_at:
            event = events[seq - 1]
            if seq not in branches:
                rolls = event.n
                seed = seed_for(schedule, rolls)
                if seed is None:
                    continue
                want = derive_roll(seed, game_id, rolls)
                self.seeded += 1
                if want != event.roll:
                    raise AuditFailed("dice", seq, f"roll {event.n} = {want} (seed {seed!r}, game "
                                  f"{created.game_id})", str(event.roll), "3.00 seeded dice")
            else:
                assert isinstance(event, BranchStarted)
                schedule = _checked_schedule(seq, event, schedule, rolls)

    # --- a season refereed by rinklog (Matrix Hockey) ---------------------------------------

    def _refereed_season(self, first: Any, system: SeasonSystem, season_of: Any) -> None:
        """Identity, index, lineage, dice and rules of a season system's stream: the
        referee runs again over the recorded picks and draws (engine/<system>/recheck.py).
        A season opened by ``close`` is held to the closed season before it when that
        season is in the same database (an export carries one season only)."""
        self.season_system = system.name
        if first.season_id != self.stream:
            raise AuditFailed("identity", 1, f"stream {first.season_id!r} ({type(first).__name__})",
                          f"stream {self.stream!r}", "stream identity")
        self._index()
        previous = getattr(season_of, "refereed", None)
        found = previous(first.previous) if previous is not None and first.previous else None
        if isinstance(found, str):
            raise AuditFailed("season", 1, f"season {first.previous!r} that passes the audit",
                          found, "season lineage")
        if found is not None:
            bad = system.check_lineage(found[0], found[1], first)
            if bad is not None:
                raise AuditFailed("season", bad.seq, bad.expected, bad.recorded, bad.rule)
        try:
            self.seeded, bad = system.check_dice(self.events)
            if bad is None:
                bad = system.recheck(self.events)
                check = "rules"
            else:
                check = "dice"
        except Exception as err:  # hash-valid but nonsensical events (a re-hashed forgery)
            raise AuditFailed("rules", 0, "events the referee can replay",
                          f"re-check stopped: {type(err).__name__}: {err}", "?") from None
        if bad is not None:
            raise AuditFailed(check, bad.seq, bad.expected, bad.recorded, bad.rule)

    # --- a season stream ---------------------------------------------------------------

    def _season_identity(self, created: SeasonCreated) -> None:
        if created.season_id != self.stream:
            raise AuditFailed("identity", 1, f"stream {created.season_id!r} (SeasonCreated)",
                          f"stream {self.stream!r}", "stream identity")
        found = audit_season.season_stream(self.events)
        if found is not None:
            raise AuditFailed(found.check, found.seq, found.expected, found.recorded, found.rule)
        if len(self.events) == 1:
            self.warnings.append(audit_season.BEFORE_RECORDS)

    def _season_blobs(self, created: SeasonCreated, blobs: BlobSource) -> None:
        for team, digest in sorted(created.team_hashes.items()):
            _blob(blobs, digest, CARD_MEDIA, f"the cards of {team}")
        _blob(blobs, created.charts_hash, CHART_MEDIA, "the season's charts")
        if created.league_hash is not UNSET:  # the league the season keeps (issue 34)
            content = _blob(blobs, created.league_hash, LEAGUE_MEDIA, "the season's league file")
            wrong = league_file_wrong(created, content)
            if wrong is not None:
                raise AuditFailed("blobs", 1, "the season's league file: a league.toml of "
                                  "the league and divisions SeasonCreated records", wrong,
                                  "season league file")

    # --- 10: the index ---------------------------------------------------------------

    def _index(self) -> None:
        assert self.record is not None
        first = self.events[0]
        system = _system_of_first(first)
        # an unknown ruleset has no system: the identity check reports the ruleset itself
        if system is not None and self.record.system != system:
            what = (f"ruleset {first.ruleset!r}" if isinstance(first, GameCreated)
                    else "a season" if isinstance(first, SeasonCreated)
                    else type(first).__name__)
            raise AuditFailed("index", 1, f"system {system!r} (the system of {what})",
                          f"system {self.record.system!r}",
                          "stream index (derived from the events)")
        index = stream_index(self.events)
        self.index = index.meta
        want = encode_meta(index.meta)
        if self.record.meta != want:
            raise AuditFailed("index", len(self.events), f"meta {want}", f"meta {self.record.meta}",
                          "stream index (derived from the events)")


_BRANCHES = Kinds(BranchStarted)


@functools.lru_cache(maxsize=16)
def _kinds(*classes: type) -> Kinds:
    """The :class:`Kinds` of ``classes``, one a system's roll event (kept across games)."""
    return Kinds(classes)


def _checked_schedule(seq: int, fork: BranchStarted, before: DiceSchedule, rolls: int) -> DiceSchedule:
    """A branch's dice schedule: it may change only the rolls after the fork."""
    schedule = [(int(start), seed) for start, seed in fork.dice_schedule]
    starts = [start for start, _ in schedule]
    if not schedule or starts[0] != 1 or starts != sorted(set(starts)):
        raise AuditFailed("dice", seq, "a dice schedule from roll 1, in order",
                      repr(fork.dice_schedule), "branch dice schedule")
    kept = [entry for entry in schedule if entry[0] <= rolls]
    if kept != [entry for entry in before if entry[0] <= rolls]:
        raise AuditFailed("dice", seq, f"the schedule of rolls 1..{rolls} unchanged: {before}",
                      repr(fork.dice_schedule), "branch dice schedule")
    return schedule


def _blob(blobs: BlobSource, digest: str, media: str, what: str) -> bytes:
    found = blobs.blob_record(digest)
    if found is None:
        raise AuditFailed("blobs", 1, f"{what} (blob {digest[:16]}…)", "no such blob",
                      "content hashes")
    content, media_type = found
    if blob_hash(content) != digest:
        raise AuditFailed("blobs", 1, f"{what}: content hashing to {digest[:16]}…",
                      f"content hashing to {blob_hash(content)[:16]}…", "content hashes")
    if media_type != media:
        raise AuditFailed("blobs", 1, f"{what}: media type {media}", media_type, "content hashes")
    return content


def _playoff_fields(season: SeasonCreated, system: GameSystem) -> dict[str, Any]:
    """The GameCreated fields a playoff game of ``season`` records its options in: the
    season's options and the ``playoff`` option, as ``rinklog playoffs`` creates it."""
    kit = kit_for_system(system.name)
    ruleset = ruleset_of_season(season)
    try:
        options = playoff_options(GameOptions.of_season(system, kit, season),
                                  system.rulesets[ruleset], kit)
    except RinklogError as err:
        raise AuditFailed("season", 1, "a ruleset with the playoff game option", str(err),
                      "R-post-OT") from None
    return {k: msgspec.to_builtins(v) for k, v in options.created_fields().items()}


def _playoff_fixture(created: GameCreated, ledger: SeasonLedger | None) -> Any:
    """The series game its season's bracket recorded for a playoff game (GameCreated
    number 0 under a playoff id, issue 22), or for a game started at the table not recorded
    yet the game its bracket has made ready; None for a regular-season game. Any other
    playoff game its season never recorded fails here (a database's simulated playoff games
    are stored with their record)."""
    if created.number != PLAYOFF_NUMBER or not is_playoff_game(created.season, created.game_id):
        return None
    record = ledger.series_games.get(created.game_id) if ledger is not None else None
    if record is None and ledger is not None and created.live \
            and created.game_id in ledger.started:
        # played at the table and not recorded by its series yet (being played, or ended
        # and waiting for rinklog playoffs to record it in its turn): the bracket's next
        # game of its series
        record = ledger.next_playoff_game(created.game_id)
    if record is None:
        raise AuditFailed("season", 1, f"a playoff game the bracket of {created.season} recorded",
                      f"{created.game_id} in no SeriesGameRecorded", "9")
    return record


def _season_system_of(first: Any) -> SeasonSystem | None:
    return next((s for s in SEASON_SYSTEMS.values() if isinstance(first, s.first_event)), None)


def _system_of_first(first: Any) -> str | None:
    """The system of a stream whose first event is ``first``: ``league`` for a season, the
    registry's system of a game's ruleset or of a refereed season (Matrix Hockey); None
    for an unknown ruleset or anything else."""
    season_system = _season_system_of(first)
    if season_system is not None:
        return season_system.name
    if isinstance(first, SeasonCreated):
        return LEAGUE
    if isinstance(first, GameCreated):
        try:
            return system_of(first.ruleset).name
        except RinklogError:
            return None
    return None


def stream_system(first: ChainRow, format: int) -> str | None:
    """The system a stream belongs to, found from its first stored row (a GameCreated or
    SeasonCreated, events every system shares) read in the stream's payload ``format``:
    what its ``streams.system`` must say. None when that row does not decode or names a
    ruleset no system plays."""
    try:
        return _system_of_first(decoder(_FIRST, format).decode(first.payload))
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError):
        pass
    for name, system in SEASON_SYSTEMS.items():
        try:
            decoder(system.first_event, format).decode(first.payload)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError):
            continue
        return name
    return None


def stream_decoder(first: ChainRow, format: int) -> Decoder:
    """The decoder of the stream's game system in its payload ``format``, the system found
    from its first event (see :func:`stream_system`); the first system's when that does not
    decode (the decode check then names the event). A season decodes with every system's
    events, so that anything after its SeasonCreated is reported as such."""
    system = stream_system(first, format)
    if system == LEAGUE:
        return decoder(ALL_EVENTS, format)
    if system in SEASON_SYSTEMS:
        return decoder(SEASON_SYSTEMS[system].event_type, format)
    game_system = SYSTEMS[system] if system is not None else next(iter(SYSTEMS.values()))
    return decoder(game_system.event_type, format)


def _inputs(created: GameCreated, blobs: BlobSource) -> tuple[Any, Any, Any]:
    system = system_of(created.ruleset)
    try:
        home = _decoded(_blob(blobs, created.home.card_hash, CARD_MEDIA, "the home cards"),
                        system.team_type)
        away = _decoded(_blob(blobs, created.away.card_hash, CARD_MEDIA, "the away cards"),
                        system.team_type)
        charts = _decoded(_blob(blobs, created.charts_hash, CHART_MEDIA, "the charts"),
                          system.charts_type)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as err:
        raise AuditFailed("blobs", 1, "cards and charts that decode", str(err),
                      "content hashes") from None
    return home, away, charts


@functools.lru_cache(maxsize=64)
def _decoded(content: bytes, model: type) -> Any:
    """Cards or charts decoded from their bytes. A season's games share its 32 teams and
    one chart pack: every game's blobs are still read and held to their hashes (:func:`_blob`),
    only the decoding of bytes already decoded is reused (keyed by the bytes themselves).
    The models are frozen and the rules never change them: a season plays all its games on
    one decode."""
    return msgspec.json.decode(content, type=model)
