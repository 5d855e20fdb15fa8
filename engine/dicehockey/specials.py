"""Special plays (16), their penalties (15), fights (18) and injuries (17).

A 99 on a passing column sends the dice to the Special Play chart: 00-09 a fight (roll
the Fight chart: it *can* result in one), 50-87 a penalty, 88-99 an injury; the text is
silent on 10-49, which the substitute chart fills with play on and scrums (ruling
R-DH-16a). Special-play penalties are "of the more severe variety" and stop play at once
(ruling R-DH-15e). Fighters sit five timing spaces and are replaced: no 4 on 4 (18). An
injured player leaves the game, play stops, and Games Missed says for how long (17).
"""

from __future__ import annotations

from engine.dicehockey.bands import band
from engine.dicehockey.cards import SpecialBand
from engine.dicehockey.dice import roll_value
from engine.dicehockey.lines import on_ice
from engine.dicehockey.passing import parity_defense
from engine.dicehockey.penalties import ranked, tied
from engine.dicehockey.puck import whistle
from engine.dicehockey.state import Call, GameState, Step, other
from events.base import Event
from events.dicehockey import (
    FightRolled,
    GamesMissedRolled,
    InjuryRolled,
    PenaltyTied,
    Roll,
    SpecialPlayRolled,
    SuspensionRolled,
)


def decide_special(state: GameState, step: Step, roll: Roll) -> list[Event]:
    """``step.side`` is the offense (the carrier's team)."""
    entry = band(state.charts.special, roll_value(roll))
    kind = "penalty_shot" if entry.penalty == "penalty_shot" else entry.kind
    event = SpecialPlayRolled(kind=kind, text=entry.text, roll=state.rolls, rule="16")
    offense, defense = step.side, other(step.side)
    if entry.kind in ("fight", "play_on"):
        return [event]
    if entry.kind == "scrum":
        return [event, *whistle(state, "scrum", "16")]
    if entry.kind == "injury":
        side = offense if entry.team == "offense" else defense
        slots = on_ice(state, side)
        player = slots.get(entry.slot) or slots[parity_defense(roll)]
        card = state.card(side, player)
        most = band(state.charts.games_missed, card.injury).games
        return [event, InjuryRolled(side=side, player=player, rating=card.injury,
                                    max_games=most, roll=state.rolls, rule="17"),
                *whistle(state, "injury", "17")]
    if kind == "penalty_shot":  # 15: a take-down on a breakaway
        return [event, *whistle(state, "penalty", "15")]
    ties = [PenaltyTied(side=side, team="offense" if side == offense else "defense",
                        rank=entry.rank, players=players, source="special",
                        value=roll_value(roll), roll=state.rolls, rule="15")
            for side in _penalized(entry, offense) if len(players := tied(
                state, side, entry.rank)) > 1]
    if ties:  # 15: "If there is a tie, the players' coach gets to decide"
        return [event, *ties]
    return [event, *whistle(state, "penalty", "15", _calls(state, entry, offense, {}))]


def _penalized(entry: SpecialBand, offense: str) -> tuple[str, ...]:
    defense = other(offense)
    if entry.team == "both":  # matching penalties, 4 on 4 (15)
        return (offense, defense)
    return (offense if entry.team == "offense" else defense,)


def _calls(state: GameState, entry: SpecialBand, offense: str,
           picks: dict[str, str]) -> tuple[Call, ...]:
    """The special play's penalties: on the player of the entry's penalty-rating rank, or
    the one his coach picked of a tie (15)."""
    return tuple(Call(side, picks.get(side) or ranked(state, side, entry.rank),
                      entry.infraction, entry.penalty) for side in _penalized(entry, offense))


def decide_special_penalty(state: GameState, step: Step, roll: Roll | None) -> list[Event]:
    """16, 15: the special play's penalty, assessed once its coach (or coaches) named the
    tied player; play stops at once (ruling R-DH-15e)."""
    entry = band(state.charts.special, step.number)
    return whistle(state, "penalty", "15", _calls(state, entry, step.side, dict(step.picks)))


def apply_special(state: GameState, event: SpecialPlayRolled) -> None:
    """Follow-ups, while the carrier still has the puck: the Fight chart (18), or his
    penalty shot (15: ruling R-DH-15g, the carrier was taken down)."""
    assert state.puck is not None
    side, carrier = state.puck
    if event.kind == "fight":
        state.pending.append(Step("fight", side=side, player=carrier))
    elif event.kind == "penalty_shot":
        state.pending.append(Step("so_card", side=side, player=carrier, shot="penalty_shot"))


def decide_fight(state: GameState, step: Step, roll: Roll) -> list[Event]:
    """18: no fight plays on; a fight boxes both for five timing spaces."""
    entry = band(state.charts.fight, roll_value(roll))
    if not entry.offense or not entry.defense:
        return [FightRolled(fought=False, home=None, away=None, text=entry.text,
                            roll=state.rolls, rule="18")]
    offense, defense = step.side, other(step.side)
    fighters = {offense: ranked(state, offense, entry.offense),
                defense: ranked(state, defense, entry.defense)}
    calls = tuple(Call(side, fighters[side], "Fighting", "fight", "18")
                  for side in (offense, defense))
    return [FightRolled(fought=True, home=fighters["home"], away=fighters["away"],
                        text=entry.text, roll=state.rolls, rule="18"),
            *whistle(state, "fight", "18", calls)]


def apply_injury(state: GameState, event: InjuryRolled) -> None:
    team = state.team(event.side)
    team.out[event.player] = "injured"  # ruling R-DH-17a: out for the game
    team.lineup_open = "injury"  # 10: "or a player is injured"
    state.pending.append(Step("games_missed", side=event.side, player=event.player,
                              upto=event.max_games))


def decide_games_missed(state: GameState, step: Step, roll: Roll) -> list[Event]:
    """17: the roll, or the chart's maximum when the roll is larger."""
    return [GamesMissedRolled(side=step.side, player=step.player,
                              games=min(roll_value(roll), step.upto), roll=state.rolls,
                              rule="17")]


def decide_suspension(state: GameState, step: Step, roll: Roll) -> list[Event]:
    """15: "Roll one die": the white die; ruling R-DH-15f: a 0 reads 10."""
    return [SuspensionRolled(side=step.side, player=step.player, games=roll.white or 10,
                             roll=state.rolls, rule="15")]
