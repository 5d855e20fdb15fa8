"""Player, goalie and team stats: the read-model type every system's stats fold returns
(projections/<system>/stats.py), summed over any set of games, and what every system's
fold shares: a point, and the goalie and team lines taken from the game's scoresheet.

Counting rules are in docs/json.md. Ratios are computed from the summed counts, so stats
of several games are the sum of the games' counts with the ratios recomputed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from projections.models.scoresheet import Scoresheet

__all__ = ["GOALIE_COUNTS", "SKATER_COUNTS", "TEAM_COUNTS", "GameStats", "GoalieFigures", "Key",
           "combine", "finish_game_stats", "game_scoresheet", "goalie_figures", "point",
           "shutouts"]

SKATER_COUNTS = ("gp", "g", "a", "p", "plus_minus", "pim", "sog", "shots_blocked", "fow",
                 "ppp", "shp")
# A goalie's own points and penalty minutes are on his goalie line (issue 34): he is
# never a skater, so he has no skater line.
GOALIE_COUNTS = ("gp", "w", "l", "otl", "t", "sa", "sv", "ga", "toi", "so", "g", "a", "p", "pim")
GOALIE_SCORING = ("g", "a", "p", "pim")  # what a goalie's line takes from the scoring
TEAM_COUNTS = ("gp", "w", "l", "otl", "t", "gf", "ga", "ppo", "ppg", "pko", "ppga", "blocked")

Key = tuple[str, str]  # (team id, player id): ids may repeat across teams


# compiled (setup.py), a plain Python class: a native one cannot be copied or pickled
@mypyc_attr(native_class=False)
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


def point(row: dict[str, int], kind: str, strength: str) -> None:
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
        # One game's goalies as the folds counted them before their scoring moved to the
        # goalie lines (issue 34): each one's skater row, and whether his goalie line was
        # made for it (he never was in net). What a database stored before then keeps
        # (projections/layouts.py derives its rows); not summed by add.
        self.moved_to_goalie_lines: dict[Key, tuple[dict[str, int], bool]] = {}

    # A row is made only when it is missing (setdefault would make one at every call).
    def skater(self, key: Key) -> dict[str, int]:
        row = self.skaters.get(key)
        if row is None:
            row = self.skaters[key] = dict.fromkeys(SKATER_COUNTS, 0)
        return row

    def goalie(self, key: Key) -> dict[str, int]:
        row = self.goalies.get(key)
        if row is None:
            row = self.goalies[key] = dict.fromkeys(GOALIE_COUNTS, 0)
        return row

    def team(self, team: str) -> dict[str, int]:
        row = self.teams.get(team)
        if row is None:
            row = self.teams[team] = dict.fromkeys(TEAM_COUNTS, 0)
        return row

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


def game_scoresheet(given: Scoresheet | None, own: Any) -> Scoresheet:
    """The scoresheet a stats fold finishes with: ``given``, the game's folded from the
    same events by the caller, else its own sheet fold's (``own``, None when it keeps
    none)."""
    if given is not None:
        return given
    if own is not None:
        return own.result()
    raise ValueError("stats folded without their own scoresheet need the game's")


def finish_game_stats(st: GameStats, sheet: Scoresheet, on_ice: Iterable[Key],
                      in_net: dict[Key, int]) -> GameStats:
    """One game's stats finished, as every system finishes them: ``gp`` for every skater
    ``on_ice`` for a step; the goalie lines from the scoresheet's (``gp`` in net for a step;
    ``w``/``l``/``otl``/``t`` the decision; ``so`` see :func:`shutouts`); the team lines
    from its result and power plays."""
    for key in sorted(on_ice):
        st.skater(key)["gp"] = 1
    credited = shutouts(sheet, in_net)
    for g in sheet.goalies:
        row = st.goalie((g.team, g.player))
        row["gp"] = 1 if in_net.get((g.team, g.player)) else 0
        row["sa"], row["sv"], row["ga"], row["toi"] = (g.shots_against, g.saves,
                                                       g.goals_against, g.toi)
        if g.decision:
            row[g.decision.lower()] = 1
        row["so"] = int((g.team, g.player) in credited)
    _goalies_off_the_skaters(st)
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


def _goalies_off_the_skaters(st: GameStats) -> None:
    """A goalie's goals, assists, points and penalty minutes, counted as a skater's by
    the folds, moved to his goalie line: a goalie is listed as a goalie only."""
    for key in [k for k in st.skaters if k in st.goalies or st.names.get(k, ("", ""))[1] == "G"]:
        counts, made = st.skaters.pop(key), key not in st.goalies
        st.moved_to_goalie_lines[key] = (counts, made)
        row = st.goalie(key)
        for name in GOALIE_SCORING:
            row[name] += counts[name]


def shutouts(sheet: Scoresheet, in_net: dict[Key, int]) -> set[Key]:
    """The goalies credited with a shutout (ruling S-1, the NHL's convention: the rule
    texts keep no statistics): a finished game's only goalie of his team (in net for a
    step; pulled for an extra attacker and back, or at the end, he is still the only one)
    whose team allowed no goal in play. A shootout's goals are no goals against (a 0-0
    game decided by one credits both goalies); an empty-net goal is one (no shutout)."""
    if sheet.decided is None:
        return set()
    credited: set[Key] = set()
    for team in (sheet.home.team, sheet.away.team):
        goalies = [key for key, steps in in_net.items() if key[0] == team and steps]
        allowed = any(goal.team != team for goal in sheet.goals)
        if len(goalies) == 1 and not allowed:
            credited.add(goalies[0])
    return credited


def combine(per_game: Iterable[GameStats]) -> GameStats:
    """The sum of several games' stats (ratios are recomputed on output)."""
    total = GameStats()
    for stats in per_game:
        total.add(stats)
    return total
