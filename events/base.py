"""The base every event shares.

Events are frozen msgspec Structs tagged by class name, so the stored ``type`` column and
the ``type`` key of an encoded event agree. Schema evolution is additive: new fields get
defaults, tags never change.
"""

from __future__ import annotations

import msgspec


class Event(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag=True):
    """Base of every event in a stream."""


def tag_of(cls: type) -> str:
    """The tag an event class is stored under (the ``type`` column, the ``type`` key):
    its class name, or the namespaced tag a system gives it (``dicehockey.ShotTaken``)."""
    config = getattr(cls, "__struct_config__", None)
    tag = getattr(config, "tag", None)
    return str(tag) if tag is not None else cls.__name__
