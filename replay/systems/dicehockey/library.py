"""Loading DICE Hockey teams and chart packs from TOML (or JSON), with one-line errors.

The shipped files live under ``fixtures/dicehockey/`` (``teams/*.toml``,
``charts/standard.toml``); ``RINKLOG_FIXTURES`` names another root laid out the same way.
Every error is a ``CardError`` on one line naming the file, the player when the fault is
inside a card, and the field, e.g.::

    fixtures/dicehockey/teams/ald.toml: skater 'leif-pell' (Leif Pell): field 'goal': ...
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import msgspec

from engine.dicehockey.cards import Charts, Team
from events.errors import CardError, UnknownTeam
from replay.data.reading import fixtures_root, read_toml, show_path

__all__ = ["dicehockey_charts", "find_dicehockey_team", "list_dicehockey_teams",
           "load_dicehockey_charts", "load_dicehockey_team"]

_AT = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_CARD = re.compile(r"^\.(?P<kind>skaters|goalies)\[(?P<index>\d+)\](?P<rest>.*)$")


def _where(data: dict[str, Any], path: str) -> str:
    """``skater 'id' (Name): field 'x'`` for a path inside a card, else ``field 'x'``."""
    card = _CARD.match(path)
    if card:
        cards = data.get(card["kind"]) or []
        index = int(card["index"])
        entry = cards[index] if index < len(cards) and isinstance(cards[index], dict) else {}
        who = f"{card['kind'][:-1]} {entry.get('id', index)!r} ({entry.get('name', '?')})"
        rest = card["rest"].lstrip(".")
        return f"{who}: field '{rest}'" if rest else who
    return f"field '{path.lstrip('.')}'" if path else ""


def _convert(data: dict[str, Any], kind: type, path: Path) -> Any:
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as err:
        match = _AT.match(str(err))
        assert match is not None
        msg, at = match["msg"].replace("`", ""), match["path"] or ""
        missing = re.match(r"Object (missing required|contains unknown) field (\w+)", msg)
        if missing:
            at = f"{at}.{missing[2]}"
            msg = "missing" if missing[1].startswith("missing") else "not a known field"
        where = _where(data, at)
        raise CardError(f"{show_path(path)}: {where + ': ' if where else ''}{msg}") from None


def _read(path: Path) -> dict[str, Any]:
    """A TOML file, or a JSON one (``.json``), as plain data."""
    if path.suffix != ".json":
        return read_toml(path)
    try:
        data = msgspec.json.decode(path.read_bytes())
    except OSError as err:
        raise CardError(f"{show_path(path)}: cannot read: {err.strerror or err}") from None
    except msgspec.DecodeError as err:
        raise CardError(f"{show_path(path)}: JSON syntax error: {err}") from None
    if not isinstance(data, dict):
        raise CardError(f"{show_path(path)}: a JSON object is expected")
    return data


def load_dicehockey_team(path: str | Path) -> Team:
    """A team file, TOML or JSON."""
    path = Path(path)
    return _convert(_read(path), Team, path)


def load_dicehockey_charts(path: str | Path) -> Charts:
    """A chart pack, TOML or JSON."""
    path = Path(path)
    return _convert(_read(path), Charts, path)


def _root(root: str | Path | None) -> Path:
    """The folder that holds ``teams/`` and ``charts/``: a fixtures root's
    ``dicehockey/``, or a league folder itself."""
    base = fixtures_root(root)
    return base / "dicehockey" if (base / "dicehockey").is_dir() else base


@functools.cache
def _charts_at(path: Path) -> Charts:
    return load_dicehockey_charts(path)


def dicehockey_charts(root: str | Path | None = None) -> Charts:
    """The chart pack: ``dicehockey/charts/standard.toml`` under the fixtures root (a
    league folder without a ``charts/`` of its own plays the shipped pack)."""
    path = _root(root) / "charts" / "standard.toml"
    if not path.exists():
        path = _root(None) / "charts" / "standard.toml"
    return _charts_at(path)


def list_dicehockey_teams(root: str | Path | None = None) -> list[str]:
    return sorted(p.stem.upper() for p in (_root(root) / "teams").glob("*.toml"))


def find_dicehockey_team(team_id: str, root: str | Path | None = None) -> Team:
    path = _root(root) / "teams" / f"{team_id.lower()}.toml"
    if not path.exists():
        known = ", ".join(list_dicehockey_teams(root))
        raise UnknownTeam(f"no DICE Hockey team {team_id!r} (known: {known})")
    return load_dicehockey_team(path)
