"""Matrix Hockey in words: why each event of a season happened (``rinklog explain``)."""

from __future__ import annotations

from typing import Any

from engine.matrix.state import SeasonState
from events.matrix import (
    BonusDrawn,
    CupDrawn,
    DieRolled,
    GamePlayed,
    GameSide,
    LuckyLoserChosen,
    MatrixOddsRecorded,
    NewTeamReplaced,
    OddsRunReplayed,
    PickReplaced,
    PicksSent,
    SanctionApplied,
    SeasonClosed,
    SlotHandedOn,
    StockCharged,
    TeamReplaced,
    WaitingListJoined,
)

__all__ = ["side_words", "summary", "why"]


def _name(state: SeasonState, team: str) -> str:
    t = state.teams.get(team)
    return t.name if t else team


def side_words(state: SeasonState, game: GamePlayed, side: GameSide) -> str:
    """E.g. "Snowmen 3: week 1 row I = 4, minus 1 for Icebergs on I"."""
    name = _name(state, side.team)
    if not side.column:
        return f"{name}: no picks received, loses the game (ONR)"
    row = "week" if game.competition == "championship" else f"{game.competition} round"
    words = [f"{row} {game.round} row {side.column} = {side.row_value}"]
    if side.shared_with:
        others = ", ".join(_name(state, t) for t in side.shared_with)
        words.append(f"minus {len(side.shared_with)} for {others} on {side.column}")
    if side.extra_goals:
        words.append(f"plus {side.extra_goals} extra goal{'s' * (side.extra_goals > 1)}")
    if side.great_saves_against:
        words.append(f"minus {side.great_saves_against} great save"
                     f"{'s' * (side.great_saves_against > 1)} (not below 0)")
    if side.bonus:
        words.append("plus the bonus goal")
    if side.onr:
        words.append("minus the ONR penalty goal (random pick)")
    elif side.replaced:
        words.append(f"pick by the referee ({side.replaced})")
    return f"{name} {side.regular}: " + ", ".join(words)


def why(state: SeasonState, event: Any, dice: dict[int, DieRolled]) -> str:
    """Why ``event`` happened, given the season before it and the dice by number."""
    rule = getattr(event, "rule", "")
    tail = f" ({rule})" if rule else ""
    rolled = [dice[n] for n in getattr(event, "rolls", []) if n in dice]
    by_die = "; ".join(f"die {d.n}: {d.face} of {d.faces} = {d.value}" for d in rolled)
    by_die = f" [{by_die}]" if by_die else ""
    if isinstance(event, GamePlayed):
        h, a = event.home, event.away
        text = (f"{_name(state, h.team)} {event.home_goals} - {event.away_goals} "
                f"{_name(state, a.team)} {event.decided} ({event.competition} week "
                f"{event.week}{', ' + event.stage if event.stage else ''}). "
                f"{side_words(state, event, h)}. {side_words(state, event, a)}.")
        if event.decided == "AP":
            text += (f" Tied: extra time {h.extra_time}={h.extra_time_value} against "
                     f"{a.extra_time}={a.extra_time_value}, the golden goal (2.2).")
        elif event.decided == "DRAW":
            text += f" Tied after equal extra-time values {h.extra_time_value}: a draw."
        elif event.tiebreak:
            text += f" Decided by {event.tiebreak}."
        return text + by_die + tail
    if isinstance(event, DieRolled):
        source = "seeded" if event.seeded else "typed at the table"
        return f"die {event.n} ({source}) for {event.purpose}: {event.face} of {event.faces} = {event.value}"
    if isinstance(event, PicksSent):
        picks = "; ".join(f"{p.competition} {p.column}{'+' * p.extra_goals}"
                          f"{'#' * p.great_saves}({p.extra_time})" for p in event.picks)
        return f"{_name(state, event.team)} sent week {event.week}: {picks} (only the last sent count, 3.1.3)"
    if isinstance(event, PickReplaced):
        return (f"{_name(state, event.team)} plays {event.column}({event.extra_time}) in the "
                f"{event.competition}, the referee's pick ({event.reason}){by_die}{tail}")
    if isinstance(event, BonusDrawn):
        return f"bonus goal of {event.division}: {_name(state, event.team)}{by_die}{tail}"
    if isinstance(event, StockCharged):
        return (f"{_name(state, event.team)} charged extra goals {event.extra_goals}, great "
                f"saves {event.great_saves}; dropped {event.dropped_extra_goals} and "
                f"{event.dropped_great_saves} beyond the stock{tail}")
    if isinstance(event, SanctionApplied):
        return (f"{_name(state, event.team)}: ONR number {event.onr_count}, loses "
                f"{event.extra_goals_lost} extra goals and {event.great_saves_lost} great saves"
                + (", can no longer be promoted" if event.no_promotion else "") + tail)
    if isinstance(event, TeamReplaced):
        return (f"{_name(state, event.team)} replaced by {event.new_name}"
                f"{' (dummy: random picks)' if event.dummy else ''}, keeping its record{tail}")
    if isinstance(event, NewTeamReplaced):
        return (f"{_name(state, event.team)}, a new team ONR in week 1, replaced by "
                f"{event.new_name} from the waiting list, keeping its record{tail}")
    if isinstance(event, SlotHandedOn):
        return (f"the dummy {_name(state, event.team)} played till the end of the season; "
                f"next season its slot is {event.new_name}'s (waiting list: "
                f"{event.extra_goals} extra goal, {event.great_saves} great saves){tail}")
    if isinstance(event, WaitingListJoined):
        return f"{event.name} ({event.id}) joins the waiting list{tail}"
    if isinstance(event, CupDrawn):
        return f"{event.competition} round {event.round} drawn: {len(event.games)} games{tail}"
    if isinstance(event, LuckyLoserChosen):
        return f"lucky loser {_name(state, event.team)} instead of {event.instead_of}{by_die}{tail}"
    if isinstance(event, OddsRunReplayed):
        return (f"odds run {event.run} of seed {event.seed!r} replayed (rinklog odds "
                f"--replay): the referee's dice from here on derive from {event.run_seed}")
    if isinstance(event, MatrixOddsRecorded):
        return (f"odds recorded after week {event.weeks_played}: {event.runs} runs of seed "
                f"{event.seed!r} (rinklog odds --record)")
    if isinstance(event, SeasonClosed):
        return (f"season closed: {len(event.promoted)} promoted, {len(event.relegated)} "
                f"relegated; next season {event.next_season}{tail}")
    return f"{type(event).__name__}{by_die}{tail}"


def summary(state: SeasonState) -> dict[str, Any]:
    """A season as ``replay --json`` shows it."""
    return {"season": state.season_id, "league": state.created.league,
            "weeks_played": sorted(state.weeks_played), "games": len(state.results),
            "dice": state.dice, "closed": state.closed is not None}
