"""The default DICE Hockey coach: line changes, dumps, the time out, the goalie and the
shootout shooters.

Coach choices are inputs to the rules, like dice: this policy proposes them, the rules
check them (``game.check_choice``) and the stream records them. It changes a line when
the text lets it (9: by who has the puck) once the line has had its full shift (ruling
R-DH-9b), rolls lines 1-2-3 with a full shift of the fourth each period, sends lines 1-2
to kill penalties (15), dumps the puck when a tired unit cannot otherwise come off, calls
its time out late when behind, pulls the goalie late when one or two goals behind (22)
and sends its best shootout shooters (14). Where the text leaves a pick to the coach, its
habits are: at a tie in a penalty-rating rank (15, 16), the tied player who stands first
in slot order (LW, C, RW, LD, RD) takes the penalty; during a delayed penalty (22), the
extra attacker is its skater off the ice with the widest goal range (the first on the
team sheet among equals; at a second call in the same delay, the next such skater). It
is deterministic: the same state always gets the same choices.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from engine.dicehockey import penalties
from engine.dicehockey.lines import (
    Turns,
    extra_attacker,
    held,
    keeps_carrier,
    kept_slots,
    line_turns,
    may_change,
    must_start_fourth,
    on_ice,
    pair_turns,
    rotation,
)
from engine.dicehockey.state import AWAY, HOME, PAIRS, SIDES, GameState, TeamState, other
from events.base import Event
from events.dicehockey import (
    DumpDeclared,
    ExtraAttackerAdded,
    GoalieChanged,
    LinesChanged,
    PenaltyPlayerChosen,
    ShootoutShootersChosen,
    TimeOutCalled,
)

PULL_SPACES_LEFT: Final = 2  # pull the goalie with two timing spaces left in the third
FOURTH_FROM: Final = 0.4  # send the fourth line once this share of the period has gone


def _next(current: int, lines: tuple[int, ...], turns: Turns | None) -> int:
    """The next line after ``current``, in order, that may come back (9, by the rules'
    own ``held``; ``turns`` None: no waiting, as on the penalty kill); ``current`` when
    none may."""
    count = len(lines)
    start = 0
    for index in range(count):  # (no generic ``index`` call)
        if lines[index] == current:
            start = index + 1
            break
    for offset in range(count):  # from the one after ``current``, round (no tuples made)
        line = lines[(start + offset) % count]
        if line != current and (turns is None or not held(turns, line)):
            return line
    return current


# compiled (setup.py), still a base class: a test or a tool may subclass the default coach
@mypyc_attr(allow_interpreted_subclasses=True)
class DefaultCoach:
    """Both teams' coach; ``lines`` answers for the away team first (9, 10)."""

    def lines(self, state: GameState) -> list[Event]:
        # a step that waits for this answer (15's tie, 22's extra attacker) is one an event
        # asked for (``state.pending``): with none pending (nearly every window) the next
        # step is the flow's, not worked out here (``next_step``: about 300 instructions)
        if state.pending:
            step = state.next_step()
            if step is not None and step.kind == "penalty_tie":
                return [self.penalty_tie(state, step.side, step.number)]
            if step is not None and step.kind == "extra_attacker":
                return [self.extra_attacker(state, step.side)]
        choices: list[Event] = []
        self._side(state, AWAY, choices)  # 9, 10: the away team answers first (no tuple
        self._side(state, HOME, choices)  # of the two walked generically at each window)
        dump = self._dump(state)
        if dump is not None:
            choices.append(dump)
        return choices

    def _side(self, state: GameState, side: str, choices: list[Event]) -> None:
        """``side``'s goalie, time out and line change, added to ``choices``."""
        if state.period != 3 and not state.team(side).pulled:
            # (nearly every window: a time out is called late in the third (12) and the
            # goalie pulled there (22) or brought back once pulled: neither is asked; and
            # with the goalie in, an extra attacker only during a delayed penalty)
            extra = extra_attacker(state, side) if state.delayed else None
            change = self._change(state, side, extra)
            if change is not None:
                choices.append(change)
            return
        goalie = self._goalie(state, side)
        time_out = self._time_out(state, side)
        if goalie is not None:  # the slots as they will be once the goalie choice is made
            choices.append(goalie)
            extra = goalie.extra_attacker or extra_attacker(state, side, pulled=False)
        else:
            extra = extra_attacker(state, side)
        if time_out is not None:
            choices.append(time_out)
        change = self._change(state, side, extra)
        if change is not None:
            choices.append(change)

    @staticmethod
    def penalty_tie(state: GameState, side: str, rank: int) -> PenaltyPlayerChosen:
        """15, its habit: of the tied players, the first in slot order takes it (the rank
        counted down the slots: of two tied second and third, the first is second)."""
        player = penalties.ranked(state, side, rank)
        return PenaltyPlayerChosen(side=side, player=player, rule="15")

    @staticmethod
    def extra_attacker(state: GameState, side: str) -> ExtraAttackerAdded:
        """22, its habit: the skater off the ice with the widest goal range."""
        team = state.team(side)
        free = penalties.free_skaters(state, side)
        return ExtraAttackerAdded(side=side, player=max(free, key=lambda p: team.cards[p].goal),
                                  rule="22")

    def shootout(self, state: GameState) -> ShootoutShootersChosen:
        """14: every available skater, best shootout range first."""
        picks = {}
        for side in SIDES:
            team = state.team(side)
            ready = [c for c in team.team.skaters if c.id not in team.out]
            picks[side] = [c.id for c in sorted(ready, key=lambda c: -c.so)]
        return ShootoutShootersChosen(home_shooters=picks["home"], away_shooters=picks["away"],
                                      rule="14")

    # --- lines -----------------------------------------------------------------------

    def _change(self, state: GameState, side: str, extra: str | None) -> LinesChanged | None:
        """``extra``: the extra attacker once this window's goalie choice is made (22)."""
        team = state.team(side)
        may_f, may_d = may_change(state, side)
        forwards, defense = team.forwards, team.defense
        short = team.men_short() > 0
        if may_f:
            if must_start_fourth(state, side):
                forwards = 4
            elif short and forwards not in (1, 2):
                forwards = _next(forwards, (1, 2), None)
            elif team.f_full():  # 9: after a full shift (ruling R-DH-9b)
                forwards = self._next_forwards(state, team)
        if may_d and team.d_full():
            defense = _next(defense, PAIRS, pair_turns(state, team))
        if forwards == team.forwards and defense == team.defense:  # (no tuples made)
            return None
        slots = kept_slots(team, forwards, defense, extra, state.version)  # read, not changed
        if not keeps_carrier(state, side, slots):
            return None
        # positionally, in declared order (side, forwards, defense, slots, rule)
        return LinesChanged(side, forwards, defense, dict(slots), "9")

    def _next_forwards(self, state: GameState, team: TeamState) -> int:
        if team.men_short():  # 15: lines 1 and 2 kill; the power play keeps to 9's rotation
            return _next(team.forwards, (1, 2), None)
        if not team.fourth_played and not team.fourth_in_rotation and team.forwards != 4 \
                and state.space >= FOURTH_FROM * state.length:
            return 4  # 9: the fourth line's full shift this period
        return _next(team.forwards, rotation(team), line_turns(state, team))

    def _dump(self, state: GameState) -> DumpDeclared | None:
        """Dump to change both units when a tired one cannot come off otherwise (9)."""
        if state.puck is None or state.dump or not state.coach_window or state.window != "puck":
            return None
        side, carrier = state.puck
        team = state.team(side)
        if state.team(other(side)).pulled or team.pulled or team.men_short():
            return None
        if not team.tired():  # (asked first: most windows end here, no windows worked out)
            return None
        may_f, may_d = may_change(state, side)
        if not (may_f and may_d):
            return DumpDeclared(side, carrier, "9")  # (side, player, rule)
        return None

    # --- time out, goalie --------------------------------------------------------------

    # (each returns its choice or None: no list made at each of the thousand windows)
    def _time_out(self, state: GameState, side: str) -> TimeOutCalled | None:
        team = state.team(side)
        if (team.time_out or state.puck is not None or not state.period_live
                or state.whistle_side != side or state.period != 3
                or state.length - state.space > 1):
            return None
        behind = state.team(other(side)).score - team.score
        if behind not in (1, 2):
            return None
        return TimeOutCalled(side=side, add_space=True, period_length=state.length + 1,
                             rule="12")

    def _goalie(self, state: GameState, side: str) -> GoalieChanged | None:
        team = state.team(side)
        if not state.period_live or not state.coach_window:
            return None
        late = state.period == 3 and state.length - state.space <= PULL_SPACES_LEFT
        if not late and not team.pulled:  # (nearly every window: no score read)
            return None
        behind = state.team(other(side)).score - team.score
        if team.pulled and not (late and behind in (1, 2)):
            return GoalieChanged(side=side, goalie=team.goalie, pulled=False,
                                 extra_attacker=None, rule="22")
        if not team.pulled and late and behind in (1, 2) and state.puck \
                and state.puck[0] == side:
            on = set(on_ice(state, side).values())
            free = [c for c in team.team.skaters if c.id not in on and c.id not in team.out]
            if free:
                extra = max(free, key=lambda c: c.goal).id
                return GoalieChanged(side=side, goalie=team.goalie, pulled=True,
                                     extra_attacker=extra, rule="22")
        return None
