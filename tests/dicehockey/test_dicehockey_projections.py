"""DICE Hockey's read models (projections/dicehockey/): each fold on hand-built streams with
exact numbers, properties over seeded games, the stored tables, the CLI and a snapshot."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from setups import simulate
from syrupy.extensions.json import JSONSnapshotExtension

from events.common import (
    GameCreated,
    GameEnded,
    PeriodEnded,
    PeriodStarted,
    RosterEntry,
    TeamSheet,
)
from events.dicehockey import (
    ClearCounted,
    FaceoffWon,
    GoalieChanged,
    GoalScored,
    PenaltyAssessed,
    PenaltyEnded,
    PeriodLengthSet,
    ShootoutAttempt,
    ShootoutShootersChosen,
    ShotTaken,
    TimingSpaceCounted,
)
from projections import store as rm
from projections.dicehockey import build_penalties, build_scoresheet, build_stats, build_toi
from projections.dicehockey.ice import unique
from projections.systems import READ_MODELS, read_models
from replay.cli.app import main
from replay.games.game_streams import open_store, read_game

ROOT = Path(__file__).resolve().parent.parent
HOME = ["h1", "h2", "h3", "h4", "h5"]
AWAY = ["a1", "a2", "a3", "a4", "a5"]


# --- hand-built streams -----------------------------------------------------------------

def _sheet(team: str, skaters: list[str], goalie: str) -> TeamSheet:
    positions = ["C", "LW", "RW", "D", "D"]
    roster = [RosterEntry(id=p, name=p.upper(), position=pos)
              for p, pos in zip(skaters, positions, strict=True)]
    return TeamSheet(team_id=team, name=f"Team {team}", card_hash="0" * 64,
                     roster=[*roster, RosterEntry(id=goalie, name=goalie.upper(), position="G")])


def _created() -> GameCreated:
    return GameCreated(game_id="H-A-hand", ruleset="dicehockey", ruleset_version=1,
                       home=_sheet("H", HOME, "hg"), away=_sheet("A", AWAY, "ag"),
                       charts_hash="0" * 64, dice="seeded", seed="hand")


def _shot(side: str, shooter: str, goalie: str | None, goal: bool, kind: str = "GS") -> ShotTaken:
    return ShotTaken(side=side, shooter=shooter, goalie=goalie, kind=kind, upto=3, raw=0,
                     modifier=0, modifiers=[], goal=goal, rebound=False,
                     puck_side=None if goal else "away", puck_to=None if goal else "a4",
                     slot=None if goal else "LD", penalty=False, roll=0, rule="8")


def _space(n: int, home: list[str], away: list[str], period: int = 1) -> TimingSpaceCounted:
    return TimingSpaceCounted(period=period, space=n, reason="shot", home_on_ice=home,
                              away_on_ice=away, roll=0, rule="22")


def _goal(side: str, scorer: str, assists: list[str], goalie: str | None, space: int,
          strength: str, period: int = 1) -> GoalScored:
    return GoalScored(side=side, scorer=scorer, assists=assists, goalie=goalie, period=period,
                      space=space, strength=strength, home_on_ice=list(HOME),
                      away_on_ice=list(AWAY), roll=0, rule="8")


def _minor(pid: int, side: str, player: str, space: int) -> PenaltyAssessed:
    return PenaltyAssessed(id=pid, side=side, player=player, infraction="Hooking",
                           kind="minor", minutes=2, clears=2, spaces=0, short=True, period=1,
                           space=space, roll=0, rule="15")


def regulation_game() -> list:
    """A power-play goal, a home minor killed by two clears, an empty-net goal."""
    four_home = ["h1", "h2", "h3", "h5"]
    return [
        _created(), PeriodStarted(period=1), PeriodLengthSet(period=1, length=20, roll=0, rule="12"),
        FaceoffWon(side="home", winner="h1", loser="a1", home_upto=49, value=10,
                   to_player="h4", slot="RD", roll=0, rule="6"),
        _shot("home", "h2", "ag", False), _space(1, HOME, AWAY),                    # 5v5
        _minor(1, "away", "a2", 1),
        _shot("home", "h1", "ag", True), _space(2, HOME, ["a1", "a3", "a4", "a5"]),  # 5v4
        _goal("home", "h1", ["h2", "h3"], "ag", 1, "PP"),
        PenaltyEnded(id=1, side="away", player="a2", reason="goal", clears_left=0, roll=0,
                     rule="15"),
        _minor(2, "home", "h4", 2),                                                # seq 12
        ClearCounted(side="home", player="h5", penalties=[2], left=[1], roll=0, rule="15"),
        _space(3, four_home, AWAY),                                                # 4v5
        ClearCounted(side="home", player="h5", penalties=[2], left=[0], roll=0, rule="15"),
        PenaltyEnded(id=2, side="home", player="h4", reason="cleared", clears_left=0, roll=0,
                     rule="15"),
        GoalieChanged(side="away", goalie="ag", pulled=True, extra_attacker="a1", rule="22"),
        _space(4, HOME, [*AWAY, "a1"]),  # the extra attacker listed twice: counted once
        _shot("home", "h3", None, True, kind="breakaway"),
        _goal("home", "h3", [], None, 4, "EN"),
        PeriodEnded(period=1, home_goals=2, away_goals=0),
        GameEnded(home_goals=2, away_goals=0, decided="REG", winner="home"),
    ]


def shootout_game() -> list:
    """A goal each (the away one on a penalty shot), a scoreless overtime, a shootout."""
    def attempt(side: str, shooter: str, goalie: str, scored: bool, kind: str = "shootout",
                n: int = 1) -> ShootoutAttempt:
        return ShootoutAttempt(side=side, shooter=shooter, goalie=goalie, card="shooter",
                               upto=30, scored=scored, kind=kind, round=n, roll=0, rule="14")

    return [
        _created(), PeriodStarted(period=1), PeriodLengthSet(period=1, length=20, roll=0, rule="12"),
        _shot("home", "h1", "ag", True), _space(1, HOME, AWAY),
        _goal("home", "h1", ["h4"], "ag", 0, "EV"),
        attempt("away", "a1", "hg", True, kind="penalty_shot"),
        _goal("away", "a1", [], "hg", 1, "PS"),
        PeriodEnded(period=1, home_goals=1, away_goals=1),
        PeriodStarted(period=4), PeriodLengthSet(period=4, length=5, roll=0, rule="13"),
        _shot("away", "a3", "hg", False), _space(1, HOME, AWAY, period=4),
        PeriodEnded(period=4, home_goals=1, away_goals=1),
        PeriodStarted(period=5),
        ShootoutShootersChosen(home_shooters=["h1", "h2", "h3"],
                               away_shooters=["a1", "a2", "a3"], rule="14"),
        attempt("away", "a1", "hg", False), attempt("home", "h1", "ag", True),
        attempt("away", "a2", "hg", False, n=2), attempt("home", "h2", "ag", False, n=2),
        attempt("away", "a3", "hg", False, n=3),
        PeriodEnded(period=5, home_goals=2, away_goals=1),
        GameEnded(home_goals=2, away_goals=1, decided="SO", winner="home"),
    ]


def test_registered_and_engine_free() -> None:
    assert read_models("dicehockey") is READ_MODELS["dicehockey"]
    for path in (ROOT / "projections" / "dicehockey").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import)\s+(engine|replay)\b", source, re.M), path


def test_scoresheet_power_play_goal_empty_net_and_goalies() -> None:
    sheet = build_scoresheet(regulation_game())
    assert sheet.decided == "REG"
    home, away = sheet.home, sheet.away
    assert (home.goals, home.goals_by_period, home.shots) == (2, [2], [3])
    assert (away.goals, away.shots, away.blocked, home.faceoffs) == (0, [0], [0], [1])
    assert (home.pp.opportunities, home.pp.goals, away.pp.opportunities, away.pp.goals) == \
        (1, 1, 1, 0)
    assert (home.pim, away.pim) == (2, 2)
    pp, en = sheet.goals
    assert (pp.time, pp.strength, pp.assists, pp.gwg) == (2, "PP", ["h2", "h3"], True)
    assert (en.time, en.strength, en.assists, en.gwg) == (4, "EN", [], False)
    assert [(p.time, p.player, p.type, p.minutes, p.infraction) for p in sheet.penalties] == \
        [(1, "a2", "minor", 2, "Hooking"), (2, "h4", "minor", 2, "Hooking")]
    lines = {g.player: g for g in sheet.goalies}
    hg, ag = lines["hg"], lines["ag"]
    assert (hg.toi, hg.shots_against, hg.saves, hg.goals_against, hg.decision) == (4, 0, 0, 0, "W")
    assert (ag.toi, ag.shots_against, ag.saves, ag.goals_against, ag.decision) == (3, 2, 1, 1, "L")


def test_scoresheet_penalty_shot_and_shootout() -> None:
    sheet = build_scoresheet(shootout_game())
    assert sheet.decided == "SO"
    assert (sheet.home.goals, sheet.away.goals) == (2, 1)  # the shootout winner's +1 (14)
    assert sheet.home.goals_by_period == [1, 0, 0, 0]
    assert sheet.away.goals_by_period == [1, 0, 0, 0]
    assert (sheet.home.shots, sheet.away.shots) == ([1, 0, 0, 0], [1, 0, 0, 1])
    assert [g.strength for g in sheet.goals] == ["EV", "PS"] and not any(g.gwg for g in sheet.goals)
    assert [(s.team, s.shooter, s.scored) for s in sheet.shootout] == [
        ("A", "a1", False), ("H", "h1", True), ("A", "a2", False), ("H", "h2", False),
        ("A", "a3", False)]
    lines = {g.player: g for g in sheet.goalies}
    assert (lines["hg"].shots_against, lines["hg"].goals_against, lines["hg"].decision) == \
        (2, 1, "W")
    assert (lines["ag"].shots_against, lines["ag"].goals_against, lines["ag"].decision) == \
        (1, 1, "OTL")


def test_toi_counts_timing_spaces_by_strength_and_shifts() -> None:
    toi = build_toi(regulation_game())
    rows = {(p.team, p.player): p for p in toi.players}
    h4, h5, hg = rows[("H", "h4")], rows[("H", "h5")], rows[("H", "hg")]
    assert (h4.toi, h4.toi_ev, h4.toi_pp, h4.toi_sh, h4.shifts, h4.excess) == (3, 2, 1, 0, 1.5, 0)
    assert (h5.toi, h5.toi_ev, h5.toi_pp, h5.toi_sh, h5.shifts) == (4, 2, 1, 1, 1.0)
    assert (hg.sequences, hg.toi, hg.shifts) == (4, 4, 0)
    a1, a2, ag = rows[("A", "a1")], rows[("A", "a2")], rows[("A", "ag")]
    assert (a1.toi, a2.toi, a2.toi_sh) == (4, 3, 0)
    assert (ag.toi, ag.toi_ev, ag.toi_sh, ag.toi_pp) == (3, 1, 1, 1)  # pulled for space 4
    shifts = [(s.period, s.start, s.end, s.duration, s.charge)
              for s in toi.shifts if s.player == "h4"]
    assert shifts == [(1, 0, 2, 2, 1.0), (1, 3, 4, 1, 0.5)]


def test_penalties_killed_by_clears_and_by_a_goal() -> None:
    events = regulation_game()
    report = build_penalties(events)
    first, second = report.penalties
    assert (first.box, first.short, first.start, first.end_period, first.end, first.why) == \
        (2, 2, 1, 1, 2, "power_play_goal")
    assert (second.served_by, second.start, second.end, second.why) == ("h4", 2, 3, "cleared")
    assert (second.scheduled_end_period, second.scheduled_end) == (None, None)
    assert [(s["sequence"], s["home"], s["away"]) for s in report.sequences] == [
        (1, "5v5", "5v5"), (2, "5v4", "4v5"), (3, "4v5", "5v4"), (4, "5v5", "5v5")]
    one_clear = next(n for n, e in enumerate(events, start=1) if isinstance(e, ClearCounted))
    midway = build_penalties(events, at=one_clear)
    assert [(r.id, r.player, r.time_left, r.short_left) for r in midway.running] == \
        [(2, "h4", 1, 1)]
    assert midway.strength == {"home": "4v5", "away": "5v4"}
    assert report.running == []


def test_a_fight_sits_timing_spaces_and_a_double_minor_keeps_its_second_half() -> None:
    fight = PenaltyAssessed(id=1, side="home", player="h1", infraction="Fighting", kind="fight",
                            minutes=5, clears=0, spaces=5, short=False, period=1, space=18,
                            roll=0, rule="18")
    double = PenaltyAssessed(id=2, side="away", player="a2", infraction="High-sticking",
                             kind="double_minor", minutes=4, clears=4, spaces=0, short=True,
                             period=1, space=18, roll=0, rule="15")
    events = [_created(), PeriodStarted(period=1),
              PeriodLengthSet(period=1, length=20, roll=0, rule="12"), fight, double,
              _space(19, HOME, AWAY),
              PenaltyEnded(id=2, side="away", player="a2", reason="goal", clears_left=2,
                           roll=0, rule="15")]
    report = build_penalties(events)
    assert [(p.box, p.short, p.scheduled_end_period, p.scheduled_end)
            for p in report.penalties] == [(5, 0, 2, 3), (4, 4, None, None)]
    assert [(r.id, r.time_left, r.short_left) for r in report.running] == [(1, 4, 0), (2, 2, 2)]
    assert report.strength == {"home": "5v4", "away": "4v5"}  # a fight is 5 on 5 (18)


def test_stats_of_the_hand_built_games() -> None:
    st = build_stats(regulation_game()).to_json()
    skaters = {(s["team"], s["player"]): s for s in st["skaters"]}
    h1, h2, h3 = skaters[("H", "h1")], skaters[("H", "h2")], skaters[("H", "h3")]
    assert (h1["g"], h1["a"], h1["ppp"], h1["sog"], h1["fow"], h1["plus_minus"]) == \
        (1, 0, 1, 1, 1, 1)
    assert (h2["a"], h2["ppp"], h2["sog"], h3["g"], h3["a"], h3["sog"]) == (1, 1, 1, 1, 1, 1)
    assert skaters[("A", "a1")]["plus_minus"] == -1  # the EN goal only; the PP goal counts for nobody
    assert (skaters[("A", "a2")]["pim"], skaters[("H", "h4")]["pim"]) == (2, 2)
    assert all(s["shots_blocked"] == 0 for s in st["skaters"])
    goalies = {g["player"]: g for g in st["goalies"]}
    assert (goalies["hg"]["w"], goalies["hg"]["so"], goalies["hg"]["toi"]) == (1, 1, 4)
    ag = goalies["ag"]
    assert (ag["l"], ag["sa"], ag["sv"], ag["ga"], ag["toi"], ag["gaa"]) == (1, 2, 1, 1, 3, 20.0)
    teams = {t["team"]: t for t in st["teams"]}
    assert (teams["H"]["w"], teams["H"]["ppo"], teams["H"]["ppg"], teams["H"]["pko"]) == (1, 1, 1, 1)
    assert (teams["A"]["l"], teams["A"]["ga"], teams["A"]["ppga"]) == (1, 2, 1)

    so = build_stats(shootout_game()).to_json()
    skaters = {(s["team"], s["player"]): s for s in so["skaters"]}
    assert (skaters[("H", "h1")]["g"], skaters[("H", "h4")]["a"]) == (1, 1)  # no SO goal
    assert (skaters[("A", "a1")]["g"], skaters[("A", "a1")]["sog"]) == (1, 1)  # the penalty shot
    teams = {t["team"]: t for t in so["teams"]}
    assert (teams["H"]["w"], teams["H"]["gf"], teams["A"]["otl"], teams["A"]["gf"]) == (1, 2, 1, 1)


# --- seeded games -------------------------------------------------------------------------

TEAMS = ("ALD", "BRK", "CDV", "DRF", "ELM", "FRN", "GLN", "HTH")
SEEDS = 20


@pytest.fixture(scope="module")
def seeded(tmp_path_factory) -> tuple[Path, list[list]]:
    db = tmp_path_factory.mktemp("dice") / "dice.db"
    games = []
    with open_store(db) as store:
        for n in range(SEEDS):
            home, away = TEAMS[n % 8], TEAMS[(n + 1 + n // 8) % 8]
            result = simulate(store, home, away, seed=f"dice-{n}", ruleset="dicehockey")
            games.append(read_game(store, result.game_id))
    return db, games


def test_scoresheet_goals_equal_the_final_score(seeded) -> None:
    for events in seeded[1]:
        ended = events[-1]
        assert isinstance(ended, GameEnded)
        sheet = build_scoresheet(events)
        for side, line in (("home", sheet.home), ("away", sheet.away)):
            bonus = int(ended.decided == "SO" and ended.winner == side)
            listed = sum(1 for g in sheet.goals if g.team == line.team)
            assert listed == sum(line.goals_by_period) == getattr(ended, f"{side}_goals") - bonus
            assert sum(line.shots) >= listed
        for goalie in sheet.goalies:
            assert 0 <= goalie.goals_against <= goalie.shots_against


def test_toi_per_team_and_space_sums_the_skaters_on_the_ice(seeded) -> None:
    for events in seeded[1]:
        spaces = [e for e in events if isinstance(e, TimingSpaceCounted)]
        toi = build_toi(events)
        created = events[0]
        for side in ("home", "away"):
            team = getattr(created, side).team_id
            goalies = {r.id for r in getattr(created, side).roster if r.position == "G"}
            skaters = sum(p.toi for p in toi.players
                          if p.team == team and p.player not in goalies)
            on_ice = sum(len(unique(getattr(e, f"{side}_on_ice"))) for e in spaces)
            assert skaters == on_ice
            assert all(p.toi == p.toi_ev + p.toi_pp + p.toi_sh for p in toi.players)
            assert sum(p.toi for p in toi.players if p.player in goalies) <= len(spaces)


def test_rebuild_and_update_give_the_same_tables(seeded, tmp_path) -> None:
    db = tmp_path / "copy.db"
    shutil.copy(seeded[0], db)
    with open_store(db) as store:
        assert rm.update(store) > 0
        simulate(store, "ALD", "HTH", seed="late", ruleset="dicehockey")
        rm.update(store)  # only the new game is folded
        updated = rm.dump(store)
        rm.rebuild(store)
        assert rm.dump(store) == updated
        assert updated["rm_scoresheet_goals"] and updated["rm_toi_players"]


def _run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, _ = capsys.readouterr()
    return code, out


KEYS = {
    "scoresheet": {"game_id", "decided", "home", "away", "goals", "penalties", "goalies",
                   "shootout"},
    "toi": {"game_id", "players", "shifts"},
    "penalties": {"game_id", "at", "period", "sequence", "penalties", "box", "running",
                  "strength", "sequences"},
    "stats": {"games", "skaters", "goalies", "teams"},
}


@pytest.mark.parametrize("command", sorted(KEYS))
def test_cli_json_on_a_dice_hockey_game(capsys, seeded, command: str) -> None:
    db, games = seeded
    game = games[0][0].game_id
    code, out = _run(capsys, command, game, "--db", str(db), "--json")
    assert code == 0
    doc = json.loads(out)
    assert set(doc) == KEYS[command]
    code, text = _run(capsys, command, game, "--db", str(db))
    assert code == 0 and game in text or command == "stats"


def test_cli_leaders_free_commands_and_projections(capsys, seeded, tmp_path) -> None:
    db = tmp_path / "copy.db"
    shutil.copy(seeded[0], db)
    assert _run(capsys, "projections", "rebuild", "--db", str(db))[0] == 0
    assert _run(capsys, "projections", "update", "--db", str(db))[0] == 0
    code, out = _run(capsys, "stats", "--all", "--db", str(db), "--json")
    assert code == 0 and len(json.loads(out)["games"]) == SEEDS


def test_scoresheet_snapshot(capsys, seeded, snapshot) -> None:
    db, games = seeded
    code, out = _run(capsys, "scoresheet", games[1][0].game_id, "--db", str(db), "--json")
    assert code == 0
    assert json.loads(out) == snapshot.use_extension(JSONSnapshotExtension)


# --- one GAA for the pages and `leaders` (issue 24, item 6) ---------------------------------

DICE_SEASON = "dicedemo-7"


@pytest.fixture(scope="module")
def dice_season(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("diceseason") / "season.db"
    assert main(["season", "--league", "dicedemo", "--seed", "7", "--games", "24",
                 "--workers", "1", "--db", str(db)]) == 0
    return db


def _page_board(index: str, title: str) -> list[tuple[str, str, str]]:
    """(name, team, figure) of a leaders board of a season's index page."""
    table = re.search(rf'<th colspan="4" class="text">{re.escape(title)}</th>.*?</table>',
                      index, re.S)
    assert table, title
    rows = re.findall(r'<tr><td>\d+</td><td class="text">(.*?)</td>'
                      r'<td class="text">(.*?)</td><td>(.*?)</td></tr>', table.group(0))
    # a name links to the player's page: its text is the name
    return [(re.sub(r"<[^>]+>", "", name), team, figure) for name, team, figure in rows]


def test_leaders_show_the_goalies_figures_of_the_season_pages(capsys, dice_season) -> None:
    """`leaders` printed DICE Hockey GAAs of 116-157 (goals per 3,600 timing spaces) where
    the season's pages showed 2.3-2.8 (per regulation game): text, JSON and CSV now show
    the page's figure for every goalie on the boards."""
    import html

    from replay.reports.season_site import TOP, season_files

    db = str(dice_season)
    with open_store(db, create=False) as store:
        index = html.unescape(season_files(store, DICE_SEASON)["index.html"])
    page_gaa = _page_board(index, "Goals-against average")
    page_sv = _page_board(index, "Save percentage")
    assert len(page_gaa) == TOP
    # goals against per regulation game, the NHL's scale (not per 3,600 timing spaces)
    assert all(0 < float(gaa) < 10 for _, _, gaa in page_gaa), page_gaa

    code, out = _run(capsys, "leaders", "--db", db, "--top", str(TOP), "--json")
    assert code == 0
    boards = json.loads(out)
    assert [(g["name"], g["team"], f"{g['value']:.2f}") for g in boards["GAA"]] == page_gaa
    assert [(g["name"], g["team"], f"{g['value']:.3f}".lstrip("0"))
            for g in boards["SV%"]] == page_sv
    assert all(g["gaa"] == g["value"] for g in boards["GAA"])

    code, out = _run(capsys, "leaders", "--db", db, "--top", str(TOP), "--csv")
    assert code == 0
    import csv
    import io
    rows = [r for r in csv.DictReader(io.StringIO(out)) if r["board"] == "GAA"]
    assert [(r["name"], r["team"], f"{float(r['value']):.2f}") for r in rows] == page_gaa

    code, out = _run(capsys, "leaders", "--db", db, "--top", str(TOP))
    assert code == 0
    text = out.split("GAA\n", 1)[1].splitlines()[:len(page_gaa)]
    assert [(line[6:30].strip(), line[31:36].strip(), line.split()[-1]) for line in text] \
        == page_gaa


def test_a_goalie_table_stored_without_games_in_net_is_folded_again(seeded, tmp_path) -> None:
    """A database whose rm_goalie_stats an older rinklog stored (no ``games_in_net``, nor
    the ``g``, ``a``, ``p``, ``pim`` issue 34 added later): the audit's comparison holds it
    to the columns it has (this game's goalies have no scoring of their own, so its rows
    are that rinklog's too), and a command that writes folds the stats again into this
    layout (so `leaders` reads every game's GAA)."""
    db = tmp_path / "old.db"
    shutil.copy(seeded[0], db)
    rm.update(db)
    with open_store(db) as store:
        conn = store.connection
        for column in ("games_in_net", "g", "a", "p", "pim"):
            conn.execute(f"ALTER TABLE rm_goalie_stats DROP COLUMN {column}")
        game = seeded[1][0][0].game_id
        assert rm.stored_differences(store, game, seeded[1][0]) == []
        rm.update(store, projections=("stats",))
        stored = conn.execute("SELECT COUNT(*), COUNT(games_in_net) FROM rm_goalie_stats"
                              ).fetchone()
    assert stored[0] >= 2 * SEEDS and stored[1] == stored[0]
