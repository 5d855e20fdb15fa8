"""Issue 34 item 5, what a fan expects of the pages (hockey-reference.com and NHL.com side by
side): three stars on every game page, power-play and penalty-kill percentages and team
totals on team pages, time on ice per game on player pages. Every number is checked
against a count made here from the game's events (never the read model under test)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from events.bones import AssistsAwarded, GoalScored, SequencePlayed, ShotTaken
from events.catalogue import open_store
from events.common import GameCreated, GameEnded
from replay.games.game_streams import read_game
from replay.reports.games import load_game
from tests.pages_data import BONES, FACEOFF


@pytest.fixture(scope="module")
def db(pages_db: Path) -> Path:
    return pages_db  # tests/conftest.py: built once for the pages tests


def count_game(events: list[Any]) -> dict[str, Any]:
    """A Hockey Bones game counted from its events alone: each player's goals and assists,
    his shots on goal, each goalie's goals against (the goalie a goal names), the
    game-winning goal's scorer."""
    created = events[0]
    assert isinstance(created, GameCreated)
    team = {"home": created.home.team_id, "away": created.away.team_id}
    goals, assists, shots, allowed = (Counter[tuple[str, str]]() for _ in range(4))
    scored: list[tuple[str, str]] = []  # (side, scorer) in order
    shot_pending: str | None = None
    ended = None
    for e in events:
        if isinstance(e, SequencePlayed):
            shot_pending = None
        elif isinstance(e, ShotTaken):
            shot_pending = None
            if e.block != "blocked" and not (e.kind == "empty_net" and not e.in_range):
                shots[(team[e.side], e.shooter)] += 1
                shot_pending = e.side
        elif isinstance(e, GoalScored):
            other = "away" if e.side == "home" else "home"
            goals[(team[e.side], e.scorer)] += 1
            if shot_pending != e.side:
                shots[(team[e.side], e.scorer)] += 1
            if e.goalie is not None:
                allowed[(team[other], e.goalie)] += 1
            scored.append((e.side, e.scorer))
            shot_pending = None
        elif isinstance(e, AssistsAwarded):
            for pid in e.players:
                assists[(team[e.side], pid)] += 1
        elif isinstance(e, GameEnded):
            ended = e
    gwg = None
    if ended is not None and ended.decided in ("REG", "OT"):
        lose = "away" if ended.winner == "home" else "home"
        mine = [s for s in scored if s[0] == ended.winner]
        side, scorer = mine[getattr(ended, f"{lose}_goals")]
        gwg = (team[side], scorer)
    return {"team": team, "goals": goals, "assists": assists, "shots": shots,
            "allowed": allowed, "gwg": gwg, "ended": ended}


def _events(db: Path, game_id: str) -> list[Any]:
    with open_store(db, create=False) as store:
        return read_game(store, game_id)


# --- three stars ---------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", [BONES, FACEOFF])
def test_three_stars_follow_the_documented_rule_from_the_events(db: Path, game_id: str) -> None:
    """docs/pages.md, Three stars: "30 a goal, 20 an assist, 10 more for the game-winning
    goal; a goalie in net 1 a save, -10 a goal against, 10 for the win, 20 for a shutout";
    most star points first, ties to the winning team's player, then goals."""
    events = _events(db, game_id)
    counts = count_game(events)
    with open_store(db, create=False) as store:
        game = load_game(store, game_id)
    stars = game.page().stars
    assert [s.rank for s in stars] == [1, 2, 3]
    # every skater's star points from the events; each goalie's from his goals against
    # counted here and his saves (the scoresheet's shots against less those goals)
    expected: dict[tuple[str, str], int] = {}
    for key in set(counts["goals"]) | set(counts["assists"]):
        expected[key] = (30 * counts["goals"][key] + 20 * counts["assists"][key]
                         + 10 * (key == counts["gwg"]))
    ended = counts["ended"]
    winner = counts["team"].get(ended.winner)
    for g in game.sheet.goalies:
        key = (g.team, g.player)
        ga = counts["allowed"][key]
        saves = g.shots_against - ga
        shutout = ga == 0 and g.team == winner and all(
            other.team != g.team or other.player == g.player for other in game.sheet.goalies)
        expected[key] = (expected.get(key, 0) + saves - 10 * ga + 10 * (g.decision == "W")
                         + 20 * shutout)
    for star in stars:
        assert star.points == expected.get((star.team, star.player), 0), star
    # the top three by star points (a skater without a point has 0)
    best = sorted([*expected.values(), 0, 0, 0], reverse=True)[:3]
    assert [s.points for s in stars] == best
    gwg = next(s for s in stars if (s.team, s.player) == counts["gwg"]) if any(
        (s.team, s.player) == counts["gwg"] for s in stars) else None
    assert gwg is None or "the game-winning goal" in gwg.line
