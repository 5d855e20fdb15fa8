"""A count with its noun, as a user reads it: ``1 page``, ``2 pages``, ``1 goalie``,
``3 defensemen``. Every message that says how many of something uses it, so none says
``1 pages``."""

from __future__ import annotations

__all__ = ["counted"]


def counted(n: int, word: str, words: str | None = None) -> str:
    """``n`` and ``word``, or ``words`` (default ``word + "s"``) unless ``n`` is 1."""
    return f"{n} {word if n == 1 else words or word + 's'}"
