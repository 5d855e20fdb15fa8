"""DICE Hockey 15 (penalties, clears, the power play), 16 (special plays), 17 (injuries),
18 (fights), 21D (PP and PK ratings), 22 (5 on 3, 4 on 4, the extra attacker)."""

from __future__ import annotations

import pytest
from dicehockey_support import (
    carry,
    crosby,
    decide,
    new_state,
    pid,
    plain,
    put,
    rate,
)

from engine.dicehockey.coach import DefaultCoach
from engine.dicehockey.game import DECIDERS, check_choice, evolve
from engine.dicehockey.lines import on_ice
from engine.dicehockey.penalties import tied
from engine.dicehockey.puck import whistle
from engine.dicehockey.state import Call, Step
from events.dicehockey import (
    ClearCounted,
    FightRolled,
    GamesMissedRolled,
    GoalScored,
    InfractionRolled,
    InjuryRolled,
    PenaltyAssessed,
    PenaltyCalled,
    PenaltyEnded,
    PenaltyErased,
    PenaltyPlayerChosen,
    PenaltyTied,
    PlayStopped,
    ShootoutAttempt,
    SuspensionRolled,
)
from events.errors import IllegalChoice


def game():
    state = new_state(options=["learning_game"])
    plain(state)
    put(state, "home", "C", crosby())
    return state


def box(state, side: str, slot: str, kind: str = "minor") -> str:
    """Assess a penalty to the player in ``slot`` at a whistle."""
    player = pid(state, side, slot)
    state.puck = None
    for event in whistle(state, "penalty", "15", (Call(side, player, "Hooking", kind),)):
        evolve(state, event)
    return player


def test_15_chart_a_33_is_the_offenses_second_highest_penalty_rating() -> None:
    state = game()
    rate(state, "home", "LW", penalty=60)
    second = rate(state, "home", "RD", penalty=50)
    carry(state, "home", "C")
    called = decide(state, 33, Step("penalty_who", side="home", player="x", source="skater"))
    assert isinstance(called[0], PenaltyCalled) and called[0].player == second
    assert (called[0].team, called[0].rank) == ("offense", 2)


def test_15_a_tie_in_penalty_ratings_is_the_players_coachs_call() -> None:
    """15: "If there is a tie, the players' coach gets to decide who the penalty was on."
    Chart A's 05 names the offense's highest penalty rating; LW and RW share it."""
    state = game()
    rw = rate(state, "home", "RW", penalty=60)
    lw = rate(state, "home", "LW", penalty=60)
    carry(state, "home", "C")
    (tie,) = decide(state, 5, Step("penalty_who", side="home", player="x", source="skater"))
    assert isinstance(tie, PenaltyTied) and tie.players == [lw, rw]
    assert (tie.side, tie.team, tie.rank) == ("home", "offense", 1)
    assert state.queue[0].kind == "penalty_tie" and state.queue[0].side == "home"
    for wrong in (PenaltyPlayerChosen(side="home", player=pid(state, "home", "C"), rule="15"),
                  PenaltyPlayerChosen(side="away", player=lw, rule="15")):
        with pytest.raises(IllegalChoice, match="15"):
            check_choice(state, wrong)
    assert DefaultCoach().lines(state) == [PenaltyPlayerChosen(side="home", player=lw,
                                                               rule="15")]
    pick = PenaltyPlayerChosen(side="home", player=rw, rule="15")  # not the habit's
    check_choice(state, pick)
    evolve(state, pick)
    (what,) = state.queue[:1]
    assert (what.kind, what.player, what.team) == ("penalty_what", rw, "home")
    events = decide(state, 6)  # Chart B: a hooking minor, on the player the coach named
    assert isinstance(events[0], InfractionRolled) and events[0].player == rw


def test_15_a_tie_across_two_ranks_offers_both_players_for_either_rank() -> None:
    """Ratings 80, 60, 60, 10, 10: the second and the third highest are either of the two
    60s, the fourth and fifth either of the two 10s."""
    state = game()
    rate(state, "away", "LD", penalty=80)
    first = rate(state, "away", "C", penalty=60)
    second = rate(state, "away", "RD", penalty=60)
    assert tied(state, "away", 1) == [pid(state, "away", "LD")]
    assert tied(state, "away", 2) == tied(state, "away", 3) == [first, second]
    wingers = [pid(state, "away", "LW"), pid(state, "away", "RW")]  # plain(): 10 each
    assert tied(state, "away", 4) == tied(state, "away", 5) == wingers


def test_15_chart_b_06_is_a_hooking_minor_on_the_offense_stops_play() -> None:
    state = game()
    carry(state, "home", "C")
    player = pid(state, "home", "RW")
    events = decide(state, 6, Step("penalty_what", side="home", player=player,
                                   source="skater", team="home"))
    assert isinstance(events[0], InfractionRolled)
    assert (events[0].infraction, events[0].kind, events[0].delayed) == ("Hooking", "minor", False)
    assessed = events[1]
    assert isinstance(assessed, PenaltyAssessed) and assessed.clears == 2 and assessed.short
    assert isinstance(events[-1], PlayStopped) and state.home.men_short() == 1


def test_15_a_card_penalty_comes_from_97_98_of_the_column() -> None:
    state = game()
    carry(state, "home", "C")
    assert decide(state, 97)[0].result == "penalty"
    assert state.queue[0].kind == "penalty_who" and state.queue[0].source == "skater"


def test_15_goalie_card_95_99_is_a_penalty() -> None:
    state = game()
    carry(state, "home", "C")
    shooter = pid(state, "home", "LW")
    events = decide(state, 96, Step("shot", side="home", player=shooter, shot="GS"))
    assert events[0].penalty and not events[0].goal
    assert state.queue[0].kind == "penalty_who" and state.queue[0].source == "goalie"


def delayed_on_away(state):
    """A delayed minor on the away RD; the home coach adds his extra attacker (22)."""
    carry(state, "home", "C")
    player = pid(state, "away", "RD")
    decide(state, 6, Step("penalty_what", side="home", player=player, source="skater",
                          team="away"))
    assert state.queue[0].kind == "extra_attacker"
    (added,) = DefaultCoach().lines(state)
    check_choice(state, added)
    evolve(state, added)
    return player


def test_15_a_penalty_on_the_defense_is_delayed_with_an_extra_attacker() -> None:
    state = game()
    delayed_on_away(state)
    assert state.delayed and state.puck == ("home", pid(state, "home", "C"))
    assert on_ice(state, "home")["EA"] == state.delayed_ea and state.queue[0].kind == "pass"


def test_15_a_delayed_penalty_is_assessed_when_the_defense_gains_the_puck() -> None:
    state = game()
    player = delayed_on_away(state)
    decide(state, 93)  # TRV A: the away LD steals it
    assert state.queue[0].kind == "assess"
    events = decide(state, 0)
    assert isinstance(events[0], PenaltyAssessed) and events[0].player == player
    assert isinstance(events[-1], PlayStopped) and state.away.men_short() == 1


def test_15_a_goal_before_the_whistle_erases_the_delayed_penalty() -> None:
    state = game()
    player = delayed_on_away(state)
    shooter = pid(state, "home", "C")
    events = decide(state, 0, Step("shot", side="home", player=shooter, shot="PS"))
    erased = [e for e in events if isinstance(e, PenaltyErased)]
    assert erased and erased[0].player == player and not state.away.penalties


def test_15_the_lw_box_is_empty_on_the_penalty_kill_and_the_lw_fills_a_rw_hole() -> None:
    state = game()
    lw = pid(state, "away", "LW")
    box(state, "away", "RW")
    slots = on_ice(state, "away")
    assert slots["LW"] is None and slots["RW"] == lw


def test_15_a_pk_clear_counts_and_two_clears_kill_a_minor() -> None:
    state = game()
    player = box(state, "away", "RW")
    carry(state, "away", "C")
    rate(state, "away", "C", passing=crosby().passing)
    events = decide(state, 55)  # To C: a player on the ice, a clear
    assert events[0].result == "clear" and isinstance(events[1], ClearCounted)
    assert events[1].left == [1] and state.puck[0] == "home"
    carry(state, "away", "C")
    events = decide(state, 12)  # To LW PS: the LW box is empty, a failed clear
    assert events[0].result == "failed_clear"
    assert state.puck == ("home", pid(state, "home", "LW"))
    carry(state, "away", "C")
    events = decide(state, 30)  # To C GS: a GS is ignored, it is a clear
    ended = [e for e in events if isinstance(e, PenaltyEnded)]
    assert ended and ended[0].reason == "cleared" and ended[0].player == player
    assert not state.away.penalties and on_ice(state, "away")["LW"] is not None


def test_21d_pp_minus_pk_replaces_defense_and_passer_minus_14_plus_3_is_minus_11() -> None:
    state = game()
    state.home.team = state.home.team.__class__(**{**_fields(state.home.team), "pp": -14})
    state.away.team = state.away.team.__class__(**{**_fields(state.away.team), "pk": 3})
    box(state, "away", "RW")
    carry(state, "home", "C")
    event = decide(state, 40)[0]
    assert event.modifier == -11 and event.value == 29
    box(state, "away", "C")  # 5 on 3: doubled
    carry(state, "home", "C")
    assert decide(state, 40)[0].modifier == -22
    carry(state, "home", "C")
    assert decide(state, 97)[0].result == "penalty"  # 21D: a 97 stays a penalty


def _fields(struct) -> dict:
    return {name: getattr(struct, name) for name in struct.__struct_fields__}


def test_22_at_5_on_3_a_clear_to_lw_or_rw_fails() -> None:
    state = game()
    box(state, "away", "LD")
    box(state, "away", "RD")
    assert on_ice(state, "away")["RW"] is None and state.away.men_short() == 2
    carry(state, "away", "C")
    rate(state, "away", "C", passing=crosby().passing)
    events = decide(state, 75)  # To RW
    assert events[0].result == "failed_clear" and events[0].slot == "RW"


def test_22_do_not_kill_each_penalty_individually() -> None:
    state = game()
    first = box(state, "away", "RW")
    carry(state, "away", "C")
    rate(state, "away", "C", passing=crosby().passing)
    decide(state, 55)  # one clear: the first needs one more
    second = box(state, "away", "LD")
    carry(state, "away", "C")
    events = decide(state, 55)
    counted = next(e for e in events if isinstance(e, ClearCounted))
    assert counted.left == [0, 1]
    assert [e.player for e in events if isinstance(e, PenaltyEnded)] == [first]
    assert [p.player for p in state.away.penalties] == [second]


def test_22_4_on_4_a_pass_to_lw_is_a_clear_for_both_and_the_puck_changes_sides() -> None:
    state = game()
    box(state, "home", "RD")
    box(state, "away", "RD")
    assert on_ice(state, "home")["LW"] is None and on_ice(state, "away")["LW"] is None
    carry(state, "home", "C")
    events = decide(state, 12)  # Crosby: To LW PS
    assert events[0].result == "clear" and events[0].to_side == "away"
    counted = [e for e in events if isinstance(e, ClearCounted)]
    assert {e.side for e in counted} == {"home", "away"}
    assert state.puck == ("away", pid(state, "away", "RD"))  # 12 is even


def test_15_a_power_play_goal_ends_a_minor_and_only_half_a_double_minor() -> None:
    state = game()
    box(state, "away", "RW", kind="double_minor")
    carry(state, "home", "C")
    shooter = pid(state, "home", "C")
    events = decide(state, 0, Step("shot", side="home", player=shooter, shot="PS"))
    ended = next(e for e in events if isinstance(e, PenaltyEnded))
    assert ended.reason == "goal" and ended.clears_left == 2
    assert state.away.penalties[0].clears_left == 2
    carry(state, "home", "C")
    events = decide(state, 0, Step("shot", side="home", player=shooter, shot="PS"))
    assert next(e for e in events if isinstance(e, PenaltyEnded)).clears_left == 0
    assert not state.away.penalties


def test_15_a_major_needs_five_clears_and_survives_goals() -> None:
    state = game()
    box(state, "away", "RW", kind="major")
    assert state.away.penalties[0].clears_left == 5
    carry(state, "home", "C")
    shooter = pid(state, "home", "C")
    events = decide(state, 0, Step("shot", side="home", player=shooter, shot="PS"))
    assert next(e for e in events if isinstance(e, GoalScored)).strength == "PP"
    assert not any(isinstance(e, PenaltyEnded) for e in events) and state.away.penalties


def special(state, value: int, picks: dict[str, str] | None = None) -> list:
    """The Special Play chart's ``value`` for the home C; a tie in the penalty-rating rank
    it names is settled by the coach (15): ``picks`` by side, else the default coach's."""
    events = decide(state, value, Step("special", side="home", player=pid(state, "home", "C")))
    while state.queue[0].kind == "penalty_tie":
        step = state.queue[0]
        (pick,) = DefaultCoach().lines(state)
        if picks and step.side in picks:
            pick = PenaltyPlayerChosen(side=step.side, player=picks[step.side], rule="15")
        check_choice(state, pick)
        evolve(state, pick)
        events.append(pick)
    if state.queue[0].kind == "special_penalty":
        for event in DECIDERS["special_penalty"](state, state.queue[0], None):
            evolve(state, event)
            events.append(event)
    return events


def test_16_15_a_tie_in_a_special_plays_rank_is_the_coachs_call() -> None:
    """16's 63 names the offense's #2 penalty rating; LW and RW share it (15: "If there is
    a tie, the players' coach gets to decide"). Matching penalties (56) ask each team whose
    rank is tied; the penalties are assessed once both are named."""
    state = game()
    lw = rate(state, "home", "LW", penalty=60)
    rw = rate(state, "home", "RW", penalty=60)
    carry(state, "home", "C")
    events = special(state, 63, picks={"home": rw})
    tie = next(e for e in events if isinstance(e, PenaltyTied))
    assert (tie.players, tie.source, tie.rank, tie.value) == ([lw, rw], "special", 2, 63)
    assessed = next(e for e in events if isinstance(e, PenaltyAssessed))
    assert (assessed.player, assessed.kind) == (rw, "double_minor")
    assert isinstance(events[-1], PlayStopped) and state.queue[0].kind == "faceoff"
    state = game()  # plain(): every away skater rated 10, the home C (Crosby) 30
    carry(state, "home", "C")
    centre, rd = pid(state, "home", "C"), pid(state, "away", "RD")
    events = special(state, 56, picks={"away": rd})  # matching minors to each #1
    assert [e.side for e in events if isinstance(e, PenaltyTied)] == ["away"]
    boxed = {e.side: e.player for e in events if isinstance(e, PenaltyAssessed)}
    assert boxed == {"home": centre, "away": rd}


def test_15_game_misconduct_is_not_short_handed_and_one_die_suspends() -> None:
    state = game()
    carry(state, "home", "C")
    events = special(state, 81)
    assessed = next(e for e in events if isinstance(e, PenaltyAssessed))
    assert assessed.kind == "game_misconduct" and not assessed.short
    assert state.away.men_short() == 0 and assessed.player not in on_ice(state, "away").values()
    assert state.queue[0].kind == "suspension"
    suspended = decide(state, 47)[0]
    assert isinstance(suspended, SuspensionRolled) and suspended.games == 7
    assert decide(state, 40, Step("suspension", side="away", player="x"))[0].games == 10


def test_16_special_63_is_a_double_minor_for_roughing_to_the_offenses_number_two() -> None:
    state = game()
    rate(state, "home", "LW", penalty=60)
    second = rate(state, "home", "RD", penalty=50)
    carry(state, "home", "C")
    events = decide(state, 63, Step("special", side="home", player=pid(state, "home", "C")))
    assessed = next(e for e in events if isinstance(e, PenaltyAssessed))
    assert (assessed.player, assessed.kind, assessed.infraction, assessed.clears) == (
        second, "double_minor", "Roughing", 4)


def test_15_matching_minors_skate_4_on_4() -> None:
    state = game()
    carry(state, "home", "C")
    special(state, 56)
    assert state.home.men_short() == state.away.men_short() == 1


def test_18_a_fight_boxes_both_for_five_spaces_and_stays_5_on_5() -> None:
    state = game()
    carry(state, "home", "C")
    decide(state, 5, Step("special", side="home", player=pid(state, "home", "C")))
    assert state.queue[0].kind == "fight"
    events = decide(state, 10)
    assert isinstance(events[0], FightRolled) and events[0].fought
    assert all(e.spaces == 5 and not e.short for e in events if isinstance(e, PenaltyAssessed))
    assert len(on_ice(state, "home")) == 5 and None not in on_ice(state, "home").values()
    assert events[0].home not in on_ice(state, "home").values()


def test_18_no_fight_plays_on() -> None:
    state = game()
    carry(state, "home", "C")
    decide(state, 5, Step("special", side="home", player=pid(state, "home", "C")))
    assert not decide(state, 90)[0].fought and state.queue[0].kind == "pass"


def test_17_injury_rating_65_misses_up_to_30_games() -> None:
    state = game()
    carry(state, "home", "C")
    events = decide(state, 89, Step("special", side="home", player=pid(state, "home", "C")))
    injured = next(e for e in events if isinstance(e, InjuryRolled))
    assert injured.player == pid_c(state) and injured.rating == 65 and injured.max_games == 30
    assert isinstance(events[-1], PlayStopped)
    assert decide(state, 31)[0] == GamesMissedRolled(side="home", player=injured.player,
                                                     games=30, roll=state.rolls, rule="17")


def pid_c(state) -> str:
    return next(p for p, c in state.home.cards.items() if c.name == "Sidney Crosby")


def test_17_a_roll_of_11_misses_11_games() -> None:
    state = game()
    step = Step("games_missed", side="home", player="x", upto=30)
    assert decide(state, 11, step)[0].games == 11


def test_15_penalty_shot_uses_the_shootout_ranges() -> None:
    state = game()
    carry(state, "home", "C")
    carrier = pid(state, "home", "C")
    decide(state, 86, Step("special", side="home", player=carrier))
    assert state.queue[0] == Step("so_card", side="home", player=carrier, shot="penalty_shot")
    card = decide(state, 20)[0]  # 00-49: the shooter's card, Crosby 00-28
    assert card.card == "shooter" and card.upto == 28
    events = decide(state, 28)
    assert isinstance(events[0], ShootoutAttempt) and events[0].scored
    goal = next(e for e in events if isinstance(e, GoalScored))
    assert goal.strength == "PS" and state.home.score == 1


def test_22_4_on_4_example_a_clears_once_b_is_penalized_b_passes_to_lw() -> None:
    """22: "Team A is hit with a penalty ... Team A clears the puck and Team B is now hit
    with a penalty ... Team B gets the result that says To LW PS ... Team A's player is
    now out of the box and Team B needs one more clear. Team A will have a short power
    play opportunity." Team A is away here, Team B home."""
    state = game()
    a_player = box(state, "away", "RW")
    carry(state, "away", "C")
    rate(state, "away", "C", passing=crosby().passing)
    decide(state, 55)  # Team A clears once
    box(state, "home", "RD")
    carry(state, "home", "C")
    events = decide(state, 12)  # Team B's Crosby: To LW PS, the LW box is empty
    ended = [e for e in events if isinstance(e, PenaltyEnded)]
    assert [e.player for e in ended] == [a_player] and not state.away.penalties
    assert state.home.penalties[0].clears_left == 1
    assert state.puck[0] == "away" and state.away.men_short() < state.home.men_short()
