"""The play prompt's coach: lines, the goalie and shootout shooters chosen by a person;
an illegal choice is refused with the rule and asked again, never recorded."""

from __future__ import annotations

import re

import msgspec
import pytest
import typer

from engine.bones.game import decide, evolve, initial_state
from events.common import GameCreated, TeamSheet
from replay.cli.tooling import ask_at_table
from replay.systems import Prompter
from replay.systems.bones import PromptCoach as _PromptCoach
from replay.systems.bones.library import default_charts, find_team


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


# --- DICE Hockey at the table (9, 12, 15, 22; the play command) ---------------------------

def _dice_prompt(*typed: str):
    """The DICE Hockey prompt coach answering ``typed`` in order; what it prints."""
    from replay.systems import kit_for

    answers, shown = list(typed), []

    def ask(text: str) -> str:
        shown.append(text)
        return answers.pop(0)

    return kit_for("dicehockey").prompt_coach(Prompter(ask, shown.append)), shown


def _dice_state(puck: str = ""):
    """ALD (home) v BRK at a whistle after home had the puck, or in play with ``puck``
    (home's slot) holding it at the window his getting it opened."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "rules"))
    from dicehockey_support import carry, new_state

    state = new_state()
    if puck:
        carry(state, "home", puck)
        state.coach_window, state.window = True, "puck"
    else:
        state.puck, state.coach_window, state.window, state.whistle_side = \
            None, True, "stoppage", "home"
    return state


def test_dice_a_window_takes_one_change_a_team_and_home_answers_away() -> None:
    """9: "The away team must make this decision first and then the home team can
    counter": after away's change the prompt asks again; a second change of one team at
    the same window is refused."""
    state = _dice_state()
    coach, shown = _dice_prompt("lines away 2 2", "lines away 3 1", "lines home 3 3", "")
    away, home = coach.lines(state)
    assert (away.side, away.forwards, away.defense) == ("away", 2, 2)
    assert (home.side, home.forwards, home.defense) == ("home", 3, 3)
    assert any("away has changed its lines at this window already" in s for s in shown)
    assert (state.away.forwards, state.home.forwards) == (1, 1)  # the loop applies them


def test_dice_3_9_home_typed_first_is_answered_by_away_and_home_counters() -> None:
    """3: "The away team must make this decision first and then the home team can
    counter" (9 the same for changes). Typed home first, then away: the away team's
    change stands first and the home team's answer after it is taken (it was refused:
    "home has changed its lines at this window already", so away countered home)."""
    state = _dice_state()
    coach, shown = _dice_prompt("lines home 2 2", "lines away 3 3", "lines home 3 1", "")
    away, home = coach.lines(state)
    assert (away.side, away.forwards, away.defense) == ("away", 3, 3)
    assert (home.side, home.forwards, home.defense) == ("home", 3, 1)
    assert not any("not allowed" in s for s in shown), shown
    # home first and no away answer: it stands, after away's (none): one change
    coach, shown = _dice_prompt("lines home 2 2", "")
    (home,) = coach.lines(state)
    assert (home.side, home.forwards, home.defense) == ("home", 2, 2)


def test_dice_in_play_a_person_starts_a_change_a_dump_and_a_goalie_pull() -> None:
    """9: with his LD holding the puck a team may change its forward line, and dump; 22:
    the goalie may be pulled at any window, for the skater the person names. The default
    coach proposes nothing here, and the person is asked all the same."""
    from engine.dicehockey.coach import DefaultCoach
    from events.dicehockey import DumpDeclared, GoalieChanged, LinesChanged

    state = _dice_state(puck="LD")
    assert DefaultCoach().lines(state) == []
    extra = state.home.team.lines.forwards[3][0]
    coach, shown = _dice_prompt("lines home 2 1", f"pull home {extra}", "dump", "")
    change, pull, dump = coach.lines(state)
    assert isinstance(change, LinesChanged) and change.forwards == 2
    assert isinstance(pull, GoalieChanged) and pull.pulled and pull.extra_attacker == extra
    assert dump == DumpDeclared(side="home", player=state.puck[1], rule="9")
    state.away.pulled = True  # 22: a dump against an empty net is rule 22's
    coach, _ = _dice_prompt("dump", "")
    assert coach.lines(state) == [DumpDeclared(side="home", player=state.puck[1], rule="22")]


def test_dice_a_time_out_asks_whether_to_add_a_shot_turnover() -> None:
    """12: "A team that calls time out does not have to add a shot/turnover"."""
    state = _dice_state()
    coach, shown = _dice_prompt("timeout home", "maybe", "n", "")
    (called,) = [c for c in coach.lines(state) if type(c).__name__ == "TimeOutCalled"]
    assert not called.add_space and called.period_length == state.length
    assert sum("shot/turnover" in s for s in shown) >= 3  # asked, explained, asked again
    coach, _ = _dice_prompt("timeout home", "y", "")
    (called,) = coach.lines(state)
    assert called.add_space and called.period_length == state.length + 1


def test_dice_typed_at_the_coach_prompt_are_the_next_roll_and_help_is_short() -> None:
    from replay.systems.dicehockey.prompt import HELP

    state = _dice_state()
    coach, shown = _dice_prompt("lines home 9 9", "hello", "4 3")
    coach.watch(state)
    assert coach.lines(state) == []  # the default coach proposes no change at a whistle
    assert str(coach.roll(1)) == "4 3" and shown[-1].startswith("roll 1 for faceoff: 4 3")
    assert not any(HELP in line for line in shown)
    assert "  not understood: 'hello' ('help' lists the choices)" in shown
    assert any("kept for the next roll" in line for line in shown)


def test_dice_the_person_names_the_tied_penalty_and_the_extra_attacker() -> None:
    """15: a tie in penalty ratings is the players' coach's call; 22: the offense's coach
    names the extra attacker of a delayed penalty. Enter takes the default's habit."""
    from engine.dicehockey.state import Step
    from events.dicehockey import ExtraAttackerAdded, PenaltyPlayerChosen

    state = _dice_state(puck="C")
    team = state.home
    lw, rw = state.home.lines.forwards[0][0], state.home.lines.forwards[0][2]
    for pid in (lw, rw):
        team.cards[pid] = msgspec.structs.replace(team.cards[pid], penalty=99)
    state.pending = [Step("penalty_tie", side="home", source="skater", team="offense",
                          number=1)]
    last_name = team.cards[rw].name.split()[-1]
    coach, shown = _dice_prompt("nobody", last_name)
    assert coach.lines(state) == [PenaltyPlayerChosen(side="home", player=rw, rule="15")]
    assert "  not one of them: 'nobody'" in shown
    state.pending = [Step("extra_attacker", side="home")]
    coach, _ = _dice_prompt(lw, "")  # on the ice: not a skater he may add
    (added,) = coach.lines(state)
    assert isinstance(added, ExtraAttackerAdded) and added.player != lw
    coach, _ = _dice_prompt("7 2")  # dice: the habit's pick, and the next roll
    assert coach.lines(state) == [added] and str(coach.roll(9)) == "7 2"


def test_dice_play_stopped_says_resume_with_its_db_and_a_wrong_db_is_refused(
        tmp_path, capsys) -> None:
    """The resume hint names the database; following it resumes; a --resume into a
    database that is not there is refused and creates nothing."""
    import shlex

    from typer.testing import CliRunner

    from replay.cli.app import app, main

    db = tmp_path / "table games.db"
    runner = CliRunner()
    result = runner.invoke(app, ["play", "--home", "ALD", "--away", "BRK", "--ruleset",
                                 "dicehockey", "--db", str(db)], input="q\n")
    assert result.exit_code == 0, result.output
    hint = result.output.split("resume with: ")[1].strip()
    assert hint == f"rinklog play --resume ALD-BRK-live1 --db {shlex.quote(str(db))}"
    result = runner.invoke(app, shlex.split(hint)[1:], input="q\n")
    assert result.exit_code == 0 and "resumed after event" in result.output
    missing = tmp_path / "rinklog.db"
    assert main(["play", "--resume", "ALD-BRK-live1", "--db", str(missing)]) != 0
    assert "no such database" in capsys.readouterr().err and not missing.exists()


def test_dice_penalties_are_told_in_clears_and_timing_spaces() -> None:
    """15: a minor is killed by two clears; 18: a fight sits five timing spaces. DICE Hockey
    has no clock, so play says so rather than minutes."""
    from engine.dicehockey.explain import describe
    from events.dicehockey import PenaltyAssessed

    state = _dice_state()
    player = state.home.lines.forwards[0][0]
    minor = PenaltyAssessed(id=1, side="home", player=player, infraction="Hooking",
                            kind="minor", minutes=2, clears=2, spaces=0, short=True,
                            period=1, space=3, roll=7, rule="15")
    fight = msgspec.structs.replace(minor, infraction="Fighting", kind="fight", minutes=5,
                                    clears=0, spaces=5, short=False)
    assert describe(state, minor).endswith("Hooking, minor: 2 clears, a man short")
    assert describe(state, fight).endswith("Fighting, fight: 5 timing spaces, "
                                           "not short-handed")
    assert not re.search(r"\bmin(utes)?\b", describe(state, minor) + describe(state, fight))


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
    from setups import simulate

    from engine.systems import system_of
    from replay.games.game_streams import load_inputs, open_store, read_game

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
