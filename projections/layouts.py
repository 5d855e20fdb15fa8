"""The layouts older rinklogs stored the read models in, and the rows each layout holds.

A projection's layout is the columns of its tables. A database written by an older
rinklog keeps its tables as that rinklog made them until a command opens it for writing
(projections/store.py folds them again then); the read-only audit holds such rows to the
events as that rinklog folded them: today's fold with what changed since undone, exactly
(old games re-check under the rules they were played under). Tables whose columns are
neither today's nor an older rinklog's are a finding: no layout is taken on trust.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from projections.models.stats import GameStats

__all__ = ["FORMER_TABLES", "OLDER_LAYOUTS", "TODAY", "Layout", "goalies_as_skaters",
           "layout_of", "unknown_layout"]

Rows = dict[str, list[dict[str, Any]]]  # a builder's rows, by table


@dataclass(frozen=True)
class Layout:
    """A projection's tables as one rinklog stored them: today's columns less ``missing``;
    ``goalies_as_skaters``: a goalie's scoring on a skater row (before issue 34)."""

    name: str
    missing: Mapping[str, frozenset[str]] = field(default_factory=dict)  # table -> columns
    goalies_as_skaters: bool = False


# Tables an older rinklog stored that today's does not (table -> its projection and its
# columns): rm_toi_shifts kept a row a shift until issue 35 packed a player's shifts of a
# game in one row of rm_toi_player_shifts (23 bytes an event fewer in DICE Hockey); a view
# of that name reads them back a shift a row. Today's layout has none of these tables.
FORMER_TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "rm_toi_shifts": ("toi", ("game_id", "team", "player", "shift", "period", "start", "end",
                              "duration", "charge")),
}
TODAY = Layout("today's", {table: frozenset(columns)
                           for table, (_, columns) in FORMER_TABLES.items()})
_SCORING = frozenset({"g", "a", "p", "pim"})  # issue 34 item 3: on the goalie line since
_PLAYER_SHIFTS = frozenset({"game_id", "team", "player", "shifts"})
OLDER_LAYOUTS: dict[str, tuple[Layout, ...]] = {
    "toi": (
        Layout("before a player's shifts were one row (issue 35)",
               {"rm_toi_player_shifts": _PLAYER_SHIFTS}),
    ),
    # The stats tables as older rinklogs stored them, newest first, each named by the
    # change that ended it (the history of TABLES and of the counts' columns).
    "stats": (
        Layout("before a goalie's g, a, p and pim were on his goalie line",
               {"rm_goalie_stats": _SCORING}, goalies_as_skaters=True),
        Layout("before games_in_net (a DICE Hockey goalie's GAA)",
               {"rm_goalie_stats": _SCORING | {"games_in_net"}}, goalies_as_skaters=True),
        Layout("before ties (FaceOff 2008, 5.00)",
               {"rm_goalie_stats": _SCORING | {"games_in_net", "t"},
                "rm_team_stats": frozenset({"t"})}, goalies_as_skaters=True),
    ),
}


def layout_of(projection: str, today: Mapping[str, Sequence[str]],
              stored: Mapping[str, Sequence[str]]) -> Layout | None:
    """The layout whose columns every table of ``projection`` has in ``stored`` (table ->
    its columns; ``today``: table -> today's columns, or a former table's last ones), or
    None: no rinklog stored these."""
    for layout in (TODAY, *OLDER_LAYOUTS.get(projection, ())):
        if all(set(columns) == set(today[table]) - layout.missing.get(table, frozenset())
               for table, columns in stored.items()):
            return layout
    return None


def unknown_layout(table: str, columns: Sequence[str]) -> str:
    """The finding of a table whose columns are in no layout a rinklog wrote."""
    return (f"{table}: columns {', '.join(columns) or '(none: no such table)'} are neither "
            "today's layout nor an older rinklog's")


def goalies_as_skaters(rows: Rows, stats: GameStats, game_id: str) -> Rows:
    """Today's stats rows of one game as a rinklog before issue 34 folded them: the exact
    inverse of what moved (``moved_to_goalie_lines``): each goalie's skater row back as
    the fold counted it (his scoring, GP 0), his goalie line without the scoring, and no
    goalie line for a goalie who was never in net."""
    moved = stats.moved_to_goalie_lines
    goalies = [{k: v for k, v in row.items() if k not in _SCORING}
               for row in rows["rm_goalie_stats"]
               if not moved.get((row["team"], row["player"]), ({}, False))[1]]
    skaters = [{"game_id": game_id, "team": team, "player": player, **counts}
               for (team, player), (counts, _) in moved.items()]
    return {**rows, "rm_player_stats": rows["rm_player_stats"] + skaters,
            "rm_goalie_stats": goalies}
