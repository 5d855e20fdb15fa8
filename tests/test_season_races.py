"""Two commands that change one season at once (issue 32): the season stream is appended
from one module (replay/leagues/season_stream.py), with the version each command decided
from, so the one that loses the race is refused in one line and writes nothing, and the
season audits clean whichever won.

The race is made certain here: the other command runs whole after this one has read the
season and decided, right before it writes. Before issue 32,
``rinklog playoffs S`` and ``rinklog lottery S --draw`` run so both opened the playoffs and
exited 0, and ``audit --all`` failed from then on at the second ``PlayoffsOpened``."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from events.postseason import PlayoffsOpened
from events.store import EventStore
from replay.cli.app import main
from replay.games.game_streams import open_store
from replay.leagues.season_stream import SeasonStream

DEMO = Path(__file__).resolve().parents[1] / "fixtures" / "dicehockey" / "leagues" / "dicedemo"
SEASON = "dicedemo-7"
REFUSED = re.compile(rf"rinklog: error: season {SEASON} changed while this ran \(version "
                     r"(\d+), now (\d+)\): nothing written; run it again")


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short DICE Hockey season, its regular season played whole."""
    root = tmp_path_factory.mktemp("races")
    league = root / "mini"
    shutil.copytree(DEMO, league)
    toml = league / "league.toml"
    toml.write_text(toml.read_text().replace("games = 82", "games = 2"))
    db = root / "full.db"
    assert main(["season", "--league", str(league), "--seed", "7", "--workers", "1",
                 "--db", str(db)]) == 0
    return db


@pytest.fixture
def db(full: Path, tmp_path: Path) -> Path:
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{full}{suffix}").exists():
            shutil.copy(f"{full}{suffix}", tmp_path / f"s.db{suffix}")
    return tmp_path / "s.db"


def race(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         first: list[str], second: list[str]) -> tuple[int, int, str]:
    """Run ``first``; when it has decided and is about to write (its first transaction,
    or its first season append outside one), ``second`` runs start to end. The exit
    codes of both, and what ``first`` printed on stderr."""
    transaction, append = EventStore.transaction, SeasonStream._append
    other: list[int] = []

    def the_other_command_first() -> None:
        if not other:
            other.append(-1)  # its own writes go ahead untouched
            other[0] = main(second)
            capsys.readouterr()

    def transaction_after_the_other(store: EventStore):  # type: ignore[no-untyped-def]
        if not store.connection.in_transaction:
            the_other_command_first()
        return transaction(store)

    def append_after_the_other(stream: SeasonStream, *how):  # type: ignore[no-untyped-def]
        if not stream.store.connection.in_transaction:
            the_other_command_first()
        return append(stream, *how)

    monkeypatch.setattr(EventStore, "transaction", transaction_after_the_other)
    monkeypatch.setattr(SeasonStream, "_append", append_after_the_other)
    code = main(first)
    monkeypatch.undo()
    assert other, "the other command never ran: the first wrote nothing"
    return code, other[0], capsys.readouterr().err


def audits_clean(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "--all", "--db", str(db)]) == 0, capsys.readouterr()
    assert main(["receipt", "--season", SEASON, "--db", str(db)]) == 0, capsys.readouterr()
    capsys.readouterr()


def season_events(db: Path) -> list:
    with open_store(db) as store:
        return [row.event for row in store.read(SEASON)]


@pytest.mark.parametrize(("first", "second"), [
    (["playoffs", SEASON, "--ready"], ["lottery", SEASON, "--draw"]),
    (["lottery", SEASON, "--draw"], ["playoffs", SEASON, "--ready"]),
    (["lottery", SEASON, "--draw"], ["lottery", SEASON, "--draw"]),
    (["playoffs", SEASON, "--ready"], ["playoffs", SEASON, "--ready"]),
])
def test_the_command_that_lost_the_race_is_refused_in_one_line_and_writes_nothing(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db: Path,
        first: list[str], second: list[str]) -> None:
    before = season_events(db)
    code, other, err = race(monkeypatch, capsys, [*first, "--db", str(db)],
                            [*second, "--db", str(db)])
    assert other == 0  # the command that ran whole applied
    won = season_events(db)
    assert len(won) > len(before)
    # the one that lost: one line naming the versions, nothing written
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1 and REFUSED.fullmatch(lines[0]), err
    read, now = map(int, REFUSED.fullmatch(lines[0]).groups())
    assert (read, now) == (len(before), len(won))
    assert season_events(db) == won
    assert sum(isinstance(e, PlayoffsOpened) for e in won) == 1
    audits_clean(db, capsys)
    # run again, as the line says: it applies now (or says why it has nothing to do)
    assert main([*first, "--db", str(db)]) in (0, 1)
    capsys.readouterr()
    assert sum(isinstance(e, PlayoffsOpened) for e in season_events(db)) == 1
    assert main(["audit", "--all", "--db", str(db)]) == 0, capsys.readouterr()


def test_odds_recorded_onto_a_season_that_moved_on_are_refused(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], db: Path) -> None:
    code, other, err = race(monkeypatch, capsys,
                            ["odds", SEASON, "--runs", "4", "--record", "--workers", "1",
                             "--db", str(db)],
                            ["playoffs", SEASON, "--ready", "--db", str(db)])
    assert (code, other) == (1, 0)
    assert REFUSED.fullmatch(err.strip()), err
    assert not any(type(e).__name__ == "OddsRecorded" for e in season_events(db))
    audits_clean(db, capsys)
