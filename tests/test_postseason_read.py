"""The postseason's read models (issue 22, projections/postseason.py): the bracket and the
lottery folded from the postseason events alone, and their JSON shapes.

The events are made by the engine's pure rules (engine/league/); the fold must give what
the engine's own Bracket holds, and the worked cases' values are taken from rules 9 and
31 by hand (teams named by their final place, ``P1`` first).
"""

from __future__ import annotations

import ast
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.league.formats import divisions_of, parse_playoff_format
from engine.league.lottery import evolve_lottery, next_draw, open_lottery, place
from engine.league.playoffs import Bracket, fold, next_games, open_playoffs, record_game
from events.errors import RinklogError
from events.postseason import SeriesGameRecorded
from projections.postseason import (
    BracketView,
    bracket_json,
    bracket_view,
    lottery_json,
    lottery_view,
)


def places(n: int) -> list[str]:
    return [f"P{i}" for i in range(1, n + 1)]


def play(events: list, bracket: Bracket, round: int, slot: int, winners: str) -> Bracket:
    """Play a series game by game; ``winners`` one letter a game: H (high seed) or L."""
    for letter in winners:
        series = bracket.series(round, slot)
        new = record_game(bracket, round, slot, f"S-r{round}s{slot}g{len(series.games) + 1}",
                          series.high if letter == "H" else series.low)
        events += new
        bracket = fold(new, bracket)
    return bracket


def rule_9_played() -> tuple[list, Bracket]:
    """Rule 9 from six seeds, by hand: 6 upsets 3 (4-2), 4 sweeps 5; "1st place team will
    play the lowest seeded survivor": 1 v 6 (1 wins 4-1), 2 v 4 (4 wins 4-1); "Winners will
    meet in the final": 1 beats 4 in seven."""
    divisions = divisions_of([("League", "All", places(6))])
    events = open_playoffs(parse_playoff_format({"format": "draft"}, divisions), places(6),
                           divisions)
    bracket = fold(events)
    bracket = play(events, bracket, 1, 1, "HLLHLL")
    bracket = play(events, bracket, 1, 2, "HHHH")
    bracket = play(events, bracket, 2, 1, "HHLHH")
    bracket = play(events, bracket, 2, 2, "LLHLL")
    bracket = play(events, bracket, 3, 1, "HLHLHLH")
    return events, bracket


def assert_same_as_engine(view: BracketView, bracket: Bracket) -> None:
    assert view.champion == bracket.champion
    assert [r.round for r in view.rounds] == [r.number for r in bracket.rounds]
    for mine, theirs in zip(view.rounds, bracket.rounds, strict=True):
        assert mine.byes == theirs.byes
        assert len(mine.series) == len(theirs.series)
        for s, t in zip(mine.series, theirs.series, strict=True):
            assert (s.slot, s.high, s.low, s.high_seed, s.low_seed) == (
                t.slot, t.high, t.low, t.high_seed, t.low_seed)
            assert s.wins == {t.high: t.wins(t.high), t.low: t.wins(t.low)}
            assert s.winner == t.winner
            assert s.games == [g.game_id for g in t.games]


def test_rule_9_bracket_json_worked_by_hand() -> None:
    events, _ = rule_9_played()
    got = bracket_json(bracket_view("2026", events))
    g = "S-r{}s{}g{}".format
    assert got == {"season": "2026", "champion": "P1", "rounds": [
        {"round": 1, "series": [
            {"high": "P3", "low": "P6", "high_seed": 3, "low_seed": 6,
             "wins": {"P3": 2, "P6": 4}, "winner": "P6",
             "games": [g(1, 1, n) for n in range(1, 7)]},
            {"high": "P4", "low": "P5", "high_seed": 4, "low_seed": 5,
             "wins": {"P4": 4, "P5": 0}, "winner": "P4",
             "games": [g(1, 2, n) for n in range(1, 5)]}]},
        {"round": 2, "series": [
            {"high": "P1", "low": "P6", "high_seed": 1, "low_seed": 6,
             "wins": {"P1": 4, "P6": 1}, "winner": "P1",
             "games": [g(2, 1, n) for n in range(1, 6)]},
            {"high": "P2", "low": "P4", "high_seed": 2, "low_seed": 4,
             "wins": {"P2": 1, "P4": 4}, "winner": "P4",
             "games": [g(2, 2, n) for n in range(1, 6)]}]},
        {"round": 3, "series": [
            {"high": "P1", "low": "P4", "high_seed": 1, "low_seed": 4,
             "wins": {"P1": 4, "P4": 3}, "winner": "P1",
             "games": [g(3, 1, n) for n in range(1, 8)]}]}]}
    # the JSON is JSON: it encodes and reads back the same
    assert msgspec.json.decode(msgspec.json.encode(got)) == got


def test_rule_9_fold_of_the_events_is_the_engines_bracket() -> None:
    events, bracket = rule_9_played()
    view = bracket_view("2026", events)
    assert view.rounds[0].byes == ("P1", "P2")  # rule 9: 1st and 2nd have a bye
    assert view.round_count == 3
    assert_same_as_engine(view, bracket)


def test_an_open_series_has_no_winner_and_the_playoffs_no_champion() -> None:
    """Mid-series: wins so far, ``winner`` and ``champion`` null in the JSON."""
    divisions = divisions_of([("League", "All", places(6))])
    events = open_playoffs(parse_playoff_format({"format": "draft"}, divisions), places(6),
                           divisions)
    play(events, fold(events), 1, 1, "HL")
    got = bracket_json(bracket_view("2026", events))
    assert got["champion"] is None
    assert got["rounds"][0]["series"][0]["wins"] == {"P3": 1, "P6": 1}
    assert got["rounds"][0]["series"][0]["winner"] is None
    assert got["rounds"][0]["series"][1] == {"high": "P4", "low": "P5", "high_seed": 4,
                                             "low_seed": 5, "wins": {"P4": 0, "P5": 0},
                                             "winner": None, "games": []}


def test_other_events_are_skipped_and_no_playoffs_is_an_empty_bracket() -> None:
    events, bracket = rule_9_played()
    mixed = [object(), *events[:1], "not an event", *events[1:], None]
    assert_same_as_engine(bracket_view("2026", mixed), bracket)
    empty = bracket_view("2026", [object()])
    assert not empty.opened
    assert bracket_json(empty) == {"season": "2026", "champion": None, "rounds": []}


def test_a_series_game_before_its_series_is_one_line_error() -> None:
    events, _ = rule_9_played()
    game = next(e for e in events if isinstance(e, SeriesGameRecorded))
    with pytest.raises(RinklogError, match="before PlayoffsOpened"):
        bracket_view("2026", [game])
    with pytest.raises(RinklogError, match="no series 1 in round 1") as err:
        bracket_view("2026", [events[0], game])
    assert "\n" not in str(err.value)


@st.composite
def brackets(draw):
    """A league of two conferences of two divisions (2 to 5 teams each) and a format that
    fits it: rule 9's, the top N, per conference or per division, with byes, reseeded or
    fixed."""
    kind = draw(st.sampled_from(["draft", "teams", "per_conference", "per_division"]))
    per_division = draw(st.integers(2, 5))
    if kind == "draft":
        return per_division, {"format": "draft"}
    size, byes = draw(st.sampled_from({
        "teams": [(2, 0), (4, 0), (4, 1), (8, 0), (8, 1), (8, 2), (8, 3)],
        "per_conference": [(2, 0), (4, 0), (4, 1)],
        "per_division": [(1, 0), (2, 0)]}[kind]))
    return per_division, {kind: size - byes, "byes": byes, "reseed": draw(st.booleans())}


@settings(max_examples=60, deadline=None)
@given(brackets(), st.data())
def test_the_fold_is_the_engines_bracket_after_every_event(case, data) -> None:
    per_division, table = case
    teams = places(4 * per_division)
    divisions = divisions_of([(f"C{i // 2}", f"D{i}", teams[i * per_division:
                                                            (i + 1) * per_division])
                              for i in range(4)])
    fmt = parse_playoff_format(table, divisions)
    events = open_playoffs(fmt, list(data.draw(st.permutations(teams))), divisions)
    bracket = fold(events)
    while bracket.champion is None:
        game = data.draw(st.sampled_from(next_games(bracket)))
        new = record_game(bracket, game.round, game.slot, f"g{len(events)}",
                          data.draw(st.sampled_from([game.home, game.away])))
        events += new
        bracket = fold(new, bracket)
        assert_same_as_engine(bracket_view("S", events), bracket)


def test_the_read_models_never_import_the_engine() -> None:
    """A projection is a fold of the events (ARCHITECTURE.md): no engine, no tooling."""
    source = Path(__file__).resolve().parent.parent / "projections" / "postseason.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert "events.postseason" in imported
    assert [m for m in imported if m.split(".")[0] in ("engine", "replay")] == []


# --- rule 31: the lottery ------------------------------------------------------------------

def lottery_events(standings: list[str], playoff: list[str], previous: str,
                   rolls: list[int]) -> list:
    """The lottery's events as the engine places them, one given roll a draw."""
    events: list = [open_lottery(standings, playoff, previous)]
    state = evolve_lottery(None, events[0])
    rolls = list(rolls)
    while (step := next_draw(state)) is not None:
        for event in place(state, rolls.pop(0) if step.sides else None):
            events.append(event)
            state = evolve_lottery(state, event)
    return events


def test_rule_31_lottery_json_worked_by_hand() -> None:
    """Eight teams, six in the playoffs (R-post-31b): 7th has ball 1, 8th balls 2-3; a
    roll of 1 on the three-ball die draws 7th's ball: pick 1 to P7, pick 2 to P8 (the last
    team, no roll); "teams 1-6 draft in reverse order": P6 ... P1."""
    events = lottery_events(places(8), places(6), "", [1])
    assert lottery_json(lottery_view(events)) == {
        "order": ["P7", "P8", "P6", "P5", "P4", "P3", "P2", "P1"],
        "draws": [{"pick": 1, "team": "P7", "place": 7, "how": "drawn", "roll": 1,
                   "sides": 3},
                  {"pick": 2, "team": "P8", "place": 8, "how": "last team", "roll": None,
                   "sides": 0}]}


def test_rule_31_first_pick_twice_in_the_view() -> None:
    """"No team may draft first two years in a row": P8 drafted first last season and its
    ball (2 of 3) comes out first: it takes pick 2; the redraw is not needed, P7 is left."""
    events = lottery_events(places(8), places(6), "P8", [2])
    view = lottery_view(events)
    assert [(d.pick, d.team, d.how) for d in view.draws] == [
        (2, "P8", "first pick twice"), (1, "P7", "last team")]
    assert view.order[:2] == ("P7", "P8")
    assert view.previous_first == "P8"


def test_an_undrawn_lottery_has_no_order() -> None:
    events = lottery_events(places(13), places(6), "", [1, 1, 1, 1, 1, 1])
    view = lottery_view(events[:3])
    assert view.opened and not view.drawn
    assert lottery_json(view)["order"] == []
    assert len(lottery_json(view)["draws"]) == 2
    assert lottery_json(lottery_view([])) == {"order": [], "draws": []}
