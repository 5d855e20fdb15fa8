"""4.00 game set-up and 5.00: who dresses, who starts in goal, what happens first."""

from __future__ import annotations

import pytest
from bones_support import created
from setups import setup_for

from engine.bones.game import IllegalChoice, decide, evolve, initial_state
from events.common import PeriodStarted
from replay.systems.bones.library import default_charts, find_team


def test_4_00_everyone_dressed_nobody_on_the_ice_starter_in_goal():
    home, away = find_team("HFX"), find_team("QUE")
    state = initial_state(created(), home, away, default_charts())
    assert len(state.home.players) == len(home.skaters) + len(home.goalies) == 20
    assert all(state.home.slots[s] is None for s in ("LW", "C", "RW", "LD", "RD"))
    assert state.home.slots["G"] == state.home.goalie == home.lines.goalies[0]


def test_4_00_the_coach_may_start_the_backup():
    home, away = find_team("HFX"), find_team("QUE")
    backup = home.lines.goalies[1]
    state = initial_state(created(home_goalie=backup), home, away, default_charts())
    assert state.home.goalie == backup and state.home.slots["G"] == backup


def test_4_00_a_skater_cannot_start_in_goal():
    home, away = find_team("HFX"), find_team("QUE")
    with pytest.raises(IllegalChoice, match="4.00"):
        initial_state(created(home_goalie=home.skaters[0].id), home, away, default_charts())


def test_4_00_and_5_00_bench_checks_come_before_the_opening_face_off():
    state = initial_state(created(), find_team("HFX"), find_team("QUE"), default_charts())
    (started,) = decide(state, None)
    assert started == PeriodStarted(period=1)
    evolve(state, started)
    assert [(s.kind, s.side) for s in state.queue] == [
        ("bench", "home"), ("bench", "away"), ("faceoff", "")]


def test_6_00_overtime_is_five_on_five_by_the_text_and_three_on_three_by_option():
    from bones_support import new_state, penalize

    text = new_state()
    text.period = 4
    assert text.skaters_allowed("home") == 5
    option = new_state(overtime_skaters=3)
    option.period = 4
    assert option.skaters_allowed("home") == option.skaters_allowed("away") == 3
    penalize(option, "away", slot="RW")
    assert (option.skaters_allowed("home"), option.skaters_allowed("away")) == (4, 3)
    option.period = 3
    assert (option.skaters_allowed("home"), option.skaters_allowed("away")) == (5, 4)


def test_6_00_three_on_three_overtime_games_play_to_the_end():
    from engine.bones.dice import derive_roll
    from engine.dice import SeededDice
    from events.bones import SequencePlayed
    from replay.games.game_streams import play_game

    home, away, charts = find_team("WPG"), find_team("SAS"), default_charts()
    seen_ot = 0
    for n in range(40):
        game = play_game(setup_for(home, away, charts, overtime_skaters=3), home, away,
                         game_id=f"ot{n}", dice=SeededDice(str(n), f"ot{n}", derive_roll), seed=str(n))
        ot = [e for e in game.events if isinstance(e, SequencePlayed) and e.period == 4]
        seen_ot += bool(ot)
        for e in ot:
            assert 3 <= len(e.home) <= 5 and 3 <= len(e.away) <= 5
            if e.home_short == e.away_short == 0 and e.home_goalie and e.away_goalie:
                assert len(e.home) == len(e.away) == 3
    assert seen_ot
