"""An odds record in a season stream (``rinklog odds --record``, docs/odds.md), checked
against the season before it: what the audit's re-check (engine/matrix/recheck.py) and
the recorder (replay/leagues/matrix/odds.py, before it appends) ask of a
:class:`MatrixOddsRecorded`. Pure: a record is a reading of the season, no rule and no
die; only the sums its counts must make are checked, not the runs themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from msgspec import UNSET
from mypy_extensions import mypyc_attr

from engine.matrix.seasons import PROMOTED, RELEGATED, parent_and_children, season_records
from engine.matrix.state import WEEKS, SeasonState
from events.errors import RinklogError
from events.matrix import MatrixOddsRecorded

__all__ = ["Places", "check_odds_record", "odds_places"]


# A plain Python class when compiled too, as every frozen dataclass of a rules module
# (tests/test_compiled.py).
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Places:
    """How many teams of each division go up and down in every run (3.1.6)."""

    up: dict[str, int]
    down: dict[str, int]


def odds_places(state: SeasonState) -> Places:
    """3.1.6: the top two of a division with a parent go up (a team that can no longer be
    promoted leaves its place to the next, ruling M-3.1.6b: fewer only when fewer than two
    may go up), the last four of a division with children go down. An odds run sends no
    team ONR (replay/leagues/matrix/odds.py), so no team loses promotion in a run."""
    up, down = {}, {}
    for d in state.divisions:
        parent, children = parent_and_children(state, d.id)
        may = sum(not state.teams[t].no_promotion for t in d.teams)
        up[d.id] = min(PROMOTED, may) if parent is not None else 0
        down[d.id] = min(RELEGATED, len(d.teams)) if children else 0
    return Places(up, down)


def check_odds_record(state: SeasonState, event: MatrixOddsRecorded,
                      runs_required: bool = False) -> MatrixOddsRecorded:
    """``event`` if it may follow ``state`` and adds up; a RinklogError saying what does
    not: recorded between weeks before the close, the weeks as played, every team once in
    its division, each place of a division one team a run, the promotion and relegation
    places filled every run, one winner a cup a run, no team's points below its points at
    the record (3.1.4: points only grow); with its runs (issue 33) where the season
    requires them (``runs_required``; the runs themselves are held by the replay layer,
    replay/leagues/matrix/odds_leaves.py, with the Merkle tree)."""
    if state.week or state.closed is not None:
        raise RinklogError("odds recorded inside a week or after the close")
    if runs_required and (event.leaves is UNSET or event.root is UNSET):
        raise RinklogError("odds recorded without their runs (the old form): this season "
                           "records odds with their runs (a season of version 2, or one "
                           "holding such a record already)")
    n = event.runs
    if n < 1:
        raise RinklogError(f"odds of {n} runs")
    played = len(state.weeks_played)
    if (event.weeks_played, event.weeks_remaining) != (played, WEEKS - played):
        raise RinklogError(f"odds after {event.weeks_played} weeks ({event.weeks_remaining} "
                           f"to play); the season has played {played} of {WEEKS}")
    if event.competitions != list(state.created.competitions):
        raise RinklogError(f"odds of the competitions {event.competitions}; the season "
                           f"plays {list(state.created.competitions)}")
    division_of = {t: d.id for d in state.divisions for t in d.teams}
    if sorted(t.team for t in event.teams) != sorted(division_of):
        raise RinklogError("the odds' teams are not the season's, each once")
    places = odds_places(state)
    if (event.promotion_places, event.relegation_places) != (sum(places.up.values()),
                                                              sum(places.down.values())):
        raise RinklogError(f"{event.promotion_places} promotion and {event.relegation_places}"
                           f" relegation places; the season has {sum(places.up.values())} "
                           f"and {sum(places.down.values())} (3.1.6)")
    points = {t: r.points for t, r in season_records(state).items()}
    for t in event.teams:
        size = len(state.division(division_of[t.team]).teams)
        if t.division != division_of[t.team]:
            raise RinklogError(f"{t.team} in division {t.division}; it plays in "
                               f"{division_of[t.team]}")
        if len(t.places) != size or sum(t.places) != n:
            raise RinklogError(f"{t.team}: its places {t.places} are not one a run in a "
                               f"division of {size}")
        if not points[t.team] <= t.points_p10 <= t.points_p90 or t.points_total < n * points[t.team]:
            raise RinklogError(f"{t.team}: points {t.points_total} over {n} runs (p10 "
                               f"{t.points_p10}, p90 {t.points_p90}) below its "
                               f"{points[t.team]} points now (3.1.4)")
    for d in state.divisions:
        mine = [t for t in event.teams if t.division == d.id]
        for k in range(len(d.teams)):
            if sum(t.places[k] for t in mine) != n:
                raise RinklogError(f"division {d.id}: place {k + 1} is not one team a run")
        for what, want in (("promoted", places.up[d.id]), ("relegated", places.down[d.id])):
            got = sum(getattr(t, what) for t in mine)
            if got != n * want or any(getattr(t, what) > n for t in mine):
                raise RinklogError(f"division {d.id}: {got} {what} over {n} runs, not "
                                   f"{want} a run (3.1.6)")
    for cup in ("kdh", "wg"):
        wins = sum(getattr(t, cup) for t in event.teams)
        want = n if cup in event.competitions else 0
        if wins != want:
            raise RinklogError(f"{wins} {cup.upper()} winners over {n} runs, not {want}")
    return event
