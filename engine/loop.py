"""The one game loop every game system's rules run through (docs/systems.md, "The one loop").

:func:`steps` plays from a state to the end of the game: at a coach window it asks the
coach for his choices, checks and applies each; at a step that waits for a choice it asks
the coach for that choice; at a rules step it rolls the dice (if the step needs a roll),
records the roll as the system's roll event, then ``decide``\\s and ``evolve``\\s. It
yields every batch of events as it is applied. ``sim``, ``play``, resume, ``branch`` and
the audit all drive it, each with its own dice source and coach.

What differs between systems is what the system supplies (:class:`LoopRules`): its rules,
its roll event, the next step's kind, the steps that roll no dice, the steps before which a
coach has a window and what he is asked there, and its choice steps. The loop itself reads
only the state's ``rolls`` (once, when it starts: it makes every roll event of the game
itself, and counts them), ``coach_window`` (before a window step), ``queue`` (its next step,
at a window's first ask of a kind and at a choice step) and ``game_id``.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, Protocol

from engine.dice import DiceSource, SeededDice
from events.base import Event
from events.errors import IllegalChoice, RinklogError

__all__ = ["Asker", "CollectorPaused", "LoopRules", "LoopState", "LoopStep", "RollEvent",
           "next_kind", "steps"]


class LoopStep(Protocol):
    """What the loop reads of a step in a state's queue."""

    @property
    def kind(self) -> str: ...
    @property
    def side(self) -> str: ...


class LoopState(Protocol):
    """What the loop reads of a game's state (each system's state has more)."""

    @property
    def finished(self) -> bool: ...  # read by :func:`next_kind`, a system's own reads it
    @property
    def queue(self) -> Sequence[Any]: ...  # LoopSteps; the next step first
    @property
    def rolls(self) -> int: ...  # the rolls so far (read once: only the loop rolls)
    @property
    def coach_window(self) -> bool: ...  # the coach may change things before the next roll
    @property
    def game_id(self) -> str: ...


class RollEvent(Protocol):
    """The event that records the n-th roll of a game, and what it was rolled for: made by
    position, its first three fields ``n``, ``roll`` and ``purpose`` in that order
    (:class:`engine.registration.GameSystem` checks it; a msgspec class matches each
    keyword by name, about 7,400 times in 18 games)."""

    def __call__(self, n: int, roll: Any, purpose: str, /) -> Event: ...


Asker = Callable[[Any], Iterable[Event]]
"""A coach's question at a window: ``(state) -> choices`` (``coach.lines``...)."""


class LoopRules(Protocol):
    """What a game system gives the loop (a :class:`engine.systems.GameSystem` is one)."""

    @property
    def decide(self) -> Callable[[Any, Any], list[Event]]: ...  # (state, roll or None)
    @property
    def evolve(self) -> Callable[[Any, Event], Any]: ...  # (state, event) -> state
    @property
    def check_choice(self) -> Callable[[Any, Event], None]: ...  # raises IllegalChoice
    @property
    def roll_event(self) -> RollEvent: ...
    # (state) -> the next step's kind, "" once the game has ended (see ``next_kind``)
    @property
    def next_kind(self) -> Callable[[Any], str]: ...
    @property
    def rollless_steps(self) -> frozenset[str]: ...  # the steps that roll no dice
    @property
    def window_steps(self) -> frozenset[str]: ...  # the steps a coach window comes before
    # (state's step, coach) -> the coach's questions at a window, asked in order (each sees
    # the state after the choices before it); they depend on the step's kind and the coach
    # alone: the loop asks once a kind a game
    @property
    def window_asks(self) -> Callable[[Any, Any], Sequence[Asker]]: ...
    @property
    def choice_rules(self) -> Mapping[str, str]: ...  # a step waiting for a choice -> rule
    # (state, step, coach) -> the choices a choice step waits for, to be checked
    @property
    def choose(self) -> Callable[[Any, Any, Any], list[Event]]: ...
    @property
    def max_steps(self) -> int: ...  # a guard against a game that never ends


def steps(rules: LoopRules, state: LoopState, dice: DiceSource, coach: object,
          coach_asked: bool = False) -> Iterator[list[Event]]:
    """Play from ``state`` to the end, one step at a time, yielding each batch of events
    as it is applied: the coach's choices at a window; the choice a step waits for; or a
    roll (its roll event) and the decisions it brings.

    ``coach_asked`` says the coach already had his say at the current step (a game resumed
    just after his choices were stored)."""
    # What the loop asks of the rules at every step, read once (a system's rules are
    # fixed for a game): a step then makes no attribute look-ups on the system.
    decide, evolve, roll_event = rules.decide, rules.evolve, rules.roll_event
    check_choice = rules.check_choice
    # The next step's kind from the system's compiled function of its state: one call a
    # step, not four generic look-ups through LoopState (``finished``, ``queue``, its
    # step's ``kind`` and ``needs_roll``: about 150 instructions each); a rolling step told
    # by its kind. The step itself is read only at a window's first ask and a choice step.
    next_kind = rules.next_kind
    # what each kind of step asks of the loop: one look-up a step, not three sets' (250)
    asks_of = _asks_of(rules.window_steps, frozenset(rules.choice_rules), rules.rollless_steps)
    # The coach's questions at a window, by the step's kind: asked of the rules once a
    # kind a game (they depend on the kind and the coach alone), not at every window
    # (a generic look-up of the coach's method, a bound method and a container each time:
    # about 600 instructions a window); a tuple a kind, walked natively.
    asks_at: dict[str, tuple[Asker, ...]] = {}
    # The rolls so far, read from the state once and then counted here: the loop makes
    # every roll event of the game (no rule, choice or coach rolls), and each read of
    # ``state.rolls`` is a generic attribute look-up (about 100 instructions a roll).
    rolls = state.rolls
    # Seeded dice (every simulated, season and odds game) called natively: a generic
    # ``dice.roll`` is a method look-up and a call through Python's calling convention
    # at every roll. Other sources (typed, recorded) as before.
    seeded = dice if type(dice) is SeededDice else None
    # (a named counter: compiled, ``_`` is an object, a number boxed at every step)
    for _taken in range(rules.max_steps):
        kind = next_kind(state)
        if not kind:
            return  # the game has ended
        asked_here = asks_of.get(kind, 0)
        if not coach_asked and asked_here & _WINDOW and state.coach_window:
            # made at his first choice: most windows' answers are empty (120 instructions)
            choices: list[Event] | None = None
            asks = asks_at.get(kind)
            if asks is None:
                asks = asks_at[kind] = tuple(rules.window_asks(_first(state.queue), coach))
            for ask in asks:
                # the coach's answer taken whole before any choice is applied; a list
                # (every system's coach) walked as it is, not copied
                answer = ask(state)
                asked = answer if type(answer) is list else list(answer)
                for choice in asked:
                    check_choice(state, choice)  # raises IllegalChoice
                    evolve(state, choice)
                    if choices is None:
                        choices = [choice]
                    else:
                        choices.append(choice)
            if choices is not None:
                yield choices
                kind = next_kind(state)  # the choices may have changed what comes next
                if not kind:
                    return
                asked_here = asks_of.get(kind, 0)
        coach_asked = False
        if asked_here & _CHOICE:
            yield _choose(rules, state, _first(state.queue), coach)
            continue
        batch: list[Event] = []
        roll = None
        if not asked_here & _NO_ROLL:
            rolls += 1
            n = rolls
            roll = seeded.roll(n) if seeded is not None else dice.roll(n)
            rolled = roll_event(n, roll, kind)  # by position: RollEvent
            evolve(state, rolled)
            batch.append(rolled)
        for event in decide(state, roll):
            evolve(state, event)
            batch.append(event)
        yield batch
    raise RinklogError(f"game {state.game_id} did not end within {rules.max_steps} steps")


# What a kind of step asks of the loop besides the rules' decision, as bits of one number:
# a coach window before it (``window_steps``), a choice it waits for (``choice_rules``), no
# roll (``rollless_steps``). A kind in none of them: a roll and the decision.
_WINDOW: Final = 1
_CHOICE: Final = 2
_NO_ROLL: Final = 4


def _asks_of(window_steps: frozenset[str], choice_steps: frozenset[str],
             rollless_steps: frozenset[str]) -> dict[str, int]:
    """Each kind of step a system names, with what it asks of the loop (its bits)."""
    asks: dict[str, int] = {}
    for kinds, bit in ((window_steps, _WINDOW), (choice_steps, _CHOICE),
                       (rollless_steps, _NO_ROLL)):
        for kind in kinds:
            asks[kind] = asks.get(kind, 0) | bit
    return asks


def next_kind(state: LoopState) -> str:
    """The next step's kind, "" once the game has ended, read through :class:`LoopState`:
    what a system that registers no compiled ``next_kind`` of its own is asked (each read a
    generic look-up)."""
    if state.finished:
        return ""
    kind: str = _first(state.queue).kind
    return kind


def _first(queue: Sequence[Any]) -> Any:
    """The next step of a queue: a tuple's (DICE Hockey's) or a list's (Hockey Bones')
    read natively; a Sequence's ``[0]`` is ``PyObject_GetItem`` with a boxed index (about
    100 instructions a step)."""
    if isinstance(queue, tuple):
        return queue[0]
    if isinstance(queue, list):
        return queue[0]
    return queue[0]


def _apply_choice(rules: LoopRules, state: LoopState, choice: Event) -> None:
    rules.check_choice(state, choice)
    rules.evolve(state, choice)


def _choose(rules: LoopRules, state: LoopState, step: LoopStep, coach: object) -> list[Event]:
    """A step that waits for the coach: his choices, checked and applied; none is an
    illegal choice (the rule that asks him is owed one)."""
    choices = rules.choose(state, step, coach)
    for choice in choices:
        _apply_choice(rules, state, choice)
    if not choices:
        raise IllegalChoice(f"{rules.choice_rules[step.kind]}: the coach made no choice at "
                            f"{step.kind.replace('_', ' ')} for {step.side or 'the game'}")
    return choices


class CollectorPaused:
    """``with CollectorPaused():`` around a game played or re-checked whole: Python's cyclic
    garbage collector is off inside, then as it was.

    The rules make no reference cycles (tests/test_loop_memory.py: a game of every system,
    played and re-checked with the collector off, leaves no cyclic garbage), so what a step
    makes is freed by reference counting when it is dropped. The collector's only work
    during a game is walking the game's live state again and again: every 700 new
    containers at the defaults, about 9% of a compiled Hockey Bones game's instructions
    (docs/benchmarks.md, round 3). A process's own setting stays its own: a collector
    already off stays off, and one on is on again after the game, whatever ended it (games
    played at once on threads, a Dask worker's, may find it on again before they end: they
    are only slower)."""

    def __init__(self) -> None:
        self.was_enabled = False

    def __enter__(self) -> None:
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.was_enabled:
            gc.enable()
