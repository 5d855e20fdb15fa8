"""Issue 34 item 5, what a fan expects of the pages (hockey-reference.com and NHL.com side by
side): three stars on every game page, power-play and penalty-kill percentages and team
totals on team pages, time on ice per game on player pages. Every number is checked
against a count made here from the game's events (never the read model under test)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from events.catalogue import open_store
from replay.games.game_streams import read_game
from replay.reports.games import load_game
from replay.reports.season_site import season_files
from tests.event_counts import count_game, season_counts
from tests.pages_data import BONES, FACEOFF, SEASON


@pytest.fixture(scope="module")
def db(pages_db: Path) -> Path:
    return pages_db  # tests/conftest.py: built once for the pages tests


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


# --- team totals, PP% and PK% --------------------------------------------------------------

def test_team_pages_show_pp_and_pk_percentages_counted_from_the_events(db: Path) -> None:
    """PP% = power-play goals / power-play opportunities (each power play that began, the
    NHL's opportunity), PK% = 1 - power-play goals against / times short-handed."""
    expected = season_counts(db, SEASON)
    with open_store(db, create=False) as store:
        files = season_files(store, SEASON)
    assert expected
    for team, c in expected.items():
        page = files[f"teams/{team}.html"]
        pp = f"{100 * c['ppg'] / c['ppo']:.1f}" if c["ppo"] else "–"
        pk = f"{100 * (c['pko'] - c['ppga']) / c['pko']:.1f}" if c["pko"] else "–"
        row = (f'<tr class="total"><td>{c["gp"]}</td><td>{c["g"]}</td><td>{c["a"]}</td>'
               f'<td>{c["g"] + c["a"]}</td><td>{c["pim"]}</td><td>{c["shots"]}</td>')
        assert row in page, (team, row)
        tail = (f'<td>{c["ppg"]}</td><td>{c["ppo"]}</td><td>{pp}</td><td>{c["ppga"]}</td>'
                f'<td>{c["pko"]}</td><td>{pk}</td></tr>')
        assert tail in page, (team, tail)
    assert "whatever its length" in page
