"""Whole seeded games: invariants every finished stream must keep (6.00, 6.40, 14.10, 16.00)."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest
from setups import setup_for, simulate

from engine.bones.dice import derive_roll
from engine.bones.state import OVERTIME_SEQUENCES, REGULATION_SEQUENCES, SECONDS_PER_SEQUENCE
from engine.dice import SeededDice
from events.bones import (
    ActionResolved,
    FaceoffRolled,
    GoalScored,
    LinesChanged,
    PenaltyAssessed,
    PenaltyEnded,
    PlayStopped,
    SequencePlayed,
)
from events.common import GameEnded, PeriodEnded
from projections.scoresheet import build_scoresheet
from replay.games.game_streams import open_store, play_game, read_game
from replay.systems.bones.library import default_charts, find_team

# HFX and QUE both dress a "teo-eskola" (player ids are unique only within a team), so
# the on-ice checks below pair teams whose ids do not collide; see
# test_fixture_player_ids_are_unique_across_teams.
PAIRS = [("HFX", "SAS"), ("SAS", "WPG"), ("WPG", "QUE"), ("QUE", "SAS"), ("WPG", "HFX")]
SEEDS = [f"rules-{i}" for i in range(6)]
GAMES = [(home, away, seed) for seed in SEEDS for home, away in PAIRS]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    store = open_store(tmp_path_factory.mktemp("games") / "games.db")
    streams = {}
    for home, away, seed in GAMES:
        result = simulate(store, home, away, seed=seed)
        streams[(home, away, seed)] = (result, read_game(store, result.game_id))
    return streams


def test_thirty_games_are_played(played):
    assert len(played) == 30


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "-".join(g))
def test_6_00_game_ends_with_game_ended(played, game):
    _, events = played[game]
    assert isinstance(events[-1], GameEnded)
    assert sum(isinstance(e, GameEnded) for e in events) == 1


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "-".join(g))
def test_16_00_goals_sum_to_final_score(played, game):
    _, events = played[game]
    end = events[-1]
    goals = Counter(e.side for e in events if isinstance(e, GoalScored))
    home, away = end.home_goals, end.away_goals
    if end.decided == "SO":  # 21.00: the shootout winner is credited one goal
        if end.winner == "home":
            home -= 1
        else:
            away -= 1
    assert (goals["home"], goals["away"]) == (home, away)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "-".join(g))
def test_14_10_every_penalty_ends_exactly_once(played, game):
    _, events = played[game]
    assessed = [e.id for e in events if isinstance(e, PenaltyAssessed)]
    ended = Counter(e.id for e in events if isinstance(e, PenaltyEnded))
    assert len(assessed) == len(set(assessed))
    assert {pid: ended[pid] for pid in assessed} == dict.fromkeys(assessed, 1)
    assert set(ended) <= set(assessed)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "-".join(g))
def test_6_10_sequences_run_without_gaps(played, game):
    _, events = played[game]
    per_period = defaultdict(list)
    for e in events:
        if isinstance(e, SequencePlayed):
            per_period[e.period].append(e.sequence)
    assert per_period
    for period, seqs in per_period.items():
        assert seqs == list(range(1, len(seqs) + 1)), period


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "-".join(g))
def test_15_00_no_skater_on_both_sides(played, game):
    _, events = played[game]
    for e in events:
        if isinstance(e, SequencePlayed):
            assert not set(e.home) & set(e.away)
            assert len(set(e.home)) == len(e.home) and len(set(e.away)) == len(e.away)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "-".join(g))
def test_6_40_no_skater_plays_more_than_five_straight_sequences(played, game):
    """6.40: at most five consecutive sequences, unless he carries the puck."""
    _, events = played[game]
    streak: dict[str, int] = {}
    offenders = []
    current_period = None
    for i, e in enumerate(events):
        if not isinstance(e, SequencePlayed):
            continue
        # The sequence is used by the action roll resolved right after it (6.10).
        action = next((a for a in events[i + 1:] if isinstance(a, ActionResolved)), None)
        carrier = action.player if action is not None else None
        if e.period != current_period:
            streak, current_period = {}, e.period
        on = set(e.home) | set(e.away)
        streak = {pid: streak.get(pid, 0) + 1 for pid in on}
        for pid, n in streak.items():
            if n > 5 and pid != carrier:
                offenders.append((e.period, e.sequence, pid, n))
    assert offenders == []


# --- 6.00 over many seeds: no period longer than the text's ------------------------------

TEAMS = ("HFX", "QUE", "SAS", "WPG")
MANY = [(home, away, seed) for seed in range(12) for home in TEAMS for away in TEAMS
        if home != away]  # 144 games


@pytest.fixture(scope="module")
def many_games() -> list[list]:
    charts = default_charts()
    games = []
    for home, away, seed in MANY:
        game_id = f"{home}-{away}-inv{seed}"
        teams = find_team(home), find_team(away)
        played = play_game(setup_for(*teams, charts), *teams, game_id=game_id,
                           dice=SeededDice(f"inv{seed}", game_id, derive_roll), seed=f"inv{seed}")
        games.append(played.events)
    return games


def test_6_00_no_period_passes_50_sequences_nor_overtime_12_over_144_games(many_games):
    """6.00: 50 sequences a period, 12 in overtime, whatever the last action was."""
    longest: dict[int, int] = defaultdict(int)
    for events in many_games:
        for e in events:
            if isinstance(e, SequencePlayed):
                longest[e.period] = max(longest[e.period], e.sequence)
    # Regulation periods run to their last sequence (the clock, not a goal, ends them),
    # and an overtime that ends in a shootout runs to its twelfth: none goes further.
    assert longest == {1: REGULATION_SEQUENCES, 2: REGULATION_SEQUENCES,
                       3: REGULATION_SEQUENCES, 4: OVERTIME_SEQUENCES}


def test_6_00_goalie_time_on_ice_never_passes_regulation_and_overtime(many_games):
    """A goalie is credited at most three periods and an overtime (65:00 less the 12
    seconds a 12-sequence overtime leaves unused), even after a shootout."""
    limit = (3 * REGULATION_SEQUENCES + OVERTIME_SEQUENCES) * SECONDS_PER_SEQUENCE
    most, shootouts = 0, 0
    for events in many_games:
        sheet = build_scoresheet(events)
        most = max([most, *(g.toi for g in sheet.goalies)])
        shootouts += events[-1].decided == "SO"
    assert shootouts > 0  # the shootout games are among those checked
    assert most <= limit


def test_14_60_the_delayed_penalty_roll_is_played_with_the_extra_skater_on(many_games):
    """14.60: after a delayed call the other team's goalie is off for an extra skater
    during the one roll, and back in net at the face-off that follows (unless his
    coach pulls him late in a game he trails)."""
    rolls_with_extra, back_in_net = 0, 0
    for events in many_games:
        for i, e in enumerate(events):
            if not (isinstance(e, LinesChanged) and e.rule == "14.60"):
                continue
            side = e.side
            rest = events[i + 1:]
            stop = next(k for k, x in enumerate(rest) if isinstance(x, PlayStopped))
            played = [x for x in rest[:stop] if isinstance(x, SequencePlayed)]
            for seq in played:
                assert getattr(seq, f"{side}_goalie") is None
                assert e.slots["G"] in getattr(seq, side)
            rolls_with_extra += len(played)
            face = next(x for x in rest[stop:] if isinstance(x, FaceoffRolled | PeriodEnded))
            lines = [x for x in rest[stop:rest.index(face)]
                     if isinstance(x, LinesChanged) and x.side == side]
            if isinstance(face, FaceoffRolled):
                goalies = {r.id for r in getattr(events[0], side).roster if r.position == "G"}
                back_in_net += bool(lines) and lines[-1].slots["G"] in goalies
    assert rolls_with_extra > 20 and back_in_net > 20
