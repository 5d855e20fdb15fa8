"""The postseason end to end through the CLI (issue 22): a playoff game played at the table
(``rinklog play --season S --game ID``, typed rolls on standard input), ``rinklog playoffs``
going on around it, the lottery drawn by the league's own ``[playoffs]`` format, and the
issue's "Done when" on one short league of the bundled dicedemo's eight teams (2 games a
team, rule 9's ``format = "draft"``), its regular season played once for the module.

Rule 9: "The first six teams make the playoffs. 1st and 2nd place teams get a bye in the
first round. 3 vs 6, 4 vs 5. 1st place team will play the lowest seeded survivor. 2nd
place team will play the other. Winners will meet in the final. All series are 4 out of
7." Rule 31: "Only non-playoff teams will take part in the lottery. 7th place - 1
opportunity, 8th place - 2 opportunities ... Teams 1-6 will still draft in reverse order."
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import msgspec
import pytest
from setups import run_cli as run

from events.common import Absent, GameCreated, GameEnded, GamesOut
from events.league import SeasonGameRecorded, SeasonTableGameStarted
from events.postseason import (
    LotteryOpened,
    PlayoffsOpened,
    PostseasonEvent,
    SeriesGameRecorded,
    SeriesWon,
)
from replay.games.game_streams import open_store
from replay.leagues.availability import Availability, PlayoffAvailability
from tests.forge import replace_stream

DICEDEMO = Path(__file__).resolve().parents[1] / "fixtures/dicehockey/leagues/dicedemo"
SEASON = "tbl-3"


def one_line_error(result: tuple[int, str, str]) -> str:
    code, _, err = result
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1 and lines[0].startswith("rinklog: error: "), err
    return lines[0]


def typed_rolls(seed: int) -> str:
    """Two dice typed per line, as at the table (DICE Hockey rolls two ten-sided dice; a
    roll typed at a coach prompt is kept for the next roll): plenty for a whole game."""
    r = random.Random(seed)
    return "\n".join(f"{r.randrange(10)} {r.randrange(10)}" for _ in range(20000)) + "\n"


def short_league(where: Path, name: str = "tbl", playoffs: str | None = None) -> Path:
    folder = where / name
    shutil.copytree(DICEDEMO, folder)
    toml = folder / "league.toml"
    text = toml.read_text().replace("games = 82", "games = 2")
    text = text.replace('name = "dicedemo"', f'name = "{name}"')
    if playoffs is not None:
        text = text.split("[playoffs]")[0] + playoffs
    toml.write_text(text)
    return folder


def copy_db(source: Path, target: Path) -> Path:
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", f"{target}{suffix}")
    return target


def events_of(db: Path, stream: str = SEASON) -> list:
    with open_store(db) as store:
        return [row.event for row in store.read(stream)]


def postseason(db: Path) -> list:
    return [e for e in events_of(db) if isinstance(e, PostseasonEvent)]


def audit_clean(db: Path, *streams: str) -> None:
    """``rinklog audit`` of ``streams`` (none: ``--all``) passes."""
    which = list(streams) or ["--all", "--workers", "1"]
    code, out, _ = run(["audit", *which, "--db", str(db)])
    assert code == 0, [line for line in out.splitlines() if ": ok" not in line]


@pytest.fixture(scope="module")
def regular(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    where = tmp_path_factory.mktemp("table")
    folder = short_league(where)
    db = where / "regular.db"
    code, _, err = run(["season", "--league", str(folder), "--seed", "3", "--workers", "1",
                        "--db", str(db)])
    assert code == 0, err
    return {"folder": folder, "db": db}


def table(db: Path) -> list[str]:
    code, out, _ = run(["standings", "--season", SEASON, "--json", "--db", str(db)])
    assert code == 0
    return [r["team"] for r in json.loads(out)]


# --- a playoff game at the table -------------------------------------------------------------

def test_a_playoff_game_is_played_at_the_table_and_the_run_goes_on_around_it(
        regular: dict[str, Path], tmp_path: Path) -> None:
    db = copy_db(regular["db"], tmp_path / "t.db")
    league = ["--league", str(regular["folder"]), "--db", str(db)]
    assert "not open yet" in one_line_error(run(
        ["play", "--season", SEASON, "--game", f"{SEASON}-p1-1-1", "--db", str(db)]))
    code, out, err = run(["playoffs", SEASON, "--ready", "--json", *league])
    assert code == 0, err
    p = table(db)
    # rule 9: 1st and 2nd have a bye, "3 vs 6, 4 vs 5", the better place at home in game 1
    assert json.loads(out)["ready"] == [
        {"game": f"{SEASON}-p1-1-1", "round": 1, "series": 1, "number": 1, "home": p[2],
         "away": p[5], "status": "ready"},
        {"game": f"{SEASON}-p1-2-1", "round": 1, "series": 2, "number": 1, "home": p[3],
         "away": p[4], "status": "ready"}]
    code, out, _ = run(["bracket", SEASON, "--db", str(db)])  # reads, and lists them too
    assert code == 0 and f"Ready to play: {SEASON}-p1-1-1, {SEASON}-p1-2-1" in out
    game = f"{SEASON}-p1-2-1"  # the wave's second game at the table, stopped at once
    code, out, err = run(["play", "--season", SEASON, "--game", game, "--db", str(db)], "q\n")
    assert code == 0 and "resume with" in out, err
    created = events_of(db, game)[0]
    assert isinstance(created, GameCreated)
    assert (created.live, created.dice, created.seed, created.number) == (True, "manual",
                                                                          None, 0)
    assert (created.home.team_id, created.away.team_id) == (p[3], p[4])
    assert "playoff" in created.options  # DICE Hockey 13: overtime to a winner
    assert SeasonTableGameStarted(game=game, number=0) in events_of(db)
    assert "already in the database" in one_line_error(run(
        ["play", "--season", SEASON, "--game", game, "--db", str(db)]))
    assert "not a playoff game" in one_line_error(run(
        ["play", "--season", SEASON, "--game", f"{SEASON}-p1-1-2", "--db", str(db)]))
    # the run plays the wave's first game, then stops at the game being played
    code, out, err = run(["playoffs", SEASON, "--workers", "1", "--json", *league])
    assert code == 0, err
    assert json.loads(out) | {"seconds": 0} == {
        "season": SEASON, "champion": None, "played": 1, "games": 1, "seconds": 0,
        "overplays": [], "waiting": game}
    code, out, _ = run(["playoffs", SEASON, "--ready", *league])
    assert f"{game}  round 1, series 2, game 1: {p[4]} at {p[3]} (at the table)" in out
    audit_clean(db, SEASON, game)  # a table game in progress, marked started
    code, out, err = run(["play", "--resume", game, "--db", str(db)], typed_rolls(1))
    assert code == 0 and "game over" in out, err
    ended = events_of(db, game)[-1]
    assert isinstance(ended, GameEnded) and ended.winner != "none"
    audit_clean(db, SEASON, game)  # ended, recorded by its season (table), its series record
    # to come
    code, out, err = run(["playoffs", SEASON, "--workers", "2", "--json", *league])
    assert code == 0, err
    assert json.loads(out)["champion"] and json.loads(out)["waiting"] is None
    audit_clean(db)
    season = events_of(db)
    assert any(isinstance(e, SeasonGameRecorded) and e.game == game and e.mode == "table"
               for e in season)
    records = [e for e in season if isinstance(e, SeriesGameRecorded)]
    # R-post-play: the series records in (round, game, slot) order, the table game in its slot
    assert [(r.round, r.game, r.slot) for r in records] == sorted(
        (r.round, r.game, r.slot) for r in records)
    assert records[1].game_id == game
    assert records[1].winner == (p[3] if ended.winner == "home" else p[4])
    # the same table game ended before the run: the same postseason, record for record
    other = copy_db(regular["db"], tmp_path / "o.db")
    league[-1] = str(other)
    assert run(["playoffs", SEASON, "--ready", *league])[0] == 0
    assert run(["play", "--season", SEASON, "--game", game, "--db", str(other)],
               typed_rolls(1))[0] == 0
    assert run(["playoffs", SEASON, "--workers", "1", *league])[0] == 0
    assert postseason(other) == postseason(db)
    # a forged table result: the series record names the loser
    forged = list(season)
    at = next(i for i, e in enumerate(forged) if isinstance(e, SeriesGameRecorded)
              and e.game_id == game)
    loser = p[4] if records[1].winner == p[3] else p[3]
    forged[at] = msgspec.structs.replace(forged[at], winner=loser)
    replace_stream(db, SEASON, forged, kind="season", system="league")
    code, out, _ = run(["audit", SEASON, "--db", str(db)])
    assert code == 1 and f"FAILED at seq {at + 1}: postseason check" in out, out


# --- games missed carry on into the playoffs (R-post-absent) ---------------------------------

def test_rule_15_17_games_missed_carry_on_from_the_regular_season_into_the_playoffs() -> None:
    """DICE Hockey 15: "Roll one die and that is how many games the player is suspended
    for"; 17: "consider the player to be injured for 30 games". Games, not regular-season
    games: a team's playoff games are its next ones. A case built from the text: A plays
    B twice; in the second (A's last regular game) A's X is suspended for a die of 3, so
    X misses A's playoff games 1, 2 and 3 and dresses for game 4; B's Y, injured in the
    first playoff game for 1 game, misses game 2 only (a playoff game names no schedule
    number: ``game`` 0)."""
    regular = Availability([(1, "A", "B"), (2, "B", "A")], games_out=lambda events: [])
    regular.record(1, [])
    regular.record(2, [GamesOut(side="away", player="X", games=3, rule="15")])
    out = PlayoffAvailability(regular)
    suspended = Absent(team="A", player="X", game=2, rule="15")
    out.add("s-p1-1-1", "A", "B")
    assert out.absent("s-p1-1-1") == [suspended]
    out.record_outs("s-p1-1-1", [GamesOut(side="away", player="Y", games=1, rule="17")])
    out.add("s-p1-1-2", "B", "A")  # B at home in game 2: the home team is named first
    assert out.absent("s-p1-1-2") == [Absent(team="B", player="Y", game=0, rule="17"),
                                      suspended]
    out.add("s-p1-1-3", "A", "B")
    assert out.absent("s-p1-1-3") == [suspended]
    out.add("s-p1-1-4", "A", "B")
    assert out.absent("s-p1-1-4") == []


# --- the lottery by the league's format (R-post-31d) -----------------------------------------

def test_rule_31_lottery_teams_are_those_the_leagues_format_leaves_out(
        tmp_path: Path) -> None:
    """A league whose [playoffs] takes the top 4 of 8: its lottery is drawn by places 5-8
    (1, 2, 3 and 4 opportunities), not rule 9's six; the playoffs it opens are recorded
    with the lottery, and ``rinklog playoffs`` goes on from them."""
    folder = short_league(tmp_path, "four", "[playoffs]\nteams = 4\nreseed = false\n")
    db = tmp_path / "four.db"
    season = "four-3"
    assert run(["season", "--league", str(folder), "--seed", "3", "--workers", "1",
                "--db", str(db)])[0] == 0
    # the league the season stored (issue 34 item 8): no --league, no folder of its name
    code, out, err = run(["lottery", season, "--draw", "--json", "--db", str(db)])
    assert code == 0, err
    code, standings, _ = run(["standings", "--season", season, "--json", "--db", str(db)])
    p = [r["team"] for r in json.loads(standings)]
    got = json.loads(out)
    assert sorted(d["team"] for d in got["draws"]) == sorted(p[4:])
    assert got["order"][4:] == list(reversed(p[:4]))  # the playoff teams, in reverse order
    stream = events_of(db, season)
    opened = next(e for e in stream if isinstance(e, LotteryOpened))
    assert [(e.team, e.opportunities) for e in opened.entries] == [
        (p[4], 1), (p[5], 2), (p[6], 3), (p[7], 4)]
    assert stream.index(next(e for e in stream if isinstance(e, PlayoffsOpened))) \
        < stream.index(opened)
    audit_clean(db, season)
    code, out, err = run(["playoffs", season, "--workers", "1", "--json", "--db", str(db)])
    assert code == 0 and json.loads(out)["champion"] in p[:4], err  # the format recorded
    audit_clean(db, season)  # the bracket re-derived from its games


# --- Done when ---------------------------------------------------------------------------------

def test_done_when_a_league_plays_its_season_playoffs_and_lottery(
        regular: dict[str, Path], tmp_path: Path) -> None:
    """The issue's "Done when", on the short league: playoffs (any workers: the same heads),
    the lottery, rules 9, 31 (rule 27: DICE Hockey's cards carry no pro games, R-post-27d;
    the Hockey Bones run of tests/test_postseason_play.py holds it), a clean audit that
    catches a forged series result, and the season site's bracket."""
    one = copy_db(regular["db"], tmp_path / "one.db")
    two = copy_db(regular["db"], tmp_path / "two.db")
    league = ["--league", str(regular["folder"])]
    for db, workers in ((one, "1"), (two, "2")):
        code, out, err = run(["playoffs", SEASON, "--workers", workers, *league,
                              "--db", str(db)])
        assert code == 0 and "champion" in out, err
    with open_store(one) as a, open_store(two) as b:
        heads = {s: a.head_hash(s) for s in a.stream_ids()}
        assert heads == {s: b.head_hash(s) for s in b.stream_ids()}
    assert sum(f"{SEASON}-p" in s for s in heads) >= 4 * 3  # three rounds of at least 4
    p = table(one)
    code, out, _ = run(["bracket", SEASON, "--json", "--db", str(one)])
    bracket = json.loads(out)
    first, second, final = bracket["rounds"]
    assert [(s["high"], s["low"]) for s in first["series"]] == [(p[2], p[5]), (p[3], p[4])]
    survivors = sorted((s["winner"] for s in first["series"]), key=p.index)
    # "1st place team will play the lowest seeded survivor. 2nd place team will play the other."
    assert [(s["high"], s["low"]) for s in second["series"]] == [
        (p[0], survivors[1]), (p[1], survivors[0])]
    assert {final["series"][0]["high"], final["series"][0]["low"]} == {
        s["winner"] for s in second["series"]}
    assert bracket["champion"] == final["series"][0]["winner"]
    for rnd in bracket["rounds"]:  # "All series are 4 out of 7."
        for s in rnd["series"]:
            assert s["wins"][s["winner"]] == 4 and s["wins"][s["high"] if s["winner"]
                                                              == s["low"] else s["low"]] < 4
            assert 4 <= len(s["games"]) <= 7
    won = [e for e in events_of(one) if isinstance(e, SeriesWon)]
    assert len(won) == 5
    code, out, err = run(["lottery", SEASON, "--draw", "--json", "--db", str(one)] + league)
    assert code == 0, err
    lottery = json.loads(out)
    assert sorted(d["team"] for d in lottery["draws"]) == sorted(p[6:])
    assert lottery["order"][2:] == list(reversed(p[:6]))
    audit_clean(one)
    site = tmp_path / "site"
    assert run(["report", "--season", SEASON, "-o", str(site), "--db", str(one)])[0] == 0
    page = (site / "playoffs.html").read_text()
    assert "<svg" in page and bracket["champion"] in page
    # the audit holds who is out of a playoff game (R-post-absent): one more out, forged
    game = first["series"][0]["games"][0]
    events = events_of(one, game)
    created = events[0]
    had = list(created.absent) if created.absent else []  # as the audit derives them
    dressed = next(r.id for r in created.home.roster if r.id not in {a.player for a in had})
    forged_game = [msgspec.structs.replace(created, absent=[
        *had, Absent(team=created.home.team_id, player=dressed, game=1, rule="15")]),
        *events[1:]]
    head = replace_stream(one, game, forged_game, system="dicehockey")
    season = events_of(one)  # a consistent forger: the season records the forged head
    replace_stream(one, SEASON, [msgspec.structs.replace(e, head=head) if isinstance(
        e, SeasonGameRecorded) and e.game == game else e for e in season], kind="season",
        system="league")
    code, out, _ = run(["audit", game, "--db", str(one)])
    assert code == 1 and "FAILED at seq 1: season check" in out and "out: " in out \
        and dressed in out, out
    replace_stream(one, game, events, system="dicehockey")
    replace_stream(one, SEASON, season, kind="season", system="league")
    season = events_of(one)
    assert any(isinstance(e, SeasonGameRecorded) and e.game == game for e in season)
    at = next(i for i, e in enumerate(season) if isinstance(e, SeriesWon))
    forged = list(season)
    won_by = forged[at]
    forged[at] = msgspec.structs.replace(won_by, winner=won_by.loser, loser=won_by.winner)
    replace_stream(one, SEASON, forged, kind="season", system="league")
    code, out, _ = run(["audit", "--all", "--workers", "1", "--db", str(one)])
    assert code == 1 and f"{SEASON}: FAILED at seq {at + 1}: postseason check" in out, out
