"""Loading team sheets and the chart pack from TOML, with one-line errors.

A team file holds a team's card set: skaters and goalies (cards.py) and the coach's
lines (4.00). A chart pack holds the Game Chart (7.00, 9.30, 11.20, 14.20, 16.00, ...).
Every error is a ``CardError`` on one line naming the file, the player when the fault
is inside a card, and the field, e.g.::

    fixtures/bones/teams/hfx.toml: skater 'marc-roy' (Marc Roy): field 'n': not a dice ...

Beyond msgspec's field checks, the loader checks what one field cannot: action cells
against the code grammar (8.10, 8.20, 11.10), dice ranges (3.20), unique player ids,
and that the lines name rostered players at sensible positions.

The shipped fixtures live in the top-level ``fixtures/`` package; ``RINKLOG_FIXTURES``
names another root laid out the same way (``bones/teams/*.toml``,
``bones/charts/standard.toml``), e.g. a user's own chart pack and teams.
"""

from __future__ import annotations

import functools
import os
import re
import tomllib
from collections.abc import Callable, Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import msgspec

from engine.bones.cards import ArcCards, Charts, Goalie, Skater, Team
from engine.bones.coach import CoachPolicy
from engine.bones.codes import parse_goalie_cell, parse_skater_cell
from engine.dice import DiceRange
from events.errors import CardError, UnknownTeam

__all__ = [
    "FIXTURES",
    "default_charts",
    "find_team",
    "fixtures_root",
    "list_teams",
    "load_charts",
    "load_team",
]


def _shipped_fixtures() -> Path:
    """The ``fixtures`` package folder, found as a resource, else beside this package."""
    try:
        path = Path(str(files("fixtures").joinpath("bones"))).parent
        if (path / "bones" / "charts").is_dir():
            return path
    except (ImportError, OSError, TypeError, ValueError):  # e.g. an editable namespace path
        pass
    return Path(__file__).resolve().parent.parent / "fixtures"


FIXTURES: Path = _shipped_fixtures()


def fixtures_root(root: str | Path | None = None) -> Path:
    """The fixtures root: ``root`` if given, else ``$RINKLOG_FIXTURES``, else FIXTURES."""
    if root is not None:
        return Path(root)
    env = os.environ.get("RINKLOG_FIXTURES")
    return Path(env) if env else FIXTURES


def _teams_dir(root: str | Path | None) -> Path:
    base = fixtures_root(root)
    for candidate in (base / "bones" / "teams", base / "teams"):
        if candidate.is_dir():
            return candidate
    return base


def show_path(path: Path) -> str:
    """The path as a person typed it, or relative to the working folder when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# --- msgspec errors as one line --------------------------------------------------------

_AT = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_STEP = re.compile(r"\.(\w+)|\[(\d+)\]")


def _value_at(data: Any, path: str) -> Any:
    for key, index in _STEP.findall(path):
        try:
            data = data[key] if key else data[int(index)]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _describe(err: msgspec.ValidationError, data: Any, fields: tuple[str, ...]) -> str:
    """Turn msgspec's message into ``field 'x': what was wrong``."""
    match = _AT.match(str(err))
    assert match is not None
    msg, path = match["msg"].replace("`", ""), (match["path"] or "")
    missing = re.match(r"Object (missing required|contains unknown) field (\w+)", msg)
    if missing:
        path = f"{path}.{missing[2]}"
        msg = "missing" if missing[1].startswith("missing") else "not a known field"
    value = _value_at(data, path) if path else None
    if "matching regex '^[1-6]-(" in msg and isinstance(value, str):  # a RangeText
        try:
            DiceRange.parse(value)
        except ValueError as bad:
            msg = str(bad)
        else:
            msg = f"not a dice range: {value!r} (first number 1-6, second 2-12; 3.20)"
    elif msg.startswith("Expected") and ", got" not in msg and path:
        msg += f", got {len(value)}" if isinstance(value, list) else f", got {value!r}"
    if not path:  # a check in __post_init__: name the field it quotes, if any
        quoted = [f for f in re.findall(r"`(\w+)`", str(err)) if f in fields]
        path = f".{quoted[0]}" if quoted else ""
    where = f"field '{path.lstrip('.')}': " if path else ""
    return where + msg


_FIELD = re.compile(r"at `\$\.(\w+)|(missing required|contains unknown) field `(\w+)`")


def _template(kind: str) -> Any:
    """Raw TOML of a shipped card (or chart pack): stand-in values for faulty fields."""
    team = FIXTURES / "bones" / "teams" / "hfx.toml"
    path = FIXTURES / "bones" / "charts" / "standard.toml" if kind == "charts" else team
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return data if kind in ("team", "charts") else (data.get(f"{kind}s") or [None])[0]


def _convert_all(data: Any, kind: type, where: str, template: str) -> tuple[Any, list[str]]:
    """``data`` converted, and a fault line for every faulty field: each fault found is
    noted, its field given a shipped card's value (an unknown field is dropped) and the
    conversion tried again. The object holds those stand-ins: use it only to look for
    more faults when there are any."""
    faults: list[str] = []
    seen: set[str] = set()
    stand_in: Any = None
    fields = tuple(getattr(kind, "__struct_fields__", ()))
    while True:
        try:
            return msgspec.convert(data, kind), faults
        except msgspec.ValidationError as err:
            faults.append(f"{where}{_describe(err, data, fields)}")
            found = _FIELD.search(str(err))
            key = found and (found[1] or found[3])
            if not key or key in seen or not isinstance(data, dict):
                return None, faults  # a fault of the whole, or one that stays
            seen.add(key)
            stand_in = stand_in if stand_in is not None else _template(template) or {}
            data = dict(data)
            if found[2] != "contains unknown" and key in stand_in:
                data[key] = stand_in[key]
            else:
                data.pop(key, None)


def convert(data: Any, kind: type, where: str) -> Any:
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as err:
        fields = tuple(getattr(kind, "__struct_fields__", ()))
        raise CardError(f"{where}{_describe(err, data, fields)}") from None


def read_toml(path: Path) -> dict[str, Any]:
    shown = show_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise CardError(f"{shown}: cannot read: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise CardError(f"{shown}: not UTF-8 text (byte {err.object[err.start]:#04x} at "
                        f"offset {err.start}); save it as UTF-8") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line = re.search(r"\(at line (\d+), column (\d+)\)", str(err))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(err)) or "invalid TOML"
        where = f"line {line[1]}: " if line else ""
        raise CardError(f"{shown}: {where}TOML syntax error: {msg}") from None


# --- cross-field checks -----------------------------------------------------------------
# Each check yields every fault it finds, so `cards validate` can list them all; the
# loaders raise the first.

def _range_faults(obj: Any, names: tuple[str, ...], where: str) -> Iterator[str]:
    for name in names:
        text = getattr(obj, name)
        if text is not None:
            try:
                DiceRange.parse(text)
            except ValueError as err:
                yield f"{where}field '{name}': {err}"


def _matrix_faults(matrix: list[list[str]], parse: Callable[[str], Any],
                   where: str) -> Iterator[str]:
    for blue, column in enumerate(matrix, start=1):
        for white, cell in enumerate(column, start=2):
            try:
                parse(cell)
            except ValueError as err:
                yield (f"{where}field 'action[{blue - 1}][{white - 2}]' "
                       f"(blue {blue}, white {white}): {err}")


def _player(raw: Any, kind: str, index: int) -> str:
    if isinstance(raw, dict) and isinstance(raw.get("id"), str):
        name = raw.get("name")
        return f"{kind} {raw['id']!r}" + (f" ({name})" if isinstance(name, str) else "")
    return f"{kind} #{index + 1}"


def _line_faults(team: Team, shown: str) -> Iterator[str]:
    """Lines name rostered players; pairs hold defensemen, lines hold forwards (4.00)."""
    skaters = {s.id: s for s in team.skaters}
    goalies = {g.id for g in team.goalies}
    seen: set[str] = set()
    named = [(f"lines.forwards[{i}][{j}]", pid, "F") for i, line in enumerate(team.lines.forwards)
             for j, pid in enumerate(line)]
    named += [(f"lines.defense[{i}][{j}]", pid, "D") for i, pair in enumerate(team.lines.defense)
              for j, pid in enumerate(pair)]
    for field, pid, need in named:
        where = f"{shown}: field '{field}': player {pid!r}"
        if pid not in skaters:
            yield f"{where} is not a skater on this team"
            continue
        if pid in seen:
            yield f"{where} is named twice in the lines"
        seen.add(pid)
        card = skaters[pid]
        if need == "D" and not card.is_defenseman:
            yield f"{where} ({card.name}) is not a defenseman"
        if need == "F" and not set(card.positions) & {"LW", "C", "RW"}:
            yield f"{where} ({card.name}) is not a forward"
    for i, gid in enumerate(team.lines.goalies):
        where = f"{shown}: field 'lines.goalies[{i}]': player {gid!r}"
        if gid not in goalies:
            yield f"{where} is not a goalie on this team"
        elif team.lines.goalies.index(gid) != i:
            yield f"{where} is named twice in the lines"


# --- public loaders ---------------------------------------------------------------------

def team_faults(data: dict[str, Any], path: Path) -> tuple[Team | None, list[str]]:
    """The team, or None, and every fault found: each card's, then the team's own."""
    shown = show_path(path)
    faults: list[str] = []
    ids: set[str] = set()
    for kind, model, parse, ranges in (
        ("skater", Skater, parse_skater_cell, ("n", "p", "s", "d", "mc")),
        ("goalie", Goalie, parse_goalie_cell, ("assist_range", "mc", "gm_range")),
    ):
        raws = data.get(f"{kind}s")
        for i, raw in enumerate(raws if isinstance(raws, list) else []):
            where = f"{shown}: {_player(raw, kind, i)}: "
            card, wrong = _convert_all(raw, model, where, kind)
            faults += wrong
            if card is None:
                continue
            faults += _range_faults(card, ranges, where)
            faults += _matrix_faults(card.action, parse, where)
            if card.id in ids:
                faults.append(f"{where}field 'id': {card.id!r} is used twice in this team")
            ids.add(card.id)
    if faults:  # the team's own fields still count; its cards' faults are listed above
        stand_in = _template("team") or {}
        rest = {**data, **{k: stand_in.get(k, []) for k in ("skaters", "goalies")}}
        return None, faults + _convert_all(rest, Team, f"{shown}: ", "team")[1]
    team, faults = _convert_all(data, Team, f"{shown}: ", "team")
    if team is None:
        return None, faults
    faults += _range_faults(team, ("bench_minor", "game_misconduct"), f"{shown}: ")
    if not faults:  # lines are checked against the team's own cards, not stand-ins
        faults += _line_faults(team, shown)
    return team, faults


def _team_from(data: dict[str, Any], path: Path) -> Team:
    team, faults = team_faults(data, path)
    if faults or team is None:
        raise CardError(faults[0])
    return team


def _chart_faults(charts: Charts, shown: str) -> Iterator[str]:
    known = set(Charts.__struct_fields__)
    for i, name in enumerate(charts.substitute):
        if name not in known:
            yield f"{shown}: field 'substitute[{i}]': {name!r} is not a chart"
    totals = [row.total for row in charts.team_defense]
    if totals != sorted(set(totals)):
        yield f"{shown}: field 'team_defense': totals must rise, got {totals}"
    for field in ("clearing", "shootout"):
        cells = getattr(charts, field)
        flat = [c for row in cells for c in row] if field == "shootout" else cells
        for text in flat:
            try:
                DiceRange.parse(text)
            except ValueError as err:
                yield f"{shown}: field '{field}': {err}"
    for blue, column in enumerate(charts.special_occurrences):
        for white, index in enumerate(column, start=2):
            if index >= len(charts.occurrences):
                yield (f"{shown}: field 'special_occurrences[{blue}][{white - 2}]': "
                       f"{index} is past the {len(charts.occurrences)} occurrences")
    for row, cells in enumerate(charts.injuries):
        for white, cell in enumerate(cells, start=2):
            if not re.fullmatch(r"P|G|-[1-3]", cell):
                yield (f"{shown}: field 'injuries[{row}][{white - 2}]': {cell!r} is "
                       "not an injury result (P, G, -1, -2, -3; 18.10)")
    for col, cells in enumerate(charts.bench_penalty):
        for white, cell in enumerate(cells, start=2):
            if not re.fullmatch(r"([01]?\d):[0-5]\d", cell):
                yield (f"{shown}: field 'bench_penalty[{col}][{white - 2}]': "
                       f"{cell!r} is not a time MM:SS (5.00)")
    for i, whites in enumerate(charts.blocked_shots):
        if not whites or any(not 2 <= w <= 12 for w in whites):
            yield f"{shown}: field 'blocked_shots[{i}]': white totals run 2-12"


def charts_faults(data: dict[str, Any], path: Path) -> tuple[Charts | None, list[str]]:
    shown = show_path(path)
    charts, faults = _convert_all(data, Charts, f"{shown}: ", "charts")
    if charts is None:
        return None, faults
    return charts, faults + list(_chart_faults(charts, shown))


def _charts_from(data: dict[str, Any], path: Path) -> Charts:
    charts, faults = charts_faults(data, path)
    if faults or charts is None:
        raise CardError(faults[0])
    return charts


def load_team(path: str | Path) -> Team:
    """Load and check one team file; raises ``CardError`` on the first fault."""
    path = Path(path)
    return _cached(path, _team_from)


def load_charts(path: str | Path) -> Charts:
    """Load and check one chart pack; raises ``CardError`` on the first fault."""
    path = Path(path)
    return _cached(path, _charts_from)


def _cached(path: Path, build: Callable[[dict[str, Any], Path], Any]) -> Any:
    """Parse a file once per version of it (path, size and mtime): a season loads the
    same teams thousands of times, and TOML parsing dominated a simulated game."""
    try:
        stat = path.stat()
    except OSError:
        return build(read_toml(path), path)  # read_toml names the file in its error
    return _load_once(str(path), stat.st_size, stat.st_mtime_ns, build)


@functools.lru_cache(maxsize=256)
def _load_once(path: str, size: int, mtime_ns: int,
               build: Callable[[dict[str, Any], Path], Any]) -> Any:
    return build(read_toml(Path(path)), Path(path))


def list_teams(root: str | Path | None = None) -> list[Team]:
    """Every team under the fixtures root (``bones/teams/*.toml``), sorted by id."""
    return sorted((load_team(p) for p in sorted(_teams_dir(root).glob("*.toml"))),
                  key=lambda team: team.id)


def find_team(team_id: str, root: str | Path | None = None) -> Team:
    """The team with this id (case-insensitive); ``UnknownTeam`` lists the ids there are."""
    folder = _teams_dir(root)
    direct = folder / f"{team_id.lower()}.toml"
    if re.fullmatch(r"[A-Za-z0-9]{1,12}", team_id) and direct.is_file():  # not '../x', NUL
        team = load_team(direct)
        if team.id == team_id.upper():
            return team
    teams = list_teams(root)
    for team in teams:
        if team.id == team_id.upper():
            return team
    have = ", ".join(t.id for t in teams) or "none"
    raise UnknownTeam(f"no team {team_id!r} in {show_path(folder)} (teams: {have})")


def default_charts(root: str | Path | None = None) -> Charts:
    """The chart pack ``bones/charts/standard.toml`` under the fixtures root."""
    base = fixtures_root(root)
    for candidate in (base / "bones" / "charts" / "standard.toml",
                      base / "charts" / "standard.toml", base / "standard.toml"):
        if candidate.is_file():
            return load_charts(candidate)
    return load_charts(FIXTURES / "bones" / "charts" / "standard.toml")


def load_arc_cards(path: str | Path) -> ArcCards:
    """Load and check an ARC card pack (FaceOff 21.000); ``CardError`` names the fault."""
    return _cached(Path(path), _arc_from)


def _arc_from(data: dict[str, Any], path: Path) -> ArcCards:
    return convert(data, ArcCards, f"{show_path(path)}: ")


def with_arc_cards(charts: Charts, root: str | Path | None = None) -> Charts:
    """The chart pack with the ARC cards ``bones/charts/arc.toml`` under the fixtures root
    (else the bundled substitutes) added, for a FaceOff game that uses them (21.000)."""
    base = fixtures_root(root)
    for candidate in (base / "bones" / "charts" / "arc.toml", base / "charts" / "arc.toml"):
        if candidate.is_file():
            return msgspec.structs.replace(charts, arc=load_arc_cards(candidate))
    return msgspec.structs.replace(
        charts, arc=load_arc_cards(FIXTURES / "bones" / "charts" / "arc.toml"))


def load_coach(path: str | Path) -> tuple[CoachPolicy, CoachPolicy]:
    """A coach file (docs/coach.md): top-level keys for both teams, ``[home]`` and
    ``[away]`` tables for one. Raises ``CardError`` naming the file and field."""
    path = Path(path)
    data = read_toml(path)
    shown = show_path(path)
    both = {k: v for k, v in data.items() if k not in ("home", "away")}
    policies = []
    for side in ("home", "away"):
        own = data.get(side, {})
        if not isinstance(own, dict):
            raise CardError(f"{shown}: field '{side}': expected a table of coach settings")
        try:
            policies.append(msgspec.convert({**both, **own}, CoachPolicy))
        except msgspec.ValidationError as err:
            raise CardError(f"{shown}: {side} coach: {err}") from None
    return policies[0], policies[1]
