"""One SQLite transaction, as the event store and everything written beside its streams
(the read models) share it."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from types import TracebackType

__all__ = ["Transaction"]


class Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception. Inside a
    transaction already open on the connection (``EventStore.transaction``) it is part of
    that one: the outer one commits or rolls back."""

    def __init__(self, db: sqlite3.Connection,
                 on_rollback: Callable[[], None] | None = None) -> None:
        self._db = db
        self._outer = False
        self._on_rollback = on_rollback  # e.g. forget event_types keys learnt inside it

    def __enter__(self) -> None:
        self._outer = self._db.in_transaction
        if not self._outer:
            self._db.execute("BEGIN IMMEDIATE")

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._outer:
            return
        if exc_type is None:
            self._db.execute("COMMIT")
        else:
            self._db.execute("ROLLBACK")
            if self._on_rollback is not None:
                self._on_rollback()
