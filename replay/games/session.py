"""Resumable play: fold a stream to where it stopped and continue the game from there.

A stream may stop anywhere: at a step boundary (the next step has not started), inside
a decision batch (after a step's ``DiceRolled``, or part way through the events one
decision yields), or after some of a stoppage's coach choices. :func:`fold` re-runs the
stream through the rules (like the audit) and says which case it is; the rules are
deterministic, so a cut batch is completed by deciding again, never by asking for dice.
:func:`continue_game` then plays on to the end with a dice source and a coach, handing
each step's events to ``commit`` as one batch (the CLI appends each batch with its
expected version, so quitting keeps everything played so far).

Used by ``rinklog branch`` (continue a copy of a parent's prefix with the DefaultCoach)
and ``rinklog play`` (a person types the dice and answers the coach prompts).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.dice import DiceSchedule, DiceSource, ManualDice, seed_for
from engine.systems import system_of
from events.base import Event
from events.common import BranchStarted, GameCreated, GameEnded
from events.errors import RinklogError, RollError, StreamConflict
from events.plurals import counted
from events.store import EventStore
from projections.index import stream_index
from replay.games.game_setup import GameSetup
from replay.games.game_streams import (
    create_game,
    load_inputs,
    next_live_id,
    read_game,
    store_game,
)
from replay.games.refold import refold
from replay.systems import Prompter, kit_for

__all__ = [
    "Folded",
    "ScheduleDice",
    "branch_game",
    "continue_game",
    "dice_schedule",
    "fold",
    "new_live_game",
]

Commit = Callable[[list[Event]], None]


class Coach(Protocol):
    """What a game system's loop asks of a coach (the state is the system's)."""

    def lines(self, state: Any) -> list[Event]: ...
    def shootout(self, state: Any) -> Event: ...


@dataclass
class Folded:
    """A stream folded to its end by the system's loop (:func:`refold`).

    ``pending`` are the events that complete a batch the stream stopped inside, already
    applied to ``state`` and still to be stored; ``coach_done`` says the coach already
    chose at the current step boundary (the stream ends with coach choices), so he is not
    asked again.
    """

    created: GameCreated
    state: Any  # the game system's state
    events: int
    pending: list[Event] = field(default_factory=list)
    coach_done: bool = False


def fold(events: Sequence[Event], home: Any, away: Any, charts: Any,
         coach: Coach | None = None) -> Folded:
    """Fold ``events`` (a whole or cut stream) into the state to continue from; a batch
    of coach choices the stream stopped inside is completed by ``coach``'s proposal.

    Raises RinklogError when the stream does not follow the rules (run ``audit``).
    """
    created = events[0]
    if not isinstance(created, GameCreated):
        raise RinklogError("a game stream must start with GameCreated")
    result = refold(events, home, away, charts, then=coach)
    if result.mismatch is not None:
        raise RinklogError(f"event {result.mismatch.seq} does not follow from the rules "
                           f"(rinklog audit names the rule)")
    return Folded(created, result.state, len(events), result.pending, result.coach_done)


def continue_game(folded: Folded, dice: DiceSource, coach: Any, commit: Commit) -> Any:
    """Play from a folded stream to the end of the game, on the system's one loop.

    ``coach`` needs ``lines(state)`` and ``shootout(state)``; it may also have
    ``tactics(state) -> list of tactic choices`` (asked at a stoppage before the face-off)
    and ``quit`` semantics of its own (raise to stop: everything committed is kept).
    Each step's events (choices, then the roll and its decisions) go to ``commit``.
    """
    state = folded.state
    system = system_of(folded.created.ruleset)
    if folded.pending:
        commit(list(folded.pending))
    for batch in system.steps(state, dice, coach, coach_asked=folded.coach_done):
        commit(batch)
    return state


# --- dice schedules ----------------------------------------------------------------------

def dice_schedule(events: Sequence[Event]) -> DiceSchedule:
    """The dice schedule in force at the end of ``events``, from the chain alone.

    A game starts with its GameCreated seed (None for typed dice); each BranchStarted
    carries the whole schedule its branch plays on with. Rolls always derive with the
    GameCreated game id, so a branch with no new seed repeats its parent.
    """
    created = events[0]
    assert isinstance(created, GameCreated)
    schedule: DiceSchedule = [(1, created.seed if created.dice == "seeded" else None)]
    for event in events:
        if isinstance(event, BranchStarted):
            schedule = [(int(start), seed) for start, seed in event.dice_schedule]
    return schedule


class ScheduleDice:
    """Seeded dice following a schedule; rolls whose seed is None come from ``manual``."""

    def __init__(self, schedule: DiceSchedule, game_id: str,
                 derive: Callable[[str, str, int], Any],
                 manual: DiceSource | None = None) -> None:
        self.schedule, self.game_id, self.manual = schedule, game_id, manual
        self.derive = derive

    def roll(self, n: int) -> Any:
        seed = seed_for(self.schedule, n)
        if seed is None:
            if self.manual is None:
                raise RollError(f"roll {n} needs typed dice: give --rolls FILE")
            return self.manual.roll(n)
        return self.derive(seed, self.game_id, n)


# --- branch ------------------------------------------------------------------------------

@dataclass(frozen=True)
class BranchResult:
    game_id: str
    parent: str
    parent_seq: int
    events: int
    head_hash: str
    home_goals: int
    away_goals: int
    decided: str
    meta: dict[str, Any]
    reseed: dict[str, Any] | None = None  # {"seed", "from_roll"} when new dice were given
    choices: tuple[Event, ...] = ()  # --choice: the coach choices that replaced the parent's


class ForkCoach:
    """The coach of a branch that replaces the parent's coach decision at the fork: at
    the first coach prompt after it (a stoppage's line change or goalie, a tactic, the
    shootout order) the system's ``play`` prompt coach is asked, with ``answers`` typed
    for it (what a person would type there, in order; enter, the default coach's
    proposal, once they run out); every other decision is the default coach's. Each
    choice is checked by the rules in the loop (``check_choice``) and recorded as the
    coach-choice event it is, so the audit checks it like any other."""

    def __init__(self, ruleset: str, default: Any, answers: list[str], rolls: int) -> None:
        self.default, self.answers, self.rolls = default, list(answers), rolls
        self.refusal = ""  # the prompt's last word on an answer it would not take
        self.said = ""
        self.asked = False  # the fork's prompt was reached and answered
        self.choices: list[Event] = []
        self.prompt = kit_for(ruleset).prompt_coach(Prompter(self._ask, self._out))
        if hasattr(default, "tactics"):
            self.tactics = self._tactics

    def _ask(self, text: str) -> str:
        self.asked = True
        if not self.answers:
            return ""  # enter: as the prompt shows it
        self.refusal = self.said = ""  # judged afresh: a refused answer may be typed again
        return self.answers.pop(0)

    def _out(self, line: str) -> None:
        if self.asked and not self.said:
            self.said = line.strip()  # the prompt's first word on the last answer
        if line.lstrip().startswith(("not ", "no ", "start with")):  # the prompt refused
            self.refusal = line.strip()

    def _at_fork(self, state: Any) -> bool:
        """Still at the fork: no roll since it, and the answers not all used."""
        return state.rolls == self.rolls and (bool(self.answers) or not self.asked)

    def lines(self, state: Any) -> list[Event]:
        if not self._at_fork(state):
            return list(self.default.lines(state))
        chosen = list(self.prompt.lines(state))
        self.choices.extend(chosen)
        return chosen

    def _tactics(self, state: Any) -> list[Event]:
        if not (self._at_fork(state) and self.answers):
            return list(self.default.tactics(state))
        chosen = list(self.prompt.tactics(state))
        self.choices.extend(chosen)
        return chosen

    def shootout(self, state: Any) -> Event:
        if not self._at_fork(state):
            return self.default.shootout(state)
        chosen = self.prompt.shootout(state)
        self.choices.append(chosen)
        return chosen


def _parent_choices(events: Sequence[Event], at: int, choice_events: tuple[type, ...]
                    ) -> tuple[list[Event], int | None]:
    """The parent's coach choices right after event ``at`` and, when there are none, the
    seq of its next coach choice (where a branch may replace one)."""
    following = []
    for event in events[at:]:
        if not isinstance(event, choice_events):
            break
        following.append(event)
    after = next((i + 1 for i, e in enumerate(events) if i >= at
                  and isinstance(e, choice_events)), None)
    return following, after


def branch_game(store: EventStore, parent: str, at: int, *, seed: str | None = None,
                rolls: Sequence[str] | None = None, rolls_origin: str = "rolls",
                game_id: str | None = None, choice: str | None = None) -> BranchResult:
    """A new stream sharing ``parent``'s events 1..at, then a BranchStarted event (its
    lineage and dice, inside the chain), played on to the end.

    With neither ``seed`` nor ``rolls`` the parent's dice schedule continues (a branch of
    a seeded game then repeats its parent's events after the BranchStarted); ``seed``
    switches to new seeded dice and ``rolls`` to typed ones from the first roll after the
    fork. ``choice`` replaces the parent's coach decision right after event ``at``: the
    answers (``;`` between them) a person would type at ``play``'s coach prompt there,
    e.g. ``home C=Roy`` or ``away G=ID`` (Hockey Bones), ``pull home`` or ``lines away
    2 1`` (DICE Hockey); the rules check it, and a choice they refuse, or one that is the
    parent's own, is refused in one line. The continuation is computed in memory first:
    on any error nothing is written.
    """
    events = read_game(store, parent)
    if not 1 <= at <= len(events):
        raise RinklogError(f"cannot branch {parent} at event {at}: it has {counted(len(events), 'event')}")
    if seed is not None and rolls is not None:
        raise RinklogError("give at most one of --seed S or --rolls FILE")
    created = events[0]
    assert isinstance(created, GameCreated)
    child = game_id or _branch_id(store, parent)
    if store.exists(child):
        raise StreamConflict(f"game {child} is already in the database; pick another --game-id")
    home, away, charts = load_inputs(store, created)
    system = system_of(created.ruleset)
    coach = system.default_coach()
    folded = fold(events[:at], home, away, charts, coach)
    fork_coach = None
    if choice is not None:
        answers = [a.strip() for a in choice.split(";")]
        if not any(answers):
            raise RinklogError("--choice needs what to type at the coach prompt, e.g. "
                               "'home C=ID' or 'pull home'")
        fork_coach = ForkCoach(created.ruleset, coach, answers, folded.state.rolls)
        coach = fork_coach
    first_new = folded.state.rolls + 1
    schedule = dice_schedule(events)  # the parent's, whole: without a new seed it repeats
    reseed = None
    if seed is not None or rolls is not None:
        schedule = [(s, v) for s, v in schedule if s < first_new] + [(first_new, seed)]
        reseed = {"seed": seed, "from_roll": first_new}
    manual = ManualDice(rolls, rolls_origin, system.parse_roll) if rolls is not None else None
    if manual is None and seed is None:
        # Typed dice of the parent carry on where the parent had them.
        recorded = [e.roll for e in events if isinstance(e, system.roll_event)]
        manual = _ListDice(recorded)
    dice = ScheduleDice(schedule, created.game_id, system.derive_roll, manual)
    fork = BranchStarted(branch_id=child, parent=parent, parent_seq=at,
                         parent_head=store.read(parent, at, at, decode=False)[0].hash,
                         dice_schedule=schedule)
    new_events: list[Event] = [fork]
    state = continue_game(folded, dice, coach, new_events.extend)
    if fork_coach is not None:
        _check_fork(fork_coach, events, at, system.choice_events, choice or "")
    whole = [*events[:at], *new_events]
    end = next(e for e in reversed(whole) if not isinstance(e, BranchStarted))
    if not state.finished or not isinstance(end, GameEnded):
        raise RinklogError(f"the branch of {parent} at {at} did not reach the end of the game")
    meta = stream_index(whole).meta
    store.copy_prefix(parent, child, at, meta=meta)
    version = store.append(child, new_events, expected_version=at)
    return BranchResult(child, parent, at, version, store.head_hash(child), end.home_goals,
                        end.away_goals, end.decided, meta, reseed,
                        tuple(fork_coach.choices) if fork_coach is not None else ())


def _check_fork(coach: ForkCoach, events: Sequence[Event], at: int,
                choice_events: tuple[type, ...], choice: str) -> None:
    """The replacement took: the fork was at a coach prompt, every answer was used, and
    the choices differ from the parent's there (one line saying why not)."""
    parent, nxt = _parent_choices(events, at, choice_events)
    if not coach.asked:
        where = (f"its next coach choice is event {nxt}: try branch --at {nxt - 1}"
                 if nxt is not None else "it has no coach choice after it")
        raise RinklogError(f"no coach decision right after event {at} of "
                           f"{events[0].game_id}: {where}")  # type: ignore[attr-defined]
    if coach.answers:
        raise RinklogError(f"--choice {choice!r}: not all of it was asked for at the coach "
                           f"prompt after event {at}"
                           + (f" ({coach.refusal})" if coach.refusal else ""))
    if coach.refusal or coach.choices == parent:
        why = coach.refusal or coach.said or "it is the parent's own decision there"
        raise RinklogError(f"--choice {choice!r} refused at event {at}: {why}")


class _ListDice:
    def __init__(self, rolls: list[Any]) -> None:
        self.rolls = rolls

    def roll(self, n: int) -> Any:
        if n > len(self.rolls):
            raise RollError(f"the parent's typed dice end at roll {len(self.rolls)}: "
                            "give --seed S or --rolls FILE")
        return self.rolls[n - 1]


def _branch_id(store: EventStore, parent: str) -> str:
    n = 1
    while store.exists(f"{parent}-b{n}"):
        n += 1
    return f"{parent}-b{n}"


# --- live play ---------------------------------------------------------------------------

def new_live_game(store: EventStore, setup: GameSetup, *, game_id: str | None = None) -> str:
    """Create a typed-dice game played at the table from a one game's setup (``live`` in
    its GameCreated, so it may stop and resume): its blobs and its first event; return
    its id."""
    home, away = setup.matchup()
    game_id = game_id or next_live_id(store, home.id, away.id)
    if store.exists(game_id):
        raise RinklogError(f"game {game_id} is already in the database; pick another --game-id")
    game = create_game(setup, home, away, game_id=game_id, live=True)
    store_game(store, game_id, game, setup.system)
    return game_id


def store_committer(store: EventStore, game_id: str,
                    on_events: Callable[[list[Event]], None] | None = None) -> Commit:
    """A ``commit`` that appends each batch with its expected version and keeps the
    stream index (score, ``decided``) folded from the events as they come. A season's
    table game is played with replay/leagues/ledger.py's ``table_committer`` instead,
    which also records it in its season as it ends."""
    index = stream_index(read_game(store, game_id))
    version = [store.version(game_id)]

    def commit(batch: list[Event]) -> None:
        if not batch:
            return
        meta: dict[str, Any] = {}
        for event in batch:
            meta.update(index.add(event))
        version[0] = store.append(game_id, batch, expected_version=version[0], meta=meta or None)
        if on_events is not None:
            on_events(batch)

    return commit


def resume_point(store: EventStore, game_id: str) -> Folded:
    """Fold a stored game for ``play --resume`` (a batch of coach choices it stopped
    inside is completed as its system's default coach proposes)."""
    events = read_game(store, game_id)
    created = events[0]
    assert isinstance(created, GameCreated)
    return fold(events, *load_inputs(store, created),
                system_of(created.ruleset).default_coach())
