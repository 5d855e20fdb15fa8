"""Content-addressed blobs beside the streams (card sets, chart packs): stored once under
the BLAKE2b-256 hex of their bytes and checked against it on the way out."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from events.errors import CorruptDatabase
from events.transactions import Transaction
from events.values import blob_bytes, text

__all__ = ["Blobs", "blob_hash"]


def blob_hash(content: bytes) -> str:
    """The content address of a blob: BLAKE2b-256 hex of its bytes."""
    return hashlib.blake2b(content, digest_size=32).hexdigest()


class Blobs:
    """The ``blobs`` table of one database."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self._db = db
        self._path = path

    def put(self, content: bytes, media_type: str) -> str:
        """Store ``content`` once under its hash and return that hash. Idempotent: storing
        the same bytes again writes nothing (the first media type stays)."""
        digest = blob_hash(content)
        with Transaction(self._db):
            self._db.execute(
                "INSERT OR IGNORE INTO blobs (hash, media_type, content) VALUES (?, ?, ?)",
                (digest, media_type, bytes(content)),
            )
        return digest

    def get(self, digest: str) -> bytes:
        """The bytes stored under ``digest``; checked against it on the way out."""
        row = self._db.execute("SELECT content FROM blobs WHERE hash = ?", (digest,)).fetchone()
        if row is None:
            raise CorruptDatabase(f"{self._path} holds no blob {digest}")
        content = blob_bytes(row[0])
        if blob_hash(content) != digest:
            raise CorruptDatabase(f"{self._path}: blob {digest} does not match its hash")
        return content

    def has(self, digest: str) -> bool:
        found = self._db.execute("SELECT 1 FROM blobs WHERE hash = ?", (digest,)).fetchone()
        return found is not None

    def record(self, digest: str) -> tuple[bytes, str] | None:
        """A blob's content and media type as stored (unchecked), or None."""
        row = self._db.execute(
            "SELECT content, media_type FROM blobs WHERE hash = ?", (digest,)
        ).fetchone()
        return None if row is None else (blob_bytes(row[0]), text(row[1]))

    def hashes(self) -> list[str]:
        """The hash column of every stored blob."""
        return [str(r[0]) for r in self._db.execute("SELECT hash FROM blobs ORDER BY hash")]
