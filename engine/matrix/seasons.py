"""The end of a season: final standings (3.1.5), promotion and relegation (3.1.6), next
season's extra goals and great saves (2.1.2.1, 2.1.3.1) and WG entrants (3.3.1).

Divisions form a pyramid: level 1 (the Elite) has one division, each level below twice
as many; a division's two "children" are the next two of the level below (D2A above
D3A and D3B...). The top two of a division go up to its parent, its last four down to
its children, alternately (ruling M-3.1.6a); a team that can no longer be promoted
(second ONR) leaves its place to the next one (ruling M-3.1.6b).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.matrix.context import Referee
from engine.matrix.standings import Record, rank_key, records, tie_groups
from engine.matrix.state import SeasonState
from events.matrix import DivisionRanked, GamePlayed, TeamAllowance

__all__ = ["Moves", "allowances", "cup_places", "moves", "next_wg", "parent_and_children", "rank_divisions",
           "receipt_standings_rows", "season_records"]

PLACE_POINTS = {1: 4, 2: 3, 3: 2, 4: 1}  # 2.1.2.1: finishing 1st-4th of a division
WG_POINTS = {1: 4, 2: 3, 3: 2, 4: 1}  # 2.1.2.1: the WG's first four
PROMOTED, RELEGATED = 2, 4  # 3.1.6


def season_records(state: SeasonState) -> dict[str, Record]:
    games = [g for g in state.results if g.competition == "championship"]
    table: dict[str, Record] = {}
    for d in state.divisions:
        table.update(records(d.teams, games))
    return table


def standings_rows(state: SeasonState, divisions: list[str] | None = None) -> list[dict]:
    """Each division's table in 3.1.5 order (the final order once closed; before that full
    ties by number), as ``matrix standings --json`` shows it; ``divisions``: only those."""
    table = season_records(state)
    rows = []
    for d in state.divisions:
        if divisions is not None and d.id not in divisions:
            continue
        order = state.final_order.get(d.id) or sorted(d.teams, key=lambda t: rank_key(table[t]))
        for rank, team in enumerate(order, start=1):
            r = table[team]
            rows.append({"division": d.id, "rank": rank, "team": team,
                         "name": state.teams[team].name, "points": r.points,
                         "played": r.played, "wins": r.wins, "regular_wins": r.regular_wins,
                         "draws": r.draws, "losses": r.regular_losses,
                         "extra_time_losses": r.extra_time_losses,
                         "goals_for": r.goals_for, "goals_against": r.goals_against})
    return rows


def receipt_standings_rows(state: SeasonState) -> list[dict]:
    """The standings rows a season receipt digests (docs/trust.md): :func:`standings_rows`
    with ``losses`` counting every loss, extra time's too, as the rows were when receipts
    were first issued (issue 34 made the shown ``losses`` regular time's only), so a
    receipt issued before still holds the season."""
    return [{**row, "losses": row["losses"] + row["extra_time_losses"]}
            for row in standings_rows(state)]


def season_game_id(season_id: str, event: object) -> str | None:
    """The id a season's game goes by outside its stream (a season receipt's leaf), for
    the event that records it (``GamePlayed``); None for any other event."""
    if not isinstance(event, GamePlayed):
        return None
    return (f"{season_id}:w{event.week:02d}:{event.competition}:"
            f"{event.home.team}-{event.away.team}")


def rank_divisions(ref: Referee) -> None:
    """3.1.5: every division's final order, a die for teams still identical."""
    table = season_records(ref.state)
    for d in ref.state.divisions:
        order, rolls = [], []
        for group in tie_groups(table, d.teams):
            if len(group) > 1:
                group, used = ref.dice.order(f"{d.id} final standings tie", group)
                rolls += used
            order += group
        ref.emit(DivisionRanked(d.id, order, rolls, "3.1.5"))


def parent_and_children(state: SeasonState, division: str) -> tuple[str | None, list[str]]:
    levels: dict[int, list[str]] = {}
    for d in state.divisions:
        levels.setdefault(d.level, []).append(d.id)
    level = state.division(division).level
    i = levels[level].index(division)
    parent = levels[level - 1][i // 2] if level - 1 in levels else None
    below = levels.get(level + 1, [])
    return parent, below[2 * i:2 * i + 2]


@dataclass
class Moves:
    promoted: list[tuple[str, str, str]]
    relegated: list[tuple[str, str, str]]


def moves(state: SeasonState) -> Moves:
    """3.1.6 over the final orders (``state.final_order``)."""
    promoted, relegated = [], []
    for d in state.divisions:
        order = state.final_order[d.id]
        parent, children = parent_and_children(state, d.id)
        if parent is not None:
            up = [t for t in order if not state.teams[t].no_promotion][:PROMOTED]
            promoted += [(t, d.id, parent) for t in up]
        if children:
            down = order[-RELEGATED:]
            relegated += [(t, d.id, children[i % len(children)]) for i, t in enumerate(down)]
    return Moves(promoted, relegated)


def next_divisions(state: SeasonState, m: Moves) -> list[tuple[str, list[str]]]:
    """Next season's divisions, numbered: teams come down first (by their place), then the
    teams that stay (by place), then the promoted (ruling M-3.1.6c)."""
    gone = {t for t, _, _ in m.promoted + m.relegated}
    result = []
    for d in state.divisions:
        down = [t for t, _, to in m.relegated if to == d.id]
        up = [t for t, _, to in m.promoted if to == d.id]
        stay = [t for t in state.final_order[d.id] if t not in gone]
        result.append((d.id, down + stay + up))
    return result


def cup_places(state: SeasonState) -> tuple[str, list[str], list[str]]:
    """KDH winner, KDH finalists, WG order (1st-4th)."""
    kdh = [g for g in state.results if g.competition == "kdh"]
    final = max(kdh, key=lambda g: g.round) if kdh else None
    kdh_winner = final.winner if final else ""
    finalists = [final.home.team, final.away.team] if final else []
    wg_last = [g for g in state.results if g.competition == "wg" and g.round == 8]
    wg_order: list[str] = []
    for g in wg_last:  # the final first, then the game for third place
        loser = g.away.team if g.winner == g.home.team else g.home.team
        wg_order += [g.winner, loser]
    return kdh_winner, finalists, wg_order


def allowances(state: SeasonState, m: Moves) -> list[TeamAllowance]:
    """2.1.2.1 extra goals (points / 3, rounded down) and 2.1.3.1 great saves (2 and one
    for each championship game the opponent scored none)."""
    table = season_records(state)
    kdh_winner, _, wg_order = cup_places(state)
    kdh_wins: dict[str, int] = {}
    for g in state.results:
        if g.competition == "kdh" and g.winner:
            kdh_wins[g.winner] = kdh_wins.get(g.winner, 0) + 1
    up = {t for t, _, _ in m.promoted}
    down = {t for t, _, _ in m.relegated}
    result = []
    for d in state.divisions:
        for place, team in enumerate(state.final_order[d.id], start=1):
            r = table[team]
            points = (r.wins + kdh_wins.get(team, 0) + (team == kdh_winner)
                      + PLACE_POINTS.get(place, 0) + 6 * (team in down) - 6 * (team in up)
                      + 3  # every team that played the season
                      + (WG_POINTS[wg_order.index(team) + 1] if team in wg_order else 0))
            result.append(TeamAllowance(team, max(0, points // 3), 2 + r.shutouts, points,
                                        r.shutouts))
    return result


def next_wg(state: SeasonState) -> list[str]:
    """3.3.1: division winners, the KDH finalists, the WG winner, the most goals scored
    and the fewest conceded (all divisions); a team already in leaves its seat to the
    next best by the same measure, and seats still empty go to the most goals scored
    (ruling M-3.3.1a). Level goals: the higher division, then the better place."""
    kdh_winner, finalists, wg_order = cup_places(state)
    table = season_records(state)
    place = {t: (state.division(state.teams[t].division).level, i)
             for d in state.divisions for i, t in enumerate(state.final_order[d.id])}
    chosen: list[str] = []
    for team in ([state.final_order[d.id][0] for d in state.divisions] + finalists
                 + wg_order[:1]):
        if team not in chosen:
            chosen.append(team)
    scorers = sorted(table, key=lambda t: (-table[t].goals_for, place[t]))
    keepers = sorted(table, key=lambda t: (table[t].goals_against, place[t]))
    for ranking in (scorers, keepers):
        chosen.append(next(t for t in ranking if t not in chosen))
    for team in scorers:
        if len(chosen) >= 12:
            break
        if team not in chosen:
            chosen.append(team)
    return chosen[:12]
