"""Season odds by Monte Carlo (issue 23, docs/odds.md): ``rinklog odds``.

One small DICE Hockey season (dicedemo's eight teams, 4 games each, the top four in the
playoffs, one-game rounds), half played, is the season for the whole module; a handful of
runs each. What is checked is what the issue asks: the same odds with one worker and two,
playoff chances adding up to the playoff spots, title chances to one and each lottery
pick's to one (rule 31: the four teams out of the playoffs share the four picks), a run
replayed into a database of its own audits clean and stands as the run said, odds
recorded in the season pass the audit, and the CLI's errors are one line.
"""

from __future__ import annotations

import functools
import json
import pickle
import shutil
from pathlib import Path

import pytest
from setups import tiny_league

from engine.dice import SeededDice
from events.odds import OddsRecorded, TeamOdds
from replay.cli.app import main
from replay.games.game_setup import league_setup
from replay.games.game_streams import open_store, play_game, play_outcome
from replay.leagues.audit import audit_all, audit_game
from replay.leagues.audit_odds import recorded_odds
from replay.leagues.league import load_league
from replay.leagues.naming import odds_run_seed
from replay.leagues.odds import odds_season, report_of, run_odds
from replay.leagues.runner import run_season
from replay.leagues.schedule import make_schedule
from replay.leagues.stored_seasons import load_season, standings

DICEDEMO = Path(__file__).resolve().parents[1] / "fixtures/dicehockey/leagues/dicedemo"
SEED = "od"
SEASON = f"tiny-{SEED}"
RUNS = 2


@functools.cache
def _league(folder: Path):  # noqa: ANN202 - a LoadedLeague, read once (its cards are many)
    return load_league(folder)


def _audit_written(out: Path, source: Path) -> None:
    """Every stream ``out`` holds that ``source`` did not, and the season's, audit clean
    (the streams copied were the source's, stored by run_season as the rules played them)."""
    with open_store(source) as store:
        before = {s.stream for s in store.streams()}
    with open_store(out) as store:
        new = [s.stream for s in store.streams() if s.stream not in before]
        assert new
        for stream in [*new, SEASON]:
            assert audit_game(store, stream).ok, stream


@pytest.fixture(scope="module")
def half(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The tiny league's folder and a database with the first half of its season."""
    where = tmp_path_factory.mktemp("odds")
    folder = tiny_league(where)
    loaded = _league(folder)
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(loaded, SEED)]
    db = where / "half.db"
    with open_store(db) as store:
        run_season(store, league_setup(loaded), league=loaded.name, schedule=fixtures,
                   seed=SEED, divisions=loaded.divisions, games=len(fixtures) // 2,
                   audit=False)
    return {"folder": folder, "db": db, "where": where}


def _stored(half: dict[str, Path]):
    fmt = _league(half["folder"]).playoffs
    with open_store(half["db"]) as store:
        return odds_season(store, SEASON, lambda _name: fmt)


@pytest.fixture(scope="module")
def one_worker(half: dict[str, Path]):
    stored = _stored(half)
    return stored, run_odds(stored.odds, "7", RUNS, workers=1)


def test_a_runs_lean_game_is_the_stored_games_outcome() -> None:
    """``play_outcome`` (what a run plays) keeps of a game what ``play_game`` (what a
    season and ``odds --replay`` store) plays with the same dice: its first and last
    events, and the games it takes from later ones, read a batch at a time (rules 15, 17:
    some of these games injure or suspend a player)."""
    setup = league_setup(_league(DICEDEMO))
    system = setup.system
    teams = sorted(setup.teams)
    outs = 0
    for n in range(12):
        home, away = teams[n % len(teams)], teams[(n + 3) % len(teams)]
        game_id, seed = f"{home}-{away}-lean-{n}", f"lean-{n}"
        played = [play(setup, setup.team(home), setup.team(away), game_id=game_id, seed=seed,
                       dice=SeededDice(seed, game_id, system.derive_roll))
                  for play in (play_game, play_outcome)]
        whole, lean = played
        assert (lean.created, lean.end) == (whole.created, whole.end)
        assert lean.outs == system.games_out(whole.events)
        outs += len(lean.outs)
    assert outs > 0  # the batches were read for something


def test_the_same_odds_with_one_worker_and_two(half, one_worker) -> None:
    stored, one = one_worker
    two = run_odds(stored.odds, "7", RUNS, workers=2)
    assert two == one
    # what a worker is sent pickles whole (a Dask worker gets it so, --cluster)
    assert pickle.loads(pickle.dumps(stored.odds)) == stored.odds
    assert len({tuple(sorted(r.points.items())) for r in one}) > 1  # the runs differ


def test_chances_add_up(one_worker) -> None:
    stored, results = one_worker
    report = report_of(stored, "7", results)
    lines = [report.team_json(t) for t in report.teams]
    assert report.games_played == 8 and report.games_remaining == 8
    # [playoffs] teams = 4: four spots; series [1, 1]: two rounds, one champion a run
    assert sum(t["playoffs"] for t in lines) == pytest.approx(4)
    assert sum(t["champion"] for t in lines) == pytest.approx(1)
    assert sum(t["rounds"][0] for t in lines) == pytest.approx(2)
    assert all(t["rounds"][1] == t["champion"] for t in lines)
    # rule 31: the four teams out of the playoffs draw the lottery's four picks
    assert {len(t["picks"]) for t in lines} == {4}
    for pick in range(4):
        assert sum(t["picks"][pick] for t in lines) == pytest.approx(1)
    assert all(0 <= p <= 1 for t in lines for p in
               [t["playoffs"], t["champion"], *t["rounds"], *t["picks"]])
    assert all(t["points_p10"] <= t["points_mean"] <= t["points_p90"] for t in lines)


def test_a_run_is_derived_from_season_seed_and_run() -> None:
    # docs/odds.md: the first 16 bytes of BLAKE2b keyed with the seed over
    # "{season}/odds:{run}:0", in hex
    import hashlib

    digest = hashlib.blake2b(b"tiny-od/odds:2:0", key=b"7").digest()[:16]
    assert odds_run_seed(SEASON, "7", 2) == "odds-" + digest.hex()
    assert odds_run_seed(SEASON, "7", 1) != odds_run_seed(SEASON, "7", 2)


def test_a_replayed_run_audits_clean_and_stands_as_the_run(half, one_worker) -> None:
    _, results = one_worker
    out = half["where"] / "run2.db"
    assert main(["odds", SEASON, "--seed", "7", "--replay", "2", "--out", str(out),
                 "--league", str(half["folder"]), "--db", str(half["db"])]) == 0
    run = results[1]
    with open_store(out) as store:
        assert all(r.ok for r in audit_all(store, odds_run=True))
        table = standings(store, load_season(store, SEASON))
        assert {r.team: r.points for r in table} == run.points
        events = [row.event for row in store.read(SEASON)]
    champion = next(e.champion for e in events if type(e).__name__ == "PlayoffsWon")
    assert champion == run.champion
    drawn = sorted((e for e in events if type(e).__name__ == "LotteryDraw"),
                   key=lambda e: e.pick)
    assert tuple(d.team for d in drawn) == run.picks
    assert not (half["where"] / ".run2.db.partial").exists()


def _args(half: dict[str, Path], db: Path) -> list[str]:
    return ["--league", str(half["folder"]), "--db", str(db), "--workers", "1"]


def _play_to(half: dict[str, Path], db: Path, games: int | None) -> None:
    """Store the tiny season's games up to ``games`` (None: all of them)."""
    loaded = _league(half["folder"])
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(loaded, SEED)]
    with open_store(db) as store:
        run_season(store, league_setup(loaded), league=loaded.name, schedule=fixtures,
                   seed=SEED, divisions=loaded.divisions, games=games, audit=False)


@pytest.fixture(scope="module")
def recorded(half: dict[str, Path]) -> dict:
    """The half-played season with odds recorded after its 8 games (2 runs)."""
    db = half["where"] / "recorded.db"
    shutil.copy(half["db"], db)
    with open_store(db) as store:
        version = store.version(SEASON)
    assert main(["odds", SEASON, "--runs", "2", "--record", *_args(half, db)]) == 0
    return {"db": db, "version": version}


@pytest.fixture(scope="module")
def twelve(half: dict[str, Path], recorded: dict) -> Path:
    """That season four games on (12 of 16), odds recorded again."""
    db = half["where"] / "twelve.db"
    shutil.copy(recorded["db"], db)
    _play_to(half, db, 12)
    assert main(["odds", SEASON, "--runs", "2", "--record", *_args(half, db)]) == 0
    return db


def test_recorded_odds_pass_the_audit_and_a_plain_run_writes_nothing(half, recorded,
                                                                      capsys) -> None:
    db = recorded["db"]
    with open_store(db) as store:
        assert store.version(SEASON) == recorded["version"] + 1
        event = store.read(SEASON)[-1].event
        assert isinstance(event, OddsRecorded) and event.runs == 2
        assert audit_game(store, SEASON).ok
    assert main(["odds", SEASON, "--runs", "1", *_args(half, db)]) == 0
    capsys.readouterr()
    with open_store(db) as store:
        assert store.version(SEASON) == recorded["version"] + 1


def _team(team: str, **counts: int) -> TeamOdds:
    base = {"points_total": 8, "points_p10": 4, "points_p90": 4, "playoffs": 2,
            "rounds": [1, 0], "champion": 0, "picks": [0, 0, 0, 0]}
    return TeamOdds(team=team, **{**base, **counts})


def test_the_audit_finds_odds_that_do_not_add_up(one_worker) -> None:
    stored, results = one_worker
    created = stored.odds.created
    good = report_of(stored, "7", results).event()
    assert recorded_odds(created, good, 8) is None
    assert "games played" in recorded_odds(created, good, 7)
    teams = [_team(t.team) for t in good.teams]  # every team in the playoffs every run
    bad = OddsRecorded(seed="7", runs=2, games_played=8, games_remaining=8,
                       playoff_spots=4, teams=teams)
    assert "playoff spots" in recorded_odds(created, bad, 8)


@pytest.mark.parametrize(("args", "says"), [
    (["nope-1", "--runs", "2"], "no season 'nope-1'"),
    ([SEASON, "--runs", "0"], "--runs must be at least 1"),
    ([SEASON, "--replay", "1"], "--replay needs --out"),
])
def test_cli_errors_are_one_line(half, capsys, args: list[str], says: str) -> None:
    assert main(["odds", *args, "--db", str(half["db"])]) == 1
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_replay_never_overwrites(half, capsys) -> None:
    out = half["where"] / "taken.db"
    out.write_bytes(b"mine")
    assert main(["odds", SEASON, "--replay", "1", "--out", str(out),
                 "--db", str(half["db"])]) == 1
    err = capsys.readouterr().err
    assert "the file exists" in err and err.count("\n") == 1
    assert out.read_bytes() == b"mine"


def test_json_has_the_issues_keys(half, capsys) -> None:
    assert main(["odds", SEASON, "--runs", "1", "--workers", "1", "--json", "--per-run",
                 "--league", str(half["folder"]), "--db", str(half["db"])]) == 0
    got = json.loads(capsys.readouterr().out)
    assert {"season", "runs", "seed", "games_played", "games_remaining", "teams"} <= set(got)
    assert set(got["runs"][0]) == {"run", "points", "champion"}
    assert {"team", "points_mean", "points_p10", "points_p90", "playoffs", "champion",
            "rounds", "picks"} <= set(got["teams"][0])


def test_the_season_site_shows_recorded_odds_over_the_season(recorded, twelve) -> None:
    from replay.reports.season_site import season_files

    with open_store(recorded["db"]) as store:
        first = season_files(store, SEASON)
    assert 'id="odds"' in first["odds.html"] and 'id="one-record"' in first["odds.html"]
    assert 'id="odds-link"' in first["index.html"]
    with open_store(twelve) as store:  # four more games, then odds again
        assert audit_game(store, SEASON).ok
        page = season_files(store, SEASON)["odds.html"]
    assert "After 12 games (4 to play)" in page
    # one plot per team, a point for each record (after 8 games, after 12)
    for team in ("ALD", "HTH"):
        assert f'id="odds-{team}"' in page
    assert page.count("after 8 games:") == 8 and page.count("after 12 games:") == 8


class _Stop(Exception):
    pass


def test_odds_from_playoffs_begun_play_on_from_the_stored_bracket(half, twelve,
                                                                    capsys) -> None:
    from replay.leagues.playoffs import play_postseason

    db = half["where"] / "begun.db"
    shutil.copy(twelve, db)  # 12 games and two odds records: the last 4 games, then
    _play_to(half, db, None)  # the playoffs
    loaded = _league(half["folder"])

    def stop(_stored: int) -> None:
        raise _Stop

    with open_store(db) as store:
        with pytest.raises(_Stop):  # the first playoff game stored, then stopped
            play_postseason(store, SEASON, loaded.playoffs, progress=stop)
        events = [row.event for row in store.read(SEASON)]
    first = next(e for e in events if type(e).__name__ == "SeriesGameRecorded")
    stored = _stored({**half, "db": db})
    assert stored.odds.remaining == () and stored.odds.series_starts
    results = run_odds(stored.odds, "7", 2, workers=1)
    for r in results:  # the stored game's winner went on in every run
        assert first.winner in r.advanced[0]
        assert r.points == results[0].points  # the regular season is over
    out = half["where"] / "begun-run1.db"
    assert main(["odds", SEASON, "--seed", "7", "--replay", "1", "--out", str(out),
                 "--league", str(half["folder"]), "--db", str(db)]) == 0
    capsys.readouterr()
    # the whole database is audited by the replay before it is renamed (and by the test
    # above); here the streams the replay wrote and the season, each on its own
    _audit_written(out, db)
    with open_store(out) as store:
        won = next(e for e in (row.event for row in store.read(SEASON))
                   if type(e).__name__ == "PlayoffsWon")
    assert won.champion == results[0].champion


def test_a_playoff_game_ended_at_the_table_stands_in_every_run(half) -> None:
    """R-post-play: a game of the wave ended at the table and not yet in its series is
    recorded by ``rinklog playoffs`` as it ended, so every run keeps it (its winner goes
    on, the game is not played again) and the replayed run crowns the run's champion; a
    game still being played counts as begun (played anew, --replay waits)."""
    from tests.test_postseason_table import run, typed_rolls  # noqa: PLC0415 - the table

    db = half["where"] / "table.db"
    shutil.copy(half["db"], db)
    _play_to(half, db, None)
    league = ["--league", str(half["folder"]), "--db", str(db)]
    assert run(["playoffs", SEASON, "--ready", *league])[0] == 0
    game = f"{SEASON}-p1-2-1"  # the wave's second game, at the table
    assert run(["play", "--season", SEASON, "--game", game, "--db", str(db)], "q\n")[0] == 0
    begun = _stored({**half, "db": db})
    assert begun.in_progress == (game,) and not begun.odds.table_winners
    assert run(["play", "--resume", game, "--db", str(db)], typed_rolls(1))[0] == 0
    stored = _stored({**half, "db": db})
    with open_store(db) as store:
        ended = [row.event for row in store.read(game)][-1]
        created = store.read(game, 1, 1)[0].event
    winner = created.home.team_id if ended.winner == "home" else created.away.team_id
    assert stored.in_progress == () and stored.odds.table_winners == {game: winner}
    results = run_odds(stored.odds, "7", RUNS, workers=1)
    for r in results:  # four teams, one-game rounds: p1-1-1 and the final played, not p1-2-1
        assert winner in r.advanced[0] and r.games == 2
    out = half["where"] / "table-run1.db"
    assert run(["odds", SEASON, "--seed", "7", "--replay", "1", "--out", str(out),
                *league])[0] == 0
    with open_store(out) as store:
        events = [row.event for row in store.read(SEASON)]
    won = next(e for e in events if type(e).__name__ == "PlayoffsWon")
    assert won.champion == results[0].champion
    assert next(e.winner for e in events if type(e).__name__ == "SeriesGameRecorded"
                and e.game_id == game) == winner


def test_an_odds_run_is_never_the_season(half, capsys, tmp_path) -> None:
    """Issue 32 (3): a database written by `odds --replay` is marked wherever its season is
    shown or checked: `audit --all` fails naming the run and seed unless `--odds-run`,
    `receipt --season` refuses it, the listings say so first and every page has a banner;
    a forger who takes the marker out (re-hashing the season's chain) fails the audit,
    because the games after it are seeded from the run."""
    from events.odds import OddsRunReplayed
    from replay.reports.season_site import season_files
    from tests.forge import replace_stream

    with open_store(half["db"]) as store:
        version = store.version(SEASON)
    out = tmp_path / "run1.db"
    assert main(["odds", SEASON, "--seed", "7", "--replay", "1", "--out", str(out),
                 "--league", str(half["folder"]), "--db", str(half["db"])]) == 0
    capsys.readouterr()
    note = f"season {SEASON} is odds run 1 of seed 7 from version {version}, not the season " \
           "as played"
    assert main(["audit", "--all", "--db", str(out)]) == 1
    printed = capsys.readouterr().out
    assert f"{SEASON}: FAILED at seq {version + 1}: odds run check" in printed
    assert note in printed
    assert main(["audit", "--all", "--odds-run", "--db", str(out)]) == 0
    assert f"warning: {note}" in capsys.readouterr().out
    assert main(["receipt", "--season", SEASON, "--db", str(out)]) == 1
    assert capsys.readouterr().err == f"rinklog: error: {note}: it gets no season receipt\n"
    for argv in (["standings", "--season", SEASON], ["bracket", SEASON],
                 ["lottery", SEASON], ["games"]):
        assert main([*argv, "--db", str(out)]) == 0
        assert capsys.readouterr().out.splitlines()[0] == f"NOTE: {note}", argv
    assert main(["standings", "--season", SEASON, "--json", "--db", str(out)]) == 0
    assert capsys.readouterr().err == f"rinklog: warning: {note}\n"  # the JSON stays JSON
    with open_store(out) as store:
        pages = season_files(store, SEASON)
    html = [page for path, page in pages.items() if path.endswith(".html")]
    assert html and all(f'<p class="banner" role="alert">{note}</p>' in p for p in html)
    # the marker taken out, the season's chain hashed again as an honest one
    with open_store(out) as store:
        events = [row.event for row in store.read(SEASON)
                  if not isinstance(row.event, OddsRunReplayed)]
    replace_stream(out, SEASON, events, kind="season", system="league")
    assert main(["audit", "--all", "--odds-run", "--db", str(out)]) == 1
    printed = capsys.readouterr().out
    assert "FAILED" in printed and "odds run check" not in printed
