"""Seasons: the same seed gives the same season with any number of workers, and a season
stopped part-way resumes to the same database as an uninterrupted run."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from events.common import GameEnded
from events.errors import RinklogError
from replay.games.game_setup import league_setup
from replay.games.game_streams import open_store, read_game
from replay.leagues.league import load_league
from replay.leagues.runner import run_season
from replay.leagues.schedule import make_schedule
from replay.leagues.stored_seasons import load_season, standings

GAMES = 24


@pytest.fixture(scope="module")
def league():
    return load_league("demo")


def play(path, league, workers=1, progress=None):
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(league, "t", GAMES)]
    with open_store(path) as store:
        return run_season(store, league_setup(league), league=league.name, schedule=fixtures,
                          seed="t", workers=workers, progress=progress)


@pytest.fixture(scope="module")
def played_once(tmp_path_factory, league):
    """The 24-game season ``play`` stores in one process, played once for the module: the
    database (checkpointed, so a copy of the file is the whole of it) and the run's result.
    Tests take a copy (``straight``), never this file."""
    path = tmp_path_factory.mktemp("season") / "straight.db"
    run = play(path, league, workers=1)
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.close()
    return path, run


@pytest.fixture
def straight(played_once, tmp_path) -> Path:
    """A copy of the module's 24-game season (``play(path, league)``), the test's to write."""
    path = tmp_path / "straight-copy.db"
    shutil.copyfile(played_once[0], path)
    return path


def heads(path) -> dict[str, str]:
    with open_store(path) as store:
        return {info.stream: info.head_hash for info in store.streams()}


def test_workers_do_not_change_the_season(tmp_path, league, straight):
    play(tmp_path / "two.db", league, workers=2)
    assert heads(straight) == heads(tmp_path / "two.db")
    assert len(heads(straight)) == GAMES + 1  # the games and the season stream


def test_a_stopped_season_resumes_to_the_same_database(tmp_path, league, straight):
    def stop_after_ten(done: int, total: int) -> None:
        if done == 10:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        play(tmp_path / "stopped.db", league, workers=2, progress=stop_after_ten)
    partial = heads(tmp_path / "stopped.db")
    assert len(partial) == 10 + 1
    with open_store(tmp_path / "stopped.db") as store:
        for game_id in partial:
            if game_id != "demo-t":
                assert isinstance(read_game(store, game_id)[-1], GameEnded)  # no half game
    run = play(tmp_path / "stopped.db", league, workers=2)
    assert (run.played, run.skipped) == (GAMES - 10, 10)
    assert heads(tmp_path / "stopped.db") == heads(straight)


def test_standings_count_every_game_twice(straight):
    with open_store(straight) as store:
        table = standings(store, load_season(store))
    assert sum(r.gp for r in table) == 2 * GAMES
    assert sum(r.w for r in table) == GAMES
    assert sum(r.points for r in table) == 2 * GAMES + sum(r.otl for r in table)


def test_goalies_start_about_as_often_as_their_cards_allow(league):
    from replay.leagues.runner import goalie_starts

    fixtures = [(f.number, f.home, f.away) for f in make_schedule(league, "t")]
    starts = goalie_starts(league.teams, fixtures)
    for team_id, team in league.teams.items():
        counts: dict[str, int] = {}
        for number, home, away in fixtures:
            if team_id in (home, away):
                goalie = starts[number][0 if home == team_id else 1]
                counts[goalie] = counts.get(goalie, 0) + 1
        total = sum(g.games for g in team.goalies)
        for g in team.goalies:
            expected = league.league.games * g.games / total
            assert abs(counts.get(g.id, 0) - expected) <= 1, (team_id, g.id)


def test_a_season_game_records_its_starting_goalies(league, straight):
    with open_store(straight) as store:
        created = read_game(store, "demo-t-0001")[0]
    assert created.home_goalie in {g.id for g in league.teams[created.home.team_id].goalies}
    assert created.away_goalie in {g.id for g in league.teams[created.away.team_id].goalies}


def test_two_hundred_league_games_play_to_the_end(tmp_path, league):
    """A broad net for rare paths (both goalies out, stacked penalties...): every game of a
    200-game slice of a season ends with GameEnded."""
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(league, "wide", 200)]
    with open_store(tmp_path / "wide.db") as store:
        run = run_season(store, league_setup(league), league=league.name, schedule=fixtures,
                         seed="wide", workers=2)
        assert run.played == 200
        ended = sum(1 for info in store.streams(kind="game")
                    if store.read(info.stream, info.version, info.version)[0].type == "GameEnded")
    assert ended == 200


@pytest.mark.parametrize("name", ["demo", "dicedemo"])
def test_a_killed_season_resumes_to_the_same_database(tmp_path, name):
    """SIGKILL mid-season (no clean-up at all), then the same command again: for the Hockey
    Bones demo league and the DICE Hockey one alike. The season is 24 games (72 until
    issue 24's 4-minute suite): the kill lands after game 5 either way, and a resumed DICE
    Hockey season's carried absences have their own test
    (tests/dicehockey/test_season_games_missed.py)."""

    league = load_league(name)
    import signal
    import subprocess
    import sys
    import time

    db = tmp_path / "killed.db"
    argv = [sys.executable, "-m", "replay.cli", "season", "--league", name, "--seed", "t",
            "--games", str(GAMES), "--workers", "1", "--db", str(db), "--json"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if db.exists() and proc.poll() is None:
                with open_store(db) as store:
                    if len(store.streams(kind="game")) >= 5:
                        break
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    stopped = heads(db)
    assert 5 <= len(stopped) - 1 < GAMES
    with open_store(db) as store:
        for info in store.streams(kind="game"):
            assert store.read(info.stream, info.version, info.version)[0].type == "GameEnded"
    assert subprocess.run(argv, capture_output=True, check=False).returncode == 0
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(league, "t")]
    with open_store(tmp_path / "whole.db") as store:
        run_season(store, league_setup(league), league=league.name, schedule=fixtures,
                   seed="t", divisions=league.divisions, games=GAMES,
                   league_file=league.path.read_bytes())  # as `rinklog season` does
    assert heads(db) == heads(tmp_path / "whole.db")


def test_standings_by_division_rank_within_each_division(tmp_path, league, capsys):
    import json

    from replay.cli.app import main
    from replay.leagues.stored_seasons import division_standings

    db = tmp_path / "d.db"
    assert main(["season", "--league", "demo", "--seed", "t", "--games", str(GAMES),
                 "--workers", "1", "--db", str(db), "--json"]) == 0
    with open_store(db) as store:
        season = load_season(store)
        whole = standings(store, season)
        groups = division_standings(store, season, "division")
    assert len(groups) == 4
    assert sorted(r.team for _, table in groups for r in table) == sorted(r.team for r in whole)
    layout = {d.name: set(d.teams) for c in league.league.conferences for d in c.divisions}
    for title, table in groups:
        assert {r.team for r in table} <= layout[title]
        assert [r.points for r in table] == sorted((r.points for r in table), reverse=True)
    capsys.readouterr()
    assert main(["standings", "--db", str(db), "--by", "conference", "--json"]) == 0
    conferences = json.loads(capsys.readouterr().out)
    assert [g["group"] for g in conferences] == [c.name for c in league.league.conferences]
    assert main(["standings", "--db", str(db), "--by", "team"]) == 1


def _grow(path, league, *cuts):
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(league, "g")]
    with open_store(path) as store:
        return [run_season(store, league_setup(league), league=league.name,
                           schedule=fixtures, seed="g", games=cut) for cut in cuts]


def test_a_season_grows_through_the_same_schedule(tmp_path, league):
    first, more = _grow(tmp_path / "grown.db", league, 4, 10)
    assert (first.played, more.played, more.skipped, more.games) == (4, 6, 4, 10)
    _grow(tmp_path / "straight.db", league, 10)
    assert heads(tmp_path / "grown.db") == heads(tmp_path / "straight.db")


def test_a_season_of_fewer_than_no_games_is_refused_and_writes_nothing(tmp_path):
    from replay.cli.app import main

    db = tmp_path / "none.db"
    assert main(["season", "--games", "-3", "--db", str(db)]) == 1
    assert not db.exists()


def test_a_season_of_no_games_is_opened_and_plays_none(tmp_path):
    """``--games 0`` opens the season (its opening, its league file) for a league whose
    coaches play its games at the table (docs/web.md)."""
    from events.catalogue import open_store
    from replay.cli.app import main

    db = tmp_path / "opened.db"
    assert main(["season", "--games", "0", "--seed", "5", "--db", str(db)]) == 0
    with open_store(db, create=False) as store:
        assert [s.stream for s in store.streams(kind="season")] == ["demo-5"]
        assert store.streams(kind="game") == [] and store.version("demo-5") == 2


def test_a_season_keeps_every_read_model_current(played_once, straight):
    """A season stores every read model of each game as it stores the game, and the
    standings at its end: nothing is left to catch up, and the rows equal a rebuild."""
    from projections import store as read_models
    from replay.leagues.audit import audit_all

    run = played_once[1]
    assert run.read_models == read_models.PROJECTIONS and run.audited == GAMES
    with open_store(straight) as store:
        live = read_models.dump(store)
        assert read_models.update(store) == 0  # nothing to catch up
        assert all(report.ok for report in audit_all(store))  # read models checked too
        read_models.rebuild(store)
        rebuilt = read_models.dump(store)
    assert live["rm_standings"] and live["rm_toi_player_shifts"] and live["rm_penalties"]
    assert live == rebuilt


@pytest.mark.parametrize("workers", [1, 2])
def test_a_game_that_fails_its_audit_is_not_stored(tmp_path, league, monkeypatch, workers):
    """Each game is audited on the rows the writer will store, in the worker that played
    it: a game whose rows do not check out (here game 3's last chain hash is wrong) stops
    the run in one line before it is written; the games before it stay, and a sound
    run plays on from there."""
    from events.errors import RinklogError
    from replay.leagues import handover  # where a worker chains the game it hands over

    real = handover.chain_hashes

    def wrong_for_game_three(payloads, *args):
        hashes = real(payloads, *args)
        if len(hashes) == LENGTH_OF_GAME_THREE:
            hashes[-1] = bytes(32)
        return hashes

    with open_store(tmp_path / "probe.db") as store:  # game 3's length, from a sound run
        fixtures = [(f.number, f.home, f.away) for f in make_schedule(league, "t", GAMES)]
        run_season(store, league_setup(league), league=league.name, schedule=fixtures,
                   games=3, seed="t", audit=False, projections=())
        LENGTH_OF_GAME_THREE = store.version("demo-t-0003")
        assert store.version("demo-t-0001") != LENGTH_OF_GAME_THREE
        assert store.version("demo-t-0002") != LENGTH_OF_GAME_THREE

    monkeypatch.setattr(handover, "chain_hashes", wrong_for_game_three)
    with pytest.raises(RinklogError, match=r"demo-t-0003 fails its audit as played "
                                           r"\(chain check at event \d+"):
        play(tmp_path / "caught.db", league, workers=workers)
    assert sorted(heads(tmp_path / "caught.db")) == ["demo-t", "demo-t-0001", "demo-t-0002"]
    monkeypatch.undo()
    assert play(tmp_path / "caught.db", league, workers=workers).skipped == 2
    caught, probe = heads(tmp_path / "caught.db"), heads(tmp_path / "probe.db")
    assert len(caught) == GAMES + 1
    # every game as the sound run stored it (the season stream records more games here)
    assert all(caught[game_id] == head for game_id, head in probe.items() if game_id != "demo-t")


def test_a_game_and_its_read_models_are_stored_together(tmp_path, league, monkeypatch):
    """The writer stores a game, the season's record of it and its read models in one
    transaction: when its read models cannot be written (here game 3's), the game is not
    stored either, and a run after it plays it again (issue 25: one commit a game)."""
    from replay.leagues import runner as season

    real = season.read_models.save

    def failing_for_game_three(store, game_id, *args):
        real(store, game_id, *args)  # its rows written, then the write fails
        if game_id == "demo-t-0003":
            raise sqlite3.OperationalError("disk I/O error")

    fixtures = [(f.number, f.home, f.away) for f in make_schedule(league, "t", 3)]
    path = tmp_path / "atomic.db"
    monkeypatch.setattr(season.read_models, "save", failing_for_game_three)
    with open_store(path) as store, pytest.raises(sqlite3.OperationalError):
        run_season(store, league_setup(league), league=league.name, schedule=fixtures,
                   seed="t", audit=False)
    assert sorted(heads(path)) == ["demo-t", "demo-t-0001", "demo-t-0002"]
    with open_store(path) as store:
        marked = {row[0] for row in store.connection.execute(
            "SELECT DISTINCT stream FROM rm_checkpoints")}
        assert marked == {"demo-t-0001", "demo-t-0002"}
        assert store.version("demo-t") == 2 + 2  # its opening and the records of 1 and 2
    monkeypatch.undo()
    with open_store(path) as store:
        run = run_season(store, league_setup(league), league=league.name,
                         schedule=fixtures, seed="t", audit=False)
    assert (run.skipped, run.played) == (2, 1)


def test_no_audit_stores_the_same_games(tmp_path, league):
    """--no-audit changes only the time a season takes, never what it stores."""
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(league, "t", 6)]
    for name, audit in (("audited.db", True), ("unaudited.db", False)):
        with open_store(tmp_path / name) as store:
            run = run_season(store, league_setup(league), league=league.name,
                             schedule=fixtures, seed="t", audit=audit)
            assert run.audited == (6 if audit else 0)
    assert heads(tmp_path / "audited.db") == heads(tmp_path / "unaudited.db")


def test_a_season_recorded_with_a_cut_schedule_says_why_it_cannot_grow(tmp_path, league):
    from events.errors import RinklogError

    fixtures = [(f.number, f.home, f.away) for f in make_schedule(league, "g")]
    with open_store(tmp_path / "old.db") as store:
        setup = dict(setup=league_setup(league), league=league.name, seed="g")
        run_season(store, schedule=fixtures[:2], **setup)  # as rinklog 0.1 recorded --games 2
        with pytest.raises(RinklogError, match="only its first 2 games scheduled"):
            run_season(store, schedule=fixtures, games=4, **setup)


def test_a_worker_that_dies_stops_the_season_in_one_line(tmp_path, league, monkeypatch):
    """Every wait of the season's workers has a bound: a worker that dies mid-game (here,
    game 5 exits the process) ends the run with one line, keeps whole games stored in
    schedule order (those the dead worker had not handed back are played again by the next
    run), and leaves no worker behind."""
    import multiprocessing
    import os

    from events.errors import RinklogError
    from replay.leagues import runner as season

    real = season._play

    def dies_at_five(fixture):
        if fixture[0] == 5:
            os._exit(3)
        return real(fixture)

    monkeypatch.setattr(season, "_play", dies_at_five)  # the forked workers inherit it
    with pytest.raises(RinklogError, match="a worker stopped .exit code 3."):
        play(tmp_path / "died.db", league, workers=2)
    stored = sorted(g for g in heads(tmp_path / "died.db") if g != "demo-t")
    assert 1 <= len(stored) <= 4
    assert stored == [f"demo-t-{n:04d}" for n in range(1, len(stored) + 1)]
    assert not multiprocessing.active_children()


def test_a_game_that_fails_in_a_worker_is_named(tmp_path, league, monkeypatch):
    from events.errors import RinklogError
    from replay.leagues import runner as season

    real = season._play

    def fails_at_three(fixture):
        if fixture[0] == 3:
            raise ValueError("a card the rules cannot read")
        return real(fixture)

    monkeypatch.setattr(season, "_play", fails_at_three)
    with pytest.raises(RinklogError, match="game 3 failed in a worker: ValueError: a card"):
        play(tmp_path / "failed.db", league, workers=2)


def test_a_worker_whose_writer_is_gone_ends(league):
    """A worker polls for work and ends once its parent is not the writer that started it
    (a writer killed with SIGKILL): no orphan keeps running."""
    import multiprocessing

    from replay import workers

    played = []
    ours, theirs = multiprocessing.Pipe()
    ours.send((1, (1, "X", "Y", "", "")))
    workers._work(theirs, [], lambda: None, played.append, (), parent=-1)  # returns at once
    assert played == [] and not ours.poll(0.1)  # it played nothing


def test_a_goalie_on_a_skater_board_shows_the_games_he_was_in_net(league, straight):
    """A goalie's assists (16.00) and penalty minutes (11.10 X) are on a skater row whose
    gp is 0 (he is never a skater on the ice): the A and PIM boards showed him with 0
    games played. A board shows his games in net."""
    from replay.leagues.stored_seasons import leaders

    goalies = {g.id for t in league.teams.values() for g in t.goalies}
    with open_store(straight) as store:
        season = load_season(store, "demo-t")
        boards = leaders(store, season, top=1000, min_goalie_games=0)
    in_net = {(r["team"], r["player"]): r["gp"] for r in boards["SV%"]}
    shown = [r for title in ("A", "PIM") for r in boards[title] if r["player"] in goalies]
    assert shown  # goalies with assists or minutes in 24 games
    for row in shown:
        assert row["gp"] == in_net[(row["team"], row["player"])] > 0


def test_a_second_season_run_writing_the_same_database_is_named(tmp_path, league, straight):
    """Issue 24 (4): two `rinklog season` on one database. The second run (here: started
    once this one has listed what to play) stores games this one then plays too: this
    one stops in one line naming the other process and what to do, nothing written twice."""
    path = tmp_path / "both.db"
    other = []

    def the_other_process_plays_first(done: int, total: int) -> None:
        if not other:
            other.append(play_cut(path, league, 3))

    with pytest.raises(RinklogError) as raised:
        play(path, league, progress=the_other_process_plays_first)
    message = str(raised.value)
    assert message.startswith("another process is writing season demo-t to this database")
    assert "demo-t-0001" in message and "run the same command again" in message
    assert "version" not in message
    run = play(path, league)  # what the message says to do
    assert (run.played, run.skipped) == (GAMES - 3, 3)
    assert heads(path) == heads(straight)


def play_cut(path, league, games):
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(league, "t", GAMES)]
    with open_store(path) as store:
        return run_season(store, league_setup(league), league=league.name, schedule=fixtures,
                          seed="t", workers=1, games=games)
