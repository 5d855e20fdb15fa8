"""The regular season and the postseason apart (issue 34, item 2): "`stats --all` mixes
the regular season and the playoffs: a player shows GP 89 against 82 on his page, with no
way to split them. Regular season by default, `--playoffs` for the postseason, on every
stats command, CSV and page; team and player pages get a playoff section, and the leaders
a playoff board."

A short DICE Hockey league season (6 games a team) and its postseason (draft league rule
9's bracket). Expected values are counted here from the streams (a playoff game's id is
``{season}-p...``, ruling R-post-play) and from the events (who is on the ice in each
``TimingSpaceCounted``), never by the stats fold under test.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from events.common import GameCreated
from events.dicehockey import TimingSpaceCounted
from replay.games.game_streams import open_store
from tests.setups import run_cli

DICEDEMO = Path(__file__).resolve().parents[1] / "fixtures/dicehockey/leagues/dicedemo"
SEASON = "split-7"


def play_split_season(where: Path) -> Path:
    """The database of the league season (6 games a team) and its playoffs, in ``where``."""
    league = where / "split"
    shutil.copytree(DICEDEMO, league)
    toml = league / "league.toml"
    toml.write_text(toml.read_text().replace("games = 82", "games = 6")
                    .replace('name = "dicedemo"', 'name = "split"'))
    db = where / "s.db"
    for argv in (["season", "--league", str(league), "--seed", "7", "--workers", "1"],
                 ["playoffs", SEASON, "--league", str(league), "--workers", "1"]):
        code, _, err = run_cli([*argv, "--db", str(db)])
        assert code == 0, err
    return db


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_split_season(tmp_path_factory.mktemp("split"))


def counted(db: Path, playoffs: bool) -> tuple[set[str], Counter, Counter]:
    """The season's games of one part, each team's games and each player's games on the
    ice, counted from the streams and their events."""
    with open_store(db) as store:
        games = {info.stream for info in store.streams(kind="game")
                 if info.stream.startswith(f"{SEASON}-p") == playoffs}
        teams: Counter = Counter()
        players: Counter = Counter()
        for game in games:
            events = [row.event for row in store.read(game)]
            created = next(e for e in events if isinstance(e, GameCreated))
            team = {"home": created.home.team_id, "away": created.away.team_id}
            teams.update(team.values())
            on_ice = {(team[side], pid) for e in events if isinstance(e, TimingSpaceCounted)
                      for side, listed in (("home", e.home_on_ice), ("away", e.away_on_ice))
                      for pid in listed}
            players.update(on_ice)
    return games, teams, players


@pytest.mark.parametrize("playoffs", [False, True])
def test_stats_all_sums_one_part_of_the_season(played: Path, playoffs: bool) -> None:
    games, teams, players = counted(played, playoffs)
    assert games and (max(teams.values()) == 6) != playoffs
    code, out, _ = run_cli(["stats", "--all", *(["--playoffs"] if playoffs else []), "--json",
                            "--db", str(played)])
    assert code == 0
    data = json.loads(out)
    assert set(data["games"]) == games
    assert {t["team"]: t["gp"] for t in data["teams"]} == dict(teams)
    assert all(t["gp"] == t["w"] + t["l"] + t["otl"] + t["t"] for t in data["teams"])
    assert {(s["team"], s["player"]): s["gp"] for s in data["skaters"] if s["gp"]} == \
        dict(players)
    code, text, _ = run_cli(["stats", "--all", *(["--playoffs"] if playoffs else []), "--csv",
                             "--db", str(played)])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert code == 0 and len(rows) == len(data["skaters"]) + len(data["goalies"])
    assert {(r["team"], r["player"]): int(r["gp"]) for r in rows
            if r["role"] == "skater" and r["gp"] != "0"} == dict(players)


def test_a_playoff_game_is_not_summed_with_the_regular_season(played: Path) -> None:
    regular, _, _ = counted(played, False)
    postseason, _, _ = counted(played, True)
    one, other = sorted(regular)[0], sorted(postseason)[0]
    code, _, err = run_cli(["stats", one, other, "--db", str(played)])
    assert code == 1 and other in err and "--playoffs" in err and err.count("\n") == 1
    code, _, err = run_cli(["stats", one, "--playoffs", "--db", str(played)])
    assert code == 1 and one in err and err.count("\n") == 1
    code, out, _ = run_cli(["stats", other, "--playoffs", "--json", "--db", str(played)])
    assert code == 0 and json.loads(out)["games"] == [other]


def _cells(page: str, table: str) -> list[list[str]]:
    """The rows of the table of id ``table``: each a list of its cells' text."""
    body = page.split(f'id="{table}"', 1)[1].split("</table>", 1)[0]
    return [[re.sub(r"<[^>]+>", "", cell).strip()
             for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", body.split("<tbody>", 1)[1])]


def test_pages_show_the_playoffs_apart(played: Path, tmp_path: Path) -> None:
    _, teams, players = counted(played, False)
    _, playoff_teams, playoff_players = counted(played, True)
    site = tmp_path / "site"
    code, _, err = run_cli(["report", "--season", SEASON, "-o", str(site), "--db", str(played)])
    assert code == 0, err
    for team in teams:
        page = (site / "teams" / f"{team}.html").read_text()
        assert len(_cells(page, "team-games")) == teams[team] == 6
        assert ('id="playoffs"' in page) == (team in playoff_teams)
        if team in playoff_teams:
            assert len(_cells(page, "playoff-games")) == playoff_teams[team]
    # a player of the postseason: his regular season's line and his playoffs' apart
    (team, player), gp = max(playoff_players.items(), key=lambda kv: (kv[1], kv[0]))
    page = (site / "players" / f"{team}-{player}.html").read_text()
    assert int(_cells(page, "player-season")[0][0]) == players[(team, player)]
    assert int(_cells(page, "playoff-season")[0][0]) == gp
    assert len(_cells(page, "playoff-games")) == gp
    index = (site / "index.html").read_text()
    assert 'id="playoff-leaders-1"' in index
    regular_points = _cells(index, "leaders-3")  # the boards: goals, assists, points...
    assert regular_points and all((row[1], row[2]) for row in regular_points)
    code, out, _ = run_cli(["leaders", "--season", SEASON, "--playoffs", "--json",
                            "--db", str(played)])
    boards = json.loads(out)
    assert [row[1] for row in _cells(index, "playoff-leaders-3")] == \
        [row["name"] for row in boards["P"]]


def test_a_player_of_the_playoffs_only_gets_a_page_of_them(played: Path) -> None:
    """A player who played no regular-season game (a goalie called up for the playoffs)
    gets a page of his playoff games, saying so, as every playoff player's row links one.
    Here the regular season is given without one playoff goalie's games, as if he had
    played none of them."""
    from replay.leagues.stored_seasons import load_season, standings_tables
    from replay.reports.games import load_game
    from replay.reports.render import render
    from replay.reports.season_site import SiteGame, build_season_site

    with open_store(played) as store:
        season = load_season(store, SEASON)
        tables = [(t.title, t.records) for t in standings_tables(store, season, "all")]
        regular = [load_game(store, g) for g in season.game_ids]
        playoff = [load_game(store, i.stream) for i in store.streams(kind="game")
                   if i.stream.startswith(f"{SEASON}-p")]
    goalie = next((g.team, g.player) for game in playoff for g in game.sheet.goalies)
    kept = [g for g in regular if goalie not in {(x.team, x.player) for x in g.sheet.goalies}]
    assert len(kept) < len(regular)
    site = build_season_site(SEASON, "split", tables, [SiteGame.of(0, g) for g in kept], (),
                             [SiteGame.of(0, g) for g in playoff])
    page = next(p for p in site.players if (p.team, p.player) == goalie)
    assert not page.regular and page.games == [] and page.playoffs is not None
    assert page.playoffs.games and page.goalie
    shown = render("player.html.j2", site=site, player=page, css="style.css", nav=[])
    assert 'id="no-regular-season"' in shown and 'id="playoff-games"' in shown
    assert 'id="player-season"' not in shown
    # every playoff goalie and skater has a page: the team pages' playoff rows link them
    theirs = {(r["team"], r["player"]) for g in playoff
              for kind in ("skaters", "goalies") for r in g.stats.to_json()[kind] if r["gp"]}
    assert theirs <= {(p.team, p.player) for p in site.players}
