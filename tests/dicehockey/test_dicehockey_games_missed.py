"""DICE Hockey 15 and 17: games missed and suspensions count the team's later games.

17: "If you roll an 11, he would only miss 11 games"; 15: a game misconduct's "Roll one
die and that is how many games the player is suspended for". The counts are the team's
games of the season in schedule order (replay/leagues/availability.py); the game a player
misses records him in ``GameCreated.absent`` and he never takes the ice in it (ruling
R-DH-17b)."""

from __future__ import annotations

import pytest

from engine.dicehockey import game
from engine.dicehockey.absences import games_out
from engine.dicehockey.lines import on_ice
from engine.systems import SYSTEMS
from events.common import Absent, GameCreated, GamesOut, TeamSheet
from events.dicehockey import GamesMissedRolled, SuspensionRolled
from events.errors import IllegalChoice
from replay.leagues.availability import Availability
from replay.systems.dicehockey.library import dicehockey_charts, find_dicehockey_team

# two teams that meet every game, then A alone with two others, 20 games each for A
SCHEDULE = [(n, "A", "B") if n <= 10 else (n, "C", "A") for n in range(1, 21)]


def _out_of(availability: Availability, player: str) -> list[int]:
    return [n for n, _, _ in SCHEDULE if any(a.player == player
                                             for a in availability.absent(n))]


def test_17_a_roll_of_11_misses_his_teams_next_11_games() -> None:
    """Hurt in A's 3rd game for 11 games: out of A's games 4-14, dressed for its 15th."""
    availability = Availability(SCHEDULE, SYSTEMS["dicehockey"].games_out)
    for n, _, _ in SCHEDULE:
        outs = [GamesOut(side="home", player="a-lw", games=11, rule="17")] if n == 3 else []
        availability.record(n, outs)
    assert _out_of(availability, "a-lw") == list(range(4, 15))
    assert availability.absent(4) == [Absent(team="A", player="a-lw", game=3, rule="17")]


def test_15_a_suspension_counts_only_his_own_teams_games() -> None:
    """Suspended for 3 games in game 10 (A at home, B away): A's player sits out A's next
    three (11-13, away at C); B's never misses a game here, B has none left."""
    availability = Availability(SCHEDULE, SYSTEMS["dicehockey"].games_out)
    for n, _, _ in SCHEDULE:
        outs = [GamesOut(side="home", player="a-c", games=3, rule="15"),
                GamesOut(side="away", player="b-c", games=3, rule="15")] if n == 10 else []
        availability.record(n, outs)
    assert _out_of(availability, "a-c") == [11, 12, 13]
    assert _out_of(availability, "b-c") == []
    assert availability.absent(11) == [Absent(team="A", player="a-c", game=10, rule="15")]


def test_15_17_the_rolls_are_read_from_the_games_events() -> None:
    """The games out are the events' own counts; a Games Missed roll of 0 misses none
    (ruling R-DH-17a)."""
    events = [GamesMissedRolled(side="home", player="h", games=11, roll=5, rule="17"),
              GamesMissedRolled(side="away", player="z", games=0, roll=7, rule="17"),
              SuspensionRolled(side="away", player="a", games=10, roll=9, rule="15")]
    assert games_out(events) == [GamesOut(side="home", player="h", games=11, rule="17"),
                                 GamesOut(side="away", player="a", games=10, rule="15")]


def test_17_a_game_waits_for_every_earlier_game_of_both_teams() -> None:
    availability = Availability(SCHEDULE, SYSTEMS["dicehockey"].games_out)
    availability.record(1, [])
    assert availability.ready(2) and not availability.ready(3)
    assert availability.waiting_on(12) == list(range(2, 12))


def test_hockey_bones_carries_nothing_into_later_games() -> None:
    """Hockey Bones 18.10 (an injury is for the game or the period) and 14.50-14.52 (a
    game misconduct is for the rest of the game): nothing waits, nobody is out."""
    assert SYSTEMS["bones"].games_out is None
    availability = Availability(SCHEDULE, SYSTEMS["bones"].games_out)
    assert availability.ready(20) and availability.absent(20) == []


def _created(absent: list[Absent]) -> GameCreated:
    def sheet(team: str) -> TeamSheet:
        return TeamSheet(team_id=team, name=team, card_hash="0", roster=[])

    return GameCreated(game_id="dh-absent", ruleset="dicehockey", ruleset_version=1,
                       home=sheet("ALD"), away=sheet("BRK"), charts_hash="0",
                       dice="seeded", seed="t", absent=absent)


def test_r_17b_a_player_out_is_not_dressed_and_his_box_has_a_stand_in() -> None:
    """Ruling R-DH-17b: the team dresses its other 17 skaters; his box on line 1 is played
    by the fourth line's player in the same slot (ruling R-DH-10a)."""
    ald = find_dicehockey_team("ALD")
    first_lw, fourth_lw = ald.lines.forwards[0][0], ald.lines.forwards[3][0]
    state = game.initial_state(_created([Absent(team="ALD", player=first_lw, game=3,
                                                rule="17")]),
                               ald, find_dicehockey_team("BRK"), dicehockey_charts())
    assert state.home.out == {first_lw: "absent"}
    assert on_ice(state, "home")["LW"] == fourth_lw
    assert first_lw not in on_ice(state, "home").values()


@pytest.mark.parametrize("absent", [Absent(team="XYZ", player="nils-rautio", game=1, rule="17"),
                                    Absent(team="ALD", player="orrin-moberg", game=1, rule="15")])
def test_r_17b_only_a_skater_of_a_team_in_the_game_can_be_out(absent: Absent) -> None:
    with pytest.raises(IllegalChoice):
        game.initial_state(_created([absent]), find_dicehockey_team("ALD"),
                           find_dicehockey_team("BRK"), dicehockey_charts())
