"""The play prompt's coach: lines, the goalie and shootout shooters chosen by a person;
an illegal choice is refused with the rule and asked again, never recorded."""

from __future__ import annotations

import pytest
import typer

from engine.bones.game import decide, evolve, initial_state
from events.common import GameCreated, TeamSheet
from replay.cli_replay import PromptCoach
from replay.library import default_charts, find_team


@pytest.fixture
def state():
    sheet = TeamSheet(team_id="X", name="X", card_hash="", roster=[])
    created = GameCreated(game_id="p", ruleset="bones", ruleset_version=1, home=sheet,
                          away=sheet, charts_hash="", dice="seeded", seed="p")
    state = initial_state(created, find_team("HFX"), find_team("QUE"), default_charts())
    for event in decide(state, None):  # PeriodStarted: bench checks, then the face-off
        evolve(state, event)
    state.queue = state.queue[-1:]  # straight to the opening face-off
    return state


def answers(monkeypatch, *typed: str) -> list[str]:
    queue = list(typed)
    monkeypatch.setattr(typer, "prompt", lambda *a, **k: queue.pop(0))
    return queue


def test_a_person_edits_the_default_lines(monkeypatch, state):
    team = state.home.team
    centre = team.lines.forwards[1][1]  # the second line's centre instead of the first's
    answers(monkeypatch, "home C=nobody", "home X=1", f"home C={centre}", "")
    changes = PromptCoach().lines(state)
    home = next(c for c in changes if c.side == "home")
    assert home.slots["C"] == centre and not home.on_the_fly


def test_pulling_the_goalie_at_the_prompt(monkeypatch, state):
    extra = state.away.team.lines.forwards[3][0]
    answers(monkeypatch, f"away G={extra}", "")
    away = next(c for c in PromptCoach().lines(state) if c.side == "away")
    assert away.slots["G"] == extra


def test_shootout_shooters_and_order_at_the_prompt(monkeypatch, state):
    home = state.home.team
    named = [home.skaters[-1].id, home.skaters[-2].id]
    answers(monkeypatch, "home " + ",".join(named), "home goalie-who", "first away", "")
    order = PromptCoach().shootout(state)
    assert order.home_shooters[:2] == named and order.first == "away"
