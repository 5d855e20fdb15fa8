"""Goals, their exact time (6.30) and assists (16.00)."""

from __future__ import annotations

from engine.bones.cards import Goalie, Skater
from engine.bones.dice import DiceRange
from engine.bones.penalties import power_play_release, roster_places, start_second_minor
from engine.bones.rolls import white
from engine.bones.state import GameState, Scorer, Step, other
from engine.bones.timing import period_seconds
from events.bones import (
    AssistsAwarded,
    AssistsCounted,
    ExactTime,
    GoalieAssistChecked,
    GoalScored,
    PenaltyEnded,
    Roll,
)


def goal_strength(state: GameState, side: str, kind: str) -> str:
    if kind == "penalty_shot":
        return "PS"
    if state.team(other(side)).pulled:
        return "EN"
    return {"pp": "PP", "sh": "SH"}.get(state.strength(side), "EV")


def goal_events(state: GameState, side: str, scorer: str, kind: str, rule: str) -> list:
    """A goal, and the minor it ends if it is a power-play goal (14.20 - and D)."""
    opp = state.team(other(side))
    events: list = [GoalScored(
        side=side, scorer=scorer, goalie=None if opp.pulled else opp.goalie,
        period=state.period, sequence=max(1, state.sequence),
        strength=goal_strength(state, side, kind),
        home_on_ice=state.home.skaters_on_ice(), away_on_ice=state.away.skaters_on_ice(),
        roll=state.rolls, rule=rule,
    )]
    release = power_play_release(state, side, kind == "penalty_shot")
    if release is not None and release.ends:
        # 14.20: a power-play goal ends a minor, or a double minor's second minor; a first
        # minor's end is the GoalScored itself (``apply_goal``).
        events.append(PenaltyEnded(id=release.penalty.id, reason="power_play_goal",
                                   period=state.period, sequence=state.sequence,
                                   rule="14.10"))
    return events


def apply_goal(state: GameState, event: GoalScored) -> None:
    state.team(event.side).score += 1
    state.scorer = Scorer(event.side, event.scorer)
    # 14.20 D: only a power-play goal ends a double minor's first minor (any other goal
    # leaves every penalty as it was); the PenaltyEnded that follows ends the others.
    release = power_play_release(state, event.side, event.strength == "PS")
    if release is not None and not release.ends:
        start_second_minor(release.penalty)
    state.queue[0:1] = [Step("time", incident="goal"), Step("assists"), Step("stop", reason="goal")]


def decide_exact_time(state: GameState, step: Step, roll: Roll) -> list:
    seconds = state.charts.exact_time[roll.blue - 1][white(roll) - 2]
    return [ExactTime(kind=step.incident, period=state.period,
                      time=period_seconds(max(1, state.sequence), seconds), roll=state.rolls,
                      rule="6.30")]


def decide_assists(state: GameState, step: Step, roll: Roll) -> list:
    cell = state.charts.assists[roll.blue - 1][white(roll) - 2]
    # FaceOff 21.10: with the ARC cards the ASSISTS table gives only the number.
    rule = "21.10" if state.uses("arc_cards") else "16.00"
    return [AssistsCounted(count=int(cell[0]), roll=state.rolls, rule=rule)]


def decide_goalie_assist(state: GameState, step: Step, roll: Roll) -> list:
    assert state.scorer is not None
    side = state.scorer.side
    team = state.team(side)
    card = team.card(team.goalie)
    assert isinstance(card, Goalie)
    in_range = not team.pulled and DiceRange.parse(card.assist_range).contains(roll)
    rule = "21.10" if state.uses("arc_cards") else "16.00"
    events: list = [GoalieAssistChecked(goalie=team.goalie, range=card.assist_range,
                                        in_range=in_range, roll=state.rolls, rule=rule)]
    if in_range and step.number == 1:
        events.append(AssistsAwarded(side=side, players=[team.goalie], roll=state.rolls,
                                     rule=rule))
    return events


def ranked_teammates(state: GameState) -> list[str]:
    """16.00: the scorer's teammates on the ice, best assist rating first (rank 4)."""
    assert state.scorer is not None
    team = state.team(state.scorer.side)
    scorer = state.scorer.player
    mates = [pid for pid in team.skaters_on_ice() if pid != scorer]
    assist = {pid: _assist(team.card(pid)) for pid in mates}
    # Ties in dressing order (no dict of the whole roster made), sorted as (rating, place,
    # id) tuples rather than by a key closure called for each player.
    place = roster_places(team, assist)
    ranked = sorted([(-assist[pid], place[pid], pid) for pid in mates])
    return [pid for _, _, pid in ranked]


def _assist(card: Skater | Goalie) -> int:
    return card.assist if isinstance(card, Skater) else 0


def decide_assist_ranks(state: GameState, step: Step, roll: Roll) -> list:
    assert state.scorer is not None
    side = state.scorer.side
    cell = state.charts.assists[roll.blue - 1][white(roll) - 2]
    ranks = [int(r) for r in cell.partition("/")[2].split("-") if r]
    if state.ruleset.assists_highest_rank_first:
        # 16.00: "the first remaining assist is awarded to the highest ranked player after
        # the slash", whatever the order the cell lists the ranks in
        ranks.sort(reverse=True)
    ranked = ranked_teammates(state)
    chosen: list[str] = []
    for rank in ranks:
        index = 4 - rank  # rank 4 is the best assist rating
        if len(chosen) < step.number and 0 <= index < len(ranked) and ranked[index] not in chosen:
            chosen.append(ranked[index])
    for pid in ranked:  # ruling R-16.00a: assists the cell leaves unnamed go to the best
        if len(chosen) < step.number and pid not in chosen:
            chosen.append(pid)
    goalie = [step.goalie] if step.goalie else []
    return [AssistsAwarded(side=side, players=goalie + chosen, roll=state.rolls, rule="16.00")]


def queue_after_assist_count(state: GameState, event: AssistsCounted) -> None:
    state.queue.pop(0)
    if event.count:
        state.queue.insert(0, Step("goalie_assist", number=event.count))


def queue_after_goalie_assist(state: GameState, event: GoalieAssistChecked) -> None:
    step = state.queue.pop(0)
    remaining = step.number - (1 if event.in_range else 0)
    if remaining:
        state.queue.insert(0, Step("assist_ranks", number=remaining,
                                   goalie=event.goalie if event.in_range else ""))
