"""DICE Hockey in words: why an event happened, given the state before it (the roll read
as 00-99, the card column, the modifiers, the rule), the one-line wording ``rinklog play``
prints, a roll and a state as JSON, and a team's roster as a game records it. Pure
functions of (state, event); the registry hands them to the system-blind tooling.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.dicehockey.cards import Team
from engine.dicehockey.lines import LINEUP_WHEN, on_ice
from engine.dicehockey.state import DEFENSE_SLOTS, FORWARD_SLOTS, GameState
from engine.words import final_line, period_end_line
from events import dicehockey as ev
from events.common import GameEnded, PeriodEnded, PeriodStarted, RosterEntry, other_side

__all__ = ["describe", "roll_for", "roll_json", "roster_entries", "status", "summary", "why"]


def roster_entries(team: Team) -> list[RosterEntry]:
    """What a GameCreated records of a team's players (DICE Hockey has no shift rating)."""
    return ([RosterEntry(id=s.id, name=s.name, position=s.position) for s in team.skaters]
            + [RosterEntry(id=g.id, name=g.name, position="G") for g in team.goalies])


def roll_json(roll: ev.Roll) -> dict[str, Any]:
    """A roll as ``explain --json`` shows it: the red die (tens), the white (ones), 00-99."""
    return {"red": roll.red, "white": roll.white, "value": roll.red * 10 + roll.white}


def _two(value: int) -> str:
    return f"{value:02d}"


def _name(state: GameState | None, pid: str | None, side: str | None = None) -> str:
    if not pid:
        return "nobody"
    if state is not None:
        sides = [side] if side in ("home", "away") else ["home", "away"]
        for s in sides:
            team = state.team(s)
            card = team.cards.get(pid) or team.goalies.get(pid)
            if card is not None:
                return card.name
    return pid


def _team(state: GameState | None, side: str | None) -> str:
    if state is None or side not in ("home", "away"):
        return str(side)
    return state.team(side).team.id


def _arithmetic(raw: int, modifier: int, value: int, modifiers: list[str]) -> str:
    """``27 − 1 = 26 (7: passer -9, 7: defense +8)``: the roll, the modifier and the
    number read, with each part of the modifier as the rule names it."""
    if not modifier and not modifiers:
        return _two(raw)
    sign = "−" if modifier < 0 else "+"
    why = f" ({', '.join(modifiers)})" if modifiers else ""
    return f"{_two(raw)} {sign} {abs(modifier)} = {_two(value)}{why}"


def why(state: GameState, event: Any, rolls: dict[int, ev.Roll]) -> str:
    """The explanation of ``event`` given the state before it."""
    rule = getattr(event, "rule", "")
    head = f"{rule}: " if rule else ""
    n = getattr(event, "roll", None)
    roll = rolls.get(n) if isinstance(n, int) else None
    rolled = f"roll {roll.red}{roll.white}" if roll is not None else "no roll"
    if isinstance(event, ev.DiceRolled):
        step = state.queue[0] if state.queue else None
        whose = f", {_team(state, step.side)}" if step is not None and step.side else ""
        return (f"1, 5: roll {event.n}: red {event.roll.red}, white {event.roll.white} = "
                f"{event.roll.red}{event.roll.white}, for {event.purpose}{whose}")
    if isinstance(event, ev.PassRolled):
        to = (f"To {event.slot}" + (f" {event.shot}" if event.shot else "")
              if event.slot else event.result.replace("_", " "))
        who = (f", puck to {_name(state, event.to_player, event.to_side)} "
               f"({_team(state, event.to_side)})" if event.to_player else "")
        return (f"{head}pass roll {_arithmetic(event.raw, event.modifier, event.value, event.modifiers)} on "
                f"{_name(state, event.passer, event.side)}'s passing column → {to}{who}")
    if isinstance(event, ev.ShotTaken):
        card = "goalie's" if event.kind == "GS" else "shooter's"
        result = "GOAL" if event.goal else "saved"
        after = (f", puck to {_name(state, event.puck_to, event.puck_side)}"
                 if event.puck_to else "")
        read = _arithmetic(event.raw, event.modifier, event.raw + event.modifier,
                           event.modifiers)
        return (f"{head}{event.kind} by {_name(state, event.shooter, event.side)}: roll "
                f"{read} against the {card} goal range 00-{_two(event.upto)} → {result}{after}")
    if isinstance(event, ev.FaceoffWon):
        return (f"{head}{rolled} against home 00-{_two(event.home_upto)}: "
                f"{_name(state, event.winner, event.side)} ({_team(state, event.side)}) beats "
                f"{_name(state, event.loser)}; the puck to the {event.slot} "
                f"{_name(state, event.to_player, event.side)}")
    if isinstance(event, ev.GoalScored):
        helpers = ", ".join(_name(state, p, event.side) for p in event.assists) or "unassisted"
        return (f"{head}{_name(state, event.scorer, event.side)} ({_team(state, event.side)}) "
                f"scores, {event.strength}, period {event.period} space {event.space}; "
                f"assists: {helpers}")
    if isinstance(event, ev.PenaltyAssessed):
        return (f"{head}{event.infraction} ({event.kind.replace('_', ' ')}, {event.minutes} "
                f"min on the sheet) to {_name(state, event.player, event.side)} "
                f"({_team(state, event.side)}): {served(event)}")
    if isinstance(event, ev.PenaltyTied):
        names = ", ".join(_name(state, p, event.side) for p in event.players)
        chart = "the Special Play chart" if event.source == "special" else "Penalty Chart A"
        return (f"{head}{_two(event.value)} on {chart}: the {event.team}'s #{event.rank} "
                f"penalty rating is a tie ({names}); {_team(state, event.side)}'s coach "
                "decides who took it")
    if isinstance(event, ev.PenaltyPlayerChosen):
        return (f"{head}{_team(state, event.side)}'s coach names "
                f"{_name(state, event.player, event.side)} for the tied penalty")
    if isinstance(event, ev.ExtraAttackerAdded):
        return (f"{head}{_team(state, event.side)}'s coach adds "
                f"{_name(state, event.player, event.side)} as the extra attacker of the "
                "delayed penalty")
    if isinstance(event, ev.TimingSpaceCounted):
        return (f"{head}timing space {event.space} of period {event.period} "
                f"({event.reason})")
    if isinstance(event, ev.LineupRearranged):
        return f"{head}{_lineup_words(state, event)}"
    fields = msgspec.structs.asdict(event)
    shown = ", ".join(f"{k}={v!r}" for k, v in fields.items() if k not in ("rule", "roll"))
    return f"{head}{rolled}; {shown}" if (head or roll) else shown or "no fields"


def _lineup_words(state: GameState, event: ev.LineupRearranged) -> str:
    """``ALD re-sets its lineup cards at its time out: line 2 C Ann Bell (was Cy Dow)``."""
    team = state.team(event.side)
    boxes = [(f"line {i} {slot}", new, old)
             for i, (line, was) in enumerate(zip(event.forwards, team.lines.forwards,
                                                 strict=True), start=1)
             for slot, new, old in zip(FORWARD_SLOTS, line, was, strict=True)]
    boxes += [(f"pair {i} {slot}", new, old)
              for i, (pair, was) in enumerate(zip(event.defense, team.lines.defense,
                                                  strict=True), start=1)
              for slot, new, old in zip(DEFENSE_SLOTS, pair, was, strict=True)]
    moved = [f"{box} {_name(state, new, event.side)} (was {_name(state, old, event.side)})"
             for box, new, old in boxes if new != old]
    when = LINEUP_WHEN.get(team.lineup_open, "")
    return (f"{team.team.id} re-sets its lineup cards{' ' + when if when else ''}: "
            f"{'; '.join(moved) or 'no box changed'}")


def served(event: ev.PenaltyAssessed) -> str:
    """How a penalty is served in DICE Hockey, which has no clock: ``2 clears`` a man
    short (15), ``5 timing spaces`` without (18, ruling R-DH-15d), the game, or a penalty
    shot."""
    if event.kind == "game_misconduct":
        return "out for the game, not short-handed"
    if event.kind == "penalty_shot":
        return "a penalty shot"
    if event.clears:
        return f"{event.clears} clears, a man short"
    return f"{event.spaces} timing spaces, not short-handed"


def describe(state: GameState | None, event: Any) -> str | None:
    """One human line for ``rinklog play``; None for events not worth a line."""
    if isinstance(event, PeriodStarted):
        return "overtime starts" if event.period >= 4 else f"period {event.period} starts"
    if isinstance(event, PeriodEnded):
        return period_end_line(event, _team(state, "home"), _team(state, "away"))
    if isinstance(event, GameEnded):
        return final_line(event, _team(state, "home"), _team(state, "away"),
                          _team(state, event.winner))
    if isinstance(event, ev.FaceoffWon):
        return f"face-off: {_name(state, event.winner, event.side)} ({_team(state, event.side)})"
    if isinstance(event, ev.PassRolled):
        to = (f"to {_name(state, event.to_player, event.to_side)}" if event.to_player
              else event.result.replace("_", " "))
        return f"  pass {_two(event.value)}: {to}" + (f" ({event.shot})" if event.shot else "")
    if isinstance(event, ev.ShotTaken):
        return (f"  {event.kind} by {_name(state, event.shooter, event.side)}: "
                f"{'GOAL' if event.goal else 'saved'}")
    if isinstance(event, ev.GoalScored):
        return (f"GOAL {_team(state, event.side)}: {_name(state, event.scorer, event.side)} "
                f"({event.strength})")
    if isinstance(event, ev.PenaltyAssessed):
        return (f"penalty: {_name(state, event.player, event.side)} "
                f"({_team(state, event.side)}) {event.infraction}, "
                f"{event.kind.replace('_', ' ')}: {served(event)}")
    if isinstance(event, ev.PenaltyTied):
        return (f"  penalty: a tie between "
                f"{', '.join(_name(state, p, event.side) for p in event.players)}")
    if isinstance(event, ev.PenaltyPlayerChosen):
        return f"  penalty on {_name(state, event.player, event.side)}"
    if isinstance(event, ev.ExtraAttackerAdded):
        return (f"  delayed penalty: {_name(state, event.player, event.side)} "
                f"({_team(state, event.side)}) on as the extra attacker")
    if isinstance(event, ev.TurnoverRolled):
        return f"  turnover: {event.text}"
    if isinstance(event, ev.ShootoutAttempt):
        return (f"shootout: {_name(state, event.shooter, event.side)} "
                f"{'scores' if event.scored else 'misses'}")
    if isinstance(event, ev.LinesChanged):
        return f"{_team(state, event.side)} line change"
    if isinstance(event, ev.TimeOutCalled):
        return f"{_team(state, event.side)} calls its time out"
    if isinstance(event, ev.LineupRearranged):
        return f"{_team(state, event.side)} re-sets its lineup cards"
    return None


def summary(state: GameState) -> dict[str, Any]:
    """The final state as ``rinklog replay`` prints it (docs/json.md): DICE Hockey counts
    timing spaces where Hockey Bones counts sequences."""
    return {
        "finished": state.finished, "period": state.period, "sequence": state.space,
        "score": {"home": state.home.score, "away": state.away.score},
        "penalties": {side: [{"id": p.id, "player": p.player, "kind": p.kind,
                              "clears_left": p.clears_left, "spaces_left": p.spaces_left}
                             for p in state.team(side).penalties] for side in ("home", "away")},
        "on_ice": {side: dict(on_ice(state, side)) for side in ("home", "away")},
        "puck": list(state.puck) if state.puck else None,
    }


def roll_for(state: GameState) -> str:
    """What the next roll decides, as the play prompt says it: ``Hollis Pelletier's pass,
    C, power play``."""
    step = state.queue[0] if state.queue else None
    if step is None:
        return "the game"
    what = step.kind.replace("_", " ")
    if state.puck is not None:
        side, pid = state.puck
        mine, theirs = state.team(side).men_short(), state.team(other_side(side)).men_short()
        strength = ("power play" if mine < theirs else "short-handed" if mine > theirs
                    else "even strength")
        slot = next((s for s, p in on_ice(state, side).items() if p == pid), "-")
        return f"{_name(state, pid, side)}'s {what}, {slot}, {strength}"
    if step.side:
        return f"{what}, {_team(state, step.side)}"
    return what


def status(state: GameState) -> str:
    """Where the game stands, as the play prompt shows it: ``P2 space 14/31 | HFX 2 - 1
    QUE | 5 on 4, HFX power play``. DICE Hockey's clock is the period's timing spaces
    (12: the teams' timing ratings added; a time out may add one)."""
    home, away = state.home.team.id, state.away.team.id
    score = f"{home} {state.home.score} - {state.away.score} {away}"
    if state.shootout is not None:
        shots = f"{home} {state.home.shootout_goals} - {state.away.shootout_goals} {away}"
        return f"shootout | {score} | shootout goals {shots}"
    if state.period == 0:
        return f"before the game | {score}"
    label = "OT" if state.period >= 4 else f"P{state.period}"
    # 15: five skaters less the men short; 22: one more with the goalie pulled
    on = {side: 5 - state.team(side).men_short() + (1 if state.team(side).pulled else 0)
          for side in ("home", "away")}
    strength = f"{on['home']} on {on['away']}"
    short = {side: state.team(side).men_short() for side in ("home", "away")}
    if short["home"] != short["away"]:
        strength += f", {home if short['home'] < short['away'] else away} power play"
    return f"{label} space {state.space}/{state.length} | {score} | {strength}"


# What an event is in a play (whistle to whistle), for a page's play-by-play (one line a
# play, replay/reports/games.py): "" leaves it to the events every system shares.
_PLAY_KINDS: dict[type, str] = {
    ev.LinesChanged: "change",  # drawn in the shift chart: ends shifts and starts others
    ev.FaceoffWon: "faceoff", ev.PassRolled: "pass", ev.TurnoverRolled: "turnover",
    ev.ShotTaken: "shot", ev.GoalScored: "goal",
    ev.PenaltyAssessed: "penalty",  # told, and timed as the scoresheet times it
    **dict.fromkeys((ev.PuckDumped, ev.ShootoutAttempt, ev.InjuryRolled, ev.FightRolled),
                    "key"),
}


def play_kind(event: object) -> str:
    """An event's part in a play: "faceoff", "pass", "turnover", "shot", "goal",
    "penalty", "key" (told in the play's line), "change", or "" (the shared events decide)."""
    return _PLAY_KINDS.get(type(event), "")
