"""The scoresheet of a Hockey Bones game: a pure fold into the shared ``Scoresheet``
(projections/models/scoresheet.py).

Imports events and the shared read-model types only (never the engine): every fact comes
from the stream. Times are seconds of the period (``SECONDS``: a goal's and a penalty's
shown ``MM:SS``).

Counting rules (documented in docs/json.md):

- a shot on goal is a ``ShotTaken`` that was not blocked, except an empty-net shot out of
  range (it missed the net: 10.50); a ``GoalScored`` not preceded by such a shot still
  counts one;
- shots against a goalie are the shots on goal while he was in net (the goalie the
  ``GoalieResult`` or ``GoalScored`` names, else the one on the ice per ``SequencePlayed``);
  saves = shots against - goals against;
- goalie time on ice is 24 s for every ``SequencePlayed`` with him in net (6.10);
- a power-play opportunity is a minor, double minor, major or bench minor with ``short > 0``
  against the other side, unless the other side took one too in the same period and
  sequence (coincidental); a power-play goal is a ``GoalScored`` of strength ``PP``;
- the final score is ``GameEnded``'s (the shootout winner's +1 included when ``SO``);
- ``blocked`` per period: the shots a team blocked (the other side's ``ShotTaken`` with
  ``block == "blocked"``); ``faceoffs``: face-offs won (``FaceoffRolled`` with a player,
  its ``side`` is the winner; ``player`` None is a re-roll, 7.00);
- the game-winning goal (``gwg``) is the winner's goal that put it ahead for good: its
  (loser's final goals + 1)-th goal; none when the game was decided in a shootout;
- goalie ``decision``: ``W`` for the winner's goalie in net when the winning goal was
  scored (in a shootout: at the end of overtime), ``L`` (``OTL`` when decided in OT or SO)
  for the loser's goalie of record then (the goalie scored on; for an empty-net goal the
  last one in net), ``""`` for the others and while the game is not over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from events.bones import (
    AssistsAwarded,
    AssistsCounted,
    ExactTime,
    FaceoffRolled,
    GoalieInjured,
    GoalieResult,
    GoalScored,
    LinesChanged,
    PenaltyAssessed,
    PenaltyShotAwarded,
    SequencePlayed,
    ShootoutAttempt,
    ShotTaken,
)
from events.common import GameCreated, GameEnded, PeriodStarted, other_side
from projections.models.scoresheet import (
    GoalieLine,
    GoalLine,
    PenaltyLine,
    PowerPlay,
    Scoresheet,
    ShootoutLine,
    TeamLine,
)
from projections.models.times import SECONDS, GameTime

__all__ = ["SEQUENCE_SECONDS", "ScoresheetFold", "build_scoresheet", "sequence_start"]

SEQUENCE_SECONDS = 24


def sequence_start(sequence: int) -> int:
    """The seconds of the period when time sequence ``sequence`` starts: (n - 1) x 24 s
    (6.10), a goal's time on the scoresheet (0 before the first)."""
    return (max(1, sequence) - 1) * SEQUENCE_SECONDS
PP_KINDS = frozenset({"minor", "double_minor", "major", "bench_minor"})
SIDES = ("home", "away")


def _count(per_period: list[int], period: int) -> None:
    """One more in ``period``'s column; a playoff game's overtimes add columns."""
    if period > len(per_period):
        per_period.extend([0] * (period - len(per_period)))
    per_period[period - 1] += 1


def _columns(per_period: list[int], periods: int) -> list[int]:
    """The first ``periods`` columns (a side with nothing in a late overtime has fewer)."""
    return [*per_period, *[0] * (periods - len(per_period))][:periods]


class _Goalie:
    __slots__ = ("side", "toi", "sa", "ga")

    def __init__(self, side: str) -> None:
        self.side, self.toi, self.sa, self.ga = side, 0, 0, 0


class ScoresheetFold:
    """The fold; ``apply`` one event at a time, ``result()`` whenever."""

    def __init__(self) -> None:
        self.created: GameCreated | None = None
        self.ended: GameEnded | None = None
        self.names: dict[str, str] = {}
        self.periods = 3
        self.period = 1
        self.goals: list[dict[str, Any]] = []
        self.penalties: list[PenaltyAssessed] = []
        self.penalty_shots: list[PenaltyLine] = []  # 11.10 PS1: no minutes, listed all the same
        self.sequence = 0
        self.ps_goalie: tuple[str, str] | None = None
        self.shots = {s: [0] * 5 for s in SIDES}
        self.blocked = {s: [0] * 5 for s in SIDES}
        self.faceoffs = {s: [0] * 5 for s in SIDES}
        self.last_in_net: dict[str, str | None] = {s: None for s in SIDES}
        self.goals_by_period = {s: [0] * 5 for s in SIDES}
        self.goalies: dict[str, _Goalie] = {}
        self.in_net: dict[str, str | None] = {s: None for s in SIDES}
        self.pending: tuple[str, str | None] | None = None  # (shooting side, goalie charged)
        self.last_goal: dict[str, Any] | None = None
        self.shootout: list[ShootoutAttempt] = []

    def goalie(self, side: str, player: str) -> _Goalie:
        g = self.goalies.get(player)
        if g is None:
            g = self.goalies[player] = _Goalie(side)
        return g

    def shot(self, side: str, period: int, goalie: str | None) -> None:
        _count(self.shots[side], period)
        if goalie is not None:
            self.goalie(other_side(side), goalie).sa += 1
        self.pending = (side, goalie)

    def recharge(self, goalie: str | None) -> None:
        """Move the pending shot onto the goalie the stream names for it."""
        if self.pending is None or goalie == self.pending[1]:
            return
        side, old = self.pending
        if old is not None:
            self.goalies[old].sa -= 1
        if goalie is not None:
            self.goalie(other_side(side), goalie).sa += 1
        self.pending = (side, goalie)

    def apply(self, e: Any) -> None:
        """Fold one event: the handler of its type; the events a scoresheet does not read
        (a third of a stream: rolls, passes, penalty calls...) cost one dict look-up."""
        handler = _HANDLERS.get(type(e))
        if handler is not None:
            handler(self, e)

    def on_sequence_played(self, e: SequencePlayed) -> None:
        self.pending = None
        self.period = e.period
        self.sequence = e.sequence
        # a side at a time, not a loop over a tuple of pairs made every sequence (0.15 M
        # instructions of a game's 10.6 M folded, callgrind)
        self._goalie_listed("home", e.home_goalie)
        self._goalie_listed("away", e.away_goalie)

    def _goalie_listed(self, side: str, gid: str | None) -> None:
        self.in_net[side] = gid
        if gid is not None:
            self.last_in_net[side] = gid
            self.goalie(side, gid).toi += SEQUENCE_SECONDS

    def on_shot_taken(self, e: ShotTaken) -> None:
        self.pending = None
        if e.block == "blocked":
            _count(self.blocked[other_side(e.side)], self.period)
            return
        if e.kind == "empty_net" and not e.in_range:
            return
        self.shot(e.side, self.period, self.in_net[other_side(e.side)])

    def on_goalie_result(self, e: GoalieResult) -> None:
        if self.pending is not None and self.pending[0] == other_side(e.side):
            self.recharge(e.goalie)
        if e.outcome == "penalty_shot":
            self.ps_goalie = (e.side, e.goalie)

    def on_penalty_shot_awarded(self, e: PenaltyShotAwarded) -> None:
        if e.awarded and self.ps_goalie is not None:
            side, goalie = self.ps_goalie
            self.penalty_shots.append(PenaltyLine.timed(
                GameTime(sequence_start(self.sequence), SECONDS),
                period=self.period, team=self.team_id(side), player=goalie,
                player_name=self.name(goalie), type="penalty_shot", minutes=0))

    def on_goal_scored(self, e: GoalScored) -> None:
        if self.pending is None or self.pending[0] != e.side:
            self.shot(e.side, e.period, e.goalie)
        else:
            self.recharge(e.goalie)
        self.pending = None
        if e.goalie is not None:
            self.goalie(other_side(e.side), e.goalie).ga += 1
        _count(self.goals_by_period[e.side], e.period)
        self.last_goal = {"period": e.period, "time": None, "side": e.side,
                          "scorer": e.scorer, "assists": [], "strength": e.strength,
                          "goalies": {e.side: self.last_in_net[e.side],
                                      other_side(e.side): e.goalie
                                      or self.last_in_net[other_side(e.side)]}}
        self.goals.append(self.last_goal)

    def on_exact_time(self, e: ExactTime) -> None:
        if e.kind == "goal" and self.last_goal is not None and self.last_goal["time"] is None:
            self.last_goal["time"] = e.time

    def on_assists_counted(self, e: AssistsCounted) -> None:
        if e.count == 0:
            self.last_goal = None

    def on_assists_awarded(self, e: AssistsAwarded) -> None:
        if self.last_goal is not None and self.last_goal["side"] == e.side:
            self.last_goal["assists"] = list(e.players)
        self.last_goal = None

    def on_penalty_assessed(self, e: PenaltyAssessed) -> None:
        self.penalties.append(e)

    def on_faceoff_rolled(self, e: FaceoffRolled) -> None:
        if e.player is not None:
            _count(self.faceoffs[e.side], self.period)

    def on_lines_changed(self, e: LinesChanged) -> None:
        if "G" in e.slots:
            self.in_net[e.side] = e.slots["G"]

    def on_goalie_injured(self, e: GoalieInjured) -> None:
        self.in_net[e.side] = e.replacement
        if e.replacement is not None:
            self.last_in_net[e.side] = e.replacement

    def on_period_started(self, e: PeriodStarted) -> None:
        self.pending = None
        self.period = e.period
        if e.period >= 4:  # overtime; a playoff game's 2OT, 3OT... (ruling R-6.00c)
            self.periods = max(self.periods, e.period)

    def on_shootout_attempt(self, e: ShootoutAttempt) -> None:
        self.shootout.append(e)

    def on_game_ended(self, e: GameEnded) -> None:
        self.ended = e

    def on_game_created(self, e: GameCreated) -> None:
        self.created = e
        for sheet in (e.home, e.away):
            self.names.update((r.id, r.name) for r in sheet.roster)

    def name(self, pid: str) -> str:
        return self.names.get(pid, pid)

    def team_id(self, side: str) -> str:
        assert self.created is not None
        return getattr(self.created, side).team_id

    def power_plays(self) -> dict[str, int]:
        """Opportunities per side (the side that gets the power play)."""
        short_at = {(p.side, p.period, p.sequence) for p in self.penalties if p.short > 0}
        out = {s: 0 for s in SIDES}
        for p in self.penalties:
            if p.short > 0 and p.kind in PP_KINDS and \
                    (other_side(p.side), p.period, p.sequence) not in short_at:
                out[other_side(p.side)] += 1
        return out

    def winning_goal(self) -> tuple[dict[str, Any] | None, dict[tuple[str, str], str]]:
        """The game-winning goal (None in a shootout) and the decisions by (side, goalie)."""
        if self.ended is None:
            return None, {}
        win = self.ended.winner
        if self.ended.decided == "TIE":
            # FaceOff 5.00: a tie has no winning goal; the goalies in net at the end
            # each take a tie.
            return None, {(side, g): "T" for side, g in self.last_in_net.items() if g}
        lose = other_side(win)
        gwg = None
        if self.ended.decided == "SO":
            goalies = dict(self.last_in_net)
        else:
            lost_by = getattr(self.ended, f"{lose}_goals")
            mine = [g for g in self.goals if g["side"] == win]
            if len(mine) <= lost_by:
                return None, {}
            gwg = mine[lost_by]
            goalies = gwg["goalies"]
        record = {}
        if goalies.get(win):
            record[(win, goalies[win])] = "W"
        if goalies.get(lose):
            record[(lose, goalies[lose])] = "L" if self.ended.decided == "REG" else "OTL"
        return gwg, record

    def result(self) -> Scoresheet:
        if self.created is None:
            raise ValueError("a scoresheet needs the stream's GameCreated event")
        pp = self.power_plays()
        teams = {}
        for side in SIDES:
            sheet = getattr(self.created, side)
            final = (getattr(self.ended, f"{side}_goals") if self.ended is not None
                     else sum(self.goals_by_period[side]))
            teams[side] = TeamLine(
                team=sheet.team_id, name=sheet.name, goals=final,
                goals_by_period=_columns(self.goals_by_period[side], self.periods),
                shots=_columns(self.shots[side], self.periods),
                pp=PowerPlay(pp[side], sum(1 for g in self.goals
                                           if g["side"] == side and g["strength"] == "PP")),
                pim=sum(p.minutes for p in self.penalties if p.side == side),
                blocked=_columns(self.blocked[side], self.periods),
                faceoffs=_columns(self.faceoffs[side], self.periods),
            )
        gwg, record = self.winning_goal()
        goals = [GoalLine.timed(GameTime(g["time"] or 0, SECONDS), period=g["period"],
                                team=self.team_id(g["side"]), scorer=g["scorer"],
                                scorer_name=self.name(g["scorer"]), assists=g["assists"],
                                assist_names=[self.name(a) for a in g["assists"]],
                                strength=g["strength"], gwg=g is gwg) for g in self.goals]
        penalties = [PenaltyLine.timed(GameTime(p.time, SECONDS), period=p.period,
                                       team=self.team_id(p.side), player=p.player,
                                       player_name=self.name(p.player), type=p.kind,
                                       minutes=p.minutes) for p in self.penalties]
        penalties = sorted([*penalties, *self.penalty_shots],
                           key=lambda p: (p.period, p.at.value))
        order = {s: i for i, s in enumerate(SIDES)}
        goalies = [GoalieLine(team=self.team_id(g.side), player=pid, name=self.name(pid),
                              toi=g.toi, shots_against=g.sa, saves=g.sa - g.ga,
                              goals_against=g.ga, decision=record.get((g.side, pid), ""))
                   for pid, g in sorted(self.goalies.items(), key=lambda kv: order[kv[1].side])]
        shootout = [ShootoutLine(team=self.team_id(a.side), shooter=a.shooter,
                                 shooter_name=self.name(a.shooter), scored=a.scored)
                    for a in self.shootout]
        return Scoresheet(game_id=self.created.game_id,
                          decided=self.ended.decided if self.ended else None,
                          home=teams["home"], away=teams["away"], goals=goals,
                          penalties=penalties, goalies=goalies, shootout=shootout)


# The events a scoresheet reads, each with its handler (every event type is a leaf
# class, so its exact type finds it).
_HANDLERS: dict[type, Callable[[ScoresheetFold, Any], None]] = {
    SequencePlayed: ScoresheetFold.on_sequence_played,
    ShotTaken: ScoresheetFold.on_shot_taken,
    GoalieResult: ScoresheetFold.on_goalie_result,
    PenaltyShotAwarded: ScoresheetFold.on_penalty_shot_awarded,
    GoalScored: ScoresheetFold.on_goal_scored,
    ExactTime: ScoresheetFold.on_exact_time,
    AssistsCounted: ScoresheetFold.on_assists_counted,
    AssistsAwarded: ScoresheetFold.on_assists_awarded,
    PenaltyAssessed: ScoresheetFold.on_penalty_assessed,
    FaceoffRolled: ScoresheetFold.on_faceoff_rolled,
    LinesChanged: ScoresheetFold.on_lines_changed,
    GoalieInjured: ScoresheetFold.on_goalie_injured,
    PeriodStarted: ScoresheetFold.on_period_started,
    ShootoutAttempt: ScoresheetFold.on_shootout_attempt,
    GameEnded: ScoresheetFold.on_game_ended,
    GameCreated: ScoresheetFold.on_game_created,
}


def build_scoresheet(events: Iterable[Any]) -> Scoresheet:
    """Fold a game's events (from its first, ``GameCreated``) into its scoresheet."""
    fold = ScoresheetFold()
    handlers = _HANDLERS
    for event in events:
        handler = handlers.get(type(event))
        if handler is not None:
            handler(fold, event)
    return fold.result()
