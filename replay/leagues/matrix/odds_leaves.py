"""A Matrix Hockey odds record's runs as leaves of a Merkle tree (issue 33, docs/odds.md,
docs/trust.md "Recorded odds"), as a league season's (replay/leagues/odds_leaves.py).

``rinklog odds --record`` keeps each run as a :class:`~events.matrix.MatrixOddsLeaf` in the
matrix.OddsRecorded, with the RFC 6962 root of their bytes. The referee's re-check
(engine/matrix/recheck.py) holds a record to its sums and refuses one without its runs in
a season of version 2; here, with the store: the leaves whole (:func:`leaves_wrong`: their
number, runs and run seeds, team indices, root, and the figures their counts), then K runs
played again from the season as it stood (:func:`audit_records`, chosen from the record's
row hash as a league season's are).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.matrix.recheck import fold
from engine.matrix.state import SeasonState
from events.matrix import MatrixOddsLeaf, MatrixOddsRecorded, MatrixOddsTeam
from events.plurals import counted
from events.store import EventStore
from replay.leagues.audit_report import AuditFinding
from replay.leagues.naming import odds_run_seed
from replay.leagues.odds_leaves import chosen_runs, leaves_root, percentile

__all__ = ["audit_records", "leaves_wrong", "matrix_figures", "matrix_leaf"]

OLD_FORM = ("odds recorded at seq {seq} in the old form (before their runs were recorded): "
            "its sums checked, no run of it can be")


def matrix_leaf(result, teams: list[str]) -> MatrixOddsLeaf:  # noqa: ANN001 - a MatrixRunResult
    """A run as its record's leaf (``teams``: the season's team ids, sorted)."""
    index = {t: i for i, t in enumerate(teams)}
    return MatrixOddsLeaf(
        run=result.run, run_seed=result.run_seed, points=[result.points[t] for t in teams],
        places=[result.places[t] for t in teams],
        promoted=[index[t] for t in result.promoted],
        relegated=[index[t] for t in result.relegated],
        kdh=index[result.kdh_winner] if result.kdh_winner else -1,
        wg=index[result.wg_winner] if result.wg_winner else -1)


def matrix_figures(state: SeasonState, leaves: list[MatrixOddsLeaf]) -> list[MatrixOddsTeam]:
    """The record's teams counted from the leaves, as ``rinklog odds`` prints them: by
    division (Elite first), then mean points, promotions, relegations, team id."""
    teams = sorted(state.teams)
    at = {t: i for i, t in enumerate(teams)}
    out = []
    for d in state.divisions:
        rows = []
        for team in d.teams:
            i = at[team]
            points = [leaf.points[i] for leaf in leaves]
            rows.append(MatrixOddsTeam(
                team, d.id, sum(points), percentile(points, 0.1), percentile(points, 0.9),
                [sum(leaf.places[i] == k for leaf in leaves) for k in range(1, len(d.teams) + 1)],
                sum(i in leaf.promoted for leaf in leaves),
                sum(i in leaf.relegated for leaf in leaves),
                sum(leaf.kdh == i for leaf in leaves), sum(leaf.wg == i for leaf in leaves)))
        rows.sort(key=lambda t: (-t.points_total, -t.promoted, t.relegated, t.team))
        out += rows
    return out


def leaves_wrong(state: SeasonState, event: MatrixOddsRecorded) -> str | None:
    """What in a record's runs does not stand (``state``: the season before it), or None."""
    leaves, root = event.leaves, event.root
    if not isinstance(leaves, list) or not isinstance(root, str):
        return "its runs as leaves and their root (as odds are recorded since they carry their runs)"
    if len(leaves) != event.runs:
        return f"{event.runs} leaves, one a run, not {len(leaves)}"
    n = len(state.teams)
    for run, leaf in enumerate(leaves, start=1):
        want = odds_run_seed(state.season_id, event.seed, run)
        if leaf.run != run or leaf.run_seed != want:
            return (f"leaf {run}: run {run} with run seed {want} (odds seed {event.seed!r}), "
                    f"not run {leaf.run} with {leaf.run_seed}")
        indices = [*leaf.promoted, *leaf.relegated]
        if (len(leaf.points) != n or len(leaf.places) != n or any(not 0 <= t < n for t in indices)
                or not -1 <= leaf.kdh < n or not -1 <= leaf.wg < n):
            return f"leaf {run}: the points and places of the {counted(n, 'team')}, teams by their index"
    if leaves_root(leaves) != root:
        return f"the root of its leaves {leaves_root(leaves)[:16]}…, not {root[:16]}…"
    if matrix_figures(state, leaves) != event.teams:
        return "figures counted from its leaves (every run), not the figures recorded"
    return None


def audit_records(store: EventStore, season_id: str, odds_runs: int, *,
                  play: Callable[[SeasonState, str, int], Any]
                  ) -> tuple[AuditFinding | None, list[str]]:
    """Each matrix.OddsRecorded of the season held to its runs: the leaves whole, then
    ``odds_runs`` runs played again (``play(season before it, odds seed, run)``: a run,
    replay/leagues/matrix/odds.py's); the first that fails, and the warnings."""
    rows = store.read(season_id)
    events = [row.event for row in rows]
    warnings: list[str] = []
    for row in rows:
        record = row.event
        if not isinstance(record, MatrixOddsRecorded):
            continue
        if not isinstance(record.leaves, list):
            warnings.append(OLD_FORM.format(seq=row.seq))
            continue
        state = fold(events[:row.seq - 1])
        wrong = leaves_wrong(state, record)
        if wrong is not None:
            return AuditFinding("odds", row.seq, wrong, "matrix.OddsRecorded",
                                "docs/odds.md"), warnings
        runs = chosen_runs(row.hash, record.runs, odds_runs)
        if not runs:
            warnings.append(f"odds recorded at seq {row.seq}: its figures checked against "
                            f"the leaves of its {counted(record.runs, 'run')}, runs not replayed "
                            "(--odds-runs 0: totals only)")
        teams = sorted(state.teams)
        for run in runs:
            leaf = matrix_leaf(play(state, record.seed, run), teams)
            if leaf != record.leaves[run - 1]:
                return AuditFinding(
                    "odds", row.seq, f"run {run} of the odds recorded at seq {row.seq} to "
                    f"replay as its leaf ({len(runs)} of {counted(record.runs, 'run')} chosen from the "
                    "record's hash)", f"the run gives {leaf}; the leaf says "
                    f"{record.leaves[run - 1]}", "docs/odds.md"), warnings
    return None, warnings
