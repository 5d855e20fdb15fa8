"""Projections (scoresheet, TOI, penalty timers, stats, stored read models): properties
over simulated games, golden snapshots and the CLI commands."""

from __future__ import annotations

import functools
import json
import re
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from setups import setup_for, simulate
from syrupy.extensions.json import JSONSnapshotExtension

from events.bones import GoalScored, PenaltyAssessed, PenaltyEnded, SequencePlayed
from events.common import GameEnded
from projections import store as rm
from projections.penalties import build_penalties, strength_label
from projections.scoresheet import build_scoresheet
from projections.stats import build_stats, combine
from projections.toi import build_toi
from replay.cli.app import main
from replay.games.game_streams import open_store, read_game

TEAMS = ("HFX", "QUE", "WPG", "SAS")
GAMES = 20
SETTINGS = settings(max_examples=GAMES, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def _matchup(n: int) -> tuple[str, str]:
    home, away = TEAMS[n % 4], TEAMS[(n + 1 + n // 4) % 4]
    return (home, TEAMS[(n + 2) % 4]) if home == away else (home, away)


@functools.cache
def _games() -> tuple[list, ...]:
    store = open_store(":memory:")
    out = []
    for n in range(GAMES):
        home, away = _matchup(n)
        result = simulate(store, home, away, seed=f"prop-{n}", game_id=f"g{n}")
        out.append(read_game(store, result.game_id))
    store.close()
    return tuple(out)


game_index = st.integers(min_value=0, max_value=GAMES - 1)


def test_projections_import_no_engine() -> None:
    import projections.penalties
    import projections.stats
    import projections.store
    import projections.toi

    for module in (projections.toi, projections.penalties, projections.stats,
                   projections.store):
        source = Path(module.__file__).read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import)\s+(engine|replay)\b", source, re.M)


@SETTINGS
@given(game_index)
def test_goals_listed_equal_final_score_and_one_gwg(n: int) -> None:
    events = _games()[n]
    sheet = build_scoresheet(events)
    end = events[-1]
    assert isinstance(end, GameEnded)
    for side, line in (("home", sheet.home), ("away", sheet.away)):
        bonus = 1 if end.decided == "SO" and end.winner == side else 0
        assert sum(g.team == line.team for g in sheet.goals) == line.goals - bonus
        periods = len(line.shots)
        assert len(line.blocked) == periods and len(line.faceoffs) == periods
    gwg = [g for g in sheet.goals if g.gwg]
    winner = getattr(sheet, end.winner).team
    if end.decided == "SO":
        assert gwg == []
    else:
        assert len(gwg) == 1 and gwg[0].team == winner
    decisions = Counter(g.decision for g in sheet.goalies)
    assert decisions["W"] == 1
    assert decisions["L" if end.decided == "REG" else "OTL"] == 1


@SETTINGS
@given(game_index)
def test_goal_scorer_was_on_the_ice(n: int) -> None:
    for e in _games()[n]:
        if isinstance(e, GoalScored) and e.strength != "PS":
            assert e.scorer in (e.home_on_ice if e.side == "home" else e.away_on_ice)


def test_6_40_a_stint_is_a_run_of_consecutive_sequences_and_an_open_one_counts() -> None:
    """6.40 (the counting of projections/bones/toi.py): a stint is a run of consecutive
    sequences a skater is listed in; a sequence that does not list him, or a gap in the
    sequences, ends it; 1-2 sequences are half a shift, 3 or more a full one; a stint still
    running where the stream stops counts as it stands. Times are 24 s a sequence (6.10)."""
    created = _games()[0][0]
    a, b = [entry.id for entry in created.home.roster if entry.position != "G"][:2]

    def played(sequence: int, *home: str) -> SequencePlayed:
        return SequencePlayed(period=1, sequence=sequence, home=list(home), away=[],
                              home_goalie=None, away_goalie=None)

    # a: 1-3 then, after the gap at 4, 5-6 (still running); b: 1-2
    toi = build_toi([created, played(1, a, b), played(2, a, b), played(3, a), played(5, a),
                     played(6, a)])
    shifts = {(s.player, s.start, s.end, s.charge) for s in toi.shifts}
    assert shifts == {(a, 0, 72, 1.0), (a, 96, 144, 0.5), (b, 0, 48, 0.5)}
    rows = {p.player: (p.sequences, p.shifts, p.toi) for p in toi.players if p.player in (a, b)}
    assert rows == {a: (5, 1.5, 120), b: (2, 0.5, 48)}


@SETTINGS
@given(game_index)
def test_skater_and_goalie_time_adds_up(n: int) -> None:
    events = _games()[n]
    toi = build_toi(events)
    seqs = [e for e in events if isinstance(e, SequencePlayed)]
    for side in ("home", "away"):
        team = getattr(events[0], side).team_id
        rows = [p for p in toi.players if p.team == team]
        skaters = [p for p in rows if p.position != "G"]
        goalies = [p for p in rows if p.position == "G"]
        assert sum(p.toi for p in skaters) == 24 * sum(len(getattr(s, side)) for s in seqs)
        pulled = sum(getattr(s, f"{side}_goalie") is None for s in seqs)
        assert sum(p.toi for p in goalies) + 24 * pulled == 24 * len(seqs)
        for p in rows:
            assert p.toi == p.toi_ev + p.toi_pp + p.toi_sh == 24 * p.sequences
    for p in toi.players:
        if p.position == "G":
            continue
        mine = [s for s in toi.shifts if s.team == p.team and s.player == p.player]
        assert sum(s.duration for s in mine) == p.toi
        assert sum(s.charge for s in mine) == p.shifts


@SETTINGS
@given(game_index)
def test_every_penalty_ends_once_and_strength_agrees(n: int) -> None:
    events = _games()[n]
    ids = [e.id for e in events if isinstance(e, PenaltyAssessed)]
    ends = Counter(e.id for e in events if isinstance(e, PenaltyEnded))
    assert sorted(ends) == sorted(ids) and set(ends.values()) <= {1}
    report = build_penalties(events)
    assert all(p.why in ("served", "power_play_goal", "game_end") for p in report.penalties)
    assert report.running == []
    seqs = [e for e in events if isinstance(e, SequencePlayed)]
    assert len(report.sequences) == len(seqs)
    for s, label in zip(seqs, report.sequences, strict=True):
        assert label["home"] == strength_label(s.home_short, s.away_short)
        assert label["away"] == strength_label(s.away_short, s.home_short)


@settings(max_examples=8, deadline=None, derandomize=True)
@given(st.integers(0, GAMES - 1), st.integers(0, GAMES - 1))
def test_stats_of_two_games_are_the_sum(a: int, b: int) -> None:
    ga, gb = build_stats(_games()[a]), build_stats(_games()[b])
    both = combine([build_stats(_games()[a]), build_stats(_games()[b])])
    for attr in ("skaters", "goalies", "teams"):
        keys = set(getattr(ga, attr)) | set(getattr(gb, attr))
        for key in keys:
            for stat, value in getattr(both, attr)[key].items():
                assert value == (getattr(ga, attr).get(key, {}).get(stat, 0)
                                 + getattr(gb, attr).get(key, {}).get(stat, 0))


@SETTINGS
@given(game_index)
def test_stats_agree_with_scoresheet(n: int) -> None:
    events = _games()[n]
    sheet, stats = build_scoresheet(events), build_stats(events)
    for line in (sheet.home, sheet.away):
        mine = [c for (t, _), c in stats.skaters.items() if t == line.team]
        bonus = line.goals - sum(g.team == line.team for g in sheet.goals)
        assert sum(c["g"] for c in mine) == line.goals - bonus
        assert sum(c["sog"] for c in mine) == sum(line.shots)
        assert sum(c["fow"] for c in mine) == sum(line.faceoffs)
        assert stats.teams[line.team]["blocked"] == sum(line.blocked)


def test_rebuild_equals_incremental_update(tmp_path: Path) -> None:
    db = tmp_path / "rm.db"
    with open_store(db) as store:
        for n in range(3):
            simulate(store, *_matchup(n), seed=f"rm-{n}", game_id=f"r{n}")
            rm.update(store)  # one game at a time, as a league would
        assert rm.update(store) == 0  # nothing new
        simulate(store, *_matchup(3), seed="rm-3", game_id="r3")
        assert rm.update(store, ["r3"]) > 0
        incremental = rm.dump(store)
        rm.rebuild(store)
        rebuilt = rm.dump(store)
    assert incremental == rebuilt
    assert json.dumps(incremental, sort_keys=True) == json.dumps(rebuilt, sort_keys=True)
    # every table but the opt-in events-as-JSON one (and the standings: no season here)
    assert {k for k, v in rebuilt.items() if v} == {"rm_checkpoints", *rm.TABLES} - {
        "rm_events"}
    assert len(rebuilt["rm_scoresheet_games"]) == 4


@pytest.mark.parametrize("ruleset, teams", [("bones", ("HFX", "QUE")),
                                             ("faceoff2008", ("WPG", "SAS")),
                                             ("dicehockey", ("ALD", "BRK"))])
def test_every_projections_rows_as_tuples_are_its_dict_rows_column_by_column(
        ruleset: str, teams: tuple[str, str]) -> None:
    """The rows a season stores and the audit compares are made as tuples straight from
    the folds (``_TUPLE_BUILDERS``: a struct's fields read as a tuple where they are the
    columns, a count row's values by name): each table's the same rows, values and types,
    as its dict builder's (what an older layout's rows still come from) read column by
    column."""
    with open_store(":memory:") as store:
        game_id = simulate(store, *teams, seed="tuples", ruleset=ruleset).game_id
        game = rm._Game(rm.read_models(store.info(game_id).system), game_id,
                        read_game(store, game_id))
    assert set(rm._TUPLE_BUILDERS) == set(rm.PROJECTIONS)
    for projection, build in rm._TUPLE_BUILDERS.items():
        made, dicts = build(game), rm._BUILDERS[projection](game)
        for table in rm._OWNED[projection]:
            columns = list(rm.TABLES[table][1])
            # in the order _tuples stores them (each builder makes them in its own)
            expected = sorted(tuple(row[c] for c in columns) for row in dicts.get(table, []))
            assert sorted(made[table]) == expected, table
            assert [[type(v) for v in row] for row in sorted(made[table])] == \
                [[type(v) for v in row] for row in expected], table


@pytest.mark.parametrize("ruleset, teams", [("bones", ("HFX", "QUE")),
                                             ("faceoff2008", ("WPG", "SAS")),
                                             ("dicehockey", ("ALD", "BRK"))])
def test_a_games_folds_in_one_pass_give_the_rows_of_each_fold_apart(
        ruleset: str, teams: tuple[str, str]) -> None:
    """A game's stored rows fold its events once for all four folds (``ReadModels.game``,
    projections/<system>/game.py): every table the same rows, values and types, as each
    fold built on its own gives."""
    with open_store(":memory:") as store:
        game_id = simulate(store, *teams, seed="one pass", ruleset=ruleset).game_id
        system = store.info(game_id).system
        events = read_game(store, game_id)
    models = rm.read_models(system)
    apart, together = (rm._Game(models, game_id, events, together=t) for t in (False, True))
    assert together.together and not apart.together
    for build in rm._TUPLE_BUILDERS.values():
        rows, expected = build(together), build(apart)
        assert set(rows) == set(expected)
        for table, made in rows.items():
            assert made == expected[table], table
            assert [[type(v) for v in row] for row in made] == \
                [[type(v) for v in row] for row in expected[table]], table
    # what a season stores: folded together
    assert rm.game_rows(system, game_id, events) == {p: rm._tuples(p, apart)
                                                     for p in rm.PROJECTIONS}


def test_one_pass_reads_every_event_each_fold_reads() -> None:
    """The one pass's steps (projections/<system>/game.py) are for exactly the event types
    the folds' own tables read: none left out, none more."""
    from projections.bones import game as bones_game
    from projections.bones import penalties as bones_penalties
    from projections.bones import scoresheet as bones_scoresheet
    from projections.bones import stats as bones_stats
    from projections.bones import toi as bones_toi
    from projections.dicehockey import game as dice_game
    from projections.dicehockey import ice as dice_ice
    from projections.dicehockey import penalties as dice_penalties
    from projections.dicehockey import scoresheet as dice_scoresheet
    from projections.dicehockey import stats as dice_stats
    from projections.dicehockey import toi as dice_toi

    for steps, folds in ((bones_game._STEPS, (bones_scoresheet, bones_stats, bones_toi,
                                              bones_penalties)),
                         (dice_game._STEPS, (dice_ice, dice_scoresheet, dice_stats, dice_toi,
                                             dice_penalties))):
        assert set(steps) == {kind for fold in folds for kind in fold._HANDLERS}


def _rm_layouts(path: Path) -> dict[str, bool]:
    """Each rm_ table: whether it is WITHOUT ROWID."""
    db = sqlite3.connect(path)
    try:
        return {name: "WITHOUT ROWID" in sql for name, sql in db.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name GLOB 'rm_*'")}
    finally:
        db.close()


def test_read_models_are_keyed_without_rowid_and_older_ones_move_over(tmp_path: Path) -> None:
    """Each rm_ table is kept in its primary key's b-tree; a database whose read models an
    older rinklog stored (a rowid table plus an index of the key) is moved over on the next
    update: the rows copied as they are, a table of other columns folded again."""
    db = tmp_path / "rm.db"
    with open_store(db) as store:
        for n in range(2):
            simulate(store, *_matchup(n), seed=f"rm-{n}", game_id=f"r{n}")
        rm.update(store, projections=(*rm.PROJECTIONS, rm.EVENTS_JSON))
        keyed = rm.dump(store)
    assert set(_rm_layouts(db).values()) == {True} and len(_rm_layouts(db)) == 13
    raw = sqlite3.connect(db)
    for name in rm.VIEWS:
        raw.execute(f"DROP VIEW {name}")
    for name in _rm_layouts(db):  # as rinklog stored them before: rowid tables
        info = raw.execute(f"PRAGMA table_info({name})").fetchall()
        pk = [r[1] for r in sorted(info, key=lambda r: r[5]) if r[5]]
        raw.execute(f"CREATE TABLE old ({', '.join(f'[{r[1]}]' for r in info)},"
                    f" PRIMARY KEY ({', '.join(pk)}))")
        raw.execute(f"INSERT INTO old SELECT * FROM {name}")
        raw.execute(f"DROP TABLE {name}")
        raw.execute(f"ALTER TABLE old RENAME TO {name}")
    raw.execute("ALTER TABLE rm_toi_player_shifts DROP COLUMN shifts")  # other columns
    for name, sql in rm.VIEWS.items():
        raw.execute(f"CREATE VIEW {name} AS {sql}")
    raw.commit()
    raw.close()
    assert set(_rm_layouts(db).values()) == {False}
    with open_store(db) as store:
        assert rm.update(store) > 0  # the TOI folded again; the rest copied
        assert rm.dump(store) == keyed
    assert set(_rm_layouts(db).values()) == {True}
    assert main(["audit", "--all", "--db", str(db)]) == 0


# --- golden game ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def golden(tmp_path_factory) -> tuple[Path, str]:
    db = tmp_path_factory.mktemp("golden") / "golden.db"
    with open_store(db) as store:
        result = simulate(store, "HFX", "QUE", seed="golden-1")
    return db, result.game_id


def test_the_stored_columns_are_read_again_once_the_schema_changes(golden, tmp_path) -> None:
    """The comparison the audit makes reads a store's rm_ tables and columns once, and again
    once the file's schema has changed (here by another connection): a table stored
    without a column is read in the columns it has, not in those read before, and, in no
    layout a rinklog wrote, is a finding (tests/test_read_model_layouts.py)."""
    db, game_id = tmp_path / "golden.db", golden[1]
    db.write_bytes(golden[0].read_bytes())
    with open_store(db) as store:
        rm.update(store)
        events = [row.event for row in store.iter_events(game_id)]
        before = rm.stored_read_models(store, game_id)
        assert before is not None and "shifts" in before.tables["rm_toi_player_shifts"][0]
        raw = sqlite3.connect(db)
        raw.execute("DROP VIEW rm_toi_shifts")  # the view reads the column
        raw.execute("ALTER TABLE rm_toi_player_shifts DROP COLUMN shifts")
        raw.commit()
        raw.close()
        after = rm.stored_read_models(store, game_id)
        assert after is not None and "shifts" not in after.tables["rm_toi_player_shifts"][0]
        assert after.tables["rm_toi_player_shifts"][1] == [
            row[:-1] for row in before.tables["rm_toi_player_shifts"][1]]
        assert rm.stored_differences(store, game_id, events) == [
            "rm_toi_player_shifts: columns game_id, team, player are neither today's layout "
            "nor an older rinklog's"]


@pytest.fixture
def snapshot_json(snapshot):
    return snapshot.use_extension(JSONSnapshotExtension)


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", ["scoresheet", "toi", "penalties"])
def test_golden_game_snapshots(capsys, golden, snapshot_json, command: str) -> None:
    db, game = golden
    code, out, _ = _run(capsys, command, game, "--db", str(db), "--json")
    assert code == 0
    assert json.loads(out) == snapshot_json


# --- CLI ------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [["toi"], ["penalties"], ["stats"], ["projections"],
                                  ["projections", "rebuild"], ["projections", "update"]])
def test_help_has_an_example(capsys, argv: list[str]) -> None:
    code, out, _ = _run(capsys, *argv, "--help")
    assert code == 0
    assert "Example: rinklog " in out


def test_toi_json_keys(capsys, golden) -> None:
    db, game = golden
    code, out, _ = _run(capsys, "toi", game, "--db", str(db), "--json")
    assert code == 0
    data = json.loads(out)
    assert {"players", "shifts"} <= set(data)
    assert {"team", "player", "name", "position", "sequences", "shifts", "excess", "toi",
            "toi_ev", "toi_pp", "toi_sh"} <= set(data["players"][0])
    assert {"team", "player", "period", "start", "end"} <= set(data["shifts"][0])
    code, text, _ = _run(capsys, "toi", game, "--db", str(db))
    assert code == 0 and "Shifts" in text


def test_the_rm_toi_shifts_view_is_toi_json_shifts_a_row_each(capsys, golden, tmp_path) -> None:
    """A player's shifts are stored in one row (rm_toi_player_shifts); the view
    rm_toi_shifts gives back toi --json's shifts, a shift a row, with its types."""
    db = tmp_path / "golden.db"
    db.write_bytes(golden[0].read_bytes())
    code, out, _ = _run(capsys, "toi", golden[1], "--db", str(db), "--json")
    assert code == 0
    shifts = json.loads(out)["shifts"]
    assert _run(capsys, "projections", "update", "--db", str(db))[0] == 0
    raw = sqlite3.connect(db)
    packed = raw.execute("SELECT count(*) FROM rm_toi_player_shifts WHERE game_id = ?",
                         (golden[1],)).fetchone()[0]
    cursor = raw.execute("SELECT * FROM rm_toi_shifts WHERE game_id = ? ORDER BY period, "
                         "start, team, player", (golden[1],))
    columns = [d[0] for d in cursor.description]
    viewed = [dict(zip(columns, row, strict=True)) for row in cursor]
    raw.close()
    assert columns == ["game_id", "team", "player", "shift", "period", "start", "end",
                       "duration", "charge"]
    assert sorted(shifts, key=lambda s: (s["period"], s["start"], s["team"], s["player"])) \
        == [{k: v for k, v in row.items() if k != "game_id"} for row in viewed]
    assert {type(row["charge"]) for row in viewed} == {float}
    assert len({(s["team"], s["player"]) for s in shifts}) == packed < len(shifts)


def test_penalties_json_and_at(capsys, golden) -> None:
    db, game = golden
    code, out, _ = _run(capsys, "penalties", game, "--db", str(db), "--json")
    data = json.loads(out)
    assert code == 0
    assert {"penalties", "box", "running", "strength"} <= set(data)
    for p in data["penalties"]:
        assert {"id", "team", "player", "served_by", "kind", "minutes", "period", "start",
                "scheduled_end_period", "scheduled_end", "end_period", "end", "why"} <= set(p)
    first = data["penalties"][0]
    with open_store(db) as store:
        events = read_game(store, game)
    at = next(i for i, e in enumerate(events, start=1)
              if isinstance(e, PenaltyAssessed) and e.id == first["id"])
    code, out, _ = _run(capsys, "penalties", game, "--db", str(db), "--at", str(at), "--json")
    state = json.loads(out)
    assert code == 0 and state["at"] == at
    assert first["id"] in [r["id"] for r in state["running"]]
    assert set(state["strength"]) == {"home", "away"}
    assert re.fullmatch(r"\dv\d", state["strength"]["home"])
    code, text, _ = _run(capsys, "penalties", game, "--db", str(db), "--at", str(at))
    assert code == 0 and "Strength:" in text


@pytest.mark.parametrize("at", ["0", "999999"])
def test_penalties_at_out_of_range(capsys, golden, at: str) -> None:
    db, game = golden
    code, _, err = _run(capsys, "penalties", game, "--db", str(db), "--at", at)
    assert code == 1
    assert err.startswith("rinklog: error: ") and "out of range" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", ["toi", "penalties", "stats"])
def test_unknown_game(capsys, golden, command: str) -> None:
    db, _ = golden
    code, _, err = _run(capsys, command, "NO-SUCH-GAME", "--db", str(db))
    assert code == 1
    assert "NO-SUCH-GAME" in err and err.count("\n") == 1


def test_stats_json(capsys, golden) -> None:
    db, game = golden
    code, out, _ = _run(capsys, "stats", game, "--db", str(db), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == [game]
    assert {"team", "player", "gp", "g", "a", "p", "plus_minus", "pim", "sog",
            "shots_blocked", "fow", "ppp", "shp"} <= set(data["skaters"][0])
    assert {"gp", "w", "l", "otl", "sa", "sv", "ga", "sv_pct", "gaa", "so"} <= \
        set(data["goalies"][0])
    assert {"gp", "w", "l", "otl", "gf", "ga", "pp_pct", "pk_pct"} <= set(data["teams"][0])
    code, out_all, _ = _run(capsys, "stats", "--all", "--db", str(db), "--json")
    assert code == 0 and json.loads(out_all) == data
    code, _, err = _run(capsys, "stats", "--db", str(db))
    assert code == 1 and "--all" in err


def test_projections_commands(capsys, tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    with open_store(db) as store:
        simulate(store, "HFX", "WPG", seed="p-1")
    code, out, _ = _run(capsys, "projections", "update", "--db", str(db))
    assert code == 0 and re.search(r"updated: [1-9]\d* events", out)
    code, out, _ = _run(capsys, "projections", "update", "--db", str(db))
    assert code == 0 and "updated: 0 events" in out
    code, out, _ = _run(capsys, "projections", "rebuild", "--db", str(db))
    assert code == 0 and "rebuilt:" in out
    code, _, err = _run(capsys, "projections", "update", "--db", str(tmp_path / "none.db"))
    assert code == 1 and "no such database" in err


def test_strength_labels_follow_a_three_on_three_overtime():
    from engine.bones.dice import derive_roll
    from engine.dice import SeededDice
    from events.bones import SequencePlayed
    from projections.penalties import build_penalties
    from replay.games.game_streams import play_game
    from replay.systems.bones.library import default_charts, find_team

    home, away, charts = find_team("WPG"), find_team("SAS"), default_charts()
    checked = 0
    for n in range(40):
        game = play_game(setup_for(home, away, charts, overtime_skaters=3), home, away,
                         game_id=f"l{n}", dice=SeededDice(str(n), f"l{n}", derive_roll), seed=str(n))
        labels = build_penalties(game.events).to_json()["sequences"]
        played = [e for e in game.events if isinstance(e, SequencePlayed)]
        for label, seq in zip(labels, played, strict=True):
            if seq.period == 4 and seq.home_goalie and seq.away_goalie:
                assert label["home"] == f"{len(seq.home)}v{len(seq.away)}"
                checked += 1
    assert checked
