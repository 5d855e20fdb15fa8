"""Helpers for the Hockey Bones rules tests: a game state with lines on the ice, cards re-rated
(``from bones_support import ...``; the ``state`` fixture is in tests/bones/conftest.py)."""

from __future__ import annotations

import msgspec

from engine.bones.game import initial_state
from engine.bones.rulesets import find_ruleset
from engine.bones.state import GameState, Step
from events.bones import Roll
from events.common import GameCreated, TeamSheet
from replay.systems.bones.library import default_charts, find_team, with_arc_cards

SLOTS = ("LW", "C", "RW", "LD", "RD")


def created(ruleset: str = "bones", **kw) -> GameCreated:
    sheet = TeamSheet(team_id="X", name="X", card_hash="0", roster=[])
    rules = find_ruleset(ruleset)
    return GameCreated(game_id="rules-test", ruleset=rules.name, ruleset_version=rules.version,
                       home=sheet, away=sheet, charts_hash="0", dice="seeded", seed="t", **kw)


def new_state(ruleset: str = "bones", **kw) -> GameState:
    """HFX at home, QUE away, each with its first forward line and pair on, period 1."""
    charts = default_charts()
    if kw.get("faceoff_arc_cards"):
        charts = with_arc_cards(charts)  # FaceOff 21.000: the ARC cards join the pack
    state = initial_state(created(ruleset, **kw), find_team("HFX"), find_team("QUE"), charts)
    for team in (state.home, state.away):
        lines = team.team.lines
        for slot, pid in zip(SLOTS, [*lines.forwards[0], *lines.defense[0]], strict=True):
            team.slots[slot] = pid
    state.period = 1
    state.sequence = 10
    state.queue = []
    return state


def R(blue: int, w1: int, w2: int, red: int) -> Roll:  # noqa: N802 - reads like the dice
    return Roll(blue, (w1, w2), red)


def pid_at(state: GameState, side: str, slot: str) -> str:
    pid = state.team(side).slots[slot]
    assert pid is not None
    return pid


def rate(state: GameState, side: str, slot: str, **changes) -> str:
    """Replace the card of the player in ``slot`` with ``changes``; return his id."""
    team = state.team(side)
    pid = pid_at(state, side, slot) if slot != "goalie" else team.goalie
    status = team.players[pid]
    status.card = msgspec.structs.replace(status.card, **changes)
    return pid


def fill(cell, rows: int = 11):
    """An action matrix whose every cell is ``cell``."""
    return [[cell] * rows for _ in range(6)]


def plain(state: GameState, side: str, **extra) -> None:
    """Strip every special rating from ``side``'s skaters on the ice (no shadow, no B,
    no screen, no ace, no intimidation...) so a test sees only what it sets."""
    for slot in SLOTS:
        if state.team(side).slots[slot]:
            rate(state, side, slot, shadow=False, blocker=False, screening=False, faceoff="",
                 ace_pk=False, intimidation=0, forechecking=0, passing=0, **extra)


def action(state: GameState, side: str, slot: str, cell: str, roll: Roll | None = None):
    """Give the carrier in ``slot`` an all-``cell`` matrix and decide one action roll."""
    from engine.bones import actions

    pid = rate(state, side, slot, action=fill(cell))
    state.puck = (side, pid)
    state.queue = [Step("action")]
    return actions.decide_action(state, state.queue[0], roll or R(3, 3, 4, 3))


def apply(state: GameState, events) -> None:
    from engine.bones.game import evolve

    for event in events:
        evolve(state, event)


def penalize(state: GameState, side: str, kind: str = "minor", slot: str = "RW",
             short: int | None = None):
    """Put a penalty on ``side`` (its player leaves the ice) via 14.10 assessment."""
    from engine.bones import penalties

    pid = pid_at(state, side, slot)
    state.calls = [penalties.make_call(side, pid, kind, "14.20", short=short)]
    state.queue = [Step("assess")]
    apply(state, penalties.decide_assess(state, state.queue[0], None))
    return pid
