"""Re-run a recorded game through its system's one engine loop and find the first event
that does not follow.

The audit, resume and branch drive the same ``steps`` loop that sim and play drive, only
fed from the stream itself: :class:`CursorDice` hands the loop the recorded rolls and
:class:`RecordedCoach` the recorded coach choices, and every batch the loop yields must
equal the stream's next events, byte for byte. The rules re-decide every decision; coach
choices are not re-decided but the loop checks them for legality as it does in play
(Hockey Bones 6.41, 15.00, 21.00).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.loop import CollectorPaused
from engine.systems import SEASON_SYSTEMS, GameSystem, system_of
from events.base import Event, tag_of
from events.common import BranchStarted, GameCreated, GameEnded
from events.errors import IllegalChoice
from events.league import GAME_NOTES
from events.store import EventStore
from projections.store import stored_differences
from replay.games.game_streams import load_inputs, read_game, read_stream
from replay.games.scan import Kinds


@dataclass(frozen=True)
class Mismatch:
    seq: int
    expected: str
    recorded: str
    rule: str


@dataclass
class Refold:
    """A stream re-run through the rules: the state at its end, the first event that does
    not follow (``mismatch``), and, for a stream cut inside a batch, the events the rules
    (or the ``then`` coach) still owe: ``pending``, already applied to ``state``.
    ``coach_done`` says the stream ends with the coach's choices at a step boundary, so
    the coach is not asked again there."""

    state: Any  # the system's game state
    mismatch: Mismatch | None = None
    pending: list[Event] = field(default_factory=list)
    coach_done: bool = False


def refold(events: Sequence[Event], home: Any, away: Any, charts: Any,
           then: Any = None, coach: Any = None) -> Refold:
    """Fold ``events`` by running the system's loop on their recorded rolls and choices
    (the audit's check, and the way a stopped game is resumed or branched).

    ``then`` is the coach a cut stream continues with: when the stream ends part way
    through a batch of coach choices, his proposal completes it (its recorded part must
    be his proposal's start). A branch's lineage events (BranchStarted) and the notes a
    game carries after its GameCreated (the season it pins, its coach's habits:
    :data:`events.league.GAME_NOTES`) are not rules: they are passed over, and a mismatch
    is reported at its seq in ``events``.

    ``coach`` (a simulated game's default coach, with the habits the game records) makes
    the choices instead of the stream: each recorded choice must then be his, byte for
    byte, as every rule's event is the rules' (the audit of a simulated game).
    """
    forks = _NOT_RULES.seqs(events)
    if not forks:
        with CollectorPaused():  # the rules make no cycles: engine.loop.CollectorPaused
            return _refold(events, home, away, charts, then, coach)
    kept: list[Event] = []  # the events between them, a slice at a time (one pass above)
    after = 0
    for fork in forks:
        kept += events[after:fork - 1]
        after = fork
    kept += events[after:]
    with CollectorPaused():
        result = _refold(kept, home, away, charts, then, coach)
    if result.mismatch is not None:
        seq = result.mismatch.seq
        for fork in forks:
            if seq >= fork:
                seq += 1
        result.mismatch = Mismatch(seq, result.mismatch.expected, result.mismatch.recorded,
                                   result.mismatch.rule)
    return result


_NOT_RULES = Kinds((BranchStarted, *GAME_NOTES))


class _StreamEnd(Exception):
    """The loop asks for a roll or a choice after the last recorded event."""


class _Diverged(Exception):
    """The loop asks for a roll or a choice where the stream records something else."""

    def __init__(self, expected: str, rule: str = "") -> None:
        super().__init__(expected)
        self.expected, self.rule = expected, rule


class _Recording:
    """The stream as the loop reads it: ``cursor`` is the index of the next event not yet
    matched with a batch the loop yielded."""

    def __init__(self, events: Sequence[Event], system: GameSystem) -> None:
        self.events, self.system, self.cursor = events, system, 1

    def at_end(self) -> bool:
        return self.cursor >= len(self.events)

    def next_event(self) -> Event:
        if self.at_end():
            raise _StreamEnd
        return self.events[self.cursor]


class CursorDice:
    """The loop's dice: the roll event at the refold's cursor, where the loop rolls (not
    :class:`engine.dice.RecordedDice`, a list of rolls: this one diverges on any other event)."""

    def __init__(self, recording: _Recording) -> None:
        self.recording = recording

    def roll(self, n: int) -> Any:
        rec = self.recording
        event = rec.next_event()
        if not isinstance(event, rec.system.roll_event):
            raise _Diverged(f"roll {n}")
        return event.roll  # a wrong n or purpose shows when the batch is compared


class RecordedCoach:
    """The loop's coach: the choices the stream records where the loop asks for them.

    At a window the coach is given every consecutive stoppage choice at the cursor (the
    loop checks each for legality); at a choice step, the one choice recorded there.
    When recorded choices run to the end of the stream, the ``then`` coach's proposal at
    the same moment completes the batch, if the recorded ones are its start.
    """

    def __init__(self, recording: _Recording, then: Any = None) -> None:
        self.recording, self.then = recording, then

    def lines(self, state: Any) -> list[Event]:
        rec = self.recording
        if rec.at_end():
            raise _StreamEnd
        end = rec.cursor
        while end < len(rec.events) and isinstance(rec.events[end], rec.system.stoppage_choices):
            end += 1
        recorded = list(rec.events[rec.cursor:end])
        if recorded and end == len(rec.events) and self.then is not None:
            proposal = list(self.then.lines(state))
            if proposal[:len(recorded)] == recorded:
                return proposal
        return recorded

    def tactics(self, state: Any) -> list[Event]:
        return []  # ``lines`` already handed over every stoppage choice at the cursor

    def shootout(self, state: Any) -> Event:
        event = self.recording.next_event()
        if not isinstance(event, self.recording.system.choice_events) \
                or isinstance(event, self.recording.system.stoppage_choices):
            raise _Diverged("the coach's choice owed at this step")
        return event


def _refold(events: Sequence[Event], home: Any, away: Any, charts: Any, then: Any,
            coach: Any = None) -> Refold:
    created = events[0]
    assert isinstance(created, GameCreated)
    system = system_of(created.ruleset)
    state = system.initial_state(created, home, away, charts)
    rec = _Recording(events, system)
    loop = system.steps(state, CursorDice(rec),
                        coach if coach is not None else RecordedCoach(rec, then))
    last_was_choice = False
    while True:
        start = rec.cursor
        try:
            batch = next(loop)
        except StopIteration:
            break
        except _StreamEnd:
            return Refold(state, coach_done=last_was_choice)
        except _Diverged as err:
            return Refold(state, Mismatch(start + 1, err.expected,
                                          type(events[start]).__name__, err.rule))
        except IllegalChoice as err:
            choice = events[start] if start < len(events) else None
            return Refold(state, Mismatch(start + 1, "a legal coach choice", str(err),
                                          getattr(choice, "rule", "")))
        recorded = events[start:start + len(batch)]
        # Compared as lists first (event by event, in C); only a batch that differs, or
        # one the stream ends inside, is walked to find its first differing event.
        if batch != recorded:
            for offset, (want, got) in enumerate(zip(batch, recorded, strict=False)):
                if want != got:
                    expected, recorded = differing_fields(want, got)
                    return Refold(state, Mismatch(start + offset + 1, expected, recorded,
                                                  getattr(want, "rule", "")))
        rec.cursor += len(recorded)
        last_was_choice = bool(batch) and isinstance(batch[0], system.stoppage_choices)
        if len(recorded) < len(batch):
            return Refold(state, pending=list(batch[len(recorded):]),
                          coach_done=last_was_choice)
    if not rec.at_end():
        return Refold(state, Mismatch(rec.cursor + 1, "the end of the game",
                                      type(events[rec.cursor]).__name__, ""))
    return Refold(state)


def differing_fields(want: Event, got: Event) -> tuple[str, str]:
    """What the rules give and what the stream holds where two events differ: the fields
    that differ, each named with both values (``GoalScored.scorer = 'HFX-12'``), or the two
    event types when they are not of one type."""
    if type(want) is not type(got):
        return f"a {tag_of(type(want))} event", f"a {tag_of(type(got))} event"
    label = tag_of(type(want))
    names = [n for n in want.__struct_fields__ if getattr(want, n) != getattr(got, n)]
    return ("; ".join(f"{label}.{n} = {getattr(want, n)!r}" for n in names),
            "; ".join(f"{label}.{n} = {getattr(got, n)!r}" for n in names))


def recheck(events: list[Event], home: Any, away: Any, charts: Any,
            coach: Any = None) -> Mismatch | None:
    """The first event (by seq, 1-based) the rules (and ``coach``, if given: the default
    coach a simulated game re-derives its choices from) do not reproduce, or None."""
    result = refold(events, home, away, charts, coach=coach)
    if result.mismatch is not None:
        return result.mismatch
    if result.pending:
        return Mismatch(len(events) + 1, repr(result.pending[0]), "end of stream", "")
    if not result.state.finished:
        return Mismatch(len(events) + 1, "more events: the game is not over", "end of stream", "")
    return None


@dataclass(frozen=True)
class Rerun:
    """``rinklog replay``'s answer: a game re-run through the rules, its read models
    rebuilt and compared with the stored ones (read-only)."""

    game_id: str
    events: int
    mismatch: Mismatch | None
    differences: list[str] | None  # None: no read models stored as of the last event
    state: dict[str, Any]  # the system's summary of the final state
    teams: tuple[str, str]
    decided: str | None

    def to_json(self) -> dict[str, Any]:
        m = self.mismatch
        head = {"game_id": self.game_id, "events": self.events,
                "rules": "ok" if m is None else f"seq {m.seq}: {m.expected}",
                "projections": ("not stored" if self.differences is None
                                else self.differences or "identical")}
        where = {k: self.state[k] for k in ("finished", "period", "sequence")}
        rest = {k: v for k, v in self.state.items() if k not in where and k != "score"}
        return {**head, **where, "score": self.state["score"], "decided": self.decided,
                **rest}


def rerun(store: EventStore, game_id: str) -> Rerun:
    """Re-run a stored game through its system's loop and compare its stored read models
    with a rebuild; writes nothing."""
    events = read_game(store, game_id)
    created = events[0]
    assert isinstance(created, GameCreated)
    result = refold(events, *load_inputs(store, created))
    system = system_of(created.ruleset)
    ended = events[-1] if isinstance(events[-1], GameEnded) else None
    summary = system.summary(result.state)
    if ended is not None:  # GameEnded holds the final score (a shootout's winner gets one)
        summary["score"] = {"home": ended.home_goals, "away": ended.away_goals}
    return Rerun(game_id, len(events), result.mismatch,
                 stored_differences(store, game_id, events), summary,
                 (created.home.team_id, created.away.team_id),
                 ended.decided if ended is not None else None)


@dataclass(frozen=True)
class SeasonRerun:
    """A refereed season (Matrix Hockey) re-run: the first event the referee does not
    decide again (``mismatch``), and the season's summary."""

    season_id: str
    events: int
    mismatch: Any
    summary: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        m = self.mismatch
        return {"game_id": self.season_id, "events": self.events,
                "rules": "ok" if m is None else f"differs at event {m.seq}",
                "mismatch": None if m is None else {"seq": m.seq, "expected": m.expected,
                                                    "recorded": m.recorded, "rule": m.rule},
                "state": self.summary}


def rerun_season(store: EventStore, season_id: str) -> SeasonRerun:
    """Re-run a refereed season's stream through its referee; writes nothing."""
    events = read_stream(store, season_id)
    system = SEASON_SYSTEMS[store.info(season_id).system]
    mismatch = system.recheck(events)
    state = system.initial_state(events[0])
    for event in events[1:]:
        system.evolve(state, event)
    return SeasonRerun(season_id, len(events), mismatch, system.summary(state))
