"""The commissioner's acts on a league on the web (issue 36, docs/web.md) beside
settling disputes (results.py): the simulated games due, the playoffs opened and played,
the lottery drawn, the odds recorded, the season's signed receipt published.

Each is the command line's own library call (``rinklog season``, ``playoffs``,
``lottery --draw``, ``odds --record``, ``receipt --season``), in one transaction with a
CommissionerActed (or ReceiptPublished) naming who did it and when: the season's rules
refuse it from anyone but the commissioner, and nothing of the act is then written.

A game is the coaches' to play at the table when either of its teams has a coach; the
others are simulated by the season's seeded dice and default coach, as ``rinklog season``
plays them. The postseason's games are all simulated here (a playoff game at the table
goes through ``rinklog play --season S --game ID`` on the league's database).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import nacl.signing

from events.people import COMMISSIONER, RECEIPT_MEDIA, CommissionerActed, ReceiptPublished
from events.store import EventStore, blob_hash
from replay.leagues.odds import odds_season, record_odds, report_of, run_odds
from replay.leagues.playoffs import draw_season_lottery, open_postseason, run_playoffs
from replay.leagues.results import Clock, NotYours, act_on_season, now_utc, season_state
from replay.leagues.runner import run_season
from replay.leagues.season import SeasonState
from replay.leagues.season_league import season_playoffs, season_to_play
from replay.leagues.season_receipts import season_receipt

__all__ = ["coached_games", "draw_lottery", "open_playoffs", "play_due", "play_postseason",
           "publish_receipt", "record_season_odds"]


def coached_games(state: SeasonState) -> frozenset[int]:
    """The schedule numbers the coaches play at the table (a team of them has a coach)."""
    assert state.created is not None
    coached = state.people.coaches
    return frozenset(n for n, home, away in state.created.schedule
                     if home in coached or away in coached)


def _acted(store: EventStore, season_id: str, account: str, act: str, work: Callable[[], Any],
           clock: Clock, through: int = 0) -> Any:
    """``work`` and its CommissionerActed, in one transaction (refused whole for anyone
    but the commissioner)."""
    if season_state(store, season_id).people.role_of(account) != COMMISSIONER:
        raise NotYours(f"{account} is not the commissioner")
    with store.transaction():
        done = work()
        act_on_season(store, season_id, clock, lambda state, at: ([CommissionerActed(
            account=account, act=act, at=at, through=through)], None))  # type: ignore[arg-type]
    return done


def play_due(store: EventStore, season_id: str, account: str, through: int,
             clock: Clock = now_utc) -> Any:
    """The simulated games among the schedule's first ``through``, played and stored."""
    state = season_state(store, season_id)
    assert state.created is not None
    plan = season_to_play(store, None, state.created.seed)
    return _acted(store, season_id, account, "play", lambda: run_season(
        store, plan.setup, league=plan.name, schedule=plan.schedule, seed=state.created.seed,
        workers=1, divisions=plan.divisions, games=through, league_file=plan.league_file,
        skip=coached_games(state)), clock, through)


def open_playoffs(store: EventStore, season_id: str, account: str,
                  clock: Clock = now_utc) -> Any:
    return _acted(store, season_id, account, "playoffs",
                  lambda: open_postseason(store, season_id), clock)


def play_postseason(store: EventStore, season_id: str, account: str,
                    clock: Clock = now_utc) -> Any:
    return _acted(store, season_id, account, "postseason",
                  lambda: run_playoffs(store, season_id), clock)


def draw_lottery(store: EventStore, season_id: str, account: str,
                 clock: Clock = now_utc) -> Any:
    return _acted(store, season_id, account, "lottery",
                  lambda: draw_season_lottery(store, season_id), clock)


def record_season_odds(store: EventStore, season_id: str, account: str, runs: int, seed: str,
                       clock: Clock = now_utc) -> Any:
    """``rinklog odds S --runs N --seed SEED --record`` on one worker."""
    def work() -> Any:
        stored = odds_season(store, season_id,
                             lambda created: season_playoffs(store, created, None))
        report = report_of(stored, seed, run_odds(stored.odds, seed, runs, 1, None, None))
        record_odds(store, stored, report)
        return report
    return _acted(store, season_id, account, "odds", work, clock)


def publish_receipt(store: EventStore, season_id: str, account: str,
                    key: nacl.signing.SigningKey, clock: Clock = now_utc) -> ReceiptPublished:
    """The season's receipt signed with the league's ``key``, kept and recorded."""
    def decide(state: SeasonState, at: str) -> tuple[list[ReceiptPublished], object]:
        if state.people.role_of(account) != COMMISSIONER:
            raise NotYours(f"{account} is not the commissioner")
        receipt = season_receipt(store, season_id, key)
        content = msgspec.json.encode(receipt)
        event = ReceiptPublished(account=account, receipt=blob_hash(content),
                                 games=receipt.n_games, root=receipt.root, at=at)
        return [event], lambda: store.put_blob(content, RECEIPT_MEDIA)
    return act_on_season(store, season_id, clock, decide)[0]  # type: ignore[arg-type,return-value]
