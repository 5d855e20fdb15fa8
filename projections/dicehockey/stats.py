"""Player, goalie and team stats of a DICE Hockey game: a pure fold into the shared
``GameStats`` (projections/models/stats.py, summed over games by ``combine``).

Counting rules (docs/json.md, "DICE Hockey"):

- skaters: ``gp`` on the ice for at least one timing space; ``g``/``a``/``p`` from
  ``GoalScored`` (its ``assists``: the last two to handle the puck, 7; a penalty-shot goal
  has none, shootout goals count for nobody); ``plus_minus``: EV, SH and EN goals, +1 to
  each skater of the scoring side in the goal's on-ice list (each player once), -1 to each
  of the other side's; ``pim`` the minutes charged (DICE Hockey has no bench minor);
  ``sog`` counted as the scoresheet counts shots on goal (every ``ShotTaken``, a penalty
  shot, a goal into an empty net with no shot), credited to the shooter;
  ``shots_blocked`` 0 (DICE Hockey has no blocked shots: every shot reaches the goalie,
  8); ``fow`` face-offs won (``FaceoffWon.winner``, 6; the loser is not a count);
  ``ppp``/``shp`` goals and assists on PP / SH goals;
- goalies: as Hockey Bones' from the scoresheet's goalie line (``toi`` in timing spaces),
  ``gp`` in net for a timing space, ``so`` as Hockey Bones' (``shutouts``, ruling
  S-1); GAA is goals against per regulation game: ``ga`` / (``toi`` / the game's
  regulation spaces, 12);
- teams: as Hockey Bones' (``blocked`` 0).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from events.common import GameCreated, PeriodStarted, other_side
from events.dicehockey import (
    FaceoffWon,
    GoalScored,
    PenaltyAssessed,
    ShootoutAttempt,
    ShotTaken,
    TimingSpaceCounted,
)
from projections.dicehockey.ice import SIDES, Ice, fold_with_ice, unique
from projections.dicehockey.scoresheet import ScoresheetFold
from projections.models.scoresheet import Scoresheet
from projections.models.stats import (
    GameStats,
    Key,
    finish_game_stats,
    game_scoresheet,
    point,
)

__all__ = ["DiceHockeyStatsFold", "build_stats"]


class DiceHockeyStatsFold:
    """The stats fold; ``apply`` one event at a time. It follows the ice (who is in net,
    the regulation spaces); the goalie and team lines come from the game's scoresheet as
    every system's do (``finish_game_stats``): its own scoresheet fold's (which follows the
    ice for it), unless ``own_sheet`` is False, when :meth:`result` is handed the
    scoresheet folded from the same events and the fold follows the ice alone."""

    def __init__(self, own_sheet: bool = True, ice: Ice | None = None) -> None:
        self.sheet = ScoresheetFold(ice) if own_sheet else None
        # its sheet's, else ``ice`` (another fold's, followed by it) or its own
        self.ice = self.sheet.ice if self.sheet is not None else Ice() if ice is None else ice
        self.stats = GameStats()
        self.created: GameCreated | None = None
        self.team_of: dict[str, str] = {}
        self.shot_before_goal: str | None = None
        self.in_net: dict[Key, int] = {}
        # each side's skaters on the ice for a timing space, by id: their (team, id) keys
        # made once each at the end, not a key a skater every time a side's list changes
        # (four spaces in five), as Hockey Bones' stats keep them
        self.on_ice: dict[str, set[str]] = {side: set() for side in SIDES}
        # each side's on-ice list as the last timing space gave it: most spaces list the
        # same players as the one before, whose keys are in on_ice already
        self.listed: dict[str, list[str]] = {side: [] for side in SIDES}

    def key(self, side: str, pid: str) -> Key:
        return (self.team_of[side], pid)

    def apply(self, event: Any) -> None:
        if self.sheet is not None:
            self.sheet.apply(event)  # its ice first, as the fold's own
        else:
            self.ice.apply(event)
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def shot(self, side: str, shooter: str, scored: bool) -> None:
        self.stats.skater(self.key(side, shooter))["sog"] += 1
        self.shot_before_goal = side if scored else None

    def on_created(self, e: GameCreated) -> None:
        self.created = e
        self.stats.games.append(e.game_id)
        for side in SIDES:
            sheet = getattr(e, side)
            self.team_of[side] = sheet.team_id
            for r in sheet.roster:
                self.stats.names[(sheet.team_id, r.id)] = (r.name, r.position)

    def on_space(self, e: TimingSpaceCounted) -> None:
        self._on_ice("home", e.home_on_ice)
        self._on_ice("away", e.away_on_ice)

    def _on_ice(self, side: str, listed: list[str]) -> None:
        if listed != self.listed[side]:
            self.listed[side] = listed
            self.on_ice[side].update(listed)  # a set: a player listed twice is in it once
        goalie = self.ice.in_net(side)
        if goalie is not None:
            key = self.key(side, goalie)
            self.in_net[key] = self.in_net.get(key, 0) + 1

    def on_shot_taken(self, e: ShotTaken) -> None:
        self.shot(e.side, e.shooter, e.goal)

    def on_attempt(self, e: ShootoutAttempt) -> None:
        if e.kind == "penalty_shot":  # 15: a shot on goal; shootout attempts are not
            self.shot(e.side, e.shooter, e.scored)

    def on_goal(self, e: GoalScored) -> None:
        st = self.stats
        if self.shot_before_goal != e.side:  # 22: into an empty net without a shot
            st.skater(self.key(e.side, e.scorer))["sog"] += 1
        self.shot_before_goal = None
        point(st.skater(self.key(e.side, e.scorer)), "g", e.strength)
        for pid in e.assists:
            point(st.skater(self.key(e.side, pid)), "a", e.strength)
        if e.strength in ("EV", "SH", "EN"):
            mine, theirs = ((e.home_on_ice, e.away_on_ice) if e.side == "home"
                            else (e.away_on_ice, e.home_on_ice))
            for pid in unique(mine):
                st.skater(self.key(e.side, pid))["plus_minus"] += 1
            for pid in unique(theirs):
                st.skater(self.key(other_side(e.side), pid))["plus_minus"] -= 1

    def on_penalty(self, e: PenaltyAssessed) -> None:
        self.stats.skater(self.key(e.side, e.player))["pim"] += e.minutes

    def on_faceoff(self, e: FaceoffWon) -> None:
        self.stats.skater(self.key(e.side, e.winner))["fow"] += 1

    def on_period(self, e: PeriodStarted) -> None:
        self.shot_before_goal = None

    def result(self, scoresheet: Scoresheet | None = None) -> GameStats:
        sheet = game_scoresheet(scoresheet, self.sheet)
        on_ice = {self.key(side, pid) for side in SIDES for pid in self.on_ice[side]}
        st = finish_game_stats(self.stats, sheet, on_ice, self.in_net)
        regulation = self.ice.regulation_spaces()
        for (team, pid), row in st.goalies.items():
            st.games_in_net[(team, pid)] = row["toi"] / regulation if regulation else 0.0
        return st


_HANDLERS: Final[dict[type, Callable[[DiceHockeyStatsFold, Any], None]]] = {
    GameCreated: DiceHockeyStatsFold.on_created,
    TimingSpaceCounted: DiceHockeyStatsFold.on_space,
    ShotTaken: DiceHockeyStatsFold.on_shot_taken,
    ShootoutAttempt: DiceHockeyStatsFold.on_attempt,
    GoalScored: DiceHockeyStatsFold.on_goal,
    PenaltyAssessed: DiceHockeyStatsFold.on_penalty,
    FaceoffWon: DiceHockeyStatsFold.on_faceoff,
    PeriodStarted: DiceHockeyStatsFold.on_period,
}


def build_stats(events: Iterable[Any], scoresheet: Scoresheet | None = None) -> GameStats:
    """Fold one DICE Hockey game's events (from its first) into its stats. ``scoresheet``,
    the game's when the caller has it (folded from the same events), gives the goalie and
    team lines and spares the fold a scoresheet of its own (it follows the ice alone)."""
    fold = DiceHockeyStatsFold(own_sheet=scoresheet is None)
    if fold.sheet is None:  # the ice alone
        fold_with_ice(fold, fold.ice, _HANDLERS, events)
    else:
        for event in events:
            fold.apply(event)
    return fold.result(scoresheet)
