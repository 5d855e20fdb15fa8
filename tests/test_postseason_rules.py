"""The postseason rules of the Hockey Bones draft league (issue 22), pure: the playoff
format and bracket (rule 9, with rule 32's two-game home blocks), goalie eligibility for
the playoffs (rule 27) and the draft lottery (rule 31); engine/league/, events/postseason.py.

Expected values are worked by hand from the rules text (its sentences are quoted by the
tests that use them), never computed with the code under test. Teams are placeholders
named by their place in the final standings (``P1`` first).
"""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.league.formats import default_home_ice, divisions_of, parse_playoff_format
from engine.league.lottery import (
    drum,
    evolve_lottery,
    lottery_entries,
    open_lottery,
    place,
    run_lottery,
    seeded_lottery_roll,
)
from engine.league.playoff_goalies import (
    PlayoffGoalie,
    default_playoff_starter,
    goalie_may_start,
    playoff_games_limit,
)
from engine.league.playoffs import (
    Bracket,
    PlayoffError,
    bracket_order,
    fold,
    next_games,
    open_playoffs,
    play_window,
    record_game,
)
from events.errors import RinklogError, RollError
from events.postseason import (
    PlayoffFormatError,
    PlayoffsWon,
    RoundOpened,
    SeriesScheduled,
    SeriesWon,
)
from replay.leagues.league import load_league


def places(n: int) -> list[str]:
    return [f"P{i}" for i in range(1, n + 1)]


def one_division(n: int):
    return divisions_of([("League", "All", places(n))])


def play_series(events: list, bracket: Bracket, round: int, slot: int, winners: str) -> Bracket:
    """Play the series game by game; ``winners`` one letter a game: H (the high seed) or L."""
    for letter in winners:
        series = bracket.series(round, slot)
        winner = series.high if letter == "H" else series.low
        new = record_game(bracket, round, slot, f"r{round}s{slot}g{len(series.games) + 1}",
                          winner)
        events += new
        bracket = fold(new, bracket)
    return bracket


def pairs(events: list, round: int) -> list[tuple[str, str]]:
    return [(e.high, e.low) for e in events if isinstance(e, SeriesScheduled) and e.round == round]


# --- rule 9: the draft format --------------------------------------------------------------

def test_rule_9_first_six_teams_1_and_2_bye_3_v_6_and_4_v_5() -> None:
    """"The first six teams make the playoffs. 1st and 2nd place teams get a bye in the
    first round. 3 vs 6, 4 vs 5." (an eight-team league: 7th and 8th are out)"""
    fmt = parse_playoff_format({"format": "draft"}, one_division(8))
    events = open_playoffs(fmt, places(8), one_division(8))
    opened = events[0]
    assert [s.team for s in opened.seeds] == ["P1", "P2", "P3", "P4", "P5", "P6"]
    assert [e for e in events if isinstance(e, RoundOpened)][0].byes == ["P1", "P2"]
    assert pairs(events, 1) == [("P3", "P6"), ("P4", "P5")]


@pytest.mark.parametrize(("round1", "round2"), [
    # 6 beats 3, 4 beats 5: the lowest seeded survivor is 6 -> 1 v 6, 2 v 4.
    (("L", "H"), [("P1", "P6"), ("P2", "P4")]),
    # 3 and 4 win: the lowest survivor is 4 -> 1 v 4, 2 v 3.
    (("H", "H"), [("P1", "P4"), ("P2", "P3")]),
    # 6 and 5 win: 1 v 6, 2 v 5.
    (("L", "L"), [("P1", "P6"), ("P2", "P5")]),
])
def test_rule_9_first_place_plays_the_lowest_seeded_survivor(round1, round2) -> None:
    """"1st place team will play the lowest seeded survivor. 2nd place team will play the
    other.\""""
    divisions = one_division(6)
    events = open_playoffs(parse_playoff_format({"format": "draft"}, divisions), places(6),
                           divisions)
    bracket = fold(events)
    for slot, side in enumerate(round1, start=1):
        bracket = play_series(events, bracket, 1, slot, side * 4)
    assert pairs(events, 2) == round2


def test_rule_9_a_whole_bracket_worked_by_hand() -> None:
    """Rule 9 from six seeds: 6 upsets 3 (4-2), 4 sweeps 5; 1 beats 6, 4 beats 2; "Winners
    will meet in the final": 1 v 4, and 1 wins in seven. "All series are 4 out of 7"."""
    divisions = one_division(6)
    events = open_playoffs(parse_playoff_format({"format": "draft"}, divisions), places(6),
                           divisions)
    bracket = fold(events)
    bracket = play_series(events, bracket, 1, 1, "HLLHLL")  # P6 4-2
    bracket = play_series(events, bracket, 1, 2, "HHHH")  # P4 4-0
    assert pairs(events, 2) == [("P1", "P6"), ("P2", "P4")]
    bracket = play_series(events, bracket, 2, 1, "HHLHH")  # P1 4-1
    bracket = play_series(events, bracket, 2, 2, "LLHLL")  # P4 4-1
    assert pairs(events, 3) == [("P1", "P4")]
    bracket = play_series(events, bracket, 3, 1, "HLHLHLH")  # P1 4-3
    won = [(e.round, e.winner, e.wins, e.losses) for e in events if isinstance(e, SeriesWon)]
    assert won == [(1, "P6", 4, 2), (1, "P4", 4, 0), (2, "P1", 4, 1), (2, "P4", 4, 1),
                   (3, "P1", 4, 3)]
    assert [e.champion for e in events if isinstance(e, PlayoffsWon)] == ["P1"]
    assert bracket.champion == "P1"
    assert next_games(bracket) == []


def test_rule_9_a_series_ends_at_four_wins_and_takes_no_more_games() -> None:
    """"All series are 4 out of 7": the fourth win ends it; a fifth game is refused."""
    divisions = one_division(6)
    events = open_playoffs(parse_playoff_format({"format": "draft"}, divisions), places(6),
                           divisions)
    bracket = play_series(events, fold(events), 1, 1, "HHH")
    assert bracket.series(1, 1).winner is None
    bracket = play_series(events, bracket, 1, 1, "H")
    assert bracket.series(1, 1).winner == "P3"
    with pytest.raises(PlayoffError, match="round 1 series 1 is over: P3 won 4-0"):
        record_game(bracket, 1, 1, "extra", "P6")
    with pytest.raises(PlayoffError, match="P1 is not in round 1 series 2"):
        record_game(bracket, 1, 2, "g", "P1")


def test_rule_32_home_ice_two_game_blocks_then_single_games_5_6_7() -> None:
    """Rule 32: a manager plays "his two games" after a road line-up, then "single games
    ie games 5, 6, and 7": the better seed at home for games 1, 2, 5, 7, the other 3, 4, 6."""
    assert default_home_ice(7) == "2-2-1-1-1"
    divisions = one_division(6)
    events = open_playoffs(parse_playoff_format({"format": "draft"}, divisions), places(6),
                           divisions)
    series = fold(events).series(1, 1)  # P3 v P6
    assert [series.home_of(g) for g in range(1, 8)] == ["P3", "P3", "P6", "P6", "P3", "P6",
                                                        "P3"]
    bracket = play_series(events, fold(events), 1, 1, "HL")
    assert [(g.game, g.home, g.away) for g in next_games(bracket) if g.slot == 1] == [
        (3, "P6", "P3")]


def test_rule_32_seven_days_for_two_games_four_for_single_games_5_6_7() -> None:
    """Rule 32: "7 days ... to play his two games. 4 days for single games ie games 5, 6,
    and 7"."""
    divisions = one_division(6)
    events = open_playoffs(parse_playoff_format({"format": "draft"}, divisions), places(6),
                           divisions)
    series = fold(events).series(1, 1)
    windows = [play_window(series, g) for g in range(1, 8)]
    assert [(w.games, w.days) for w in windows] == [
        ((1, 2), 7), ((1, 2), 7), ((3, 4), 7), ((3, 4), 7), ((5,), 4), ((6,), 4), ((7,), 4)]


def test_home_ice_2_3_2_pattern() -> None:
    """A declared 2-3-2 pattern: the better seed at home for games 1, 2, 6, 7."""
    divisions = one_division(4)
    fmt = parse_playoff_format({"teams": 4, "home_ice": "2-3-2"}, divisions)
    series = fold(open_playoffs(fmt, places(4), divisions)).series(1, 1)
    assert (series.high, series.low) == ("P1", "P4")
    assert [series.home_of(g) for g in range(1, 8)] == ["P1", "P1", "P4", "P4", "P4", "P1",
                                                        "P1"]


# --- declared formats ----------------------------------------------------------------------

def test_fixed_bracket_of_eight_keeps_its_positions() -> None:
    """reseed = false: 1v8, 4v5, 2v7, 3v6, and neighbours' winners meet, whoever wins."""
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    divisions = one_division(10)
    fmt = parse_playoff_format({"teams": 8, "reseed": False, "series": [7, 7, 7]}, divisions)
    events = open_playoffs(fmt, places(10), divisions)
    assert pairs(events, 1) == [("P1", "P8"), ("P4", "P5"), ("P2", "P7"), ("P3", "P6")]
    bracket = fold(events)
    for slot, side in enumerate("LHHL", start=1):  # P8, P4, P2, P6 win
        bracket = play_series(events, bracket, 1, slot, side * 4)
    assert pairs(events, 2) == [("P4", "P8"), ("P2", "P6")]


def test_reseeded_bracket_of_eight_pairs_best_with_worst() -> None:
    """reseed = true: 1v8, 2v7, 3v6, 4v5; after 8, 2, 3 and 5 win, 2 v 8 and 3 v 5."""
    divisions = one_division(8)
    fmt = parse_playoff_format({"teams": 8}, divisions)
    events = open_playoffs(fmt, places(8), divisions)
    bracket = fold(events)
    assert pairs(events, 1) == [("P1", "P8"), ("P2", "P7"), ("P3", "P6"), ("P4", "P5")]
    for slot, side in enumerate("LHHL", start=1):  # P8, P2, P3, P5 win
        bracket = play_series(events, bracket, 1, slot, side * 4)
    assert pairs(events, 2) == [("P2", "P8"), ("P3", "P5")]


def test_per_conference_brackets_meet_in_the_final() -> None:
    """The demo league's 16 of 32 by conference: 8 per conference, three rounds inside each
    conference, then the conference champions in the final (best of 5 first round)."""
    boreal = [f"B{i}" for i in range(1, 17)]
    tide = [f"T{i}" for i in range(1, 17)]
    divisions = divisions_of([("Boreal", "Tamarack", boreal[:8]), ("Boreal", "Lantern", boreal[8:]),
                              ("Tidewater", "Saltmarsh", tide[:8]),
                              ("Tidewater", "Cinder", tide[8:])])
    standings = [t for pair in zip(tide, boreal, strict=True) for t in pair]  # T1 first
    fmt = parse_playoff_format({"per_conference": 8, "reseed": False,
                                "series": [5, 7, 7, 7]}, divisions)
    assert fmt.home_ice == ["2-2-1", "2-2-1-1-1", "2-2-1-1-1", "2-2-1-1-1"]
    events = open_playoffs(fmt, standings, divisions)
    assert pairs(events, 1) == [("B1", "B8"), ("B4", "B5"), ("B2", "B7"), ("B3", "B6"),
                                ("T1", "T8"), ("T4", "T5"), ("T2", "T7"), ("T3", "T6")]
    bracket = fold(events)
    for round in (1, 2, 3):
        for s in bracket.rounds[-1].series:
            bracket = play_series(events, bracket, round, s.slot, "H" * s.wins_needed)
    assert pairs(events, 4) == [("T1", "B1")]  # T1 is first overall: home ice


def test_per_division_champions_meet_in_their_conference_then_the_final() -> None:
    """per_division = 2 in the dicedemo shape (two conferences of one division each)."""
    divisions = divisions_of([("Coastal", "Harbour", ["A", "B", "C", "D"]),
                              ("Upland", "Ridge", ["E", "F", "G", "H"])])
    fmt = parse_playoff_format({"per_division": 2}, divisions)
    assert fmt.series == [7, 7]
    events = open_playoffs(fmt, ["E", "A", "F", "B", "C", "D", "G", "H"], divisions)
    assert pairs(events, 1) == [("A", "B"), ("E", "F")]
    bracket = fold(events)
    bracket = play_series(events, bracket, 1, 1, "LLLL")
    bracket = play_series(events, bracket, 1, 2, "HHHH")
    assert pairs(events, 2) == [("E", "B")]


@pytest.mark.parametrize(("table", "message"), [
    ({"format": "draft", "teams": 8}, "field 'teams': format = \"draft\" is rule 9 exactly"),
    ({"format": "draft", "series": [5, 7, 7]}, "field 'series': format = \"draft\""),
    ({}, "field 'format': a [playoffs] table needs format"),
    ({"teams": 8, "per_conference": 4}, "field 'per_conference': give one of"),
    ({"teams": 6}, "field 'byes': 6 teams and 0 byes do not make a bracket"),
    ({"teams": 8, "byes": 7}, "field 'byes': 7 byes leave fewer than two"),
    ({"teams": 4, "series": [7, 4]}, "field 'series[1]': a series is best of an odd number"),
    ({"teams": 4, "series": [7]}, "field 'series': 1 series length for 2 rounds"),
    ({"teams": 4, "home_ice": "2-2-1"}, "field 'home_ice': '2-2-1' is 5 games but round 1 is"),
    ({"teams": 4, "home_ice": "two"}, "field 'home_ice': 'two' is not a home-ice pattern"),
    ({"teams": 4, "home_ice": ["2-2-1-1-1"]}, "field 'home_ice': 1 patterns for 2 rounds"),
    ({"teams": 16}, "field 'teams': 16 teams qualify but the league has 8"),
    ({"teams": 4, "series": [7, 99]}, "field 'series[1]'"),
    ({"teams": 4, "overtime": 3}, "field 'overtime'"),
])
def test_playoffs_table_errors_are_one_line_naming_the_field(table, message) -> None:
    with pytest.raises(PlayoffFormatError) as err:
        parse_playoff_format(table, one_division(8))
    assert message in str(err.value)
    assert "\n" not in str(err.value)
    assert isinstance(err.value, RinklogError) and isinstance(err.value, ValueError)


def test_rule_9_draft_format_needs_six_teams() -> None:
    with pytest.raises(PlayoffFormatError, match=r"field 'format': 6 teams qualify \(rule 9"):
        parse_playoff_format({"format": "draft"}, one_division(4))


def test_per_division_needs_the_same_bracket_in_every_conference() -> None:
    divisions = divisions_of([("A", "a1", ["1", "2"]), ("A", "a2", ["3", "4"]),
                              ("B", "b1", ["5", "6"])])
    with pytest.raises(PlayoffFormatError, match="field 'per_division': the conference's"):
        parse_playoff_format({"per_division": 1}, divisions)


def test_playoffs_opened_round_trips_through_the_wire() -> None:
    """The events decode to what was encoded (tags ``postseason.*``; defaults filled)."""
    events = open_playoffs(parse_playoff_format({"format": "draft"}, one_division(6)),
                           places(6), one_division(6))
    for event in events:
        data = msgspec.json.encode(event)
        assert msgspec.json.decode(data, type=type(event)) == event
        assert msgspec.json.decode(data)["type"].startswith("postseason.")


# --- rule 27: goalie eligibility -------------------------------------------------------------

@pytest.mark.parametrize(("pro", "games"), [
    (10, 1), (14, 1), (15, 2), (24, 2), (25, 3), (34, 3), (35, 4), (44, 4),
    (45, 5), (54, 5), (55, 6), (64, 6), (65, 7), (82, 7),
])
def test_rule_27_playoff_games_by_pro_games(pro, games) -> None:
    """Rule 27's table: 10-14 1 game, 15-24 2, 25-34 3, 35-44 4, 45-54 5, 55-64 6, 65+ 7."""
    assert playoff_games_limit(pro) == games


def test_rule_27_ruling_under_ten_pro_games_no_playoff_game() -> None:
    """R-post-27a: the table starts at 10 (rule 6: a goalie needs 10 games to be active)."""
    assert playoff_games_limit(9) == 0
    check = goalie_may_start("G9", 9, 0)
    assert (check.allowed, check.reason) == (False, "under 10 pro games")


def test_rule_27_limit_is_per_series() -> None:
    """A 20-game goalie (15-24: 2 games) starts games 1 and 2 of a series, not the third."""
    assert goalie_may_start("G", 20, 1).allowed
    third = goalie_may_start("G", 20, 2)
    assert (third.allowed, third.limit, third.started, third.reason) == (
        False, 2, 2, "series limit reached")
    assert goalie_may_start("G", 20, 0).allowed  # a new series starts again


def test_rule_27_default_coach_starts_the_first_goalie_who_may() -> None:
    goalies = [PlayoffGoalie("ONE", 12), PlayoffGoalie("TWO", 40)]  # 1 and 4 games a series
    assert default_playoff_starter(goalies, {}).goalie == "ONE"
    pick = default_playoff_starter(goalies, {"ONE": 1})
    assert (pick.goalie, pick.overplay) == ("TWO", False)


def test_rule_27_ruling_nobody_eligible_the_highest_limit_overplays() -> None:
    """R-post-27c: game 6 of a series after 1 + 4 starts: TWO (limit 4) overplays."""
    goalies = [PlayoffGoalie("ONE", 12), PlayoffGoalie("TWO", 40)]
    pick = default_playoff_starter(goalies, {"ONE": 1, "TWO": 4})
    assert (pick.goalie, pick.overplay) == ("TWO", True)
    assert [c.reason for c in pick.checks] == ["series limit reached"] * 2


# --- rule 31: the draft lottery ----------------------------------------------------------

THIRTEEN = places(13)
PLAYOFF_SIX = places(6)


def test_rule_31_opportunities_7th_place_1_to_13th_place_7() -> None:
    entries = lottery_entries(THIRTEEN, PLAYOFF_SIX)
    assert [(e.team, e.place, e.opportunities, e.natural_pick) for e in entries] == [
        ("P7", 7, 1, 7), ("P8", 8, 2, 6), ("P9", 9, 3, 5), ("P10", 10, 4, 4),
        ("P11", 11, 5, 3), ("P12", 12, 6, 2), ("P13", 13, 7, 1)]


def test_rule_31_ruling_ball_numbers_in_the_drum() -> None:
    """R-post-31a: 28 balls, 7th place's first: 1 | 2-3 | 4-6 | 7-10 | 11-15 | 16-21 | 22-28."""
    state = evolve_lottery(None, open_lottery(THIRTEEN, PLAYOFF_SIX))
    assert [(b.team, b.first, b.last) for b in drum(state)] == [
        ("P7", 1, 1), ("P8", 2, 3), ("P9", 4, 6), ("P10", 7, 10), ("P11", 11, 15),
        ("P12", 16, 21), ("P13", 22, 28)]


def test_rule_31_a_team_falls_at_most_two_spots() -> None:
    """7th place's ball first (roll 1 of 28), then 8th's (roll 2 of 27: 8th holds 1-2):
    13th, whose natural pick is 1, "can fall" only "two draft spots": pick 3 without a
    draw; then 12th (natural 2) pick 4, and so on. Teams 1-6 "still draft in reverse
    order"."""
    rolls = iter([1, 2])
    result = run_lottery(THIRTEEN, PLAYOFF_SIX, "", lambda n, sides: next(rolls))
    assert [(d.pick, d.team, d.how, d.roll, d.sides) for d in result.draws] == [
        (1, "P7", "drawn", 1, 28), (2, "P8", "drawn", 2, 27),
        (3, "P13", "two-spot limit", None, 0), (4, "P12", "two-spot limit", None, 0),
        (5, "P11", "two-spot limit", None, 0), (6, "P10", "two-spot limit", None, 0),
        (7, "P9", "two-spot limit", None, 0)]
    assert list(result.order) == ["P7", "P8", "P13", "P12", "P11", "P10", "P9",
                                  "P6", "P5", "P4", "P3", "P2", "P1"]


def test_rule_31_no_team_drafts_first_two_years_in_a_row() -> None:
    """"If their lottery ball is picked first, the second year, they will be given the
    second overall pick": 13th picked first last season, its ball (22) is drawn first:
    pick 2; the first pick is drawn again from 21 balls (16: 12th place's)."""
    state = evolve_lottery(None, open_lottery(THIRTEEN, PLAYOFF_SIX, previous_first="P13"))
    first = place(state, 22)
    assert [(d.pick, d.team, d.how, d.roll, d.sides) for d in first] == [
        (2, "P13", "first pick twice", 22, 28)]
    state = evolve_lottery(state, first[0])
    again = place(state, 16)
    assert [(d.pick, d.team, d.how, d.sides) for d in again] == [(1, "P12", "drawn", 21)]
    state = evolve_lottery(state, again[0])
    assert [(b.team, b.first, b.last) for b in drum(state)] == [
        ("P7", 1, 1), ("P8", 2, 3), ("P9", 4, 6), ("P10", 7, 10), ("P11", 11, 15)]


def test_rule_31_a_roll_outside_the_drum_is_refused_in_one_line() -> None:
    state = evolve_lottery(None, open_lottery(THIRTEEN, PLAYOFF_SIX))
    with pytest.raises(RollError, match=r"^pick 1: the lottery needs a number 1-28"):
        place(state, 29)


def test_rule_31_ruling_other_league_sizes() -> None:
    """R-post-31b: eight teams, six in the playoffs: 7th 1 opportunity, 8th 2."""
    assert [(e.team, e.opportunities) for e in lottery_entries(places(8), places(6))] == [
        ("P7", 1), ("P8", 2)]


def test_rule_31_seeded_lottery_is_the_same_for_the_same_seed() -> None:
    first = run_lottery(THIRTEEN, PLAYOFF_SIX, "", seeded_lottery_roll("s", "2026-lottery"))
    again = run_lottery(THIRTEEN, PLAYOFF_SIX, "", seeded_lottery_roll("s", "2026-lottery"))
    assert first == again
    big = seeded_lottery_roll("s", "x")
    assert all(1 <= big(n, 351) <= 351 for n in range(1, 30))  # 26 lottery teams' balls


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 30), st.data())
def test_rule_31_property_falls_two_at_most_and_never_first_twice(size, data) -> None:
    playoff = data.draw(st.integers(0, size - 1))
    standings = places(size)
    previous = data.draw(st.sampled_from(["", *standings]))
    result = run_lottery(standings, standings[:playoff], previous,
                         lambda n, sides: data.draw(st.integers(1, sides)))
    assert sorted(result.order) == sorted(standings)
    assert list(result.order[size - playoff:]) == standings[:playoff][::-1]
    lottery = {e.team: e for e in result.entries}
    for pick, team in enumerate(result.order[:len(lottery)], start=1):
        assert pick <= lottery[team].natural_pick + 2
    if len(lottery) >= 2:
        assert result.order[0] != previous


# --- the bracket's invariants ------------------------------------------------------------

@st.composite
def formats(draw):
    """A league (two conferences of two divisions) and a format that fits it: rule 9's,
    or the top N overall, per conference or per division, with byes, reseeded or fixed."""
    kind = draw(st.sampled_from(["draft", "teams", "per_conference", "per_division"]))
    if kind == "draft":
        return draw(st.integers(2, 5)), {"format": "draft"}
    first = draw(st.integers(0, 2 if kind == "teams" else 1))  # rounds of the first brackets
    size = 1 << first
    byes = draw(st.sampled_from([0] + list(range(1, size // 2))))
    rounds = first + {"teams": 0, "per_conference": 1, "per_division": 2}[kind]
    if rounds == 0:
        first, size, rounds = 1, 2, 1
    groups = {"teams": 4, "per_conference": 2, "per_division": 1}[kind]  # divisions a bracket
    per_division = -(-(size - byes) // groups)  # enough teams in each division
    table = {kind: size - byes, "byes": byes, "reseed": draw(st.booleans()),
             "series": draw(st.lists(st.sampled_from([1, 3, 5, 7]), min_size=rounds,
                                     max_size=rounds))}
    return per_division + draw(st.integers(0, 3)), table


def four_divisions(per_division: int):
    teams = places(4 * per_division)
    return divisions_of([(f"C{i // 2}", f"D{i}", teams[i * per_division:(i + 1) * per_division])
                         for i in range(4)])


@settings(max_examples=150, deadline=None)
@given(formats(), st.data())
def test_every_bracket_crowns_one_champion_and_every_series_ends_at_its_wins(case, data):
    per_division, table = case
    divisions = four_divisions(per_division)
    fmt = parse_playoff_format(table, divisions)
    standings = data.draw(st.permutations(places(4 * per_division)))
    events = open_playoffs(fmt, list(standings), divisions)
    bracket = fold(events)
    while bracket.champion is None:
        games = next_games(bracket)
        assert games, "an unfinished bracket always has a game to play"
        game = data.draw(st.sampled_from(games))
        winner = data.draw(st.sampled_from([game.home, game.away]))
        new = record_game(bracket, game.round, game.slot, "g", winner)
        events += new
        bracket = fold(new, bracket)
    assert sum(isinstance(e, PlayoffsWon) for e in events) == 1
    series = [s for r in bracket.rounds for s in r.series]
    # every playoff team but the champion loses one series
    assert len(series) == len(events[0].seeds) - 1
    for s in series:
        needed = (s.length + 1) // 2  # ceil(n / 2)
        assert s.wins(s.winner) == needed
        assert s.wins(s.high if s.winner == s.low else s.low) < needed
        assert needed <= len(s.games) <= s.length
    assert bracket.champion == series[-1].winner


# --- the bundled leagues' formats of docs/postseason.md -----------------------------------

def test_docs_formats_fit_the_bundled_leagues() -> None:
    """docs/postseason.md's tables for ``demo`` (the NHL's sixteen by conference) and
    ``dicedemo`` (rule 9's six of eight) fit those leagues: 4 and 3 rounds."""
    demo = divisions_of(load_league("demo").divisions)
    fmt = parse_playoff_format({"per_conference": 8, "reseed": False,
                                "series": [7, 7, 7, 7]}, demo)
    assert fmt.home_ice == ["2-2-1-1-1"] * 4
    dice = divisions_of(load_league("dicedemo").divisions)
    assert parse_playoff_format({"format": "draft"}, dice).series == [7, 7, 7]
    assert parse_playoff_format({"per_division": 2}, dice).series == [7, 7]
    assert parse_playoff_format({"teams": 8}, dice).series == [7, 7, 7]
