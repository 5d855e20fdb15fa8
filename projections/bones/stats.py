"""Player, goalie and team stats of a Hockey Bones game: a pure fold into the shared
``GameStats`` (projections/models/stats.py), summed over games by ``combine``.

Imports events, its own scoresheet fold and the shared read-model types only (never the
engine). Counting rules (also in docs/json.md):

- skaters: ``g``/``a``/``p`` from ``GoalScored`` and ``AssistsAwarded`` (shootout goals
  count for nobody); ``plus_minus``: an EV, SH or EN goal gives +1 to every skater of the
  scoring side in ``GoalScored.home_on_ice``/``away_on_ice`` and -1 to every skater of the
  other side's list; PP and PS goals count for nobody; ``pim`` = minutes charged to the
  player (a bench minor is the team's, not its server's); ``sog`` counted as the
  scoresheet counts shots on goal, credited to the shooter;
  ``shots_blocked``: the player's shots that were blocked (``ShotTaken`` names no blocker,
  so blocks are credited to teams only: team ``blocked``); ``fow`` = face-offs won
  (``FaceoffRolled.player``); ``ppp``/``shp`` = goals and assists on PP / SH goals;
  ``gp`` = 1 for every game the player is on the ice for at least one sequence;
- goalies: ``gp`` (in net for at least one sequence), ``w``/``l``/``otl`` from the
  scoresheet's decision, ``sa``/``sv``/``ga``/``toi`` from the scoresheet's goalie line,
  ``sv_pct`` = sv / sa, ``gaa`` = ga × 3600 / toi, ``so`` = his team's only goalie
  of a game in which it allowed no goal (``shutouts``, ruling S-1); ``sv_pct`` and
  ``gaa``: ``goalie_figures``, what every page and command shows;
- teams: ``gp``, ``w``, ``l``, ``otl`` (a loss in OT or SO), ``gf``/``ga`` (final score,
  shootout +1 included), ``ppo``/``ppg`` (own power plays), ``pko``/``ppga`` (the other
  side's), ``pp_pct`` = 100 × ppg / ppo, ``pk_pct`` = 100 × (1 - ppga / pko), ``blocked``.

Ratios are computed from the summed counts, so stats of several games are the sum of the
games' counts with the ratios recomputed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from events.bones import (
    AssistsAwarded,
    FaceoffRolled,
    GoalScored,
    PenaltyAssessed,
    SequencePlayed,
    ShotTaken,
)
from events.common import GameCreated, PeriodStarted, other_side
from projections.bones.scoresheet import ScoresheetFold, build_scoresheet
from projections.models.scoresheet import Scoresheet
from projections.models.stats import (
    GameStats,
    Key,
    finish_game_stats,
    game_scoresheet,
    point,
)

__all__ = ["StatsFold", "build_stats"]

SIDES = ("home", "away")


class _Net:
    """A side's goalie in net as the sequences list him (None: nobody) and the sequences
    in a row he was listed for."""

    __slots__ = ("goalie", "steps")

    def __init__(self) -> None:
        self.goalie: str | None = None
        self.steps = 0


class StatsFold:
    """The stats fold; ``apply`` one event at a time. Goalie decisions and team results
    come from the game's scoresheet: the fold folds its own copy unless ``own_sheet`` is
    False, when :meth:`result` is handed the scoresheet folded from the same events."""

    def __init__(self, own_sheet: bool = True) -> None:
        self.sheet = ScoresheetFold() if own_sheet else None
        self.stats = GameStats()
        self.created: GameCreated | None = None
        self.team_of: dict[str, str] = {}
        self.pending: tuple[str, str] | None = None  # (side, shooter) of a shot on goal
        self.last_goal: GoalScored | None = None
        self.in_net: dict[Key, int] = {}
        # each side's skaters on the ice for a sequence, by id (their (team, id) keys made
        # once each at the end, not a key a skater every time a side's list changes:
        # 0.2 M instructions of a game's 10.6 M folded, callgrind)
        self.on_ice: dict[str, set[str]] = {side: set() for side in SIDES}
        # each side's skaters as the last SequencePlayed listed them: most list the same
        # skaters as the one before, whose keys are in on_ice already
        self.listed: dict[str, list[str]] = {side: [] for side in SIDES}
        # each side's goalie in net as the sequences list him, and for how many of them in
        # a row, added to in_net when another is listed and at the end: not a (team, id)
        # key made and looked up every sequence for the same goalie (0.5 M instructions of
        # a game's 14.3 M folded)
        self.net: dict[str, _Net] = {side: _Net() for side in SIDES}

    def key(self, side: str, pid: str) -> Key:
        return (self.team_of[side], pid)

    def apply(self, e: Any) -> None:
        if self.sheet is not None:
            self.sheet.apply(e)
        handler = _HANDLERS.get(type(e))
        if handler is not None:
            handler(self, e)

    def on_sequence_played(self, e: SequencePlayed) -> None:
        self.pending = None
        self._on_ice("home", e.home, e.home_goalie)
        self._on_ice("away", e.away, e.away_goalie)

    def _on_ice(self, side: str, skaters: list[str], goalie: str | None) -> None:
        if skaters != self.listed[side]:
            self.listed[side] = skaters
            self.on_ice[side].update(skaters)
        net = self.net[side]
        if goalie != net.goalie:
            self._into_net(side, net)
            net.goalie = goalie
        net.steps += 1

    def _into_net(self, side: str, net: _Net) -> None:
        """The steps in net of the goalie counted running for ``side``, into ``in_net``."""
        if net.goalie is not None:
            k = self.key(side, net.goalie)
            self.in_net[k] = self.in_net.get(k, 0) + net.steps
        net.goalie, net.steps = None, 0

    def on_shot_taken(self, e: ShotTaken) -> None:
        st = self.stats
        self.pending = None
        if e.block == "blocked":
            st.skater(self.key(e.side, e.shooter))["shots_blocked"] += 1
            st.team(self.team_of[other_side(e.side)])["blocked"] += 1
        elif not (e.kind == "empty_net" and not e.in_range):
            st.skater(self.key(e.side, e.shooter))["sog"] += 1
            self.pending = (e.side, e.shooter)

    def on_goal_scored(self, e: GoalScored) -> None:
        st = self.stats
        if self.pending is None or self.pending[0] != e.side:
            st.skater(self.key(e.side, e.scorer))["sog"] += 1
        self.pending = None
        point(st.skater(self.key(e.side, e.scorer)), "g", e.strength)
        if e.strength in ("EV", "SH", "EN"):
            mine, theirs = ((e.home_on_ice, e.away_on_ice) if e.side == "home"
                            else (e.away_on_ice, e.home_on_ice))
            for pid in mine:
                st.skater(self.key(e.side, pid))["plus_minus"] += 1
            for pid in theirs:
                st.skater(self.key(other_side(e.side), pid))["plus_minus"] -= 1
        self.last_goal = e

    def on_assists_awarded(self, e: AssistsAwarded) -> None:
        goal = self.last_goal
        if goal is not None and goal.side == e.side:
            for pid in e.players:
                point(self.stats.skater(self.key(e.side, pid)), "a", goal.strength)
        self.last_goal = None

    def on_penalty_assessed(self, e: PenaltyAssessed) -> None:
        if e.kind != "bench_minor":
            # A bench minor is the team's (5.00): the skater who sits it is not charged.
            self.stats.skater(self.key(e.side, e.player))["pim"] += e.minutes

    def on_faceoff_rolled(self, e: FaceoffRolled) -> None:
        if e.player is not None:
            self.stats.skater(self.key(e.side, e.player))["fow"] += 1

    def on_period_started(self, e: PeriodStarted) -> None:
        self.pending = None

    def on_game_created(self, e: GameCreated) -> None:
        st = self.stats
        self.created = e
        st.games.append(e.game_id)
        for side in SIDES:
            sheet = getattr(e, side)
            self.team_of[side] = sheet.team_id
            for r in sheet.roster:
                st.names[(sheet.team_id, r.id)] = (r.name, r.position)

    def result(self, scoresheet: Scoresheet | None = None) -> GameStats:
        """The stats; ``scoresheet`` is the game's, folded from the same events (needed
        when the fold has no sheet of its own)."""
        sheet = game_scoresheet(scoresheet, self.sheet)
        for side in SIDES:
            self._into_net(side, self.net[side])
        on_ice = {self.key(side, pid) for side in SIDES for pid in self.on_ice[side]}
        return finish_game_stats(self.stats, sheet, on_ice, self.in_net)


# The events the stats read beyond the scoresheet's, each with its handler.
_HANDLERS: dict[type, Callable[[StatsFold, Any], None]] = {
    SequencePlayed: StatsFold.on_sequence_played,
    ShotTaken: StatsFold.on_shot_taken,
    GoalScored: StatsFold.on_goal_scored,
    AssistsAwarded: StatsFold.on_assists_awarded,
    PenaltyAssessed: StatsFold.on_penalty_assessed,
    FaceoffRolled: StatsFold.on_faceoff_rolled,
    PeriodStarted: StatsFold.on_period_started,
    GameCreated: StatsFold.on_game_created,
}


def build_stats(events: Iterable[Any], scoresheet: Scoresheet | None = None) -> GameStats:
    """Fold one game's events (from its first, ``GameCreated``) into its stats.

    ``scoresheet``, the game's scoresheet when the caller has it (folded from the same
    events), spares folding a second copy of it."""
    if scoresheet is None:
        events = list(events)  # folded twice: once for the scoresheet
        scoresheet = build_scoresheet(events)
    fold = StatsFold(own_sheet=False)
    handlers = _HANDLERS
    for event in events:
        handler = handlers.get(type(event))
        if handler is not None:
            handler(fold, event)
    return fold.result(scoresheet)
