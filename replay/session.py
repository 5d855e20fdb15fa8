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
from pathlib import Path
from typing import Any, Protocol

from engine.bones.cards import Charts, Team
from engine.bones.coach import DefaultCoach
from engine.bones.game import check_choice, evolve, steps
from engine.bones.rulesets import find_ruleset
from engine.bones.state import GameState
from engine.dice import DiceSource, ManualDice, derive_roll
from events.base import Event, Roll
from events.bones import GoalScored, ShootoutOrderChosen
from events.common import DiceRolled, GameCreated, GameEnded, LinesChanged, TacticDeclared
from events.errors import RinklogError, RollError, StreamConflict
from events.store import EventStore, blob_hash
from replay import games as _games
from replay.audit import refold
from replay.games import CARD_MEDIA, CHART_MEDIA, load_inputs, read_game
from replay.library import default_charts, find_team

__all__ = [
    "Folded",
    "ScheduleDice",
    "branch_game",
    "continue_game",
    "dice_schedule",
    "fold",
    "new_live_game",
    "next_live_id",
]

MAX_STEPS = 200_000
CHOICES = (LinesChanged, ShootoutOrderChosen, TacticDeclared)
Commit = Callable[[list[Event]], None]


class Coach(Protocol):
    def lines(self, state: GameState) -> list[LinesChanged]: ...
    def shootout(self, state: GameState) -> ShootoutOrderChosen: ...


@dataclass
class Folded:
    """A stream folded to its end.

    ``pending`` are the events that complete a decision batch the stream stopped inside
    (not yet applied to ``state``); ``coach_done`` says the coach already chose at the
    current step boundary (the stream ends with coach choices), so he is not asked again.
    """

    created: GameCreated
    state: GameState
    events: int
    pending: list[Event] = field(default_factory=list)
    coach_done: bool = False
    pending_choices: list[Event] = field(default_factory=list)


def fold(events: Sequence[Event], home: Team, away: Team, charts: Charts,
         coach: Coach | None = None) -> Folded:
    """Fold ``events`` (a whole or cut stream) into the state to continue from.

    Raises RinklogError when the stream does not follow the rules (run ``audit``).
    """
    created = events[0]
    if not isinstance(created, GameCreated):
        raise RinklogError("a game stream must start with GameCreated")
    # Trailing coach choices at a step boundary: fold without them, ask the coach what he
    # would have proposed there, and keep the part of his proposal not recorded yet.
    k = len(events)
    while k > 1 and isinstance(events[k - 1], LinesChanged | TacticDeclared):
        k -= 1
    trailing = list(events[k:])
    folded = _fold_rules(created, events[:k], home, away, charts)
    state = folded.state
    if trailing and not folded.pending:
        proposal: list[Event] = []
        if coach is not None and state.queue and state.coach_window \
                and state.queue[0].kind in ("faceoff", "action"):
            proposal = list(coach.lines(state))
        for choice in trailing:
            check_choice(state, choice)
            evolve(state, choice)
        recorded_lines = [c for c in trailing if isinstance(c, LinesChanged)]
        if proposal[:len(recorded_lines)] == recorded_lines:
            folded.pending_choices = proposal[len(recorded_lines):]
        folded.coach_done = True
    elif trailing:  # cannot happen (a batch never ends in a choice); apply them plainly
        for choice in trailing:
            evolve(state, choice)
    folded.events = len(events)
    return folded


def _fold_rules(created: GameCreated, events: Sequence[Event], home: Team, away: Team,
                charts: Charts) -> Folded:
    result = refold(events, home, away, charts)
    if result.mismatch is not None:
        raise RinklogError(f"event {result.mismatch.seq} does not follow from the rules "
                           f"(rinklog audit names the rule)")
    return Folded(created, result.state, len(events), pending=result.pending)


def continue_game(folded: Folded, dice: DiceSource, coach: Any, commit: Commit) -> GameState:
    """Play from a folded stream to the end of the game.

    ``coach`` needs ``lines(state)`` and ``shootout(state)``; it may also have
    ``tactics(state) -> list[TacticDeclared]`` (asked at a stoppage before the face-off)
    and ``quit`` semantics of its own (raise to stop: everything committed is kept).
    Each step's events (choices, then the roll and its decisions) go to ``commit``.
    """
    state = folded.state
    if folded.pending:
        for event in folded.pending:
            evolve(state, event)
        commit(list(folded.pending))
    coach_done = folded.coach_done
    if folded.pending_choices:
        batch = []
        for choice in folded.pending_choices:
            check_choice(state, choice)
            evolve(state, choice)
            batch.append(choice)
        commit(batch)
    for batch in steps(state, dice, coach, coach_asked=coach_done):
        commit(batch)
    return state


# --- dice schedules ----------------------------------------------------------------------

def dice_schedule(created: GameCreated, meta: dict[str, Any]) -> list[tuple[int, str | None]]:
    """Which seed derives roll n: ``[(from_roll, seed or None for typed dice), ...]``.

    A game starts with its GameCreated seed; a branch records the whole schedule in its
    meta ``dice_schedule`` (and its own switch in ``reseed``). Rolls always derive with
    the GameCreated game id, so a branch with no new seed repeats its parent.
    """
    raw = meta.get("dice_schedule")
    if raw:
        return [(int(start), seed) for start, seed in raw]
    schedule: list[tuple[int, str | None]] = [
        (1, created.seed if created.dice == "seeded" else None)]
    reseed = meta.get("reseed")
    if isinstance(reseed, dict) and "from_roll" in reseed:
        schedule.append((int(reseed["from_roll"]), reseed.get("seed")))
    return schedule


def seed_for(schedule: list[tuple[int, str | None]], n: int) -> str | None:
    seed = None
    for start, value in schedule:
        if n >= start:
            seed = value
    return seed


class ScheduleDice:
    """Seeded dice following a schedule; rolls whose seed is None come from ``manual``."""

    def __init__(self, schedule: list[tuple[int, str | None]], game_id: str,
                 manual: DiceSource | None = None) -> None:
        self.schedule, self.game_id, self.manual = schedule, game_id, manual

    def roll(self, n: int) -> Roll:
        seed = seed_for(self.schedule, n)
        if seed is None:
            if self.manual is None:
                raise RollError(f"roll {n} needs typed dice: give --rolls FILE")
            return self.manual.roll(n)
        return derive_roll(seed, self.game_id, n)


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


def branch_game(store: EventStore, parent: str, at: int, *, seed: str | None = None,
                rolls: Sequence[str] | None = None, rolls_origin: str = "rolls",
                game_id: str | None = None) -> BranchResult:
    """A new stream sharing ``parent``'s events 1..at, played on to the end.

    With neither ``seed`` nor ``rolls`` the parent's dice schedule continues (a branch of
    a seeded game then repeats its parent exactly); ``seed`` switches to new seeded dice
    and ``rolls`` to typed ones from the first roll after the fork. The continuation is
    computed in memory first: on any error nothing is written.
    """
    events = read_game(store, parent)
    if not 1 <= at <= len(events):
        raise RinklogError(f"cannot branch {parent} at event {at}: it has {len(events)} events")
    if seed is not None and rolls is not None:
        raise RinklogError("give at most one of --seed S or --rolls FILE")
    info = store.info(parent)
    created = events[0]
    assert isinstance(created, GameCreated)
    home, away, charts = load_inputs(store, created)
    coach = DefaultCoach()
    folded = fold(events[:at], home, away, charts, coach)
    first_new = folded.state.rolls + 1
    schedule = dice_schedule(created, info.meta)
    if seed is not None or rolls is not None:
        schedule = [(s, v) for s, v in schedule if s < first_new]
        schedule.append((first_new, seed))
    manual = ManualDice(rolls, rolls_origin) if rolls is not None else None
    if manual is None and seed is None:
        # Typed dice of the parent carry on where the parent had them.
        recorded = [e.roll for e in events if isinstance(e, DiceRolled)]
        manual = _ListDice(recorded)
    dice = ScheduleDice(schedule, created.game_id, manual)
    new_events: list[Event] = []
    state = continue_game(folded, dice, coach, new_events.extend)
    end = new_events[-1] if new_events else events[at - 1]
    if not state.finished or not isinstance(end, GameEnded):
        raise RinklogError(f"the branch of {parent} at {at} did not reach the end of the game")
    child = game_id or _branch_id(store, parent)
    if store.exists(child):
        raise StreamConflict(f"game {child} is already in the database; pick another --game-id")
    meta: dict[str, Any] = {
        "home": info.meta.get("home", created.home.team_id),
        "away": info.meta.get("away", created.away.team_id),
        "ruleset": info.meta.get("ruleset", created.ruleset),
        "home_goals": end.home_goals, "away_goals": end.away_goals, "decided": end.decided,
        "dice_schedule": [[s, v] for s, v in schedule],
    }
    if seed is not None or rolls is not None:
        meta["reseed"] = {"seed": seed, "from_roll": first_new}
    elif "reseed" in info.meta:
        meta["reseed"] = info.meta["reseed"]
    store.copy_prefix(parent, child, at, meta=meta)
    version = store.append(child, new_events, expected_version=at)
    full = store.info(child)
    return BranchResult(child, parent, at, version, full.head_hash, end.home_goals,
                        end.away_goals, end.decided, full.meta)


class _ListDice:
    def __init__(self, rolls: list[Roll]) -> None:
        self.rolls = rolls

    def roll(self, n: int) -> Roll:
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

def next_live_id(store: EventStore, home: str, away: str) -> str:
    """``HOME-AWAY-liveN``, numbered as ``sim --rolls -`` numbers its games."""
    count = 1 + sum(1 for s in store.streams() if s.stream.startswith(f"{home}-{away}-live"))
    game_id = f"{home}-{away}-live{count}"
    while store.exists(game_id):
        count += 1
        game_id = f"{home}-{away}-live{count}"
    return game_id


def new_live_game(store: EventStore, home_id: str, away_id: str, *,
                  game_id: str | None = None, fixtures: str | Path | None = None,
                  ruleset: str = "bones", late_penalty_house_rule: bool = False) -> str:
    """Create a typed-dice game: its blobs and its GameCreated event; return its id."""
    home, away = find_team(home_id, fixtures), find_team(away_id, fixtures)
    if home.id == away.id:
        raise RinklogError(f"a team cannot play itself: {home.id}")
    charts = default_charts(fixtures)
    game_id = game_id or next_live_id(store, home.id, away.id)
    if store.exists(game_id):
        raise RinklogError(f"game {game_id} is already in the database; pick another --game-id")
    rules = find_ruleset(ruleset)
    canonical = _games._canonical
    home_bytes, away_bytes = canonical.encode(home), canonical.encode(away)
    chart_bytes = canonical.encode(charts)
    created = GameCreated(
        game_id=game_id, ruleset=rules.name, ruleset_version=rules.version,
        home=_games._sheet(home, blob_hash(home_bytes)),
        away=_games._sheet(away, blob_hash(away_bytes)),
        charts_hash=blob_hash(chart_bytes), dice="manual", seed=None,
        late_penalty_house_rule=late_penalty_house_rule,
    )
    store.put_blob(home_bytes, CARD_MEDIA)
    store.put_blob(away_bytes, CARD_MEDIA)
    store.put_blob(chart_bytes, CHART_MEDIA)
    store.append(game_id, [created], expected_version=0, kind="game",
                 meta={"home": home.id, "away": away.id, "ruleset": rules.name,
                       "home_goals": 0, "away_goals": 0, "live": True})
    return game_id


def store_committer(store: EventStore, game_id: str,
                    on_events: Callable[[list[Event]], None] | None = None) -> Commit:
    """A ``commit`` that appends each batch with its expected version and keeps the meta
    score current; ``decided`` is written with the GameEnded batch."""
    version = [store.version(game_id)]
    info = store.info(game_id)
    score = {"home": int(info.meta.get("home_goals") or 0),
             "away": int(info.meta.get("away_goals") or 0)}

    def commit(batch: list[Event]) -> None:
        if not batch:
            return
        meta: dict[str, Any] = {}
        for event in batch:
            if isinstance(event, GoalScored):
                score[event.side] += 1
                meta.update(home_goals=score["home"], away_goals=score["away"])
            if isinstance(event, GameEnded):
                meta.update(home_goals=event.home_goals, away_goals=event.away_goals,
                            decided=event.decided)
        version[0] = store.append(game_id, batch, expected_version=version[0], meta=meta or None)
        if on_events is not None:
            on_events(batch)

    return commit


def resume_point(store: EventStore, game_id: str, coach: Coach | None = None) -> Folded:
    """Fold a stored game for ``play --resume``."""
    events = read_game(store, game_id)
    created = events[0]
    assert isinstance(created, GameCreated)
    return fold(events, *load_inputs(store, created), coach)
