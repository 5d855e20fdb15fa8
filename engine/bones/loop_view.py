"""What the one game loop (engine/loop.py) reads of a Hockey Bones state at every step,
read here, in a compiled module that knows the state's type: each read is then native,
where the shared loop's (it knows a state only as ``engine.loop.LoopState``) were generic
attribute look-ups of about 150 instructions each."""

from __future__ import annotations

from engine.bones.state import GameState


def next_kind(state: GameState) -> str:
    """The next step's kind (``queue[0]``), "" once the game has ended."""
    if state.finished:
        return ""
    return state.queue[0].kind
