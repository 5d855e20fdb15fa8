"""Invariants over whole seeded DICE Hockey games, event by event
(tests/dicehockey/dicehockey_invariants.py): what a season must never break."""

from __future__ import annotations

import functools

import pytest
from dicehockey_invariants import Rotation, boxed_on_ice, goal_spaces_off, skipped_lines
from dicehockey_support import created

from engine.dice import SeededDice
from engine.dicehockey import game
from engine.dicehockey.coach import DefaultCoach
from engine.dicehockey.dice import derive_roll
from engine.dicehockey.rulesets import DICEHOCKEY
from engine.dicehockey.system import SYSTEM
from events.dicehockey import GoalieChanged, PenaltyAssessed
from replay.systems.dicehockey.library import dicehockey_charts, find_dicehockey_team

# DRF v ALD, seed s155, under version 1's rules: the home team's extra attacker (its
# goalie pulled) takes a minor late in the game, and stays on from the box.
BOXED_IN_VERSION_1 = ("DRF", "ALD", "s155", "g155")
# GLN v FRN, seed s1222, under the rules as they are: the same case (found by playing
# seeded games until one came).
PENALIZED_EXTRA_ATTACKER = ("GLN", "FRN", "s1222", "g1222")
OTHERS = [("ALD", "BRK", "i1", "i1"), ("CDV", "DRF", "i2", "i2"), ("BRK", "CDV", "i3", "i3")]


@functools.cache
def played(home: str, away: str, seed: str, game_id: str, version: int):
    made = created(game_id=game_id, seed=seed, ruleset_version=version)
    teams = find_dicehockey_team(home), find_dicehockey_team(away)
    state = game.initial_state(made, *teams, dicehockey_charts())
    events = [e for batch in SYSTEM.steps(state, SeededDice(seed, game_id, derive_roll),
                                          DefaultCoach()) for e in batch]
    return made, teams, events


@pytest.mark.parametrize("fixture", [PENALIZED_EXTRA_ATTACKER, *OTHERS])
def test_15_22_no_player_in_the_box_stands_on_the_ice(fixture) -> None:
    """15: "Take the player off of his line and place him in the penalty box": at no
    event of a seeded game does a boxed (or ejected, injured) player stand in a slot of
    his team, the extra attacker's included (ruling R-DH-22g)."""
    made, (home, away), events = played(*fixture, DICEHOCKEY.version)
    assert boxed_on_ice(made, home, away, dicehockey_charts(), events) == []


def penalized_extra_attackers(events) -> list[tuple[str, str]]:
    """(side, player) of each penalty on a team's extra attacker for its pulled goalie."""
    pulled: dict[str, str | None] = {}
    found = []
    for event in events:
        if isinstance(event, GoalieChanged):
            pulled[event.side] = event.extra_attacker if event.pulled else None
        elif isinstance(event, PenaltyAssessed) and pulled.get(event.side) == event.player:
            found.append((event.side, event.player))
    return found


def test_the_invariant_finds_version_1s_boxed_extra_attacker() -> None:
    """The fixtures have the case (the pulled goalie's extra attacker penalized); under
    version 1's rules the invariant names him standing in his slot from the box, so it
    can fail."""
    assert penalized_extra_attackers(played(*PENALIZED_EXTRA_ATTACKER, DICEHOCKEY.version)[2]) \
        == [("home", "ulric-lachance")]
    made, (home, away), events = played(*BOXED_IN_VERSION_1, 1)
    assert penalized_extra_attackers(events) == [("home", "tobin-delorme")]
    found = boxed_on_ice(made, home, away, dicehockey_charts(), events)
    assert found and all(" EA tobin-delorme (box)" in f for f in found)


@pytest.mark.parametrize("fixture", [PENALIZED_EXTRA_ATTACKER, *OTHERS])
def test_9_no_rotation_line_is_skipped_in_a_seeded_game(fixture) -> None:
    """9: "You must use all 3 lines regularly": in a seeded game no rotation line (or
    pair) has two full shifts with another rotation line having none between them, but
    across a penalty kill, a time out or a period's end (ruling R-DH-9b)."""
    made, (home, away), events = played(*fixture, DICEHOCKEY.version)
    assert skipped_lines(made, home, away, dicehockey_charts(), events) == []


def test_the_rotation_watch_finds_the_issues_sequence_under_version_1_only() -> None:
    """The issue's changes (line 3 on and off for line 4 at one whistle, then lines 4, 1
    and 2 a full shift each, three times over): version 1's rules took them, and the
    watch names line 1 coming back before line 3 had a shift; version 2 refuses them."""
    from test_dicehockey_rotation import EXPLOIT, spaces, state_of, try_change

    for version, skips in ((1, True), (DICEHOCKEY.version, False)):
        state, watch = state_of(version), Rotation()
        for line, n in EXPLOIT:
            if try_change(state, "home", line, 1) is None:
                watch.after(state)
                for _ in range(n):
                    spaces(state, 1)
                    watch.after(state)
        found = [f for f in watch.found if f.startswith("home forwards")]
        assert bool(found) == skips, found
        assert all("before [3]" in f for f in found)


def test_9_12_every_goal_records_the_space_counted_and_version_1_did_not() -> None:
    """9: a possession's first shot is a timing space, and a goal on it goes in at that
    space (version 2), as the scoresheet prints; version 1 recorded one short, so the
    check can fail (with a fight's box time ending on the same shot too: 18)."""
    for fixture in (PENALIZED_EXTRA_ATTACKER, *OTHERS):
        assert goal_spaces_off(played(*fixture, DICEHOCKEY.version)[2]) == []
    assert goal_spaces_off(played(*BOXED_IN_VERSION_1, 1)[2])
