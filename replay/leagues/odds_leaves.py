"""An odds record's runs as leaves of a Merkle tree (issue 33, docs/odds.md, docs/trust.md).

``rinklog odds --record`` keeps each run as an :class:`~events.odds.OddsLeaf` (its run
seed and the result its counts are made of) in the OddsRecorded, with the RFC 6962 root
of their bytes (replay/leagues/merkle.py). What everyone then computes the same way:

- :func:`odds_table`: the counts of the leaves, teams in the order the record lists them
  (the recorder writes its figures with it; the audit requires the record's figures to be
  exactly these, every leaf counted);
- :func:`leaves_wrong`: whatever in a record's leaves does not stand (their number, run
  numbers and run seeds, their team indices, the root, the figures);
- :func:`chosen_runs`: the K runs the audit plays again, chosen from the record's row
  hash, so anyone re-auditing plays the same ones.

Pure: no store, no engine.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

import msgspec

from events.league import SeasonCreated
from events.odds import OddsLeaf, OddsRecorded, TeamOdds
from events.plurals import counted
from replay.leagues import merkle
from replay.leagues.naming import odds_run_seed

__all__ = ["ODDS_RUNS", "chosen_runs", "leaf_bytes", "leaves_root", "leaves_wrong",
           "odds_table", "percentile", "season_teams"]

ODDS_RUNS = 20
"""The runs of each record the audit plays again unless told (``--odds-runs K``)."""

_ENCODER = msgspec.json.Encoder()


def season_teams(created: SeasonCreated) -> list[str]:
    """The season's teams, sorted: a leaf names a team by its index here."""
    return sorted({t for _, home, away in created.schedule for t in (home, away)})


def leaf_bytes(leaf: OddsLeaf) -> bytes:
    """A leaf as the tree hashes it: its JSON array, ``[run,"odds-…",[points…],…]``."""
    return _ENCODER.encode(leaf)


def leaves_root(leaves: Sequence[OddsLeaf]) -> str:
    """The hex Merkle tree hash (RFC 6962 2.1) of the leaves' bytes."""
    return merkle.root([leaf_bytes(leaf) for leaf in leaves]).hex()


def percentile(values: list[int], p: float) -> int:
    """The nearest-rank ``p`` percentile (the smallest value with at least ``p`` of the
    values at or below it)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p * len(ordered)) - 1)]


def odds_table(leaves: Sequence[OddsLeaf], teams: list[str]) -> tuple[list[TeamOdds], int]:
    """Each team's counts over the runs (``teams``: the season's, sorted, as the leaves
    index them), best mean points first (then titles, playoffs, the team id), and the
    playoff spots (the most playoff teams of a run)."""
    rounds = max((leaf.rounds for leaf in leaves), default=0)
    picks = max((len(leaf.picks) for leaf in leaves), default=0)
    out = []
    for i, team in enumerate(teams):
        points = [leaf.points[i] for leaf in leaves]
        out.append(TeamOdds(
            team=team, points_total=sum(points), points_p10=percentile(points, 0.1),
            points_p90=percentile(points, 0.9),
            playoffs=sum(i in leaf.playoffs for leaf in leaves),
            rounds=[sum(1 for leaf in leaves if k < len(leaf.advanced) and i in leaf.advanced[k])
                    for k in range(rounds)],
            champion=sum(leaf.champion == i for leaf in leaves),
            picks=[sum(1 for leaf in leaves if k < len(leaf.picks) and leaf.picks[k] == i)
                   for k in range(picks)]))
    out.sort(key=lambda t: (-t.points_total, -t.champion, -t.playoffs, t.team))
    return out, max((len(leaf.playoffs) for leaf in leaves), default=0)


def leaves_wrong(created: SeasonCreated, event: OddsRecorded) -> str | None:
    """What in a record's runs does not stand, or None: one leaf a run in run order, each
    with its run seed (season id, odds seed, run), team indices of the season's teams,
    the root the hash of the leaves, the figures the leaves' counts (every leaf)."""
    leaves, root = event.leaves, event.root
    if leaves is msgspec.UNSET or root is msgspec.UNSET:
        return "its runs as leaves and their root (as odds are recorded since they carry their runs)"
    if len(leaves) != event.runs:
        return f"{event.runs} leaves, one a run, not {len(leaves)}"
    n = len(season_teams(created))
    for run, leaf in enumerate(leaves, start=1):
        want = odds_run_seed(created.season_id, event.seed, run)
        if leaf.run != run or leaf.run_seed != want:
            return (f"leaf {run}: run {run} with run seed {want} (odds seed {event.seed!r}), "
                    f"not run {leaf.run} with {leaf.run_seed}")
        indices = [*leaf.playoffs, *(t for r in leaf.advanced for t in r), *leaf.picks]
        if (len(leaf.points) != n or any(not 0 <= t < n for t in indices)
                or not -1 <= leaf.champion < n or len(set(leaf.playoffs)) != len(leaf.playoffs)):
            return f"leaf {run}: the points of the {counted(n, 'team')}, teams by their index"
    if leaves_root(leaves) != root:
        return f"the root of its leaves {leaves_root(leaves)[:16]}…, not {root[:16]}…"
    table, spots = odds_table(leaves, season_teams(created))
    if (table, spots) != (event.teams, event.playoff_spots):
        return "figures counted from its leaves (every run), not the figures recorded"
    return None


def chosen_runs(record_hash: str, runs: int, k: int) -> list[int]:
    """The ``k`` runs (1..``runs``, sorted) the audit plays again of a record whose row
    hash is ``record_hash`` (hex): ``SHA-256(hash bytes || "odds-runs" || i)`` for i = 0,
    1, 2... (i as 4 bytes, big-endian), each digest as a big-endian integer mod ``runs``
    plus one, the first ``k`` distinct; every run when ``k >= runs``."""
    if k >= runs:
        return list(range(1, runs + 1))
    seed = bytes.fromhex(record_hash) + b"odds-runs"
    chosen: set[int] = set()
    i = 0
    while len(chosen) < k:
        digest = hashlib.sha256(seed + i.to_bytes(4, "big")).digest()
        chosen.add(int.from_bytes(digest, "big") % runs + 1)
        i += 1
    return sorted(chosen)
