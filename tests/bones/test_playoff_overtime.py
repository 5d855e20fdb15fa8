"""Playoff overtime for Hockey Bones and FaceOff 2008: the game option ``playoff``.

Both texts give only "a regular season game" its overtime (Hockey Bones 6.00, FaceOff 5.00:
"If a regular season game is tied after 3 periods, a 5-minute overtime period is played
(12 time sequences)"), and Hockey Bones its shootout (21.00). Ruling R-6.00c (issue 22):
a playoff game tied after three plays sudden-death overtime periods of the regular length
("three 20-minute periods", 50 sequences), each opened as a period is (5.00 / FaceOff 6.00
bench checks "before the start of every period", then a face-off), until a goal: no
shootout, no tie. Penalties carry over from period to period as in regulation.
"""

from __future__ import annotations

import json

import msgspec
import pytest
from bones_support import R, action, apply, created, new_state, penalize

from engine.bones import stoppages
from engine.bones.explain import describe, status
from engine.bones.game import IllegalChoice, decide
from engine.bones.rulesets import OPTIONAL_RULES, RULESETS
from engine.bones.state import Step
from events.bones import ActionResolved, ShootoutAttempt, ShootoutOrderChosen
from events.common import GameCreated, GameEnded, PeriodStarted
from replay.cli.app import main
from replay.games.game_streams import open_store, read_game

RULESETS_BOTH = ("bones", "faceoff2008")
PLAYOFF = ["playoff"]


def playoff_state(ruleset: str, **kw):
    return new_state(ruleset, options=PLAYOFF, **kw)


def end_period(state, period: int, home: int, away: int) -> None:
    """The period's clock ran out (its last sequence used) with this score."""
    state.period, state.sequence = period, state.period_length
    state.home.score, state.away.score = home, away
    state.queue = [Step("end_period")]
    apply(state, decide(state, None))


def start_period(state) -> PeriodStarted:
    events = decide(state, None)
    apply(state, events)
    return events[0]


# --- the option ---------------------------------------------------------------------------

def test_6_00c_playoff_is_an_option_of_both_rulesets_recorded_by_name():
    assert RULESETS["bones"].option_names == ("playoff",)
    assert RULESETS["faceoff2008"].option_names == (*OPTIONAL_RULES, "playoff")
    for ruleset in RULESETS_BOTH:
        assert playoff_state(ruleset).playoff
        assert not new_state(ruleset).playoff
    assert msgspec.json.decode(msgspec.json.encode(created(options=PLAYOFF)))["options"] == \
        ["playoff"]


def test_6_00c_game_created_options_take_no_other_name():
    # FaceOff's optional rules have fields of their own; DICE Hockey's are not Bones'
    for name in ("fatigue", "forward_defense"):
        with pytest.raises(IllegalChoice, match=f"no game option {name}"):
            new_state("faceoff2008", options=[name])


# --- overtime periods of the regular length, until a goal ---------------------------------

@pytest.mark.parametrize("ruleset", RULESETS_BOTH)
def test_6_00c_tied_third_plays_a_20_minute_overtime_opened_as_a_period(ruleset):
    state = playoff_state(ruleset)
    end_period(state, 3, 2, 2)
    assert state.queue == [Step("start_period")]
    assert start_period(state) == PeriodStarted(period=4)
    # 5.00 (FaceOff 6.00): bench checks before every period, then the opening face-off
    assert [s.kind for s in state.queue] == ["bench", "bench", "faceoff"]
    assert state.period_length == 50  # "three 20-minute periods": 50 sequences of 24 s


@pytest.mark.parametrize("ruleset", RULESETS_BOTH)
@pytest.mark.parametrize("period", [4, 5, 7])
@pytest.mark.parametrize("sequence", [1, 12, 13, 49, 50])
def test_6_00c_a_goal_at_any_time_of_any_overtime_ends_the_game(ruleset, period, sequence):
    state = playoff_state(ruleset)
    state.period, state.sequence = period, sequence
    state.home.score, state.away.score = 2, 3
    state.queue = [Step("stop", reason="goal")]
    apply(state, stoppages.decide_stop(state, state.queue[0], None))
    assert [s.kind for s in state.queue] == ["end_period"]  # no face-off: sudden death
    apply(state, decide(state, None))
    assert state.queue == [Step("end_game")]
    ended = decide(state, None)[-1]
    assert isinstance(ended, GameEnded)
    assert (ended.decided, ended.winner, ended.home_goals, ended.away_goals) == \
        ("OT", "away", 2, 3)


@pytest.mark.parametrize("ruleset", RULESETS_BOTH)
def test_6_00c_a_scoreless_overtime_is_followed_by_another(ruleset):
    state = playoff_state(ruleset)
    end_period(state, 3, 1, 1)
    start_period(state)
    state.sequence = 12  # the regular season's overtime would be over here (6.00)
    assert not state.clock_expired
    end_period(state, 4, 1, 1)
    assert state.queue == [Step("start_period")]  # neither a shootout nor a tie
    assert start_period(state) == PeriodStarted(period=5)
    assert [s.kind for s in state.queue] == ["bench", "bench", "faceoff"]
    assert state.period_length == 50
    end_period(state, 5, 1, 1)
    assert start_period(state) == PeriodStarted(period=6)


@pytest.mark.parametrize("ruleset", RULESETS_BOTH)
def test_6_00c_penalties_carry_over_into_the_next_overtime(ruleset):
    state = playoff_state(ruleset)
    state.period, state.sequence = 4, 48
    penalize(state, "home", "minor")  # 14.10: five sequences man short
    running = [(p.id, p.short_left, p.box_left) for p in state.home.penalties]
    end_period(state, 4, 0, 0)
    start_period(state)
    assert state.period == 5
    assert [(p.id, p.short_left, p.box_left) for p in state.home.penalties] == running
    assert state.strength("home") == "sh" and state.skaters_allowed("home") == 4


def test_6_00c_playoff_overtime_is_five_on_five_in_a_three_on_three_league():
    state = playoff_state("bones", overtime_skaters=3)
    state.period = 4
    assert state.skaters_allowed("home") == 5
    regular = new_state("bones", overtime_skaters=3)
    regular.period = 4
    assert regular.skaters_allowed("home") == 3  # R-6.00b, unchanged


def test_6_00c_no_shootout_order_is_accepted_in_a_playoff_game():
    from engine.bones.coach import DefaultCoach
    from engine.bones.game import check_choice

    state = playoff_state("bones")
    end_period(state, 4, 2, 2)
    order = DefaultCoach().shootout(state)
    with pytest.raises(IllegalChoice, match="only after overtime"):
        check_choice(state, order)


def test_6_00c_the_late_penalty_house_rule_holds_in_every_overtime():
    """R-QR-late: "in every overtime sequence" an X is a penalty only on red 1; red 2 is
    play on (as ``test_actions.py::test_qr_late_penalty_house_rule_holds_in_all_of_overtime``
    for the regular season's one overtime)."""
    state = playoff_state("bones", late_penalty_house_rule=True)
    for period, used in ((4, 30), (5, 0), (6, 49)):
        state.period, state.sequence = period, used
        events = action(state, "home", "C", "X", R(3, 3, 4, 2))
        assert next(e for e in events if isinstance(e, ActionResolved)).result == "play_on"


def test_6_00c_status_and_describe_name_the_overtimes():
    state = playoff_state("bones")
    state.period, state.sequence = 5, 10
    assert status(state).startswith("2OT 04:00 (sequence 10/50)")
    assert describe(state, PeriodStarted(period=5)) == "overtime 2 starts"
    assert describe(state, PeriodStarted(period=4)) == "overtime starts"


# --- without the option: unchanged ----------------------------------------------------------

@pytest.mark.parametrize(("ruleset", "after"), [
    ("bones", [Step("shootout_order")]),  # 21.00
    ("faceoff2008", [Step("end_game", decided="TIE")]),  # FaceOff 5.00: a tie stands
])
def test_6_00c_without_the_option_overtime_is_12_sequences_then_shootout_or_tie(ruleset, after):
    state = new_state(ruleset)
    end_period(state, 3, 2, 2)
    assert start_period(state) == PeriodStarted(period=4)
    assert state.period_length == 12
    end_period(state, 4, 2, 2)
    assert state.queue == after


# --- whole games ------------------------------------------------------------------------------

# Seeds whose game (under the CLI's game id) is tied after a scoreless first overtime.
MULTI_OT = {"bones": "5", "faceoff2008": "94"}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("ruleset", RULESETS_BOTH)
def test_6_00c_sim_optional_rule_playoff_plays_to_a_goal_and_audits_clean(
        ruleset, tmp_path, capsys):
    db = str(tmp_path / "po.db")
    seed = MULTI_OT[ruleset]
    code, out, err = run(capsys, "sim", "--ruleset", ruleset, "--optional-rule", "playoff",
                         "--home", "HFX", "--away", "QUE", "--seed", seed, "--json",
                         "--db", db)
    assert code == 0, err
    game_id = json.loads(out)["game_id"]
    assert json.loads(out)["decided"] == "OT"
    with open_store(db) as store:
        events = read_game(store, game_id)
    first = events[0]
    assert isinstance(first, GameCreated) and first.options == ["playoff"]
    assert not any(name.startswith("faceoff_") and getattr(first, name) is not msgspec.UNSET
                   for name in GameCreated.__struct_fields__)
    started = [e.period for e in events if isinstance(e, PeriodStarted)]
    assert started[:5] == [1, 2, 3, 4, 5]  # a second overtime: the first was scoreless
    assert not any(isinstance(e, ShootoutAttempt | ShootoutOrderChosen) for e in events)
    end = events[-1]
    assert isinstance(end, GameEnded) and end.decided == "OT" and end.winner != "none"
    assert abs(end.home_goals - end.away_goals) == 1
    assert run(capsys, "audit", "--all", "--db", db)[0] == 0

    code, out, _ = run(capsys, "scoresheet", game_id, "--json", "--db", db)
    sheet = json.loads(out)
    for side in ("home", "away"):
        assert len(sheet[side]["goals_by_period"]) == started[-1]
        assert sum(sheet[side]["goals_by_period"]) == sheet[side]["goals"]
    code, text, _ = run(capsys, "scoresheet", game_id, "--db", db)
    label = "OT" if started[-1] == 4 else f"{started[-1] - 3}OT"
    assert "  OT  2OT" in text and f"\n  {label}  " in text  # the winner's line in Goals


@pytest.mark.parametrize("ruleset", RULESETS_BOTH)
def test_6_00c_seeded_playoff_games_never_end_tied_nor_in_a_shootout(ruleset, tmp_path):
    from replay.games.game_setup import Dice, game_setup
    from replay.games.game_streams import simulate

    with open_store(tmp_path / "many.db") as store:
        results = [simulate(store, game_setup(ruleset, "HFX", "QUE", optional_rules=PLAYOFF,
                                              dice=Dice(seed=str(seed))))
                   for seed in range(1, 21)]
    assert {r.decided for r in results} <= {"REG", "OT"}
    assert all(r.home_goals != r.away_goals for r in results)


def test_6_00c_penalty_report_times_playoff_overtimes_as_20_minutes():
    from projections.bones.penalties import PenaltyFold, period_length

    assert [period_length(p) for p in (3, 4)] == [1200, 300]  # 6.00, unchanged
    assert [period_length(p, playoff=True) for p in (4, 5, 6)] == [1200] * 3
    fold = PenaltyFold()
    fold.apply(created(options=PLAYOFF, overtime_skaters=3))
    fold.period = 4
    assert fold.playoff and fold.base_skaters() == 5
    regular = PenaltyFold()
    regular.apply(created(overtime_skaters=3))
    regular.period = 4
    assert not regular.playoff and regular.base_skaters() == 3
