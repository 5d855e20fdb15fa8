"""A game as a worker returns it, held by the writer to what it can check itself before
it stores anything of it (issue 33).

A season's games (and its playoff games) are played, and audited, in worker processes or
on a Dask cluster's workers; the writer trusts neither the result nor the worker's
verdict. Every game that comes back, from any worker, goes through :func:`checked_return`
first, and a game that does not hold is refused in one line, nothing of it stored. It
holds, here and cheaply (no rule is re-run):

- the chain: every checkpoint hash and the head recomputed from the payloads (a chain
  re-hashed after an edit passes this; the checks below catch the edit);
- the checks of ``rinklog audit`` up to the dice (replay/leagues/audit_stream.py with
  ``rules=False``): the payloads decode as the system's events, the game's identity
  against the slot the writer asked for (its id, the season's game of that number, its
  teams, their cards, the charts, options and the dice seed the season gives it, the
  season's opening and coach habits, who is out of it), the index the events give, and
  every seeded roll against its derivation from that seed (3.00 seeded dice);
- what it rules for its teams' later games (DICE Hockey 15, 17), re-derived from the
  events, against what the worker said;
- its read-model rows, folded here from the events, against the worker's.

What the writer stores is then what it derived: the chain it computed, the index and the
read models it folded. What still passes: a rule decision changed while every die stays
right (docs/trust.md); the worker's audit re-runs the rules, and ``season --verify K``
re-runs them here on K games chosen by a seed (``rules=True``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from engine.loop import CollectorPaused
from engine.systems import GameSystem
from events.checkpoints import Chained, chain_hashes, chained
from events.common import Absent, GamesOut
from events.errors import RinklogError
from events.league import SeasonCreated
from projections.store import game_rows
from replay.leagues.audit import AuditFinding, BlobSource, audit_encoded
from replay.leagues.ledger import SeasonLedger

__all__ = ["Returned", "SlotSeasons", "checked_return"]


class HandedBack(Protocol):
    """What a season's or playoffs' worker returns of a game (their ``_Played``)."""

    rows: Chained
    meta: dict[str, Any]
    read_models: dict[str, dict[str, list[tuple]]]
    games_out: tuple[GamesOut, ...]


@dataclass(frozen=True)
class Returned:
    """What the writer stores of a returned game: all of it derived here."""

    rows: Chained  # the chain recomputed from the payloads
    meta: dict[str, Any]  # the stream index the events give
    read_models: dict[str, dict[str, list[tuple]]]  # folded here from the events
    games_out: tuple[GamesOut, ...]  # what the events rule for later games (15, 17)
    events: list[Any]  # the decoded events


class SlotSeasons:
    """The audit's season lookup for the slot the writer asked a worker to fill: the
    season, its ledger (the game not in its record yet: the writer records it with the
    game), and who the writer said is out of the game."""

    complete = False

    def __init__(self, season: SeasonCreated, ledger: SeasonLedger | None,
                 absent: Sequence[Absent]) -> None:
        self.season, self.recorded, self.out = season, ledger, list(absent)

    def __call__(self, season_id: str) -> SeasonCreated | str:
        return self.season if season_id == self.season.season_id else \
            f"no season stream {season_id!r}"

    def ledger(self, season_id: str) -> SeasonLedger | None:
        return self.recorded if season_id == self.season.season_id else None

    def absent(self, season_id: str, number: int) -> list[Absent]:
        return self.out

    def playoff_absent(self, season_id: str, game_id: str) -> list[Absent]:
        return self.out


def checked_return(played: HandedBack, game_id: str, system: GameSystem[Any, Any, Any, Any],
                   *, format: int, blobs: BlobSource, season_of: SlotSeasons,
                   projections: Sequence[str], rules: bool = False) -> Returned:
    """``played``, returned by a worker for game ``game_id`` (the id the writer asked
    for), as the writer stores it; RinklogError in one line naming the game and the check
    that does not hold. ``rules``: the rules re-run here too (the whole audit: a game
    ``--verify`` chose). With the cyclic collector paused throughout, as the audit's checks
    (replay/leagues/audit_stream.py ``_audited``): the folds make no cycles either
    (tests/test_audit_memory.py: a stored game's audit folds them again)."""
    with CollectorPaused():
        return _checked_return(played, game_id, system, format=format, blobs=blobs,
                               season_of=season_of, projections=projections, rules=rules)


def _checked_return(played: HandedBack, game_id: str, system: GameSystem[Any, Any, Any, Any],
                    *, format: int, blobs: BlobSource, season_of: SlotSeasons,
                    projections: Sequence[str], rules: bool) -> Returned:
    rows = played.rows
    if len(rows.tags) != len(rows.payloads) or not rows.payloads:
        _refuse(game_id, AuditFinding("chain", 0, "one type tag a payload, at least one",
                                      f"{len(rows.tags)} tags, {len(rows.payloads)} payloads",
                                      "hash chain"))
    encoded = list(zip(rows.tags, rows.payloads, strict=True))
    hashes = chain_hashes(rows.payloads)
    chain = chained(encoded, hashes)
    if (rows.every, rows.checkpoints, rows.head) != (chain.every, chain.checkpoints,
                                                    chain.head):
        _refuse(game_id, AuditFinding("chain", len(encoded), f"head {chain.head.hex()[:16]}…"
                                      " (the payloads' chain)",
                                      f"head {rows.head.hex()[:16]}…", "hash chain"))
    report, events = audit_encoded(game_id, kind="game", system=system.name, format=format,
                                   meta=played.meta, encoded=encoded, hashes=hashes,
                                   blobs=blobs, season_of=season_of, rules=rules,
                                   hashed_here=True)  # the chain just computed from them
    if report.failure is not None:
        _refuse(game_id, report.failure)
    games_out = tuple(system.games_out(events)) if system.games_out is not None else ()
    if tuple(played.games_out) != games_out:
        _refuse(game_id, AuditFinding(
            "games out", len(events), _outs(games_out) + " (as its events rule)",
            _outs(tuple(played.games_out)), "games missed (DICE Hockey 15, 17)"))
    folded = game_rows(system.name, game_id, events, projections)
    # rows that travelled as lists (a typed transport) are the same rows
    if played.read_models != folded and _plain(played.read_models) != _plain(folded):
        tables = sorted({t for p in {*folded, *played.read_models}
                         for t in {*folded.get(p, {}), *played.read_models.get(p, {})}
                         if folded.get(p, {}).get(t) != played.read_models.get(p, {}).get(t)})
        _refuse(game_id, AuditFinding(
            "read models", len(events), "read-model rows as its events give them",
            "other rows in " + (", ".join(tables) or "its projections"),
            "projections (rinklog projections rebuild)"))
    return Returned(chain, report.index, folded, games_out, events)


def _plain(rows: Any) -> Any:
    try:
        return msgspec.msgpack.decode(msgspec.msgpack.encode(rows))  # tuples as lists
    except (TypeError, ValueError, msgspec.DecodeError):  # not rows at all: they differ
        return None


def _outs(outs: tuple[GamesOut, ...]) -> str:
    return ", ".join(f"{o.side} {o.player} out {o.games} (rule {o.rule})"
                     for o in outs) or "nobody out of later games"


def _refuse(game_id: str, found: AuditFinding) -> None:
    raise RinklogError(
        f"{game_id} as a worker returned it does not hold: {found.check} check at event "
        f"{found.seq}: expected {found.expected}, recorded {found.recorded} (rule "
        f"{found.rule}); nothing of it was stored (does every worker run this rinklog, "
        "unchanged?)")
