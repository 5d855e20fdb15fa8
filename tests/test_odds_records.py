"""Recorded odds checked by the audit (issue 33, item 2; docs/odds.md, docs/trust.md).

Issue 33: "A recorded odds table is never checked. [...] Record the runs as leaves of a
Merkle tree (each run's seed and its result) with the root and the totals in the event;
the audit checks that the totals follow from the leaves, and re-plays K runs (chosen from
the record's hash, K = 20 by default, ``--odds-runs K`` to change it) against their
leaves." Done when "a forged OddsRecorded fails audit --all".

The forger here edits the record, re-hashes the season's chain (tests/forge.py writes the
stream as the store writes one) and recomputes whatever he likes: the figures, the leaves,
the root. One small DICE Hockey season (dicedemo's eight teams, 4 games each, the top four
in the playoffs), half played, odds recorded over 4 runs.
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import msgspec
import pytest
from setups import tiny_league

from events.odds import OddsRecorded
from replay.cli.app import main
from replay.games.game_setup import league_setup
from replay.games.game_streams import open_store
from replay.leagues import merkle
from replay.leagues.audit_odds_runs import audit_database as audit_all
from replay.leagues.league import load_league
from replay.leagues.naming import odds_run_seed
from replay.leagues.odds_leaves import chosen_runs, leaf_bytes, leaves_root, odds_table
from replay.leagues.runner import run_season
from replay.leagues.schedule import make_schedule
from replay.leagues.season import SeasonRefused
from replay.leagues.season_stream import SeasonStream
from tests.forge import replace_stream

DICEDEMO = Path(__file__).resolve().parents[1] / "fixtures/dicehockey/leagues/dicedemo"
OLD_DB = Path(__file__).resolve().parent / "data/odds-v1.db.gz"
SEED = "orc"
SEASON = f"tiny-{SEED}"
RUNS = 4


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The tiny season half played (8 of 16 games), odds recorded over 4 runs."""
    where = tmp_path_factory.mktemp("odds-records")
    folder = tiny_league(where)
    loaded = load_league(folder)
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(loaded, SEED)]
    db = where / "recorded.db"
    with open_store(db) as store:
        run_season(store, league_setup(loaded), league=loaded.name, schedule=fixtures,
                   seed=SEED, divisions=loaded.divisions, games=8, audit=False)
    assert main(["odds", SEASON, "--runs", str(RUNS), "--seed", "7", "--record",
                 "--league", str(folder), "--db", str(db), "--workers", "1"]) == 0
    return {"db": db, "where": where, "folder": folder}


def _events(db: Path) -> list:
    with open_store(db) as store:
        return [row.event for row in store.read(SEASON)]


def _forged(recorded: dict[str, Path], name: str, forge) -> Path:  # noqa: ANN001
    """A copy of the database whose last season event (the record) is ``forge(record)``,
    the season's chain re-hashed."""
    db = recorded["where"] / f"{name}.db"
    shutil.copy(recorded["db"], db)
    events = _events(db)
    record = events[-1]
    assert isinstance(record, OddsRecorded)
    replace_stream(db, SEASON, [*events[:-1], forge(record)], kind="season", system="league")
    return db


def _season_report(db: Path, **kwargs):  # noqa: ANN003, ANN202
    with open_store(db) as store:
        reports = audit_all(store, **kwargs)
    season = next(r for r in reports if r.game_id == SEASON)
    if season.ok:  # a season that fails fails its games' season check too
        assert all(r.ok for r in reports), [r.failure for r in reports if not r.ok]
    return season


def _with_champion(record: OddsRecorded, run: int, team_index: int) -> OddsRecorded:
    """Run ``run``'s leaf says team ``team_index`` (of the season's sorted teams) won the
    title, and the figures are counted from the leaves again (a careful forger)."""
    leaves = list(record.leaves)
    old = leaves[run - 1]
    advanced = [*old.advanced[:-1], [team_index]]  # the final's winner too
    leaves[run - 1] = msgspec.structs.replace(old, champion=team_index, advanced=advanced)
    teams = sorted(t.team for t in record.teams)
    table, spots = odds_table(leaves, teams)
    return msgspec.structs.replace(record, leaves=leaves, teams=table, playoff_spots=spots)


def _other_champion(record: OddsRecorded, run: int) -> int:
    """The finalist of run ``run`` that did not win its title (its index)."""
    leaf = record.leaves[run - 1]
    return next(t for t in leaf.advanced[-2] if t != leaf.champion)


def test_a_record_carries_its_runs_as_leaves_and_passes(recorded) -> None:
    record = _events(recorded["db"])[-1]
    assert isinstance(record, OddsRecorded) and record.runs == RUNS
    # "each run's seed and its result": run r's seed is odds_run_seed(season, seed, r)
    assert [leaf.run for leaf in record.leaves] == [1, 2, 3, 4]
    assert [leaf.run_seed for leaf in record.leaves] == [
        odds_run_seed(SEASON, "7", r) for r in range(1, RUNS + 1)]
    # "the root [...] in the event": RFC 6962's tree hash of the leaves' bytes
    assert record.root == merkle.root([leaf_bytes(leaf) for leaf in record.leaves]).hex()
    # "the totals follow from the leaves"
    table, spots = odds_table(record.leaves, sorted(t.team for t in record.teams))
    assert (table, spots) == (record.teams, record.playoff_spots)
    assert _season_report(recorded["db"]).ok


def test_figures_edited_fail_audit_all(recorded) -> None:
    """A forger moves a title from one team to another in the figures only; the sums the
    old audit checked still hold (one champion a run), the leaves say otherwise."""
    def forge(record: OddsRecorded) -> OddsRecorded:
        teams = list(record.teams)
        won = next(i for i, t in enumerate(teams) if t.champion)
        lost = next(i for i, t in enumerate(teams) if t.playoffs and not t.champion)
        teams[won] = msgspec.structs.replace(teams[won], champion=teams[won].champion - 1)
        teams[lost] = msgspec.structs.replace(teams[lost], champion=1)
        return msgspec.structs.replace(record, teams=teams)

    db = _forged(recorded, "figures", forge)
    report = _season_report(db)
    assert not report.ok
    assert report.failure.seq == len(_events(db))
    assert "leaves" in report.failure.expected
    assert main(["audit", "--all", "--db", str(db)]) == 1  # the command, as a user runs it


def test_a_root_that_does_not_match_the_leaves_fails(recorded) -> None:
    def forge(record: OddsRecorded) -> OddsRecorded:
        forged = _with_champion(record, 1, _other_champion(record, 1))
        return msgspec.structs.replace(forged, root=record.root)  # the honest root kept

    report = _season_report(_forged(recorded, "root", forge))
    assert not report.ok and "root" in report.failure.expected


def test_a_leaf_whose_run_does_not_replay_fails_naming_run_and_seq(recorded) -> None:
    """Figures, leaves and root all consistent: only playing run 2 again shows it."""
    def forge(record: OddsRecorded) -> OddsRecorded:
        forged = _with_champion(record, 2, _other_champion(record, 2))
        root = leaves_root(forged.leaves)
        return msgspec.structs.replace(forged, root=root)

    db = _forged(recorded, "replay", forge)
    report = _season_report(db)  # K = 20 >= 4 runs: every run replayed
    assert not report.ok
    assert report.failure.check == "odds"
    assert report.failure.seq == len(_events(db))
    assert "run 2" in report.failure.expected
    assert main(["audit", "--all", "--db", str(db)]) == 1
    # K = 0: totals only, and the verdict says so
    totals_only = _season_report(db, odds_runs=0)
    assert totals_only.ok
    assert any("not replayed" in w for w in totals_only.warnings)


def test_the_runs_replayed_are_chosen_from_the_records_hash(recorded) -> None:
    # deterministic: anyone re-auditing replays the same runs
    digest = "ab" * 32
    assert chosen_runs(digest, 1000, 20) == chosen_runs(digest, 1000, 20)
    runs = chosen_runs(digest, 1000, 20)
    assert len(set(runs)) == 20 and all(1 <= r <= 1000 for r in runs)
    assert chosen_runs("cd" * 32, 1000, 20) != runs
    assert chosen_runs(digest, 4, 20) == [1, 2, 3, 4]  # K >= n: every run
    assert chosen_runs(digest, 4, 0) == []
    # K = 2 of 4: the forged run 3 fails exactly when the forged record's hash picks it
    def forge(record: OddsRecorded) -> OddsRecorded:
        forged = _with_champion(record, 3, _other_champion(record, 3))
        return msgspec.structs.replace(forged, root=leaves_root(forged.leaves))

    db = _forged(recorded, "chosen", forge)
    with open_store(db) as store:
        head = store.head_hash(SEASON)
    picked = chosen_runs(head, RUNS, 2)
    report = _season_report(db, odds_runs=2)
    assert report.ok == (3 not in picked)
    if not report.ok:
        assert "run 3" in report.failure.expected


@pytest.mark.parametrize("what", ["seed", "count", "numbers"])
def test_leaves_for_the_wrong_seed_or_run_count_fail(recorded, what: str) -> None:
    def forge(record: OddsRecorded) -> OddsRecorded:
        leaves = list(record.leaves)
        if what == "seed":  # the runs of another odds seed, presented as seed 7's
            leaves = [msgspec.structs.replace(leaf, run_seed=odds_run_seed(SEASON, "8", leaf.run))
                      for leaf in leaves]
        elif what == "count":  # three leaves for four runs
            leaves = leaves[:3]
        else:  # run 1 twice
            leaves[1] = msgspec.structs.replace(leaves[0])
        table, spots = odds_table(leaves, sorted(t.team for t in record.teams))
        return msgspec.structs.replace(record, leaves=leaves, root=leaves_root(leaves),
                                       teams=table if what != "count" else record.teams,
                                       playoff_spots=spots)

    report = _season_report(_forged(recorded, f"wrong-{what}", forge))
    assert not report.ok


def _old_form(record: OddsRecorded) -> OddsRecorded:
    """The record as rinklog wrote it before issue 33: counts, no runs."""
    return OddsRecorded(seed=record.seed, runs=record.runs, games_played=record.games_played,
                        games_remaining=record.games_remaining,
                        playoff_spots=record.playoff_spots, teams=record.teams)


def test_an_old_form_record_in_a_new_season_is_refused(recorded) -> None:
    report = _season_report(_forged(recorded, "old-form", _old_form))
    assert not report.ok
    assert report.failure.check == "season" and "leaves" in report.failure.expected
    # and the one writer refuses to append one
    db = recorded["where"] / "old-form-writer.db"
    shutil.copy(recorded["db"], db)
    with open_store(db) as store:
        record = store.read(SEASON)[-1].event
        with pytest.raises(SeasonRefused):
            SeasonStream.at(store, SEASON).append([_old_form(record)])


@pytest.fixture(scope="module")
def old_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("odds-v1") / "odds-v1.db"
    db.write_bytes(gzip.decompress(OLD_DB.read_bytes()))
    return db


def test_an_old_stored_record_still_audits(old_db: Path) -> None:
    """tests/data/odds-v1.db.gz: written before issue 33 (docs in tests/data/README.md),
    its season's OddsRecorded in the old form: it audits as it did, with a warning."""
    with open_store(old_db) as store:
        record = store.read("tiny-v1")[-1].event
        assert isinstance(record, OddsRecorded) and record.leaves is msgspec.UNSET
        reports = audit_all(store)
    assert all(r.ok for r in reports), [r.failure for r in reports if not r.ok]
    season = next(r for r in reports if r.game_id == "tiny-v1")
    assert any("old form" in w for w in season.warnings)


def test_an_old_season_takes_no_old_form_record_after_a_new_one(old_db: Path,
                                                                 tmp_path: Path) -> None:
    """An old season keeps its old records; once rinklog recorded its runs in it, an
    old-form record after that is refused (the stream shows the writer was new)."""
    db = tmp_path / "old.db"
    shutil.copy(old_db, db)
    folder = tiny_league(tmp_path)
    assert main(["odds", "tiny-v1", "--runs", "2", "--seed", "9", "--record", "--league",
                 str(folder), "--db", str(db), "--workers", "1"]) == 0
    with open_store(db) as store:
        events = [row.event for row in store.read("tiny-v1")]
        assert all(r.ok for r in audit_all(store))
    replace_stream(db, "tiny-v1", [*events, _old_form(events[-1])], kind="season",
                   system="league")
    with open_store(db) as store:
        season = next(r for r in audit_all(store) if r.game_id == "tiny-v1")
    assert not season.ok and "leaves" in season.failure.expected


def test_cli_odds_runs(recorded, capsys) -> None:
    assert main(["audit", "--all", "--odds-runs", "0", "--db", str(recorded["db"])]) == 0
    assert "not replayed" in capsys.readouterr().out
    assert main(["audit", "--all", "--odds-runs", "-1", "--db", str(recorded["db"])]) != 0
    err = capsys.readouterr().err.strip()
    assert "--odds-runs" in err and len(err.splitlines()) == 1
