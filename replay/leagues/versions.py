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
from events.store import EventStore
from replay.leagues.results import checked_file
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


def _version(store: EventStore, season_id: str, label: str, data: bytes) -> tuple[Version, list]:
    entry = export_entry(data, label)
    meta = entry.meta
    score = (f"{meta.get('home')} {meta.get('home_goals')} - {meta.get('away_goals')} "
             f"{meta.get('away')}")
    try:
        verified = checked_file(store, data, label, season_id)
        verdict = "audit ok"
        rows = verified.file.rows
        read = decoder(ALL_EVENTS, verified.file.payload_format).decode
        events = [msgspec.json.encode(read(r.payload)).decode() for r in rows]
    except RinklogError as err:
        verdict, events = str(err), []
    return Version(label, entry.game, entry.events, entry.head_hash, score, verdict), events


def compare_versions(store: EventStore, season_id: str, submitted: bytes,
                     disputed: bytes | None) -> Compared:
    first, first_events = _version(store, season_id, "submitted", submitted)
    if disputed is None:
        return Compared([first], len(first_events), [])
    second, second_events = _version(store, season_id, "disputed", disputed)
    same = 0
    for a, b in zip(first_events, second_events, strict=False):
        if a != b:
            break
        same += 1
    difference = [events[same] if same < len(events) else "(no more events)"
                  for events in (first_events, second_events)]
    return Compared([first, second], same, difference)
