"""Two versions of one disputed game side by side (issue 36, docs/web.md): what the
commissioner settles with. Each version's audit verdict (as its import would audit it
against the league's database), its score, and where the two part: the first event at
which their rows differ, both events shown.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from events.catalogue import ALL_EVENTS
from events.errors import RinklogError
from events.formats import decoder
from events.people import DisputeSettled
from events.store import EventStore
from replay.leagues.results import checked_file, season_state
from replay.leagues.transfer import export_entry

__all__ = ["Compared", "Version", "compare_versions"]


@dataclass(frozen=True)
class Version:
    label: str  # submitted / disputed
    game: str
    events: int
    head: str
    score: str  # "HOME 3 - 2 AWAY"
    verdict: str  # "audit ok" or the audit's finding


@dataclass(frozen=True)
class Compared:
    versions: list[Version]
    same_events: int  # the events the versions share from the first
    difference: list[str]  # the first differing event of each, as JSON


def _version(store: EventStore, season_id: str, label: str, data: bytes,
             judge: str) -> tuple[Version, list]:
    """One version: its verdict as the import that settling for it would run."""
    entry = export_entry(data, label)

    def counting(verified: object) -> list[DisputeSettled]:
        at = season_state(store, season_id).people.last_at
        return [DisputeSettled(game=entry.game, account=judge, verdict=label,  # type: ignore[arg-type]
                               note="", at=at)]
    meta = entry.meta
    score = (f"{meta.get('home')} {meta.get('home_goals')} - {meta.get('away_goals')} "
             f"{meta.get('away')}")
    try:
        verified = checked_file(store, data, label, season_id, counting)
        verdict = "audit ok"
        rows = verified.file.rows
        read = decoder(ALL_EVENTS, verified.file.payload_format).decode
        events = [msgspec.json.encode(read(r.payload)).decode() for r in rows]
    except RinklogError as err:
        verdict, events = str(err), []
    return Version(label, entry.game, entry.events, entry.head_hash, score, verdict), events


def compare_versions(store: EventStore, season_id: str, submitted: bytes,
                     disputed: bytes | None, judge: str) -> Compared:
    """The disputed game's two versions, each audited as settling for it would import it
    (``judge``: the commissioner who would settle)."""
    first, first_events = _version(store, season_id, "submitted", submitted, judge)
    if disputed is None:
        return Compared([first], len(first_events), [])
    second, second_events = _version(store, season_id, "disputed", disputed, judge)
    same = 0
    for a, b in zip(first_events, second_events, strict=False):
        if a != b:
            break
        same += 1
    difference = [events[same] if same < len(events) else "(no more events)"
                  for events in (first_events, second_events)]
    return Compared([first, second], same, difference)
