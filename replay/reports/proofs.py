"""Each game's head and its inclusion proof in its season's tree (season receipts,
replay/leagues/season_receipts.py), for the season pages: a reader copies a game's proof
into the verifier of docs/trust.md and checks it against the league's published receipt."""

from __future__ import annotations

from dataclasses import dataclass

from events.store import EventStore
from replay.leagues.season_receipts import encode, season_proofs

__all__ = ["GameProof", "game_proofs"]


@dataclass(frozen=True)
class GameProof:
    game: str  # the game's id in the season's tree
    head: str
    proof: str  # the JSON `rinklog receipt --season SEASON --proof GAME` prints


def game_proofs(store: EventStore, season_id: str) -> list[GameProof]:
    """The season's games in its tree's order, each with its head and proof (a read)."""
    return [GameProof(game, p.head, encode(p).decode())
            for game, p in season_proofs(store, season_id).items()]
