"""Passing (7, 8, 9, 15, 20, 21C, 21D, 22): the carrier rolls on his passing column.

The roll is modified (``pass_modifier``) by the defense and the passer (7), by a rebound
(8, passer only; against a tired defense with its -10 still, ruling R-DH-8b), by a tired
line (9: the defense ignores its ratings and the passer takes -10), or on the power play
by PP + PK instead (21D, doubled at 5 on 3). Rolls of
95-99 are never modified (20, 21D); a modified number above 94 is a dead puck and a
face-off (21C, which takes precedence over 20's cap at 94: ruling R-DH-21Ca); nothing reads
below 00 (20). Then the column says: PS/GS (a shot), To (a pass), TRV A 90-94 (the
defense's LW/C/RW/LD/RD steals it), TRV B 95-96 (the Turnover chart), Penalty 97-98,
Special 99. A short-handed team's pass is a clearing attempt (15, 22) and a team facing
an empty net passes it around (22).
"""

from __future__ import annotations

from typing import Final, cast

from engine.dicehockey.dice import roll_even, roll_value
from engine.dicehockey.facts import PassCell, SkaterFacts
from engine.dicehockey.lines import on_ice
from engine.dicehockey.puck import count_space, whistle
from engine.dicehockey.rulesets import VERSION_2
from engine.dicehockey.state import GameState, Modifier, Step, other
from events.base import Event
from events.dicehockey import ClearCounted, PassRolled, PenaltyEnded, Roll

TRV_A: Final = {90: "LW", 91: "C", 92: "RW", 93: "LD", 94: "RD"}  # 21C: the defensive lineup card
TIRED: Final = -10  # 9: "subtract -10 to your opponents passing numbers"


def parity_defense(roll: Roll) -> str:
    """20: when unsure who gets the puck, even is the RD, odd the LD."""
    return "RD" if roll_even(roll) else "LD"


def pass_modifier(state: GameState, side: str, passer: SkaterFacts) -> Modifier:
    """The number added to the carrier's roll, and why (7, 8, 9, 21D). The ratings are
    read from the cards' facts (facts.py: compiled fields, not a card's generic look-ups)."""
    team, opponent = state.team(side), state.team(other(side))
    advantage = opponent.men_short() - team.men_short()
    if advantage > 0:  # 21D, ruling R-DH-21Da: PP + PK, nothing else; doubled at 5 on 3
        pp, pk = team.team.pp, opponent.team.pk
        total = (pp + pk) * advantage
        return Modifier(total, [_power_play_why(pp, pk, advantage, total)])
    if state.uses("learning_game"):
        return Modifier(0, [])
    rating = passer.passer
    if state.rebound:  # 8: a rebound ignores the defense until the whistle
        # ruling R-DH-8b: 9's -10 against a tired defense is no defensive rating and holds
        # "At any time" (version 1 dropped it on a rebound)
        if opponent.tired() and state.version >= VERSION_2:
            return Modifier(rating + TIRED, [f"8: rebound, passer {rating}",
                                             "9: tired defense -10"])
        return Modifier(rating, [f"8: rebound, passer {rating}"])
    if opponent.tired():  # 9: a tired defense ignores its ratings
        return Modifier(rating + TIRED, [_passer_why(rating), "9: tired defense -10"])
    slots = on_ice(state, opponent.side)
    defense = 0
    # the two defense slots written out (no tuple walked generically at every pass)
    player = slots["LD"]
    if player:
        defense += opponent.skater(player).defense
    player = slots["RD"]
    if player:
        defense += opponent.skater(player).defense
    return Modifier(rating + defense, [_passer_why(rating), _defense_why(defense)])


# The two reasons of almost every pass, by rating: each text made once (a pass's reasons
# are the same few strings game after game; formatting them was a fifth of the modifier).
_PASSER_WHY: Final[dict[int, str]] = {}
_DEFENSE_WHY: Final[dict[int, str]] = {}


def _passer_why(rating: int) -> str:
    text = _PASSER_WHY.get(rating)
    if text is None:
        text = _PASSER_WHY[rating] = f"7: passer {rating}"
    return text


# 21D's reason, by PP, PK and men short (each of the few a game's two teams give, made once)
_POWER_PLAY_WHY: Final[dict[tuple[int, int, int], str]] = {}


def _power_play_why(pp: int, pk: int, advantage: int, total: int) -> str:
    key = (pp, pk, advantage)
    text = _POWER_PLAY_WHY.get(key)
    if text is None:
        if len(_POWER_PLAY_WHY) > 4096:  # a league's every pairing: never reached in practice
            _POWER_PLAY_WHY.clear()
        text = _POWER_PLAY_WHY[key] = f"21D: PP {pp} + PK +{pk} x{advantage} = {total}"
    return text


def _defense_why(defense: int) -> str:
    text = _DEFENSE_WHY.get(defense)
    if text is None:
        text = _DEFENSE_WHY[defense] = f"7: defense +{defense}"
    return text


def read_roll(raw: int, modifier: int) -> tuple[int, bool]:
    """The number read and whether it is a dead puck (20, 21C, 21D). A pair of plain
    values: compiled, a tuple of an int and a bool is returned unboxed (no object made
    at every pass, as a NamedTuple was)."""
    if raw >= 95:
        return raw, False  # 20, 21D: never modified
    value = raw + modifier
    if value > 94:
        return value, True  # 21C: modified above 94, a face-off
    return max(0, value), False  # 20, R-DH-20a: nothing below 00


def decide_pass(state: GameState, step: Step, roll: Roll) -> list[Event]:
    side, carrier = step.side, step.player
    team, opponent = state.team(side), state.team(other(side))
    card = team.skater(carrier)  # his card's ratings and column as compiled fields
    raw = roll_value(roll)
    if team.men_short() > opponent.men_short():
        return _clear_attempt(state, step, roll, card)
    modified = pass_modifier(state, side, card)
    modifier, modifiers = modified.total, modified.why
    value, dead = read_roll(raw, modifier)
    if raw >= 95 and modifier:
        modifiers = [*modifiers, "20, 21D: 95-99 are not modified"]
    rolled = Rolled(side, carrier, raw, modifier, value, modifiers, state.rolls, "7")
    if dead:
        return [rolled.event("faceoff", side, None, None, rule="21C"),
                *whistle(state, "modified_over_94", "21C")]
    if value >= 90:
        return _column_end(state, step, roll, value, rolled)
    column = card.passing[value]  # 0-89 here: the column's cell, no band walked
    receiver = _receiver(state, side, carrier, column)
    slot, player, shot = receiver.slot, receiver.player, receiver.shot
    if opponent.pulled:
        return _against_empty_net(state, side, carrier, slot, player, rolled)
    if player is None:  # 22: a pass to an empty box is a clear for everyone short
        to = parity_defense(roll)
        return [rolled.event("clear", other(side), on_ice(state, other(side))[to], to, rule="22"),
                *_clears(state, side, carrier, both=True)]
    if shot and team.tired() and shot == "PS":
        shot = "GS"  # 9: a tired line gets no player shots
        modifiers.append("9: tired line, PS is GS")
    return [rolled.event("shot" if shot else "pass", side, player, slot, shot)]


class Rolled:
    """A pass's ``PassRolled`` given where it went: the fields of the passer, the roll and
    its modifier kept (a plain class, as ``Modifier``: a closure made at every pass was an
    environment and a function object, each call through Python's calling convention)."""

    __slots__ = ("side", "passer", "raw", "modifier", "value", "modifiers", "roll", "rule")

    def __init__(self, side: str, passer: str, raw: int, modifier: int, value: int,
                 modifiers: list[str], roll: int, rule: str) -> None:
        self.side, self.passer, self.raw, self.modifier = side, passer, raw, modifier
        self.value, self.modifiers, self.roll, self.rule = value, modifiers, roll, rule

    def event(self, result: str, to_side: str, to_player: str | None, slot: str | None,
                 shot: str = "", rule: str = "") -> PassRolled:
        """``rule``: the section, when not the pass's own (7; 15 for a clear)."""
        # positionally, in the fields' declared order (side, passer, raw, modifier, value,
        # modifiers, result, shot, to_side, to_player, slot, roll, rule): the same event,
        # made without matching thirteen keywords (tests/dicehockey/test_dicehockey_events_made)
        return PassRolled(self.side, self.passer, self.raw, self.modifier, self.value,
                          self.modifiers, result, shot, to_side, to_player, slot, self.roll,
                          rule or self.rule)


class Receiver:
    """Where a pass goes: the slot, its player (None: an empty box), the shot ("" none).
    A plain class, as ``Modifier``: one is made at every pass."""

    __slots__ = ("slot", "player", "shot")

    def __init__(self, slot: str, player: str | None, shot: str) -> None:
        self.slot, self.player, self.shot = slot, player, shot


def _receiver(state: GameState, side: str, carrier: str, band: PassCell) -> Receiver:
    """Who the column sends it to (7, 21C, 22) and the shot it brings."""
    slots = on_ice(state, side)
    slot, shot = band.to, band.shot
    if shot in ("GS*", "GS**"):  # 21C: the tagged shooter on the ice takes the GS
        tagged = sorted((state.card(side, p).shooter, s) for s, p in slots.items()
                        if p and state.card(side, p).shooter)
        if tagged:
            slot = tagged[0][1] if shot == "GS*" else tagged[-1][1]
        shot = "GS"
    player = slots.get(slot)
    if player == carrier and slots.get("EA") and slots["EA"] != carrier:
        return Receiver("EA", slots["EA"], shot)  # 22: a pass to himself: the extra attacker
    return Receiver(slot, player, shot)


def _column_end(state: GameState, step: Step, roll: Roll, value: int,
                rolled: Rolled) -> list[Event]:
    """90-99 of every column (15, 16, 21C)."""
    side = step.side
    if value <= 94:  # 21C: TRV A, the defense steals it
        slots = on_ice(state, other(side))
        slot = TRV_A[value]
        if slots[slot] is None:  # ruling R-DH-21Cb: an empty box, the parity rule (20)
            slot = parity_defense(roll)
        return [rolled.event("trv_a", other(side), slots[slot], slot, rule="21C"),
                *count_space(state, "turnover", "19")]
    if value <= 96:
        return [rolled.event("trv_b", other(side), None, None, rule="21C"),
                *count_space(state, "turnover", "19")]
    if value <= 98:
        return [rolled.event("penalty", side, None, None, rule="15")]
    return [rolled.event("special", side, None, None, rule="16")]


def _clear_attempt(state: GameState, step: Step, roll: Roll, card: SkaterFacts) -> list[Event]:
    """15, 22: the short-handed team's pass is a clear if it reaches a player on the ice
    (PS and GS are ignored); to an empty box (LW; LW or RW at 5 on 3) it fails and the
    power play's player there has it. Ruling R-DH-15b: the roll is not modified, and a
    clear leaves the puck with the power play's RD (even) or LD (odd)."""
    side, carrier = step.side, step.player
    raw = roll_value(roll)
    rolled = Rolled(side, carrier, raw, 0, raw, ["15: a clearing attempt"], state.rolls, "15")

    if raw >= 90:
        return _column_end(state, step, roll, raw, rolled)
    slot = card.passing[raw].to  # 0-89 here
    theirs = on_ice(state, other(side))
    if on_ice(state, side)[slot] is None:
        to = slot if theirs.get(slot) else parity_defense(roll)
        return [rolled.event("failed_clear", other(side), theirs[to], to, rule="22")]
    to = parity_defense(roll)
    return [rolled.event("clear", other(side), theirs[to], to), *_clears(state, side, carrier)]


def _clears(state: GameState, side: str, player: str, both: bool = False) -> list[Event]:
    """15, 22: a clear counts towards every running penalty at once ("do not kill each
    penalty individually"); at 4 on 4 towards both teams'."""
    events: list[Event] = []
    for each in ((side, other(side)) if both else (side,)):
        running = [p for p in state.team(each).penalties if p.short and p.clears_left > 0]
        if not running:
            continue
        events.append(ClearCounted(side=each, player=player, penalties=[p.id for p in running],
                                   left=[p.clears_left - 1 for p in running],
                                   roll=state.rolls, rule="15"))
        events += [PenaltyEnded(id=p.id, side=each, player=p.player, reason="cleared",
                                clears_left=0, roll=state.rolls, rule="15")
                   for p in running if p.clears_left == 1]
    return events


def _against_empty_net(state: GameState, side: str, carrier: str, slot: str,
                       player: str | None, rolled: Rolled) -> list[Event]:
    """22: passing it around against a pulled goalie: a pass back to the carrier is a
    steal by the extra attacker; any other completed pass is a good pass (two in a row
    bring the empty-net roll, ``decide_empty_net``)."""
    extra = state.team(other(side)).extra_attacker
    if player is None or player == carrier:
        return [rolled.event("steal", other(side), extra, "EA", rule="22")]
    return [rolled.event("good_pass", side, player, slot, rule="22")]


def apply_pass(state: GameState, event: PassRolled, result: str = "",
               fields: tuple[object, ...] = ()) -> None:
    """Follow-up steps of a pass (the puck itself moves in ``game.evolve``). ``result``:
    the event's, when the caller has read it already; ``fields``: the event's fields as
    a tuple (``msgspec.structs.astuple``), when the caller has them (compiled, a field of
    an event read by name is a generic attribute look-up)."""
    result = result or event.result
    if result == "pass" or result == "good_pass":  # most passes: nothing follows
        return
    if result == "shot":
        if fields:  # side, passer, raw, modifier, value, modifiers, result, shot, to_side,
            # to_player (tests/dicehockey/test_dicehockey_events_made.py pins the order)
            side, player, shot = cast(str, fields[0]), cast(str, fields[9]), cast(str, fields[7])
        else:
            assert event.to_player is not None
            side, player, shot = event.side, event.to_player, event.shot
        state.pending.append(Step("shot", side=side, player=player, shot=shot))
    elif result == "trv_b":
        state.pending.append(Step("turnover", side=event.side, player=event.passer))
    elif result == "penalty":
        state.pending.append(Step("penalty_who", side=event.side, player=event.passer,
                                  source="skater"))
    elif result == "special":
        state.pending.append(Step("special", side=event.side, player=event.passer))
