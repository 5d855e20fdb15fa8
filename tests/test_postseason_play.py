"""Playing the postseason (issue 22): ``rinklog playoffs`` on a stored season.

One short DICE Hockey season (the dicedemo league's eight teams, 6 games each, rule 9's
``format = "draft"``) is played once for the module, its database copied before its
playoffs; the playoffs are then played with one worker straight through, and with two
workers stopped after a few games and run again: both must give the same streams. The
expected bracket is worked from rule 9's text ("The first six teams make the playoffs.
1st and 2nd place teams get a bye in the first round. 3 vs 6, 4 vs 5. 1st place team will
play the lowest seeded survivor. 2nd place team will play the other. Winners will meet in
the final. All series are 4 out of 7.") over the final standings.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import msgspec
import pytest

from engine.league.playoffs import fold
from events.common import GameCreated, GameEnded
from events.errors import CardError, RinklogError
from events.postseason import SeriesGameRecorded
from replay.cli.app import main
from replay.games.game_setup import league_setup
from replay.games.game_streams import open_store
from replay.leagues.audit import audit_all
from replay.leagues.league import bundled_leagues, load_league
from replay.leagues.playoff_setup import playoff_options
from replay.leagues.playoffs import play_postseason, postseason_events
from replay.leagues.runner import run_season
from replay.leagues.schedule import make_schedule
from replay.leagues.stored_seasons import load_season, standings
from tests.forge import replace_stream

DICEDEMO = Path(__file__).resolve().parents[1] / "fixtures/dicehockey/leagues/dicedemo"
SEED = "pp"
SEASON = f"short-{SEED}"


def _short_league(where: Path, games: int = 6, playoffs: str | None = None) -> Path:
    """dicedemo's teams and layout, ``games`` a team (its [playoffs], or ``playoffs``)."""
    folder = where / "short"
    shutil.copytree(DICEDEMO, folder)
    toml = folder / "league.toml"
    text = toml.read_text().replace("games = 82", f"games = {games}")
    text = text.replace('name = "dicedemo"', 'name = "short"')
    if playoffs is not None:
        text = text.split("[playoffs]")[0] + playoffs
    toml.write_text(text)
    return folder


def _play_season(folder: Path, db: Path, games: int | None = None) -> None:
    loaded = load_league(folder)
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(loaded, SEED)]
    with open_store(db) as store:
        run_season(store, league_setup(loaded), league=loaded.name, schedule=fixtures,
                   seed=SEED, workers=1, divisions=loaded.divisions, games=games,
                   audit=False)  # audit_all checks the stored games below


def _heads(db: Path) -> dict[str, str]:
    with open_store(db) as store:
        return {s: store.head_hash(s) for s in store.stream_ids()}


class _Stop(Exception):
    pass


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    where = tmp_path_factory.mktemp("postseason")
    folder = _short_league(where)
    regular = where / "regular.db"
    _play_season(folder, regular)
    one, two = where / "one.db", where / "two.db"
    shutil.copy(regular, one)
    shutil.copy(regular, two)
    fmt = load_league(folder).playoffs
    with open_store(one) as store:  # each game audited before it is stored
        play_postseason(store, SEASON, fmt, workers=1)

    def stop_after_five(stored: int) -> None:
        if stored == 5:
            raise _Stop

    with open_store(two) as store, pytest.raises(_Stop):
        play_postseason(store, SEASON, fmt, workers=2, progress=stop_after_five,
                        audit=False)
    with open_store(two) as store:
        stopped = len(load_season(store, SEASON, playoffs=True).game_ids)
        play_postseason(store, SEASON, fmt, workers=2, audit=False)
    return {"folder": folder, "regular": regular, "one": one, "two": two,
            "stopped": Path(str(stopped))}


# --- the league format ----------------------------------------------------------------

def test_bundled_leagues_load_with_their_playoff_formats() -> None:
    for name in bundled_leagues():
        load_league(name)
    demo, dicedemo = load_league("demo").playoffs, load_league("dicedemo").playoffs
    assert (demo.per_conference, demo.reseed, demo.series) == (8, False, [7, 7, 7, 7])
    assert (dicedemo.format, dicedemo.teams, dicedemo.byes) == ("draft", 6, 2)


def test_a_bad_playoffs_table_is_one_line_naming_league_toml_and_the_field(
        tmp_path: Path) -> None:
    folder = _short_league(tmp_path, playoffs="[playoffs]\nteams = 6\n")
    with pytest.raises(CardError) as err:
        load_league(folder)
    line = str(err.value)
    assert "\n" not in line and "league.toml" in line and "field 'byes'" in line


def test_a_league_without_playoffs_has_no_postseason(tmp_path: Path, capsys) -> None:
    folder = _short_league(tmp_path, games=1, playoffs="")
    assert load_league(folder).playoffs is None
    db = tmp_path / "s.db"
    _play_season(folder, db)
    code = main(["playoffs", SEASON, "--league", str(folder), "--db", str(db)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1 and "no [playoffs]" in err[0]


def test_playoffs_refused_until_the_regular_season_is_over(tmp_path: Path, capsys) -> None:
    folder = _short_league(tmp_path)
    db = tmp_path / "s.db"
    _play_season(folder, db, games=2)
    code = main(["playoffs", SEASON, "--league", str(folder), "--db", str(db)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1 and "regular season is not over" in err[0]
    with open_store(db) as store:
        assert postseason_events(store, SEASON) == []


def test_hockey_bones_needs_the_playoff_option_by_name() -> None:
    """On this branch the Hockey Bones rulesets have no ``playoff`` option yet (R-post-OT,
    another branch): its postseason is refused in one line rather than played with
    shootouts or ties."""
    setup = league_setup(load_league("demo"))
    if "playoff" in setup.rules.option_names:  # the Bones playoff option has landed
        assert playoff_options(setup.options, setup.rules, setup.kit) != setup.options
        return
    with pytest.raises(RinklogError, match="no 'playoff' game option"):
        playoff_options(setup.options, setup.rules, setup.kit)


# Rule 27's table, "Pro Games / Playoff Games (one series)": 10-14 1, 15-24 2, 25-34 3,
# 35-44 4, 45-54 5, 55-64 6, 65 and more 7.
RULE_27 = [(65, 7), (55, 6), (45, 5), (35, 4), (25, 3), (15, 2), (10, 1)]


def test_rule_27_a_starter_at_his_series_limit_gives_way() -> None:
    """Hockey Bones cards carry pro games: the default coach starts the first goalie until
    his series limit, then the next who may (R-post-27c)."""
    from replay.leagues.playoff_setup import playoff_pick, playoff_starter
    from replay.systems import kit_for

    loaded = load_league("demo")
    kit = kit_for(loaded.league.ruleset)
    team = next(t for t in loaded.teams.values()
                if len(kit.goalie_shares(t)) > 1 and kit.goalie_shares(t)[1][1] >= 10)
    (first, games), (second, _) = kit.goalie_shares(team)[:2]
    limit = next((n for low, n in RULE_27 if games >= low), 0)
    assert playoff_starter(kit, team, {}) == (first if limit else second)
    assert playoff_starter(kit, team, {first: limit}) == second
    # every goalie at his limit: the highest limit's starts, an overplay (R-post-27c)
    shares = kit.goalie_shares(team)
    limits = {g: next((n for low, n in RULE_27 if games >= low), 0) for g, games in shares}
    pick = playoff_pick(kit, team, limits)
    assert pick.overplay and limits[pick.goalie] == max(limits.values())


# --- the bracket (rule 9) ---------------------------------------------------------------

def test_rule_9_the_draft_bracket_from_the_final_standings(played) -> None:
    with open_store(played["one"]) as store:
        order = [r.team for r in standings(store, load_season(store, SEASON))]
        bracket = fold(postseason_events(store, SEASON))
    first, second, third, fourth, fifth, sixth = order[:6]
    r1, r2, r3 = bracket.rounds
    assert set(r1.byes) == {first, second}
    assert [(s.high, s.low) for s in r1.series] == [(third, sixth), (fourth, fifth)]
    survivors = sorted((s.winner for s in r1.series), key=order.index)
    assert {(s.high, s.low) for s in r2.series} == {(first, survivors[-1]),
                                                    (second, survivors[0])}
    finalists = {s.winner for s in r2.series}
    assert len(r3.series) == 1 and {r3.series[0].high, r3.series[0].low} == finalists
    assert bracket.champion == r3.series[0].winner
    for series in (*r1.series, *r2.series, *r3.series):
        assert series.length == 7  # "All series are 4 out of 7"
        assert series.wins(series.winner) == 4
        loser = series.low if series.winner == series.high else series.high
        assert series.wins(loser) < 4 and len(series.games) == 4 + series.wins(loser)
        for game in series.games:  # 2-2-1-1-1: games 1, 2, 5 and 7 at the high seed's
            assert game.home == (series.high if game.game in (1, 2, 5, 7) else series.low)


def test_every_series_game_is_its_own_stream_with_the_playoff_option(played) -> None:
    teams = load_league(played["folder"]).teams
    with open_store(played["one"]) as store:
        records = [e for e in postseason_events(store, SEASON)
                   if isinstance(e, SeriesGameRecorded)]
        for record in records:
            assert record.game_id == f"{SEASON}-p{record.round}-{record.slot}-{record.game}"
            rows = store.read(record.game_id)
            created, ended = rows[0].event, rows[-1].event
            assert isinstance(created, GameCreated) and isinstance(ended, GameEnded)
            assert created.options == ["playoff"] and created.season == SEASON
            assert created.seed == f"{SEED}/p{record.round}-{record.slot}-{record.game}"
            assert (created.home.team_id, created.away.team_id) == (record.home, record.away)
            assert ended.decided != "SO" and ended.winner != "none"
            won = created.home.team_id if ended.winner == "home" else created.away.team_id
            assert won == record.winner
            # R-post-27d: DICE Hockey cards carry no pro games, so no rule-27 limit: each
            # team's first goalie (its lines' starter) starts every playoff game
            for sheet, goalie in ((created.home, created.home_goalie),
                                  (created.away, created.away_goalie)):
                team = teams[sheet.team_id]
                assert goalie == next(g.id for g in team.goalies
                                      if g.id in team.lines.goalies)


# --- determinism, resume -------------------------------------------------------------------

def test_any_workers_and_a_stop_give_the_same_postseason(played) -> None:
    assert 0 < int(played["stopped"].name) < 20  # the two-worker run stopped part way
    one, two = _heads(played["one"]), _heads(played["two"])
    assert any("-p1-" in s for s in one)
    assert one == two


def test_a_finished_postseason_is_not_played_twice(played, tmp_path: Path, capsys) -> None:
    db = tmp_path / "again.db"
    shutil.copy(played["one"], db)
    code = main(["playoffs", SEASON, "--league", str(played["folder"]), "--db", str(db),
                 "--json"])
    run = msgspec.json.decode(capsys.readouterr().out)
    with open_store(db) as store:
        champion = fold(postseason_events(store, SEASON)).champion
    assert code == 0 and run["played"] == 0 and run["champion"] == champion
    assert _heads(db) == _heads(played["one"])


# --- the regular season stays regular -----------------------------------------------------

def test_playoff_games_count_in_no_regular_standings_or_leaders(played, capsys) -> None:
    with open_store(played["one"]) as store:
        season = load_season(store, SEASON)
        assert season.game_ids and not any("-p" in g[len(SEASON):] for g in season.game_ids)
        table = standings(store, season)
        assert {r.gp for r in table} == {6}
        stored = store.connection.execute(
            "SELECT DISTINCT gp FROM rm_standings WHERE season = ?", (SEASON,)).fetchall()
        assert stored == [(6,)]
        playoff_ids = load_season(store, SEASON, playoffs=True).game_ids
        assert playoff_ids and all("-p" in g for g in playoff_ids)
    code = main(["leaders", "--season", SEASON, "--playoffs", "--json", "--db",
                 str(played["one"])])
    boards = msgspec.json.decode(capsys.readouterr().out)
    code2 = main(["leaders", "--season", SEASON, "--json", "--db", str(played["one"])])
    regular = msgspec.json.decode(capsys.readouterr().out)
    assert code == code2 == 0 and boards != regular
    assert max(row["gp"] for row in regular["P"]) <= 6
    # the postseason's boards hold the playoff teams' players only (7th and 8th play none)
    playoff_teams = set([r.team for r in table][:6])
    assert boards["P"] and {row["team"] for b in boards.values() for row in b} <= playoff_teams


# --- the audit ------------------------------------------------------------------------------

def test_audit_all_is_clean(played) -> None:
    with open_store(played["one"]) as store:
        reports = audit_all(store)
    assert [r.game_id for r in reports if not r.ok] == []
    assert any("-p3-" in r.game_id for r in reports)


def test_audit_catches_a_forged_series_result(played, tmp_path: Path) -> None:
    db = tmp_path / "forged.db"
    shutil.copy(played["one"], db)
    with open_store(db) as store:
        events = [r.event for r in store.read(SEASON)]
    at = next(i for i, e in enumerate(events) if isinstance(e, SeriesGameRecorded))
    record = events[at]
    loser = record.away if record.winner == record.home else record.home
    events[at] = msgspec.structs.replace(record, winner=loser)
    replace_stream(db, SEASON, events, kind="season", system="league")
    with open_store(db) as store:
        failed = [r for r in audit_all(store) if not r.ok]
    assert [(r.game_id, r.failure.check, r.failure.seq) for r in failed] == [
        (SEASON, "postseason", at + 1)]


def test_a_playoff_game_whose_index_runs_past_its_rows_is_reported(
        played, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 33: "a playoff game whose streams.version is past its rows makes audit --all
    and audit SEASON crash (IndexError in the playoff audit) instead of reporting it"; the
    streams table is an index, never evidence (docs/trust.md)."""
    import sqlite3

    db = tmp_path / "index.db"
    shutil.copy(played["one"], db)
    game = f"{SEASON}-p1-1-1"
    raw = sqlite3.connect(db)
    assert raw.execute("UPDATE streams SET version = version + 5 WHERE stream = ?",
                       (game,)).rowcount == 1
    raw.commit()
    raw.close()
    for argv in (["audit", "--all"], ["audit", SEASON]):
        capsys.readouterr()
        assert main([*argv, "--db", str(db)]) == 1
        out = capsys.readouterr().out
        assert f"{SEASON}: FAIL" in out and game in out, out


def test_a_playoff_game_stored_without_its_series_record_stops_the_run(
        played, tmp_path: Path) -> None:
    db = tmp_path / "stray.db"
    shutil.copy(played["regular"], db)
    fmt = load_league(played["folder"]).playoffs

    def stop_after_one(stored: int) -> None:
        raise _Stop

    with open_store(db) as store, pytest.raises(_Stop):
        play_postseason(store, SEASON, fmt, audit=False, progress=stop_after_one)
    stray = f"{SEASON}-p1-2-1"  # the wave's second game, written behind the run's back
    with open_store(played["one"]) as store:
        events = [r.event for r in store.read(stray)]
    replace_stream(db, stray, events, system="dicehockey")
    with open_store(db) as store, pytest.raises(RinklogError, match="has no record of it"):
        play_postseason(store, SEASON, fmt, audit=False)


BONES_MINI = """name = "bmini"
games = 2

[[conferences]]
name = "North"

[[conferences.divisions]]
name = "Pines"
teams = ["ALD", "BRK", "CDV", "DRF"]

[playoffs]
teams = 4
series = [3, 3]
"""


def test_hockey_bones_league_plays_its_playoffs_by_the_option_and_rule_27(
        tmp_path: Path) -> None:
    """Four Hockey Bones demo teams, 2 games each, the top 4 in best-of-3 series: every
    playoff game records the ``playoff`` option (R-post-OT: overtime to a winner, no
    shootout, no tie), no goalie starts more games of a series than rule 27 gives his pro
    games, and the audit is clean."""
    demo = Path(__file__).resolve().parents[1] / "fixtures/bones/leagues/demo"
    folder = tmp_path / "bmini"
    (folder / "teams").mkdir(parents=True)
    for team in ("ald", "brk", "cdv", "drf"):
        shutil.copy(demo / "teams" / f"{team}.toml", folder / "teams")
    (folder / "league.toml").write_text(BONES_MINI)
    loaded = load_league(folder)
    if "playoff" not in league_setup(loaded).rules.option_names:
        pytest.skip("the Hockey Bones 'playoff' option is not on this branch")
    db = tmp_path / "b.db"
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(loaded, "1")]
    from replay.systems import kit_for

    kit = kit_for(loaded.league.ruleset)
    pro = {g: n for team in loaded.teams.values() for g, n in kit.goalie_shares(team)}
    with open_store(db) as store:
        run_season(store, league_setup(loaded), league="bmini", schedule=fixtures, seed="1",
                   workers=1, divisions=loaded.divisions, audit=False)
        run = play_postseason(store, "bmini-1", loaded.playoffs, workers=1)
        assert run.champion is not None
        bracket = fold(postseason_events(store, "bmini-1"))
        for rnd in bracket.rounds:
            for series in rnd.series:
                starts: dict[str, int] = {}
                for game in series.games:
                    rows = store.read(game.game_id)
                    created, ended = rows[0].event, rows[-1].event
                    assert "playoff" in created.options
                    assert ended.decided in ("REG", "OT") and ended.winner != "none"
                    for goalie in (created.home_goalie, created.away_goalie):
                        starts[goalie] = starts.get(goalie, 0) + 1
                for goalie, n in starts.items():
                    assert n <= next((g for low, g in RULE_27 if pro[goalie] >= low), 0)
        assert [r.game_id for r in audit_all(store) if not r.ok] == []
