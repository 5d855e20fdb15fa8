"""Hockey Bones (and FaceOff 2008) in words: why an event happened, given the state
before it (its roll, the card cell, modifiers, totals, the rule), and the one-line wording
``rinklog play`` prints. Pure functions of (state, event): the registry hands them to the
system-blind explainer (replay/games/explain.py).
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.bones.state import GameState
from engine.bones.team_defense import team_defense
from engine.words import final_line, period_end_line
from events import bones as ev
from events.base import Event
from events.bones import DiceRolled, LinesChanged, Roll, TacticDeclared
from events.common import GameEnded, PeriodEnded, PeriodStarted

SLOT_ORDER = ("LW", "C", "RW", "LD", "RD", "G")


def roll_text(roll: Roll) -> str:
    """``blue white+white red`` as the rules read it, e.g. ``3 4+2 5``."""
    return f"{roll.blue} {roll.whites[0]}+{roll.whites[1]} {roll.red}"


def _name(state: GameState | None, pid: str | None) -> str:
    if pid is None:
        return "nobody"
    if state is not None:
        for team in (state.home, state.away):
            if pid in team.players:
                return team.players[pid].card.name
    return pid


def _team(state: GameState | None, side: str) -> str:
    return state.team(side).team.id if state is not None else side


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def rule_of(event: Any) -> str:
    return str(getattr(event, "rule", "") or "")


def why(state: GameState, event: Event, rolls: dict[int, Roll]) -> str:
    """The explanation of ``event`` given the state before it."""
    n = getattr(event, "roll", None)
    roll = rolls.get(n) if isinstance(n, int) else None
    head = f"{rule_of(event)}: " if rule_of(event) else ""
    rolled = f"roll {roll_text(roll)}" if roll is not None else "no roll"
    if isinstance(event, ev.ActionResolved):
        return _action(state, event, f"{head}{rolled}")
    if isinstance(event, ev.ShotTaken):
        result = "in range: on target" if event.in_range else "out of range: no goal"
        block = f", {event.block} ({event.blockers} blockers)" if event.block else ""
        return (f"{head}{rolled}; {event.kind.replace('_', ' ')} shot by "
                f"{_name(state, event.shooter)} ({_team(state, event.side)}), "
                f"{event.range_name} range {event.range} → {result}{block}")
    if isinstance(event, ev.GoalieResult):
        got = f", puck to {_name(state, event.player)}" if event.player else ""
        return (f"{head}{rolled} → cell {event.cell!r} on {_possessive(_name(state, event.goalie))} "
                f"goalie card → {event.outcome.replace('_', ' ')}{got}")
    if isinstance(event, ev.FaceoffRolled):
        where = f"in {_team(state, event.zone)}'s defensive zone (7.30)" if event.zone \
            else "at centre ice"
        won = (f"{_team(state, event.side)} {event.slot} {_name(state, event.player)} gets the puck"
               if event.player else f"{_team(state, event.side)} {event.slot} slot is empty: roll "
               "again (7.00)")
        return f"{head}{rolled} → FACEOFFS chart cell {event.cell!r} {where}: {won}"
    if isinstance(event, ev.PenaltyCalled):
        late = ", delayed (14.60)" if event.delayed else ""
        return (f"{head}{rolled} → {event.source} penalty column code {event.code!r} on "
                f"{_name(state, event.player)} ({_team(state, event.side)}), red die "
                f"{event.red} decides C/M (14.20){late}")
    if isinstance(event, ev.PenaltyAssessed):
        served = f", served by {_name(state, event.served_by)}" if event.served_by \
            and event.served_by != event.player else ""
        return (f"{head}{event.kind.replace('_', ' ')} ({event.minutes} min) to "
                f"{_name(state, event.player)} ({_team(state, event.side)}){served} at "
                f"{event.time // 60:02d}:{event.time % 60:02d} of period {event.period}: "
                f"{event.box} sequences in the box, {event.short} short-handed (14.10)")
    if isinstance(event, ev.GoalScored):
        goalie = _name(state, event.goalie) if event.goalie else "an empty net"
        return (f"{head}{rolled}; {_name(state, event.scorer)} ({_team(state, event.side)}) "
                f"scores on {goalie}, {event.strength}, period {event.period} sequence "
                f"{event.sequence}; score before: {state.home.team.id} {state.home.score} - "
                f"{state.away.score} {state.away.team.id}")
    if isinstance(event, DiceRolled):
        step = state.queue[0] if state.queue else None
        detail = f" (step {step.kind}" + (f", {_team(state, step.side)}" if step and step.side
                                           else "") + ")" if step else ""
        return (f"3.00: roll {event.n} = {roll_text(event.roll)} (blue {event.roll.blue}, "
                f"white {event.roll.white}, red {event.roll.red}) for {event.purpose}{detail}")
    if isinstance(event, LinesChanged):
        before = state.team(event.side).slots
        moves = [f"{slot} {_name(state, before.get(slot)) if before.get(slot) else '-'} → "
                 f"{_name(state, pid) if pid else '-'}"
                 for slot, pid in sorted(event.slots.items(), key=lambda kv: SLOT_ORDER.index(
                     kv[0]) if kv[0] in SLOT_ORDER else 9) if before.get(slot) != pid]
        how = "on the fly" if event.on_the_fly else "at a stoppage"
        return (f"{event.rule}: coach choice, {_team(state, event.side)} changes lines {how}: "
                + ("; ".join(moves) or "no change"))
    if isinstance(event, TacticDeclared):
        return f"{event.rule}: coach choice, {_team(state, event.side)} declares {event.tactic}"
    fields = msgspec.structs.asdict(event)
    shown = ", ".join(f"{k}={v!r}" for k, v in fields.items() if k not in ("rule", "roll"))
    return f"{head}{rolled}; {shown}" if (head or roll) else shown or "no fields"


def _action(state: GameState, event: ev.ActionResolved, rolled: str) -> str:
    """An action's cell, its modifiers against the team defense, and what it gave."""
    who = _name(state, event.player)
    text = f"{rolled} → cell {event.cell!r} on {_possessive(who)} card ({event.slot})"
    mods = [m for m in event.modifiers if not m.startswith("9.")]
    if event.value is not None and mods:
        text += "; " + ", ".join(mods) + f" = {event.value}"
    elif event.value is not None:
        text += f"; value {event.value}"
    elif mods:
        text += "; " + ", ".join(mods)
    if event.target is not None:
        how = next((m for m in event.modifiers if m.startswith("9.")), "")
        if not how and event.rule == "9.00":
            how = team_defense(state, "away" if event.side == "home" else "home",
                               event.slot).how
        if event.rule == "9.00" or how:
            sign = "≥" if event.value is not None and event.value >= event.target else "<"
            text += f" {sign} team defense {event.target}" + (f" ({how})" if how else "")
        else:
            text += f" against {event.target}"
    text += f" → {event.result.replace('_', ' ')}"
    if event.shooter and event.shooter != event.player:
        text += f" by {_name(state, event.shooter)}"
    return text + (" (uses a time sequence)" if event.time else " (no time used)")


def describe(state: GameState | None, event: Event) -> str | None:
    """One human line for ``rinklog play``; None for events not worth a line."""
    name = lambda pid: _name(state, pid)  # noqa: E731
    team = lambda side: _team(state, side)  # noqa: E731
    if isinstance(event, PeriodStarted):
        if event.period <= 3:
            return f"period {event.period} starts"
        # a playoff game's further overtimes (ruling R-6.00c); a shootout starts no period
        return "overtime starts" if event.period == 4 else f"overtime {event.period - 3} starts"
    if isinstance(event, PeriodEnded):
        return period_end_line(event, team("home"), team("away"))
    if isinstance(event, GameEnded):
        return final_line(event, team("home"), team("away"), team(event.winner))
    if isinstance(event, ev.FaceoffRolled):
        return (f"face-off: {name(event.player)} ({team(event.side)}) wins it" if event.player
                else "face-off: empty slot, roll again")
    if isinstance(event, ev.ActionResolved):
        return f"{name(event.player)} ({team(event.side)}): {event.result.replace('_', ' ')}"
    if isinstance(event, ev.PuckPassed):
        if event.from_player != event.to_player:
            return f"  pass {name(event.from_player)} → {name(event.to_player)}"
        if event.rule == "13.00":  # "(This can be the same player that already has possession.)"
            return (f"  pass {name(event.from_player)} keeps the puck: the pass chart names "
                    "his own position (13.00)")
        # 12.00: an interception to a vacant position: "the player with the puck retains
        # possession of the puck and it is treated as a successful pass result instead"
        return (f"  pass {name(event.from_player)} keeps the puck: it goes to a vacant "
                f"position, a pass instead ({event.rule})")
    if isinstance(event, ev.PuckIntercepted):
        return f"  intercepted by {name(event.to_player)} ({team(event.side)})"
    if isinstance(event, ev.ShotTaken):
        return (f"  shot by {name(event.shooter)}: "
                f"{'on target' if event.in_range else 'wide'}"
                + (f", {event.block}" if event.block else ""))
    if isinstance(event, ev.GoalieResult):
        return f"  {name(event.goalie)}: {event.outcome.replace('_', ' ')}"
    if isinstance(event, ev.GoalScored):
        return f"GOAL {team(event.side)}: {name(event.scorer)} ({event.strength})"
    if isinstance(event, ev.AssistsAwarded):
        return "  assists: " + (", ".join(name(p) for p in event.players) or "none")
    if isinstance(event, ev.PenaltyAssessed):
        return (f"penalty: {name(event.player)} ({team(event.side)}) "
                f"{event.kind.replace('_', ' ')}, {event.minutes} min")
    if isinstance(event, ev.PlayStopped):
        return f"whistle: {event.reason}"
    if isinstance(event, ev.ShootoutAttempt):
        return f"shootout: {name(event.shooter)} {'scores' if event.scored else 'misses'}"
    if isinstance(event, ev.InjuryChecked) and event.result:
        return f"injury: {name(event.player)} ({event.result})"
    if isinstance(event, LinesChanged):
        return f"{team(event.side)} line change"
    if isinstance(event, TacticDeclared):
        return f"{team(event.side)} plays {event.tactic}"
    return None


def roll_json(roll: Roll) -> dict[str, Any]:
    """A roll as ``explain --json`` shows it (docs/json.md)."""
    return {"blue": roll.blue, "whites": list(roll.whites), "red": roll.red}


def summary(state: GameState) -> dict[str, Any]:
    """The final state as ``rinklog replay`` prints it (docs/json.md)."""
    return {
        "finished": state.finished, "period": state.period, "sequence": state.sequence,
        "score": {"home": state.home.score, "away": state.away.score},
        "penalties": {side: [{"id": p.id, "player": p.player, "kind": p.kind,
                              "box_left": p.box_left, "short_left": p.short_left}
                             for p in state.team(side).penalties] for side in ("home", "away")},
        "on_ice": {side: dict(state.team(side).slots) for side in ("home", "away")},
        "puck": list(state.puck) if state.puck else None,
    }


_STRENGTH = {"pp": "power play", "sh": "short-handed", "es": "even strength"}

SEQUENCE_SECONDS = 24  # 6.00: a sequence is 24 seconds of a 20-minute period


def _skaters(state: GameState, side: str) -> int:
    """Skaters a side has on the ice: those allowed (15.00), one more with its goalie
    pulled (a skater in the G slot, 14.60/6.41)."""
    team = state.team(side)
    goalie = team.slots.get("G")
    pulled = goalie is not None and goalie in team.players and \
        not team.players[goalie].is_goalie
    return state.skaters_allowed(side) + (1 if pulled else 0)


def status(state: GameState) -> str:
    """Where the game stands, as the play prompt shows it: ``P2 09:36 (sequence 25/50) |
    HFX 2 - 1 QUE | 5 on 4, HFX power play`` (the clock is the period's time elapsed,
    24 s a sequence, 6.00; as the scoresheet times a goal)."""
    home, away = state.home.team.id, state.away.team.id
    score = f"{home} {state.home.score} - {state.away.score} {away}"
    if state.shootout_order is not None:
        shots = f"{home} {state.home.shootout_goals} - {state.away.shootout_goals} {away}"
        return f"shootout | {score} | shootout goals {shots}"
    if state.period == 0:
        return f"before the game | {score}"
    label = f"P{state.period}" if state.period <= 3 else _overtime(state.period)
    elapsed = state.sequence * SEQUENCE_SECONDS
    clock = f"{elapsed // 60:02d}:{elapsed % 60:02d}"
    on = {side: _skaters(state, side) for side in ("home", "away")}
    strength = f"{on['home']} on {on['away']}"
    edge = state.strength("home")
    if edge != "es":
        strength += f", {home if edge == 'pp' else away} power play"
    return (f"{label} {clock} (sequence {state.sequence}/{state.period_length}) | {score} | "
            f"{strength}")


def roll_for(state: GameState) -> str:
    """What the next roll decides, as the play prompt says it: ``Marc Roy's action, LW,
    power play``."""
    step = state.queue[0] if state.queue else None
    if step is None:
        return "the game"
    what = step.kind.replace("_", " ")
    if state.puck is not None and step.kind in ("action", "shot", "goalie"):
        side, pid = state.puck
        slot = state.slot_of(side, pid) or "-"
        return (f"{_possessive(_name(state, pid))} {what}, {slot}, "
                f"{_STRENGTH[state.strength(side)]}")
    if step.side:
        return f"{what}, {_team(state, step.side)}"
    return what


# What an event is in a play (whistle to whistle), for a page's play-by-play (one line a
# play, replay/reports/games.py): "" leaves it to the events every system shares.
_PLAY_KINDS: dict[type, str] = {
    ev.LinesChanged: "change",  # drawn in the shift chart: ends shifts and starts others
    ev.FaceoffRolled: "faceoff", ev.PuckPassed: "pass", ev.PuckIntercepted: "turnover",
    ev.ShotTaken: "shot", ev.PlayStopped: "whistle", ev.GoalScored: "goal",
    ev.PenaltyAssessed: "penalty",  # told, and timed as the scoresheet times it
    **dict.fromkeys((ev.ShootoutAttempt, ev.PenaltyShotAwarded, ev.GoalieInjured), "key"),
}


def play_kind(event: Event) -> str:
    """An event's part in a play: "faceoff", "pass", "turnover", "shot", "whistle", "goal",
    "penalty", "key" (told in the play's line), "change", "echo", or "" (the shared events decide)."""
    if isinstance(event, ev.ActionResolved) and event.result in ("pass", "shot"):
        return "echo"  # 8.00: the next line (the pass, the shot) tells it again
    return _PLAY_KINDS.get(type(event), "")


def _overtime(period: int) -> str:
    """OT, then a playoff game's 2OT, 3OT... (ruling R-6.00c)."""
    return "OT" if period == 4 else f"{period - 3}OT"
