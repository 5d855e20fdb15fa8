"""Hockey Bones' card library: team sheets, the chart pack, FaceOff's ARC cards and coach
files loaded from TOML, with one-line errors.

A team file holds a team's card set: skaters and goalies (cards.py) and the coach's
lines (4.00). A chart pack holds the Game Chart (7.00, 9.30, 11.20, 14.20, 16.00, ...).
Every error is a ``CardError`` on one line naming the file, the player when the fault
is inside a card, and the field, e.g.::

    fixtures/bones/teams/hfx.toml: skater 'marc-roy' (Marc Roy): field 'n': not a dice ...

Beyond msgspec's field checks, the loader checks what one field cannot: action cells
against the code grammar (8.10, 8.20, 11.10), dice ranges (3.20), unique player ids,
and that the lines name rostered players at sensible positions.

Where the fixtures are, the TOML reader and msgspec's errors as one line are shared
(replay/data/reading.py): a root holds ``bones/teams/*.toml`` and
``bones/charts/standard.toml``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec

from engine.bones.cards import ArcCards, Charts, Goalie, Skater, Team
from engine.bones.coach import CoachPolicy
from engine.bones.codes import parse_goalie_cell, parse_skater_cell
from engine.bones.dice import DiceRange
from events.errors import CardError, UnknownTeam
from replay.data.reading import (
    FIXTURES,
    cached,
    convert,
    describe,
    fixtures_root,
    read_toml,
    show_path,
)

__all__ = [
    "charts_faults",
    "default_charts",
    "find_team",
    "list_teams",
    "load_arc_cards",
    "load_coach",
    "load_charts",
    "load_team",
    "team_faults",
    "with_arc_cards",
]


def _teams_dir(root: str | Path | None) -> Path:
    base = fixtures_root(root)
    for candidate in (base / "bones" / "teams", base / "teams"):
        if candidate.is_dir():
            return candidate
    return base


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


def dice_range_fault(msg: str, value: Any) -> str | None:
    """A card's dice range (3.20) that msgspec's pattern refused, in the rule's words."""
    if "matching regex '^[1-6]-(" not in msg or not isinstance(value, str):
        return None
    try:
        DiceRange.parse(value)
    except ValueError as bad:
        return str(bad)
    return f"not a dice range: {value!r} (first number 1-6, second 2-12; 3.20)"


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
            faults.append(f"{where}{describe(err, data, fields, dice_range_fault)}")
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
    return cached(path, _team_from)


def load_charts(path: str | Path) -> Charts:
    """Load and check one chart pack; raises ``CardError`` on the first fault."""
    path = Path(path)
    return cached(path, _charts_from)


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
    return cached(Path(path), _arc_from)


def _arc_from(data: dict[str, Any], path: Path) -> ArcCards:
    return convert(data, ArcCards, f"{show_path(path)}: ", dice_range_fault)


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
