"""The pages' view models equal the read models; `rinklog report` writes pages for every
game system, refuses to overwrite, never writes to the database; a snapshot of one page."""

from __future__ import annotations

import hashlib
import html
import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from events.catalogue import open_store
from projections.scoresheet import PowerPlay, Scoresheet, TeamLine, build_scoresheet
from projections.standings import build_standings
from projections.stats import combine
from projections.systems import READ_MODELS, read_models
from projections.toi import ShiftLine, Toi
from replay.cli.app import SYSTEM_PARTS, main
from replay.leagues import merkle
from replay.leagues.matrix import season as matrix
from replay.leagues.season_receipts import leaf_bytes, season_leaves, season_receipt
from replay.reports.game_page import KIND_WORDS
from replay.reports.games import load_game
from replay.reports.matrix.site import build_matrix_site
from replay.reports.plots import histogram
from replay.reports.render import render
from replay.reports.season_site import leaders
from replay.reports.shift_chart import GAP, build_shift_chart, period_lengths
from replay.reports.units import period_label
from tests.event_counts import shift_times
from tests.pages_data import BONES, DICE_SEASON, FACEOFF, GAMES, MATRIX, SEASON

NO_DICE = "DICE Hockey's read models are not registered yet (READ_MODELS['dicehockey'])"


@pytest.fixture(scope="module")
def db(pages_db: Path) -> Path:
    return pages_db  # tests/conftest.py: built once for this module and the other pages tests


def _game(db: Path, game_id: str):
    with open_store(db, create=False) as store:
        return load_game(store, game_id)


def _system(ruleset: str) -> None:
    if ruleset == "dicehockey" and "dicehockey" not in READ_MODELS:
        pytest.skip(NO_DICE)


@pytest.mark.parametrize("ruleset", ["bones", "faceoff2008", "dicehockey"])
def test_every_goal_and_penalty_is_on_the_page(db: Path, ruleset: str) -> None:
    _system(ruleset)
    game = _game(db, GAMES[ruleset])
    page, sheet = game.page(), game.sheet
    played = len(sheet.home.goals_by_period)
    assert [(g.period, g.time, g.team, g.scorer, g.assists, g.gwg) for g in page.goals] == \
        [(period_label(g.period, played), str(g.time), g.team, g.scorer_name,
          g.assist_names, g.gwg) for g in sheet.goals]
    assert [(p.period, p.time, p.team, p.player, p.minutes) for p in page.penalties] == \
        [(period_label(p.period, played), str(p.time), p.team, p.player_name,
          p.minutes) for p in sheet.penalties]
    assert all(p.kind == KIND_WORDS[s.type] for p, s in zip(page.penalties, sheet.penalties,
                                                              strict=True))
    for mine, line in ((page.away, sheet.away), (page.home, sheet.home)):
        assert (mine.goals, mine.shots, mine.faceoffs, mine.blocked, mine.final, mine.pim) == \
            (line.goals_by_period, line.shots, line.faceoffs, line.blocked, line.goals, line.pim)
        assert mine.pp == f"{line.pp.goals}/{line.pp.opportunities}"
        assert sum(mine.pp_goals) == line.pp.goals
    assert sorted((g.name, g.shots_against, g.saves, g.goals_against, g.decision)
                  for g in page.goalies) == \
        sorted((g.name, g.shots_against, g.saves, g.goals_against, g.decision)
               for g in sheet.goalies)


@pytest.mark.parametrize("ruleset", ["bones", "faceoff2008", "dicehockey"])
def test_box_score_rows_are_the_stats_and_sum_to_team_totals(db: Path, ruleset: str) -> None:
    """Issue 24 (7): the seeded Hockey Bones game (HFX-QUE-2026) has a bench minor, which
    the Team line's PIM counts as the scoresheet does."""
    _system(ruleset)
    game = _game(db, GAMES[ruleset])
    page, sheet, stats = game.page(), game.sheet, game.stats.to_json()
    rows = {(s["team"], s["player"]): s for s in stats["skaters"]}
    shifts = Counter((s.team, s.player) for s in game.toi.shifts)
    benches = 0
    for box, line in zip(page.boxes, (sheet.away, sheet.home), strict=True):
        for r in box.skaters:
            s = rows[(r.team, r.player)]
            assert (r.name, r.g, r.a, r.p, r.plus_minus, r.pim, r.s, r.fo) == \
                (s["name"], s["g"], s["a"], s["p"], s["plus_minus"], s["pim"], s["sog"], s["fow"])
            assert r.shifts == shifts[(r.team, r.player)]
        goals = [g for g in sheet.goals if g.team == line.team]
        bench = sum(p.minutes for p in sheet.penalties if p.team == line.team
                    and p.type == "bench_minor")
        assert box.totals["g"] == len(goals)
        assert box.totals["a"] == sum(len(g.assists) for g in goals)
        assert box.totals["p"] == box.totals["g"] + box.totals["a"]
        assert box.totals["s"] == sum(line.shots)
        assert box.totals["fo"] == sum(line.faceoffs)
        goalies = sum(g.pim for g in page.goalies if g.team == line.team)
        # the Team line's PIM is every penalty of the team, bench minors included
        assert box.totals["pim"] == line.pim == sum(p.minutes for p in sheet.penalties
                                                    if p.team == line.team)
        assert box.totals["pim"] == sum(r.pim for r in box.skaters) + goalies + bench
        # a goalie's minutes are on his goalie line (issue 34 item 3), never a skater row
        lines = {(g["team"], g["player"]): g for g in stats["goalies"]}
        assert not lines.keys() & rows.keys()
        assert goalies == sum(lines[(g.team, g.player)]["pim"] for g in sheet.goalies
                              if g.team == line.team)
        assert box.blocked == sum(line.blocked)
        benches += bench
        assert box.totals["shifts"] == sum(n for (team, _), n in shifts.items()
                                           if team == line.team and (team, _) in
                                           {(r.team, r.player) for r in box.skaters})
    assert benches or ruleset != "bones", "the seeded game lost its bench minor"


@pytest.mark.parametrize("ruleset", ["bones", "faceoff2008", "dicehockey"])
def test_each_shift_is_one_bar_over_its_start_and_end(db: Path, ruleset: str) -> None:
    _system(ruleset)
    game = _game(db, GAMES[ruleset])
    chart = game.page().chart
    skaters = {(p.team, p.player) for p in game.toi.players if p.position != "G"}
    shifts = [s for s in game.toi.shifts if (s.team, s.player) in skaters]
    assert len(chart.bars) == len(shifts)
    for bar, s in zip(chart.bars, shifts, strict=True):
        assert (bar.team, bar.player, bar.period, bar.start, bar.end) == \
            (s.team, s.player, s.period, s.start, s.end)
        left = chart.origin[s.period] + s.start * chart.scale
        assert bar.x == pytest.approx(left + GAP)
        assert bar.x + bar.width == pytest.approx(chart.origin[s.period] + s.end * chart.scale - GAP)
    rows = {r.player: r for r in chart.rows}
    assert all(rows[b.player].y < b.y < rows[b.player].y + rows[b.player].height
               for b in chart.bars)
    assert len(chart.goals) == len(game.sheet.goals)
    assert len(chart.penalties) == len(game.sheet.penalties)
    assert chart.plot_x + chart.plot_width == pytest.approx(
        max(chart.origin.values()) + list(period_lengths(game.sheet, game.toi, game.unit)
                                          .values())[-1] * chart.scale)


def _team(team: str, periods: int) -> TeamLine:
    return TeamLine(team=team, name=team, goals=0, goals_by_period=[0] * periods,
                    shots=[0] * periods, pp=PowerPlay(0, 0), pim=0, blocked=[0] * periods,
                    faceoffs=[0] * periods)


def test_a_system_counting_its_own_unit_gets_periods_as_long_as_it_saw() -> None:
    """DICE Hockey counts timing spaces: no 20:00 periods; each period is as wide as the
    latest time in it, and times show as numbers."""
    sheet = Scoresheet(game_id="g", decided="REG", home=_team("H", 3), away=_team("A", 3),
                       goals=[], penalties=[], goalies=[], shootout=[])
    toi = Toi(game_id="g", players=[], shifts=[
        ShiftLine("H", "p", 1, 1, 0, 10, 10, 1.0), ShiftLine("H", "p", 2, 2, 4, 22, 18, 1.0),
        ShiftLine("H", "p", 3, 3, 20, 25, 5, 1.0)])
    unit = read_models("dicehockey").unit
    assert period_lengths(sheet, toi, unit) == {1: 10, 2: 22, 3: 25}
    assert unit.show(7) == "7" and unit.label == "Space"
    assert read_models("bones").unit.show(95) == "01:35"
    chart = build_shift_chart(sheet, toi, unit)
    assert chart.scale == pytest.approx(chart.plot_width / 57)


def test_the_cli_writes_a_game_page_refuses_to_overwrite_and_never_writes_the_db(
        db: Path, tmp_path: Path, capsys) -> None:
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    (tmp_path / "out").mkdir()
    page = tmp_path / "out" / "game.html"
    assert main(["report", BONES, "-o", str(page), "--db", str(db)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "<title>Quebec Glaciers 1 at Halifax Harbourmen 2</title>" in text
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in text and "<script" not in text
    assert "@media print" in text
    capsys.readouterr()
    assert main(["report", BONES, "-o", str(page), "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "exists; give --force" in err and "Traceback" not in err
    assert main(["report", BONES, "-o", str(page), "--force", "--db", str(db)]) == 0
    chart = tmp_path / "chart.html"
    assert main(["report", BONES, "--shift-chart", "-o", str(chart), "--db", str(db)]) == 0
    assert 'id="shift-chart"' in chart.read_text(encoding="utf-8")
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


@pytest.mark.parametrize("argv, message", [
    (["report", "-o", "x.html"], "give a GAME id or --season"),
    (["report", BONES, "--season", SEASON, "-o", "x"], "give a GAME id or --season"),
    (["report", BONES], "-o PATH"),
    (["report", "nope", "-o", "x.html"], "no game 'nope'"),
    (["report", MATRIX, "-o", "x.html"], f"--season {MATRIX}"),
    (["report", "--season", "nope", "-o", "x"], "no season 'nope'"),
    (["report", "--season", SEASON, "--shift-chart", "-o", "x"], "--shift-chart goes with a GAME"),
])
def test_report_errors_are_one_line(db: Path, tmp_path: Path, monkeypatch, capsys, argv, message
                                    ) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([*argv, "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert not (tmp_path / "x.html").exists() and not (tmp_path / "x").exists()


@pytest.mark.parametrize("argv", [[BONES], [BONES, "--shift-chart"], ["--season", SEASON]])
def test_report_refuses_a_missing_parent_folder_in_one_line(db: Path, tmp_path: Path, capsys,
                                                            argv: list[str]) -> None:
    """Issue 34 item 11: "`report -o /nonexistent/dir/x.html` silently creates the whole
    directory tree: refuse a missing parent directory in one line". A season's site is a
    folder -o may create (test_season_site), but only in a folder that exists."""
    missing = tmp_path / "nonexistent" / "dir"
    assert main(["report", *argv, "-o", str(missing / "x.html"), "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert f"the folder {missing} does not exist" in err, err
    assert not (tmp_path / "nonexistent").exists()


@pytest.mark.parametrize("ruleset", ["bones", "faceoff2008", "dicehockey"])
def test_report_works_for_every_game_system(db: Path, tmp_path: Path, ruleset: str) -> None:
    _system(ruleset)
    page = tmp_path / f"{ruleset}.html"
    assert main(["report", GAMES[ruleset], "-o", str(page), "--db", str(db)]) == 0
    text = html.unescape(page.read_text(encoding="utf-8"))
    sheet = _game(db, GAMES[ruleset]).sheet
    assert f"{sheet.away.name} {sheet.away.goals} at {sheet.home.name} {sheet.home.goals}" in text
    assert all(g.scorer_name in text for g in sheet.goals)
    assert all(p.player_name in text for p in sheet.penalties)


def test_a_faceoff_tie_reads_as_one(db: Path) -> None:
    page = _game(db, FACEOFF).page()
    assert page.status == "Final (tie)"
    assert {g.decision for g in page.goalies} <= {"T", ""}


def test_season_site(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    assert main(["report", "--season", SEASON, "-o", str(site), "--db", str(db)]) == 0
    with open_store(db, create=False) as store:
        games = [i.stream for i in store.streams(kind="game") if i.stream.startswith(SEASON)]
        pairs = [(e[0], e[-1]) for e in ([r.event for r in store.iter_events(g)] for g in games)]
    assert len(games) == 8
    assert sorted(p.name for p in (site / "games").iterdir()) == sorted(f"{g}.html" for g in games)
    index = html.unescape((site / "index.html").read_text(encoding="utf-8"))
    records = build_standings(pairs)
    for r in records:
        assert (site / "teams" / f"{r.team}.html").exists()
        assert re.search(rf"{re.escape(r.name)}</a> \({r.team}\)</td><td>{r.gp}</td><td>{r.w}</td>"
                         rf"<td>{r.l}</td><td>{r.otl}</td><td>{r.points}</td>"
                         rf"<td>{f'{r.points / (2 * r.gp):.3f}'.lstrip('0')}</td>", index), r
    assert 'id="goals-per-game"' in index and "Save percentage" in index
    team = html.unescape((site / "teams" / f"{records[0].team}.html").read_text(encoding="utf-8"))
    assert 'id="points-over-season"' in team and "../games/" in team
    assert main(["report", "--season", SEASON, "-o", str(site), "--db", str(db)]) == 1
    assert main(["report", "--season", SEASON, "-o", str(site), "--force", "--db", str(db)]) == 0


def test_season_goals_histogram_counts_every_game(db: Path) -> None:
    with open_store(db, create=False) as store:
        games = [i.stream for i in store.streams(kind="game") if i.stream.startswith(SEASON)]
        sheets = [(n, build_scoresheet([r.event for r in store.iter_events(g)]))
                  for n, g in enumerate(games, start=1)]
    plot = histogram([len(s.goals) for _, s in sheets], "t", "x")
    assert sum(c.count for c in plot.columns) == len(sheets)
    assert [c.value for c in plot.columns] == list(range(max(len(s.goals) for _, s in sheets) + 1))


def test_matrix_season_site_shows_its_standings_and_results(db: Path, tmp_path: Path) -> None:
    site = tmp_path / "matrix"
    assert main(["report", "--season", MATRIX, "-o", str(site), "--db", str(db)]) == 0
    text = html.unescape((site / "index.html").read_text(encoding="utf-8"))
    with open_store(db, create=False) as store:
        standings = matrix.standings(store, MATRIX)
        results = matrix.results(store, MATRIX)
    view = build_matrix_site(MATRIX, results, standings)
    assert sum(len(w.results) for w in view.weeks) == len(results)
    for row in standings:
        assert (f"<td>{row['rank']}</td><td class=\"text\">{row['name']}</td><td>{row['played']}"
                f"</td><td>{row['wins']}</td>") in text
        assert f"<td>{row['points']}</td><td>{row['last10']}</td><td>{row['streak']}</td></tr>" in text
    assert all(row["last10"] and row["streak"] for row in standings if row["played"])
    assert text.count("<h3>Week ") == len({r["week"] for r in results})


def test_templates_ship_as_package_data() -> None:
    from importlib.resources import files

    shipped = {p.name for p in files("replay.reports").joinpath("templates").iterdir()}
    used = set(re.findall(r'render\(\s*"([^"]+)"', "".join(
        p.read_text(encoding="utf-8") for p in Path("replay/reports").glob("*.py"))))
    assert used and used <= shipped
    pyproject = Path("pyproject.toml").read_text(encoding="utf-8")
    assert '"replay.reports" = ["templates/*.j2"]' in pyproject


class HtmlSnapshot(SingleFileSnapshotExtension):
    _write_mode = WriteMode.TEXT
    file_extension = "html"


def _mmss(seconds: int) -> str:
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def test_the_play_by_play_keeps_one_score_order_and_a_play_covers_its_penalties(db: Path
                                                                               ) -> None:
    """Issue 34, 6: the play-by-play's score column is away-home (as its title, "away at
    home", and NHL.com's play-by-play); a period's end in the same row reads in that order,
    and a play's time range covers every penalty in it. Expected values from the events."""
    with open_store(db, create=False) as store:
        events = [row.event for row in store.read(BONES)]
    created = events[0]
    home, away = created.home.team_id, created.away.team_id
    page = _game(db, BONES).page()
    plays = [p for period in page.plays for p in period.plays]
    ended = [e for e in events if type(e).__name__ == "PeriodEnded"]
    assert ended
    for e in ended:
        line = f"end of period {e.period}: {away} {e.away_goals} - {e.home_goals} {home}"
        row = next(p for p in plays if line in p.text)
        assert row.score == f"{e.away_goals}-{e.home_goals}", row
    penalties = [e for e in events if type(e).__name__ == "PenaltyAssessed"]
    assert penalties
    labels = {1: "1st", 2: "2nd", 3: "3rd"}
    for e in penalties:
        said = [p for p in plays if p.period == labels.get(e.period) and
                any(d.startswith("penalty: ") and f"{e.minutes} min" in d for d in p.detail)]
        at = _mmss(e.time)
        # 14.10 / 6.30: the penalty's time is the event's; its play's range holds it
        assert any(p.time.split("–")[0] <= at <= p.time.split("–")[-1] for p in said), (at, said)


def test_bones_game_page_snapshot(db: Path, snapshot) -> None:
    page = _game(db, BONES).page()
    assert render("game.html.j2", page=page, nav=[]) == snapshot(extension_class=HtmlSnapshot)


def test_season_leaders_are_those_of_rinklog_leaders(db: Path, tmp_path: Path, capsys) -> None:
    """The site's skater boards equal `rinklog leaders --json` (which may store the stats
    read model, so it runs on a copy of the database)."""
    copy = tmp_path / "copy.db"
    shutil.copyfile(db, copy)
    capsys.readouterr()
    assert main(["leaders", "--season", SEASON, "--json", "--db", str(copy)]) == 0
    boards = json.loads(capsys.readouterr().out)
    with open_store(db, create=False) as store:
        games = [i.stream for i in store.streams(kind="game") if i.stream.startswith(SEASON)]
        summed = combine(load_game(store, g).stats for g in games).to_json()
    shown = {b.title: [(r.name, r.team, r.value) for r in b.rows] for b in leaders(summed)}
    for title, key in (("Goals", "G"), ("Assists", "A"), ("Points", "P"), ("Plus/minus", "+/-"),
                       ("Penalty minutes", "PIM")):
        assert shown[title] == [(r["name"], r["team"],
                                 f"{r['value']:+d}" if key == "+/-" else str(r["value"]))
                                for r in boards[key]], title


def _page_proofs(text: str) -> list[tuple[str, dict]]:
    """Each game's shown head and the proof under it, from a season page."""
    found = re.findall(r'<details class="proof"[^>]*><summary><code>([0-9a-f]{16})…</code>'
                       r"</summary><pre>(.*?)</pre></details>", text, re.S)
    return [(head, json.loads(html.unescape(proof))) for head, proof in found]


@pytest.mark.parametrize("season", [SEASON, DICE_SEASON, MATRIX])
def test_season_pages_show_each_games_head_and_inclusion_proof(db: Path, tmp_path: Path,
                                                                season: str) -> None:
    """Every game of the season's tree is on its page with its head and a proof that
    verifies against the season's receipt (RFC 6962 2.1.1)."""
    site = tmp_path / "site"
    assert main(["report", "--season", season, "-o", str(site), "--db", str(db)]) == 0
    shown = _page_proofs((site / "index.html").read_text(encoding="utf-8"))
    with open_store(db, create=False) as store:
        games = season_leaves(store, season)
        receipt = season_receipt(store, season)
    assert len(shown) == len(games) == {SEASON: 8, DICE_SEASON: 4, MATRIX: 66}[season]
    by_game = {p["game"]: (head, p) for head, p in shown}
    assert sorted(by_game) == sorted(g.game for g in games)
    for g in games:
        head, proof = by_game[g.game]
        assert head == g.head[:16] and proof["head"] == g.head
        assert (proof["root"], proof["n_games"]) == (receipt.root, receipt.n_games)
        assert merkle.verify_inclusion(leaf_bytes(g), proof["index"], proof["n_games"],
                                       [bytes.fromhex(p) for p in proof["path"]],
                                       bytes.fromhex(receipt.root))


# --- issue 24: play-by-play, shift chart key, player pages, site size and progress ----------

@pytest.mark.parametrize("ruleset", ["bones", "faceoff2008", "dicehockey"])
def test_play_by_play_is_a_line_a_play_with_time_and_score(db: Path, ruleset: str) -> None:
    """Each goal's play shows the scoresheet's time and the scoring summary's score after
    it; the last play the final score; no event line is lost from the plays' detail."""
    _system(ruleset)
    game = _game(db, GAMES[ruleset])
    page, sheet = game.page(), game.sheet
    plays = [p for period in page.plays for p in period.plays]
    scored = [p for p in plays if p.goal]
    assert len(scored) == len(page.goals) == len(sheet.goals)
    for play, goal in zip(scored, page.goals, strict=True):
        assert (play.period, play.time.split("–")[-1], play.score) == \
            (goal.period, goal.time, goal.score)
        assert goal.scorer in play.text
    away = sum(1 for g in sheet.goals if g.team == sheet.away.team)
    home = sum(1 for g in sheet.goals if g.team == sheet.home.team)
    assert plays[-1].score == f"{away}-{home}"
    assert all(p.text and p.period and p.time for p in plays)
    # the detail holds every line but the face-off opening the play's line, its whistle
    # closing it, line changes (the shift chart's) and Bones action rolls told again
    told = [x.text for x in game.plays if x.kind not in ("change", "echo", "whistle")]
    faceoffs = sum(1 for x in game.plays if x.kind == "faceoff")
    assert sum(len(p.detail) for p in plays) == len(told) - faceoffs
    assert len(plays) == faceoffs
    # a play's line counts its passes: no "pass X → Y" line on it
    assert not any("→" in p.text for p in plays)


def test_play_lines_take_the_time_of_the_step_they_happen_in() -> None:
    """Hockey Bones's sequence n starts at (n - 1) x 24 s (6.10); DICE Hockey counts
    timing spaces as they are."""
    bones, dicehockey = read_models("bones").unit, read_models("dicehockey").unit
    assert bones.at(1) == 0
    assert bones.at(3) == 48
    assert bones.at(0) == 0
    assert dicehockey.at(17) == 17


def test_a_shift_chart_track_draws_each_bar(db: Path) -> None:
    """Each skater's path has one segment per shift bar, over its x and width (to the
    tenth of a pixel), stroked as thick as a bar."""
    chart = _game(db, BONES).page().chart
    by_row: dict[str, list] = {}
    for b in chart.bars:
        by_row.setdefault(b.player, []).append(b)
    assert len(chart.tracks) == len(by_row)
    for track in chart.tracks:
        bars = by_row[track.player]
        moves = re.findall(r"([Mm])(-?[\d.]+) (-?[\d.]+)h(-?[\d.]+)", track.d)
        assert len(moves) == len(bars)
        at = 0.0
        for (kind, dx, y, w), bar in zip(moves, bars, strict=True):
            x = float(dx) if kind == "M" else at + float(dx)
            assert x == pytest.approx(bar.x, abs=0.06)
            assert x + float(w) == pytest.approx(bar.x + bar.width, abs=0.06)
            if kind == "M":
                assert float(y) == pytest.approx(bar.y + bar.height / 2, abs=0.06)
            at = x + float(w)
        assert track.height == bars[0].height


def test_the_shift_chart_alone_has_a_key(db: Path, tmp_path: Path) -> None:
    chart = tmp_path / "chart.html"
    assert main(["report", BONES, "--shift-chart", "-o", str(chart), "--db", str(db)]) == 0
    text = html.unescape(chart.read_text(encoding="utf-8"))
    sheet = _game(db, BONES).sheet
    key = text[text.index('<g class="legend"'):text.index("</svg>")]
    for line in (sheet.away, sheet.home):
        assert f"{line.name} ({line.team}) shift" in key
    assert "goal (dot on the scorer)" in key and ">penalty<" in key
    view = _game(db, BONES).page().chart
    assert all(view.plot_y + view.plot_height < i.y < view.height for i in view.legend)


def _season_site(db: Path, tmp_path: Path, season: str = SEASON) -> Path:
    site = tmp_path / "site"
    assert main(["report", "--season", season, "-o", str(site), "--db", str(db)]) == 0
    return site


@pytest.mark.parametrize("season", [SEASON, DICE_SEASON])
def test_game_pages_are_small_and_the_site_shares_one_style_sheet(db: Path, tmp_path: Path,
                                                                   season: str) -> None:
    """A game page under 60 KB (issue 24: 137 KB before); a season's pages link the one
    style.css of the site; a game page alone keeps its style inline."""
    for ruleset in ("bones", "dicehockey"):
        if ruleset == "dicehockey" and "dicehockey" not in READ_MODELS:
            continue
        page = tmp_path / f"{ruleset}.html"
        assert main(["report", GAMES[ruleset], "-o", str(page), "--db", str(db)]) == 0
        text = page.read_text(encoding="utf-8")
        assert len(text.encode()) < 60_000, ruleset
        assert "<style>" in text and "<link" not in text
    site = _season_site(db, tmp_path, season)
    assert (site / "style.css").read_text(encoding="utf-8").startswith("body {")
    pages = list(site.rglob("*.html"))
    assert all(p.stat().st_size < 60_000 for p in (site / "games").iterdir())
    for p in pages:
        text = p.read_text(encoding="utf-8")
        depth = "../" if p.parent != site else ""
        assert f'<link rel="stylesheet" href="{depth}style.css">' in text, p
        assert "<style>" not in text, p


def test_the_season_report_tells_its_progress(db: Path, tmp_path: Path, capsys) -> None:
    """A progress(done, total) call per game page, then per player page; on a stderr that
    is no terminal the CLI draws no bar."""
    from replay.reports import write_season_report

    heard: list[tuple[int, int]] = []
    with open_store(db, create=False) as store:
        write_season_report(store, SEASON, tmp_path / "a", progress=lambda d, t: heard.append((d, t)))
    players = len(list((tmp_path / "a" / "players").iterdir()))
    assert heard == [(n, 8) for n in range(1, 9)] + [(8 + n, 8 + players)
                                                     for n in range(1, players + 1)]
    capsys.readouterr()
    assert main(["report", "--season", SEASON, "-o", str(tmp_path / "b"), "--db", str(db)]) == 0
    assert capsys.readouterr().err == ""


def _cells(text: str, table: str) -> list[list[str]]:
    body = re.search(rf'<table id="{table}".*?<tbody>(.*?)</tbody>', text, re.S)
    assert body, table
    return [[html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body.group(1), re.S)]


@pytest.mark.parametrize("season", [SEASON, DICE_SEASON])
def test_a_skaters_page_shows_his_time_on_ice_a_game_from_his_shifts(db: Path, tmp_path: Path,
                                                                     capsys, season: str) -> None:
    """Time on ice per game on a player's page (hockey-reference's game log TOI and its
    ATOI): each game's is the sum of his shifts' durations in `rinklog toi GAME --json`,
    shown as MM:SS (Hockey Bones' seconds) or as a count (DICE Hockey's timing spaces),
    and TOI/GP is their average, rounded."""
    site = _season_site(db, tmp_path, season)
    shifts = shift_times(db, season, capsys)

    def shown(value: int) -> str:
        return str(value) if season == DICE_SEASON else f"{value // 60:02d}:{value % 60:02d}"

    assert len(shifts) > 20
    for (team, player), times in shifts.items():
        text = (site / "players" / f"{team}-{player}.html").read_text(encoding="utf-8")
        log = _cells(text, "player-games")
        assert sorted(row[12] for row in log) == sorted(shown(t) for t in times), player
        assert _cells(text, "player-season")[0][10] == shown(round(sum(times) / len(times)))
        assert ("Spaces/GP" if season == DICE_SEASON else "TOI/GP") in text


@pytest.mark.parametrize("season", [SEASON, DICE_SEASON])
def test_player_pages_equal_rinklog_stats(db: Path, tmp_path: Path, capsys, season: str) -> None:
    """Each player's season line is his row of `rinklog stats GAMES --json` over the
    season's games, his game log a row per game he played, summing to it; team pages and
    leaders link the players."""
    site = _season_site(db, tmp_path, season)
    copy = tmp_path / "copy.db"
    shutil.copyfile(db, copy)
    with open_store(db, create=False) as store:
        games = [i.stream for i in store.streams(kind="game") if i.stream.startswith(season)]
    capsys.readouterr()
    assert main(["stats", *games, "--json", "--db", str(copy)]) == 0
    stats = json.loads(capsys.readouterr().out)
    goalies = {(g["team"], g["player"]) for g in stats["goalies"] if g["gp"]}
    skaters = [s for s in stats["skaters"] if s["gp"] and (s["team"], s["player"]) not in goalies]
    assert skaters
    for s in skaters:
        page = site / "players" / f"{s['team']}-{s['player']}.html"
        text = page.read_text(encoding="utf-8")
        season = _cells(text, "player-season")[0]
        assert season[:10] == [str(s["gp"]), str(s["g"]), str(s["a"]), str(s["p"]),
                          f"{s['plus_minus']:+d}" if s["plus_minus"] else "0", str(s["pim"]),
                          str(s["sog"]), str(s["fow"]), str(s["ppp"]), str(s["shp"])], s
        log = _cells(text, "player-games")
        assert len(log) == s["gp"]
        assert [sum(int(r[i]) for r in log) for i in (5, 6, 7, 9, 10)] == \
            [s["g"], s["a"], s["p"], s["pim"], s["sog"]]
        team = (site / "teams" / f"{s['team']}.html").read_text(encoding="utf-8")
        assert f'href="../players/{s["team"]}-{s["player"]}.html"' in team
    for g in stats["goalies"]:
        if not g["gp"]:
            continue
        text = (site / "players" / f"{g['team']}-{g['player']}.html").read_text(encoding="utf-8")
        season = _cells(text, "player-season")[0]
        assert season[:4] == [str(g["gp"]), str(g["w"]), str(g["l"]), str(g["otl"])]
        assert len(_cells(text, "player-games")) == g["gp"]
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="players/' in index


@pytest.mark.parametrize("season", [SEASON, DICE_SEASON])
def test_team_pages_show_home_road_and_the_running_record(db: Path, tmp_path: Path,
                                                          capsys, season: str) -> None:
    """Home and road W-L-OTL add up to `rinklog standings`' record, road wins are its
    road wins; the running record after the last game is the record."""
    site = _season_site(db, tmp_path, season)
    capsys.readouterr()
    assert main(["standings", "--season", season, "--json", "--db", str(db)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows
    for r in rows:
        text = html.unescape((site / "teams" / f"{r['team']}.html").read_text(encoding="utf-8"))
        found = re.search(r"Home (\d+)-(\d+)-(\d+) · Road (\d+)-(\d+)-(\d+)", text)
        assert found, r["team"]
        hw, hl, hotl, rw, rl, rotl = map(int, found.groups())
        assert (hw + rw, hl + rl, hotl + rotl) == (r["w"], r["l"], r["otl"])
        assert rw == r["road_wins"]
        log = _cells(text, "team-games")
        assert len(log) == r["gp"]
        assert log[-1][5] == f"{r['w']}-{r['l']}-{r['otl']}" + (f"-{r['t']}" if r["t"] else "")


def test_road_wins_and_regulation_wins_are_labelled_apart(db: Path, capsys) -> None:
    """Issue 24 (8): a league season's tiebreak is road wins (rule 29), Matrix Hockey's is
    regulation wins (3.1.5); "RW" read as either. Road wins are RdW, regulation wins RegW,
    in the text tables and on the pages, and neither is "RW"."""
    from replay.reports.season_site import season_files

    capsys.readouterr()
    assert main(["standings", "--db", str(db)]) == 0
    league = capsys.readouterr().out.splitlines()
    assert main(["matrix", "standings", MATRIX, "--db", str(db)]) == 0
    matrix_table = capsys.readouterr().out.splitlines()
    header = next(line for line in league if "PTS" in line).split()
    assert "RdW" in header and "RW" not in header and "RegW" not in header
    header = next(line for line in matrix_table if "PTS" in line).split()
    assert "RegW" in header and "RW" not in header and "RdW" not in header
    with open_store(db, create=False) as store:
        league_page = season_files(store, SEASON)["index.html"]
        matrix_page = next(iter(season_files(store, MATRIX, sites=SYSTEM_PARTS.sites()).values()))
    assert '<abbr title="road wins">RdW</abbr>' in league_page and ">RW<" not in league_page
    assert '<abbr title="regulation wins">RegW</abbr>' in matrix_page
    assert ">RW<" not in matrix_page and "RegW: wins in regulation" in matrix_page
