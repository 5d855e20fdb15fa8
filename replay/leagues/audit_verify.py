"""What an ``audit --all --cluster`` verdict is worth, and ``--verify K`` (issue 33,
docs/trust.md).

On a cluster the rules are re-run by the cluster's workers, not by this process: their
reports are their word. The verdict says so and names them, and ``--verify K`` re-audits
K of the games they audited here, chosen by a seed the verdict prints (``--verify-seed``
repeats a choice); a game whose local audit does not give the cluster's report fails,
named in one line.
"""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from events.plurals import counted
from replay.leagues.audit_report import AuditFinding, AuditReport

__all__ = ["DEFAULT_VERIFY", "ClusterVerdict", "verified", "verdict_line"]

# Games re-audited here by default: well under a second or two of this process, and a
# worker that forges every report it makes, on a cluster of w workers, is caught with
# probability 1 - (1 - 1/w)^8 (w = 2: 99.6 %, w = 4: 90 %); a single forged report among
# n games only with 8/n (docs/trust.md).
DEFAULT_VERIFY = 8


@dataclass(frozen=True)
class ClusterVerdict:
    """Who audited what: the cluster's workers, and the games re-audited here."""

    address: str
    workers: tuple[str, ...]  # ``name (address)`` of each, as the scheduler listed them
    audited: int  # game streams the workers audited
    seed: int  # the seed the games re-audited here were chosen by
    verified: tuple[str, ...]  # those games, in the database's order
    disagreed: tuple[str, ...]  # those whose local audit gave another report


def verified(reports: list[AuditReport], shipped: Sequence[str], k: int, seed: int | None,
             audit_here: Callable[[str], AuditReport], address: str,
             workers: Sequence[str]) -> tuple[list[AuditReport], ClusterVerdict]:
    """``reports`` (the cluster's, for the ``shipped`` game streams among them) with K of
    those games re-audited by ``audit_here``; one whose report differs fails with a
    ``verify`` finding naming both verdicts."""
    seed = secrets.randbelow(2**32) if seed is None else seed
    chosen = set(random.Random(seed).sample(sorted(shipped), min(k, len(shipped))))
    out, checked, disagreed = [], [], []
    for report in reports:
        if report.game_id not in chosen:
            out.append(report)
            continue
        checked.append(report.game_id)
        local = audit_here(report.game_id)
        if local.to_json() == report.to_json():
            out.append(report)
            continue
        disagreed.append(report.game_id)
        out.append(dataclasses.replace(local, failure=AuditFinding(
            "verify", local.failure.seq if local.failure else 0,
            f"the cluster's report as this process audits it: {_said(local)}",
            f"the cluster's worker reported: {_said(report)}",
            "docs/trust.md (audit --verify)")))
    return out, ClusterVerdict(address, tuple(workers), len(shipped), seed, tuple(checked),
                               tuple(disagreed))


def _said(report: AuditReport) -> str:
    f = report.failure
    return "ok" if f is None else f"FAILED at seq {f.seq}, {f.check} check"


def verdict_line(v: ClusterVerdict) -> str:
    """One line: where the rules were re-run, and what was re-checked here."""
    who = ", ".join(v.workers) or "(the scheduler no longer lists them)"
    here = (f"re-audited here: {len(v.verified)} of them, chosen by --verify-seed {v.seed}"
            + (f" ({', '.join(v.verified)})" if v.verified else ""))
    if not v.verified:
        here = "none of them re-audited here (--verify 0): their reports are their word"
    elif v.disagreed:
        here += f": {', '.join(v.disagreed)} audit otherwise here"
    else:
        here += ": the same reports"
    return (f"cluster verdict: the rules of {counted(v.audited, 'game')} were re-run on the Dask "
            f"cluster at {v.address} by its workers {who}, not in this process; {here} "
            "(docs/trust.md)")
