"""Matrix Hockey seasons in the store: a whole 84-team demo season (all three
competitions, closed, the next one opened), the audit and what it catches, replay, the
tools (events, explain, export/import, games), and a snapshot of a small season."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from syrupy.extensions.json import JSONSnapshotExtension

from engine.matrix.dice import SeededDie, derive_die
from engine.matrix.recheck import fold, recheck
from engine.matrix.referee import close_season, open_season, play_week
from engine.matrix.state import evolve
from events.catalogue import open_store
from events.formats import JSON, decoder, encoder
from events.matrix import (
    BonusDrawn,
    ClosingStarted,
    DieRolled,
    GamePlayed,
    Pick,
    PicksSent,
    RefereeDrawsEntered,
    SeasonClosed,
    SeasonOpened,
    WeekEnded,
    WeekStarted,
)
from replay.cli.app import main
from replay.leagues.audit import audit_all, audit_game
from replay.leagues.matrix import season as library
from replay.leagues.matrix.demo import run_demo_season
from replay.leagues.season_receipts import season_receipt
from tests.forge import audit_forged


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[Path, str, str]:
    db = tmp_path_factory.mktemp("matrix") / "demo.db"
    with open_store(db) as store:
        season = library.open_league(store, "demo", "2026")
        nxt = run_demo_season(store, season, "2026")
    return db, season, nxt


# How fast is `make bench`'s (tests/bench/bench_matrix.py), never a timed assertion here.
def test_a_whole_demo_season_runs_closes_and_reopens(demo) -> None:
    db, season, nxt = demo
    with open_store(db, create=False) as store:
        state = library.load(store, season).state
        competitions = {g.competition for g in state.results}
        assert competitions == {"championship", "kdh", "wg"}
        assert len(state.results) == 7 * 66 + 83 + 40  # championship, KDH, WG
        closed = state.closed
        assert closed is not None and closed.next_season == nxt
        assert len(closed.promoted) == len(closed.relegated) == 12
        opened = store.read(nxt, 1, 1)[0].event
        assert isinstance(opened, SeasonOpened)
        assert (opened.previous, opened.previous_head) == (season, store.head_hash(season))
        allowance = {a.team: (a.extra_goals, a.great_saves) for a in closed.allowances}
        assert {e.id: (e.extra_goals, e.great_saves) for _, _, _, teams in opened.divisions
                for e in teams} == allowance
        assert store.info(season).meta["closed"] is True


def test_the_demo_season_and_the_next_audit_clean(demo) -> None:
    db, season, nxt = demo
    with open_store(db, create=False) as store:
        reports = audit_all(store)
    assert [(r.game_id, r.ok, r.kind) for r in reports] == [
        (season, True, "matrix_season"), (nxt, True, "matrix_season")]
    assert reports[0].seeded_rolls > 300


def _small_season(seed: str, weeks: int = 3) -> list:
    with open_store(":memory:") as store:
        season = library.open_league(store, "example", seed)
        from replay.leagues.matrix.demo import demo_picks

        for week in range(1, weeks + 1):
            loaded = library.load(store, season)
            library.record(store, loaded, season, demo_picks(loaded.state, week, seed, 0.1))
            library.play(store, season, week)
        return [row.event for row in store.read(season)]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text("abcdefgh0123", min_size=1, max_size=6), which=st.integers(0, 10_000),
       column=st.sampled_from("ABCDEFGHIJK"))
def test_replaying_reproduces_the_season_and_a_changed_pick_is_caught(seed, which, column) -> None:
    events = _small_season(seed)
    assert recheck(events) is None
    state = fold(events)
    assert [g.winner for g in state.results] == [g.winner for g in events
                                                 if type(g).__name__ == "GamePlayed"]
    picks = [i for i, e in enumerate(events) if isinstance(e, PicksSent)]
    i = picks[which % len(picks)]
    sent = events[i]
    first = sent.picks[0]
    if first.column == column:
        column = "A" if column != "A" else "B"
    forged = list(events)
    forged[i] = msgspec.structs.replace(
        sent, picks=[msgspec.structs.replace(first, column=column), *sent.picks[1:]])
    report = audit_forged(None, events[0].season_id, forged)  # re-hashed, index re-derived
    assert not report.ok and report.failure.check == "rules"
    assert report.failure.seq > i


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.text("abcdefgh0123", min_size=1, max_size=6), which=st.integers(0, 10_000))
def test_a_changed_draw_is_caught(seed, which) -> None:
    events = _small_season(seed)
    dice = [i for i, e in enumerate(events) if isinstance(e, DieRolled)]
    i = dice[which % len(dice)]
    die = events[i]
    forged = list(events)
    forged[i] = msgspec.structs.replace(die, face=die.face % die.faces + 1)
    report = audit_forged(None, events[0].season_id, forged)
    assert not report.ok and report.failure.check == "dice" and report.failure.seq == i + 1
    # typed at the table instead, the changed die does not follow from the table's draws
    # (or changes what follows)
    forged[i] = msgspec.structs.replace(die, face=die.face % die.faces + 1, seeded=False)
    report = audit_forged(None, events[0].season_id, forged)
    assert not report.ok and report.failure.check == "rules"


def test_a_pick_changed_in_the_database_breaks_the_chain(capsys, tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    season = run(capsys, "matrix", "open", "--league", "example", "--seed", "x",
                 "--db", str(db))[1].strip()
    picks = tmp_path / "p.toml"
    picks.write_text('[snowmen]\ncolumn = "I"\nextra_time = 3\n', encoding="utf-8")
    run(capsys, "matrix", "picks", season, str(picks), "--week", "1", "--db", str(db))
    run(capsys, "matrix", "play", season, "--week", "1", "--db", str(db))
    with sqlite3.connect(db) as con:
        seq, payload, format = con.execute(
            "SELECT e.seq, e.payload, s.format FROM event_rows e JOIN streams s USING (stream)"
            " WHERE e.type = 'matrix.PicksSent'").fetchone()
        assert format == JSON and isinstance(payload, str)  # event_rows shows JSON as text
        event = decoder(PicksSent, format).decode(payload.encode())
        changed = msgspec.structs.replace(event, picks=[Pick("championship", "A", "3")])
        con.execute("UPDATE events SET payload = ? WHERE seq = ? AND stream_key = "
                    "(SELECT key FROM streams WHERE stream = ?)",
                    (encoder(format)(changed), seq, season))
    code, out, _ = run(capsys, "audit", season, "--db", str(db))
    assert code == 1 and "chain" in out


def test_events_explain_replay_games_export_import_on_a_season(capsys, demo, tmp_path) -> None:
    db, season, _ = demo
    code, out, _ = run(capsys, "events", season, "--json", "--db", str(db))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and rows[0]["type"] == "matrix.SeasonOpened"
    seq = next(r["seq"] for r in rows if r["type"] == "matrix.GamePlayed")
    code, out, _ = run(capsys, "explain", season, str(seq), "--json", "--db", str(db))
    assert code == 0 and "row" in json.loads(out)["explanation"]
    code, out, _ = run(capsys, "replay", season, "--db", str(db))
    assert code == 0 and "rules ok" in out
    code, out, _ = run(capsys, "games", "--json", "--db", str(db))
    assert {r["game_id"] for r in json.loads(out)} >= {season}
    file = tmp_path / "season.rinklog"
    assert run(capsys, "export", season, "-o", str(file), "--db", str(db))[0] == 0
    code, out, _ = run(capsys, "import", str(file), "--db", str(tmp_path / "other.db"))
    assert code == 0 and "audit ok" in out
    with open_store(tmp_path / "other.db", create=False) as store:
        assert audit_game(store, season).ok
        assert [s.stream for s in store.streams()] == [season]


def test_read_commands_write_nothing(capsys, demo) -> None:
    db, season, nxt = demo
    def snapshot() -> tuple:
        with sqlite3.connect(db) as con:
            return (con.execute("SELECT * FROM streams").fetchall(),
                    con.execute("SELECT count(*), max(hash) FROM events").fetchall(),
                    con.execute("SELECT name FROM sqlite_master").fetchall())

    before = snapshot()
    for argv in (["results", season, "--json"], ["standings", season, "--division", "elite"],
                 ["teams", nxt], ["cups", season, "--json"]):
        assert run(capsys, "matrix", *argv, "--db", str(db))[0] == 0
    assert snapshot() == before


def test_standings_and_results_json_keys(capsys, demo) -> None:
    db, season, _ = demo
    _, out, _ = run(capsys, "matrix", "standings", season, "--json", "--db", str(db))
    rows = json.loads(out)
    assert len(rows) == 84 and {"team", "division", "points"} <= set(rows[0])
    _, out, _ = run(capsys, "matrix", "results", season, "--week", "7", "--json", "--db", str(db))
    results = json.loads(out)
    assert {r["competition"] for r in results} == {"championship", "kdh", "wg"}
    assert {r["decided"] for r in results} <= {"REG", "AP", "DRAW", "SO", "GROUP", "DIE",
                                               "FORFEIT"}
    assert {"competition", "week", "home", "away", "score", "decided"} <= set(results[0])


def test_3_1_5_standings_gp_is_w_d_l_otl_counted_from_the_games(capsys, demo) -> None:
    """Issue 34 item 4: "GP = W + L + OTL, as an NHL reader expects" (and D, Matrix
    Hockey's draws, 3.1.2: "the game end in a draw"): L is the losses in regular time,
    OTL those in extra time (3.1.5: "a game lost in extra time gives 1 point ; a game lost
    in regular time gives 0 point"), each counted here from the season's GamePlayed."""
    db, season, _ = demo
    counted: dict[str, dict[str, int]] = {}
    with open_store(db) as store:
        games = [row.event for row in store.read(season)
                 if isinstance(row.event, GamePlayed) and row.event.competition == "championship"]
    for g in games:
        for team in (g.home.team, g.away.team):
            line = counted.setdefault(team, dict.fromkeys(("gp", "w", "d", "l", "otl"), 0))
            line["gp"] += 1
            if g.winner == team:
                line["w"] += 1
            elif not g.winner:
                line["d"] += 1
            else:
                line["otl" if g.decided == "AP" else "l"] += 1
    assert any(line["otl"] for line in counted.values())
    _, out, _ = run(capsys, "matrix", "standings", season, "--json", "--db", str(db))
    rows = json.loads(out)
    assert {r["team"]: {"gp": r["played"], "w": r["wins"], "d": r["draws"], "l": r["losses"],
                        "otl": r["extra_time_losses"]} for r in rows} == counted
    assert all(r["played"] == r["wins"] + r["draws"] + r["losses"] + r["extra_time_losses"]
               for r in rows)
    _, text, _ = run(capsys, "matrix", "standings", season, "--db", str(db))
    first = rows[0]
    line = next(line for line in text.splitlines() if first["name"] in line).split()
    gp, w, _, d, lost, otl = (int(x) for x in line[-11:-5])
    assert gp == w + d + lost + otl == first["played"] and lost == first["losses"]


def test_standings_last_ten_and_streak_counted_from_the_games(capsys, demo) -> None:
    """NHL.com's L10 (W-L-OTL of the last ten games) and STRK (the latest result and how
    many in a row), counted here from the season's championship GamePlayed in the order
    played: a draw (3.1.2) shown as -D after them and "D" in a streak, an extra-time loss
    (3.1.5) as OTL and "OT"."""
    db, season, _ = demo
    with open_store(db) as store:
        games = [row.event for row in store.read(season)
                 if isinstance(row.event, GamePlayed) and row.event.competition == "championship"]
    played: dict[str, list[str]] = {}
    for g in games:
        for team in (g.home.team, g.away.team):
            result = ("D" if not g.winner else "W" if g.winner == team
                      else "OT" if g.decided == "AP" else "L")
            played.setdefault(team, []).append(result)
    expected = {}
    for team, results in played.items():
        last = results[-10:]
        l10 = f"{last.count('W')}-{last.count('L')}-{last.count('OT')}"
        if "D" in last:
            l10 += f"-{last.count('D')}"
        run_of = 0
        for result in reversed(results):
            if result != results[-1]:
                break
            run_of += 1
        expected[team] = (l10, f"{results[-1]}{run_of}")
    _, out, _ = run(capsys, "matrix", "standings", season, "--json", "--db", str(db))
    rows = json.loads(out)
    assert {r["team"]: (r["last10"], r["streak"]) for r in rows} == expected
    assert any(l10.count("-") == 3 for l10, _ in expected.values())  # a draw among some last ten
    _, text, _ = run(capsys, "matrix", "standings", season, "--db", str(db))
    first = rows[0]
    line = next(line for line in text.splitlines() if first["name"] in line).split()
    assert line[-2:] == list(expected[first["team"]])


def test_a_season_receipt_digests_the_standings_as_before_issue_34() -> None:
    """A receipt issued before L became regular time's losses (issue 34 item 4) still
    holds the season: its standings digest, taken with this code before the change."""
    with open_store(":memory:") as store:
        season = library.open_league(store, "example", "snapshot-1")
        run_demo_season(store, season, "snapshot-1")
        rows = library.standings(store, season)
        digest = season_receipt(store, season).standings_digest
    assert any(r["extra_time_losses"] for r in rows)  # the rows shown did change
    assert digest == "9c75d29fbc165aa529f0e73d292c342a69dccaec7a43e87fadd71870631103f9"


def test_a_closed_season_is_closed_once(capsys, demo) -> None:
    db, season, _ = demo
    code, _, err = run(capsys, "matrix", "close", season, "--db", str(db))
    assert code == 1 and "already closed" in err and err.count("\n") == 1


def test_a_small_seeded_season_snapshot(snapshot) -> None:
    with open_store(":memory:") as store:
        season = library.open_league(store, "example", "snapshot-1")
        nxt = run_demo_season(store, season, "snapshot-1")
        results = library.results(store, season)
        closed = library.load(store, season).state.closed
        head = store.head_hash(season)
    assert isinstance(closed, SeasonClosed) and nxt.endswith("-s2")
    assert results == snapshot(extension_class=JSONSnapshotExtension)
    assert head == snapshot(name="head_hash")


def test_a_next_season_that_does_not_follow_from_the_closed_one_is_caught(demo, tmp_path) -> None:
    db, season, nxt = demo
    copy = tmp_path / "copy.db"
    with open_store(db, create=False) as store, open_store(copy) as other:
        info = store.info(season)
        other.append_encoded(season, [(r.type, r.payload) for r in store.raw_rows(season)], 0,
                             kind=info.kind, system=info.system, meta=info.meta)
        events = [r.event for r in store.read(nxt)]
    opened = events[0]
    name, title, level, teams = opened.divisions[0]
    richer = [msgspec.structs.replace(teams[0], extra_goals=teams[0].extra_goals + 5),
              *teams[1:]]
    forged = msgspec.structs.replace(opened, divisions=[(name, title, level, richer),
                                                        *opened.divisions[1:]])
    with open_store(copy) as other:
        # the forger opens the season from the forged first event: its draws follow from
        # it, so only the lineage check can tell
        library._open(other, forged)
        report = audit_game(other, nxt)
    assert not report.ok and report.failure.check == "season" and report.failure.seq == 1


class _TypedOver:
    """A forger's dice: die ``n`` 'typed at the table' with another face, the rest seeded."""

    def __init__(self, created: SeasonOpened, n: int, face: int) -> None:
        self.created, self.n, self.face = created, n, face

    def roll(self, n: int, faces: int, purpose: str) -> tuple[int, bool]:
        if n == self.n:
            return self.face, False
        return derive_die(self.created.seed, self.created.season_id, n, faces), True


def _rebuilt(events: list, source) -> list:
    """The season re-refereed from its picks and tables with ``source``'s dice: every
    event downstream of a changed die consistent with it (what a forger would write)."""
    created = events[0]
    out = open_season(created, source)
    state = fold(out)
    i = len(out)
    while i < len(events):
        event = events[i]
        end: type = type(event)
        if isinstance(event, WeekStarted):
            decided, end = play_week(state, event.week, source), WeekEnded
        elif isinstance(event, ClosingStarted):
            decided, end = close_season(state, source), SeasonClosed
        else:
            decided = [event]
        for e in decided:
            evolve(state, e)
        out += decided
        while not isinstance(events[i], end):  # the command's old events
            i += 1
        i += 1
    return out


def test_a_seeded_die_relabelled_typed_at_the_table_is_named_by_its_seq() -> None:
    """docs/matrix.md: an unseeded die must match an entry of its week's [referee] table
    (bonus, ONR, X); the Elite bonus of week 1 moved to another team by a die relabelled
    "typed at the table", the season rebuilt from it and the chain re-hashed, is caught
    at that die."""
    events = _small_season("hole1")
    bonus = next(e for e in events if isinstance(e, BonusDrawn) and e.week == 1)
    seq = next(i for i, e in enumerate(events, 1) if isinstance(e, DieRolled)
               and e.n == bonus.rolls[0])
    die = events[seq - 1]
    forged = _rebuilt(events, _TypedOver(events[0], die.n, die.face % die.faces + 1))
    moved = forged[seq - 1]
    assert not moved.seeded and moved.value != die.value
    assert next(e for e in forged if isinstance(e, BonusDrawn)).team == moved.value
    assert sum(1 for a, b in zip(events, forged, strict=False) if a != b) > 1  # downstream too
    report = audit_forged(None, events[0].season_id, forged)
    assert not report.ok and report.failure.check == "rules"
    assert report.failure.seq == seq and "[referee]" in report.failure.expected
    # the same die typed at the table through a [referee] table entered for the week passes
    i = next(i for i, e in enumerate(events) if isinstance(e, WeekStarted) and e.week == 1)
    table = RefereeDrawsEntered(1, {bonus.division: moved.value}, {}, {})
    honest = _rebuilt([*events[:i], table, *events[i:]], SeededDie(events[0].seed,
                                                                    events[0].season_id))
    assert next(e for e in honest if isinstance(e, BonusDrawn)).team == moved.value
    assert audit_forged(None, events[0].season_id, honest).ok


def test_the_waiting_list_commands_and_a_dummy_s_slot_handed_on_audit_clean(capsys,
                                                                           tmp_path) -> None:
    """3.1.3: ``matrix wait`` names teams on the waiting list; ``matrix replace`` puts the
    first in the place of a new team ONR in week 1; a dummy's slot goes to the next at the
    close. Both seasons pass the audit (the referee re-decides each of these events)."""
    db = ["--db", str(tmp_path / "w.db")]
    season = run(capsys, "matrix", "open", "--league", "example", "--seed", "w", *db)[1].strip()
    for team_id, name in (("late-comers", "Late Comers"), ("early-birds", "Early Birds")):
        assert run(capsys, "matrix", "wait", season, "--id", team_id, "--name", name, *db)[0] == 0
    code, _, err = run(capsys, "matrix", "wait", season, "--id", "snowmen", "--name", "X", *db)
    assert code == 1 and err.count("\n") == 1 and "snowmen" in err
    from replay.leagues.matrix.demo import demo_picks

    with open_store(tmp_path / "w.db", create=False) as store:
        for week in range(1, 12):
            loaded = library.load(store, season)
            sent = [s for s in demo_picks(loaded.state, week, "w", 0.0)
                    if not (week <= 3 and s.team == "snowmen")
                    and not (week == 1 and s.team == "cyberians")]
            library.record(store, loaded, season, sent)
            library.play(store, season, week)
            if week == 1:
                assert library.replace_new_team(store, season, "cyberians") == "Late Comers"
    code, _, err = run(capsys, "matrix", "replace", season, "cyberians", *db)
    assert code == 1 and err.count("\n") == 1 and "cyberians" in err
    code, nxt, _ = run(capsys, "matrix", "close", season, *db)
    assert code == 0
    with open_store(tmp_path / "w.db", create=False) as store:
        opened = store.read(nxt.strip(), 1, 1)[0].event
        reports = audit_all(store)
    teams = {e.id: e for _, _, _, entries in opened.divisions for e in entries}
    assert "snowmen" not in teams and not teams["early-birds"].dummy
    assert teams["cyberians"].name == "Late Comers"  # the slot kept its id
    assert [(r.ok, r.failure) for r in reports] == [(True, None), (True, None)]
    _, out, _ = run(capsys, "events", season, "--json", *db)
    seq = next(e["seq"] for e in map(json.loads, out.splitlines())
               if e["type"] == "matrix.SlotHandedOn")
    code, out, _ = run(capsys, "explain", season, str(seq), *db)
    assert code == 0 and "till the end of the season" in out and "Early Birds" in out
