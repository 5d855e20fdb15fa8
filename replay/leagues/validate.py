"""``rinklog cards validate``: check team files, chart packs and leagues, every fault named.

Above both the card libraries and the league loader (a league's teams are cards), so
neither needs the other to validate a folder that holds all three. Which files are a
system's own, and how they are checked, each system's kit says (``recognise``:
replay/systems/); a league (``conferences``) is the shared league loader's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from events.errors import CardError
from replay.data.reading import read_toml, show_path
from replay.leagues.league import load_league
from replay.systems import KITS
from replay.systems.kit import Faults, first_fault

__all__ = ["validate_path"]


def validate_path(path: str | Path) -> list[str]:
    """Check a file, or every ``.toml`` below a folder: one line per fault found (every
    fault of a Hockey Bones team's cards and lines, or of its chart pack; the first fault
    of the other files).

    Each kit is asked whether a file is its own (a Hockey Bones team has ``skaters``, its
    chart pack ``faceoffs``, FaceOff's ARC cards ``cards``; a DICE Hockey team has a
    ``timing`` rating and its pack a ``penalty_a`` chart; Matrix Hockey's leagues,
    matrices, calendars and picks are replay/systems/matrix/files.py's); a league is
    checked by replay/leagues/league.py.
    """
    path = Path(path)
    if path.is_dir():
        targets = sorted(path.rglob("*.toml"))
    elif path.exists():
        targets = [path]
    else:
        return [f"{show_path(path)}: no such file or folder"]
    errors: list[str] = []
    for target in targets:
        try:
            errors += _check(target, read_toml(target))()
        except CardError as err:
            errors.append(str(err))
    return errors


def _check(target: Path, data: dict[str, Any]) -> Faults:
    """The check of one file: its system's kit's, else a league's; a file nobody knows
    is one fault."""
    for kit in KITS.values():
        check = kit.recognise(target, data)
        if check is not None:
            return check
    if "conferences" in data:  # a league (replay/leagues/league.py checks its teams too)
        return first_fault(load_league, target)
    raise CardError(f"{show_path(target)}: neither a team (no 'skaters') "
                    "a chart pack (no 'faceoffs') nor ARC cards (no 'cards')")
