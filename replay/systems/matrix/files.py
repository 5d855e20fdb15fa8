"""The files of a Matrix Hockey league: ``league.toml``, the matrices, the calendar, and
a week's picks. Every error is one line naming the file, the field and the team.

``league.toml`` (``system = "matrix"``)::

    name = "My league"
    competitions = ["championship", "kdh", "wg"]      # optional (default: all three)
    calendar = "calendar.toml"                         # optional (default: the substitute)
    waiting_list = [{ id = "late-comers", name = "Late Comers" }]          # optional
    wg = ["team-id", ...]              # optional: a first season's twelve WG teams
    [matrices]                         # optional: paths, default fixtures/matrix/matrices
    championship = "my-matrix.toml"
    [[divisions]]                      # any number of divisions of twelve, Elite first
    id = "elite"
    name = "Elite"
    teams = [{ id = "sleigh-dogs", name = "Sleigh Dogs", number = 1 }, ...]
    [[schedule]]                       # optional: a fixed championship schedule
    week = 1
    home = "sleigh-dogs"
    away = "ice-crocodiles"
    competition = "championship"

A team may carry ``extra_goals`` and ``great_saves`` for a league's first season
(default 3 and 2, ruling M-2.1.2a).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from engine.matrix.extra_time import EXTRA_TIME_LIMITS
from engine.matrix.schedule import check_round_robin
from engine.matrix.state import WEEKS
from events.errors import CardError
from events.matrix import (
    MatrixTable,
    Pick,
    PicksSent,
    RefereeCupDrawsEntered,
    RefereeDrawsEntered,
    RefereeOnr,
    SeasonOpened,
    TeamEntry,
)
from events.plurals import counted
from replay.data.reading import FIXTURES as SHIPPED
from replay.data.reading import read_toml, show_path
from replay.systems.kit import Faults, first_fault

__all__ = ["FIXTURES", "PicksFile", "load_league", "read_picks", "recognise", "season_opened"]

FIXTURES = SHIPPED / "matrix"
FIRST_SEASON_EXTRA_GOALS = 3  # ruling M-2.1.2a: a first season has no results to count
FIRST_SEASON_GREAT_SAVES = 2  # 2.1.3.1: every team gets two


class _Team(msgspec.Struct, forbid_unknown_fields=True):
    id: Annotated[str, Meta(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: str
    number: Annotated[int, Meta(ge=1, le=12)]
    extra_goals: Annotated[int, Meta(ge=0)] = FIRST_SEASON_EXTRA_GOALS
    great_saves: Annotated[int, Meta(ge=0)] = FIRST_SEASON_GREAT_SAVES


class _Division(msgspec.Struct, forbid_unknown_fields=True):
    id: Annotated[str, Meta(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    name: str
    teams: list[_Team]
    level: Annotated[int, Meta(ge=1)] | None = None


class _Game(msgspec.Struct, forbid_unknown_fields=True):
    week: Annotated[int, Meta(ge=1, le=WEEKS)]
    home: str
    away: str
    competition: str = "championship"


class _Waiting(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    name: str


class _League(msgspec.Struct, forbid_unknown_fields=True):
    system: str
    name: str
    divisions: Annotated[list[_Division], Meta(min_length=1)]
    competitions: list[str] = msgspec.field(default_factory=lambda: ["championship", "kdh", "wg"])
    matrices: dict[str, str] = {}
    calendar: str = ""
    waiting_list: list[_Waiting] = []
    wg: list[str] = []
    schedule: list[_Game] = []


class _Matrix(msgspec.Struct, forbid_unknown_fields=True):
    label: str
    columns: list[str]
    rows: list[list[Annotated[int, Meta(ge=0)]]]


class _Calendar(msgspec.Struct, forbid_unknown_fields=True):
    label: str
    kdh_weeks: list[Annotated[int, Meta(ge=1, le=WEEKS)]]
    wg_weeks: list[Annotated[int, Meta(ge=1, le=WEEKS)]]


def _convert(data: Any, kind: type, where: str) -> Any:
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as err:
        raise CardError(f"{where}: {err}") from None


def _resolve(root: Path, value: str, default: Path) -> Path:
    return default if not value else (root / value)


def _matrix(path: Path, competition: str, rows_needed: int) -> MatrixTable:
    shown = show_path(path)
    m = _convert(read_toml(path), _Matrix, shown)
    if len(m.rows) < rows_needed:
        raise CardError(f"{shown}: the {competition} matrix needs {rows_needed} rows, "
                        f"it has {len(m.rows)}")
    for i, row in enumerate(m.rows, 1):
        if len(row) != len(m.columns):
            raise CardError(f"{shown}: row {i} has {len(row)} values for "
                            f"{len(m.columns)} columns")
    return MatrixTable(m.columns, m.rows, m.label)


def load_league(path: str | Path) -> tuple[_League, Path]:
    """The league file (a path, its folder, or a bundled league's name) and its folder."""
    p = Path(path)
    if not p.exists() and (FIXTURES / "leagues" / str(path)).is_dir():
        p = FIXTURES / "leagues" / str(path)
    if p.is_dir():
        p = p / "league.toml"
    if not p.is_file():
        raise CardError(f"{path}: no such league file (a league.toml, its folder, or a bundled "
                        f"league: {', '.join(sorted(x.name for x in (FIXTURES / 'leagues').iterdir()))})")
    shown = show_path(p)
    league = _convert(read_toml(p), _League, shown)
    if league.system != "matrix":
        raise CardError(f"{shown}: system = {league.system!r}; a Matrix Hockey league says "
                        'system = "matrix"')
    return league, p


def _levels(league: _League, shown: str) -> list[int]:
    levels = [d.level or (i + 1).bit_length() for i, d in enumerate(league.divisions)]
    counts = [levels.count(lv) for lv in range(1, max(levels) + 1)]
    if levels != sorted(levels) or counts != [2 ** i for i in range(len(counts))]:
        raise CardError(f"{shown}: divisions: levels {levels}; the pyramid of 3.1.1 has one "
                        "division at level 1 (Elite), two at level 2, four at level 3...")
    return levels


def season_opened(path: str | Path, seed: str) -> SeasonOpened:
    """A first season of the league at ``path``, seeded by ``seed``."""
    league, file = load_league(path)
    shown, root = show_path(file), file.parent
    unknown = [c for c in league.competitions if c not in EXTRA_TIME_LIMITS]
    if unknown or not league.competitions:
        raise CardError(f"{shown}: competitions: {unknown or 'none'}; known: "
                        "championship, kdh, wg")
    levels = _levels(league, shown)
    ids: set[str] = set()
    divisions = []
    for d, level in zip(league.divisions, levels, strict=True):
        if len(d.teams) != 12 or sorted(t.number for t in d.teams) != list(range(1, 13)):
            raise CardError(f"{shown}: division {d.id}: twelve teams numbered 1-12 (3.1.1)")
        for t in d.teams:
            if t.id in ids or t.id == "referee":
                raise CardError(f"{shown}: division {d.id}: team id {t.id!r} used twice "
                                "(or reserved)")
            ids.add(t.id)
        entries = [TeamEntry(t.id, t.name, t.number, t.extra_goals, t.great_saves)
                   for t in sorted(d.teams, key=lambda t: t.number)]
        divisions.append((d.id, d.name, level, entries))
    rows = {"championship": WEEKS, "kdh": 1, "wg": 8}
    matrices = {}
    for c in league.competitions:
        matrices[c] = _matrix(_resolve(root, league.matrices.get(c, ""),
                                       FIXTURES / "matrices" / f"{c}.toml"), c, rows[c])
    cal_path = _resolve(root, league.calendar, FIXTURES / "calendar.toml")
    calendar = _convert(read_toml(cal_path), _Calendar, show_path(cal_path))
    teams = len(ids)
    rounds = (teams - 1).bit_length()
    if "kdh" in league.competitions:
        if len(calendar.kdh_weeks) < rounds:
            raise CardError(f"{show_path(cal_path)}: kdh_weeks: {counted(teams, 'team')} need {rounds} "
                            "KDH rounds")
        if len(matrices["kdh"].rows) < rounds:
            raise CardError(f"the KDH matrix needs {rounds} rows for {counted(teams, 'team')}")
    wg = _wg(league, divisions, shown) if "wg" in league.competitions else []
    if "wg" in league.competitions and len(calendar.wg_weeks) != 8:
        raise CardError(f"{show_path(cal_path)}: wg_weeks: 8 weeks (6 group rounds, semis, final)")
    schedule = _schedule(league, divisions, shown)
    slug = re.sub(r"[^a-z0-9]+", "-", f"{file.parent.name}-{seed}".lower()).strip("-")
    return SeasonOpened(
        f"matrix-{slug}-s1", league.name, 1, seed, divisions, matrices,
        list(league.competitions), calendar.kdh_weeks, calendar.wg_weeks, wg,
        [(w.id, w.name) for w in league.waiting_list], schedule)


def _wg(league: _League, divisions: list, shown: str) -> list[str]:
    """The first season's twelve WG teams: ``wg`` in the league file, else the teams
    numbered 01 of every division, then the 02s... (ruling M-3.3.1b)."""
    ids = [e.id for _, _, _, entries in divisions for e in entries]
    if league.wg:
        bad = [t for t in league.wg if t not in ids]
        if bad or len(set(league.wg)) != 12:
            raise CardError(f"{shown}: wg: twelve different teams of the league"
                            + (f" ({', '.join(bad)} unknown)" if bad else ""))
        return list(league.wg)
    if len(ids) < 12:
        raise CardError(f"{shown}: the WG cup needs twelve teams")
    by_number = sorted(((e.number, i, e.id) for i, (_, _, _, entries) in enumerate(divisions)
                        for e in entries))
    return [t for _, _, t in by_number[:12]]


def _schedule(league: _League, divisions: list, shown: str) -> list[tuple[int, str, str]]:
    if not league.schedule:
        return []
    games = []
    known = {e.id for _, _, _, entries in divisions for e in entries}
    for g in league.schedule:
        for team in (g.home, g.away):
            if team not in known:
                raise CardError(f"{shown}: schedule: week {g.week}: no team {team!r} in "
                                "the league's divisions")
        if g.competition != "championship":
            raise CardError(f"{shown}: schedule: week {g.week}: competition "
                            f"{g.competition!r}; only the championship is scheduled (the "
                            "cups are drawn, 3.2.1 and 3.3.1)")
        games.append((g.week, g.home, g.away))
    for division_id, _, _, entries in divisions:
        teams = [e.id for e in entries]
        weeks: dict[int, list[tuple[str, str]]] = {}
        for week, home, away in games:
            if home in teams or away in teams:
                weeks.setdefault(week, []).append((home, away))
        problem = check_round_robin(teams, weeks)
        if problem:
            raise CardError(f"{shown}: schedule of division {division_id}: {problem}")
    return games


# --- a week's picks --------------------------------------------------------------------------

class _Pick(msgspec.Struct, forbid_unknown_fields=True):
    column: str
    extra_time: str | int
    extra_goals: Annotated[int, Meta(ge=0)] = 0
    great_saves: Annotated[int, Meta(ge=0)] = 0
    shootout: str | int = ""
    competition: str = ""


class _Onr(msgspec.Struct, forbid_unknown_fields=True):
    column: str = ""
    extra_time: str | int = ""


_X = dict[str, Annotated[int, Meta(ge=0, le=3)]]


class _Referee(msgspec.Struct, forbid_unknown_fields=True):
    bonus: dict[str, str] = {}
    onr: dict[str, _Onr] = {}
    x: _X = {}  # the championship's X (or the team's one game)
    x_kdh: _X = {}  # 2.2: one X per game
    x_wg: _X = {}
    shootout: dict[str, Annotated[int, Meta(ge=0, le=5)]] = {}  # the KDH shootout X


@dataclass(frozen=True)
class PicksFile:
    """A week's picks file read: each team's picks, the ``[referee]`` table (None: none)
    and its cup draws (None: none typed)."""

    sent: list[PicksSent]
    table: RefereeDrawsEntered | None
    cup: RefereeCupDrawsEntered | None


def read_picks(path: Path, week: int, plays: dict[str, list[str]]) -> PicksFile:
    """A week's picks file: one table per team id (or an array of tables, one for each
    competition the team plays), and an optional ``[referee]`` table. ``plays``: the
    competitions each team plays that week, in order (a table without ``competition``
    is the first of them: the championship)."""
    shown = show_path(path)
    data = read_toml(path)
    referee = cup = None
    if "referee" in data:
        r = _convert(data.pop("referee"), _Referee, f"{shown}: [referee]")
        referee = RefereeDrawsEntered(
            week, dict(r.bonus), {t: RefereeOnr(o.column.upper(), str(o.extra_time).upper())
                                  for t, o in r.onr.items()}, dict(r.x))
        cup_x = {c: dict(x) for c, x in (("kdh", r.x_kdh), ("wg", r.x_wg)) if x}
        if cup_x or r.shootout:
            cup = RefereeCupDrawsEntered(week, cup_x, dict(r.shootout))
    sent = []
    for team, tables in data.items():
        if team not in plays:
            raise CardError(f"{shown}: [{team}]: no such team in this season")
        tables = tables if isinstance(tables, list) else [tables]
        picks = []
        for table in tables:
            p = _convert(table, _Pick, f"{shown}: [{team}]")
            competition = p.competition or (plays[team][0] if plays[team] else "championship")
            picks.append(Pick(competition, p.column.upper(), str(p.extra_time).upper(),
                              p.extra_goals, p.great_saves, str(p.shootout).upper()))
        sent.append(PicksSent(week, team, picks))
    return PicksFile(sent, referee, cup)


def recognise(path: Path, data: Mapping[str, Any]) -> Faults | None:
    """``cards validate``'s question: the check of a Matrix Hockey file (a league, a
    matrix, a calendar, a week's picks; each raises its first fault), None when ``data``
    is none of them."""
    if data.get("system") == "matrix":
        return first_fault(lambda p: season_opened(p, "validate"), path)
    if "columns" in data and "rows" in data:
        return first_fault(lambda p: _matrix(p, "a", 1), path)
    if "kdh_weeks" in data:
        return first_fault(lambda p: _convert(data, _Calendar, show_path(p)), path)
    if data and all(isinstance(v, dict | list) for v in data.values()) and all(
            "column" in t for k, v in data.items() if k != "referee"
            for t in (v if isinstance(v, list) else [v])):
        teams = [k for k in data if k != "referee"]
        return first_fault(lambda p: read_picks(p, 1, {t: ["championship"] for t in teams}), path)
    return None
