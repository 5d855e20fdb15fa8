"""A season's game played at the table from dice typed all at once (issue 36: typed
dice entered in the browser; docs/web.md): ``rinklog play --season S --game N`` with the
rolls given as lines, and every coach prompt answered as the prompt shows it (the enter
key: the default coach's lines; no to a yes/no question).

:func:`typed_export` plays it in a copy of the league's database (SQLite's online
backup) and returns the game's export file, which is then submitted like any other: the
league's database itself is not written.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Sequence
from pathlib import Path

from engine.dice import ManualDice
from engine.systems import system_of
from events.catalogue import open_store
from events.errors import RinklogError, RollError
from events.store import EventStore
from replay.games.session import continue_game, resume_point
from replay.leagues.ledger import table_committer
from replay.leagues.runner import table_game
from replay.leagues.transfer import export_game
from replay.systems import kit_for
from replay.systems.kit import Prompter

__all__ = ["play_typed", "typed_export"]


def _as_shown(question: str) -> str:
    """The answer of a person who keeps what each prompt shows."""
    return "n" if "[y/n]" in question else ""


def play_typed(store: EventStore, season_id: str, number: int, rolls: Sequence[str],
               origin: str = "rolls") -> str:
    """Game ``number`` of the season played at the table with ``rolls`` (one a line, as
    ``rinklog sim --rolls`` reads them), stored and recorded in ``store``: the game id."""
    game_id = table_game(store, season_id, number)
    folded = resume_point(store, game_id)
    ruleset = folded.created.ruleset
    coach = kit_for(ruleset).prompt_coach(Prompter(_as_shown, lambda line: None))
    dice = ManualDice(list(rolls), origin, system_of(ruleset).parse_roll)
    continue_game(folded, dice, coach, table_committer(store, game_id))
    return game_id


def typed_export(path: Path, season_id: str, number: int, rolls: Sequence[str],
                 origin: str = "rolls") -> bytes:
    """The export file of game ``number`` played with ``rolls`` in a copy of the database
    at ``path`` (thrown away after); RinklogError, in one line, for rolls that do not
    read or end before the game does."""
    with tempfile.TemporaryDirectory(prefix="rinklog-typed-") as folder:
        copy = Path(folder) / "copy.db"
        source, target = sqlite3.connect(path), sqlite3.connect(copy)
        try:
            source.backup(target)
        finally:
            source.close()
            target.close()
        with open_store(copy) as store:
            try:
                game_id = play_typed(store, season_id, number, rolls, origin)
            except RollError as err:
                raise RinklogError(str(err)) from None
            return export_game(store, game_id)
