"""Odds of a Matrix Hockey season (issue 23, docs/odds.md "Matrix Hockey seasons").

The smallest pyramid with promotion and relegation both: the demo league's first three
divisions (the Elite and its two level-2 divisions, 36 teams), all three competitions,
five of its eleven weeks played by the demo managers; two runs each. What the issue asks:
the same odds with one worker and two, promotion chances adding up to the promotion
places and relegation chances to the relegation places (3.1.6: the top two of a division
go up to its parent, its last four down to its children), each cup's winner chances to
one, and the stored weeks held in every run; a closed season's run is its close; a run
replayed into a database audits clean and stands as the run. ``--record``: odds recorded
after weeks 5 and 6 audit clean, a forged record is caught, a season changed meanwhile or
closed refuses them, a plain odds writes nothing, and the season's page shows the newest
record as a table and each team's chance over the weeks as a plot.
"""

from __future__ import annotations

import json
import pickle
import re
import shutil
from pathlib import Path

import msgspec
import pytest

import replay.leagues.matrix.season as library
from engine.matrix.dice import odds_run_seed as matrix_run_seed
from engine.matrix.recheck import recheck
from engine.matrix.seasons import season_records
from events.matrix import MatrixOddsRecorded, OddsRunReplayed
from replay.cli.app import main
from replay.games.game_streams import open_store
from replay.leagues.audit import audit_all
from replay.leagues.matrix.demo import demo_picks
from replay.leagues.matrix.odds import (
    matrix_odds_season,
    matrix_report,
    record_matrix_odds,
    run_matrix_odds,
)
from replay.leagues.naming import odds_run_seed
from replay.leagues.season_stream import SeasonChanged
from replay.reports.matrix.odds_page import ODDS
from replay.reports.matrix.site import matrix_files

DEMO = Path(__file__).resolve().parents[1] / "fixtures/matrix/leagues/demo"
PLAYED = 5
RUNS = 2


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> dict:
    where = tmp_path_factory.mktemp("odds-matrix")
    folder = where / "three"
    shutil.copytree(DEMO, folder)
    toml = folder / "league.toml"
    text = toml.read_text()
    toml.write_text(text[:text.index('[[divisions]]\nid = "d3a"')])  # Elite, D2A, D2B
    db = where / "three.db"
    with open_store(db) as store:
        season_id = library.open_league(store, folder, "t")
        for week in range(1, PLAYED + 1):
            season = library.load(store, season_id)
            library.record(store, season, season_id, demo_picks(season.state, week, "t"))
            library.play(store, season_id, week)
        stored = matrix_odds_season(store, season_id)
        before = {r["team"]: r["points"] for r in library.standings(store, season_id)}
    results = run_matrix_odds(stored, "7", RUNS, workers=1)
    return {"db": db, "id": season_id, "stored": stored, "results": results,
            "before": before}


def test_the_same_odds_with_one_worker_and_two(league) -> None:
    assert run_matrix_odds(league["stored"], "7", RUNS, workers=2) == league["results"]
    assert pickle.loads(pickle.dumps(league["stored"])) == league["stored"]  # --cluster
    one, two = league["results"]
    assert one.points != two.points  # the runs differ (the run seed)
    assert run_matrix_odds(league["stored"], "8", 1)[0].points != one.points  # and the seed


def test_promotion_relegation_and_cups_add_up(league) -> None:
    report = matrix_report(league["stored"], "7", league["results"])
    lines = [report.team_json(t) for t in report.teams]
    assert (report.weeks_played, report.weeks_remaining) == (PLAYED, 11 - PLAYED)
    # 3.1.6: D2A and D2B send their top two up (4), the Elite its last four down (4)
    assert (report.promotion_places, report.relegation_places) == (4, 4)
    assert sum(t["promotion"] for t in lines) == pytest.approx(4)
    assert sum(t["relegation"] for t in lines) == pytest.approx(4)
    assert all(t["promotion"] == 0 for t in lines if t["division"] == "elite")
    assert all(t["relegation"] == 0 for t in lines if t["division"] != "elite")
    for division in ("elite", "d2a", "d2b"):  # each place of a division: one team a run
        mine = [t for t in lines if t["division"] == division]
        assert len(mine) == 12
        for place in range(12):
            assert sum(t["places"][place] for t in mine) == pytest.approx(1)
    # each cup: one winner a run; the WG's semi-finals hold four teams, its final two
    assert sum(t["kdh"] for t in lines) == pytest.approx(1)
    assert sum(t["wg"] for t in lines) == pytest.approx(1)
    assert [sum(t["wg_rounds"][k] for t in lines) for k in (0, 1)] == pytest.approx([4, 2])
    assert sum(t["kdh_rounds"][-1] for t in lines) == pytest.approx(2)  # the KDH final
    assert all(t["kdh"] <= t["kdh_rounds"][-1] and t["wg"] <= t["wg_rounds"][1] for t in lines)
    assert all(t["points_p10"] <= t["points_mean"] <= t["points_p90"] for t in lines)


def test_the_weeks_played_stand_in_every_run(league) -> None:
    before = league["before"]
    assert any(before.values())
    for r in league["results"]:  # points only grow from the stored weeks' (3.1.4)
        assert all(r.points[t] >= p for t, p in before.items())
        assert max(r.points[t] - p for t, p in before.items()) > 0


def test_cli_json(league, capsys) -> None:
    db, season = str(league["db"]), league["id"]
    assert main(["odds", season, "--runs", "1", "--seed", "7", "--workers", "1", "--json",
                 "--per-run", "--db", db]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["runs"][0]["points"] == league["results"][0].points  # run 1
    assert {"team", "division", "points_mean", "points_p10", "points_p90", "places",
            "promotion", "relegation", "kdh", "kdh_rounds", "wg", "wg_rounds"} \
        <= set(got["teams"][0])


def test_a_replayed_run_audits_clean_and_stands_as_the_run(league, capsys) -> None:
    out = league["db"].with_name("run2.db")
    assert main(["odds", league["id"], "--seed", "7", "--replay", "2", "--out", str(out),
                 "--db", str(league["db"])]) == 0
    capsys.readouterr()
    run = league["results"][1]
    with open_store(out) as store:
        assert all(r.ok for r in audit_all(store, odds_run=True))
        marked = [r for r in audit_all(store) if not r.ok]  # issue 32: never the season
        assert [(r.game_id, r.failure.check) for r in marked] == [(league["id"], "odds run")]
        assert "is odds run 2 of seed 7 from version" in marked[0].failure.recorded
        state = library.load(store, league["id"]).state
        events = [row.event for row in store.read(league["id"])]
    closed = state.closed
    assert closed is not None
    assert {t: r.points for t, r in season_records(state).items()} == run.points
    assert tuple(t for t, _, _ in closed.promoted) == run.promoted
    assert tuple(t for t, _, _ in closed.relegated) == run.relegated
    assert (closed.kdh_winner, closed.wg_order[0]) == (run.kdh_winner, run.wg_winner)
    # the audit holds the dice after the OddsRunReplayed to the run's seed: another run's
    # seed in its place is a finding at that event
    at = next(i for i, e in enumerate(events) if isinstance(e, OddsRunReplayed))
    assert events[at].run_seed == odds_run_seed(league["id"], "7", 2)
    forged = [*events[:at], msgspec.structs.replace(
        events[at], run_seed=odds_run_seed(league["id"], "7", 3)), *events[at + 1:]]
    found = recheck(forged)
    assert found is not None and found.seq == at + 1 and "run seed" in found.recorded
    assert recheck(events) is None


def test_the_run_seed_is_the_league_odds_derivation() -> None:
    assert matrix_run_seed("matrix-x-s1", "7", 2) == odds_run_seed("matrix-x-s1", "7", 2)


def test_a_closed_season_runs_as_it_closed(league, capsys) -> None:
    db = league["db"].with_name("closed.db")
    shutil.copy(league["db"], db)
    season_id = league["id"]
    with open_store(db) as store:
        for week in range(PLAYED + 1, 12):
            season = library.load(store, season_id)
            library.record(store, season, season_id, demo_picks(season.state, week, "t"))
            library.play(store, season_id, week)
        library.close(store, season_id)
        closed = library.load(store, season_id).state
        stored = matrix_odds_season(store, season_id)
    run = run_matrix_odds(stored, "7", 1)[0]
    result = closed.closed
    assert result is not None
    assert run.promoted == tuple(t for t, _, _ in result.promoted)
    assert run.relegated == tuple(t for t, _, _ in result.relegated)
    assert (run.kdh_winner, run.wg_winner) == (result.kdh_winner, result.wg_order[0])
    for d in closed.divisions:
        assert sorted(d.teams, key=run.places.__getitem__) == closed.final_order[d.id]
    # nothing to record after the close: refused in one line, nothing written
    before = len(_odds_events(db, season_id))
    assert main(["odds", season_id, "--runs", "1", "--workers", "1", "--record",
                 "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "is closed" in err and err.count("\n") == 1
    assert len(_odds_events(db, season_id)) == before


# --- --record (docs/odds.md "Matrix Hockey seasons"): matrix.OddsRecorded ---------------------

def _odds_events(db: Path, season_id: str) -> list:
    with open_store(db) as store:
        return [row.event for row in store.read(season_id)]


@pytest.fixture(scope="module")
def recorded(league, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The season recorded twice: after week 5 and, week 6 played, after week 6."""
    db = tmp_path_factory.mktemp("odds-matrix-record") / "recorded.db"
    shutil.copy(league["db"], db)
    season_id = league["id"]
    args = ["odds", season_id, "--runs", str(RUNS), "--seed", "7", "--workers", "1",
            "--record", "--db", str(db)]
    assert main(args) == 0
    with open_store(db) as store:
        season = library.load(store, season_id)
        library.record(store, season, season_id, demo_picks(season.state, PLAYED + 1, "t"))
        library.play(store, season_id, PLAYED + 1)
    assert main(args) == 0
    return {"db": db, "id": season_id}


def test_odds_recorded_at_two_weeks_audit_clean(league, recorded, capsys) -> None:
    events = _odds_events(recorded["db"], recorded["id"])
    records = [e for e in events if isinstance(e, MatrixOddsRecorded)]
    assert [(r.weeks_played, r.weeks_remaining, r.runs) for r in records] == [
        (PLAYED, 11 - PLAYED, RUNS), (PLAYED + 1, 11 - PLAYED - 1, RUNS)]
    # the first record is the odds of the same runs as read (run r: the same seed, season)
    report = matrix_report(league["stored"], "7", league["results"])
    first = records[0]
    assert [(t.team, t.points_total, t.promoted, t.relegated, t.kdh, t.wg, t.places)
            for t in first.teams] == [(t.team, t.points_total, t.promoted, t.relegated, t.kdh,
                                       t.wg, t.places) for t in report.teams]
    assert (first.promotion_places, first.relegation_places) == (4, 4)  # 3.1.6
    with open_store(recorded["db"]) as store:
        assert all(r.ok for r in audit_all(store))
    assert recheck(events) is None


def _forged(record: MatrixOddsRecorded, how: str) -> MatrixOddsRecorded:
    teams = list(record.teams)
    elite = next(i for i, t in enumerate(teams) if t.division == "elite")
    below = next(i for i, t in enumerate(teams) if t.division != "elite" and t.promoted)
    if how == "promotion":  # a promotion moved from a level-2 team to an Elite team
        teams[below] = msgspec.structs.replace(teams[below], promoted=teams[below].promoted - 1)
        teams[elite] = msgspec.structs.replace(teams[elite], promoted=1)
    elif how == "cup":  # two KDH winners in a run
        teams[elite] = msgspec.structs.replace(teams[elite], kdh=teams[elite].kdh + 1)
    elif how == "team":
        del teams[elite]
    elif how == "place":  # a team first in every run beside the others' firsts
        places = [record.runs, *teams[elite].places[1:]]
        teams[elite] = msgspec.structs.replace(teams[elite], places=places)
    elif how == "weeks":
        return msgspec.structs.replace(record, weeks_played=record.weeks_played + 1,
                                       weeks_remaining=record.weeks_remaining - 1)
    return msgspec.structs.replace(record, teams=teams)


@pytest.mark.parametrize("how", ["promotion", "cup", "team", "place", "weeks"])
def test_a_forged_record_is_caught(recorded, how) -> None:
    events = _odds_events(recorded["db"], recorded["id"])
    at = next(i for i, e in enumerate(events) if isinstance(e, MatrixOddsRecorded))
    forged = _forged(events[at], how)
    assert forged != events[at]
    found = recheck([*events[:at], forged, *events[at + 1:]])
    assert found is not None and found.seq == at + 1


def test_a_forged_record_stored_fails_the_audit(recorded, tmp_path) -> None:
    db = tmp_path / "forged.db"
    shutil.copy(recorded["db"], db)
    with open_store(db) as store:
        season = library.load(store, recorded["id"])
        last = [e for e in season.events if isinstance(e, MatrixOddsRecorded)][-1]
        library.record(store, season, recorded["id"], [_forged(last, "cup")])
        bad = [r for r in audit_all(store) if not r.ok]
    assert [r.game_id for r in bad] == [recorded["id"]]


def test_a_season_changed_while_the_odds_ran_refuses_them(league, recorded, tmp_path) -> None:
    db = tmp_path / "changed.db"
    shutil.copy(recorded["db"], db)
    report = matrix_report(league["stored"], "7", league["results"])  # read after week 5
    refused = r"changed while this ran \(version \d+, now \d+\): nothing written"
    with open_store(db) as store, pytest.raises(SeasonChanged, match=refused):
        record_matrix_odds(store, league["stored"], report)
    assert _odds_events(db, league["id"]) == _odds_events(recorded["db"], league["id"])


def test_a_plain_odds_writes_nothing(league, capsys) -> None:
    before = len(_odds_events(league["db"], league["id"]))
    assert main(["odds", league["id"], "--runs", "1", "--workers", "1",
                 "--db", str(league["db"])]) == 0
    assert "recorded" not in capsys.readouterr().out
    assert len(_odds_events(league["db"], league["id"])) == before
    with open_store(league["db"]) as store:
        assert ODDS not in matrix_files(store, league["id"])  # no record: no odds page


def test_the_season_page_shows_the_odds_table_and_plot(recorded) -> None:
    events = _odds_events(recorded["db"], recorded["id"])
    records = [e for e in events if isinstance(e, MatrixOddsRecorded)]
    with open_store(recorded["db"]) as store:
        files = matrix_files(store, recorded["id"])
    assert 'id="odds-link"' in files["index.html"] and f'href="{ODDS}"' in files["index.html"]
    page = files[ODDS]
    newest = records[-1]
    assert f"After {PLAYED + 1} weeks" in page
    rows = re.findall(r'<tr data-team="([^"]+)">(.*?)</tr>', page)
    assert [team for team, _ in rows] == [t.team for t in newest.teams]  # 36 teams
    team = next(t for t in newest.teams if t.division == "d2a" and 0 < t.promoted < RUNS)
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", dict(rows)[team.team])
    assert cells[5] == "50.0"  # promoted in one run of two
    # one plot a team, one point a record: a level-2 team's chance to go up, week by week
    assert len(re.findall(r'<svg [^>]*id="odds-', page)) == 36
    plot = page[page.index(f'id="odds-{team.team}"'):]
    plot = plot[:plot.index("</svg>")]
    labels = re.findall(r"<title>after (\d+) weeks: ([\d.]+)%</title>", plot)
    assert labels == [(str(r.weeks_played), f"{100 * x.promoted / r.runs:.1f}")
                      for r in records for x in r.teams if x.team == team.team]
    assert labels[-1] == (str(PLAYED + 1), "50.0")
    assert "chance to go up" in plot
    elite = next(t for t in newest.teams if t.division == "elite")
    assert "chance to finish first" in page[page.index(f'id="odds-{elite.team}"'):]


# --- issue 33: a record carries its runs; the audit holds it to them ---------------------------
# "Record the runs as leaves of a Merkle tree (each run's seed and its result) with the root
# and the totals in the event; the audit checks that the totals follow from the leaves, and
# re-plays K runs [...] against their leaves." The forger re-hashes the season's stream.

def _matrix_audit(db: Path, **kwargs):  # noqa: ANN003, ANN202
    from replay.cli.app import _season_odds
    from replay.leagues.audit_odds_runs import audit_database

    with open_store(db) as store:
        return audit_database(store, systems=_season_odds(), **kwargs)


def _rewritten(recorded: dict, tmp_path: Path, events: list) -> Path:
    from tests.forge import replace_stream

    db = tmp_path / "forged.db"
    shutil.copy(recorded["db"], db)
    replace_stream(db, recorded["id"], events, kind="matrix_season", system="matrix")
    return db


def test_a_record_carries_its_runs_under_its_root(recorded) -> None:
    from replay.leagues import merkle
    from replay.leagues.odds_leaves import leaf_bytes

    events = _odds_events(recorded["db"], recorded["id"])
    record = [e for e in events if isinstance(e, MatrixOddsRecorded)][0]
    assert [leaf.run for leaf in record.leaves] == [1, 2]
    assert [leaf.run_seed for leaf in record.leaves] == [
        odds_run_seed(recorded["id"], "7", r) for r in (1, 2)]
    assert record.root == merkle.root([leaf_bytes(x) for x in record.leaves]).hex()
    assert all(r.ok for r in _matrix_audit(recorded["db"]))


def _last_record(recorded: dict) -> tuple[list, int]:
    events = _odds_events(recorded["db"], recorded["id"])
    at = max(i for i, e in enumerate(events) if isinstance(e, MatrixOddsRecorded))
    return events, at


def test_figures_not_following_from_the_leaves_fail(recorded, tmp_path) -> None:
    """Two teams' KDH wins swapped in the figures: every sum still holds."""
    events, at = _last_record(recorded)
    record = events[at]
    teams = list(record.teams)
    won = next(i for i, t in enumerate(teams) if t.kdh)
    other = next(i for i, t in enumerate(teams) if not t.kdh)
    teams[won], teams[other] = (msgspec.structs.replace(teams[won], kdh=teams[won].kdh - 1),
                                msgspec.structs.replace(teams[other], kdh=1))
    forged = msgspec.structs.replace(record, teams=teams)
    assert recheck([*events[:at], forged, *events[at + 1:]]) is None  # the sums hold
    db = _rewritten(recorded, tmp_path, [*events[:at], forged, *events[at + 1:]])
    bad = [r for r in _matrix_audit(db) if not r.ok]
    assert [r.game_id for r in bad] == [recorded["id"]]
    assert bad[0].failure.seq == at + 1 and "leaves" in bad[0].failure.expected


def test_a_leaf_that_does_not_replay_fails(recorded, tmp_path) -> None:
    from replay.leagues.matrix.odds_leaves import matrix_figures
    from replay.leagues.odds_leaves import leaves_root

    events, at = _last_record(recorded)
    record = events[at]
    leaf = record.leaves[1]
    other = next(i for i in range(len(leaf.points)) if i != leaf.kdh)
    leaves = [record.leaves[0], msgspec.structs.replace(leaf, kdh=other)]  # run 2's cup moved
    state = library_fold(events[:at])
    forged = msgspec.structs.replace(record, leaves=leaves, root=leaves_root(leaves),
                                     teams=matrix_figures(state, leaves))
    db = _rewritten(recorded, tmp_path, [*events[:at], forged, *events[at + 1:]])
    bad = [r for r in _matrix_audit(db) if not r.ok]
    assert [r.game_id for r in bad] == [recorded["id"]]
    assert bad[0].failure.check == "odds" and "run 2" in bad[0].failure.expected
    assert bad[0].failure.seq == at + 1
    totals_only = [r for r in _matrix_audit(db, odds_runs=0) if r.game_id == recorded["id"]]
    assert totals_only[0].ok and any("not replayed" in w for w in totals_only[0].warnings)


def library_fold(events: list):  # noqa: ANN201
    from engine.matrix.recheck import fold

    return fold(events)


def test_an_old_form_record_in_a_new_season_is_refused(recorded) -> None:
    events, at = _last_record(recorded)
    record = events[at]
    old = msgspec.structs.replace(record, leaves=msgspec.UNSET, root=msgspec.UNSET)
    found = recheck([*events[:at], old, *events[at + 1:]])
    assert found is not None and found.seq == at + 1 and "runs" in found.recorded


def test_a_season_opened_before_keeps_its_old_records(recorded, tmp_path) -> None:
    """A season whose opening has no version (opened before issue 33) keeps a record
    without runs: it audits, with a warning."""
    events, at = _last_record(recorded)
    opened = msgspec.structs.replace(events[0], season_version=msgspec.UNSET)
    old = [opened, *(msgspec.structs.replace(e, leaves=msgspec.UNSET, root=msgspec.UNSET)
                     if isinstance(e, MatrixOddsRecorded) else e for e in events[1:])]
    assert recheck(old) is None
    db = _rewritten(recorded, tmp_path, old)
    reports = _matrix_audit(db)
    assert all(r.ok for r in reports)
    season = next(r for r in reports if r.game_id == recorded["id"])
    assert any("old form" in w for w in season.warnings)
