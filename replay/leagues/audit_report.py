"""What an audit says: the finding of the first check that does not hold, the report of a
stream, and where the blobs a stream names are read from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from events.league import SeasonCreated
from events.plurals import counted

__all__ = ["AuditFailed", "AuditFinding", "AuditReport", "BlobSource", "MemoryBlobs",
           "SeasonLookup", "summary_line"]


class BlobSource(Protocol):
    def blob_record(self, digest: str) -> tuple[bytes, str] | None: ...


SeasonLookup = Callable[[str], "SeasonCreated | str"]
"""A season stream's first event once that stream passes the audit, else why not."""


@dataclass(frozen=True)
class MemoryBlobs:
    """Blobs held in memory (content and media type by hash): what a season's worker has
    of the cards and charts the writer stores."""

    blobs: dict[str, tuple[bytes, str]]

    def blob_record(self, digest: str) -> tuple[bytes, str] | None:
        return self.blobs.get(digest)


@dataclass(frozen=True)
class AuditFinding:
    """The first thing that does not check out: which check, where, what and which rule."""

    check: str
    seq: int
    expected: str
    recorded: str
    rule: str

    def to_json(self) -> dict:
        return {"check": self.check, "seq": self.seq, "expected": self.expected,
                "recorded": self.recorded, "rule": self.rule}


@dataclass(frozen=True)
class AuditReport:
    game_id: str  # the stream id
    events: int
    head_hash: str
    seeded_rolls: int  # rolls checked against their seeded derivation
    failure: AuditFinding | None
    in_progress: bool = False
    kind: str = ""
    ruleset: str = ""
    ruleset_version: int = 0
    index: dict[str, Any] = field(default_factory=dict)  # the meta folded from the chain
    warnings: tuple[str, ...] = ()  # what passes but proves less (a season before records)

    @property
    def ok(self) -> bool:
        return self.failure is None

    def to_json(self) -> dict:
        return {"game_id": self.game_id, "ok": self.ok, "kind": self.kind,
                "events": self.events, "head_hash": self.head_hash,
                "seeded_rolls": self.seeded_rolls, "in_progress": self.in_progress,
                "failure": self.failure.to_json() if self.failure else None,
                **({"warnings": list(self.warnings)} if self.warnings else {})}


NOT_STREAMS = ("blob", "read models")
"""Report kinds that are not a stream's: a blob's, a read-model table's (failures only)."""


def summary_line(reports: list[AuditReport]) -> str:
    """``audit --all``'s last line: the findings (each failed report, each warning), the
    streams checked and their events: ``no findings in 9 streams checked (7879 events)``,
    ``3 findings in 9 streams checked (7879 events): 1 failed, 2 warnings``."""
    streams = [r for r in reports if r.kind not in NOT_STREAMS]
    failed = sum(not r.ok for r in reports)
    warned = sum(len(r.warnings) for r in reports)
    which = ", ".join(([f"{failed} failed"] if failed else [])
                      + ([counted(warned, "warning")] if warned else []))
    checked = (f"in {counted(len(streams), 'stream')} checked "
               f"({counted(sum(r.events for r in streams), 'event')})")
    if not which:
        return f"no findings {checked}"
    return f"{counted(failed + warned, 'finding')} {checked}: {which}"


class AuditFailed(Exception):
    """A check that does not hold: its finding (raised inside the checks, reported once)."""

    def __init__(self, check: str, seq: int, expected: str, recorded: str, rule: str) -> None:
        super().__init__(check)
        self.failure = AuditFinding(check, seq, expected, recorded, rule)
