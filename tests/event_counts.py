"""Counts made from a game's events alone, for the pages' tests to hold the read models
and pages to (never the projection under test): goals, assists, shots on goal, goals
against, the game-winning goal, power plays, penalty minutes."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from events.bones import AssistsAwarded, GoalScored, PenaltyAssessed, SequencePlayed, ShotTaken
from events.catalogue import open_store
from events.common import GameCreated, GameEnded
from replay.games.game_streams import read_game
from replay.leagues.stored_seasons import load_season


def count_game(events: list[Any]) -> dict[str, Any]:
    """A Hockey Bones game counted from its events alone: each player's goals and assists,
    his shots on goal, each goalie's goals against (the goalie a goal names), the
    game-winning goal's scorer."""
    created = events[0]
    assert isinstance(created, GameCreated)
    team = {"home": created.home.team_id, "away": created.away.team_id}
    goals, assists, shots, allowed = (Counter[tuple[str, str]]() for _ in range(4))
    scored: list[tuple[str, str]] = []  # (side, scorer) in order
    shot_pending: str | None = None
    ended = None
    for e in events:
        if isinstance(e, SequencePlayed):
            shot_pending = None
        elif isinstance(e, ShotTaken):
            shot_pending = None
            if e.block != "blocked" and not (e.kind == "empty_net" and not e.in_range):
                shots[(team[e.side], e.shooter)] += 1
                shot_pending = e.side
        elif isinstance(e, GoalScored):
            other = "away" if e.side == "home" else "home"
            goals[(team[e.side], e.scorer)] += 1
            if shot_pending != e.side:
                shots[(team[e.side], e.scorer)] += 1
            if e.goalie is not None:
                allowed[(team[other], e.goalie)] += 1
            scored.append((e.side, e.scorer))
            shot_pending = None
        elif isinstance(e, AssistsAwarded):
            for pid in e.players:
                assists[(team[e.side], pid)] += 1
        elif isinstance(e, GameEnded):
            ended = e
    gwg = None
    if ended is not None and ended.decided in ("REG", "OT"):
        lose = "away" if ended.winner == "home" else "home"
        mine = [s for s in scored if s[0] == ended.winner]
        side, scorer = mine[getattr(ended, f"{lose}_goals")]
        gwg = (team[side], scorer)
    return {"team": team, "goals": goals, "assists": assists, "shots": shots,
            "allowed": allowed, "gwg": gwg, "ended": ended, "power_plays": power_plays(events)}


def power_plays(events: list[Any]) -> dict[str, Counter[str]]:
    """Per team: ``ppo`` its power plays that began (a penalty against the other team with
    men short, unless this team took one with men short at the same whistle: the same
    period and sequence), ``ppg`` its goals of strength PP, ``pim`` its penalty minutes,
    ``shots`` its shots on goal, ``g`` its goals in play."""
    created = events[0]
    team = {"home": created.home.team_id, "away": created.away.team_id}
    other = {"home": "away", "away": "home"}
    penalties = [e for e in events if isinstance(e, PenaltyAssessed)]
    short_at = {(p.side, p.period, p.sequence) for p in penalties if p.short > 0}
    out = {t: Counter[str]() for t in team.values()}
    for p in penalties:
        out[team[p.side]]["pim"] += p.minutes
        if p.short > 0 and (other[p.side], p.period, p.sequence) not in short_at:
            out[team[other[p.side]]]["ppo"] += 1
    for e in events:
        if isinstance(e, GoalScored):
            out[team[e.side]]["g"] += 1
            out[team[e.side]]["ppg"] += e.strength == "PP"
    return out


def season_counts(db: Path, season: str) -> dict[str, Counter[str]]:
    """Each team's regular-season totals counted from its games' events."""
    with open_store(db, create=False) as store:
        games = load_season(store, season).game_ids
        streams = [read_game(store, g) for g in games]
    totals: dict[str, Counter[str]] = {}
    for events in streams:
        counts = count_game(events)
        plays = counts["power_plays"]
        for side, team in counts["team"].items():
            rival = counts["team"]["away" if side == "home" else "home"]
            row = totals.setdefault(team, Counter())
            row["gp"] += 1
            row.update({k: plays[team][k] for k in ("ppo", "ppg", "pim", "g")})
            row["pko"] += plays[rival]["ppo"]
            row["ppga"] += plays[rival]["ppg"]
            row["a"] += sum(n for (t, _), n in counts["assists"].items() if t == team)
            row["shots"] += sum(n for (t, _), n in counts["shots"].items() if t == team)
    return totals


def shift_times(db: Path, season: str, capsys: Any) -> dict[tuple[str, str], list[int]]:
    """Each skater's time on ice in each game of ``season`` he played, by (team, player):
    the sum of his shifts' durations in `rinklog toi GAME --json` (``capsys``: the test's,
    to read what the command printed)."""
    import json

    from replay.cli.app import main

    with open_store(db, create=False) as store:
        games = [i.stream for i in store.streams(kind="game") if i.stream.startswith(season)]
    times: dict[tuple[str, str], list[int]] = {}
    for game in games:
        capsys.readouterr()
        assert main(["toi", game, "--json", "--db", str(db)]) == 0
        played: dict[tuple[str, str], int] = {}
        for shift in json.loads(capsys.readouterr().out)["shifts"]:
            key = (shift["team"], shift["player"])
            played[key] = played.get(key, 0) + shift["duration"]
        for key, total in played.items():
            times.setdefault(key, []).append(total)
    return times
