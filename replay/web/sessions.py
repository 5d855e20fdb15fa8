"""The web server's sessions as a table of the league's database (``web_sessions``,
replay/web/accounts.py): Litestar's server-side sessions keep only a random key in the
browser's cookie (HttpOnly, SameSite), the rest here."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from litestar.stores.base import Store

from replay.web.accounts import tables

__all__ = ["SessionTable"]


class SessionTable(Store):
    """Litestar's session store over ``web_sessions`` of the league's database: a fresh
    connection each call (requests run on several threads)."""

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        self.connect = connect

    def _run(self, sql: str, args: list[Any]) -> list[Any]:
        db = self.connect()
        try:
            tables(db)
            with db:
                return db.execute(sql, args).fetchall()
        finally:
            db.close()

    async def set(self, key: str, value: str | bytes, expires_in: int | timedelta | None = None
                  ) -> None:
        seconds = expires_in.total_seconds() if isinstance(expires_in, timedelta) else expires_in
        data = value.encode() if isinstance(value, str) else value
        self._run("insert or replace into web_sessions (key, value, expires) values (?, ?, ?)",
                  [key, data, time.time() + seconds if seconds else 0.0])

    async def get(self, key: str, renew_for: int | timedelta | None = None) -> bytes | None:
        rows = self._run("select value from web_sessions where key = ? and (expires = 0 or "
                         "expires > ?)", [key, time.time()])
        return rows[0][0] if rows else None

    async def delete(self, key: str) -> None:
        self._run("delete from web_sessions where key = ?", [key])

    async def delete_all(self) -> None:
        self._run("delete from web_sessions", [])

    async def exists(self, key: str) -> bool:
        return await self.get(key) is not None

    async def expires_in(self, key: str) -> int | None:
        rows = self._run("select expires from web_sessions where key = ?", [key])
        return int(rows[0][0] - time.time()) if rows and rows[0][0] else None
