"""Re-run a recorded game through the rules and find the first event that does not follow.

The stream's dice are fed back to ``decide``; every decision the rules make from the
state before it must equal the recorded one, byte for byte. Coach choices are not
re-decided but checked for legality (6.41, 15.00, 21.00).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import msgspec

from engine.bones.cards import Charts, Team
from engine.bones.game import IllegalChoice, check_choice, decide, evolve, initial_state
from engine.bones.state import GameState
from engine.dice import derive_roll
from events.base import Event
from events.bones import ShootoutOrderChosen, decoder
from events.common import DiceRolled, GameCreated, LinesChanged, TacticDeclared
from events.errors import RinklogError, UnknownGame
from events.store import GENESIS, EventStore, chain_hash, verify_chain

CHOICES = (LinesChanged, ShootoutOrderChosen, TacticDeclared)


@dataclass(frozen=True)
class Mismatch:
    seq: int
    expected: str
    recorded: str
    rule: str


@dataclass
class Refold:
    """A stream re-run through the rules: the state at its end, the first event that does
    not follow (``mismatch``), and, for a stream cut inside a decision, the events the
    rules still owe (``pending``, not applied to ``state``)."""

    state: GameState
    mismatch: Mismatch | None = None
    pending: list[Event] = field(default_factory=list)


def refold(events: Sequence[Event], home: Team, away: Team, charts: Charts) -> Refold:
    """Fold ``events`` by re-deciding every step from its recorded roll (the audit's
    check, and the way a stopped game is resumed)."""
    created = events[0]
    assert isinstance(created, GameCreated)
    state = initial_state(created, home, away, charts)
    i = 1
    while i < len(events):
        event = events[i]
        if isinstance(event, CHOICES):
            try:
                check_choice(state, event)
            except IllegalChoice as err:
                return Refold(state, Mismatch(i + 1, "a legal coach choice", str(err), "6.41"))
            evolve(state, event)
            i += 1
            continue
        if state.finished or not state.queue:
            return Refold(state, Mismatch(i + 1, "the end of the game", type(event).__name__,
                                          "6.00"))
        step = state.queue[0]
        roll = None
        if step.needs_roll:
            if not isinstance(event, DiceRolled) or event.n != state.rolls + 1:
                return Refold(state, Mismatch(i + 1, f"roll {state.rolls + 1} for {step.kind}",
                                              type(event).__name__, "3.00"))
            evolve(state, event)
            roll = event.roll
            i += 1
        expected = decide(state, roll)
        recorded = events[i:i + len(expected)]
        for offset, (want, got) in enumerate(zip(expected, recorded, strict=False)):
            if want != got:
                return Refold(state, Mismatch(i + offset + 1, repr(want), repr(got),
                                              getattr(want, "rule", "")))
        for want in recorded:
            evolve(state, want)
        if len(recorded) < len(expected):
            return Refold(state, pending=list(expected[len(recorded):]))
        i += len(expected)
    return Refold(state)


def recheck(events: list[Event], home: Team, away: Team, charts: Charts) -> Mismatch | None:
    """The first event (by seq, 1-based) the rules do not reproduce, or None."""
    result = refold(events, home, away, charts)
    if result.mismatch is not None:
        return result.mismatch
    if result.pending:
        return Mismatch(len(events) + 1, repr(result.pending[0]), "end of stream", "")
    if not result.state.finished:
        return Mismatch(len(events) + 1, "more events: the game is not over", "end of stream", "")
    return None


# --- the whole audit of a stored game ----------------------------------------------------

@dataclass(frozen=True)
class AuditFailure:
    """The first thing that does not check out: which check, where, what and which rule."""

    check: str  # "chain", "decode", "blobs", "dice", "rules"
    seq: int
    expected: str
    recorded: str
    rule: str

    def to_json(self) -> dict:
        return {"check": self.check, "seq": self.seq, "expected": self.expected,
                "recorded": self.recorded, "rule": self.rule}


@dataclass(frozen=True)
class AuditReport:
    game_id: str
    events: int
    head_hash: str
    seeded_rolls: int  # rolls checked against their seeded derivation
    failure: AuditFailure | None
    in_progress: bool = False

    @property
    def ok(self) -> bool:
        return self.failure is None

    def to_json(self) -> dict:
        return {"game_id": self.game_id, "ok": self.ok, "events": self.events,
                "head_hash": self.head_hash, "seeded_rolls": self.seeded_rolls,
                "in_progress": self.in_progress,
                "failure": self.failure.to_json() if self.failure else None}


def audit_events(rows: list, head_hash: str | None, meta: dict,
                 get_blob: Callable[[str], bytes], game_id: str = "") -> AuditReport:
    """Audit raw rows (``seq``, ``type``, ``payload``, ``prev_hash``, ``hash``).

    In order: the hash chain (against ``head_hash``), that every payload decodes as the
    type it is stored as, that the cards and charts blobs exist and match their hashes,
    that seeded rolls equal their derivation (following a branch's ``dice_schedule`` /
    ``reseed`` meta), and that every decision follows from the state and its rolls and
    every coach choice is legal (:func:`recheck`). A game whose meta has no ``decided``
    (a ``play`` game in progress) may stop before the end of the game.
    """
    from replay.session import dice_schedule, seed_for

    head = head_hash or ""
    count = len(rows)

    def report(failure: AuditFailure | None, seeded: int = 0) -> AuditReport:
        return AuditReport(game_id, count, head, seeded, failure, "decided" not in meta)

    bad = verify_chain(rows, expected_head=head_hash)
    if bad is not None:
        row = rows[bad - 1] if bad <= count else None
        if row is None:
            return report(AuditFailure("chain", bad, f"event {bad} (head {head[:16]}…)",
                                       "end of stream", "hash chain"))
        prev = rows[bad - 2].hash if bad >= 2 else GENESIS
        if row.seq != bad:
            what = f"seq {bad}", f"seq {row.seq} (an event removed or reordered)"
        elif row.prev_hash != prev:
            what = f"prev hash {prev[:16]}…", f"{row.prev_hash[:16]}… (removed or reordered)"
        else:
            what = (f"hash {chain_hash(prev, row.payload)[:16]}… of the stored payload",
                    f"{row.hash[:16]}… (the payload was changed)")
        return report(AuditFailure("chain", bad, what[0], what[1], "hash chain"))
    events: list[Event] = []
    for row in rows:
        try:
            event = decoder.decode(row.payload)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as err:
            return report(AuditFailure("decode", row.seq, f"a {row.type} event",
                                       f"undecodable payload ({err})", "event catalogue"))
        tag = type(event).__name__
        if tag != row.type:
            return report(AuditFailure("decode", row.seq, f"a {row.type} event", tag,
                                       "event catalogue"))
        events.append(event)
    if not events or not isinstance(events[0], GameCreated):
        return report(AuditFailure("decode", 1, "GameCreated",
                                   type(events[0]).__name__ if events else "no events",
                                   "event catalogue"))
    created = events[0]
    try:
        home = msgspec.json.decode(get_blob(created.home.card_hash), type=Team)
        away = msgspec.json.decode(get_blob(created.away.card_hash), type=Team)
        charts = msgspec.json.decode(get_blob(created.charts_hash), type=Charts)
    except (RinklogError, msgspec.DecodeError, msgspec.ValidationError, ValueError) as err:
        return report(AuditFailure("blobs", 1, "the cards and charts GameCreated names",
                                   str(err), "content hashes"))
    schedule = dice_schedule(created, meta)
    seeded = 0
    for seq, event in enumerate(events, start=1):
        if isinstance(event, DiceRolled):
            seed = seed_for(schedule, event.n)
            if seed is None:
                continue
            want = derive_roll(seed, created.game_id, event.n)
            seeded += 1
            if want != event.roll:
                return report(AuditFailure(
                    "dice", seq, f"roll {event.n} = {want} (seed {seed!r}, game "
                    f"{created.game_id})", str(event.roll), "3.00 seeded dice"), seeded)
    try:
        mismatch = recheck(events, home, away, charts)
    except Exception as err:  # hash-valid but nonsensical events (re-hashed forgery)
        mismatch = Mismatch(0, "events the rules can replay",
                            f"re-check stopped: {type(err).__name__}: {err}", "?")
    if mismatch is not None and not (
            "decided" not in meta and mismatch.seq == len(events) + 1
            and mismatch.recorded == "end of stream"):
        return report(AuditFailure("rules", mismatch.seq, mismatch.expected,
                                   mismatch.recorded, mismatch.rule or "?"), seeded)
    return report(None, seeded)


def audit_game(store: EventStore, game_id: str) -> AuditReport:
    """Audit one stored game; raw rows are read first so a tampered byte is a chain
    failure at its seq, never a decoding crash."""
    if not store.exists(game_id):
        raise UnknownGame(f"no game {game_id!r} in {store.path}")
    info = store.info(game_id)
    rows = store.read(game_id, decode=False)
    return audit_events(rows, info.head_hash, info.meta, store.get_blob, game_id)
