"""A game played in a worker, made ready for the season's writer.

The regular season (runner.py) and the playoffs (playoffs.py) hand a game over the same
way: encoded in the stream's payload format and chained, audited on exactly those rows when
the run audits (the checks of ``rinklog audit``), its read models folded from the events
the audit decoded from them (not from the live ones), and what it rules for its teams'
later games (DICE Hockey 15, 17). The writer trusts none of it: it checks what comes back
(replay/leagues/returned.py), then inserts (events.checkpoints.Chained).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.systems import GameSystem
from events.checkpoints import Chained, chain_hashes, chained
from events.common import GamesOut
from events.formats import encode_events
from projections import store as read_models
from replay.games.game_streams import PlayedGame
from replay.leagues.audit import AuditFinding, BlobSource, SeasonLookup, audit_encoded

__all__ = ["HandedOver", "hand_over"]


@dataclass(frozen=True)
class HandedOver:
    """What the writer stores of a game, and what the audit found (None: it passed, or
    the run does not audit)."""

    rows: Chained  # its events as stored: tags, payloads, checkpoint hashes, head
    meta: dict[str, Any]
    read_models: dict[str, dict[str, list[tuple]]]  # projections.store.game_rows
    failure: AuditFinding | None
    games_out: tuple[GamesOut, ...]  # what it rules for its teams' later games


def hand_over(game: PlayedGame, game_id: str, system: GameSystem[Any, Any, Any, Any], *,
              format: int, blobs: BlobSource, projections: Sequence[str],
              season_of: SeasonLookup | None) -> HandedOver:
    """``game`` ready for the writer; audited against ``season_of`` unless it is None (a
    run that does not audit). No read model of a game that fails its audit."""
    encoded = encode_events(game.events, format)
    hashes = chain_hashes(payload for _, payload in encoded)
    meta = game.meta()
    events, failure = game.events, None
    if season_of is not None:
        report, events = audit_encoded(game_id, kind="game", system=system.name,
                                       format=format, meta=meta, encoded=encoded,
                                       hashes=hashes, blobs=blobs, season_of=season_of)
        failure = report.failure
    rows = (read_models.game_rows(system.name, game_id, events, projections)
            if failure is None else {})
    games_out = tuple(system.games_out(game.events)) if system.games_out is not None else ()
    return HandedOver(chained(encoded, hashes), meta, rows, failure, games_out)
