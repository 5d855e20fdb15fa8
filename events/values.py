"""Stored values read as what they should be, whatever SQLite's loose typing let a hand
edit put in a cell: so that a changed cell cannot check out, never so that it crashes."""

from __future__ import annotations

from typing import Any

__all__ = ["blob_bytes", "text"]


def text(value: Any) -> str:
    """A stored value as text (bytes decoded leniently)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def blob_bytes(value: Any) -> bytes:
    """Stored content as bytes (text a hand edit left is encoded, so it fails its hash)."""
    return value if isinstance(value, bytes) else text(value).encode("utf-8", "surrogatepass")
