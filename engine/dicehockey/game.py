"""The DICE Hockey decider: ``decide(state, roll) -> events`` and ``evolve(state, event)``.

``decide`` looks at the next step (``state.queue[0]``) and hands it, with its roll, to
the module of that rule area. ``evolve`` applies one event to the state in place and
returns it; folding a stream's events from ``initial_state`` rebuilds any moment of the
game. The one game loop (engine/loop.py) runs them, with what engine/dicehockey/system.py
tells it of the coaches' windows and choices.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final, cast

import msgspec

from engine.dicehockey import (
    faceoffs,
    passing,
    penalties,
    periods,
    shots,
    specials,
    turnovers,
)
from engine.dicehockey.absences import apply_absent
from engine.dicehockey.cards import Charts, Team
from engine.dicehockey.lines import (
    apply_change,
    apply_lineup,
    change_fault,
    lineup_fault,
    on_ice,
    rest_all,
)
from engine.dicehockey.puck import apply_space, apply_stopped, give_puck
from engine.dicehockey.rulesets import OPTIONS, RULESETS
from engine.dicehockey.state import CHOICE_STEPS, SIDES, GameState, Step, TeamState, other
from events import dicehockey as ev
from events.base import Event
from events.common import GameCreated, GameEnded, PeriodEnded, PeriodStarted
from events.errors import IllegalChoice

MAX_STEPS: Final = 100_000  # the loop's guard: a game takes a few hundred steps
WINDOW_STEPS: Final = frozenset({"faceoff", "pass", "dump", "en_attempt"})
Decider = Callable[[GameState, Step, ev.Roll | None], list]
# The steps that wait for a coach, and the section that asks him.
CHOICE_RULES: Final = {"shootout_choice": "14", "penalty_tie": "15", "extra_attacker": "22"}

DECIDERS: Final[dict[str, Decider]] = {
    "start_period": periods.decide_start_period,
    "end_period": periods.decide_end_period,
    "end_game": periods.decide_end_game,
    "faceoff": faceoffs.decide_faceoff,
    "pass": passing.decide_pass,
    "shot": shots.decide_shot,
    "turnover": turnovers.decide_turnover,
    "dump": turnovers.decide_dump,
    "en_attempt": turnovers.decide_empty_net,
    "penalty_who": penalties.decide_who,
    "penalty_what": penalties.decide_what,
    "assess": penalties.decide_assess,
    "special": specials.decide_special,
    "special_penalty": specials.decide_special_penalty,
    "fight": specials.decide_fight,
    "games_missed": specials.decide_games_missed,
    "suspension": specials.decide_suspension,
    "so_card": periods.decide_so_card,
    "so_shot": periods.decide_so_shot,
}


# The GameCreated fields a DICE Hockey game may set. It refuses any other that is not at
# its default: another system's settings (Hockey Bones' house rule, FaceOff's options),
# or overtime's (13: a playoff game is the option 'playoff').
OWN_FIELDS: Final = frozenset({"game_id", "ruleset", "ruleset_version", "home", "away",
                               "charts_hash", "dice", "seed", "home_goalie", "away_goalie", "live",
                               "season", "number", "options", "absent"})


def decide(state: GameState, roll: ev.Roll | None) -> list[Event]:
    """The events the next step, with its roll (None for rollless steps), yields."""
    step = state.next_step()
    if step is None:
        step = state.queue[0]  # an ended game: IndexError, as ever
    kind = step.kind
    # the four most frequent steps (a pass, a shot, a dump, a face-off) called directly:
    # compiled, a function read from ``DECIDERS`` is called through Python's calling
    # convention
    if kind == "pass":
        assert roll is not None
        return passing.decide_pass(state, step, roll)
    if kind == "shot":
        assert roll is not None
        return shots.decide_shot(state, step, roll)
    if kind == "dump":
        assert roll is not None
        return turnovers.decide_dump(state, step, roll)
    if kind == "faceoff":
        assert roll is not None
        return faceoffs.decide_faceoff(state, step, roll)
    if kind in CHOICE_STEPS:
        raise IllegalChoice(f"{CHOICE_RULES[kind]}: the coach's choice is owed here "
                            f"({kind.replace('_', ' ')}), not a rules decision")
    return DECIDERS[kind](state, step, roll)


def next_kind(state: GameState) -> str:
    """The next step's kind (``queue[0]``), "" once the game has ended: what the one loop
    (engine/loop.py) asks at every step, read here where the state's type is known (its
    reads native, the queue not made; the shared loop's were generic look-ups)."""
    if state.finished:
        return ""
    pending = state.pending
    return pending[0].kind if pending else state.flow_queue()[0].kind


# --- evolve ---------------------------------------------------------------------------

# An event's fields read together, as a tuple in their declared order: compiled, each
# field of a msgspec event read by name is a generic attribute look-up (about 160
# instructions); ``astuple`` reads them all in one call, and a tuple's items are read
# natively. Worth it for an event of which three or more fields are read (measured: the
# call and the tuple cost about two reads by name, 330 instructions for a Roll's two
# fields, 490 for a PassRolled's thirteen). The places
# below are pinned by tests/dicehockey/test_dicehockey_events_made.py (the fields'
# declared order). Each caller names its answer a ``tuple[object, ...]``: msgspec is not
# typed in the build, so an untyped answer's items were read by ``PyObject_GetItem`` with
# a boxed index (about 100 instructions each), a typed tuple's natively.
fields_of: Final = msgspec.structs.astuple
_PASS_RESULT: Final = 6  # PassRolled: side, passer, raw, modifier, value, modifiers,
_PASS_TO_SIDE: Final = 8  # result, shot, to_side, to_player, slot, roll, rule
_PASS_TO_PLAYER: Final = 9
_PASS_SLOT: Final = 10


def _rolled(state: GameState, event: ev.DiceRolled) -> None:
    state.rolls = event.n
    purpose = event.purpose  # read once: an event's field is a generic look-up compiled
    # WINDOW_STEPS' four written out, a pass (six rolls in ten) first: one comparison for
    # most rolls, not a set's look-up and four comparisons at every roll
    if purpose == "pass" or purpose == "en_attempt":
        _window_closed(state)
        state.fresh_possession = False
    elif purpose == "faceoff":
        _window_closed(state)
    elif purpose == "dump":
        _window_closed(state)
        if not state.dump:
            # 9: "State that you are dumping the puck and then roll the dice": this roll
            # is the dump. The forced dump (ruling R-DH-9e) is read from a fresh
            # possession, which the roll ends, so it is held as owed until its PuckDumped.
            step = state.flow_step()
            state.dump = step.reason if step.kind == "dump" else ""
        state.fresh_possession = False


def _window_closed(state: GameState) -> None:
    """A roll at a window (WINDOW_STEPS): the coaches had their say before it."""
    state.coach_window = False
    state.home.lineup_open = state.away.lineup_open = ""  # 10: the lines are set


def _moved(state: GameState, side: str | None, player: str | None,
           slot: str | None = None) -> None:
    """``slot``: the event's own, when it names one (checked against the slots)."""
    if side is not None and player is not None:
        give_puck(state, side, player, slot)


def _faceoff(state: GameState, event: ev.FaceoffWon) -> None:
    state.period_opened = True
    give_puck(state, event.side, event.to_player, event.slot)


def _passed(state: GameState, event: ev.PassRolled) -> None:
    fields: tuple[object, ...] = fields_of(event)  # read together, see ``fields_of``
    player = cast("str | None", fields[_PASS_TO_PLAYER])
    if player is not None:
        _moved(state, cast(str, fields[_PASS_TO_SIDE]), player,
               cast("str | None", fields[_PASS_SLOT]))
    result = cast(str, fields[_PASS_RESULT])
    if result == "good_pass":
        state.en_passes += 1
    passing.apply_pass(state, event, result, fields)


def _shot(state: GameState, event: ev.ShotTaken) -> None:
    fields: tuple[object, ...] = fields_of(event)  # read together, see ``fields_of``
    shots.apply_shot(state, event, fields)
    player = cast("str | None", fields[shots.SHOT_PUCK_TO])
    if player is not None:
        _moved(state, cast("str | None", fields[shots.SHOT_PUCK_SIDE]), player,
               cast("str | None", fields[shots.SHOT_SLOT]))


def _dumped(state: GameState, event: ev.PuckDumped) -> None:
    state.dump = ""
    _moved(state, event.to_side, event.to_player)
    if event.outcome == "recovered":
        state.window = "dump"  # 9: both teams may change both lines


def _turnover(state: GameState, event: ev.TurnoverRolled) -> None:
    _moved(state, event.side if event.to_player else None, event.to_player)
    turnovers.apply_turnover(state, event)


def _goal(state: GameState, event: ev.GoalScored) -> None:
    state.team(event.side).score += 1
    if state.overtime:
        state.decided = "OT"  # ruling R-DH-13a: sudden death


def _dump_declared(state: GameState, event: ev.DumpDeclared) -> None:
    state.dump = "choice"


def _time_out(state: GameState, event: ev.TimeOutCalled) -> None:
    state.team(event.side).time_out = True
    state.team(event.side).lineup_open = "time_out"  # 10: "or you call a time out"
    state.length = event.period_length
    for side in SIDES:
        rest_all(state.team(side))  # 12: all lines are fully rested


def _goalie(state: GameState, event: ev.GoalieChanged) -> None:
    team = state.team(event.side)
    team.pulled = event.pulled
    team.extra_attacker = event.extra_attacker


EVOLVERS: Final[dict[type, Callable[[GameState, Event], None]]] = {
    ev.DiceRolled: _rolled,
    PeriodStarted: periods.apply_period_started,
    ev.PeriodLengthSet: periods.apply_length,
    PeriodEnded: periods.apply_period_ended,
    GameEnded: periods.apply_game_ended,
    ev.LinesChanged: apply_change,
    ev.DumpDeclared: _dump_declared,
    ev.TimeOutCalled: _time_out,
    ev.GoalieChanged: _goalie,
    ev.LineupRearranged: apply_lineup,
    ev.ShootoutShootersChosen: periods.apply_shooters,
    ev.FaceoffWon: _faceoff,
    ev.PassRolled: _passed,
    ev.TimingSpaceCounted: apply_space,
    ev.ShotTaken: _shot,
    ev.GoalScored: _goal,
    ev.PuckDumped: _dumped,
    ev.TurnoverRolled: _turnover,
    ev.PenaltyCalled: penalties.apply_called,
    ev.PenaltyTied: penalties.apply_tied,
    ev.PenaltyPlayerChosen: penalties.apply_chosen,
    ev.ExtraAttackerAdded: penalties.apply_extra_attacker,
    ev.InfractionRolled: penalties.apply_infraction,
    ev.PenaltyAssessed: penalties.apply_assessed,
    ev.PenaltyErased: penalties.apply_erased,
    ev.ClearCounted: penalties.apply_cleared,
    ev.PenaltyEnded: penalties.apply_ended,
    ev.SpecialPlayRolled: specials.apply_special,
    ev.InjuryRolled: specials.apply_injury,
    ev.PlayStopped: apply_stopped,
    ev.ShootoutCardRolled: periods.apply_so_card,
    ev.ShootoutAttempt: periods.apply_attempt,
}

# The event that settles each step an earlier event asked for (``state.pending``).
SETTLES: Final[dict[type, str]] = {
    ev.ShotTaken: "shot",
    ev.TurnoverRolled: "turnover",
    ev.PenaltyCalled: "penalty_who",
    ev.PenaltyTied: "penalty_who",
    ev.InfractionRolled: "penalty_what",
    ev.SpecialPlayRolled: "special",
    ev.FightRolled: "fight",
    ev.GamesMissedRolled: "games_missed",
    ev.SuspensionRolled: "suspension",
    ev.ShootoutCardRolled: "so_card",
    ev.ShootoutAttempt: "so_shot",
    ev.PlayStopped: "special_penalty",  # the special play's penalty, after a tie (15, 16)
}


# The nine most frequent events, found by their exact class: compiled, their handlers
# are then called directly, not read from ``EVOLVERS`` and called through Python's
# calling convention (about 200 instructions a call). Final: each a C static, not a
# module look-up.
_ROLLED: Final = ev.DiceRolled
_PASSED: Final = ev.PassRolled
_CHANGED: Final = ev.LinesChanged
_SPACE: Final = ev.TimingSpaceCounted
_SHOT: Final = ev.ShotTaken
_DUMPED: Final = ev.PuckDumped
_FACEOFF_WON: Final = ev.FaceoffWon
_STOPPED: Final = ev.PlayStopped
_DUMP_DECLARED: Final = ev.DumpDeclared


def evolve(state: GameState, event: Event) -> GameState:
    cls = type(event)
    if state.pending:  # (no step asked for, the common case: nothing to settle)
        kind = SETTLES.get(cls)
        if kind is not None and state.pending[0].kind == kind:
            state.pending.pop(0)
    if cls is _ROLLED:
        _rolled(state, cast(ev.DiceRolled, event))
    elif cls is _PASSED:
        _passed(state, cast(ev.PassRolled, event))
    elif cls is _CHANGED:
        apply_change(state, cast(ev.LinesChanged, event))
    elif cls is _SPACE:
        apply_space(state, cast(ev.TimingSpaceCounted, event))
    elif cls is _SHOT:
        _shot(state, cast(ev.ShotTaken, event))
    elif cls is _DUMPED:
        _dumped(state, cast(ev.PuckDumped, event))
    elif cls is _FACEOFF_WON:
        _faceoff(state, cast(ev.FaceoffWon, event))
    elif cls is _STOPPED:
        apply_stopped(state, cast(ev.PlayStopped, event))
    elif cls is _DUMP_DECLARED:
        _dump_declared(state, cast(ev.DumpDeclared, event))
    else:
        handler = EVOLVERS.get(cls)
        if handler is not None:
            handler(state, event)
    return state


@lru_cache(maxsize=1)
def _other_settings() -> tuple[tuple[str, Any], ...]:
    """The settings of ``GameCreated`` that are not DICE Hockey's, each with its default
    (read once: ``msgspec.structs.fields`` evaluates every annotation, a tenth of an odds
    run's CPU when asked at each game)."""
    return tuple((field.name, field.default) for field in msgspec.structs.fields(GameCreated)
                 if field.name not in OWN_FIELDS and field.default is not msgspec.NODEFAULT)


def initial_state(created: GameCreated, home: Team, away: Team, charts: Charts) -> GameState:
    """The state before the first period: lines 1 and pairs 1 on the ice (9: any line may
    start; the coaches change them at the first window, away first)."""
    ruleset = RULESETS.get(created.ruleset)
    if ruleset is None:
        raise IllegalChoice(f"{created.ruleset!r} is not a DICE Hockey ruleset")
    if created.ruleset_version != ruleset.version and \
            created.ruleset_version not in ruleset.replays:
        played = ", ".join(str(v) for v in sorted({ruleset.version, *ruleset.replays}))
        raise IllegalChoice(f"{created.ruleset} version {created.ruleset_version}: this "
                            f"rinklog plays versions {played}")
    options = frozenset(created.options or [])
    foreign = [name for name, default in _other_settings()
               if getattr(created, name) not in (default, (
                   False if default is msgspec.UNSET else default))]
    if foreign:
        raise IllegalChoice(f"{', '.join(foreign)}: not DICE Hockey settings (13: a playoff "
                            "game is the option 'playoff')")
    unknown = sorted(options - set(OPTIONS))
    if unknown:
        raise IllegalChoice(f"DICE Hockey has no optional rule {', '.join(unknown)} "
                            f"(known: {', '.join(OPTIONS)})")

    def team_state(side: str, team: Team) -> TeamState:
        goalie = (created.home_goalie if side == "home" else created.away_goalie) \
            or team.lines.goalies[0]
        if goalie not in team.lines.goalies:
            raise IllegalChoice(f"10: {goalie!r} is not a goalie of {team.id}")
        return TeamState(side=side, team=team, cards={c.id: c for c in team.skaters},
                         goalies={g.id: g for g in team.goalies}, goalie=goalie,
                         lines=team.lines)

    state = GameState(game_id=created.game_id, ruleset=ruleset, charts=charts,
                      home=team_state("home", home), away=team_state("away", away),
                      options=options, version=created.ruleset_version,
                      regular_length=home.timing + away.timing)
    apply_absent(state, created)  # 15, 17: out from the season's earlier games
    return state


# --- coach choices ----------------------------------------------------------------------

Asker = Callable[[GameState], list[Event]]


def window_asks(step: Step, coach: object) -> tuple[Asker, ...]:
    """At a window (9-12, 15, 22) the coaches change lines, dump, call a time out, pull
    the goalie or re-set the lineup cards: all of it through ``coach.lines``. (Here, in
    a compiled module, rather than in the system's registration; the loop asks once a
    step kind a game.)"""
    return (coach.lines,)  # type: ignore[attr-defined]


def choose(state: GameState, step: Step, coach: object) -> list[Event]:
    """A step that waits for the coach: the shootout shooters (``coach.shootout``, 14), or
    (``coach.lines``, its first choice) who takes a tied penalty (15) or a delayed
    penalty's extra attacker (22)."""
    if step.kind == "shootout_choice":
        return [coach.shootout(state)]  # type: ignore[attr-defined]
    return list(coach.lines(state))[:1]  # type: ignore[attr-defined]


def check_choice(state: GameState, event: Event) -> None:
    """Raise IllegalChoice when a coach's choice breaks a rule."""
    problem = _choice_fault(state, event)
    if problem:
        raise IllegalChoice(f"{type(event).__name__} for "
                            f"{getattr(event, 'side', 'both teams')}: {problem}")


def _choice_fault(state: GameState, event: Event) -> str | None:
    # a line change (nine choices in ten) told by its exact class, a name kept in the
    # compiled module (``ev.LinesChanged`` is a generic attribute look-up on another
    # module at every ask, ``isinstance`` a generic call); any other choice as before
    if type(event) is _CHANGED:
        return change_fault(state, cast(ev.LinesChanged, event))
    if isinstance(event, ev.LinesChanged):
        return change_fault(state, event)
    if isinstance(event, ev.DumpDeclared):
        pulled = state.team(other(event.side)).pulled
        if state.puck != (event.side, event.player) or not state.coach_window or state.dump:
            return "9: only the team with the puck dumps it, before its next roll"
        if event.rule != ("22" if pulled else "9"):
            return f"a dump is rule {'22' if pulled else '9'}, not {event.rule}"
        return None
    if isinstance(event, ev.TimeOutCalled):
        team = state.team(event.side)
        if team.time_out:
            return "12: each team has one time out"
        # ruling R-DH-12b: the team that had the puck when play stopped
        if state.puck is not None or not state.period_live or state.whistle_side != event.side:
            return "12: a time out needs a dead puck and the puck when play stopped"
        if event.period_length != state.length + event.add_space or event.rule != "12":
            return f"12: the period is then {state.length + event.add_space} long (rule 12)"
        return None
    if isinstance(event, ev.GoalieChanged):
        return _goalie_fault(state, event)
    if isinstance(event, ev.LineupRearranged):
        return lineup_fault(state, event)
    if isinstance(event, ev.PenaltyPlayerChosen):
        return penalties.tie_fault(state, event)
    if isinstance(event, ev.ExtraAttackerAdded):
        return penalties.extra_attacker_fault(state, event)
    if isinstance(event, ev.ShootoutShootersChosen):
        if state.shootout is None or state.shootout.home:
            return "14: shooters are chosen once, when the shootout begins"
        for side, shooters in (("home", event.home_shooters), ("away", event.away_shooters)):
            team = state.team(side)
            if len(set(shooters)) != len(shooters) or len(shooters) < 3 or any(
                    p not in team.cards or p in team.out for p in shooters):
                return f"14: {side} names three or more of its own skaters, each once"
        return None if event.rule == "14" else f"shootouts are rule 14, not {event.rule}"
    return f"{type(event).__name__} is not a coach's choice"


def _goalie_fault(state: GameState, event: ev.GoalieChanged) -> str | None:
    """22, ruling R-DH-22e: at any window of a live period, for a free skater."""
    team = state.team(event.side)
    if not state.period_live or not state.coach_window or event.rule != "22":
        return "22: the goalie is pulled or comes back at a window, rule 22"
    if event.goalie != team.goalie or event.pulled == team.pulled:
        return f"22: the goalie {team.goalie} is {'out' if team.pulled else 'in'} already"
    if not event.pulled:
        return None if event.extra_attacker is None else "22: back in net, no extra attacker"
    extra = event.extra_attacker
    if extra not in team.cards or extra in team.out or extra in on_ice(state, event.side).values():
        return f"22: {extra!r} is no free skater of {team.team.id} to add"
    return None
