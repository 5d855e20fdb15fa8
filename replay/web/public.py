"""The league's public pages on the web (issue 36, docs/web.md): the season's site, the
very pages ``rinklog report --season`` writes (replay/reports/season_site.py), each game's
page with the audit's verdict on it, made again whenever the season stream moves (every
game stored, every act of a person moves it), and the receipts the commissioner published.

Pages are read from a read-only connection (a WAL snapshot: what a request sees is one
moment of the database, while games are written).
"""

from __future__ import annotations

import html
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from events.catalogue import open_store
from events.people import ReceiptPublished
from events.store import EventStore
from replay.leagues.audit import audit_game
from replay.reports.pages import season_pages
from replay.reports.season_site import game_href

__all__ = ["PublicSite", "Published"]


@dataclass(frozen=True)
class Published:
    at: str
    account: str
    games: int
    root: str
    receipt: str  # the blob


@dataclass
class PublicSite:
    """The season's pages, made once per version of the season stream."""

    db: Path
    season_id: str
    # a season system's own site (Matrix Hockey's), handed down; None: a league season's
    own_site: Callable[[EventStore, str], dict[str, str]] | None = None
    _version: int = -1
    _pages: dict[str, str] = field(default_factory=dict)
    _verdicts: dict[str, str] = field(default_factory=dict)  # by game head hash
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def page(self, path: str) -> str | None:
        """The page at ``path`` in the season's site (index.html, games/X.html, ...)."""
        with open_store(self.db, create=False) as store:
            version = store.version(self.season_id)
            with self._lock:
                if version != self._version:
                    self._pages = self._made(store)
                    self._version = version
                return self._pages.get(path)

    def _made(self, store: EventStore) -> dict[str, str]:
        if self.own_site is not None:
            return self.own_site(store, self.season_id)
        pages = season_pages(store, self.season_id)
        for info in store.streams(kind="game"):
            if info.meta.get("season") != self.season_id or info.meta.get("parent"):
                continue
            path = game_href(info.stream)
            if path in pages:
                pages[path] = _with_verdict(pages[path], self._verdict(store, info.stream))
        return pages

    def _verdict(self, store: EventStore, game_id: str) -> str:
        head = store.head_hash(game_id)
        if head not in self._verdicts:
            report = audit_game(store, game_id)
            failure = report.failure
            self._verdicts[head] = (
                f"Audit: ok, {report.events} events re-checked from their rolls (head "
                f"{head[:16]}…)" if failure is None else
                f"Audit: FAILED at event {failure.seq}, {failure.check} check ({failure.rule}): "
                f"expected {failure.expected}, recorded {failure.recorded}")
        return self._verdicts[head]

    def receipts(self) -> list[Published]:
        with open_store(self.db, create=False) as store:
            return [Published(e.at, e.account, e.games, e.root, e.receipt)
                    for e in (row.event for row in store.read(self.season_id))
                    if isinstance(e, ReceiptPublished)]

    def receipt(self, digest: str) -> bytes | None:
        if digest not in {p.receipt for p in self.receipts()}:
            return None
        with open_store(self.db, create=False) as store:
            found = store.blob_record(digest)
        return None if found is None else found[0]


def _with_verdict(page: str, verdict: str) -> str:
    """The page with the audit's verdict right after the ``<body>`` base.html.j2 opens."""
    line = f'<p class="audit-verdict" id="audit-verdict">{html.escape(verdict)}</p>\n'
    return page.replace("<body>\n", f"<body>\n{line}", 1)
