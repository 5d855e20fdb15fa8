"""Why an event happened, in words: its roll, the card cell, modifiers, totals, the rule.

:func:`explain` folds the stream up to the event (the state before it) with the game
system's ``evolve`` and asks the system's explainer for the words; decision events carry
the ``n`` of the roll they used and their rule section. :func:`describe` is the one-line
wording ``rinklog play`` prints after each roll. System-blind: the words live with each
system (engine/<system>/explain.py), found through the registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from engine.systems import SEASON_SYSTEMS, system_of
from events.base import Event
from events.common import GameCreated
from events.errors import RinklogError
from events.store import EventStore
from projections.systems import read_models
from replay.games.game_streams import load_inputs, read_stream

PLAY_EVENTS = 80  # a play told further back than this starts at its last 80 events


@dataclass(frozen=True)
class Explanation:
    """An event and why it happened: ``text`` is the line ``rinklog explain`` prints."""

    game_id: str
    seq: int
    event: Event
    roll: Any  # the system's roll, or None
    roll_json: dict[str, Any] | None
    text: str

    def to_json(self) -> dict[str, Any]:
        rule = getattr(self.event, "rule", "")
        return {"game_id": self.game_id, "seq": self.seq, "type": type(self.event).__name__,
                "rule": rule if isinstance(rule, str) and rule else None,
                "roll": self.roll_json,
                "event": msgspec.to_builtins(self.event), "explanation": self.text}


def explain(store: EventStore, game_id: str, seq: int) -> Explanation:
    """Event ``seq`` of a game (or a refereed season) with the roll it used (if any) and
    the words for why."""
    events = read_stream(store, game_id)
    if not 1 <= seq <= len(events):
        raise RinklogError(f"{game_id} has events 1..{len(events)}, not {seq}")
    created = events[0]
    season_system = store.info(game_id).system
    if season_system in SEASON_SYSTEMS:
        return _explain_season(SEASON_SYSTEMS[season_system], game_id, events, seq)
    assert isinstance(created, GameCreated)
    if seq == 1:
        return Explanation(game_id, 1, created, None, None, (
            f"seq 1 GameCreated: {created.home.team_id} (home) v {created.away.team_id} "
            f"(away), ruleset {created.ruleset} v{created.ruleset_version}, "
            f"{created.dice} dice" + (f" seed {created.seed!r}" if created.seed else "")
            + f"; cards {created.home.card_hash[:8]}…/{created.away.card_hash[:8]}…, "
            f"charts {created.charts_hash[:8]}… (the game's inputs)" + "".join(
                f"; not dressed: {a.team} {a.player} (out from season game {a.game}, "
                f"rule {a.rule})" for a in created.absent or [])))
    system = system_of(created.ruleset)
    state = system.initial_state(created, *load_inputs(store, created))
    for event in events[1:seq - 1]:
        system.evolve(state, event)
    rolls = {e.n: e.roll for e in events[:seq] if isinstance(e, system.roll_event)}
    event = events[seq - 1]
    n = getattr(event, "roll", None)
    roll = event.roll if isinstance(event, system.roll_event) \
        else rolls.get(n) if isinstance(n, int) else None
    return Explanation(game_id, seq, event, roll,
                       None if roll is None else system.roll_json(roll),
                       f"seq {seq} {type(event).__name__}: " + system.why(state, event, rolls))


def _explain_season(system: Any, season_id: str, events: list[Event], seq: int) -> Explanation:
    """A refereed season's event: the season folded up to it, the dice it used."""
    state = system.initial_state(events[0])
    for event in events[1:seq - 1]:
        system.evolve(state, event)
    dice = {e.n: e for e in events[:seq] if isinstance(e, system.roll_event)}
    event = events[seq - 1]
    used = [msgspec.to_builtins(dice[n]) for n in getattr(event, "rolls", []) if n in dice]
    text = (f"seq {seq} {type(event).__name__}: "
            + (f"{event.league}, season {event.season}, seed {event.seed!r}" if seq == 1
               else system.why(state, event, dice)))
    return Explanation(season_id, seq, event, used or None, {"dice": used} if used else None,
                       text)


def explain_event(store: EventStore, game_id: str, seq: int) -> str:
    """The line ``rinklog explain`` prints for event ``seq``."""
    return explain(store, game_id, seq).text


def describe(created: GameCreated, state: Any, event: Event) -> str | None:
    """One human line for ``rinklog play`` (None for events not worth a line), in the
    words of the game's system."""
    return system_of(created.ruleset).describe(state, event)


@dataclass(frozen=True)
class PlayStory:
    """How a goal or a penalty came about: the scoresheet's line for it and every rule
    decision of the play that led to it, from the event that started the play (a
    face-off, the puck changing hands) to the goal or penalty itself."""

    game_id: str
    kind: str  # "goal" or "penalty"
    number: int  # its number in the game, 1 = the first
    seq: int  # the goal's or penalty's event
    line: dict[str, Any] | None  # its scoresheet line (docs/json.md), if the sheet lists it
    headline: str
    steps: list[Explanation]

    @property
    def text(self) -> str:
        first = self.steps[0].seq if self.steps else self.seq
        return "\n".join([self.headline, f"the play, seq {first}-{self.seq}:",
                          *(f"  {step.text}" for step in self.steps)])

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "kind": self.kind, "number": self.number,
                "seq": self.seq, "line": self.line, "headline": self.headline,
                "from_seq": self.steps[0].seq if self.steps else self.seq,
                "steps": [step.to_json() for step in self.steps]}


def explain_play(store: EventStore, game_id: str, kind: str, number: int) -> PlayStory:
    """The ``number``-th goal (``kind`` "goal") or penalty ("penalty") of a game and the
    rolls and rules of the play that led to it, in the words of the game's system."""
    events = read_stream(store, game_id)
    created = events[0]
    if not isinstance(created, GameCreated):
        raise RinklogError(f"{game_id} is not a game: --goal/--penalty explain a game's plays")
    system = system_of(created.ruleset)
    wanted = system.goal_event if kind == "goal" else system.penalty_event
    seqs = [i + 1 for i, e in enumerate(events) if isinstance(e, wanted)]
    if not 1 <= number <= len(seqs):
        have = f"{kind}s 1..{len(seqs)}" if seqs else f"no {kind}s"
        raise RinklogError(f"{game_id} has {have}, not {kind} {number}")
    seq = seqs[number - 1]
    start = seq
    while start > max(2, seq - PLAY_EVENTS + 1) and \
            not isinstance(events[start - 1], system.play_starts):
        start -= 1
    state = system.initial_state(created, *load_inputs(store, created))
    for event in events[1:start - 1]:
        system.evolve(state, event)
    rolls = {e.n: e.roll for e in events[:seq] if isinstance(e, system.roll_event)}
    steps = []
    for at in range(start, seq + 1):
        event = events[at - 1]
        if not isinstance(event, system.roll_event) and getattr(event, "rule", None):
            n = getattr(event, "roll", None)
            roll = rolls.get(n) if isinstance(n, int) else None
            steps.append(Explanation(game_id, at, event, roll,
                                     None if roll is None else system.roll_json(roll),
                                     f"seq {at} {type(event).__name__}: "
                                     + system.why(state, event, rolls)))
        system.evolve(state, event)
    line = _sheet_line(store, game_id, events, kind, number, seq)
    return PlayStory(game_id, kind, number, seq, line, _headline(kind, number, line), steps)


def _sheet_line(store: EventStore, game_id: str, events: list[Event], kind: str,
                number: int, seq: int) -> dict[str, Any] | None:
    """The scoresheet's line for the goal (the sheet lists goals in order) or the penalty
    (the player's same-numbered penalty with minutes: the sheet also lists penalty shots,
    and sorts by time)."""
    sheet = read_models(store.info(game_id).system).scoresheet(events)
    if kind == "goal":
        return msgspec.to_builtins(sheet.goals[number - 1]) \
            if number <= len(sheet.goals) else None
    event = events[seq - 1]
    player = getattr(event, "player", None)
    earlier = sum(1 for e in events[:seq - 1]
                  if type(e) is type(event) and getattr(e, "player", None) == player)
    mine = [p for p in sheet.penalties if p.player == player and p.minutes]
    return msgspec.to_builtins(mine[earlier]) if earlier < len(mine) else None


def _headline(kind: str, number: int, line: dict[str, Any] | None) -> str:
    if line is None:
        return f"{kind} {number}"
    time = line["time"]  # MM:SS; DICE Hockey: the timing space (docs/json.md)
    when = f"period {line['period']}, " + (f"space {time}" if isinstance(time, int) else time)
    if kind == "goal":
        helpers = ", ".join(line["assist_names"]) or "unassisted"
        return (f"goal {number}: {line['team']} {line['scorer_name']} ({helpers}), {when}, "
                f"{line['strength']}" + (", the game winner" if line.get("gwg") else ""))
    what = line.get("infraction") or line["type"]
    return (f"penalty {number}: {line['team']} {line['player_name']}, {what}, "
            f"{line['minutes']} min, {when}")
