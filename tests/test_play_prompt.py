"""The play prompt's coach: lines, the goalie and shootout shooters chosen by a person;
an illegal choice is refused with the rule and asked again, never recorded."""

from __future__ import annotations

import pytest
import typer

from engine.bones.game import decide, evolve, initial_state
from events.common import GameCreated, TeamSheet
from replay.cli.tooling import ask_at_table
from replay.data.library import default_charts, find_team
from replay.systems import Prompter
from replay.systems.bones import PromptCoach as _PromptCoach


def PromptCoach() -> _PromptCoach:  # noqa: N802 - reads as the class it builds
    """The play command's Bones prompt coach, answering through typer.prompt."""
    return _PromptCoach(Prompter(ask_at_table, lambda line: None))


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


def test_the_extra_skater_of_a_delayed_penalty_at_the_prompt(monkeypatch, state):
    """14.60: the person names the skater who replaces the goalie; a stranger, a goalie
    or a skater already in another slot is refused and asked again."""
    from engine.bones.coach import DefaultCoach
    from engine.bones.state import Step

    for change in DefaultCoach().lines(state):  # both teams' first units on the ice
        evolve(state, change)
    state.puck = ("home", state.home.slots["C"])
    state.queue = [Step("extra_skater", side="away"), Step("delayed", side="home")]
    default = DefaultCoach().lines(state)[0]
    on_ice = set(default.slots.values())
    other = next(p for p, s in state.away.players.items()
                 if not s.is_goalie and p not in on_ice)
    answers(monkeypatch, "nobody", state.away.goalie, default.slots["LW"], other)
    (choice,) = PromptCoach().lines(state)
    assert (choice.side, choice.rule, choice.slots["G"]) == ("away", "14.60", other)
    assert choice.slots["G"] != default.slots["G"]
    answers(monkeypatch, "")
    assert PromptCoach().lines(state) == [default]


def test_a_roll_says_what_it_decides_and_help_explains(monkeypatch, state):
    """The roll prompt names what the roll decides; help at a prompt lists the choices;
    players are named by id, number or name."""
    from engine.bones.explain import roll_for

    shown: list[str] = []
    coach = _PromptCoach(Prompter(_ask_recording(shown), shown.append))
    coach.watch(state)
    answers(monkeypatch, "help", "3 4 2 6")
    assert str(coach.roll(1)) == "3 4 2 6"
    assert any("face-off" in p or "faceoff" in p for p in shown if p.startswith("roll 1 for"))
    assert any("blue, the two whites, red" in line for line in shown)
    assert roll_for(state).startswith("faceoff")
    team = state.home.team
    centre = team.lines.forwards[1][1]
    last_name = next(s.name for s in team.skaters if s.id == centre).split()[-1]
    number = 1 + [s.id for s in team.skaters].index(centre)
    for named in (last_name, str(number)):
        answers(monkeypatch, "help", f"home C={named}", "")
        home = next(c for c in coach.lines(state) if c.side == "home")
        assert home.slots["C"] == centre
    assert any("(home):" in line for line in shown)


def _ask_recording(shown: list[str]):
    def ask(text: str) -> str:
        shown.append(text)
        return ask_at_table(text)
    return ask


def test_each_prompt_shows_period_clock_score_strength_and_score_answers(monkeypatch, state):
    """Issue 24 item 9: every prompt ends with where the game stands, and ``score`` or
    ``clock`` typed at a prompt says it and asks again. Hockey Bones 6.00: a period is 50
    sequences of 24 seconds, so 25 sequences into the second period is 10:00 elapsed."""
    from engine.bones.explain import status

    state.period, state.sequence = 2, 25
    state.home.score, state.away.score = 2, 1
    line = status(state)
    assert line.startswith("P2 10:00 (sequence 25/50)")
    assert "HFX 2 - 1 QUE" in line and "5 on 5" in line
    shown: list[str] = []
    coach = _PromptCoach(Prompter(_ask_recording(shown), shown.append, status))
    coach.watch(state)
    answers(monkeypatch, "score", "clock", "3 4 2 6")
    assert str(coach.roll(1)) == "3 4 2 6"
    prompts = [p for p in shown if p.startswith("roll 1 for")]
    assert len(prompts) == 3 and all(p.endswith(f"[{line}]") for p in prompts)
    assert shown.count(f"  {line}") == 2  # score and clock answered, never taken as a roll
    state.sequence = 0
    state.period = 4  # 6.00: overtime
    assert status(state).startswith("OT 00:00 (sequence 0/12)")


def test_dicehockey_status_counts_timing_spaces_and_the_man_short(tmp_path):
    """DICE Hockey 12: the clock is the period's timing spaces; 15: a minor makes its team
    a man short, so with one minor running the prompt says 5 on 4 and whose power play."""
    from engine.systems import system_of
    from replay.tooling.games import load_inputs, open_store, read_game, simulate

    system = system_of("dicehockey")
    with open_store(tmp_path / "d.db") as store:
        game = simulate(store, "ALD", "BRK", seed="status", ruleset="dicehockey").game_id
        events = read_game(store, game)
        state = system.initial_state(events[0], *load_inputs(store, events[0]))
    for event in events[1:]:
        system.evolve(state, event)
        if type(event).__name__ == "PenaltyAssessed" and event.short and \
                sum(len(state.team(s).penalties) for s in ("home", "away")) == 1:
            break  # the only penalty running: a minor (or longer) that makes a man short
    else:
        raise AssertionError("no lone minor in the game")
    short, other = event.side, "away" if event.side == "home" else "home"
    teams = {s: state.team(s).team.id for s in ("home", "away")}
    line = system.status(state)
    on = "4 on 5" if short == "home" else "5 on 4"
    assert f"{on}, {teams[other]} power play" in line, line
    assert line.startswith(f"P{state.period} space {state.space}/{state.length} | ")
    assert f"ALD {state.home.score} - {state.away.score} BRK" in line
