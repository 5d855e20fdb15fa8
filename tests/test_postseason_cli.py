"""``rinklog lottery`` (Hockey Bones draft league rule 31), ``rinklog bracket`` (rule 9's
bracket as the season stream records it), the audit of a lottery and the season site's
playoffs page (issue 22), on one short DICE Hockey demo season played once per module
(the demo league with 2 games a team: 8 games).

Rule 31: "Only non-playoff teams will take part in the lottery. 7th place - 1
opportunity, 8th place - 2 opportunities ... No team can draft first two years in a
row. If their lottery ball is picked first, the second year, they will be given the
second overall pick. ... Teams 1-6 will still draft in reverse order." Rule 9: "The
first six teams make the playoffs. 1st and 2nd place teams get a bye in the first
round. 3 vs 6, 4 vs 5. 1st place team will play the lowest seeded survivor."
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from pathlib import Path

import pytest

from engine.dice import derive_faces
from engine.league.formats import divisions_of, parse_playoff_format
from engine.league.playoffs import fold, open_playoffs, record_game
from events.postseason import LotteryDraw, LotteryOrderSet
from replay.cli.app import main
from replay.games.game_streams import open_store
from tests.forge import replace_stream

DEMO = Path(__file__).resolve().parents[1] / "fixtures" / "dicehockey" / "leagues" / "dicedemo"
SEASON = "dicedemo-7"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str) -> str:
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rinklog: error: "), err
    return lines[0]


def copy_db(source: Path, target: Path) -> Path:
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", f"{target}{suffix}")
    return target


def digest(db: Path) -> str:
    return hashlib.sha256(b"".join(Path(f"{db}{s}").read_bytes() for s in ("", "-wal")
                                   if Path(f"{db}{s}").exists())).hexdigest()


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mini") / "mini"
    shutil.copytree(DEMO, root)
    toml = root / "league.toml"
    toml.write_text(toml.read_text().replace("games = 82", "games = 2"))
    return root


@pytest.fixture(scope="module")
def played(league: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The season half played (partial) and whole (full): the same database, resumed."""
    folder = tmp_path_factory.mktemp("season")
    partial = folder / "partial.db"
    assert main(["season", "--league", str(league), "--seed", "7", "--games", "4",
                 "--workers", "1", "--db", str(partial)]) == 0
    full = copy_db(partial, folder / "full.db")
    assert main(["season", "--league", str(league), "--seed", "7", "--workers", "1",
                 "--db", str(full)]) == 0
    return {"partial": partial, "full": full}


@pytest.fixture
def db(played: dict[str, Path], tmp_path: Path) -> Path:
    return copy_db(played["full"], tmp_path / "s.db")


def standings(capsys: pytest.CaptureFixture[str], db: Path, season: str = SEASON) -> list[str]:
    code, out, _ = run(capsys, "standings", "--season", season, "--json", "--db", str(db))
    assert code == 0
    return [r["team"] for r in json.loads(out)]


def test_lottery_refused_before_the_regular_season_is_complete(
        capsys: pytest.CaptureFixture[str], played: dict[str, Path], tmp_path: Path) -> None:
    partial = copy_db(played["partial"], tmp_path / "p.db")
    before = digest(partial)
    line = one_line_error(*run(capsys, "lottery", SEASON, "--draw", "--db", str(partial))[::2])
    assert "regular season is not complete" in line and "4 of 8 games to play" in line
    assert digest(partial) == before


def test_rule_31_seeded_lottery_7th_one_ball_8th_two_then_1_to_6_in_reverse(
        capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path) -> None:
    table = standings(capsys, db)
    seventh, eighth = table[6], table[7]
    code, out, _ = run(capsys, "lottery", SEASON, "--draw", "--json", "--db", str(db))
    assert code == 0
    got = json.loads(out)
    first = got["draws"][0]
    # 7th place 1 opportunity + 8th place 2: a die of 3 faces; ball 1 is 7th's, 2-3 8th's
    assert (first["pick"], first["how"], first["sides"]) == (1, "drawn", 3)
    winner = seventh if first["roll"] == 1 else eighth
    other = eighth if winner == seventh else seventh
    assert first["team"] == winner
    # the seeded die of docs/postseason.md: the season seed "7", lottery id "lottery"
    assert first["roll"] == derive_faces("7", "lottery", 1, 3, 1)[0] + 1
    assert got["draws"][1] == {"pick": 2, "team": other, "place": table.index(other) + 1,
                               "how": "last team", "roll": None, "sides": 0}
    # "Teams 1-6 will still draft in reverse order."
    assert got["order"] == [winner, other, *reversed(table[:6])]
    # the read command prints what was drawn
    assert run(capsys, "lottery", SEASON, "--json", "--db", str(db))[1].strip() == out.strip()


def test_seeded_lottery_same_for_the_same_season_seed(
        capsys: pytest.CaptureFixture[str], played: dict[str, Path], tmp_path: Path) -> None:
    outs = []
    for name in ("a.db", "b.db"):
        copy = copy_db(played["full"], tmp_path / name)
        outs.append(run(capsys, "lottery", SEASON, "--draw", "--json", "--db", str(copy))[1])
    assert outs[0] == outs[1] and json.loads(outs[0])["order"]


def test_typed_rolls_ball_1_is_7th_place(capsys: pytest.CaptureFixture[str], db: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    table = standings(capsys, db)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    code, out, _ = run(capsys, "lottery", SEASON, "--draw", "--rolls", "-", "--json",
                       "--db", str(db))
    assert code == 0
    got = json.loads(out)
    assert got["draws"][0] == {"pick": 1, "team": table[6], "place": 7, "how": "drawn",
                               "roll": 1, "sides": 3}
    assert got["order"] == [table[6], table[7], *reversed(table[:6])]


def test_typed_rolls_out_of_the_drum_or_left_over_write_nothing(
        capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path) -> None:
    before = digest(db)
    rolls = tmp_path / "rolls.txt"
    rolls.write_text("4\n")  # 3 balls in the drum
    line = one_line_error(*run(capsys, "lottery", SEASON, "--draw", "--rolls", str(rolls),
                               "--db", str(db))[::2])
    assert "1-3" in line
    rolls.write_text("3, 1\n")  # one roll needed: 8th's ball, then the last team
    line = one_line_error(*run(capsys, "lottery", SEASON, "--draw", "--rolls", str(rolls),
                               "--db", str(db))[::2])
    assert "took 1 roll; 1 typed roll left over" in line  # issue 34 item 14: not "1 rolls"
    rolls.write_text("three\n")
    one_line_error(*run(capsys, "lottery", SEASON, "--draw", "--rolls", str(rolls),
                        "--db", str(db))[::2])
    one_line_error(*run(capsys, "lottery", SEASON, "--rolls", str(rolls), "--db", str(db))[::2])
    assert digest(db) == before


def test_reading_never_writes_and_the_lottery_is_drawn_once(
        capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, out, _ = run(capsys, "lottery", SEASON, "--db", str(db))
    assert code == 0 and "not drawn yet" in out
    assert json.loads(run(capsys, "lottery", SEASON, "--json", "--db", str(db))[1]) == {
        "order": [], "draws": []}
    assert run(capsys, "lottery", SEASON, "--draw", "--db", str(db))[0] == 0
    before = digest(db)
    code, out, _ = run(capsys, "lottery", SEASON, "--db", str(db))
    assert code == 0 and "pick  1:" in out and "first round: 1." in out
    assert run(capsys, "lottery", SEASON, "--json", "--db", str(db))[0] == 0
    assert run(capsys, "bracket", SEASON, "--json", "--db", str(db))[0] == 0
    line = one_line_error(*run(capsys, "lottery", SEASON, "--draw", "--db", str(db))[::2])
    assert "already drawn" in line
    assert digest(db) == before


def test_rule_31_no_team_drafts_first_two_years_in_a_row(
        capsys: pytest.CaptureFixture[str], db: Path, league: Path, tmp_path: Path) -> None:
    assert main(["season", "--league", str(league), "--seed", "9", "--workers", "1",
                 "--db", str(db)]) == 0
    capsys.readouterr()
    first, second = standings(capsys, db), standings(capsys, db, "dicedemo-9")
    # the case this test is built on: season 7's 8th place is season 9's 7th
    assert first[7] == second[6] == "DRF"
    other = copy_db(db, tmp_path / "other.db")
    rolls = tmp_path / "rolls"
    rolls.write_text("2")  # ball 2: 8th place's, DRF drafts first in season 7
    out = run(capsys, "lottery", SEASON, "--draw", "--rolls", str(rolls), "--json",
              "--db", str(db))[1]
    assert json.loads(out)["order"][0] == "DRF"
    rolls.write_text("1")  # ball 1: 7th place's, DRF's again
    code, out, _ = run(capsys, "lottery", "dicedemo-9", "--draw", "--rolls", str(rolls),
                       "--json", "--db", str(db))
    got = json.loads(out)
    # "If their lottery ball is picked first, the second year, they will be given the
    # second overall pick": the first is drawn again from the balls left (HTH's alone)
    assert got["draws"][0] == {"pick": 2, "team": "DRF", "place": 7,
                               "how": "first pick twice", "roll": 1, "sides": 3}
    assert got["order"][:2] == [second[7], "DRF"]
    code, out, _ = run(capsys, "audit", "--all", "--db", str(db))
    assert code == 0, out
    # a later season's lottery already drawn from "no first pick last season": refused
    assert run(capsys, "lottery", "dicedemo-9", "--draw", "--rolls", str(rolls),
               "--db", str(other))[0] == 0
    line = one_line_error(*run(capsys, "lottery", SEASON, "--draw", "--db", str(other))[::2])
    assert "draw the lotteries in order" in line


def season_events(db: Path) -> list:
    with open_store(db) as store:
        return [row.event for row in store.read(SEASON)]


def forge(db: Path, events: list) -> None:
    replace_stream(db, SEASON, events, kind="season", system="league")


def test_a_season_stored_before_season_records_takes_no_lottery(
        capsys: pytest.CaptureFixture[str], db: Path) -> None:
    forge(db, season_events(db)[:1])
    line = one_line_error(*run(capsys, "lottery", SEASON, "--draw", "--db", str(db))[::2])
    assert "before seasons recorded" in line


def test_audit_rechecks_the_lottery_and_catches_a_forged_draw(
        capsys: pytest.CaptureFixture[str], db: Path) -> None:
    assert run(capsys, "lottery", SEASON, "--draw", "--db", str(db))[0] == 0
    code, out, _ = run(capsys, "audit", "--all", "--db", str(db))
    assert code == 0, out
    events = season_events(db)
    at = next(i for i, e in enumerate(events) if isinstance(e, LotteryDraw))
    draw, last = events[at], events[at + 1]
    # a consistent forger: the other team's ball rolled, the other team first, the order
    # swapped to match; the seeded roll is not the season seed's
    roll = 1 if draw.roll != 1 else 2
    team, place = last.team, last.place
    forged = list(events)
    forged[at] = LotteryDraw(pick=1, team=team, place=place, how="drawn", roll=roll,
                             sides=draw.sides, rule=draw.rule)
    forged[at + 1] = LotteryDraw(pick=2, team=draw.team, place=draw.place, how="last team",
                                 roll=None, sides=0, rule=draw.rule)
    order = events[at + 2]
    assert isinstance(order, LotteryOrderSet)
    forged[at + 2] = LotteryOrderSet(order=[team, draw.team, *order.order[2:]],
                                     rule=order.rule)
    forge(db, forged)
    code, out, _ = run(capsys, "audit", SEASON, "--db", str(db))
    assert code == 1 and "lottery" in out and "seeded roll 1" in out, out
    # the roll kept, the team swapped: not the ball's team
    forged[at] = LotteryDraw(pick=1, team=team, place=place, how="drawn", roll=draw.roll,
                             sides=draw.sides, rule=draw.rule)
    forge(db, forged)
    code, out, _ = run(capsys, "audit", "--all", "--db", str(db))
    assert code == 1 and f"pick 1 to {draw.team}" in out, out


def test_audit_all_ends_with_one_summary_line(capsys: pytest.CaptureFixture[str],
                                               db: Path) -> None:
    """Issue 34 item 10: "`audit --all` ends with one summary line (streams checked,
    events, findings); the lottery walk-through's `| tail -n 1` then shows what its
    comment promises". The season's stream and its 8 games: 9 streams; --json stays a
    JSON list (the line on standard error)."""
    assert run(capsys, "lottery", SEASON, "--draw", "--db", str(db))[0] == 0
    with open_store(db) as store:
        events = sum(len(list(store.read(s))) for s in store.stream_ids())
    code, out, _ = run(capsys, "audit", "--all", "--db", str(db))
    assert code == 0
    assert out.splitlines()[-1] == f"no findings in 9 streams checked ({events} events)"
    code, out, err = run(capsys, "audit", "--all", "--json", "--db", str(db))
    assert code == 0 and len(json.loads(out)) == 9
    assert err.splitlines() == [f"no findings in 9 streams checked ({events} events)"]
    forged = season_events(db)
    at = next(i for i, e in enumerate(forged) if isinstance(e, LotteryOrderSet))
    forged[at] = LotteryOrderSet(order=forged[at].order[::-1], rule=forged[at].rule)
    forge(db, forged)
    code, out, _ = run(capsys, "audit", "--all", "--db", str(db))
    assert code == 1
    assert out.splitlines()[-1].startswith("1 finding in 9 streams checked (")
    assert out.splitlines()[-1].endswith(" events): 1 failed")


def playoff_events(table: list[str], game_ids: list[str]) -> list:
    """Rule 9 round 1 played with the engine's own functions: 3 sweeps 6, 5 sweeps 4."""
    divisions = divisions_of([("League", "All", table)])
    events = open_playoffs(parse_playoff_format({"format": "draft"}, divisions), table,
                           divisions)
    bracket = fold(events)
    ids = iter(game_ids)
    for slot, winner in ((1, table[2]), (2, table[4])):
        for _ in range(4):
            new = record_game(bracket, 1, slot, next(ids), winner)
            events += new
            bracket = fold(new, bracket)
    return events


def with_playoffs(db: Path, table: list[str], game_ids: list[str]) -> None:
    with open_store(db) as store:
        store.append(SEASON, playoff_events(table, game_ids), store.version(SEASON))


def test_bracket_text_and_json_follow_rule_9(capsys: pytest.CaptureFixture[str],
                                             db: Path) -> None:
    code, out, _ = run(capsys, "bracket", SEASON, "--db", str(db))
    assert code == 0 and "no playoffs" in out
    assert json.loads(run(capsys, "bracket", SEASON, "--json", "--db", str(db))[1]) == {
        "season": SEASON, "champion": None, "rounds": []}
    table = standings(capsys, db)
    games = [f"{SEASON}-{n:04d}" for n in range(1, 9)]
    with_playoffs(db, table, games)
    got = json.loads(run(capsys, "bracket", SEASON, "--json", "--db", str(db))[1])
    p = table  # p[0] is 1st place
    assert got == {"season": SEASON, "champion": None, "rounds": [
        {"round": 1, "series": [
            {"high": p[2], "low": p[5], "high_seed": 3, "low_seed": 6,
             "wins": {p[2]: 4, p[5]: 0}, "winner": p[2], "games": games[:4]},
            {"high": p[3], "low": p[4], "high_seed": 4, "low_seed": 5,
             "wins": {p[3]: 0, p[4]: 4}, "winner": p[4], "games": games[4:]}]},
        # "1st place team will play the lowest seeded survivor. 2nd place team will play
        # the other."
        {"round": 2, "series": [
            {"high": p[0], "low": p[4], "high_seed": 1, "low_seed": 5,
             "wins": {p[0]: 0, p[4]: 0}, "winner": None, "games": []},
            {"high": p[1], "low": p[2], "high_seed": 2, "low_seed": 3,
             "wins": {p[1]: 0, p[2]: 0}, "winner": None, "games": []}]}]}
    code, out, _ = run(capsys, "bracket", SEASON, "--db", str(db))
    assert code == 0
    assert f"Round 1 (bye: {p[0]}, {p[1]})" in out
    assert f"  {p[2]} (3) 4-0 {p[5]} (6): {p[2]} wins" in out
    assert f"  {p[3]} (4) 0-4 {p[4]} (5): {p[4]} wins" in out
    assert f"  {p[0]} (1) 0-0 {p[4]} (5): in progress" in out
    assert "Champion: not decided yet" in out


def test_site_playoffs_page_links_the_bracket_games_and_the_lottery(
        capsys: pytest.CaptureFixture[str], db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    assert run(capsys, "report", "--season", SEASON, "-o", str(site), "--db", str(db))[0] == 0
    assert not (site / "playoffs.html").exists()
    assert "playoffs.html" not in (site / "index.html").read_text()
    table = standings(capsys, db)
    # a playoff game kept in a stream of its own (not one of the regular season's games)
    with open_store(db) as store:
        store.append(f"{SEASON}-P01", [r.event for r in store.read(f"{SEASON}-0001")], 0,
                     kind="game", system="dicehockey", meta={})
    games = [f"{SEASON}-P01", *(f"{SEASON}-{n:04d}" for n in range(2, 9))]
    with_playoffs(db, table, games)
    assert run(capsys, "lottery", SEASON, "--draw", "--db", str(db))[0] == 0
    site = tmp_path / "site2"
    assert run(capsys, "report", "--season", SEASON, "-o", str(site), "--db", str(db))[0] == 0
    assert 'href="playoffs.html"' in (site / "index.html").read_text()
    page = (site / "playoffs.html").read_text()
    assert "<svg" in page and "Draft lottery" in page
    for game in games:
        assert f'href="games/{game}.html"' in page
        assert (site / "games" / f"{game}.html").exists()


def test_seasons_lists_each_season_its_games_and_its_postseason(
        capsys: pytest.CaptureFixture[str], played: dict[str, Path], league: Path,
        tmp_path: Path) -> None:
    """Issue 34 item 9: "`rinklog seasons` [...] lists the seasons of a database (id,
    system, league, games played and left, postseason state, JSON and CSV)"; the state
    "not started / playoffs round N / champion X / lottery drawn". Rule 9's bracket (6
    teams, 1st and 2nd a bye, then "1st place team will play the lowest seeded
    survivor") is 3 rounds."""
    partial = copy_db(played["partial"], tmp_path / "p.db")
    row = {"season": SEASON, "kind": "season", "system": "dicehockey", "league": "dicedemo",
           "games_played": 4, "games_left": 4, "postseason": "not started"}
    assert json.loads(run(capsys, "seasons", "--json", "--db", str(partial))[1]) == [row]
    db = copy_db(played["full"], tmp_path / "f.db")
    code, out, _ = run(capsys, "seasons", "--db", str(db))
    assert code == 0
    assert out.splitlines()[-1].split() == [SEASON, "dicehockey", "dicedemo", "8", "0",
                                            "not", "started"]
    assert run(capsys, "lottery", SEASON, "--draw", "--db", str(db))[0] == 0
    row.update(games_played=8, games_left=0, postseason="playoffs round 1 of 3; lottery drawn")
    assert json.loads(run(capsys, "seasons", "--json", "--db", str(db))[1]) == [row]
    assert run(capsys, "playoffs", SEASON, "--league", str(league), "--workers", "1",
               "--db", str(db))[0] == 0
    champion = json.loads(run(capsys, "bracket", SEASON, "--json", "--db", str(db))[1])[
        "champion"]
    assert champion
    code, out, _ = run(capsys, "seasons", "--csv", "--db", str(db))
    assert code == 0 and out.splitlines() == [
        "season,kind,system,league,games_played,games_left,postseason",
        f"{SEASON},season,dicehockey,dicedemo,8,0,champion {champion}; lottery drawn"]


def test_seasons_lists_a_matrix_season_too(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    """Issue 34 item 9: "Matrix seasons too (kind matrix_season)"."""
    db = str(tmp_path / "m.db")
    code, out, _ = run(capsys, "matrix", "open", "--league", "example", "--seed", "t",
                       "--db", db)
    assert code == 0
    season = out.strip()
    rows = json.loads(run(capsys, "seasons", "--json", "--db", db)[1])
    assert rows == [{"season": season, "kind": "matrix_season", "system": "matrix",
                     "league": "Matrix Hockey worked example", "games_played": 0,
                     "games_left": None, "postseason": "open, 0 weeks played"}]
    one_line_error(*run(capsys, "seasons", "--json", "--csv", "--db", db)[::2])


def test_seasons_warns_of_an_edited_season_stream(capsys: pytest.CaptureFixture[str],
                                                  db: Path) -> None:
    """Issue 34 item 9: a read command, opened as every read command is, so a season
    stream that does not hold to its hash chain is one warning line before the list."""
    from tests.test_tamper_warnings import edit_payload_byte
    edit_payload_byte(db, SEASON, 1)
    code, out, err = run(capsys, "seasons", "--db", str(db))
    assert code == 0 and SEASON in out
    assert err.count("\n") == 1 and err.startswith("rinklog: warning: ") and SEASON in err
