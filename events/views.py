"""Plain-SQL views of format-2 events, one per event type, made from the event classes.

A format-2 payload is a JSON array, ``[tag, field, ...]`` (events/formats.py), so SQLite's
JSON functions read any field. ``ev_goal_scored`` lists every ``GoalScored`` of every
format-2 stream as ``(stream, seq, side, scorer, ...)``: one column per field, in the
class's order, a nested value (a list, a roll, a roster) as its JSON text:

    SELECT stream, seq, side, scorer FROM ev_goal_scored WHERE stream = 'HFX-QUE-2026'

The view of tag ``dicehockey.GoalScored`` is ``ev_dicehockey_goal_scored``. Format-1
(msgpack) streams are left out: SQL cannot read msgpack (``rinklog projections update
--events`` writes their events as JSON to ``rm_events``). Views cost no space; the store
makes them when it opens a database for writing and its event classes gave other views
than those stored. The store and the audit never read them.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Iterable

from events.base import tag_of
from events.formats import JSON, event_fields
from events.transactions import Transaction

__all__ = ["PREFIX", "event_views", "refresh_views", "view_name"]

PREFIX = "ev_"
_WORD_BREAK = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def view_name(tag: str) -> str:
    """``GoalScored`` -> ``ev_goal_scored``; ``dicehockey.ShotTaken`` ->
    ``ev_dicehockey_shot_taken``."""
    return PREFIX + _WORD_BREAK.sub("_", tag.replace(".", "_")).lower()


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _view_sql(cls: type) -> str:
    tag = tag_of(cls)
    columns = "".join(f",\n       json_extract(CAST(e.payload AS TEXT), '$[{i}]') AS [{name}]"
                      for i, name in enumerate(event_fields(cls), start=1))
    return (f"CREATE VIEW {view_name(tag)} AS\n"
            f"SELECT s.stream, e.seq{columns}\n"
            "FROM events e JOIN streams s ON s.key = e.stream_key\n"
            f"WHERE s.format = {JSON} AND e.type_key = "
            f"(SELECT key FROM event_types WHERE tag = {_quoted(tag)})")


@functools.cache
def event_views(classes: frozenset[type]) -> dict[str, str]:
    """The ``CREATE VIEW`` statement of each event class's view, by view name."""
    return {view_name(tag_of(cls)): _view_sql(cls)
            for cls in sorted(classes, key=tag_of)}


def refresh_views(db: sqlite3.Connection, classes: Iterable[type]) -> None:
    """Create (or recreate) the view of each class that is missing or stored otherwise,
    in one transaction; nothing is written when every view is as it should be. Views of
    classes not given (another rinklog's) are left as they are."""
    wanted = event_views(frozenset(classes))
    stored = dict(db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'view'"))
    stale = [name for name, sql in wanted.items() if stored.get(name) != sql]
    if not stale:
        return
    with Transaction(db):
        for name in stale:
            db.execute(f"DROP VIEW IF EXISTS {name}")
            db.execute(wanted[name])
