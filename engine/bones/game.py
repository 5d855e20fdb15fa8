"""The Hockey Bones decider: ``decide(state, roll) -> events`` and ``evolve(state, event)``.

``decide`` looks at the next step in ``state.queue`` and hands it, with its roll, to the
module of that rule area. ``evolve`` applies one event to the state in place and returns
it (like ``chess.Board.push``); folding a stream's events from ``initial_state`` rebuilds
any moment of the game. The one game loop (engine/loop.py) runs them, with what
engine/bones/system.py tells it of the coach's windows and choices.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, cast

import msgspec

from engine.bones import (
    actions,
    arc,
    faceoffs,
    goalies,
    injuries,
    penalties,
    periods,
    scoring,
    shots,
    stoppages,
    timing,
)
from engine.bones.cards import Charts, Goalie, Team
from engine.bones.lines import check_change
from engine.bones.rulesets import (
    DRAFT_LEAGUE,
    OPTIONAL_RULES,
    PLAYOFF,
    UNUSED_IN_DRAFT_LEAGUES,
    Citations,
    Ruleset,
    find_ruleset,
)
from engine.bones.state import (
    CHOICE_STEPS,
    TACTIC_OPTIONS,
    TACTIC_RULES,
    GameState,
    PlayerStatus,
    SequenceCount,
    Step,
    TeamState,
)
from events import bones as ev
from events.base import Event
from events.bones import DiceRolled, LinesChanged, Roll, TacticDeclared
from events.common import GameCreated, GameEnded, PeriodEnded, PeriodStarted
from events.errors import IllegalChoice

MAX_STEPS: Final = 200_000  # the loop's guard: a real game takes a few thousand steps
Decider = Callable[[GameState, Step, Roll], list]

DECIDERS: Final[dict[str, Decider]] = {
    "faceoff": faceoffs.decide_faceoff,
    "action": actions.decide_action,
    "shot": shots.decide_shot,
    "goalie": goalies.decide_goalie,
    "rebound_lower": goalies.decide_rebound_lower,
    "clearing": goalies.decide_clearing,
    "ps_red": goalies.decide_penalty_shot_red,
    "time": scoring.decide_exact_time,
    "assists": scoring.decide_assists,
    "goalie_assist": scoring.decide_goalie_assist,
    "assist_ranks": scoring.decide_assist_ranks,
    "penalty": penalties.decide_penalty,
    "retaliation": penalties.decide_retaliation,
    "gm_pick": penalties.decide_retaliation,
    "special": penalties.decide_special,
    "misconduct": penalties.decide_misconduct,
    "gm_check": penalties.decide_game_misconduct,
    "goalie_gm": penalties.decide_game_misconduct,
    "delayed": penalties.decide_delayed,
    "assess": penalties.decide_assess,
    "bench": penalties.decide_bench_check,
    "bench_time": penalties.decide_bench_time,
    "injury": injuries.decide_injury,
    "stop": stoppages.decide_stop,
    "start_period": periods.decide_start_period,
    "end_period": periods.decide_end_period,
    "end_game": periods.decide_end_game,
    "shootout": periods.decide_shootout,
    "arc": arc.decide_arc,
    "arc_rest": arc.decide_arc_rest,
}


def next_kind(state: GameState) -> str:
    """The next step's kind (``queue[0]``), "" once the game has ended: what the one loop
    (engine/loop.py) asks at every step, read here where the state's type is known (its
    reads native; the shared loop's, through ``engine.loop.LoopState``, were generic
    attribute look-ups of about 150 instructions each)."""
    if state.finished:
        return ""
    return state.queue[0].kind


def decide(state: GameState, roll: Roll | None) -> list[Event]:
    """The events that the next step, with its roll (None for rollless steps), yields."""
    step = state.queue[0]
    # The four most frequent steps (four decisions in five) called directly: compiled, a
    # decider read from ``DECIDERS`` is called through Python's calling convention. A
    # choice step is none of them: it is looked for among the others only (a set's
    # look-up at every decision, about 85 instructions).
    kind = step.kind
    dice = cast(Roll, roll)
    if kind == "action":
        events = actions.decide_action(state, step, dice)
    elif kind == "faceoff":
        events = faceoffs.decide_faceoff(state, step, dice)
    elif kind == "shot":
        events = shots.decide_shot(state, step, dice)
    elif kind == "goalie":
        events = goalies.decide_goalie(state, step, dice)
    else:
        if kind in CHOICE_STEPS:
            raise IllegalChoice(f"{CHOICE_RULES[kind]}: a coach's choice is owed here "
                                f"({kind}), not a rules decision")
        events = DECIDERS[kind](state, step, roll)
    citations = state.citations()  # a native read a decision (the ruleset's fields are not)
    if not citations.cites:
        return events
    # The events made with their texts cited (``_cited_when_made``: an action, a face-off, a
    # pass or interception, a shot, a goalie's result; eight in ten of those a FaceOff
    # game cites) are passed over here, their fields not read again.
    return _cite(citations, events, True)


def cite_events(ruleset: Ruleset, events: list[Event]) -> list[Event]:
    """The events with their ``rule`` (and modifier texts) in the ruleset's own section
    numbers: the rules code names Hockey Bones sections (FaceOff's timing is 5.xx, its
    bench penalties 6.00). Hockey Bones events pass through untouched."""
    citations = Citations(ruleset)
    return _cite(citations, events) if citations.cites else events


def _cite(citations: Citations, events: list[Event], made_cited: bool = False
          ) -> list[Event]:
    """``cite_events`` for a ruleset that cites. Each text is read from the ruleset's table
    (``Citations.cite`` fills it on a miss); an event is replaced, and the list copied,
    only when one of its texts changes (a few hundred events of 23,400 in 18 games).
    ``made_cited``: the events come from the rules' deciders, which make the classes of
    ``_cited_when_made`` with their texts cited (passed over)."""
    table = citations.table
    cited: list[Event] | None = None
    for i in range(len(events)):
        event = events[i]
        kind = type(event)
        fields = _texts_left(kind) if made_cited else _texts_of(kind)
        if fields == NOTHING_CITED:
            continue
        new_rule: str | None = None
        if fields & RULE_CITED:
            rule = event.rule  # type: ignore[attr-defined]
            if isinstance(rule, str):
                cited_rule = table.get(rule)
                if cited_rule is None:
                    cited_rule = citations.cite(rule)
                if cited_rule != rule:
                    new_rule = cited_rule
        new_mods = citations.cite_texts(event.modifiers) \
            if fields & MODIFIERS_CITED else None  # type: ignore[attr-defined]
        if new_rule is None and new_mods is None:
            continue
        if cited is None:
            cited = list(events)
        changes: dict[str, object] = {}
        if new_rule is not None:
            changes["rule"] = new_rule
        if new_mods is not None:
            changes["modifiers"] = new_mods
        cited[i] = msgspec.structs.replace(event, **changes)
    return events if cited is None else cited


# Which of its texts an event type carries, found once a type (bit flags: compiled, an
# int is kept unboxed; the tuple of two bools it was had to be unpacked at every event):
# an event's fields are read by name only when it has them (a getattr with a default
# raises and catches an AttributeError for every event without one).
NOTHING_CITED: Final = 0
RULE_CITED: Final = 1
MODIFIERS_CITED: Final = 2
_CITED_FIELDS: Final[dict[type, int]] = {}


def _texts_of(kind: type) -> int:
    """Which texts an event of ``kind`` carries (``RULE_CITED``, ``MODIFIERS_CITED``).
    The eight classes of nine events in ten a FaceOff game cites (an action, a sequence,
    a pass or interception, a shot, a face-off, a goalie's result, a stoppage) told by
    identity (each a C static compared, about 130 instructions less than the dict's
    look-up); tests/bones/test_faceoff2008.py holds these answers to ``_cited_fields``."""
    if kind is _ACTION:
        return RULE_CITED | MODIFIERS_CITED
    if kind is _SEQUENCE or kind is _STOPPED:
        return NOTHING_CITED
    if kind is _INTERCEPTED or kind is _SHOT or kind is _FACEOFF or kind is _GOALIE \
            or kind is _PASSED:
        return RULE_CITED
    fields = _CITED_FIELDS.get(kind)
    return _cited_fields(kind) if fields is None else fields


# The events the deciders make with their texts already cited (``GameState.cite``,
# actions._cited), which ``decide`` passes over: citing one again could cite a FaceOff
# section number as though it were Hockey Bones'. Every maker of these classes in
# engine/bones cites (faceoffs, passing, shots, goalies, penalties' 14.60 interception,
# actions); tests/bones/test_games.py's FaceOff snapshots and the engine digests
# (tests/engine_digest.py) hold the cited texts a game stores.
def _cited_when_made(kind: type) -> bool:
    return kind is _ACTION or kind is _FACEOFF or kind is _PASSED or kind is _INTERCEPTED \
        or kind is _SHOT or kind is _GOALIE


def _texts_left(kind: type) -> int:
    """``_texts_of`` for an event a decider made: nothing for the classes made cited
    (``_cited_when_made``), nor for a sequence or a stoppage (nine events in ten of a
    FaceOff game told by identity in one call)."""
    if kind is _SEQUENCE or kind is _STOPPED or _cited_when_made(kind):
        return NOTHING_CITED
    fields = _CITED_FIELDS.get(kind)
    return _cited_fields(kind) if fields is None else fields


def _cited_fields(kind: type) -> int:
    fields = kind.__struct_fields__  # type: ignore[attr-defined]
    found = _CITED_FIELDS[kind] = (RULE_CITED if "rule" in fields else NOTHING_CITED) \
        | (MODIFIERS_CITED if "modifiers" in fields else NOTHING_CITED)
    return found


CHOICE_RULES: Final = {"shootout_order": "21.00", "extra_skater": "14.60"}


def _lines_changed(state: GameState, event: LinesChanged) -> None:
    timing.apply_lines(state, event)
    step = state.queue[0] if state.queue else None
    if step is not None and step.kind == "extra_skater" and state.team(step.side).pulled:
        state.queue.pop(0)  # 14.60: the extra skater is on


def _rolled(state: GameState, event: DiceRolled) -> None:
    state.rolls = event.n
    # The purpose read only while the window is open (a msgspec event's field is a
    # generic look-up): closing a closed window changes nothing.
    if state.coach_window and event.purpose in ("faceoff", "action"):
        state.coach_window = False  # the coach had his say before this roll


def _tactic(state: GameState, event: TacticDeclared) -> None:
    state.team(event.side).tactic = event.tactic


def _exact_time(state: GameState, event: ev.ExactTime) -> None:
    state.queue.pop(0)
    if event.kind == "penalty":
        state.penalty_time = event.time


def _assists_awarded(state: GameState, event: ev.AssistsAwarded) -> None:
    if state.queue and state.queue[0].kind == "assist_ranks":
        state.queue.pop(0)


def _arc_queue(state: GameState) -> None:
    """After an evolver that may queue rank-chart draws: the ARC option turns them into
    ARC card draws (FaceOff 21.000)."""
    if state.uses("arc_cards"):
        arc.convert_queue(state)


# Each evolver that may queue rank-chart draws, written out: compiled, a closure made by
# a decorator is an object whose every call goes through Python's calling convention.
def _goalie_assist_checked(state: GameState, event: ev.GoalieAssistChecked) -> None:
    scoring.queue_after_goalie_assist(state, event)
    _arc_queue(state)


def _penalty_called(state: GameState, event: ev.PenaltyCalled) -> None:
    penalties.apply_called(state, event)
    _arc_queue(state)


def _game_misconduct_checked(state: GameState, event: ev.GameMisconductChecked) -> None:
    penalties.apply_game_misconduct(state, event)
    _arc_queue(state)


EVOLVERS: Final[dict[type, Callable[[GameState, Event], None]]] = {
    DiceRolled: _rolled,
    PeriodStarted: periods.apply_period_started,
    PeriodEnded: periods.apply_period_ended,
    GameEnded: periods.apply_game_ended,
    LinesChanged: _lines_changed,
    TacticDeclared: _tactic,
    ev.BenchMinorChecked: penalties.apply_bench_check,
    ev.BenchMinorScheduled: penalties.apply_bench_time,
    ev.FaceoffRolled: faceoffs.apply_faceoff,
    ev.SequencePlayed: timing.apply_sequence,
    ev.ActionResolved: actions.queue_after_action,
    ev.PuckPassed: stoppages.apply_puck_moved,
    ev.PuckIntercepted: stoppages.apply_puck_moved,
    ev.ShotTaken: shots.queue_after_shot,
    ev.GoalieResult: goalies.queue_after_goalie,
    ev.GoalScored: scoring.apply_goal,
    ev.ExactTime: _exact_time,
    ev.AssistsCounted: scoring.queue_after_assist_count,
    ev.GoalieAssistChecked: _goalie_assist_checked,
    ev.ArcChecked: arc.apply_arc_checked,
    ev.AssistsAwarded: _assists_awarded,
    ev.ReboundChecked: goalies.queue_after_rebound,
    ev.ClearingChecked: goalies.queue_after_clearing,
    ev.PlayStopped: stoppages.apply_stop,
    ev.PenaltyCalled: _penalty_called,
    ev.RetaliationRolled: penalties.apply_retaliation,
    ev.SpecialOccurrenceRolled: penalties.apply_special,
    ev.MisconductChecked: penalties.apply_misconduct,
    ev.GameMisconductChecked: _game_misconduct_checked,
    ev.PenaltyAssessed: penalties.apply_assessed,
    ev.PenaltyEnded: penalties.apply_ended,
    ev.InjuryChecked: injuries.apply_injury,
    ev.GoalieInjured: goalies.apply_goalie_injured,
    ev.PenaltyShotAwarded: goalies.queue_after_penalty_shot,
    ev.ShootoutOrderChosen: periods.apply_shootout_order,
    ev.ShootoutAttempt: periods.apply_shootout_attempt,
}


# The most frequent events (nine in ten of a game's), found by their exact class:
# compiled, their handlers are then called directly, not read from ``EVOLVERS`` and called
# through Python's calling convention. Final: each a C static, not a module look-up.
_ROLLED: Final = DiceRolled
_ACTION: Final = ev.ActionResolved
_SEQUENCE: Final = ev.SequencePlayed
_PASSED: Final = ev.PuckPassed
_INTERCEPTED: Final = ev.PuckIntercepted
_FACEOFF: Final = ev.FaceoffRolled
_SHOT: Final = ev.ShotTaken
_GOALIE: Final = ev.GoalieResult
_CHANGED: Final = LinesChanged
_STOPPED: Final = ev.PlayStopped


def evolve(state: GameState, event: Event) -> GameState:
    cls = type(event)
    if cls is _ROLLED:
        _rolled(state, cast(DiceRolled, event))
    elif cls is _ACTION:
        actions.queue_after_action(state, cast(ev.ActionResolved, event))
    elif cls is _SEQUENCE:
        timing.apply_sequence(state, cast(ev.SequencePlayed, event))
    elif cls is _PASSED:
        stoppages.apply_puck_moved(state, cast(ev.PuckPassed, event))
    elif cls is _INTERCEPTED:
        stoppages.apply_puck_moved(state, cast(ev.PuckIntercepted, event))
    elif cls is _FACEOFF:
        faceoffs.apply_faceoff(state, cast(ev.FaceoffRolled, event))
    elif cls is _SHOT:
        shots.queue_after_shot(state, cast(ev.ShotTaken, event))
    elif cls is _GOALIE:
        goalies.queue_after_goalie(state, cast(ev.GoalieResult, event))
    elif cls is _CHANGED:
        _lines_changed(state, cast(LinesChanged, event))
    elif cls is _STOPPED:
        stoppages.apply_stop(state, cast(ev.PlayStopped, event))
    else:
        handler = EVOLVERS.get(cls)
        if handler is not None:
            handler(state, event)
    return state


def initial_state(created: GameCreated, home: Team, away: Team, charts: Charts) -> GameState:
    """The state before the first period: everyone dressed, nobody on the ice yet."""

    def team_state(side: str, team: Team) -> TeamState:
        players: dict[str, PlayerStatus] = {}
        count = SequenceCount()  # the team's sequences, against which rest is kept (6.41)
        for card in [*team.skaters, *team.goalies]:
            players[card.id] = PlayerStatus(card=card, _count=count)
        starter = (created.home_goalie if side == "home" else created.away_goalie) \
            or team.lines.goalies[0]
        if starter not in players or not isinstance(players[starter].card, Goalie):
            raise IllegalChoice(f"4.00: {starter!r} is not a goalie of {team.id}")
        slots: dict[str, str | None] = dict.fromkeys(("LW", "C", "RW", "LD", "RD"))
        slots["G"] = starter
        return TeamState(side=side, team=team, players=players, slots=slots, goalie=starter,
                         count=count)

    ruleset = find_ruleset(created.ruleset)
    options = ruleset_options(created, ruleset, charts, (home, away))
    nhl = (created.option_text("nhl_bench_range"), created.option_text("nhl_gm_range"))
    state = GameState(game_id=created.game_id, ruleset=ruleset,
                      charts=charts, home=team_state("home", home),
                      away=team_state("away", away), overtime=created.overtime,
                      overtime_skaters=created.overtime_skaters,
                      late_penalty_house_rule=created.late_penalty_house_rule,
                      options=options, nhl_bench_range=nhl[0], nhl_gm_range=nhl[1],
                      playoff=PLAYOFF in (created.options or []),
                      draft_league=DRAFT_LEAGUE in (created.options or []))
    state.queue.append(Step("start_period"))
    return state


def ruleset_options(created: GameCreated, ruleset: Ruleset, charts: Charts,
                    teams: tuple[Team, Team]) -> frozenset[str]:
    """The optional rules a game turned on, once its options are checked against its
    ruleset: FaceOff's options (17.000-21.000, NHL ranges 6.00 and 14.51) are no Hockey
    Bones game's, nor is the quick reference's house rule a FaceOff game's."""
    options = frozenset(name for name, field in OPTIONAL_RULES.items()
                        if created.option(field))
    named = created.options or []
    known = {PLAYOFF, DRAFT_LEAGUE} if ruleset.draft_league_setup else {PLAYOFF}
    unknown = sorted(set(named) - known)
    if unknown:
        # GameCreated.options records by name only the options every Bones ruleset
        # takes (ruling R-6.00c) and a Hockey Bones draft league's game; FaceOff's
        # optional rules have fields of their own.
        raise IllegalChoice(f"{ruleset.title} has no game option {', '.join(unknown)} "
                            f"(its options: {', '.join(ruleset.option_names)}"
                            + (f"; {DRAFT_LEAGUE} for a draft league's games)"
                               if ruleset.draft_league_setup else ")"))
    if options and not ruleset.optional_rules:
        raise IllegalChoice(f"{ruleset.title} has no optional rules to turn on: "
                            f"{', '.join(sorted(options))}")
    _check_nhl_ranges(created, ruleset, DRAFT_LEAGUE in named)
    if "arc_cards" in options and charts.arc is msgspec.UNSET:
        raise IllegalChoice("21.000: the game uses the ARC cards, and its chart pack has none")
    if ruleset.shootout and any(g.shootout == "" for t in teams for g in t.goalies):
        raise IllegalChoice(f"21.00: {ruleset.title} needs every goalie's shootout grade")
    if created.late_penalty_house_rule and not ruleset.quick_reference:
        raise IllegalChoice(f"{ruleset.title} has no quick reference: its late-penalty "
                            "house rule is not one of its options")
    return options


def _check_nhl_ranges(created: GameCreated, ruleset: Ruleset, draft: bool) -> None:
    """The NHL ranges a draft league's game records: FaceOff's (6.00, 14.51: bench
    penalties and game misconducts, ruling R-FO-6.00a), Hockey Bones' (14.51 only, and
    then always: ruling R-draft-14.51; its 5.00 has no such sentence)."""
    bench, gm = created.option_text("nhl_bench_range"), created.option_text("nhl_gm_range")
    if ruleset.draft_nhl_ranges:
        return
    if not ruleset.draft_league_setup:
        if bench or gm:
            raise IllegalChoice(f"{ruleset.title}: only FaceOff's draft leagues (6.00, 14.51) "
                                "use NHL bench-penalty and game-misconduct ranges")
        return
    if bench:
        raise IllegalChoice(f"{ruleset.title} 5.00: no NHL bench-penalty range "
                            "(GameCreated.nhl_bench_range): only FaceOff's draft leagues use "
                            "one (FaceOff 6.00); draft rule 28 drops the bench checks")
    if draft and not gm:
        raise IllegalChoice(f"{ruleset.title} 14.51: a draft league game (option "
                            f"{DRAFT_LEAGUE}) uses the NHL Game Misconduct range, and "
                            "GameCreated.nhl_gm_range is not set (a league's nhl_gm_range)")
    if gm and not draft:
        raise IllegalChoice(f"{ruleset.title} 14.51: only a draft league game (option "
                            f"{DRAFT_LEAGUE}) uses an NHL Game Misconduct range "
                            "(GameCreated.nhl_gm_range)")


# An event's fields read together, as a tuple in their declared order (compiled, each
# field of a msgspec event read by name is a generic look-up of about 160 instructions;
# ``astuple`` reads them all in one call of about two: see engine/bones/actions.py). The
# places are pinned by tests/bones/test_bones_events_made.py.
fields_of: Final = msgspec.structs.astuple
CHANGE_SIDE: Final = 0  # LinesChanged: side, slots, on_the_fly, rule
CHANGE_SLOTS: Final = 1
CHANGE_ON_THE_FLY: Final = 2
CHANGE_RULE: Final = 3


def check_choice(state: GameState, event: Event) -> None:
    """Raise IllegalChoice when a coach's choice breaks a rule."""
    # A line change (nearly every choice) told by its exact class first: compiled,
    # isinstance against a msgspec class read from the module's dictionary is a generic
    # check of about 350 instructions.
    if type(event) is _CHANGED or isinstance(event, LinesChanged):
        change = cast(LinesChanged, event)
        # The change's four fields read together (``fields_of``), each once.
        fields: tuple[object, ...] = fields_of(change)
        side = cast(str, fields[CHANGE_SIDE])
        slots = cast("dict[str, str | None]", fields[CHANGE_SLOTS])
        on_the_fly = cast(bool, fields[CHANGE_ON_THE_FLY])
        rule = cast(str, fields[CHANGE_RULE])
        problem = check_change(state, change, side, slots, on_the_fly)
        step = state.queue[0] if state.queue else None
        extra = step is not None and step.kind == "extra_skater"
        if not problem and on_the_fly != (state.puck is not None):
            # 6.41: a change is on the fly exactly when the puck is in play
            problem = (f"6.41: recorded {'on the fly' if on_the_fly else 'at a stoppage'}"
                       f" while the puck is {'in play' if state.puck else 'dead'}")
        # Read from the ruleset's table (``Citations``): ``Ruleset.cite`` is a plain
        # class's method, a generic call of about 800 instructions at every change.
        wanted = state.citations().cite("14.60" if extra else "6.41")
        if not problem and rule != wanted:
            problem = f"names rule {rule}, not {wanted}"
        if not problem and extra:
            team = state.team(step.side)
            goalie = slots.get("G")
            if side != step.side or goalie is None or team.players[goalie].is_goalie:
                problem = (f"14.60: {step.side} replaces its goalie with an extra skater "
                           "before the delayed penalty's roll")
        if problem:
            raise IllegalChoice(f"line change for {side}: {problem}")
    elif isinstance(event, TacticDeclared):
        if not state.queue or state.queue[0].kind != "faceoff":
            raise IllegalChoice(f"{event.rule}: a tactic is announced at a stoppage, "
                                "before the face-off")
        rule = state.ruleset.cite(TACTIC_RULES[event.tactic])
        if state.draft_league and TACTIC_OPTIONS[event.tactic] in UNUSED_IN_DRAFT_LEAGUES:
            raise IllegalChoice(f"draft rule 28: a draft league does not use the "
                                f"{TACTIC_OPTIONS[event.tactic].replace('_', ' ')} ({rule})")
        if not state.uses(TACTIC_OPTIONS[event.tactic]):
            raise IllegalChoice(f"{rule}: {event.tactic} is an optional rule this game "
                                "did not turn on")
        if event.rule != rule:
            raise IllegalChoice(f"{event.tactic} is rule {rule}, not {event.rule}")
    elif isinstance(event, ev.ShootoutOrderChosen):
        if not state.ruleset.shootout:
            raise IllegalChoice(f"{state.ruleset.title} has no shootout: a tie stands")
        if not state.queue or state.queue[0].kind != "shootout_order":
            raise IllegalChoice("21.00: shootout shooters are chosen only after overtime")
        if event.rule != state.ruleset.cite("21.00"):
            raise IllegalChoice(f"shootout shooters are rule 21.00, not {event.rule}")
        for side, shooters in (("home", event.home_shooters), ("away", event.away_shooters)):
            team = state.team(side)
            bad = [p for p in shooters if p not in team.players or team.players[p].is_goalie]
            if not shooters or bad:
                raise IllegalChoice(f"21.00: {side} shooters must be its skaters: {bad}")
