"""Fixtures of the Hockey Bones tests (helpers in tests/bones/bones_support.py)."""

from __future__ import annotations

import pytest
from bones_support import new_state

from engine.bones.state import GameState


@pytest.fixture
def state() -> GameState:
    """HFX at home, QUE away, each with its first forward line and pair on, period 1."""
    return new_state()
