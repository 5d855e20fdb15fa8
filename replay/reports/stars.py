"""A finished game's three stars. No rule text picks them (the NHL's are a journalist's
choice), so the pages name them by rinklog's own rule, documented in docs/pages.md ("Three
stars"): a pure function of the game's scoresheet and stats, never random.

Each player who played is worth star points (tenths, so every count is a whole number):

- a skater (or a goalie's own scoring): 30 a goal, 20 an assist, 10 more for the
  game-winning goal;
- a goalie in net: 1 a save, -10 a goal against, 10 for the win, 20 for a shutout.

Most star points first; a tie goes to the winning team's player, then to more goals, more
points, more shots on goal (a goalie: saves), then by name and player id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from events.plurals import counted
from projections.models.scoresheet import Scoresheet

__all__ = ["STAR_POINTS", "Star", "three_stars"]

STAR_POINTS = {"g": 30, "a": 20, "gwg": 10, "sv": 1, "ga": -10, "w": 10, "so": 20}


@dataclass(frozen=True)
class Star:
    rank: int  # 1, 2, 3
    team: str
    player: str
    name: str
    position: str
    points: int  # star points, in tenths
    line: str  # what earned them: "2 goals, 1 assist"; "31 saves, 1 goal against"


def _winner(sheet: Scoresheet) -> str | None:
    if sheet.home.goals == sheet.away.goals:
        return None
    return sheet.home.team if sheet.home.goals > sheet.away.goals else sheet.away.team


def _scoring(row: dict[str, Any], gwg: int) -> tuple[int, list[str]]:
    points = STAR_POINTS["g"] * row["g"] + STAR_POINTS["a"] * row["a"] + STAR_POINTS["gwg"] * gwg
    told = [counted(row[k], word) for k, word in (("g", "goal"), ("a", "assist")) if row[k]]
    return points, told + (["the game-winning goal"] if gwg else [])


def _candidates(sheet: Scoresheet, stats: dict[str, Any]) -> list[tuple[tuple[Any, ...], Star]]:
    winner = _winner(sheet)
    gwg = {(g.team, g.scorer) for g in sheet.goals if g.gwg}
    out = []
    for row in stats["skaters"]:
        if not row["gp"]:
            continue
        key = (row["team"], row["player"])
        points, told = _scoring(row, int(key in gwg))
        star = Star(0, row["team"], row["player"], row["name"], row["position"], points,
                    ", ".join(told) or "no points")
        out.append(((-points, row["team"] != winner, -row["g"], -row["p"], -row["sog"],
                     row["name"], row["player"]), star))
    for row in stats["goalies"]:
        if not row["gp"]:
            continue
        key = (row["team"], row["player"])
        points, told = _scoring(row, int(key in gwg))
        points += sum(STAR_POINTS[k] * row[k] for k in ("sv", "ga", "w", "so"))
        told = [counted(row["sv"], "save"), counted(row["ga"], "goal against", "goals against"),
                *(["the win"] if row["w"] else []), *(["a shutout"] if row["so"] else []), *told]
        star = Star(0, row["team"], row["player"], row["name"], "G", points, ", ".join(told))
        out.append(((-points, row["team"] != winner, -row["g"], -row["p"], -row["sv"],
                     row["name"], row["player"]), star))
    return out


def three_stars(sheet: Scoresheet, stats: dict[str, Any]) -> list[Star]:
    """The game's three stars from its scoresheet and its ``stats`` JSON (``to_json``);
    none while the game is not over."""
    if sheet.decided is None:
        return []
    ranked = sorted(_candidates(sheet, stats), key=lambda c: c[0])[:3]
    return [Star(rank, s.team, s.player, s.name, s.position, s.points, s.line)
            for rank, (_, s) in enumerate(ranked, start=1)]
