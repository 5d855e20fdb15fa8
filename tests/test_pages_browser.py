"""The pages in a real browser: headless Chromium renders them, the DOM it shows equals the
read models, and a screenshot of the shift chart matches the committed reference.

Skipped, with the reason, on a machine without Chromium (Debian's ``chromium`` package;
.ci/run installs it). ``RINKLOG_UPDATE_SCREENSHOTS=1`` rewrites the reference picture
after an intended change of the chart.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from events.catalogue import open_store
from projections.models.strengths import GoalieStrength
from projections.standings import build_standings
from replay.cli.app import main
from replay.reports.games import load_game
from tests.event_counts import season_counts, shift_times
from tests.pages_data import BONES, FACEOFF, SEASON

BROWSER = next((found for name in ("chromium", "chromium-browser", "google-chrome")
                if (found := shutil.which(name))), None)
pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="no Chromium on this machine: the browser tests need Debian's "
    "chromium package (.ci/run installs it)")
REFERENCE = Path(__file__).parent / "data" / "shift_chart_HFX-QUE-2026.png"
WINDOW = (1200, 900)


@pytest.fixture(scope="module")
def db(pages_db: Path) -> Path:
    return pages_db  # tests/conftest.py: built once for this module and the other pages tests


def game_events(db: Path, game_id: str) -> list:
    with open_store(db, create=False) as store:
        return [row.event for row in store.read(game_id)]


def chromium(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert BROWSER is not None
    return subprocess.run(
        [BROWSER, "--headless=new", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
         "--force-device-scale-factor=1", "--no-first-run", "--disable-extensions",
         f"--user-data-dir={tmp / 'chromium-profile'}", *args],
        capture_output=True, text=True, timeout=120, check=True)


def dump_dom(tmp: Path, page: Path) -> str:
    return chromium(tmp, "--dump-dom", page.resolve().as_uri()).stdout


class Tables(HTMLParser):
    """The text of every cell of every table with an id, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.current: str | None = None
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.current = dict(attrs).get("id")
            if self.current:
                self.tables[self.current] = []
        elif tag == "tr" and self.current:
            self.tables[self.current].append([])
        elif tag in ("td", "th") and self.current:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.current = None
        elif tag in ("td", "th") and self.current and self.cell is not None:
            self.tables[self.current][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def tables(dom: str) -> dict[str, list[list[str]]]:
    parser = Tables()
    parser.feed(dom)
    return {k: rows[1:] for k, rows in parser.tables.items()}  # without the header row


@pytest.mark.parametrize("game_id", [BONES, FACEOFF])
def test_the_rendered_game_page_shows_the_read_models(db: Path, tmp_path: Path,
                                                      game_id: str) -> None:
    page = tmp_path / "game.html"
    assert main(["report", game_id, "-o", str(page), "--db", str(db)]) == 0
    shown = tables(dump_dom(tmp_path, page))
    with open_store(db, create=False) as store:
        game = load_game(store, game_id)
    sheet, stats = game.sheet, game.stats.to_json()
    assert [row[1:] for row in shown["score-by-period"]] == [
        [*map(str, line.goals_by_period), str(line.goals)] for line in (sheet.away, sheet.home)]
    scoring = shown.get("scoring", [])
    assert len(scoring) == len(sheet.goals)
    for row, goal in zip(scoring, sheet.goals, strict=True):
        assert row[2] == goal.time and row[4] == goal.team
        assert row[5].removesuffix(" (GWG)") == goal.scorer_name
        assert row[6] == (", ".join(goal.assist_names) or "unassisted")
    penalties = shown.get("penalty-summary", [])
    assert [(r[1], r[2], r[3], int(r[-1])) for r in penalties] == \
        [(p.time, p.team, p.player_name, p.minutes) for p in sheet.penalties]
    # Hockey Bones 14.20: each penalty's type code, the called one (tests/test_penalty_types.py)
    called = [e.code for e in game_events(db, game_id) if type(e).__name__ == "PenaltyCalled"]
    if penalties and called:
        assert {r[4] for r in penalties} <= {*called, "#", ""}
    skaters = {(s["team"], s["name"]): s for s in stats["skaters"]}
    for line in (sheet.away, sheet.home):
        rows = shown[f"box-{line.team}"]
        *players, total = rows
        assert players
        for r in players:
            s = skaters[(line.team, r[0])]
            assert [int(r[i]) for i in (2, 3, 4, 6, 7, 9)] == \
                [s["g"], s["a"], s["p"], s["pim"], s["sog"], s["fow"]]
        assert int(total[2]) == sum(1 for g in sheet.goals if g.team == line.team)
        assert int(total[7]) == sum(line.shots)
    assert sorted((r[1], int(r[4]), int(r[5]), int(r[6])) for r in shown["goalies"]) == \
        sorted((g.name, g.shots_against, g.saves, g.goals_against) for g in sheet.goalies)
    # EV, PP, SH saves/shots (issue 34 item 5): the goalie's split, adding up to SV and SA
    split = {(s.team, s.player): s for s in game.strengths}  # a goalie who faced no shot: none
    names = {(g.team, g.name): (g.team, g.player) for g in sheet.goalies}
    for r in shown["goalies"]:
        s = split.get(names[(r[0], r[1])], GoalieStrength(r[0], r[1], 0, 0, 0, 0, 0, 0))
        assert r[9:12] == [f"{s.ev_sv}/{s.ev_sa}", f"{s.pp_sv}/{s.pp_sa}", f"{s.sh_sv}/{s.sh_sa}"]
        assert s.ev_sa + s.pp_sa + s.sh_sa == int(r[4]) and s.ev_sv + s.pp_sv + s.sh_sv == int(r[5])
    # the three stars as the browser shows them: the view model's, rank by rank
    assert [(r[0], r[1], r[2], r[5]) for r in shown["three-stars"]] == [
        (f"{n} star", s.team, s.name, f"{s.points / 10:.1f}")
        for n, s in zip(("1st", "2nd", "3rd"), game.page().stars, strict=True)]


class Plays(HTMLParser):
    """The text of each play's summary line in the play-by-play, as the browser shows it."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []
        self.inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "summary":
            self.inside = True
            self.lines.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "summary":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.lines[-1] += data


@pytest.mark.parametrize("game_id", [BONES, FACEOFF])
def test_the_rendered_play_by_play_shows_period_time_and_score(db: Path, tmp_path: Path,
                                                               game_id: str) -> None:
    """A line a play as the browser renders it, each with period, time and score; a goal's
    line with the scoring summary's time and score."""
    page = tmp_path / "game.html"
    assert main(["report", game_id, "-o", str(page), "--db", str(db)]) == 0
    dom = dump_dom(tmp_path, page)
    parser = Plays()
    parser.feed(dom[dom.index('id="play-by-play"'):])
    with open_store(db, create=False) as store:
        game = load_game(store, game_id)
    view = [p for period in game.page().plays for p in period.plays]
    assert len(parser.lines) == len(view)
    for line, play in zip(parser.lines, view, strict=True):
        assert line.startswith(f"{play.period} {play.time}{play.score}"), line
    goals = [line for line, play in zip(parser.lines, view, strict=True) if play.goal]
    for line, goal in zip(goals, game.page().goals, strict=True):
        assert f"{goal.time}{goal.score}" in line and goal.scorer in line


def test_the_rendered_season_page_shows_the_standings(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    assert main(["report", "--season", SEASON, "-o", str(site), "--db", str(db)]) == 0
    shown = tables(dump_dom(tmp_path, site / "index.html"))
    with open_store(db, create=False) as store:
        games = [i.stream for i in store.streams(kind="game") if i.stream.startswith(SEASON)]
        pairs = [(e[0], e[-1]) for e in ([r.event for r in store.iter_events(g)] for g in games)]
    assert [[r[1], r[2], r[6], r[7]] for r in shown["standings-1"]] == [
        [f"{r.name} ({r.team})", str(r.gp), str(r.points),
         f"{r.points / (2 * r.gp):.3f}".lstrip("0")] for r in build_standings(pairs)]


def test_the_rendered_team_pages_show_totals_pp_and_pk_counted_from_the_events(
        db: Path, tmp_path: Path) -> None:
    """Issue 34 item 5: a team page's totals as the browser shows them, each number counted
    from the season's events (tests/event_counts.py); PP% = PPG / PPO, PK% = 1 - PPGA / TSH."""
    site = tmp_path / "site"
    assert main(["report", "--season", SEASON, "-o", str(site), "--db", str(db)]) == 0
    counts = season_counts(db, SEASON)
    written = {team: tables((site / "teams" / f"{team}.html").read_text(encoding="utf-8"))
               for team in counts}
    # The browser renders the teams with the most and the fewest power plays (a page a
    # Chromium process, about a second of CPU each; the pages are static, one template):
    # it shows the rows the page holds; every team's rows are then checked against the events.
    by_power_plays = sorted(counts, key=lambda team: (counts[team]["ppo"], team))
    for team in {by_power_plays[0], by_power_plays[-1]}:
        assert tables(dump_dom(tmp_path, site / "teams" / f"{team}.html")) == written[team]
    for team, c in counts.items():
        [row] = written[team]["team-totals"]
        pp = f"{100 * c['ppg'] / c['ppo']:.1f}" if c["ppo"] else "–"
        pk = f"{100 * (c['pko'] - c['ppga']) / c['pko']:.1f}" if c["pko"] else "–"
        assert [row[i] for i in (0, 1, 2, 3, 4, 5, 9, 10, 11, 12, 13, 14)] == [
            str(c["gp"]), str(c["g"]), str(c["a"]), str(c["g"] + c["a"]), str(c["pim"]),
            str(c["shots"]), str(c["ppg"]), str(c["ppo"]), pp, str(c["ppga"]), str(c["pko"]),
            pk], team


def test_the_rendered_player_page_shows_time_on_ice_from_the_shifts(db: Path, tmp_path: Path,
                                                                    capsys) -> None:
    """Issue 34 item 5, "time on ice per game on player pages": one skater's game log and
    TOI/GP as the browser shows them, from his shifts in `rinklog toi GAME --json`."""
    site = tmp_path / "site"
    assert main(["report", "--season", SEASON, "-o", str(site), "--db", str(db)]) == 0
    times = shift_times(db, SEASON, capsys)
    (team, player), mine = max(times.items(), key=lambda item: (len(item[1]), item[0]))
    shown = tables(dump_dom(tmp_path, site / "players" / f"{team}-{player}.html"))
    assert sorted(row[12] for row in shown["player-games"]) == sorted(
        f"{t // 60:02d}:{t % 60:02d}" for t in mine)
    average = round(sum(mine) / len(mine))
    assert shown["player-season"][0][10] == f"{average // 60:02d}:{average % 60:02d}"


# --- the screenshot ------------------------------------------------------------------------

def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB rows of an 8-bit, non-interlaced RGB or RGBA PNG (what
    Chromium writes): a small reader, so the test needs no imaging library."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = chunk
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and color in (2, 6) and interlace == 0, f"{path}: unexpected PNG format"
    bpp = 3 if color == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up, corner = previous[i], previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc
                                      else corner)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(b for j, b in enumerate(line) if j % 4 != 3))
        previous = line
    return width, height, rows


def differing(a: list[bytes], b: list[bytes], box: tuple[int, int, int, int]) -> float:
    """The share of pixels inside ``box`` (x0, y0, x1, y1) that differ clearly."""
    x0, y0, x1, y1 = box
    bad = total = 0
    for y in range(y0, y1):
        ra, rb = a[y], b[y]
        for x in range(x0, x1):
            total += 1
            if max(abs(ra[3 * x + c] - rb[3 * x + c]) for c in range(3)) > 64:
                bad += 1
    return bad / max(total, 1)


def screenshot(db: Path, tmp: Path, game_id: str) -> tuple[Path, object]:
    chart_page, shot = tmp / f"{game_id}-chart.html", tmp / f"{game_id}.png"
    assert main(["report", game_id, "--shift-chart", "-o", str(chart_page), "--db", str(db)]) == 0
    chromium(tmp, f"--screenshot={shot}", f"--window-size={WINDOW[0]},{WINDOW[1]}",
             chart_page.resolve().as_uri())
    with open_store(db, create=False) as store:
        chart = load_game(store, game_id).page().chart
    return shot, chart


@pytest.fixture(scope="module")
def bones_shot(db: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    """The Hockey Bones game's chart as Chromium draws it: taken once for the two tests
    that read it (a report and a Chromium start each time)."""
    return screenshot(db, tmp_path_factory.mktemp("shot"), BONES)


def test_shift_chart_screenshot_matches_the_reference(bones_shot: tuple[Path, object]) -> None:
    shot, chart = bones_shot
    if os.environ.get("RINKLOG_UPDATE_SCREENSHOTS") == "1" or not REFERENCE.exists():
        if os.environ.get("CI") and not REFERENCE.exists():
            pytest.fail(f"{REFERENCE} is missing (make it with RINKLOG_UPDATE_SCREENSHOTS=1)")
        shutil.copyfile(shot, REFERENCE)
    width, height, pixels = read_png(shot)
    ref_width, ref_height, reference = read_png(REFERENCE)
    assert (width, height) == (ref_width, ref_height) == WINDOW
    # The bars, goal lines and penalty marks (no text in the plot: fonts differ between
    # machines) must match closely; the whole picture, labels included, loosely.
    plot = (int(chart.plot_x) + 1, int(chart.plot_y) + 1,
            int(chart.plot_x + chart.plot_width) - 1, int(chart.plot_y + chart.plot_height) - 1)
    assert differing(pixels, reference, plot) < 0.002
    assert differing(pixels, reference, (0, 0, width, height)) < 0.04


def test_the_shift_charts_key_is_drawn(bones_shot: tuple[Path, object]) -> None:
    """The key under the chart is in the picture (it prints with it): each team's swatch
    in the team's colour, the penalty square in its yellow."""
    shot, chart = bones_shot
    _, _, pixels = read_png(shot)

    def at(x: float, y: float) -> tuple[int, ...]:
        row = pixels[int(y)]
        return tuple(row[3 * int(x): 3 * int(x) + 3])

    colours = {"#b3261e": (0xb3, 0x26, 0x1e), "#1f4e9c": (0x1f, 0x4e, 0x9c)}
    swatches = [i for i in chart.legend if i.kind == "shift"]
    assert len(swatches) == 2
    for item in swatches:
        assert max(abs(a - b) for a, b in zip(at(item.x + 12, item.y), colours[item.color],
                                               strict=True)) < 40
    penalty = next(i for i in chart.legend if i.kind == "penalty")
    assert max(abs(a - b) for a, b in zip(at(penalty.x + 12, penalty.y), (0xf2, 0xb7, 0x05),
                                           strict=True)) < 40


def test_the_screenshot_comparison_sees_another_chart(db: Path, tmp_path: Path) -> None:
    """The comparison can fail: another game's chart is far from the reference."""
    if not REFERENCE.exists():
        pytest.skip(f"{REFERENCE} is not made yet")
    shot, chart = screenshot(db, tmp_path, FACEOFF)
    _, _, pixels = read_png(shot)
    _, _, reference = read_png(REFERENCE)
    plot = (int(chart.plot_x) + 1, int(chart.plot_y) + 1,
            int(chart.plot_x + chart.plot_width) - 1, int(chart.plot_y + chart.plot_height) - 1)
    assert differing(pixels, reference, plot) > 0.05
