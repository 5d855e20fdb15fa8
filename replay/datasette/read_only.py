"""A Datasette plugin of ``rinklog serve``: the database is served immutable, so a request
that would write (a POST to a canned query, a form, the write API) is refused with 405 and
one line of JSON instead of reaching SQLite and failing with a server error."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from datasette import hookimpl

_READS = frozenset({"GET", "HEAD", "OPTIONS"})
_REFUSAL = json.dumps({
    "ok": False, "status": 405,
    "error": "read-only: rinklog serve serves the database immutable; nothing is written"},
).encode()

App = Callable[[dict[str, Any], Any, Any], Awaitable[None]]


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
