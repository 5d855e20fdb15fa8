"""Player, goalie and team stats: a pure fold per game, summed over any set of games.

Imports events and other projections only (never the engine). Counting rules (also in
docs/json.md):

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
  ``sv_pct`` = sv / sa, ``gaa`` = ga × 3600 / toi, ``so`` = a win with no goal against
  and in net for every sequence of the game (``sv_pct`` and ``gaa``: :func:`goalie_figures`,
  what every page and command shows);
- teams: ``gp``, ``w``, ``l``, ``otl`` (a loss in OT or SO), ``gf``/``ga`` (final score,
  shootout +1 included), ``ppo``/``ppg`` (own power plays), ``pko``/``ppga`` (the other
  side's), ``pp_pct`` = 100 × ppg / ppo, ``pk_pct`` = 100 × (1 - ppga / pko), ``blocked``.

Ratios are computed from the summed counts, so stats of several games are the sum of the
games' counts with the ratios recomputed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from events.bones import (
    AssistsAwarded,
    FaceoffRolled,
    GoalScored,
    PenaltyAssessed,
    SequencePlayed,
    ShotTaken,
)
from events.common import GameCreated, PeriodStarted, other_side
from projections.scoresheet import Scoresheet, build_scoresheet
from projections.scoresheet import _Fold as _SheetFold

__all__ = ["GOALIE_COUNTS", "SKATER_COUNTS", "TEAM_COUNTS", "GameStats", "GoalieFigures",
           "StatsFold", "build_stats", "combine", "goalie_figures"]

SIDES = ("home", "away")
SKATER_COUNTS = ("gp", "g", "a", "p", "plus_minus", "pim", "sog", "shots_blocked", "fow",
                 "ppp", "shp")
GOALIE_COUNTS = ("gp", "w", "l", "otl", "t", "sa", "sv", "ga", "toi", "so")
TEAM_COUNTS = ("gp", "w", "l", "otl", "t", "gf", "ga", "ppo", "ppg", "pko", "ppga", "blocked")

Key = tuple[str, str]  # (team id, player id): ids may repeat across teams


@dataclass(frozen=True)
class GoalieFigures:
    """A goalie's rates over any set of games, as every page and command shows them.

    ``sv_pct``: saves / shots against (4 places), None without a shot. ``gaa``: goals
    against per regulation game (2 places), None without time in net: ga × 3600 / toi
    where ``toi`` is seconds (Hockey Bones, FaceOff 2008: per 60 minutes); ga / the
    regulation games' worth of time in net where a system counts another unit (DICE
    Hockey: timing spaces / the game's regulation spaces, summed over the games)."""

    sv_pct: float | None
    gaa: float | None


def goalie_figures(sa: int, sv: int, ga: int, toi: int,
                   games_in_net: float | None = None) -> GoalieFigures:
    """The rates of summed counts; ``games_in_net`` None: ``toi`` is seconds."""
    if games_in_net is None:
        gaa = round(ga * 3600 / toi, 2) if toi else None
    else:
        gaa = round(ga / games_in_net, 2) if games_in_net else None
    return GoalieFigures(sv_pct=round(sv / sa, 4) if sa else None, gaa=gaa)


def _point(row: dict[str, int], kind: str, strength: str) -> None:
    """A goal (``g``) or an assist (``a``): a point, and a PP or SH point by strength."""
    row[kind] += 1
    row["p"] += 1
    if strength == "PP":
        row["ppp"] += 1
    elif strength == "SH":
        row["shp"] += 1


class GameStats:
    """Counting stats keyed by (team, player) / team; add them with :func:`combine`."""

    def __init__(self) -> None:
        self.games: list[str] = []
        self.names: dict[Key, tuple[str, str]] = {}  # -> (name, position)
        self.skaters: dict[Key, dict[str, int]] = {}
        self.goalies: dict[Key, dict[str, int]] = {}
        self.teams: dict[str, dict[str, int]] = {}
        # Regulation games' worth of time in net per goalie, for systems whose ``toi`` is
        # not seconds (DICE Hockey: timing spaces / the game's regulation spaces); its GAA
        # is goals against per regulation game. Not a count of its own (no JSON key).
        self.games_in_net: dict[Key, float] = {}

    def skater(self, key: Key) -> dict[str, int]:
        return self.skaters.setdefault(key, dict.fromkeys(SKATER_COUNTS, 0))

    def goalie(self, key: Key) -> dict[str, int]:
        return self.goalies.setdefault(key, dict.fromkeys(GOALIE_COUNTS, 0))

    def team(self, team: str) -> dict[str, int]:
        return self.teams.setdefault(team, dict.fromkeys(TEAM_COUNTS, 0))

    def add(self, other: GameStats) -> None:
        self.games.extend(other.games)
        self.names.update(other.names)
        for theirs, make in ((other.skaters, self.skater), (other.goalies, self.goalie),
                             (other.teams, self.team)):
            for key, counts in theirs.items():
                row = make(key)
                for k, v in counts.items():
                    row[k] += v
        for key, games in other.games_in_net.items():
            self.games_in_net[key] = self.games_in_net.get(key, 0.0) + games

    def to_json(self) -> dict[str, Any]:
        skaters = []
        for (team, pid), c in sorted(self.skaters.items()):
            name, position = self.names.get((team, pid), (pid, "?"))
            skaters.append({"team": team, "player": pid, "name": name, "position": position,
                            **c})
        goalies = []
        for (team, pid), c in sorted(self.goalies.items()):
            name, _ = self.names.get((team, pid), (pid, "G"))
            figures = goalie_figures(c["sa"], c["sv"], c["ga"], c["toi"],
                                     self.games_in_net.get((team, pid)))
            goalies.append({"team": team, "player": pid, "name": name, **c,
                            "sv_pct": figures.sv_pct, "gaa": figures.gaa})
        teams = []
        for team, c in sorted(self.teams.items()):
            teams.append({"team": team, **c,
                          "pp_pct": round(100 * c["ppg"] / c["ppo"], 1) if c["ppo"] else None,
                          "pk_pct": round(100 * (1 - c["ppga"] / c["pko"]), 1)
                          if c["pko"] else None})
        return {"games": list(self.games), "skaters": skaters, "goalies": goalies,
                "teams": teams}


class StatsFold:
    """The stats fold; ``apply`` one event at a time. Goalie decisions and team results
    come from the game's scoresheet: the fold folds its own copy unless ``own_sheet`` is
    False, when :meth:`result` is handed the scoresheet folded from the same events."""

    def __init__(self, own_sheet: bool = True) -> None:
        self.sheet = _SheetFold() if own_sheet else None
        self.stats = GameStats()
        self.created: GameCreated | None = None
        self.team_of: dict[str, str] = {}
        self.pending: tuple[str, str] | None = None  # (side, shooter) of a shot on goal
        self.last_goal: GoalScored | None = None
        self.sequences = 0
        self.in_net: dict[Key, int] = {}
        self.on_ice: set[Key] = set()

    def key(self, side: str, pid: str) -> Key:
        return (self.team_of[side], pid)

    def apply(self, e: Any) -> None:
        if self.sheet is not None:
            self.sheet.apply(e)
        handler = self.HANDLERS.get(type(e))
        if handler is not None:
            handler(self, e)

    def _sequence_played(self, e: SequencePlayed) -> None:
        self.pending = None
        self.sequences += 1
        for side, skaters, goalie in (("home", e.home, e.home_goalie),
                                      ("away", e.away, e.away_goalie)):
            for pid in skaters:
                self.on_ice.add(self.key(side, pid))
            if goalie is not None:
                k = self.key(side, goalie)
                self.in_net[k] = self.in_net.get(k, 0) + 1

    def _shot_taken(self, e: ShotTaken) -> None:
        st = self.stats
        self.pending = None
        if e.block == "blocked":
            st.skater(self.key(e.side, e.shooter))["shots_blocked"] += 1
            st.team(self.team_of[other_side(e.side)])["blocked"] += 1
        elif not (e.kind == "empty_net" and not e.in_range):
            st.skater(self.key(e.side, e.shooter))["sog"] += 1
            self.pending = (e.side, e.shooter)

    def _goal_scored(self, e: GoalScored) -> None:
        st = self.stats
        if self.pending is None or self.pending[0] != e.side:
            st.skater(self.key(e.side, e.scorer))["sog"] += 1
        self.pending = None
        _point(st.skater(self.key(e.side, e.scorer)), "g", e.strength)
        if e.strength in ("EV", "SH", "EN"):
            mine, theirs = ((e.home_on_ice, e.away_on_ice) if e.side == "home"
                            else (e.away_on_ice, e.home_on_ice))
            for pid in mine:
                st.skater(self.key(e.side, pid))["plus_minus"] += 1
            for pid in theirs:
                st.skater(self.key(other_side(e.side), pid))["plus_minus"] -= 1
        self.last_goal = e

    def _assists_awarded(self, e: AssistsAwarded) -> None:
        goal = self.last_goal
        if goal is not None and goal.side == e.side:
            for pid in e.players:
                _point(self.stats.skater(self.key(e.side, pid)), "a", goal.strength)
        self.last_goal = None

    def _penalty_assessed(self, e: PenaltyAssessed) -> None:
        if e.kind != "bench_minor":
            # A bench minor is the team's (5.00): the skater who sits it is not charged.
            self.stats.skater(self.key(e.side, e.player))["pim"] += e.minutes

    def _faceoff_rolled(self, e: FaceoffRolled) -> None:
        if e.player is not None:
            self.stats.skater(self.key(e.side, e.player))["fow"] += 1

    def _period_started(self, e: PeriodStarted) -> None:
        self.pending = None

    def _game_created(self, e: GameCreated) -> None:
        st = self.stats
        self.created = e
        st.games.append(e.game_id)
        for side in SIDES:
            sheet = getattr(e, side)
            self.team_of[side] = sheet.team_id
            for r in sheet.roster:
                st.names[(sheet.team_id, r.id)] = (r.name, r.position)

    # The events the stats read beyond the scoresheet's, each with its handler.
    HANDLERS: ClassVar[dict[type, Callable[[StatsFold, Any], None]]] = {
        SequencePlayed: _sequence_played, ShotTaken: _shot_taken, GoalScored: _goal_scored,
        AssistsAwarded: _assists_awarded, PenaltyAssessed: _penalty_assessed,
        FaceoffRolled: _faceoff_rolled, PeriodStarted: _period_started,
        GameCreated: _game_created,
    }

    def result(self, scoresheet: Scoresheet | None = None) -> GameStats:
        """The stats; ``scoresheet`` is the game's, folded from the same events (needed
        when the fold has no sheet of its own)."""
        st = self.stats
        for key in sorted(self.on_ice):
            st.skater(key)["gp"] = 1
        if scoresheet is not None:
            sheet = scoresheet
        elif self.sheet is not None:
            sheet = self.sheet.result()
        else:
            raise ValueError("stats folded without their own scoresheet need the game's")
        for g in sheet.goalies:
            row = st.goalie((g.team, g.player))
            row["gp"] = 1 if self.in_net.get((g.team, g.player)) else 0
            row["sa"], row["sv"], row["ga"], row["toi"] = (g.shots_against, g.saves,
                                                           g.goals_against, g.toi)
            if g.decision:
                row[g.decision.lower()] = 1
            full = self.in_net.get((g.team, g.player), 0) == self.sequences
            row["so"] = int(g.decision == "W" and g.goals_against == 0 and full)
        if sheet.decided is not None:
            for line, other in ((sheet.home, sheet.away), (sheet.away, sheet.home)):
                row = st.team(line.team)
                row["gp"] = 1
                if line.goals > other.goals:
                    row["w"] = 1
                elif sheet.decided == "TIE":
                    row["t"] = 1  # FaceOff 5.00: no shootout, the tie stands
                elif sheet.decided == "REG":
                    row["l"] = 1
                else:
                    row["otl"] = 1
                row["gf"], row["ga"] = line.goals, other.goals
                row["ppo"], row["ppg"] = line.pp.opportunities, line.pp.goals
                row["pko"], row["ppga"] = other.pp.opportunities, other.pp.goals
        else:
            for line in (sheet.home, sheet.away):
                st.team(line.team)
        return st


def build_stats(events: Iterable[Any], scoresheet: Scoresheet | None = None) -> GameStats:
    """Fold one game's events (from its first, ``GameCreated``) into its stats.

    ``scoresheet``, the game's scoresheet when the caller has it (folded from the same
    events), spares folding a second copy of it."""
    if scoresheet is None:
        events = list(events)  # folded twice: once for the scoresheet
        scoresheet = build_scoresheet(events)
    fold = StatsFold(own_sheet=False)
    handlers = fold.HANDLERS
    for event in events:
        handler = handlers.get(type(event))
        if handler is not None:
            handler(fold, event)
    return fold.result(scoresheet)


def combine(per_game: Iterable[GameStats]) -> GameStats:
    """The sum of several games' stats (ratios are recomputed on output)."""
    total = GameStats()
    for stats in per_game:
        total.add(stats)
    return total
