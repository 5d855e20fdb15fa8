"""Goalie lines (issue 34, item 3): "Goalies listed as skaters with GP 0 in `stats`
(A 2, PIM 6); a goalie's points and penalty minutes appear on no page. Goalie lines carry
A, PTS and PIM." A goalie is penalized (Hockey Bones 11.10 X, 14.00: the goalie column)
and credited with assists (16.00) as any player; his line is a goalie's.

Expected values are counted here from the events (``PenaltyAssessed``, ``AssistsAwarded``
and ``GoalScored`` naming a roster's goalie), never by the stats fold under test.
"""

from __future__ import annotations

import csv
import io
import json

from events.bones import AssistsAwarded, GoalScored, PenaltyAssessed
from events.common import GameCreated
from projections.stats import build_stats
from tests.setups import run_cli, simulate

# Seeded Hockey Bones games (HFX at home, QUE away): 14, both goalies penalized (a double
# minor, a minor); 18, the home goalie credited with an assist; 34, a goalie's major and
# game misconduct (another goalie finishes the game).
SEEDS = ("14", "18", "34")


def goalie_scoring(events: list) -> dict[tuple[str, str], dict[str, int]]:
    """Each roster goalie's g, a, p and pim, counted from the events."""
    created = next(e for e in events if isinstance(e, GameCreated))
    team = {"home": created.home.team_id, "away": created.away.team_id}
    counted = {(sheet.team_id, r.id): dict.fromkeys(("g", "a", "p", "pim"), 0)
               for sheet in (created.home, created.away) for r in sheet.roster
               if r.position == "G"}
    for e in events:
        if isinstance(e, PenaltyAssessed) and e.kind != "bench_minor":
            line = counted.get((team[e.side], e.player))
            if line is not None:
                line["pim"] += e.minutes
        elif isinstance(e, AssistsAwarded | GoalScored):
            names = e.players if isinstance(e, AssistsAwarded) else [e.scorer]
            for pid in names:
                line = counted.get((team[e.side], pid))
                if line is not None:
                    line["a" if isinstance(e, AssistsAwarded) else "g"] += 1
                    line["p"] += 1
    return counted


def test_goalie_lines_carry_a_pts_pim_and_goalies_are_no_skaters(store) -> None:
    seen = {"a": 0, "pim": 0}
    for seed in SEEDS:
        simulate(store, "HFX", "QUE", seed=seed, game_id=f"g{seed}")
        events = [row.event for row in store.read(f"g{seed}")]
        counted = goalie_scoring(events)
        stats = build_stats(events)
        assert not set(counted) & set(stats.skaters)
        for key, line in counted.items():
            if any(line.values()):
                assert {k: stats.goalies[key][k] for k in line} == line, (seed, key)
                seen = {k: seen[k] + line[k] for k in seen}
    assert seen["a"] >= 1 and seen["pim"] >= 6  # the cases are there


def test_stats_command_shows_a_goalies_assist_and_pim_on_his_goalie_line(tmp_path) -> None:
    db = str(tmp_path / "g.db")
    for seed in ("14", "18"):
        code, _, _ = run_cli(["sim", "--home", "HFX", "--away", "QUE", "--seed", seed,
                              "--game-id", f"g{seed}", "--db", db])
        assert code == 0
    code, out, _ = run_cli(["stats", "g14", "g18", "--json", "--db", db])
    assert code == 0
    data = json.loads(out)
    goalies = {(g["team"], g["player"]): g for g in data["goalies"]}
    assert not goalies.keys() & {(s["team"], s["player"]) for s in data["skaters"]}
    assert sum(g["a"] for g in goalies.values()) >= 1
    assert sum(g["pim"] for g in goalies.values()) >= 6
    code, text, _ = run_cli(["stats", "g14", "g18", "--db", db])
    goalie_part = text.split("Goalies")[1].split("Skaters")[0]
    header = goalie_part.splitlines()[1].split()
    assert header[-3:] == ["A", "PTS", "PIM"]
    for g in goalies.values():
        line = next(line for line in goalie_part.splitlines() if g["name"] in line).split()
        assert [int(x) for x in line[-3:]] == [g["a"], g["p"], g["pim"]]
    skater_part = text.split("Skaters")[1]
    assert not any(g["name"] in skater_part for g in goalies.values())
    code, csv_text, _ = run_cli(["stats", "g14", "g18", "--csv", "--db", db])
    assert code == 0
    for record in csv.DictReader(io.StringIO(csv_text)):
        if (record["team"], record["player"]) in goalies:
            assert record["role"] == "goalie" and record["pim"] != ""
