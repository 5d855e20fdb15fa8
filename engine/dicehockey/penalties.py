"""Penalties (15, 21D, 22): Penalty Chart A (who), Chart B (what), delayed penalties,
the box, and penalties killed by clears instead of time.

A penalty off a skater's card (97-98) or a goalie's (95-99) is always a minor. On the
team with the puck it stops play at once; on the defense it is delayed (15): play goes
on, an extra attacker the offense's coach picks joins it (22: "take any player from any
line"), and the whistle comes when the defense gains the puck or play stops; a goal
first erases it. A goalie's penalty stops play at once (ruling R-DH-15c: he has covered
the puck). When Chart A's rank is shared, the penalized players' coach picks who took it
(15: "the players' coach gets to decide").
"""

from __future__ import annotations

from engine.dicehockey.bands import band
from engine.dicehockey.dice import roll_value
from engine.dicehockey.lines import on_ice
from engine.dicehockey.puck import whistle
from engine.dicehockey.state import SLOTS, Call, GameState, Penalty, Step, other
from events.base import Event
from events.dicehockey import (
    ClearCounted,
    ExtraAttackerAdded,
    InfractionRolled,
    PenaltyAssessed,
    PenaltyCalled,
    PenaltyEnded,
    PenaltyErased,
    PenaltyPlayerChosen,
    PenaltyTied,
    Roll,
)


def by_rating(state: GameState, side: str) -> list[str]:
    """15: ``side``'s five on the ice (the extra attacker is never ranked), highest penalty
    rating first, a tie in slot order (LW, C, RW, LD, RD)."""
    slots = on_ice(state, side)
    cards = state.team(side).cards
    # each rating read once, the five ordered by an insertion that keeps ties in slot
    # order (as a stable sort): compiled, ``sorted`` with a key was a closure called
    # through Python's calling convention for each player, about 9,000 instructions an ask
    players: list[str] = []
    ratings: list[int] = []
    for slot in SLOTS:
        player = slots[slot]
        if player:
            rating = cards[player].penalty
            at = len(ratings)
            while at > 0 and ratings[at - 1] < rating:
                at -= 1
            players.insert(at, player)
            ratings.insert(at, rating)
    return players


def ranked(state: GameState, side: str, rank: int) -> str:
    """The player with the ``rank``-th highest penalty rating, a tie in slot order (the
    default coach's habit at a Chart A tie; the Special Play and Fight charts' ranks,
    ruling R-DH-15a); a rank past a short-handed team's skaters is its last."""
    order = by_rating(state, side)
    return order[min(rank, len(order)) - 1]


def tied(state: GameState, side: str, rank: int) -> list[str]:
    """The players Chart A's ``rank`` may name (15): the player with the ``rank``-th highest
    penalty rating, and every other player whose rating ties his, in slot order. Ruling
    R-DH-15a: a rank past a short-handed team's skaters is its last."""
    rating = state.card(side, ranked(state, side, rank)).penalty
    slots = on_ice(state, side)
    return [p for p in (slots[s] for s in SLOTS) if p and state.card(side, p).penalty == rating]


def decide_who(state: GameState, step: Step, roll: Roll) -> list[Event]:
    """Penalty Chart A. ``step.side`` is the offense: the team that had the puck. A rank two
    or more players share is their coach's to settle (15): the rules name them and wait."""
    entry = band(state.charts.penalty_a, roll_value(roll))
    side = step.side if entry.team == "offense" else other(step.side)
    players = tied(state, side, entry.rank)
    if len(players) > 1:
        return [PenaltyTied(side=side, team=entry.team, rank=entry.rank, players=players,
                            source=step.source, value=roll_value(roll), roll=state.rolls,
                            rule="15")]
    return [PenaltyCalled(side=side, player=players[0], team=entry.team, rank=entry.rank,
                          source=step.source, roll=state.rolls, rule="15")]


def apply_called(state: GameState, event: PenaltyCalled) -> None:
    offense = event.side if event.team == "offense" else other(event.side)
    state.pending.append(Step("penalty_what", side=offense, player=event.player,
                              source=event.source, team=event.side))


def apply_tied(state: GameState, event: PenaltyTied) -> None:
    """15: the coach of the tied players is asked before Chart B is rolled, or (16) before
    the special play's penalty is assessed (matching penalties: each team's coach)."""
    at = sum(1 for s in state.pending if s.kind == "penalty_tie")
    state.pending.insert(at, Step("penalty_tie", side=event.side, source=event.source,
                                  team=event.team, number=event.rank))
    if event.source == "special" and not any(s.kind == "special_penalty"
                                             for s in state.pending):
        offense = event.side if event.team == "offense" else other(event.side)
        state.pending.insert(at + 1, Step("special_penalty", side=offense,
                                          number=event.value))


def tie_fault(state: GameState, event: PenaltyPlayerChosen) -> str | None:
    """Why a coach's pick of the penalized player breaks 15, or None."""
    step = state.next_step()
    if step is None or step.kind != "penalty_tie" or step.side != event.side:
        return ("15: a coach picks who took a penalty only when a chart names a tie of "
                "his players")
    players = tied(state, event.side, step.number)
    if event.player not in players:
        return f"15: the tie is between {', '.join(players)}"
    return None if event.rule == "15" else f"a penalty tie is rule 15, not {event.rule}"


def apply_chosen(state: GameState, event: PenaltyPlayerChosen) -> None:
    """15: the coach's pick stands for Chart A's PenaltyCalled (Chart B follows), or names
    the special play's offender (kept on the step that assesses it, 16)."""
    step = state.pending.pop(0)
    if step.source == "special":
        at = next(i for i, s in enumerate(state.pending) if s.kind == "special_penalty")
        later = state.pending[at]
        state.pending[at] = Step("special_penalty", side=later.side, number=later.number,
                                 picks=(*later.picks, (event.side, event.player)))
        return
    offense = event.side if step.team == "offense" else other(event.side)
    state.pending.append(Step("penalty_what", side=offense, player=event.player,
                              source=step.source, team=event.side))


def decide_what(state: GameState, step: Step, roll: Roll) -> list[Event]:
    """Penalty Chart B: the infraction; always a minor off a card (15)."""
    called = step.team
    infraction = band(state.charts.penalty_b, roll_value(roll)).infraction
    delayed = called != step.side and step.source == "skater"
    event = InfractionRolled(side=called, player=step.player, infraction=infraction,
                             kind="minor", delayed=delayed, roll=state.rolls, rule="15")
    if delayed:
        return [event]
    call = Call(called, step.player, infraction, "minor")
    return [event, *whistle(state, "penalty", "15", (call,))]


def apply_infraction(state: GameState, event: InfractionRolled) -> None:
    if event.delayed:
        state.delayed.append(Call(event.side, event.player, event.infraction, event.kind))
        offense = other(event.side)
        if free_skaters(state, offense):
            # 22: the offense's coach adds an extra attacker before play goes on (at a
            # second call during the same delay he names him again: the same or another)
            state.pending.insert(0, Step("extra_attacker", side=offense))


def free_skaters(state: GameState, side: str) -> list[str]:
    """22: the skaters ``side`` may add as a delayed penalty's extra attacker ("any player
    from any line" who is off the ice); none when its goalie is already pulled for one."""
    team = state.team(side)
    if team.pulled:
        return []
    on = set(on_ice(state, side).values())
    # the dressed skaters by the ids ``cards`` is keyed by, in the team's order (made from
    # ``team.skaters``): no card's ``id`` read by a generic look-up, two a skater
    return [pid for pid in team.cards if pid not in on and pid not in team.out]


def extra_attacker_fault(state: GameState, event: ExtraAttackerAdded) -> str | None:
    """Why a delayed penalty's extra attacker breaks 22, or None."""
    step = state.next_step()
    if step is None or step.kind != "extra_attacker" or step.side != event.side:
        return "22: an extra attacker is added when the other team's penalty is delayed"
    if event.player not in free_skaters(state, event.side) and event.player != state.delayed_ea:
        return f"22: {event.player!r} is no skater of {event.side} off the ice"
    return None if event.rule == "22" else f"the extra attacker is rule 22, not {event.rule}"


def apply_extra_attacker(state: GameState, event: ExtraAttackerAdded) -> None:
    state.pending.pop(0)  # the extra_attacker step the delayed call asked for
    state.delayed_ea = event.player


def decide_assess(state: GameState, step: Step, roll: Roll | None) -> list[Event]:
    """The whistle of a delayed penalty: the defense has the puck, or play is dead."""
    return whistle(state, "penalty", "15")


def apply_assessed(state: GameState, event: PenaltyAssessed) -> None:
    team = state.team(event.side)
    state.next_penalty_id = event.id + 1
    if event.kind == "game_misconduct":
        team.out[event.player] = "ejected"  # 15: replaced, the team is not short
        state.pending.append(Step("suspension", side=event.side, player=event.player))
        return
    team.penalties.append(Penalty(event.id, event.player, event.kind, event.clears,
                                  event.spaces, event.short))
    team.out[event.player] = "box"


def apply_cleared(state: GameState, event: ClearCounted) -> None:
    left = dict(zip(event.penalties, event.left, strict=True))
    for penalty in state.team(event.side).penalties:
        if penalty.id in left:
            penalty.clears_left = left[penalty.id]


def apply_ended(state: GameState, event: PenaltyEnded) -> None:
    team = state.team(event.side)
    for penalty in list(team.penalties):
        if penalty.id != event.id:
            continue
        if event.clears_left:  # 15: a double minor serves its second two clears
            penalty.clears_left = event.clears_left
            return
        team.penalties.remove(penalty)
        if not any(p.player == penalty.player for p in team.penalties) \
                and team.out.get(penalty.player) == "box":
            del team.out[penalty.player]


def apply_erased(state: GameState, event: PenaltyErased) -> None:
    state.delayed = [c for c in state.delayed if c.player != event.player]


__all__ = ["apply_assessed", "apply_called", "apply_chosen", "apply_cleared", "apply_ended",
           "apply_erased", "apply_extra_attacker", "apply_infraction", "apply_tied",
           "by_rating", "decide_assess", "decide_what", "decide_who", "extra_attacker_fault",
           "free_skaters", "ranked", "tie_fault", "tied"]
