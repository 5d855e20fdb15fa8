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
from replay.leagues.season_stream import SeasonStream

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
