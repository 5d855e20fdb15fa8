"""The scoresheet of a DICE Hockey game: a pure fold into the shared ``Scoresheet``.

Counting rules (docs/json.md, "DICE Hockey"):

- times are timing spaces (12; 22 Timing): a goal's ``time`` is the period's space count
  when it went in (a possession's first shot fills its space before the goal), a
  penalty's the count when it was called (``PenaltyAssessed.space``);
- a shot on goal is every ``ShotTaken`` (PS, GS and breakaway shots all reach the net: a
  miss is the goalie's save, 8; a shot at an empty net always scores, 22), every penalty
  shot (``ShootoutAttempt`` of kind ``penalty_shot``, 15), and a goal with neither before
  it (the puck dumped or passed into an empty net, 22);
- shots against a goalie are the shots naming him (``ShotTaken.goalie``, the penalty
  shot's ``goalie``); saves = shots against - goals against (``GoalScored.goalie``);
- a goalie's ``toi`` is the timing spaces he was in net (not pulled, 22);
- a power-play opportunity is a penalty that makes a team short (``short``: minor, double
  minor, major, 15) unless the other team took one too at the same whistle (the same
  period and space: matching minors, 4 on 4, 15); a PP goal is a goal of strength ``PP``;
- ``blocked`` is 0: DICE Hockey has no blocked shots (every shot reaches the goalie, 8);
  ``faceoffs`` counts ``FaceoffWon`` per period (6);
- the game-winning goal and the goalies' decisions follow Hockey Bones' rules: the
  winner's (loser's final + 1)-th goal, none after a shootout; ``W`` to the winner's
  goalie of record, ``L`` to the loser's (``OTL`` when decided in OT or SO);
- the shootout lists every ``ShootoutAttempt`` of kind ``shootout`` (14); the winner's
  credited goal is in ``GameEnded`` (ruling R-DH-14c), so only there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from events.common import GameEnded, PeriodStarted, other_side
from events.dicehockey import (
    FaceoffWon,
    GoalScored,
    PenaltyAssessed,
    PeriodLengthSet,
    ShootoutAttempt,
    ShotTaken,
    TimingSpaceCounted,
)
from projections.dicehockey.ice import SIDES, TIMING_SPACES, Ice, fold_with_ice
from projections.models.scoresheet import (
    GoalieLine,
    GoalLine,
    PenaltyLine,
    PowerPlay,
    Scoresheet,
    ShootoutLine,
    TeamLine,
)
from projections.models.times import GameTime

__all__ = ["ScoresheetFold", "build_scoresheet"]


class _Goalie:
    __slots__ = ("side", "toi", "sa", "ga")

    def __init__(self, side: str) -> None:
        self.side, self.toi, self.sa, self.ga = side, 0, 0, 0


class ScoresheetFold:
    """The fold; ``apply`` one event at a time, ``result()`` whenever."""

    def __init__(self, ice: Ice | None = None) -> None:
        self.ice = Ice() if ice is None else ice  # another fold's, followed by it
        self.ended: GameEnded | None = None
        self.periods = 0  # regulation and overtime periods played (a shootout is not one)
        self.goals: list[GoalScored] = []
        self.goal_times: list[int] = []
        self.penalties: list[PenaltyAssessed] = []
        self.shots: dict[str, dict[int, int]] = {s: {} for s in SIDES}
        self.faceoffs: dict[str, dict[int, int]] = {s: {} for s in SIDES}
        self.goalies: dict[tuple[str, str], _Goalie] = {}
        self.goalie_order: list[tuple[str, str]] = []
        self.shot_before_goal: str | None = None  # the side whose shot just scored
        self.shootout: list[ShootoutAttempt] = []

    def apply(self, event: Any) -> None:
        self.ice.apply(event)
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def goalie(self, side: str, player: str) -> _Goalie:
        key = (side, player)
        if key not in self.goalies:
            self.goalies[key] = _Goalie(side)
            self.goalie_order.append(key)
        return self.goalies[key]

    def shot(self, side: str, goalie: str | None, scored: bool) -> None:
        period = self.ice.period
        self.shots[side][period] = self.shots[side].get(period, 0) + 1
        if goalie is not None:
            self.goalie(other_side(side), goalie).sa += 1
        self.shot_before_goal = side if scored else None

    # --- events ------------------------------------------------------------------------

    def on_shot_taken(self, e: ShotTaken) -> None:
        self.shot(e.side, e.goalie, e.goal)

    def on_attempt(self, e: ShootoutAttempt) -> None:
        if e.kind == "shootout":
            self.shootout.append(e)
        else:  # 15: a penalty shot is a shot on goal
            self.shot(e.side, e.goalie, e.scored)

    def on_goal(self, e: GoalScored) -> None:
        if self.shot_before_goal != e.side:  # 22: dumped or passed into an empty net
            self.shot(e.side, e.goalie, True)
        self.shot_before_goal = None
        if e.goalie is not None:
            self.goalie(other_side(e.side), e.goalie).ga += 1
        self.goals.append(e)
        self.goal_times.append(self.ice.space)

    def on_space(self, e: TimingSpaceCounted) -> None:
        for side in SIDES:
            goalie = self.ice.in_net(side)
            if goalie is not None:
                self.goalie(side, goalie).toi += 1

    def on_penalty(self, e: PenaltyAssessed) -> None:
        self.penalties.append(e)

    def on_faceoff(self, e: FaceoffWon) -> None:
        self.faceoffs[e.side][self.ice.period] = self.faceoffs[e.side].get(self.ice.period, 0) + 1

    def on_length(self, e: PeriodLengthSet) -> None:
        self.periods = max(self.periods, e.period)

    def on_period(self, e: PeriodStarted) -> None:
        self.shot_before_goal = None

    def on_game_ended(self, e: GameEnded) -> None:
        self.ended = e

    # --- the result --------------------------------------------------------------------

    def power_plays(self) -> dict[str, int]:
        """Opportunities per side (the side that gets the power play)."""
        short_at = {(p.side, p.period, p.space) for p in self.penalties if p.short}
        out = {s: 0 for s in SIDES}
        for p in self.penalties:
            if p.short and (other_side(p.side), p.period, p.space) not in short_at:
                out[other_side(p.side)] += 1
        return out

    def decisions(self) -> tuple[int | None, dict[tuple[str, str], str]]:
        """The index of the game-winning goal (None after a shootout) and the decisions by
        (side, goalie): the goalies of record (10)."""
        if self.ended is None or self.ended.winner not in SIDES:
            return None, {}
        win = self.ended.winner
        lose = other_side(win)
        gwg = None
        if self.ended.decided != "SO":
            lost_by = getattr(self.ended, f"{lose}_goals")
            mine = [n for n, g in enumerate(self.goals) if g.side == win]
            if len(mine) <= lost_by:
                return None, {}
            gwg = mine[lost_by]
        record = {}
        for side, decision in ((win, "W"), (lose, "L" if self.ended.decided == "REG" else "OTL")):
            goalie = self.ice.goalie[side]
            if goalie is not None:
                record[(side, goalie)] = decision
        return gwg, record

    def result(self) -> Scoresheet:
        ice = self.ice
        if ice.created is None:
            raise ValueError("a scoresheet needs the stream's GameCreated event")
        periods = range(1, max(self.periods, 1) + 1)
        pp = self.power_plays()
        teams = {}
        for side in SIDES:
            sheet = getattr(ice.created, side)
            by_period = [sum(1 for g in self.goals if g.side == side and g.period == p)
                         for p in periods]
            final = (getattr(self.ended, f"{side}_goals") if self.ended is not None
                     else sum(by_period))
            teams[side] = TeamLine(
                team=sheet.team_id, name=sheet.name, goals=final, goals_by_period=by_period,
                shots=[self.shots[side].get(p, 0) for p in periods],
                pp=PowerPlay(pp[side], sum(1 for g in self.goals
                                           if g.side == side and g.strength == "PP")),
                pim=sum(p.minutes for p in self.penalties if p.side == side),
                blocked=[0 for _ in periods],
                faceoffs=[self.faceoffs[side].get(p, 0) for p in periods])
        gwg, record = self.decisions()
        goals = [GoalLine.timed(GameTime(time, TIMING_SPACES), period=g.period,
                                team=ice.team[g.side], scorer=g.scorer,
                                scorer_name=ice.name(g.scorer), assists=list(g.assists),
                                assist_names=[ice.name(a) for a in g.assists],
                                strength=g.strength, gwg=n == gwg)
                 for n, (g, time) in enumerate(zip(self.goals, self.goal_times, strict=True))]
        penalties = [PenaltyLine.timed(GameTime(p.space, TIMING_SPACES), period=p.period,
                                       team=ice.team[p.side], player=p.player,
                                       player_name=ice.name(p.player), type=p.kind,
                                       minutes=p.minutes, infraction=p.infraction)
                     for p in self.penalties]
        order = {s: i for i, s in enumerate(SIDES)}
        goalies = [GoalieLine(team=ice.team[side], player=pid, name=ice.name(pid),
                              toi=g.toi, shots_against=g.sa, saves=g.sa - g.ga,
                              goals_against=g.ga, decision=record.get((side, pid), ""))
                   for (side, pid), g in sorted(self.goalies.items(),
                                                key=lambda kv: order[kv[0][0]])]
        shootout = [ShootoutLine(team=ice.team[a.side], shooter=a.shooter,
                                 shooter_name=ice.name(a.shooter), scored=a.scored)
                    for a in self.shootout]
        return Scoresheet(game_id=ice.created.game_id,
                          decided=self.ended.decided if self.ended else None,
                          home=teams["home"], away=teams["away"], goals=goals,
                          penalties=penalties, goalies=goalies, shootout=shootout)


_HANDLERS: Final[dict[type, Callable[[ScoresheetFold, Any], None]]] = {
    ShotTaken: ScoresheetFold.on_shot_taken,
    ShootoutAttempt: ScoresheetFold.on_attempt,
    GoalScored: ScoresheetFold.on_goal,
    TimingSpaceCounted: ScoresheetFold.on_space,
    PenaltyAssessed: ScoresheetFold.on_penalty,
    FaceoffWon: ScoresheetFold.on_faceoff,
    PeriodLengthSet: ScoresheetFold.on_length,
    PeriodStarted: ScoresheetFold.on_period,
    GameEnded: ScoresheetFold.on_game_ended,
}


def build_scoresheet(events: Iterable[Any]) -> Scoresheet:
    """Fold a DICE Hockey game's events (from its first, ``GameCreated``) into its
    scoresheet."""
    fold = ScoresheetFold()
    fold_with_ice(fold, fold.ice, _HANDLERS, events)
    return fold.result()
