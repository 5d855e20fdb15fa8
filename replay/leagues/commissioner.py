"""The commissioner's acts on a league on the web (issue 36, docs/web.md) beside
settling disputes (results.py): playing the simulated games due, and publishing the
season's signed receipt.

A game is the coaches' to play at the table when either of its teams has a coach; the
others are simulated by the season's seeded dice and default coach, as ``rinklog season``
plays them. A receipt published is kept as a blob and named, with who published it and
when, by a ReceiptPublished in the season stream.
"""

from __future__ import annotations

import msgspec
import nacl.signing

from events.people import RECEIPT_MEDIA, ReceiptPublished
from events.store import EventStore, blob_hash
from replay.leagues.results import Clock, NotYours, act_on_season, now_utc, season_state
from replay.leagues.runner import SeasonRun, run_season
from replay.leagues.season import SeasonState
from replay.leagues.season_league import season_to_play
from replay.leagues.season_receipts import season_receipt

__all__ = ["coached_games", "play_due", "publish_receipt"]


def coached_games(state: SeasonState) -> frozenset[int]:
    """The schedule numbers the coaches play at the table (a team of them has a coach)."""
    assert state.created is not None
    coached = state.people.coaches
    return frozenset(n for n, home, away in state.created.schedule
                     if home in coached or away in coached)


def play_due(store: EventStore, season_id: str, account: str, through: int) -> SeasonRun:
    """The simulated games among the schedule's first ``through``, played and stored."""
    state = season_state(store, season_id)
    if state.people.role_of(account) != "commissioner":
        raise NotYours(f"{account} is not the commissioner")
    assert state.created is not None
    plan = season_to_play(store, None, state.created.seed)
    return run_season(store, plan.setup, league=plan.name, schedule=plan.schedule,
                      seed=state.created.seed, workers=1, divisions=plan.divisions,
                      games=through, league_file=plan.league_file,
                      skip=coached_games(state))


def publish_receipt(store: EventStore, season_id: str, account: str,
                    key: nacl.signing.SigningKey, clock: Clock = now_utc) -> ReceiptPublished:
    """The season's receipt signed with the league's ``key``, kept and recorded."""
    def decide(state: SeasonState, at: str) -> tuple[list[ReceiptPublished], object]:
        if state.people.role_of(account) != "commissioner":
            raise NotYours(f"{account} is not the commissioner")
        receipt = season_receipt(store, season_id, key)
        content = msgspec.json.encode(receipt)
        event = ReceiptPublished(account=account, receipt=blob_hash(content),
                                 games=receipt.n_games, root=receipt.root, at=at)
        return [event], lambda: store.put_blob(content, RECEIPT_MEDIA)
    return act_on_season(store, season_id, clock, decide)[0]  # type: ignore[arg-type,return-value]
