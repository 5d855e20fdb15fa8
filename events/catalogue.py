"""Every game system's event union, by system name: what a store decodes.

Tags never clash between systems (a system's events are named for it), so one union of
all of them decodes any stream; a tool that knows a stream's system uses that system's
own union (engine/systems.py). Adding a system adds its union here.
"""

from __future__ import annotations

import functools
import operator
from typing import Any

from events.bones import BonesEvent

__all__ = ["ALL_EVENTS", "SYSTEM_EVENTS"]

SYSTEM_EVENTS: dict[str, Any] = {"bones": BonesEvent}

ALL_EVENTS: Any = functools.reduce(operator.or_, SYSTEM_EVENTS.values())
"""The union of every system's events (the common ones included once)."""
