"""Every format-2 event readable with plain SQL: the per-type views (events/views.py), read
with the ``sqlite3`` module alone."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import msgspec
import pytest

from events.base import Event, tag_of
from events.catalogue import ALL_EVENTS
from events.formats import MSGPACK
from events.store import EventStore
from events.views import event_views, view_name
from replay.cli.app import main
from replay.games.game_streams import open_store, read_game


def _sql(path: Path, sql: str, *args: object) -> list[tuple]:
    db = sqlite3.connect(path)
    try:
        return db.execute(sql, args).fetchall()
    finally:
        db.close()


@pytest.fixture(scope="module")
def game_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("views") / "g.db"
    assert main(["sim", "--home", "HFX", "--away", "QUE", "--seed", "2027", "--db", str(path),
                 "--json"]) == 0
    return path


def test_a_goal_read_with_plain_sql(game_db: Path) -> None:
    with open_store(game_db, create=False) as store:
        goals = [e for e in read_game(store, "HFX-QUE-2027") if tag_of(type(e)) == "GoalScored"]
        seqs = [r.seq for r in store.read("HFX-QUE-2027", decode=False) if r.type == "GoalScored"]
    fields = list(type(goals[0]).__struct_fields__)
    rows = _sql(game_db, f"SELECT stream, seq, {', '.join(fields)} FROM ev_goal_scored"
                         " ORDER BY seq")
    assert [r[:2] for r in rows] == [("HFX-QUE-2027", seq) for seq in seqs]
    for row, goal in zip(rows, goals, strict=True):
        for name, value in zip(fields, row[2:], strict=True):
            want = msgspec.to_builtins(getattr(goal, name))
            got = json.loads(value) if isinstance(want, list | dict) else value
            assert got == (int(want) if isinstance(want, bool) else want), name
    # the README's question: who scored, in which period?
    scorers = _sql(game_db, "SELECT g.side, g.scorer FROM ev_goal_scored g"
                            " WHERE g.stream = 'HFX-QUE-2027' ORDER BY g.seq")
    assert scorers == [(g.side, g.scorer) for g in goals]


def test_every_event_type_has_its_view(game_db: Path) -> None:
    classes = {t.cls for t in msgspec.inspect.type_info(ALL_EVENTS).types}
    names = {r[0] for r in _sql(game_db, "SELECT name FROM sqlite_master WHERE type = 'view'"
                                         " AND name GLOB 'ev_*'")}
    assert names == {view_name(tag_of(c)) for c in classes} and len(names) == len(classes)
    assert view_name("dicehockey.ShotTaken") == "ev_dicehockey_shot_taken"
    for cls in classes:  # stream, seq, then one column per field
        columns = [r[1] for r in _sql(game_db, f"PRAGMA table_info({view_name(tag_of(cls))})")]
        assert columns == ["stream", "seq", *cls.__struct_fields__]
    counted = _sql(game_db, "SELECT count(*) FROM ev_dice_rolled")[0][0]
    assert counted == _sql(game_db, "SELECT count(*) FROM event_rows WHERE type = 'DiceRolled'"
                           )[0][0] > 100


class Drafted(Event, frozen=True):
    pick: int
    player: str


class Traded(Event, frozen=True):
    player: str
    to: list[str]


def test_views_follow_the_catalogue_and_leave_format_1_out(tmp_path: Path) -> None:
    path = tmp_path / "d.db"
    with EventStore(path, decoders={"draft": Drafted}) as store:
        store.append("d1", [Drafted(1, "Roy")], 0, system="draft")
        store.append("d0", [Drafted(2, "Old")], 0, system="draft", format=MSGPACK)
    assert _sql(path, "SELECT * FROM ev_drafted") == [("d1", 1, 1, "Roy")]  # not d0's
    schema = _sql(path, "SELECT name, sql FROM sqlite_master")
    with EventStore(path, decoders={"draft": Drafted}) as store:  # nothing to do
        pass
    assert _sql(path, "SELECT name, sql FROM sqlite_master") == schema
    with EventStore(path, decoders={"draft": Drafted | Traded}) as store:  # it grew
        store.append("d1", [Traded("Roy", ["HFX", "QUE"])], 1)
    assert _sql(path, "SELECT stream, seq, player, [to] FROM ev_traded") == \
        [("d1", 2, "Roy", '["HFX","QUE"]')]  # a nested value as its JSON text
    assert _sql(path, "SELECT pick FROM ev_drafted") == [(1,)]
    assert set(event_views(frozenset({Drafted}))) == {"ev_drafted"}
    with EventStore(path, create=False) as store:  # a read-only open writes no view
        assert store.read("d1")[1].event == ["Traded", "Roy", ["HFX", "QUE"]]
