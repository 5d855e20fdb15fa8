"""A goalie's shots and goals against split by the strength at the time of each shot, as
NHL.com's box score splits them (EV, PP, SH saves/shots): the read-model type each system's
fold returns (projections/<system>/strengths.py) and the bookkeeping they share.

A shot's strength is the one its goal would carry on the scoresheet (``GoalScored.strength``):
the shooters' side by the penalties' men short (a pulled goalie not counted). So a goalie's
``PP`` shots are those he faced while the other team was on the power play (his own team
short-handed), his ``SH`` shots those he faced while his team was on the power play, and a
power-play goal is a ``PP`` goal against, as NHL.com counts a goalie's and a team's
power-play goals against.

The shots and goals are the scoresheet's own (its fold is run beside the strength's): a
system's fold reports each goalie's running shots against and goals against after every
event, and :class:`StrengthTally` files what moved under the strength read before that
event, so the three strengths always sum to the scoresheet's SA and GA.
"""

from __future__ import annotations

import msgspec

__all__ = ["STRENGTHS", "GoalieStrength", "StrengthTally", "shot_strength"]

STRENGTHS = ("EV", "PP", "SH")

Key = tuple[str, str]  # (the goalie's side, his id)


def shot_strength(shooters_short: int, goalies_short: int) -> str:
    """A shot's strength as its goal's: ``PP`` when the shooters have fewer men short (the
    other team is short-handed), ``SH`` when more, else ``EV``."""
    if shooters_short < goalies_short:
        return "PP"
    return "SH" if shooters_short > goalies_short else "EV"


class GoalieStrength(msgspec.Struct, frozen=True):
    """A goalie's shots against (``*_sa``) and saves (``*_sv``) by the strength of each shot."""

    team: str
    player: str
    ev_sa: int
    ev_sv: int
    pp_sa: int
    pp_sv: int
    sh_sa: int
    sh_sv: int


class StrengthTally:
    """Each goalie's shots and goals against by strength, moved as the scoresheet's move."""

    def __init__(self) -> None:
        self.seen: dict[Key, tuple[int, int]] = {}
        self.counts: dict[Key, dict[str, list[int]]] = {}  # strength -> [shots, goals]
        self.last: dict[Key, str] = {}  # the strength of the last shot he faced

    def add(self, key: Key, strength: str, shots: int, goals: int) -> None:
        row = self.counts.setdefault(key, {s: [0, 0] for s in STRENGTHS})[strength]
        row[0] += shots
        row[1] += goals

    def step(self, now: dict[Key, tuple[int, int]], strengths: dict[str, str]) -> None:
        """The scoresheet's (shots, goals) against each goalie after an event, and the
        strength of a shot against each side's goalie before it. A shot the scoresheet
        moves from one goalie to another (the goalie the stream names for it) keeps its
        strength; a goal is filed with the shot it went in on (his last)."""
        if now == self.seen:
            return
        moved = None
        for key, (shots, _) in now.items():
            before = self.seen.get(key, (0, 0))[0]
            if shots < before:
                moved = self.last[key]
                self.add(key, moved, shots - before, 0)
        for key, (shots, goals) in now.items():
            was_shots, was_goals = self.seen.get(key, (0, 0))
            if shots > was_shots:
                self.last[key] = moved or strengths[key[0]]
                self.add(key, self.last[key], shots - was_shots, 0)
            if goals > was_goals:
                self.add(key, self.last.get(key, strengths[key[0]]), 0, goals - was_goals)
        self.seen = dict(now)

    def result(self, team: dict[str, str]) -> list[GoalieStrength]:
        """A line per goalie who faced a shot (``team``: side -> team id)."""
        lines = []
        for (side, player), c in self.counts.items():
            (ev, ev_ga), (pp, pp_ga), (sh, sh_ga) = (c[s] for s in STRENGTHS)
            lines.append(GoalieStrength(team=team[side], player=player, ev_sa=ev,
                                        ev_sv=ev - ev_ga, pp_sa=pp, pp_sv=pp - pp_ga,
                                        sh_sa=sh, sh_sv=sh - sh_ga))
        return lines
