"""The season as one aggregate (issue 32): the rules of what a season stream may record
(replay/leagues/season.py) are folded by the writer before it appends and by the audit
over the stored stream, the same code both ways. A command can write nothing the audit
would refuse: it is refused in one line and writes nothing; the same events forced into
the stream past the writer are what the audit names, with the same words."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.league import SeasonGameRecorded, SeasonTableGameStarted
from replay.cli.app import main
from replay.games.game_streams import open_store
from replay.leagues.audit_season import season_stream
from replay.leagues.season import SeasonRefused, SeasonState, fold
from replay.leagues.season_stream import SeasonChanged, SeasonStream

SEASON = "demo-1"
HEAD = "ab" * 32


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("aggregate") / "season.db"
    assert main(["season", "--games", "4", "--workers", "1", "--db", str(db)]) == 0
    return db


def _events(db: Path) -> list:
    with open_store(db) as store:
        return [row.event for row in store.read(SEASON)]


# each a season event the season's rules refuse after the four games recorded, and the
# words the audit's own check (the ledger's) gives for it
REFUSED = [
    (SeasonGameRecorded(game=f"{SEASON}-0002", number=2, mode="simulated", head=HEAD),
     "demo-1-0002 recorded once", "a second record"),
    (SeasonGameRecorded(game=f"{SEASON}-0009", number=9, mode="table", head=HEAD),
     "demo-1-0009 marked started at the table before it is recorded as a table game",
     "no SeasonTableGameStarted"),
    (SeasonTableGameStarted(game=f"{SEASON}-0003", number=3),
     "demo-1-0003 started at the table once, before it is recorded", "a second start"),
    (SeasonGameRecorded(game="demo-1-9999", number=9999, mode="simulated", head=HEAD),
     "a game of the schedule of demo-1 under its own id", "game 'demo-1-9999', number 9999"),
]


@pytest.mark.parametrize(("event", "expected", "recorded"), REFUSED)
def test_the_writer_refuses_what_the_audit_refuses_in_the_same_words(
        played: Path, tmp_path: Path, event, expected: str, recorded: str) -> None:
    db = tmp_path / "s.db"
    db.write_bytes(played.read_bytes())
    with open_store(db) as store:
        before = store.version(SEASON)
        with pytest.raises(SeasonRefused) as refused, store.transaction():
            SeasonStream.at(store, SEASON).append([event])
        assert store.version(SEASON) == before  # nothing written
    assert (refused.value.finding.expected, refused.value.finding.recorded) == (expected,
                                                                                recorded)
    assert "\n" not in str(refused.value) and "nothing written" in str(refused.value)
    # forced in past the writer (a forger re-hashing the chain writes the same rows)
    with open_store(db) as store:
        store.append(SEASON, [event], before)
    found = season_stream(_events(db))
    assert found is not None and found.seq == before + 1
    assert (found.expected, found.recorded) == (expected, recorded)
    assert main(["audit", "--all", "--db", str(db)]) == 1


def test_what_the_writer_accepts_the_audit_accepts(played: Path, tmp_path: Path) -> None:
    """A table game's start and record, appended one command at a time, fold onto the
    state the writer read, and the stored stream audits as the writer folded it."""
    db = tmp_path / "s.db"
    db.write_bytes(played.read_bytes())
    with open_store(db) as store:
        start = SeasonStream.at(store, SEASON)
        state = start.state()
        assert isinstance(state, SeasonState) and len(state.recorded) == 4
        start.append([SeasonTableGameStarted(game=f"{SEASON}-0005", number=5)])
        end = SeasonStream.at(store, SEASON)
        end.append([SeasonGameRecorded(game=f"{SEASON}-0005", number=5, mode="table",
                                       head=HEAD)])
        assert end.state() == fold(_events(db))
        assert f"{SEASON}-0005" in end.state().recorded  # type: ignore[union-attr]
    assert season_stream(_events(db)) is None


def test_a_refused_command_says_one_line(played: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A command whose season events the rules refuse (here a season run made to record a
    game twice) exits 1 with one line, and the season still audits clean."""
    db = tmp_path / "s.db"
    db.write_bytes(played.read_bytes())
    append = SeasonStream.append

    def twice(stream: SeasonStream, events):  # type: ignore[no-untyped-def]
        return append(stream, [*events, *events])

    monkeypatch.setattr(SeasonStream, "append", twice)
    assert main(["season", "--games", "6", "--workers", "1", "--db", str(db)]) == 1
    monkeypatch.undo()
    err = capsys.readouterr().err.strip().splitlines()
    # seq 7 is game 5's record (2 opening events, 4 records), seq 8 the same again
    assert err == ["rinklog: error: season demo-1: SeasonGameRecorded refused at seq 8: "
                   "expected demo-1-0005 recorded once, got a second record (season ledger); "
                   "nothing written"]
    assert main(["audit", "--all", "--db", str(db)]) == 0


def test_a_table_game_started_twice_at_once_is_refused_in_one_line(
        played: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two ``play --season S --game 5`` at once: the one that writes second finds the game
    stored and is refused in one line naming how to resume it; the season marks it once."""
    from events.store import EventStore
    from replay.leagues.runner import table_game

    db = tmp_path / "s.db"
    db.write_bytes(played.read_bytes())
    transaction, other = EventStore.transaction, []

    def the_other_first(store: EventStore):  # type: ignore[no-untyped-def]
        if not other:
            other.append("")  # its own transaction goes ahead untouched
            other[0] = table_game(store, SEASON, 5)  # decided and written whole
        return transaction(store)

    with open_store(db) as store:
        monkeypatch.setattr(EventStore, "transaction", the_other_first)
        with pytest.raises(SeasonChanged) as refused:
            table_game(store, SEASON, 5)
        monkeypatch.undo()
    assert other == [f"{SEASON}-0005"]
    assert str(refused.value) == (f"game {SEASON}-0005 was stored by another command while "
                                  f"this ran: nothing written; resume it with rinklog play "
                                  f"--resume {SEASON}-0005")
    starts = [e for e in _events(db) if isinstance(e, SeasonTableGameStarted)]
    assert [e.game for e in starts] == [f"{SEASON}-0005"]
    assert season_stream(_events(db)) is None
