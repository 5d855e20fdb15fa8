"""A league's people and their results, end to end (issue 36, docs/web.md): coaches join,
a coach submits a game played at the table from typed dice, the other team's coach
confirms or disputes it, the commissioner settles a dispute, an unanswered result lapses
into counting; every act is a season event that the season's rules and ``rinklog audit
--all`` hold, and a result counts only by importing its audited file.

One four-team DICE Hockey league (the dicedemo league's Harbour division) is opened once
per module (``rinklog season --games 0``), its people joined, and its table games' export
files typed once; a test that writes works on its own copy of that database.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import sqlite3
import threading
import tomllib
from datetime import datetime, timedelta
from pathlib import Path

import msgspec
import pytest
import tomli_w
from forge import chained, replace_stream

from events.catalogue import ALL_EVENTS, open_store
from events.dicehockey import GoalScored
from events.errors import RinklogError
from events.formats import decoder, encoder
from events.league import SeasonCreated, SeasonGameRecorded
from events.people import (
    COACH,
    COMMISSIONER,
    ConfirmationLapsed,
    DisputeSettled,
    MemberJoined,
    ResultConfirmed,
    ResultDisputed,
    ResultSubmitted,
)
from projections.index import stream_index
from replay.cli.app import main
from replay.leagues import results
from replay.leagues.audit import audit_all
from replay.leagues.audit_people import audit_people_files
from replay.leagues.league import load_league
from replay.leagues.season_people import People, Wrong, act
from replay.leagues.transfer import ExportFile, ExportRow, ImportRefused
from replay.leagues.typed_games import typed_export

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "dicehockey" / "leagues" / "dicedemo"
TEAMS = ["ALD", "BRK", "CDV", "DRF"]
SEASON = "four-2026"
COACHES = {"ALD": "ann", "BRK": "bob", "CDV": "cat", "DRF": "dan"}
BOSS = "meg"  # the commissioner
JOINED = "2026-01-01T00:00:00+00:00"
SENT = "2026-01-02T12:00:00+00:00"  # when a result is submitted


def _at(hours: float) -> str:
    """The time ``hours`` after SENT, as the server's clock says it."""
    return (datetime.fromisoformat(SENT) + timedelta(hours=hours)).isoformat()


def _clock(at: str):
    return lambda: at


def _rolls(seed: int, n: int = 3000) -> list[str]:
    """DICE Hockey dice as typed at the table: ``red white``, two faces 0-9 (rule 1)."""
    rng = random.Random(seed)
    return [f"{rng.randrange(10)} {rng.randrange(10)}" for _ in range(n)]


class League:
    """The module's league: its folder, its database (opened, people joined) and the
    export files of its table games, typed once."""

    def __init__(self, folder: Path, db: Path, schedule: dict[int, tuple[str, str]]) -> None:
        self.folder, self.db, self.schedule = folder, db, schedule
        self.exports: dict[tuple[int, int], bytes] = {}

    def export(self, number: int, dice: int = 36) -> bytes:
        """Game ``number`` played at the table with the dice of seed ``dice``."""
        if (number, dice) not in self.exports:
            self.exports[number, dice] = typed_export(self.db, SEASON, number,
                                                      _rolls(dice + 1000 * number))
        return self.exports[number, dice]

    def game_of(self, home: str, away: str) -> int:
        return next(n for n, teams in self.schedule.items() if teams == (home, away))

    def copy(self, folder: Path) -> Path:
        path = folder / "league.db"
        shutil.copy(self.db, path)
        return path


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> League:
    root = tmp_path_factory.mktemp("people")
    folder = root / "four"
    (folder / "teams").mkdir(parents=True)
    config = tomllib.loads((FIXTURE / "league.toml").read_text())
    config.pop("playoffs")  # the draft format takes six teams; four play no postseason
    config.update(name="four", games=6, web={"confirm_hours": 48},
                  conferences=[{"name": "Coastal",
                                "divisions": [{"name": "Harbour", "teams": TEAMS}]}])
    (folder / "league.toml").write_text(tomli_w.dumps(config))
    for team in TEAMS:
        shutil.copy(FIXTURE / "teams" / f"{team.lower()}.toml", folder / "teams")
    db = root / "league.db"
    assert main(["season", "--league", str(folder), "--seed", "2026", "--games", "0",
                 "--workers", "1", "--db", str(db)]) == 0
    with open_store(db) as store:
        state = results.season_state(store, SEASON)
        for team, account in COACHES.items():
            results.join(store, SEASON, account, COACH, team, clock=_clock(JOINED))
        results.join(store, SEASON, BOSS, COMMISSIONER, "", clock=_clock(JOINED))
    assert state.created is not None
    return League(folder, db, {n: (h, a) for n, h, a in state.created.schedule})


def _version(db: Path) -> int:
    with open_store(db) as store:
        return results.season_state(store, SEASON).version


def _blob_count(db: Path) -> int:
    raw = sqlite3.connect(db)
    try:
        return raw.execute("SELECT count(*) FROM blobs").fetchone()[0]
    finally:
        raw.close()


def _standings(db: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, dict]:
    capsys.readouterr()
    assert main(["standings", "--db", str(db), "--json"]) == 0
    return {r["team"]: r for r in json.loads(capsys.readouterr().out)}


def _submit(db: Path, league: League, number: int, *, by_home: bool = True,
            dice: int = 36, at: str = SENT) -> ResultSubmitted:
    home, away = league.schedule[number]
    team = home if by_home else away
    with open_store(db) as store:
        return results.submit(store, SEASON, COACHES[team], team, league.export(number, dice),
                              clock=_clock(at))


# --- 1. submit, confirm: the game counts --------------------------------------------------

def test_a_confirmed_result_is_stored_counted_and_audits(league: League, tmp_path: Path,
                                                         capsys) -> None:
    """docs/web.md: a result "counts once the other team's coach confirms it"."""
    db = league.copy(tmp_path)
    number = league.game_of("ALD", "BRK")
    sent = _submit(db, league, number)
    game = f"{SEASON}-{number:04d}"
    with open_store(db) as store:
        assert not store.exists(game)  # submitted, waiting: not counted yet
        assert game in results.season_state(store, SEASON).people.waiting
    assert _standings(db, capsys) == {}
    with open_store(db) as store:
        results.confirm(store, SEASON, "bob", "BRK", game, clock=_clock(_at(1)))
        assert store.head_hash(game) == sent.head
        state = results.season_state(store, SEASON)
        assert state.people.accepted == {game: sent.head} and not state.people.waiting
        assert game in state.recorded
    table = _standings(db, capsys)
    assert set(table) == {"ALD", "BRK"}
    assert table["ALD"]["gp"] == table["BRK"]["gp"] == 1
    assert table["ALD"]["gf"] == table["BRK"]["ga"]
    assert main(["audit", "--all", "--db", str(db)]) == 0


# --- 2. who may act --------------------------------------------------------------------

def test_acts_for_another_team_or_by_a_stranger_are_not_yours(league: League,
                                                              tmp_path: Path) -> None:
    """docs/web.md: "a submission must come from a coach of one of the game's teams, a
    confirmation or a dispute from the other team's coach"."""
    db = league.copy(tmp_path)
    number = league.game_of("ALD", "BRK")
    data, game = league.export(number), f"{SEASON}-{number:04d}"
    version, blobs = _version(db), _blob_count(db)
    with open_store(db) as store:
        for account, team in (("cat", "CDV"),  # a coach of neither team
                              ("cat", "ALD"),  # claiming a team he does not coach
                              ("zed", "ALD")):  # no member at all
            with pytest.raises(results.NotYours):
                results.submit(store, SEASON, account, team, data, clock=_clock(SENT))
    assert (_version(db), _blob_count(db)) == (version, blobs)  # nothing written
    _submit(db, league, number)  # ann, the home coach
    version = _version(db)
    with open_store(db) as store:
        for account, team in (("ann", "ALD"),  # her own submission
                              ("ann", "BRK"),  # posing as the other team
                              ("cat", "CDV"), ("zed", "BRK")):
            with pytest.raises(results.NotYours):
                results.confirm(store, SEASON, account, team, game, clock=_clock(_at(1)))
            with pytest.raises(results.NotYours):
                results.dispute(store, SEASON, account, team, game, "no", clock=_clock(_at(1)))
        assert not store.exists(game)
    assert _version(db) == version


def test_a_second_result_of_a_game_that_waits_is_refused_as_such(league: League,
                                                               tmp_path: Path) -> None:
    """season_people.py: "one result of" a game "waiting": the other coach's file of the
    same game is refused for that, not as a season that fails its audit."""
    db = league.copy(tmp_path)
    number = league.game_of("ALD", "BRK")
    _submit(db, league, number)
    version, blobs = _version(db), _blob_count(db)
    with open_store(db) as store, pytest.raises(
            results.ActRefused, match=rf"^{SEASON}-{number:04d}: a result is waiting already$"):
        results.submit(store, SEASON, "bob", "BRK", league.export(number, dice=37),
                       clock=_clock(_at(1)))
    assert (_version(db), _blob_count(db)) == (version, blobs)


# --- 3. a forged upload ------------------------------------------------------------------

def _goal(file: ExportFile) -> tuple[int, GoalScored]:
    read = decoder(ALL_EVENTS, file.payload_format).decode
    return next((i, e) for i, e in ((i, read(r.payload)) for i, r in enumerate(file.rows))
                if isinstance(e, GoalScored))


def _another_scorer(goal: GoalScored) -> GoalScored:
    skaters = goal.home_on_ice if goal.side == "home" else goal.away_on_ice
    other = next(p for p in skaters if p != goal.scorer and p != goal.goalie)
    return msgspec.structs.replace(goal, scorer=other)


def _changed_payload(data: bytes) -> tuple[bytes, int]:
    """The file with one goal's scorer changed in its payload, its hashes left as they
    were: the seq of that event."""
    file = msgspec.msgpack.decode(data, type=ExportFile)
    i, goal = _goal(file)
    row = file.rows[i]
    rows = list(file.rows)
    rows[i] = ExportRow(row.seq, row.type, encoder(file.payload_format)(_another_scorer(goal)),
                        row.prev_hash, row.hash)
    return msgspec.msgpack.encode(msgspec.structs.replace(file, rows=rows)), row.seq


def _rehashed(data: bytes) -> tuple[bytes, int]:
    """The file with one goal's scorer changed, and everything made again to match, as a
    consistent forger would: every row's hash, the receipt's head and index, and the
    record of the game's head in the season stream the file carries (its rows re-hashed
    too): the seq changed."""
    file = msgspec.msgpack.decode(data, type=ExportFile)
    read = decoder(ALL_EVENTS, file.payload_format).decode
    events = [read(r.payload) for r in file.rows]
    i, goal = _goal(file)
    events[i] = _another_scorer(goal)
    rows = _rows(chained(events, file.payload_format))
    game = file.receipt.games[0].game
    read_season = decoder(ALL_EVENTS, file.season_payload_format).decode
    season = [read_season(r.payload) for r in file.season_rows]
    season = [msgspec.structs.replace(e, head=rows[-1].hash)
              if isinstance(e, SeasonGameRecorded) and e.game == game else e for e in season]
    entry = msgspec.structs.replace(file.receipt.games[0], head_hash=rows[-1].hash,
                                    meta=stream_index(events).meta)
    receipt = msgspec.structs.replace(file.receipt, games=[entry])
    forged = msgspec.structs.replace(file, rows=rows, receipt=receipt, season_rows=_rows(
        chained(season, file.season_payload_format)))
    return msgspec.msgpack.encode(forged), file.rows[i].seq


def _rows(stored: list) -> list[ExportRow]:
    return [ExportRow(r.seq, r.type, r.payload, r.prev_hash, r.hash) for r in stored]


@pytest.mark.parametrize("forge", [_changed_payload, _rehashed])
def test_a_forged_upload_is_refused_naming_the_audits_finding(league: League, tmp_path: Path,
                                                              forge) -> None:
    """docs/web.md: a submitted file is "audited on arrival" as `rinklog import` audits
    it; a changed scorer breaks the chain, or (re-hashed) no longer re-derives from the
    dice."""
    db = league.copy(tmp_path)
    number = league.game_of("ALD", "BRK")
    forged, seq = forge(league.export(number))
    check = "chain" if forge is _changed_payload else "rules"
    version, blobs = _version(db), _blob_count(db)
    with open_store(db) as store, pytest.raises(
            ImportRefused, match=rf"{check} check fails at event {seq}\b.*nothing written"):
        results.submit(store, SEASON, "ann", "ALD", forged, clock=_clock(SENT))
    assert (_version(db), _blob_count(db)) == (version, blobs)


def test_a_forged_counter_version_is_refused_and_the_dispute_not_written(
        league: League, tmp_path: Path) -> None:
    """A dispute's own version is audited on arrival like a submission."""
    db = league.copy(tmp_path)
    number = league.game_of("ALD", "BRK")
    sent = _submit(db, league, number)
    forged, seq = _rehashed(league.export(number, dice=37))
    version, blobs = _version(db), _blob_count(db)
    with open_store(db) as store:
        with pytest.raises(ImportRefused, match=rf"rules check fails at event {seq}\b"):
            results.dispute(store, SEASON, "bob", "BRK", sent.game, "ours", forged,
                            clock=_clock(_at(1)))
        other = league.export(league.game_of("CDV", "DRF"))
        with pytest.raises(ImportRefused, match=f"not {sent.game}"):
            results.dispute(store, SEASON, "bob", "BRK", sent.game, "ours", other,
                            clock=_clock(_at(1)))
        assert results.season_state(store, SEASON).people.waiting[sent.game].disputed is None
    assert (_version(db), _blob_count(db)) == (version, blobs)


def test_a_result_whose_file_went_missing_cannot_count_and_writes_nothing(
        league: League, tmp_path: Path) -> None:
    """results.py: a result counts by importing its file "in the same transaction as the
    act that makes it count": no file, no confirmation either; and a game counted once is
    not sent again."""
    db = league.copy(tmp_path)
    number = league.game_of("ALD", "BRK")
    sent = _submit(db, league, number)
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM blobs WHERE hash=?", (sent.export,))
    raw.commit()
    raw.close()
    version = _version(db)
    with open_store(db) as store:
        with pytest.raises(results.ActRefused, match="is missing"):
            results.confirm(store, SEASON, "bob", "BRK", sent.game, clock=_clock(_at(1)))
        assert not store.exists(sent.game)
        assert sent.game in results.season_state(store, SEASON).people.waiting
    assert _version(db) == version
    (tmp_path / "again").mkdir()
    db = league.copy(tmp_path / "again")  # counted this time
    _submit(db, league, number)
    with open_store(db) as store:
        results.confirm(store, SEASON, "bob", "BRK", sent.game, clock=_clock(_at(1)))
        with pytest.raises(RinklogError, match=f"{sent.game} is already in"):
            results.submit(store, SEASON, "bob", "BRK", league.export(number, dice=37),
                           clock=_clock(_at(2)))


# --- 4. dispute and settle ---------------------------------------------------------------

def _disputed(league: League, tmp_path: Path, *, counter: bool = True) -> tuple[Path, str, str]:
    """A copy where ann's ALD-BRK result is disputed by bob, with his own version (of
    other dice) or none: the db, the game and the counter version's head."""
    db = league.copy(tmp_path)
    number = league.game_of("ALD", "BRK")
    game = f"{SEASON}-{number:04d}"
    _submit(db, league, number)
    theirs = league.export(number, dice=37) if counter else None
    with open_store(db) as store:
        results.dispute(store, SEASON, "bob", "BRK", game, "we scored twice more", theirs,
                        clock=_clock(_at(2)))
        disputed = results.season_state(store, SEASON).people.waiting[game].disputed
    assert disputed is not None
    return db, game, str(disputed.head)


@pytest.mark.parametrize("verdict", ["disputed", "submitted"])
def test_a_settled_dispute_stores_the_version_the_commissioner_chose(
        league: League, tmp_path: Path, verdict: str) -> None:
    """events/people.py: "the ``submitted`` version counts, the ``disputed`` one (the
    disputing coach's file)"; only the commissioner settles."""
    db, game, counter = _disputed(league, tmp_path)
    with open_store(db) as store:
        submitted = results.season_state(store, SEASON).people.waiting[game].submitted
        assert counter != submitted.head  # two versions of one game
        head = counter if verdict == "disputed" else submitted.head
        for coach in ("ann", "bob"):
            with pytest.raises(results.NotYours):
                results.settle(store, SEASON, coach, game, "disputed", "", clock=_clock(_at(3)))
        with pytest.raises(results.ActRefused):  # a disputed result does not lapse either
            results.confirm(store, SEASON, "bob", "BRK", game, clock=_clock(_at(3)))
        assert not store.exists(game)
        results.settle(store, SEASON, BOSS, game, verdict, "the video", clock=_clock(_at(4)))
        assert store.head_hash(game) == head
        assert results.season_state(store, SEASON).people.accepted == {game: head}
    assert main(["audit", "--all", "--db", str(db)]) == 0


def test_a_void_dispute_stores_nothing_and_the_game_is_submitted_again(league: League,
                                                                      tmp_path: Path) -> None:
    """docs/web.md: "or neither (``void``: the game is to be played and submitted
    again)"; a dispute without a version of its own cannot be settled for it."""
    db, game, _ = _disputed(league, tmp_path, counter=False)
    with open_store(db) as store:
        with pytest.raises(results.ActRefused, match="no version of its own"):
            results.settle(store, SEASON, BOSS, game, "disputed", "", clock=_clock(_at(3)))
        results.settle(store, SEASON, BOSS, game, "void", "replay it", clock=_clock(_at(3)))
        assert not store.exists(game)
        state = results.season_state(store, SEASON)
        assert game not in state.people.waiting and game not in state.people.accepted
        number = league.game_of("ALD", "BRK")
        again = results.submit(store, SEASON, "bob", "BRK", league.export(number, dice=37),
                               clock=_clock(_at(5)))
        results.confirm(store, SEASON, "ann", "ALD", game, clock=_clock(_at(6)))
        assert store.head_hash(game) == again.head
    assert main(["audit", "--all", "--db", str(db)]) == 0


# --- 5. the confirmation window ----------------------------------------------------------

def test_an_unanswered_result_lapses_into_counting_after_the_window(league: League,
                                                                    tmp_path: Path) -> None:
    """league.toml ``[web] confirm_hours`` (48 here): a result counts "``confirm_hours``
    after it was submitted with no dispute"; a disputed one waits for the commissioner."""
    hours = load_league(league.folder).league.web.confirm_hours
    assert hours == 48
    db = league.copy(tmp_path)
    quiet, argued = league.game_of("ALD", "BRK"), league.game_of("CDV", "DRF")
    sent = _submit(db, league, quiet)
    _submit(db, league, argued)
    with open_store(db) as store:
        results.dispute(store, SEASON, "dan", "DRF", f"{SEASON}-{argued:04d}", "wrong goalie",
                        clock=_clock(_at(1)))
        assert results.lapse_due(store, SEASON, hours, clock=_clock(_at(47))) == []
        assert not store.exists(sent.game)
        assert results.lapse_due(store, SEASON, hours, clock=_clock(_at(49))) == [sent.game]
        assert store.head_hash(sent.game) == sent.head
        assert results.lapse_due(store, SEASON, hours, clock=_clock(_at(24 * 365))) == []
        state = results.season_state(store, SEASON)
        assert set(state.people.waiting) == {f"{SEASON}-{argued:04d}"}
    assert main(["audit", "--all", "--db", str(db)]) == 0


# --- 6. the audit of people's acts -------------------------------------------------------

def _season_events(db: Path) -> list:
    with open_store(db) as store:
        return [row.event for row in store.read(SEASON)]


def test_the_audit_refuses_a_confirmation_rewritten_to_another_account(
        league: League, tmp_path: Path) -> None:
    """A forger re-writes who confirmed (the chain re-hashed): the season's rules,
    folded by the audit, hold that "a confirmation" comes "from the other team's coach"."""
    db = league.copy(tmp_path)
    number = league.game_of("ALD", "BRK")
    sent = _submit(db, league, number)
    with open_store(db) as store:
        results.confirm(store, SEASON, "bob", "BRK", sent.game, clock=_clock(_at(1)))
    events = _season_events(db)
    seq, confirmed = next((s, e) for s, e in enumerate(events, start=1)
                          if isinstance(e, ResultConfirmed))
    events[seq - 1] = msgspec.structs.replace(confirmed, account="cat")
    replace_stream(db, SEASON, events, kind="season", system="league")
    with open_store(db) as store:
        failing = {r.game_id: r for r in audit_all(store) if not r.ok}
    failure = failing[SEASON].failure
    assert failure is not None and (failure.check, failure.seq) == ("season", seq)
    assert "'cat'" in failure.recorded
    assert main(["audit", "--all", "--db", str(db)]) == 1


def test_a_submitted_file_missing_from_the_blobs_is_a_finding(league: League,
                                                             tmp_path: Path) -> None:
    """audit_people.py: "every version of a game a coach submitted ... is in the
    database, as the blob its event names"."""
    db = league.copy(tmp_path)
    sent = _submit(db, league, league.game_of("ALD", "BRK"))
    seq = next(s for s, e in enumerate(_season_events(db), start=1)
               if isinstance(e, ResultSubmitted))
    with open_store(db) as store:
        assert audit_people_files(store) == []
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM blobs WHERE hash=?", (sent.export,))
    raw.commit()
    raw.close()
    with open_store(db) as store:
        (report,) = audit_people_files(store)
    assert report.game_id == SEASON and report.failure is not None
    assert (report.failure.check, report.failure.seq) == ("blobs", seq)
    assert report.failure.recorded == "no such blob"
    assert main(["audit", "--all", "--db", str(db)]) == 1


# --- 7. two acts at once -----------------------------------------------------------------

def _at_once(db: Path, acts: list) -> list[BaseException | None]:
    """Run ``acts`` (each given its own store on ``db``) in threads started together."""
    start = threading.Barrier(len(acts))
    outcome: list[BaseException | None] = [None] * len(acts)

    def run(i: int) -> None:
        with open_store(db) as store:
            start.wait()
            try:
                acts[i](store)
            except BaseException as err:  # noqa: BLE001 - reported to the test
                outcome[i] = err
    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(acts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcome


def _one_line_refusal(err: BaseException | None) -> bool:
    return err is None or (isinstance(err, RinklogError) and "\n" not in str(err))


def test_two_submissions_and_two_confirmations_at_once_never_half_write(
        league: League, tmp_path: Path) -> None:
    """results.py: "Two acts at once: the one that lost the race decides again from the
    season as it now stands (a few times), then is refused in one line"."""
    db = league.copy(tmp_path)
    numbers = league.game_of("ALD", "BRK"), league.game_of("CDV", "DRF")
    data = [league.export(n) for n in numbers]
    coaches = [("ann", "ALD", "bob", "BRK"), ("cat", "CDV", "dan", "DRF")]
    version = _version(db)
    sent = _at_once(db, [lambda store, i=i: results.submit(
        store, SEASON, coaches[i][0], coaches[i][1], data[i], clock=_clock(SENT))
        for i in range(2)])
    assert all(_one_line_refusal(err) for err in sent), sent
    landed = [i for i in range(2) if sent[i] is None]
    assert landed  # a lost race is decided again: at most one is refused
    assert _version(db) == version + len(landed)
    games = [f"{SEASON}-{n:04d}" for n in numbers]
    confirmed = _at_once(db, [lambda store, i=i: results.confirm(
        store, SEASON, coaches[i][2], coaches[i][3], games[i], clock=_clock(_at(1)))
        for i in landed])
    assert all(_one_line_refusal(err) for err in confirmed), confirmed
    counted = {games[i] for i, err in zip(landed, confirmed, strict=True) if err is None}
    assert counted
    with open_store(db) as store:
        state = results.season_state(store, SEASON)
        assert set(state.people.accepted) == counted == state.recorded
        assert {g for g in games if store.exists(g)} == counted
    assert main(["audit", "--all", "--db", str(db)]) == 0


def test_one_game_sent_by_both_coaches_and_confirmed_twice_at_once_counts_once(
        league: League, tmp_path: Path) -> None:
    """season_people.py: "one result of" a game waiting, "answered once": of two acts at
    once on one game, the one that lost the race decides again and is refused."""
    db = league.copy(tmp_path)
    number = league.game_of("ALD", "BRK")
    game, data = f"{SEASON}-{number:04d}", league.export(number)
    version = _version(db)
    sent = _at_once(db, [lambda store, coach=coach, team=team: results.submit(
        store, SEASON, coach, team, data, clock=_clock(SENT))
        for coach, team in (("ann", "ALD"), ("bob", "BRK"))])
    assert sorted(err is None for err in sent) == [False, True], sent
    loser = next(err for err in sent if err is not None)
    assert isinstance(loser, results.ActRefused) and _one_line_refusal(loser)
    assert str(loser) == f"{game}: a result is waiting already"
    assert _version(db) == version + 1
    answerer = ("bob", "BRK") if sent[0] is None else ("ann", "ALD")
    confirmed = _at_once(db, [lambda store: results.confirm(
        store, SEASON, *answerer, game, clock=_clock(_at(1)))] * 2)
    assert sorted(err is None for err in confirmed) == [False, True], confirmed
    assert all(_one_line_refusal(err) for err in confirmed)
    assert _version(db) == version + 4  # submitted, confirmed, the game's start and record
    assert main(["audit", "--all", "--db", str(db)]) == 0


# --- 8. the season travels with its people -----------------------------------------------

def test_a_season_exported_and_imported_keeps_its_people_and_files(league: League,
                                                                   tmp_path: Path) -> None:
    """A season file carries its stream "and the blobs they name" (season_transfer.py),
    the files its people sent among them: the imported season audits as the first."""
    db = league.copy(tmp_path)
    number = league.game_of("ALD", "BRK")
    sent = _submit(db, league, number)
    with open_store(db) as store:
        results.confirm(store, SEASON, "bob", "BRK", sent.game, clock=_clock(_at(1)))
    other = _submit(db, league, league.game_of("CDV", "DRF"), at=_at(2))  # still waiting
    season_file, new = tmp_path / "season.rinklog", tmp_path / "new.db"
    assert main(["export", SEASON, "-o", str(season_file), "--db", str(db)]) == 0
    assert main(["import", str(season_file), "--db", str(new)]) == 0
    assert main(["audit", "--all", "--db", str(new)]) == 0
    assert _season_events(new) == _season_events(db)
    with open_store(new) as store:
        assert store.head_hash(sent.game) == sent.head
        assert store.blob_record(sent.export) is not None
        assert store.blob_record(other.export) is not None
        assert sum(isinstance(e, MemberJoined) for e in _season_events(new)) == 5
        assert other.game in results.season_state(store, SEASON).people.waiting
        # and the season plays on there: the waiting result is confirmed from its file
        results.confirm(store, SEASON, "dan", "DRF", other.game, clock=_clock(_at(3)))
        assert store.head_hash(other.game) == other.head
    assert main(["audit", "--all", "--db", str(new)]) == 0


# --- 9. typed dice that run out ----------------------------------------------------------

def test_typed_dice_that_run_out_are_refused_in_one_line(league: League) -> None:
    """typed_games.py: "RinklogError, in one line, for rolls that ... end before the game
    does"; the league's database itself is not written."""
    before = hashlib.sha256(league.db.read_bytes()).hexdigest()
    with pytest.raises(RinklogError, match="ran out of rolls") as raised:
        typed_export(league.db, SEASON, league.game_of("ALD", "BRK"), _rolls(7, n=40))
    assert "\n" not in str(raised.value)
    assert hashlib.sha256(league.db.read_bytes()).hexdigest() == before


# --- season_people.act: the rules' worked cases, no database -----------------------------

CREATED = SeasonCreated(season_id="tiny-1", league="tiny", seed="1", charts_hash="c",
                        team_hashes={"AAA": "a", "BBB": "b", "CCC": "c"},
                        schedule=[(1, "AAA", "BBB"), (2, "CCC", "AAA")])
GAME = "tiny-1-0001"
T0 = "2026-03-01T10:00:00+00:00"


def _fold(*events, recorded: frozenset[str] = frozenset(),
          started: frozenset[str] = frozenset()) -> People | Wrong:
    people: People | Wrong = People()
    for event in events:
        assert isinstance(people, People), people
        people = act(people, CREATED, event, recorded, started)
    return people


def _members(at: str = T0) -> list:
    return [MemberJoined(account="al", role="coach", team="AAA", at=at),
            MemberJoined(account="bo", role="coach", team="BBB", at=at),
            MemberJoined(account="cy", role="coach", team="CCC", at=at),
            MemberJoined(account="mo", role="commissioner", team="", at=at)]


def _sent(at: str = T0, account: str = "al", team: str = "AAA") -> ResultSubmitted:
    return ResultSubmitted(game=GAME, number=1, account=account, team=team, export="e",
                           head="h1", at=at)


def _later(hours: float) -> str:
    return (datetime.fromisoformat(T0) + timedelta(hours=hours)).isoformat()


def test_members_join_once_one_coach_a_team_of_the_season() -> None:
    assert isinstance(_fold(*_members()), People)
    again = MemberJoined(account="al", role="coach", team="CCC", at=T0)
    second = MemberJoined(account="zz", role="coach", team="AAA", at=T0)
    stranger = MemberJoined(account="zz", role="coach", team="XXX", at=T0)
    boss_of_a_team = MemberJoined(account="zz", role="commissioner", team="AAA", at=T0)
    for wrong in (again, second, stranger, boss_of_a_team):
        assert isinstance(_fold(*_members(), wrong), Wrong), wrong


def test_a_submission_comes_from_a_coach_of_the_game_once() -> None:
    assert isinstance(_fold(*_members(), _sent()), People)
    assert isinstance(_fold(*_members(), _sent(account="bo", team="BBB")), People)
    for wrong in (_sent(account="cy", team="CCC"),  # not his game
                  _sent(account="al", team="BBB"),  # not his team
                  msgspec.structs.replace(_sent(), game="tiny-1-0002")):  # not its id
        assert isinstance(_fold(*_members(), wrong), Wrong), wrong
    assert isinstance(_fold(*_members(), _sent(), _sent(account="bo", team="BBB")), Wrong)
    assert isinstance(_fold(*_members(), _sent(), recorded=frozenset({GAME})), Wrong)
    assert isinstance(_fold(*_members(), _sent(), started=frozenset({GAME})), Wrong)


def test_only_the_other_teams_coach_answers_once() -> None:
    confirmed = ResultConfirmed(game=GAME, account="bo", team="BBB", at=T0)
    people = _fold(*_members(), _sent(), confirmed)
    assert isinstance(people, People) and people.accepted == {GAME: "h1"}
    assert not people.waiting
    own = ResultConfirmed(game=GAME, account="al", team="AAA", at=T0)
    posing = ResultConfirmed(game=GAME, account="al", team="BBB", at=T0)
    assert isinstance(_fold(*_members(), _sent(), own), Wrong)
    assert isinstance(_fold(*_members(), _sent(), posing), Wrong)
    assert isinstance(_fold(*_members(), confirmed), Wrong)  # nothing waiting
    disputed = ResultDisputed(game=GAME, account="bo", team="BBB", reason="no", at=T0)
    assert isinstance(_fold(*_members(), _sent(), disputed, confirmed), Wrong)
    half = ResultDisputed(game=GAME, account="bo", team="BBB", reason="no", at=T0, export="x")
    assert isinstance(_fold(*_members(), _sent(), half), Wrong)  # a version needs its head


def test_a_result_lapses_at_least_the_window_after_it_was_sent_undisputed() -> None:
    """season_people.py: "ConfirmationLapsed: while the result waits undisputed, at least
    ``hours`` after it was submitted"."""
    def lapsed(hours: float) -> ConfirmationLapsed:
        return ConfirmationLapsed(game=GAME, hours=48, at=_later(hours))
    assert isinstance(_fold(*_members(), _sent(), lapsed(47.99)), Wrong)
    people = _fold(*_members(), _sent(), lapsed(48))
    assert isinstance(people, People) and people.accepted == {GAME: "h1"}
    disputed = ResultDisputed(game=GAME, account="bo", team="BBB", reason="no", at=T0)
    assert isinstance(_fold(*_members(), _sent(), disputed, lapsed(1000)), Wrong)


def test_the_commissioner_settles_a_dispute() -> None:
    disputed = ResultDisputed(game=GAME, account="bo", team="BBB", reason="no", at=T0,
                              export="x", head="h2")
    bare = ResultDisputed(game=GAME, account="bo", team="BBB", reason="no", at=T0)

    def settled(verdict: str, account: str = "mo") -> DisputeSettled:
        return DisputeSettled(game=GAME, account=account, verdict=verdict, note="", at=T0)  # type: ignore[arg-type]
    cases = {"submitted": "h1", "disputed": "h2"}
    for verdict, head in cases.items():
        people = _fold(*_members(), _sent(), disputed, settled(verdict))
        assert isinstance(people, People) and people.accepted == {GAME: head}
    void = _fold(*_members(), _sent(), disputed, settled("void"))
    assert isinstance(void, People) and not void.accepted and not void.waiting
    assert isinstance(_fold(*_members(), _sent(), disputed, settled("void"), _sent()), People)
    assert isinstance(_fold(*_members(), _sent(), disputed, settled("submitted", "al")), Wrong)
    assert isinstance(_fold(*_members(), _sent(), bare, settled("disputed")), Wrong)
    assert isinstance(_fold(*_members(), _sent(), settled("submitted")), Wrong)  # no dispute


def test_every_act_is_dated_no_earlier_than_the_one_before() -> None:
    assert isinstance(_fold(*_members(), _sent(at="2026-02-28T10:00:00+00:00")), Wrong)
    assert isinstance(_fold(*_members(), _sent(at="yesterday")), Wrong)
    assert isinstance(_fold(*_members(), _sent(at="2026-03-02T10:00:00")), Wrong)  # no zone


def test_an_act_is_dated_in_utc_so_no_other_offset_can_date_it_earlier() -> None:
    """season_people.py: "Every act's time is no earlier than the act before it", and
    events/people.py: "``at`` is when, in UTC (ISO 8601, seconds)". 11:00 at +02:00 is
    09:00 UTC, an hour before the members joined at 10:00 UTC."""
    assert isinstance(_fold(*_members(), _sent(at="2026-03-01T11:00:00+02:00")), Wrong)
    assert isinstance(_fold(*_members(), _sent(at="2026-03-01T12:00:00+02:00")), Wrong)
    assert isinstance(_fold(*_members(), _sent(at="2026-03-01T10:00:00.5+00:00")), Wrong)
    assert isinstance(_fold(*_members(), _sent(at="2026-03-01T10:00:01+00:00")), People)
