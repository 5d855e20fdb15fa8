"""The one error a DICE Hockey coach can cause."""

from __future__ import annotations

from events.errors import RinklogError


class IllegalChoice(RinklogError):
    """A coach choice the DICE Hockey rules do not allow, or one they owe and did not get
    (9, 12, 14, 15, 22); the message names the rule."""
