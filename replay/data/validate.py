"""``rinklog cards validate``: check team files, chart packs and leagues, every fault named.

Above both the card library and the league loader (a league's teams are cards), so neither
needs the other to validate a folder that holds all three.
"""

from __future__ import annotations

from pathlib import Path

from events.errors import CardError
from replay.data.dicehockey_library import load_dicehockey_charts, load_dicehockey_team
from replay.data.library import charts_faults, load_arc_cards, read_toml, show_path, team_faults
from replay.leagues.league import load_league
from replay.matrix.files import validate_file as validate_matrix_file

__all__ = ["validate_path"]


def validate_path(path: str | Path) -> list[str]:
    """Check a file, or every ``.toml`` below a folder: one line per fault found (every
    fault of a team's cards and lines, or of a chart pack; a league's first fault).

    A file with a ``skaters`` key is a team; one with ``faceoffs`` is a chart pack; a
    DICE Hockey team has a ``timing`` rating and a DICE Hockey pack a ``penalty_a`` chart
    (each reports its first fault); Matrix Hockey's leagues, matrices, calendars and
    picks are checked by replay/matrix/files.py.
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
            data = read_toml(target)
            if "skaters" in data and "timing" in data:  # a DICE Hockey team (12: timing)
                load_dicehockey_team(target)
            elif "penalty_a" in data:  # a DICE Hockey chart pack
                load_dicehockey_charts(target)
            elif "skaters" in data:
                errors += team_faults(data, target)[1]
            elif "faceoffs" in data:
                errors += charts_faults(data, target)[1]
            elif "cards" in data:  # FaceOff 2008 ARC cards (21.000)
                load_arc_cards(target)
            elif "conferences" in data:  # a league (replay/leagues/league.py checks its teams too)
                load_league(target)
            elif validate_matrix_file(target, data):  # Matrix Hockey (replay/matrix/files.py)
                pass
            else:
                raise CardError(f"{show_path(target)}: neither a team (no 'skaters') "
                                "a chart pack (no 'faceoffs') nor ARC cards (no 'cards')")
        except CardError as err:
            errors.append(str(err))
    return errors
