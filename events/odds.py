"""Season odds events (issue 23, docs/odds.md): a season stream may record the odds
``rinklog odds --record`` worked out, and a database written by ``rinklog odds --replay``
records which odds run its remaining games are.

Both belong to the season stream (the league events, events.catalogue). Neither is a rule
of any game: an odds record is a reading of the season at one point (how many of its
games were played), and a replayed run says which dice the games after it take.
"""

from __future__ import annotations

import msgspec
from msgspec import UNSET, UnsetType

from events.base import Event
from events.postseason import PlayoffFormat

__all__ = ["OddsEvent", "OddsLeaf", "OddsRecorded", "OddsRunReplayed", "TeamOdds"]


class TeamOdds(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One team's odds over ``runs`` runs, as counts of runs (a chance is a count over
    the runs): its points summed over the runs and their 10th and 90th percentile, the
    runs it made the playoffs in, won round 1, 2... (a bye counts as going on) and the
    title, and the runs it drew lottery pick 1, 2... (rule 31)."""

    team: str
    points_total: int
    points_p10: int
    points_p90: int
    playoffs: int
    rounds: list[int]
    champion: int
    picks: list[int]


class OddsLeaf(msgspec.Struct, frozen=True, array_like=True, forbid_unknown_fields=True):
    """One run of an :class:`OddsRecorded`, a leaf of its Merkle tree (issue 33): the run,
    its run seed and what the counts are made of, teams by their index in the season's
    teams sorted (``replay.leagues.odds_leaves.season_teams``): each team's final points,
    the playoff teams in seed order, per round the teams that went on (won a series or
    had a bye), the bracket's rounds, the champion (-1: none) and the lottery's picks,
    first pick first. A leaf's bytes are its JSON array (``odds_leaves.leaf_bytes``)."""

    run: int
    run_seed: str
    points: list[int]
    playoffs: list[int]
    advanced: list[list[int]]
    rounds: int
    champion: int
    picks: list[int]


class OddsRecorded(Event, frozen=True, tag="odds.OddsRecorded"):
    """``rinklog odds --record``: the season's odds after ``games_played`` regular-season
    games (stored and ended; ``games_remaining`` to play), from ``runs`` runs of the rest
    of the season and its postseason with the odds seed ``seed`` (docs/odds.md: run r's
    dice are ``odds_run_seed(season, seed, r)``'s). A reading, recorded so the season's
    pages can plot each team's chances over the season; the audit checks its counts add
    up (every run has a champion, each pick one team, the playoff spots filled).

    Since issue 33 a record carries its runs (UNSET in a record written before, the
    *old form*, which only a season opened before may hold: docs/trust.md): ``leaves``,
    one :class:`OddsLeaf` a run in run order, ``root`` the hex RFC 6962 Merkle tree hash
    of their bytes, and ``playoffs`` the league's ``[playoffs]`` the runs opened (UNSET:
    the season's bracket was open already, or the league has no postseason). The audit
    counts ``teams`` and ``playoff_spots`` again from the leaves, checks the root, and
    plays some runs again against their leaves (replay/leagues/audit_odds.py)."""

    seed: str
    runs: int
    games_played: int
    games_remaining: int
    playoff_spots: int
    teams: list[TeamOdds]
    root: str | UnsetType = UNSET
    leaves: list[OddsLeaf] | UnsetType = UNSET
    playoffs: PlayoffFormat | UnsetType = UNSET


class OddsRunReplayed(Event, frozen=True, tag="odds.OddsRunReplayed"):
    """``rinklog odds --replay R --out DB``: the season's games recorded after this event
    (the rest of the regular season, the postseason and a lottery drawn after it) are run
    ``run`` of the odds seed ``seed``: their dice derive from ``run_seed`` (which the audit
    re-derives from the season id, ``seed`` and ``run``) in place of the season's seed.
    At most once in a season stream."""

    seed: str
    run: int
    run_seed: str


OddsEvent = OddsRecorded | OddsRunReplayed
"""The odds events a season stream may hold."""
