"""A Datasette plugin of ``rinklog serve``: the database is served immutable, so a request
that would write (a POST to a canned query, a form, the write API) is refused with 405 and
one line of JSON instead of reaching SQLite and failing with a server error; and a league
on the web's people tables (``web_*``: password hashes, sessions, invitations, addresses
refused requests came from; replay/web/accounts.py) read as NULL in every query, as
SQLite's authorizer makes them, whatever SQL asks."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from datasette import hookimpl

_READS = frozenset({"GET", "HEAD", "OPTIONS"})
_REFUSAL = json.dumps({
    "ok": False, "status": 405,
    "error": "read-only: rinklog serve serves the database immutable; nothing is written"},
).encode()

App = Callable[[dict[str, Any], Any, Any], Awaitable[None]]


def _people_unread(action: int, table: str | None, column: str | None, database: str | None,
                   source: str | None) -> int:
    """SQLite's authorizer: a read of a ``web_`` table's column gives NULL."""
    if action == sqlite3.SQLITE_READ and table is not None and table.startswith("web_"):
        return sqlite3.SQLITE_IGNORE
    return sqlite3.SQLITE_OK


@hookimpl
def prepare_connection(conn: sqlite3.Connection) -> None:
    conn.set_authorizer(_people_unread)


@hookimpl
def asgi_wrapper(datasette: Any) -> Callable[[App], App]:
    def wrap(app: App) -> App:
        async def refuse_writes(scope: dict[str, Any], receive: Any, send: Any) -> None:
            if scope["type"] != "http" or scope["method"] in _READS:
                await app(scope, receive, send)
                return
            await send({"type": "http.response.start", "status": 405, "headers": [
                (b"content-type", b"application/json; charset=utf-8"),
                (b"allow", b"GET, HEAD, OPTIONS")]})
            await send({"type": "http.response.body", "body": _REFUSAL})
        return refuse_writes
    return wrap
