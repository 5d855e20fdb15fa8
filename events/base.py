"""The base every event shares.

Events are frozen msgspec Structs tagged by class name, so the stored ``type`` column and
the ``type`` key of an encoded event agree. Schema evolution is additive: new fields get
defaults, tags never change.
"""

from __future__ import annotations

import msgspec


class Event(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag=True):
    """Base of every event in a stream."""
