"""3.1.5: points, records and the tiebreakers of the championship (and WG groups, 3.3.2).

A win (regular or extra time) 2, a draw 1, an extra-time loss 1, a regular-time loss 0.
Level on points: most wins, most regular-time wins, fewest losses, fewest extra-time
losses, most goals scored, then goal difference (goals scored comes first, as the text
orders them), then a die (the referee's, when an order must be final).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.matrix.extra_time import points
from events.matrix import GamePlayed

__all__ = ["Record", "rank_key", "records", "tie_groups"]


@dataclass
class Record:
    team: str
    played: int = 0
    wins: int = 0
    regular_wins: int = 0
    draws: int = 0
    losses: int = 0  # every loss: 3.1.5's "lowest number of losses" (regular and extra time)
    extra_time_losses: int = 0
    goals_for: int = 0
    goals_against: int = 0
    points: int = 0
    shutouts: int = 0  # 2.1.3.1: games the opponent scored none

    @property
    def regular_losses(self) -> int:
        """The losses in regular time: the standings' L, beside OTL (extra-time losses), so
        that played = wins + draws + L + OTL, as the NHL's GP = W + L + OTL."""
        return self.losses - self.extra_time_losses

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against

    def add(self, goals_for: int, goals_against: int, decided: str, winner: str) -> None:
        self.played += 1
        self.goals_for += goals_for
        self.goals_against += goals_against
        won = winner == self.team
        self.points += points(decided, won)
        self.shutouts += goals_against == 0
        if won:
            self.wins += 1
            self.regular_wins += decided == "REG"
        elif not winner:
            self.draws += 1
        else:
            self.losses += 1
            self.extra_time_losses += decided == "AP"


def records(teams: Sequence[str], games: Iterable[GamePlayed]) -> dict[str, Record]:
    """Each team's record over ``games`` (only games between ``teams`` count)."""
    table = {t: Record(t) for t in teams}
    for g in games:
        home, away = table.get(g.home.team), table.get(g.away.team)
        if home is None or away is None:
            continue
        home.add(g.home_goals, g.away_goals, g.decided, g.winner)
        away.add(g.away_goals, g.home_goals, g.decided, g.winner)
    return table


def rank_key(r: Record) -> tuple[int, ...]:
    """Smaller is better: the 3.1.5 criteria in the text's order."""
    return (-r.points, -r.wins, -r.regular_wins, r.losses, r.extra_time_losses,
            -r.goals_for, -r.goal_difference)


def tie_groups(table: dict[str, Record], order: Sequence[str]) -> list[list[str]]:
    """``order``'s teams sorted by :func:`rank_key`, in groups of full ties (a stable
    sort: inside a group they keep ``order``, e.g. by number)."""
    ranked = sorted(order, key=lambda t: rank_key(table[t]))
    groups: list[list[str]] = []
    for team in ranked:
        if groups and rank_key(table[groups[-1][0]]) == rank_key(table[team]):
            groups[-1].append(team)
        else:
            groups.append([team])
    return groups
