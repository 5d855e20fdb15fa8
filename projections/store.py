"""Read models stored as ``rm_`` tables in the event store's SQLite file, with checkpoints.

The projections themselves are pure folds (``scoresheet``, ``toi``, ``penalties``,
``stats``); this module only stores their results. Tables (their columns from sqlite-utils,
each ``WITHOUT ROWID``: a row kept once, in its primary key's b-tree; one row set per game
stream, ``game_id`` first column):

=========================  =============================================================
``rm_checkpoints``         ``projection, stream, seq``: the last event folded per stream
``rm_scoresheet_games``    one row per game: teams, score, decided, shots/blocked/faceoffs
``rm_scoresheet_goals``    ``n``-th goal: period, time (a number: seconds; DICE Hockey:
                           the timing space), team, scorer, assists (JSON), strength,
                           gwg (0/1)
``rm_scoresheet_goalies``  goalie lines with decision
``rm_toi_players``         the ``toi --json`` players rows
``rm_toi_player_shifts``   a player's shifts of a game in one row: ``shifts``, JSON, each
                           ``[period, start, end, duration, charge]``, the n-th his shift
                           n (a row a shift cost DICE Hockey 23 bytes an event); the
                           view ``rm_toi_shifts`` reads them back as the ``toi --json``
                           shifts rows, a shift a row
``rm_penalties``           the ``penalties --json`` penalty rows
``rm_player_stats``        skater counting stats per game
``rm_goalie_stats``        goalie counting stats per game, and ``games_in_net``: the
                           regulation games' worth of his time in net where ``toi`` is
                           not seconds (DICE Hockey), what his GAA divides by (null:
                           seconds, GAA per 3,600); ``goalie_figures``
                           (projections/models/stats.py)
``rm_team_stats``          team counting stats per game
=========================  =============================================================

:func:`update` folds, for every game stream and projection, the events after the
projection's checkpoint. The fold state is not persisted: when a stream has grown past
its checkpoint the projection is re-folded from seq 1 and that stream's rows replaced
(cheap: a game is ~1,200 events), so a rebuild and any sequence of updates leave the same
rows. Rows are inserted sorted, so :func:`dump` of a rebuilt and an updated database are
equal byte for byte.
"""

from __future__ import annotations

import json
import operator
import weakref
from collections.abc import Iterable, Sequence
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from events.base import tag_of
from events.catalogue import open_store
from events.common import GameCreated, GameEnded
from events.store import EventStore
from events.transactions import Transaction
from projections import layouts
from projections.models.penalties import PenaltyLine
from projections.models.scoresheet import Scoresheet
from projections.models.stats import GOALIE_COUNTS, SKATER_COUNTS, TEAM_COUNTS, GameStats
from projections.models.toi import PlayerToi, ShiftLine, ToiByPlayer
from projections.registration import GameFolds, ReadModels
from projections.standings import build_standings
from projections.systems import read_models

if TYPE_CHECKING:  # imported when tables are made: see _database
    import sqlite_utils

__all__ = ["PROJECTIONS", "TABLES", "StoredReadModels", "dump", "game_rows", "read_model_differences",
           "rebuild", "save", "save_standings", "stored_differences", "stored_read_models",
           "unaccounted_rows", "update"]

PROJECTIONS = ("penalties", "rosters", "scoresheet", "stats", "toi")
EVENTS_JSON = "events"
"""An opt-in read model (``projections update --events``): every game event as JSON in
``rm_events``, for SQL tools and Datasette (``json_extract(event, '$.scorer')``): the way
to an older (format-1, msgpack) game's events; a newer game's are in the ``ev_`` views."""

_INT, _STR, _FLOAT = int, str, float
TABLES: dict[str, tuple[str, dict[str, type], tuple[str, ...]]] = {
    "rm_events": (EVENTS_JSON, {
        "game_id": _STR, "seq": _INT, "type": _STR, "event": _STR}, ("game_id", "seq")),
    "rm_rosters": ("rosters", {
        "game_id": _STR, "team": _STR, "player": _STR, "name": _STR, "position": _STR},
        ("game_id", "team", "player")),
    # table: (projection, columns, primary key)
    "rm_scoresheet_games": ("scoresheet", {
        "game_id": _STR, "decided": _STR, "home": _STR, "away": _STR, "home_goals": _INT,
        "away_goals": _INT, "home_shots": _INT, "away_shots": _INT, "home_blocked": _INT,
        "away_blocked": _INT, "home_faceoffs": _INT, "away_faceoffs": _INT,
        "home_pp": _STR, "away_pp": _STR, "home_pim": _INT, "away_pim": _INT},
        ("game_id",)),
    "rm_scoresheet_goals": ("scoresheet", {
        "game_id": _STR, "n": _INT, "period": _INT, "time": _INT, "team": _STR,
        "scorer": _STR, "assists": _STR, "strength": _STR, "gwg": _INT},
        ("game_id", "n")),
    "rm_scoresheet_goalies": ("scoresheet", {
        "game_id": _STR, "team": _STR, "player": _STR, "toi": _INT, "shots_against": _INT,
        "saves": _INT, "goals_against": _INT, "decision": _STR},
        ("game_id", "team", "player")),
    "rm_toi_players": ("toi", {
        "game_id": _STR, "team": _STR, "player": _STR, "name": _STR, "position": _STR,
        "sequences": _INT, "shifts": _FLOAT, "excess": _INT, "toi": _INT, "toi_ev": _INT,
        "toi_pp": _INT, "toi_sh": _INT},
        ("game_id", "team", "player")),
    "rm_toi_player_shifts": ("toi", {
        "game_id": _STR, "team": _STR, "player": _STR, "shifts": _STR},
        ("game_id", "team", "player")),
    "rm_penalties": ("penalties", {
        "game_id": _STR, "id": _INT, "team": _STR, "side": _STR, "player": _STR,
        "served_by": _STR, "kind": _STR, "minutes": _INT, "box": _INT, "short": _INT,
        "period": _INT, "sequence": _INT, "start": _INT, "scheduled_end_period": _INT,
        "scheduled_end": _INT, "end_period": _INT, "end": _INT, "why": _STR},
        ("game_id", "id")),
    "rm_player_stats": ("stats", {
        "game_id": _STR, "team": _STR, "player": _STR,
        **dict.fromkeys(SKATER_COUNTS, _INT)}, ("game_id", "team", "player")),
    "rm_goalie_stats": ("stats", {
        "game_id": _STR, "team": _STR, "player": _STR,
        **dict.fromkeys(GOALIE_COUNTS, _INT), "games_in_net": _FLOAT},
        ("game_id", "team", "player")),
    "rm_team_stats": ("stats", {
        "game_id": _STR, "team": _STR, **dict.fromkeys(TEAM_COUNTS, _INT)},
        ("game_id", "team")),
}
CHECKPOINTS = "rm_checkpoints"
_OWNED: dict[str, tuple[str, ...]] = {}  # projection: its tables, in TABLES' order
for _table, (_projection, _, _) in TABLES.items():
    _OWNED[_projection] = (*_OWNED.get(_projection, ()), _table)
# each table's DELETE of a game's rows and INSERT of a row, made once (sqlite3 keeps a
# cache of prepared statements keyed by their text)
_STATEMENTS = {table: (f"DELETE FROM {table} WHERE game_id = ?",
                       f"INSERT INTO {table} ({', '.join(f'[{c}]' for c in columns)})"
                       f" VALUES ({', '.join('?' for _ in columns)})")
               for table, (_, columns, _) in TABLES.items()}
_READY: weakref.WeakSet[EventStore] = weakref.WeakSet()  # stores whose rm_ tables exist


class _Game:
    """One game's events and what its read models fold from them, each folded at most
    once: the stats take the goalie decisions and results from the game's scoresheet
    instead of folding a copy of their own. ``together``: the folds the stored rows take
    folded in one pass over the events where the system can (``ReadModels.game``): asked
    for two or more of them, one loop over a game's events instead of one a fold (and
    DICE Hockey's ice, which each of its folds keeps, followed once)."""

    def __init__(self, models: ReadModels, game_id: str, events: list[Any],
                 together: bool = False) -> None:
        self.models, self.game_id, self.events = models, game_id, events
        self.together = together and models.game is not None

    @cached_property
    def folded(self) -> GameFolds:
        assert self.models.game is not None  # (asked only when together)
        return self.models.game(self.events)

    @cached_property
    def scoresheet(self) -> Scoresheet:
        if self.together:
            return self.folded[0]
        return self.models.scoresheet(self.events)

    @cached_property
    def stats(self) -> GameStats:
        if self.together:
            return self.folded[1]
        return self.models.stats(self.events, scoresheet=self.scoresheet)

    def toi_kept(self) -> ToiByPlayer | None:
        """Time on ice with each player's shifts kept by player, where the system folds it
        so (None: the store groups the shift lines itself)."""
        if self.together:
            return self.folded[2]
        by_player = self.models.toi_by_player
        return None if by_player is None else by_player(self.events)

    def penalty_lines(self) -> list[PenaltyLine]:
        if self.together:
            return self.folded[3]
        return self.models.penalties(self.events).penalties


# the projections whose rows come of the game's folds (rosters: of its first event)
_FOLDED = frozenset({"scoresheet", "stats", "toi", "penalties"})


def _together(projections: Iterable[str]) -> bool:
    """Whether the rows of ``projections`` take two folds or more (one pass pays)."""
    return len(_FOLDED.intersection(projections)) >= 2


def _rows_scoresheet(game: _Game) -> dict[str, list[dict[str, Any]]]:
    game_id, sheet = game.game_id, game.scoresheet
    h, a = sheet.home, sheet.away
    row = {"game_id": game_id, "decided": sheet.decided, "home": h.team, "away": a.team,
           "home_goals": h.goals, "away_goals": a.goals, "home_shots": sum(h.shots),
           "away_shots": sum(a.shots), "home_blocked": sum(h.blocked),
           "away_blocked": sum(a.blocked), "home_faceoffs": sum(h.faceoffs),
           "away_faceoffs": sum(a.faceoffs),
           "home_pp": f"{h.pp.goals}/{h.pp.opportunities}",
           "away_pp": f"{a.pp.goals}/{a.pp.opportunities}", "home_pim": h.pim,
           "away_pim": a.pim}
    goals = []
    for n, g in enumerate(sheet.goals, start=1):
        goals.append({"game_id": game_id, "n": n, "period": g.period,
                      "time": g.at.value, "team": g.team,
                      "scorer": g.scorer, "assists": json.dumps(g.assists),
                      "strength": g.strength, "gwg": int(g.gwg)})
    goalies = [{"game_id": game_id, "team": g.team, "player": g.player, "toi": g.toi,
                "shots_against": g.shots_against, "saves": g.saves,
                "goals_against": g.goals_against, "decision": g.decision}
               for g in sheet.goalies]
    return {"rm_scoresheet_games": [row], "rm_scoresheet_goals": goals,
            "rm_scoresheet_goalies": goalies}


def _rows_toi(game: _Game) -> dict[str, list[dict[str, Any]]]:
    toi = game.models.toi(game.events)
    rows = toi.to_json()
    packed = TABLES["rm_toi_player_shifts"][1]
    return {"rm_toi_players": [{"game_id": game.game_id, **p} for p in rows["players"]],
            "rm_toi_player_shifts": [dict(zip(packed, row, strict=True)) for row
                                     in _player_shifts(game.game_id, toi.shifts)],
            # a shift a row: the table an older rinklog stored (layouts.FORMER_TABLES)
            "rm_toi_shifts": [{"game_id": game.game_id, **s} for s in rows["shifts"]]}


def _player_shifts(game_id: str, shifts: list[ShiftLine]) -> list[tuple[str, str, str, str]]:
    """A game's shifts a player a row (``rm_toi_player_shifts``): his shifts in the order
    of their numbers, which the folds count from 1 (projections/*/toi.py), so the n-th is
    his shift n and the number is not stored."""
    by_player: dict[tuple[str, str], list[ShiftLine]] = {}
    for line in shifts:
        by_player.setdefault((line.team, line.player), []).append(line)
    rows = []
    for (team, player), lines in by_player.items():
        lines.sort(key=_SHIFT_NUMBER)
        if lines[-1].shift != len(lines) or lines[0].shift != 1:
            raise ValueError(f"{game_id}: {team} {player}'s shifts are not numbered 1 to "
                             f"{len(lines)}")
        rows.append((game_id, team, player, _JSON.encode(
            [(s.period, s.start, s.end, s.duration, float(s.charge)) for s in lines]).decode()))
    return rows


_SHIFT_NUMBER = operator.attrgetter("shift")


def _rows_penalties(game: _Game) -> dict[str, list[dict[str, Any]]]:
    report = game.models.penalties(game.events).to_json()
    return {"rm_penalties": [{"game_id": game.game_id, **p} for p in report["penalties"]]}


def _rows_stats(game: _Game) -> dict[str, list[dict[str, Any]]]:
    game_id, st = game.game_id, game.stats
    return {
        "rm_player_stats": [{"game_id": game_id, "team": t, "player": p, **c}
                            for (t, p), c in st.skaters.items()],
        "rm_goalie_stats": [{"game_id": game_id, "team": t, "player": p, **c,
                             "games_in_net": st.games_in_net.get((t, p))}
                            for (t, p), c in st.goalies.items()],
        "rm_team_stats": [{"game_id": game_id, "team": t, **c} for t, c in st.teams.items()],
    }


def _rows_rosters(game: _Game) -> dict[str, list[dict[str, Any]]]:
    """Who dressed, by name: what lets a plain SQL query (or Datasette) show names where
    the other tables keep ids."""
    created = game.events[0]
    return {"rm_rosters": [
        {"game_id": game.game_id, "team": sheet.team_id, "player": entry.id,
         "name": entry.name, "position": entry.position}
        for sheet in (created.home, created.away) for entry in sheet.roster]}


def _rows_events(game: _Game) -> dict[str, list[dict[str, Any]]]:
    return {"rm_events": [
        {"game_id": game.game_id, "seq": seq, "type": tag_of(type(event)),
         "event": _JSON.encode(event).decode()}
        for seq, event in enumerate(game.events, start=1)]}


_JSON = msgspec.json.Encoder()

_BUILDERS = {"events": _rows_events, "scoresheet": _rows_scoresheet, "toi": _rows_toi,
             "penalties": _rows_penalties, "stats": _rows_stats, "rosters": _rows_rosters}


def _toi_tuples(game: _Game) -> dict[str, list[tuple]]:
    """:func:`_rows_toi`'s rows as tuples in their tables' column order, straight from the
    fold's structs (their fields are the columns after ``game_id``): no dict a row, for
    the few thousand shifts of a game folded in a season's worker, its writer and the
    audit."""
    key, astuple = (game.game_id,), msgspec.structs.astuple
    kept = game.toi_kept()
    if kept is None:
        toi = game.models.toi(game.events)
        return {"rm_toi_players": [key + astuple(p) for p in toi.players],
                "rm_toi_player_shifts": _player_shifts(game.game_id, toi.shifts)}
    # Each player's shifts as the fold keeps them, in his order: not the game's shift
    # lines made, sorted by time and grouped by player again here (callgrind: 2.4 M
    # instructions of a Hockey Bones game's 13.5 M folded, 3.0 M of DICE Hockey's 13.7 M).
    encode = _JSON.encode
    return {"rm_toi_players": [key + astuple(p) for p in kept.players],
            "rm_toi_player_shifts": [(game.game_id, team, player, encode(lines).decode())
                                     for team, player, lines in kept.shifts]}


def _penalties_tuples(game: _Game) -> dict[str, list[tuple]]:
    """:func:`_rows_penalties`' rows as tuples straight from the report's penalty lines
    (their fields are the columns after ``game_id``): not the whole report turned into
    builtins (its box stints, running clocks and a dict of labels every sequence, none of
    them stored) to read a dict a line. 0.9 M instructions of a Hockey Bones game's 15.3 M
    folded (callgrind)."""
    lines = game.penalty_lines()
    key, astuple = (game.game_id,), msgspec.structs.astuple
    return {"rm_penalties": [key + astuple(p) for p in lines]}


# a count row's values in its table's column order (its dict is made in that order,
# projections/models/stats.py, but a row is read by name: the order is not its contract)
_SKATER_VALUES = operator.itemgetter(*SKATER_COUNTS)
_GOALIE_VALUES = operator.itemgetter(*GOALIE_COUNTS)
_TEAM_VALUES = operator.itemgetter(*TEAM_COUNTS)


def _stats_tuples(game: _Game) -> dict[str, list[tuple]]:
    """:func:`_rows_stats`' rows as tuples of their columns: no dict a row made only to be
    read back column by column."""
    game_id, st = game.game_id, game.stats
    in_net = st.games_in_net
    return {
        "rm_player_stats": [(game_id, t, p, *_SKATER_VALUES(c))
                            for (t, p), c in st.skaters.items()],
        "rm_goalie_stats": [(game_id, t, p, *_GOALIE_VALUES(c), in_net.get((t, p)))
                            for (t, p), c in st.goalies.items()],
        "rm_team_stats": [(game_id, t, *_TEAM_VALUES(c)) for t, c in st.teams.items()],
    }


def _scoresheet_tuples(game: _Game) -> dict[str, list[tuple]]:
    """:func:`_rows_scoresheet`'s rows as tuples of their columns (in the order of
    ``TABLES``)."""
    game_id, sheet = game.game_id, game.scoresheet
    h, a = sheet.home, sheet.away
    return {
        "rm_scoresheet_games": [(
            game_id, sheet.decided, h.team, a.team, h.goals, a.goals, sum(h.shots),
            sum(a.shots), sum(h.blocked), sum(a.blocked), sum(h.faceoffs), sum(a.faceoffs),
            f"{h.pp.goals}/{h.pp.opportunities}", f"{a.pp.goals}/{a.pp.opportunities}",
            h.pim, a.pim)],
        "rm_scoresheet_goals": [
            (game_id, n, g.period, g.at.value, g.team, g.scorer, json.dumps(g.assists),
             g.strength, int(g.gwg)) for n, g in enumerate(sheet.goals, start=1)],
        "rm_scoresheet_goalies": [
            (game_id, g.team, g.player, g.toi, g.shots_against, g.saves, g.goals_against,
             g.decision) for g in sheet.goalies],
    }


def _rosters_tuples(game: _Game) -> dict[str, list[tuple]]:
    """:func:`_rows_rosters`' rows as tuples of their columns."""
    created, game_id = game.events[0], game.game_id
    return {"rm_rosters": [(game_id, sheet.team_id, entry.id, entry.name, entry.position)
                           for sheet in (created.home, created.away) for entry in sheet.roster]}


def _fields_are_columns(struct: type, table: str) -> bool:
    return ("game_id", *struct.__struct_fields__) == tuple(TABLES[table][1])


# A projection's rows made as tuples of today's columns without the dicts of _BUILDERS
# (which stay: an older layout's rows are derived from them, projections/layouts.py).
# A struct's fields read as a tuple (``astuple``: about two instructions a field, against
# a few hundred for a field read by name) only while they are the table's columns
# (checked here, once; tests/test_projections.py holds every builder's rows to the dicts').
_TUPLE_BUILDERS = {
    "scoresheet": _scoresheet_tuples, "stats": _stats_tuples, "rosters": _rosters_tuples,
    **({"toi": _toi_tuples} if _fields_are_columns(PlayerToi, "rm_toi_players") else {}),
    **({"penalties": _penalties_tuples} if _fields_are_columns(PenaltyLine, "rm_penalties")
       else {}),
}

STANDINGS = "rm_standings"
_STANDINGS_COLUMNS = {
    "season": _STR, "rank": _INT, "team": _STR, "name": _STR, "gp": _INT, "w": _INT,
    "l": _INT, "otl": _INT, "t": _INT, "points": _INT, "points_pct": _FLOAT,
    "road_wins": _INT, "gf": _INT, "ga": _INT, "diff": _INT}

# Views for plain SQL and Datasette: ids joined to names (docs/datasette.md).
VIEWS = {
    "box_score": """
        SELECT s.game_id, s.team, r.name, r.position, s.g, s.a, s.p, s.plus_minus, s.pim,
               s.sog, s.shots_blocked, s.fow, t.toi, t.toi_ev, t.toi_pp, t.toi_sh, t.shifts,
               s.player
        FROM rm_player_stats s
        JOIN rm_rosters r USING (game_id, team, player)
        LEFT JOIN rm_toi_players t USING (game_id, team, player)""",
    "goalie_box_score": """
        SELECT g.game_id, g.team, r.name, g.toi, g.shots_against, g.saves, g.goals_against,
               g.decision, g.player
        FROM rm_scoresheet_goalies g JOIN rm_rosters r USING (game_id, team, player)""",
    "goals_named": """
        SELECT g.game_id, g.n, g.period, g.time, g.team, r.name AS scorer_name,
               g.assists, g.strength, g.gwg, g.scorer
        FROM rm_scoresheet_goals g
        JOIN rm_rosters r ON r.game_id = g.game_id AND r.team = g.team
                         AND r.player = g.scorer""",
    # a shift a row: the toi --json shifts rows, as the table of this name held them before
    # a player's shifts were packed in one row (issue 35)
    "rm_toi_shifts": """
        SELECT p.game_id, p.team, p.player, j.key + 1 AS shift,
               json_extract(j.value, '$[0]') AS period, json_extract(j.value, '$[1]') AS start,
               json_extract(j.value, '$[2]') AS [end],
               json_extract(j.value, '$[3]') AS duration,
               json_extract(j.value, '$[4]') AS charge
        FROM rm_toi_player_shifts p, json_each(p.shifts) j""",
}


def _sort_key(row: tuple) -> tuple:
    """A row's values, each paired with whether it is None (None compares with nothing)."""
    return tuple((v is None, v if v is not None else 0) for v in row)


def _open(db: str | Path | EventStore) -> tuple[EventStore, bool]:
    if isinstance(db, EventStore):
        return db, False
    return open_store(db, create=False), True


# Every rm_ table: (columns, primary key).
_LAYOUTS: dict[str, tuple[dict[str, type], tuple[str, ...]]] = {
    CHECKPOINTS: ({"projection": _STR, "stream": _STR, "seq": _INT}, ("projection", "stream")),
    **{name: (columns, pk) for name, (_, columns, pk) in TABLES.items()},
    STANDINGS: (_STANDINGS_COLUMNS, ("season", "team")),
}


def _database(conn: Any) -> sqlite_utils.Database:
    """sqlite-utils over the store's own connection, to make and re-lay the read models'
    tables. Imported here, not with this module: a command that only reads read models
    (standings, leaders, a page) needs none of it, and its import (click, dateutil,
    pluggy) was about a tenth of such a command's CPU. No sqlite-utils plugin runs on the
    store's connection (``execute_plugins``): the read models use none of their SQL
    functions, and finding them read every installed package's entry points (about 30 ms)."""
    import sqlite_utils

    return sqlite_utils.Database(conn, execute_plugins=False)


def _table_sql(db: sqlite_utils.Database, name: str, columns: dict[str, type],
               pk: tuple[str, ...]) -> str:
    """A read model's table keyed by its primary key ``WITHOUT ROWID``: each row is kept in
    the key's b-tree once, not in a rowid table and again in an index of its key."""
    return db.create_table_sql(name, columns, pk=pk).rstrip().rstrip(";") + " WITHOUT ROWID"


def _ensure_tables(db: sqlite_utils.Database) -> None:
    """Create the rm_ tables and views that are missing; a table an older rinklog made with
    a rowid, or with other columns, is moved into this layout (its rows copied, or its
    projection folded again when its columns were others)."""
    stored = dict(db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"))
    for name, (projection, _) in layouts.FORMER_TABLES.items():
        if name in stored:  # an older rinklog's table, a view today: its projection refolded
            db.execute(f"DROP TABLE [{name}]")
            if CHECKPOINTS in stored:
                db.execute(f"DELETE FROM {CHECKPOINTS} WHERE projection = ?", (projection,))
    old = [name for name, (columns, _) in _LAYOUTS.items()
           if name in stored and ("WITHOUT ROWID" not in stored[name].upper()
                                  or set(db[name].columns_dict) != set(columns))]
    if old:  # the views name the tables: made again below
        for name in VIEWS:
            db.execute(f"DROP VIEW IF EXISTS {name}")
    for name, (columns, pk) in _LAYOUTS.items():
        if name not in stored:
            db.execute(_table_sql(db, name, columns, pk))
        elif name in old:
            _relayout(db, name, columns, pk)
    for name, sql in VIEWS.items():
        db.execute(f"CREATE VIEW IF NOT EXISTS {name} AS {sql}")


def _relayout(db: sqlite_utils.Database, name: str, columns: dict[str, type],
              pk: tuple[str, ...]) -> None:
    db.execute(_table_sql(db, f"{name}_keyed", columns, pk))
    if set(db[name].columns_dict) == set(columns):
        names = ", ".join(f"[{c}]" for c in columns)
        db.execute(f"INSERT INTO [{name}_keyed] ({names}) SELECT {names} FROM [{name}]")
    elif name in TABLES:  # another rinklog's columns: its projection is folded again
        db.execute(f"DELETE FROM {CHECKPOINTS} WHERE projection = ?", (TABLES[name][0],))
    db.execute(f"DROP TABLE [{name}]")
    db.execute(f"ALTER TABLE [{name}_keyed] RENAME TO [{name}]")


def update(db: str | Path | EventStore, game_ids: Iterable[str] | None = None,
           projections: Iterable[str] = PROJECTIONS) -> int:
    """Bring the stored read models up to date; return the number of events folded.

    Only streams whose version is past a projection's checkpoint are folded (from seq 1,
    replacing that stream's rows); ``game_ids`` limits the work to those games and
    ``projections`` to those read models (``leaders`` needs only ``stats``).
    """
    store, close = _open(db)
    try:
        return _update(store, game_ids, tuple(projections))
    finally:
        if close:
            store.close()


def game_rows(system: str, game_id: str, events: list[Any],
              projections: Iterable[str] = PROJECTIONS) -> dict[str, dict[str, list[tuple]]]:
    """The rows of ``projections`` for one whole game of ``system``, by projection then
    table, each row a tuple in its table's column order and each table's rows sorted: what
    :func:`save` inserts as they are (a season's workers compute them beside the game, so
    the writer only inserts them; tuples cross a process boundary at a third of the
    cost of dicts)."""
    projections = tuple(projections)
    game = _Game(read_models(system), game_id, events, together=_together(projections))
    return {p: _tuples(p, game) for p in projections}


def _tuples(projection: str, game: _Game) -> dict[str, list[tuple]]:
    """The rows of ``projection`` for ``game`` as tuples in each table's column order,
    sorted by their columns (a builder's row keys are in column order; the pairs of
    _sort_key are needed only when a None is compared), every table of the projection
    present."""
    each = _TUPLE_BUILDERS.get(projection)
    made = each(game) if each is not None else None
    rows = _BUILDERS[projection](game) if made is None else {}
    out = {}
    for table in _OWNED[projection]:
        if made is not None:
            batch = made.get(table, [])
        else:
            values = operator.itemgetter(*TABLES[table][1])
            batch = [values(r) for r in rows.get(table, [])]
        try:
            # Every table's primary key leads its columns and holds no None, so two rows
            # differ before any None is compared: sorted as they are, with no pass over
            # every value looking for a None first (callgrind: 0.5 M instructions of a
            # Hockey Bones game's 11.2 M folded, 0.4 M of DICE Hockey's 10.7 M)
            batch.sort()
        except TypeError:  # a None compared with a value after all: None-aware keys
            batch.sort(key=_sort_key)
        out[table] = batch
    return out


def save(store: EventStore, game_id: str, version: int,
         rows: dict[str, dict[str, list[tuple]]]) -> None:
    """Store :func:`game_rows` of a game at ``version`` (its rows and checkpoints): the same
    rows :func:`update` would write. One transaction, or part of the caller's (a season
    stores a game's events and its read models in one :meth:`EventStore.transaction`)."""
    conn = store.connection
    with store.transaction():
        if store not in _READY:  # once per store: a season saves a game at a time
            _ensure_tables(_database(conn))
            _READY.add(store)
        for projection, tables in rows.items():
            _write(conn, projection, game_id, tables)
        _move_checkpoints(conn, rows, game_id, version)


def _write(conn: Any, projection: str, game_id: str, rows: dict[str, list[tuple]]) -> None:
    """Replace one game's rows of one projection (:func:`_tuples`); its checkpoint is
    moved by :func:`_move_checkpoints`."""
    for table in _OWNED[projection]:
        delete, insert = _STATEMENTS[table]
        conn.execute(delete, (game_id,))
        batch = rows.get(table)
        if batch:
            conn.executemany(insert, batch)


def _move_checkpoints(conn: Any, projections: Iterable[str], game_id: str,
                      version: int) -> None:
    """Each projection written of a game now holds it at ``version``: one statement."""
    conn.executemany(f"INSERT OR REPLACE INTO {CHECKPOINTS} (projection, stream, seq)"
                     " VALUES (?, ?, ?)", [(p, game_id, version) for p in projections])


def _update(store: EventStore, game_ids: Iterable[str] | None,
            projections: tuple[str, ...] = PROJECTIONS) -> int:
    conn = store.connection  # the store's own connection: one file, one transaction
    sdb = _database(conn)
    wanted = None if game_ids is None else set(game_ids)
    if wanted is not None:
        for game_id in sorted(wanted):
            store.info(game_id)  # UnknownGame for an id the database does not hold
    folded = 0
    with Transaction(conn):
        _ensure_tables(sdb)
        marks = {(p, s): q for p, s, q in
                 conn.execute(f"SELECT projection, stream, seq FROM {CHECKPOINTS}")}
        for info in store.streams(kind="game"):
            if wanted is not None and info.stream not in wanted:
                continue
            # a checkpoint past the stream's end: the stream was replaced since; refold it
            stale = [p for p in projections if marks.get((p, info.stream), 0) != info.version]
            if not stale or info.version == 0:
                continue
            events = [row.event for row in store.iter_events(info.stream)]
            folded += len(events)
            game = _Game(read_models(info.system), info.stream, events,
                         together=_together(stale))
            for projection in stale:
                _write(conn, projection, info.stream, _tuples(projection, game))
            _move_checkpoints(conn, stale, info.stream, info.version)
        if wanted is None:
            _write_standings(store)
    return folded


def save_standings(store: EventStore) -> None:
    """Store every season's standings (``rm_standings``), in one transaction or as part of
    the caller's: what :func:`update` writes after folding every game (a season run stores
    them at its end, a game played at the table with its last events)."""
    with store.transaction():  # or part of the caller's (a table game's last batch)
        if store not in _READY:
            _ensure_tables(_database(store.connection))
            _READY.add(store)
        _write_standings(store)


def _write_standings(store: EventStore) -> None:
    """Every season's standings, replaced whole on each update."""
    conn = store.connection
    conn.execute(f"DELETE FROM {STANDINGS}")
    rows = _standings_rows(store)
    if rows:
        names = ", ".join(f"[{c}]" for c in _STANDINGS_COLUMNS)
        conn.executemany(f"INSERT INTO {STANDINGS} ({names}) VALUES "
                         f"({', '.join('?' for _ in _STANDINGS_COLUMNS)})", rows)


def _standings_rows(store: EventStore, only: str | None = None) -> list[tuple]:
    """The rows of every season's standings (or season ``only``'s), in column order
    (projections/standings.py), from the first and last event of each of its finished
    games (not branches)."""
    games: dict[str, list[tuple[Any, Any]]] = {}
    for info in store.streams(kind="game"):
        season = info.meta.get("season")
        if not season or info.meta.get("parent") is not None or "decided" not in info.meta \
                or (only is not None and season != only):
            continue
        if info.meta.get("number") == 0:  # a playoff game (issue 22): no regular standing
            continue
        first = store.read(info.stream, 1, 1)[0].event
        last = store.read(info.stream, info.version, info.version)[0].event
        if isinstance(first, GameCreated) and isinstance(last, GameEnded):
            games.setdefault(season, []).append((first, last))
    rows = []
    for season, played in sorted(games.items()):
        for rank, record in enumerate(build_standings(played), start=1):
            row = record.to_json()
            row["points_pct"] = round(row["points"] / (2 * row["gp"]), 3) if row["gp"] else 0.0
            rows.append(tuple([season, rank] + [row[c] for c in list(_STANDINGS_COLUMNS)[2:]]))
    return rows


def stored_standings_differences(store: EventStore, season: str) -> list[str] | None:
    """Read-only: how the stored standings of ``season`` differ from the standings its
    games give now (an empty list: identical); None when none are stored for it (a season
    run stores its games' stats; ``projections update`` the standings)."""
    conn = store.connection
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                        (STANDINGS,)).fetchone():
        return None
    names = ", ".join(f"[{c}]" for c in _STANDINGS_COLUMNS)
    stored = sorted(conn.execute(f"SELECT {names} FROM {STANDINGS} WHERE season = ?",
                                 (season,)).fetchall())
    if not stored:
        return None  # not stored yet: rinklog projections update stores them
    fresh = sorted(_standings_rows(store, season))
    return [] if stored == fresh else [
        f"{STANDINGS}: {len(stored)} stored rows differ from the {len(fresh)} its games give"]


def rebuild(db: str | Path | EventStore, game_ids: Iterable[str] | None = None,
            projections: Iterable[str] = PROJECTIONS) -> int:
    """Drop every ``rm_`` table and build the read models from the streams alone (with
    ``EVENTS_JSON`` among ``projections``, the events as JSON too)."""
    store, close = _open(db)
    try:
        conn = store.connection
        with Transaction(conn):
            for name in VIEWS:
                conn.execute(f"DROP VIEW IF EXISTS {name}")
            for name in [CHECKPOINTS, *TABLES, *layouts.FORMER_TABLES, STANDINGS]:
                conn.execute(f"DROP TABLE IF EXISTS {name}")
            _READY.discard(store)
        return _update(store, game_ids, tuple(projections))
    finally:
        if close:
            store.close()


def dump(db: str | Path | EventStore) -> dict[str, list[tuple]]:
    """Every ``rm_`` table's rows ordered by all its columns (to compare two databases)."""
    store, close = _open(db)
    try:
        out = {}
        for name in [CHECKPOINTS, *TABLES, STANDINGS]:
            cols = [r[1] for r in store.connection.execute(f"PRAGMA table_info({name})")]
            if not cols:
                out[name] = []
                continue
            order = ", ".join(f"[{c}]" for c in cols)
            out[name] = store.connection.execute(f"SELECT * FROM {name} ORDER BY {order}").fetchall()
        return out
    finally:
        if close:
            store.close()


def stored_differences(store: EventStore, game_id: str, events: list[Any], *,
                       system: str | None = None) -> list[str] | None:
    """Read-only: the stored read models of one game that differ from a rebuild from
    ``events`` (an empty list: identical). Each projection is held to the events up to its
    checkpoint (rows stored before a live game went on are a fold of its first events);
    None when no read model of the game is stored. Rows with no checkpoint of their own
    are :func:`unaccounted_rows`."""
    stored = stored_read_models(store, game_id, system=system)
    return None if stored is None else read_model_differences(stored, game_id, events)


class StoredReadModels(msgspec.Struct, frozen=True):
    """What a database holds of one game's read models, read once: its checkpoints and,
    for each table of a checkpointed projection, the columns it has and its rows of the
    game, sorted. :func:`read_model_differences` holds them to the events anywhere (an
    ``audit --all --cluster`` worker has no database)."""

    system: str  # the game's system, by its streams row
    marks: dict[str, int]  # projection -> checkpoint seq
    tables: dict[str, tuple[list[str], list[tuple]]]  # table -> (columns, rows)


def stored_read_models(store: EventStore, game_id: str, *,
                       system: str | None = None) -> StoredReadModels | None:
    """Read-only: a game's stored read models (None when none is stored). ``system``: the
    game's system as its streams row gives it, when the caller has read that row already."""
    conn = store.connection
    stored_columns = _stored_columns(store)
    if CHECKPOINTS not in stored_columns:
        return None
    marks = dict(conn.execute(f"SELECT projection, seq FROM {CHECKPOINTS} WHERE stream = ?",
                              (game_id,)))
    if not marks:
        return None
    tables = {}
    for table, owner, columns in _read_model_tables(stored_columns):
        if owner not in marks or owner not in _BUILDERS:
            continue
        # Every column the table has, today's in their order first (a builder's rows carry
        # them the same way); read_model_differences holds a table an older rinklog stored
        # in its own columns to that layout's rows, and one in no known layout (or none:
        # no such table) is a finding (projections/layouts.py).
        kept = stored_columns.get(table, set())
        names = [c for c in columns if c in kept] + sorted(kept - set(columns))
        tables[table] = (names, sorted(conn.execute(
            f"SELECT {', '.join(f'[{c}]' for c in names)} FROM {table} WHERE game_id = ?",
            (game_id,)).fetchall()) if names else [])
    return StoredReadModels(store.info(game_id).system if system is None else system,
                            marks, tables)


def _read_model_tables(stored: dict[str, set[str]]) -> list[tuple[str, str, Sequence[str]]]:
    """Each table a read model is held in: (table, projection, its columns): today's, and
    a table an older rinklog stored (layouts.FORMER_TABLES) where ``stored`` (the file's
    ``rm_`` tables) has one."""
    return [*((table, owner, list(columns)) for table, (owner, columns, _) in TABLES.items()),
            *((table, owner, columns) for table, (owner, columns)
              in layouts.FORMER_TABLES.items() if table in stored)]


def _columns_of(table: str) -> Sequence[str]:
    """Today's columns of ``table``, or the last columns of a former table."""
    return list(TABLES[table][1]) if table in TABLES else layouts.FORMER_TABLES[table][1]


def _projection_of(table: str) -> str:
    return TABLES[table][0] if table in TABLES else layouts.FORMER_TABLES[table][0]


# each store's rm_ tables and their columns, read again only when its schema changed
_COLUMNS: weakref.WeakKeyDictionary[EventStore, tuple[int, dict[str, set[str]]]] = \
    weakref.WeakKeyDictionary()


def _stored_columns(store: EventStore) -> dict[str, set[str]]:
    """Every ``rm_`` table the database holds, with its columns: read in one query the
    first time, then again only when the file's schema cookie (``PRAGMA schema_version``,
    which SQLite bumps on every change of any table, by any connection) has moved."""
    conn = store.connection
    version = conn.execute("PRAGMA schema_version").fetchone()[0]
    kept = _COLUMNS.get(store)
    if kept is not None and kept[0] == version:
        return kept[1]
    stored_columns: dict[str, set[str]] = {}
    for table, column in conn.execute(
            "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p"
            " WHERE m.type = 'table' AND m.name LIKE 'rm\\_%' ESCAPE '\\'"):
        stored_columns.setdefault(table, set()).add(column)
    _COLUMNS[store] = (version, stored_columns)
    return stored_columns


def read_model_differences(stored: StoredReadModels, game_id: str,
                           events: list[Any]) -> list[str]:
    """The tables of ``stored`` that differ from a rebuild from ``events`` (see
    :func:`stored_differences`); reads no database."""
    models = read_models(stored.system)
    # every projection held to the same events (checkpoints moved together) folds them once
    together = _together(p for p, mark in stored.marks.items() if mark == len(events))
    games = {len(events): _Game(models, game_id, events, together)}
    differences = []
    for projection, mark in sorted(stored.marks.items()):
        if projection not in _BUILDERS or not 0 < mark <= len(events):
            differences.append(f"{CHECKPOINTS}: {projection!r} checkpoint at seq {mark} of a "
                               f"stream of {len(events)} events")
            continue
        # A projection an older rinklog stored in its own columns (its tables are folded
        # again when the file is next opened for writing, _relayout) is held to the rows
        # that rinklog folded from these events; columns no rinklog wrote are a finding.
        owned = {table: names for table, (names, _) in stored.tables.items()
                 if _projection_of(table) == projection}
        layout = layouts.layout_of(projection, {t: _columns_of(t) for t in owned}, owned)
        if layout is None:  # each table not as today's rinklog keeps it
            differences += [layouts.unknown_layout(table, names) for table, names
                            in owned.items() if set(names) != set(_columns_of(table))
                            - layouts.TODAY.missing.get(table, frozenset())]
            continue
        # Rows folded before the stream grew (a live game) are held to the events they
        # were folded from: every stored row answers to the stream.
        if mark not in games:
            games[mark] = _Game(models, game_id, events[:mark])
        if projection in _TUPLE_BUILDERS and layout is layouts.TODAY and all(
                names == list(TABLES[table][1]) for table, names in owned.items()):
            rows_now = _tuples(projection, games[mark])  # today's columns: no dicts
            differences += [_differ(table, stored.tables[table][1], rows_now[table])
                            for table in owned if rows_now[table] != stored.tables[table][1]]
            continue
        rows = _BUILDERS[projection](games[mark])
        if layout.goalies_as_skaters:
            rows = layouts.goalies_as_skaters(rows, games[mark].stats, game_id)
        for table in owned:
            names, kept = stored.tables[table]
            if not names:  # a table this layout has not (layout_of matched its absence)
                continue
            fresh = sorted(map(operator.itemgetter(*names), rows.get(table, [])))
            if fresh != kept:
                differences.append(_differ(table, kept, fresh))
    return differences


def _differ(table: str, kept: list[tuple], fresh: list[tuple]) -> str:
    return (f"{table}: {len(kept)} stored rows differ from the {len(fresh)} rebuilt from "
            "the stream")


def unaccounted_rows(store: EventStore) -> list[str]:
    """Read-only: stored read-model rows that no stream accounts for, one line a table
    (an empty list: none). Every row of a game's read model needs its game stream and that
    projection's checkpoint (which :func:`stored_differences` holds to the stream), and
    every stored standings row a season stream; a row inserted for a game that does not
    exist, or beside a checkpoint that was never written, would otherwise be read by
    Datasette and SQL tools as a result."""
    conn = store.connection
    present = {r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'rm\\_%' ESCAPE '\\'")}
    games = {info.stream for info in store.streams(kind="game")}
    seasons = {info.stream for info in store.streams(kind="season")}
    found: list[str] = []
    if CHECKPOINTS in present:
        for stream, projection in conn.execute(
                f"SELECT stream, projection FROM {CHECKPOINTS} ORDER BY stream, projection"):
            if stream not in games or projection not in _BUILDERS:
                found.append(f"{CHECKPOINTS}: a {projection!r} checkpoint for {stream!r}, "
                             "which is no game stream")
        marked = set(conn.execute(f"SELECT projection, stream FROM {CHECKPOINTS}"))
    else:
        marked = set()
    for table in [*TABLES, *layouts.FORMER_TABLES]:
        if table not in present:
            continue
        projection = _projection_of(table)
        for (game_id,) in conn.execute(f"SELECT DISTINCT game_id FROM {table} ORDER BY 1"):
            if game_id not in games:
                found.append(f"{table}: rows for {game_id!r}, which is no game stream")
            elif (projection, game_id) not in marked:
                found.append(f"{table}: rows for {game_id!r} with no {projection!r} checkpoint")
    if STANDINGS in present:
        for (season,) in conn.execute(f"SELECT DISTINCT season FROM {STANDINGS} ORDER BY 1"):
            if season not in seasons:
                found.append(f"{STANDINGS}: rows for {season!r}, which is no season stream")
    return found
