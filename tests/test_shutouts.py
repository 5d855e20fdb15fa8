"""Shutouts (issue 34, item 1; ruling S-1 in docs/rulings.md). The rule texts keep no
statistics, so the convention is the NHL's, as the issue puts it: "a goalie who is his
team's only goalie of the game and allows no goal gets it, pulled or not"; a shootout's
goals are no goals against (both goalies of a 0-0 game decided by one are credited).

Expected values are counted here from the events alone (who is in net in each
``SequencePlayed``, whose ``GoalScored``), never by the stats fold under test.
"""

from __future__ import annotations

from events.bones import GoalScored, SequencePlayed
from events.common import GameCreated, GameEnded
from projections.stats import build_stats
from tests.setups import simulate

# Seeded Hockey Bones games (HFX at home, QUE away) found to hold the cases: 10, a 3-0
# win whose goalie was pulled for an extra attacker on a delayed penalty for one sequence
# and came back; 35, 0-0 after overtime, decided by a shootout, both goalies pulled once;
# 27, a 4-0 win whose goalie never left his net; 13, as 10 for the road team.
SEEDS = ("10", "13", "27", "35")


def shutouts_counted(events: list) -> dict[tuple[str, str], int]:
    """Each goalie who was in net: 1 for a shutout, counted from the events."""
    created = next(e for e in events if isinstance(e, GameCreated))
    ended = isinstance(events[-1], GameEnded)
    counted = {}
    for side, team in (("home", created.home.team_id), ("away", created.away.team_id)):
        goalies = {getattr(e, f"{side}_goalie") for e in events
                   if isinstance(e, SequencePlayed)} - {None}
        allowed = sum(1 for e in events if isinstance(e, GoalScored) and e.side != side)
        for goalie in goalies:
            counted[(team, goalie)] = int(ended and len(goalies) == 1 and allowed == 0)
    return counted


def pulled_sequences(events: list, side: str) -> int:
    return sum(1 for e in events
               if isinstance(e, SequencePlayed) and getattr(e, f"{side}_goalie") is None)


def test_s1_a_goalie_pulled_on_a_delayed_penalty_and_back_keeps_his_shutout(store) -> None:
    simulate(store, "HFX", "QUE", seed="10", game_id="g10")
    events = [row.event for row in store.read("g10")]
    assert events[-1] == GameEnded(home_goals=3, away_goals=0, decided="REG", winner="home")
    assert pulled_sequences(events, "home") == 1  # out for one sequence, then back
    counted = shutouts_counted(events)
    home = [key for key in counted if key[0] == "HFX"]
    assert len(home) == 1 and counted[home[0]] == 1
    assert build_stats(events).goalies[home[0]]["so"] == 1


def test_s1_both_goalies_of_a_0_0_game_decided_by_a_shootout_get_a_shutout(store) -> None:
    simulate(store, "HFX", "QUE", seed="35", game_id="g35")
    events = [row.event for row in store.read("g35")]
    assert events[-1] == GameEnded(home_goals=0, away_goals=1, decided="SO", winner="away")
    counted = shutouts_counted(events)
    assert sorted(counted.values()) == [1, 1]
    stats = build_stats(events)
    assert {key: stats.goalies[key]["so"] for key in counted} == counted


def test_s1_shutouts_match_the_count_from_the_events(store) -> None:
    for seed in SEEDS:
        simulate(store, "HFX", "QUE", seed=seed, game_id=f"g{seed}")
        events = [row.event for row in store.read(f"g{seed}")]
        stats = build_stats(events)
        counted = shutouts_counted(events)
        assert {key: row["so"] for key, row in stats.goalies.items() if row["gp"]} == counted
