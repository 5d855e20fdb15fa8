"""What a fan expects of the tables (issue 34 item 5, "Pages a fan expects"): the standings
by conference and division as well as the whole league, each team's last ten games and
streak, shared ranks for ties in the leaders, the conferences named on the bracket, and
playoff records as W-L.

The season: the DICE Hockey demo league (two conferences of one division each) at twelve
games a team, so that "the last ten" is not the whole season, and a postseason seeded by
conference (two a conference, best of 5) in which games go to overtime. Every expected
number is counted here from the games' own first and last events (GameCreated,
GameEnded) and the league file, never by the standings or the stats code under test.
"""

from __future__ import annotations

import csv
import io
import json
import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from events.catalogue import open_store
from events.common import GameCreated, GameEnded
from tests.setups import cut_league, run_cli

SEASON = "l12-3"  # seed 3: four playoff games go to overtime


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return cut_league(tmp_path_factory.mktemp("views"), "l12", 12,
                      "per_conference = 2\nseries = [5, 5]\n")


@pytest.fixture(scope="module")
def db(league: Path) -> Path:
    path = league.parent / "season.db"
    for argv in (["season", "--league", str(league), "--seed", "3", "--workers", "1"],
                 ["playoffs", SEASON, "--league", str(league), "--workers", "1"]):
        code, _, err = run_cli([*argv, "--db", str(path)])
        assert code == 0, err
    return path


def conferences(league: Path) -> dict[str, set[str]]:
    """Each conference's teams, as the league file names them."""
    layout = tomllib.loads((league / "league.toml").read_text())
    return {c["name"]: {t for d in c["divisions"] for t in d["teams"]}
            for c in layout["conferences"]}


def games(db: Path, playoffs: bool = False) -> list[tuple[GameCreated, GameEnded]]:
    """The season's finished games (or its playoff games), in the schedule's order: the
    first and last event of each stream."""
    out = []
    with open_store(db, create=False) as store:
        ids = sorted(i.stream for i in store.streams(kind="game")
                     if i.stream.startswith(f"{SEASON}-")
                     and i.stream.startswith(f"{SEASON}-p") == playoffs)
        for game_id in ids:
            events = [row.event for row in store.iter_events(game_id)]
            if isinstance(events[-1], GameEnded):
                out.append((events[0], events[-1]))
    return out


def results(db: Path, playoffs: bool = False) -> dict[str, list[str]]:
    """Each team's results in order: W, L (in regulation), OTL (in overtime or a
    shootout), T."""
    out: dict[str, list[str]] = {}
    for created, ended in games(db, playoffs):
        for team, side in ((created.home.team_id, "home"), (created.away.team_id, "away")):
            if ended.winner == side:
                result = "W"
            elif ended.winner == "none":
                result = "T"
            else:
                result = "L" if ended.decided == "REG" else "OTL"
            out.setdefault(team, []).append(result)
    return out


def expected_last10(games: list[str]) -> str:
    last = Counter(games[-10:])
    return f"{last['W']}-{last['L']}-{last['OTL']}"


def expected_streak(games: list[str]) -> str:
    """NHL.com's streak: the latest result (W, L, OT for an overtime or shootout loss)
    and how many games in a row ended that way."""
    n = 1
    while n < len(games) and games[-n - 1] == games[-1]:
        n += 1
    return {"W": "W", "L": "L", "OTL": "OT"}[games[-1]] + str(n)


def test_last_ten_and_streak_count_the_teams_latest_games(db: Path) -> None:
    """Issue 34: "last 10 and streak columns" in `standings`, its JSON and CSV: W-L-OTL of
    the last ten games ("6-3-1"), the streak as NHL.com prints it ("W3", "L1", "OT2");
    regular season only."""
    counted = results(db)
    assert all(len(g) == 12 for g in counted.values())
    # the last ten are not the whole season, and an OT streak or OTL shows somewhere
    assert any(expected_last10(g) != expected_last10(g[:10]) for g in counted.values())
    assert any("OTL" in g[-10:] for g in counted.values())
    code, out, _ = run_cli(["standings", "--json", "--season", SEASON, "--db", str(db)])
    assert code == 0
    shown = {r["team"]: (r["last10"], r["streak"]) for r in json.loads(out)}
    assert shown == {team: (expected_last10(g), expected_streak(g))
                     for team, g in counted.items()}
    code, out, _ = run_cli(["standings", "--csv", "--season", SEASON, "--db", str(db)])
    assert {r["team"]: (r["last10"], r["streak"]) for r in csv.DictReader(io.StringIO(out))} \
        == shown
    code, out, _ = run_cli(["standings", "--season", SEASON, "--db", str(db)])
    header = next(line for line in out.splitlines() if "PTS" in line)
    assert header.split()[-2:] == ["L10", "STRK"]
    for team, (last10, streak) in shown.items():
        line = next(line for line in out.splitlines() if line.split()[1:2] == [team])
        assert line.split()[-2:] == [last10, streak]
    assert "L10 W-L-OTL of the last ten games" in " ".join(out.split())  # the key under it


def test_standings_by_conference_and_division_and_the_whole_league(db: Path,
                                                                   league: Path) -> None:
    """Issue 34: "conference tables ... in `standings` (the playoffs are seeded by
    conference)": `--by all` gives the league, each conference and each division, a table
    holding the conference's teams (the league file's), ranked by points among them."""
    counted = results(db)
    points = {t: 2 * g.count("W") + g.count("OTL") + g.count("T") for t, g in counted.items()}
    code, out, _ = run_cli(["standings", "--by", "all", "--json", "--season", SEASON,
                            "--db", str(db)])
    assert code == 0
    tables = json.loads(out)
    assert [(t["kind"], t["group"]) for t in tables] == [
        ("league", "League"), ("conference", "Coastal"), ("conference", "Upland"),
        ("division", "Harbour"), ("division", "Ridge")]
    members = conferences(league)
    for table in tables:
        teams = [r["team"] for r in table["teams"]]
        if table["kind"] == "conference":
            assert set(teams) == members[table["group"]]
        assert [r["points"] for r in table["teams"]] == [points[t] for t in teams]
        assert [points[t] for t in teams] == sorted((points[t] for t in teams), reverse=True)
    code, out, _ = run_cli(["standings", "--by", "conference", "--season", SEASON,
                            "--db", str(db)])
    titles = [line for line in out.splitlines() if line.endswith("Conference")]
    assert titles == ["Coastal Conference", "Upland Conference"]
    code, out, _ = run_cli(["standings", "--by", "all", "--csv", "--season", SEASON,
                            "--db", str(db)])
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["team"] for r in rows if r["group"] == "Upland"} == members["Upland"]


def competition_rank(values: list, value: object, lowest_first: bool = False) -> int:
    """Standard competition ranking: one more than the lines strictly better."""
    better = [v for v in values if (v < value if lowest_first else v > value)]
    return 1 + len(better)


def test_leaders_share_ranks_on_equal_figures(db: Path) -> None:
    """Issue 34: "shared ranks for ties in the leaders": equal figures share the rank, the
    next rank skips their places (1, 2, 2, 4); in a tie fewer games played first, then the
    name."""
    code, out, _ = run_cli(["leaders", "--json", "--top", "10000", "--season", SEASON,
                            "--db", str(db)])
    assert code == 0
    boards = json.loads(out)
    shared = 0
    for title, rows in boards.items():
        values = [r["value"] for r in rows]
        for r in rows:
            assert r["rank"] == competition_rank(values, r["value"], title == "GAA"), (title, r)
        for above, below in zip(rows, rows[1:], strict=False):
            if above["value"] == below["value"]:
                shared += 1
                assert (above["gp"], above["name"]) <= (below["gp"], below["name"])
    assert shared  # the season has ties to rank
    # a board cut short keeps the ranks of the whole board
    code, out, _ = run_cli(["leaders", "--json", "--top", "5", "--season", SEASON,
                            "--db", str(db)])
    assert json.loads(out)["G"] == boards["G"][:5]
    code, out, _ = run_cli(["leaders", "--top", "5", "--season", SEASON, "--db", str(db)])
    goals = out.split("\nA\n")[0].splitlines()[1:]
    assert [int(line.split(".")[0]) for line in goals] == [r["rank"] for r in boards["G"][:5]]


def test_the_text_bracket_names_each_conference_half(db: Path, league: Path) -> None:
    """Issue 34: "conference labels on the bracket halves": `rinklog bracket` puts each
    conference's series under its name; their teams are that conference's."""
    code, out, _ = run_cli(["bracket", SEASON, "--db", str(db)])
    assert code == 0
    lines = out.splitlines()
    members = conferences(league)
    round_1 = lines[lines.index("Round 1") + 1:lines.index("Final")]
    assert [line.strip() for line in round_1 if line.endswith("Conference")] == [
        "Coastal Conference", "Upland Conference"]
    where = ""
    for line in round_1:
        if line.endswith("Conference"):
            where = line.split()[0]
            continue
        teams = re.findall(r"\b([A-Z]{3}) \(\d\)", line)
        assert len(teams) == 2 and set(teams) <= members[where], line


def test_a_playoff_overtime_loss_is_a_loss(db: Path, tmp_path: Path) -> None:
    """Issue 34: "in the playoffs there are no OTL points, an overtime loss is a loss": a
    team's playoff record is W-L, its overtime losses in L."""
    counted = results(db, playoffs=True)
    team = next(t for t, g in counted.items() if "OTL" in g)
    site = tmp_path / "site"
    code, _, err = run_cli(["report", "--season", SEASON, "-o", str(site), "--db", str(db)])
    assert code == 0, err
    page = (site / "teams" / f"{team}.html").read_text()
    section = page[page.index('<section id="playoffs">'):]
    g = counted[team]
    record = re.search(r'id="playoff-record">([^ <]+)', section)
    assert record and record.group(1) == f"{g.count('W')}-{g.count('L') + g.count('OTL')}"
    results_shown = re.findall(r'<td class="text">(W|L|OTL|T)</td>', section)
    assert results_shown == ["W" if r == "W" else "L" for r in g]
    # its goalies' decisions: no OTL column, the overtime losses in their L
    goalies = section[section.index('<table id="playoff-goalies">'):].split("</table>")[0]
    head, body = goalies.split("</thead>")
    columns = re.findall(r"<th[^>]*>([^<]*)</th>", head)
    assert "OTL" not in columns
    rows = [re.findall(r"<td[^>]*>(?:<a [^>]*>)?([^<]*)", r)
            for r in re.findall(r"<tr>(.*?)</tr>", body)]
    decisions = [sum(int(r[columns.index(c)]) for r in rows) for c in ("W", "L")]
    assert decisions == [g.count("W"), g.count("L") + g.count("OTL")]
    # `rinklog stats --playoffs`: the teams' W-L the same way, no OTL column
    code, out, _ = run_cli(["stats", "--playoffs", "--all", "--db", str(db)])
    assert code == 0
    teams = out.split("\nTeams\n")[1].split("\n\n")[0].splitlines()
    assert teams[0].split()[:4] == ["Team", "GP", "W", "L"] and "OTL" not in teams[0]
    shown = {row.split()[0]: row.split()[2:4] for row in teams[2:]}
    assert shown == {t: [str(r.count("W")), str(r.count("L") + r.count("OTL"))]
                     for t, r in counted.items()}


# --- the pages, as Chromium shows them ----------------------------------------------------

def _browser() -> str | None:
    from tests.test_pages_browser import BROWSER
    return BROWSER


def _shown(tmp: Path, page: Path) -> str:
    from tests.test_pages_browser import dump_dom
    return dump_dom(tmp, page)


@pytest.fixture(scope="module")
def site(db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("views-site") / "site"
    code, _, err = run_cli(["report", "--season", SEASON, "-o", str(folder), "--db", str(db)])
    assert code == 0, err
    return folder


needs_chromium = pytest.mark.skipif(
    _browser() is None, reason="no Chromium on this machine: the browser tests need Debian's "
    "chromium package (.ci/run installs it)")


@needs_chromium
def test_the_rendered_standings_show_conferences_last_ten_and_streak(
        db: Path, league: Path, site: Path, tmp_path: Path) -> None:
    """The season page in Chromium: the league's table, then a table per conference holding
    its teams (the league file's), each row's L10 and STRK the count of the events; the
    key under the tables says what the columns mean."""
    from tests.test_pages_browser import tables
    dom = _shown(tmp_path, site / "index.html")
    shown = tables(dom)
    groups = dict(re.findall(r'<table class="standings" id="(standings-\d+)" '
                             r'data-group="([^"]+)"', dom))
    assert list(groups.values()) == ["League", "Coastal Conference", "Upland Conference",
                                     "Harbour Division", "Ridge Division"]
    counted, members = results(db), conferences(league)
    for table, group in groups.items():
        teams = [re.fullmatch(r".* \(([A-Z]{3})\)", row[1]).group(1) for row in shown[table]]
        if group.endswith("Conference"):
            assert set(teams) == members[group.removesuffix(" Conference")]
        assert [row[-2:] for row in shown[table]] == [
            [expected_last10(counted[t]), expected_streak(counted[t])] for t in teams]
    key = " ".join(re.search(r'id="standings-key">(.*?)</p>', dom, re.S).group(1).split())
    assert "L10 W-L-OTL over the last ten games" in key and "OT overtime or shootout" in key


@needs_chromium
def test_the_rendered_leaders_share_ranks(site: Path, tmp_path: Path) -> None:
    """The leaders' boards in Chromium: a rank is one more than the lines above with a
    better figure (G, A, P, +/-, PIM: whole numbers, as shown), so equal figures share it."""
    from tests.test_pages_browser import tables
    shown = tables(_shown(tmp_path, site / "index.html"))
    shared = 0
    for board in (f"leaders-{i}" for i in range(1, 6)):
        values = [int(row[3]) for row in shown[board]]
        assert [int(row[0]) for row in shown[board]] == [
            competition_rank(values, v) for v in values]
        shared += len(values) - len(set(values))
    assert shared


@needs_chromium
def test_the_rendered_bracket_names_each_conference_half(league: Path, site: Path,
                                                         tmp_path: Path) -> None:
    """The playoffs page in Chromium: a conference's name above its half of the bracket;
    the first-round series under it are between its teams."""
    dom = _shown(tmp_path, site / "playoffs.html")
    labels = [(float(y), pool) for y, pool, _ in re.findall(
        r'<text class="pool-label"[^>]* y="([\d.]+)"[^>]* data-pool="([^"]+)"[^>]*>([^<]*)<',
        dom)]
    assert [pool for _, pool in sorted(labels)] == ["Coastal", "Upland"]
    members = conferences(league)
    boxes = re.findall(r'<g class="series" id="box-r1s\d+".*?<rect [^>]*y="([\d.]+)"(.*?)</g>',
                       dom, re.S)
    assert len(boxes) == 2
    for y, inside in boxes:
        above = max((label for label in labels if label[0] < float(y)), default=None)
        assert above is not None
        teams = set(re.findall(r'data-team="([A-Z]{3})"', inside))
        assert len(teams) == 2 and teams <= members[above[1]]


@needs_chromium
def test_the_rendered_playoff_record_is_wins_and_losses(db: Path, site: Path,
                                                        tmp_path: Path) -> None:
    """A team's page in Chromium: its playoff record W-L, an overtime loss in L."""
    counted = results(db, playoffs=True)
    team = next(t for t, g in counted.items() if "OTL" in g)
    dom = _shown(tmp_path, site / "teams" / f"{team}.html")
    record = re.search(r'id="playoff-record">([^<]*)<', dom).group(1)
    g = counted[team]
    assert record.startswith(f"{g.count('W')}-{g.count('L') + g.count('OTL')} (W-L)")
