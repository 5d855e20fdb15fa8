"""The audit's replay of recorded odds (issue 33, docs/odds.md, docs/trust.md).

The season's rules (replay/leagues/season.py, audit_odds.py, odds_leaves.py) hold every
OddsRecorded whole: its sums, and for a record with its runs, every leaf's run and run
seed, the root of the leaves and the figures counted from all of them. What they cannot
do without the store is play a run again: :func:`replay_odds_records` does, for K runs of
each record (``rinklog audit --odds-runs K``, 20 unless told), chosen from the record's
row hash (:func:`replay.leagues.odds_leaves.chosen_runs`), each from the season as its
stream stood at the record, with the ``[playoffs]`` the record names. A run whose result
is not its leaf fails the season's audit, naming the run and the record's seq.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from msgspec import UNSET

from events.odds import OddsRecorded
from events.plurals import counted
from events.store import EventStore
from replay.leagues.audit import audit_all
from replay.leagues.audit_report import AuditFinding, AuditReport
from replay.leagues.odds_leaves import ODDS_RUNS, chosen_runs, season_teams

__all__ = ["ODDS_RUNS", "OLD_FORM", "audit_database", "check_odds_records",
           "replay_odds_records"]

OLD_FORM = ("odds recorded at seq {seq} in the old form (before their runs were recorded): "
            "its sums checked, no run of it can be")


def audit_database(store: EventStore, *, odds_runs: int = ODDS_RUNS,
                   systems: Mapping[str, Any] | None = None, **kwargs: Any) -> list[AuditReport]:
    """``rinklog audit --all``: :func:`replay.leagues.audit.audit_all` (``kwargs``: its
    workers, cluster, odds_run), each season then held to its odds records' runs
    (:func:`check_odds_records`; ``systems``: each season system's SeasonOdds by name,
    which the command line hands down). Here, not in audit_all: playing a run takes the
    odds' own modules, which audit a game themselves before they store it."""
    return check_odds_records(store, audit_all(store, **kwargs), odds_runs, systems)


def check_odds_records(store: EventStore, reports: Sequence[AuditReport],
                       odds_runs: int = ODDS_RUNS,
                       systems: Mapping[str, Any] | None = None) -> list[AuditReport]:
    """``reports`` with each season that passed held to its odds records' runs (a league
    season's by :func:`replay_odds_records`, a season system's by its SeasonOdds'
    ``audit``): its first run that does not replay fails it, and what was not replayed
    is said as a warning."""
    out = []
    for report in reports:
        system = (systems or {}).get(report.ruleset) if report.kind != "season" else None
        if report.ok and (report.kind == "season" or system is not None):
            failure, warnings = (replay_odds_records(store, report.game_id, odds_runs)
                                 if system is None
                                 else system.audit(store, report.game_id, odds_runs))
            report = dataclasses.replace(report, failure=failure,
                                         warnings=(*report.warnings, *warnings))
        out.append(report)
    return out


def replay_odds_records(store: EventStore, season_id: str,
                        odds_runs: int = ODDS_RUNS) -> tuple[AuditFinding | None, list[str]]:
    """Play ``odds_runs`` runs of each OddsRecorded of the season again against their
    leaves: the first that differs, and the warnings (an old-form record; runs not
    replayed with ``odds_runs`` 0)."""
    rows = store.read(season_id)
    warnings: list[str] = []
    for row in rows:
        record = row.event
        if not isinstance(record, OddsRecorded):
            continue
        if record.leaves is UNSET:
            warnings.append(OLD_FORM.format(seq=row.seq))
            continue
        runs = chosen_runs(row.hash, record.runs, odds_runs)
        if not runs:
            warnings.append(f"odds recorded at seq {row.seq}: its figures checked against "
                            f"the leaves of its {counted(record.runs, 'run')}, runs not replayed "
                            "(--odds-runs 0: totals only)")
            continue
        bad = _replayed(store, season_id, row.seq, record, runs)
        if bad is not None:
            return bad, warnings
    return None, warnings


def _replayed(store: EventStore, season_id: str, seq: int, record: OddsRecorded,
              runs: list[int]) -> AuditFinding | None:
    """``runs`` of the record played from the season at seq - 1: the first whose leaf
    is not the one recorded."""
    # the odds' own modules play the runs (they import the season's writer and runner)
    from replay.leagues.odds import leaf_of, odds_season  # noqa: PLC0415
    from replay.leagues.odds_run import play_runs  # noqa: PLC0415

    fmt = None if record.playoffs is UNSET else record.playoffs
    try:
        stored = odds_season(store, season_id, lambda _league: fmt, at=seq - 1)
        results = play_runs(stored.odds, record.seed, runs)
    except Exception as err:  # noqa: BLE001 - a re-hashed forgery's [playoffs] may not play
        return AuditFinding("odds", seq, f"runs of the odds recorded at seq {seq} that play "
                            "from the season as it stood", f"replay stopped: "
                            f"{type(err).__name__}: {err}", "docs/odds.md")
    teams = season_teams(stored.odds.created)
    for result in results:
        leaf = leaf_of(result, teams)
        if leaf != record.leaves[result.run - 1]:
            return AuditFinding(
                "odds", seq, f"run {result.run} of the odds recorded at seq {seq} to "
                f"replay as its leaf (seed {record.seed!r}, {len(runs)} of "
                f"{counted(record.runs, 'run')} chosen from the record's hash)",
                f"the run gives {_leaf_text(leaf)}; "
                f"the leaf says {_leaf_text(record.leaves[result.run - 1])}", "docs/odds.md")
    return None


def _leaf_text(leaf) -> str:  # noqa: ANN001 - an OddsLeaf
    return (f"points {leaf.points}, playoffs {leaf.playoffs}, champion {leaf.champion}, "
            f"picks {leaf.picks}")
