"""Module-level init and task for tests/test_cluster.py: a Dask worker imports them by
name (tests/ is on its path, as on the test process's)."""

from __future__ import annotations

import os

_inits = 0  # how often this process was set up
_initargs: tuple = ()


def set_up(*initargs: str) -> None:
    global _inits, _initargs
    _inits += 1
    _initargs = initargs


def inits(_job: int) -> tuple[int, int, tuple]:
    """This worker process, how often it was set up so far, and with what."""
    return os.getpid(), _inits, _initargs


# --- a forging worker (issue 33): its season games come back forged ----------------------

FORGED = 2  # the schedule number of the game a forging worker forges


def forge(how: str) -> None:
    """In a worker (or this process): ``runner._play`` returns game FORGED forged ``how``
    (a crew's task is sent by name, so a worker that unpickles it gets this one):

    - ``die``: a roll's red die changed, the chain re-hashed, the index, read models and
      games out folded again from the forged events (self-consistent);
    - ``goals``: its scoresheet's read-model row says 9 home goals;
    - ``seed``: its GameCreated's dice seed another (re-hashed and folded as ``die``);
    - ``team``: played with its teams (and their goalies) swapped, its worker's audit
      (which finds it) said to pass, its read models folded as ``die``;
    - ``out``: a player of the home side said to be out of its next 3 games;
    - ``rule``: its GameEnded giving the home side a goal more (every die right; re-hashed
      and folded as ``die``): only the rules tell."""
    from replay.leagues import runner

    honest = getattr(runner._play, "honest", runner._play)

    def forged(fixture):
        if fixture[0] != FORGED:
            return honest(fixture)
        if how == "team":
            number, home, away, home_goalie, away_goalie, absent = fixture
            return _forged(honest((number, away, home, away_goalie, home_goalie, absent)),
                           how)
        return _forged(honest(fixture), how)

    forged.honest = honest  # type: ignore[attr-defined]
    runner._play = forged


def unforge() -> None:
    from replay.leagues import runner

    runner._play = getattr(runner._play, "honest", runner._play)


def _forged(played, how: str):
    import dataclasses

    import msgspec

    from engine.systems import SYSTEMS
    from events.common import GamesOut
    from events.formats import NEW_STREAM_FORMAT, decoder
    from projections.store import TABLES

    system = SYSTEMS["dicehockey"]
    decode = decoder(system.event_type, NEW_STREAM_FORMAT).decode
    events = [decode(p) for p in played.rows.payloads]
    played = dataclasses.replace(played, failure=None)  # what its audit found, unsaid
    if how == "goals":
        columns = list(TABLES["rm_scoresheet_games"][1])
        row = list(played.read_models["scoresheet"]["rm_scoresheet_games"][0])
        row[columns.index("home_goals")] = 9
        models = {p: dict(t) for p, t in played.read_models.items()}
        models["scoresheet"]["rm_scoresheet_games"] = [tuple(row)]
        return dataclasses.replace(played, read_models=models)
    if how == "out":
        return dataclasses.replace(played, games_out=(
            *played.games_out, GamesOut(side="home", player="forged", games=3, rule="17")))
    if how == "die":
        at = next(i for i, e in enumerate(events) if isinstance(e, system.roll_event))
        roll = events[at].roll
        events[at] = msgspec.structs.replace(events[at], roll=msgspec.structs.replace(
            roll, red=(roll.red + 1) % 10))
    elif how == "rule":  # every die right, the final score one goal more for the home side
        ended = events[-1]
        events[-1] = msgspec.structs.replace(ended, home_goals=ended.home_goals + 1)
    elif how == "seed":  # (and "team": played so)
        events[0] = msgspec.structs.replace(events[0], seed=events[0].seed + "-forged")
    return _refolded(played, system, events)


def _refolded(played, system, events):
    """``played`` with ``events`` encoded, chained, indexed and folded as a worker does."""
    import dataclasses

    from events.checkpoints import chain_hashes, chained
    from events.formats import NEW_STREAM_FORMAT, encode_events
    from projections.index import stream_index
    from projections.store import game_rows

    encoded = encode_events(events, NEW_STREAM_FORMAT)
    return dataclasses.replace(
        played, rows=chained(encoded, chain_hashes(p for _, p in encoded)),
        meta=stream_index(events).meta,
        read_models=game_rows(system.name, played.game_id, events, tuple(played.read_models)),
        games_out=tuple(system.games_out(events)))


def lie(stream: str) -> None:
    """In a worker: its ``audit --all --cluster`` task reports ``stream`` ("": every
    stream) as passing, whatever its audit found (the task is sent by name, as
    ``forge``'s)."""
    import dataclasses

    from replay.leagues import audit

    honest = getattr(audit._shipped_audit, "honest", audit._shipped_audit)

    def lying(game):
        report = honest(game)
        return dataclasses.replace(report, failure=None) if stream in ("", game.stream) \
            else report

    lying.honest = honest  # type: ignore[attr-defined]
    audit._shipped_audit = lying


def unlie() -> None:
    from replay.leagues import audit

    audit._shipped_audit = getattr(audit._shipped_audit, "honest", audit._shipped_audit)
