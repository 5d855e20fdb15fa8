"""One SQLite transaction, as the event store and everything written beside its streams
(the read models) share it."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from types import TracebackType

from events.errors import RinklogError

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
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as err:
                self._undo()
                raise self._refused(err) from None
            return
        self._undo()
        if isinstance(exc, sqlite3.Error) and self._stopped_by_the_disk(exc):
            raise self._refused(exc) from None

    def _undo(self) -> None:
        # On SQLITE_FULL or SQLITE_IOERR SQLite may have rolled the transaction back
        # itself: a ROLLBACK then fails ("no transaction is active") over the real error.
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")
        if self._on_rollback is not None:
            self._on_rollback()

    @staticmethod
    def _stopped_by_the_disk(err: sqlite3.Error) -> bool:
        code = getattr(err, "sqlite_errorcode", 0) & 0xFF  # the primary result code
        return code in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR)

    def _refused(self, err: sqlite3.Error) -> Exception:
        """A write the disk stopped (full, a file-size limit), in one line naming the
        database; any other error as it was."""
        if not self._stopped_by_the_disk(err):
            return err
        path = self._db.execute("PRAGMA database_list").fetchone()[2] or ":memory:"
        return RinklogError(f"{path}: cannot write to the database ({err}: the disk is full "
                            "or a file-size limit was reached); nothing of this write was "
                            "stored, what was stored before it is kept")
