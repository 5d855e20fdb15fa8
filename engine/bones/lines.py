"""Who may stand where: positioning when short (15.00), player changes (6.41)."""

from __future__ import annotations

from typing import Final

from engine.bones import draft
from engine.bones.state import GameState, TeamState, other
from engine.bones.timing import REST_SEQUENCES
from events.bones import LinesChanged

# The six slots of a line change in slot order, a variable-length tuple (compiled, a loop
# over it indexes it natively).
SLOT_ORDER: Final[tuple[str, ...]] = ("LW", "C", "RW", "LD", "RD", "G")
FORWARD_ORDER: Final[tuple[str, ...]] = ("LW", "C", "RW")
SKATER_ORDER: Final[tuple[str, ...]] = ("LW", "C", "RW", "LD", "RD")
# 15.00: with four skaters the C slot stays empty; with three, both wings do.
SLOTS_FOR: Final = {5: ("LW", "C", "RW", "LD", "RD"), 4: ("LW", "RW", "LD", "RD"), 3: ("C", "LD", "RD")}


# SLOTS_FOR's three, each a C static: compiled, SLOTS_FOR[n] boxes the number and looks
# it up in a dict at every line change checked.
FIVE_SLOTS: Final[tuple[str, ...]] = SLOTS_FOR[5]
FOUR_SLOTS: Final[tuple[str, ...]] = SLOTS_FOR[4]
THREE_SLOTS: Final[tuple[str, ...]] = SLOTS_FOR[3]


def skater_slots(state: GameState, side: str) -> tuple[str, ...]:
    allowed = state.skaters_allowed(side)
    if allowed == 5:
        return FIVE_SLOTS
    if allowed == 4:
        return FOUR_SLOTS
    return THREE_SLOTS if allowed == 3 else SLOTS_FOR[allowed]


def check_lines(state: GameState, event: LinesChanged) -> str | None:
    """Why a line change is illegal, or None (6.41, 15.00)."""
    # An event's fields: each read is a generic look-up compiled.
    return check_change(state, event, event.side, event.slots, event.on_the_fly)


def check_change(state: GameState, event: LinesChanged, side: str,
                 slots: dict[str, str | None], on_the_fly: bool) -> str | None:
    """``check_lines`` given the change's side, slots and on-the-fly flag, read by the
    caller (``game.check_choice`` reads the event's fields together)."""
    team = state.team(side)
    wanted = skater_slots(state, side)
    # The six slots and no other: as many keys as slots, each of them a slot (six keys of
    # a dict are six different names). Read in the one walk of the change: who stands in
    # each slot, in slot order (G last); every check after reads that list, not the dict.
    standing: list[str | None] = [None, None, None, None, None, None]
    if len(slots) != len(SLOT_ORDER) or not _read_slots(slots, standing):
        return "a line change names the six slots LW, C, RW, LD, RD, G"
    if not _fills(standing, wanted):
        return f"15.00: {len(wanted)} skaters must stand in {', '.join(wanted)}"
    if _twice(standing):
        return "a player stands in two slots"
    # Who is on the ice now: asked only of a player who has not rested (6.41), a list of
    # at most six (no set built to ask it).
    on_ice_now: list[str] | None = None
    players = team.players
    # Each player in slot order (the coach and the stream write a change in slot order,
    # so the first fault found is the one a walk of the change's dict finds).
    for k in range(6):
        pid = standing[k]
        if pid is None:
            continue
        slot = SLOT_ORDER[k]
        status = players.get(pid)
        if status is None:
            return f"{pid} is not dressed for {team.team.id}"
        if status.out:
            return f"{pid} cannot play ({status.out})"
        if slot != "G" and status.is_goalie:
            return f"6.41: goalie {pid} cannot skate in {slot}"
        if status.rest < REST_SEQUENCES:
            if on_ice_now is None:
                on_ice_now = team.skaters_on_ice()
                on_ice_now.append(team.goalie)
            if pid not in on_ice_now and rested_on_bench(team, _named(on_ice_now, standing)):
                # R-6.41a: with nobody rested on the bench, the freshest may come back early.
                return f"6.41: {pid} has rested {status.rest} sequences, needs {REST_SEQUENCES}"
    problem = (draft.fault(state, event) if state.draft_league else None) \
        or _out_of_position(state, side, standing, on_the_fly)
    if problem:
        return problem
    goalie = standing[5]
    if goalie is None:
        return "the G slot needs the goalie or a sixth skater (15.00)"
    if goalie != team.goalie and players[goalie].is_goalie:
        return f"{goalie} is not the goalie of record"
    if on_the_fly and team.pulled_on_the_fly and goalie == team.goalie:
        return "6.41: a goalie who left on the fly comes back only after a stoppage"
    if on_the_fly and state.puck and state.puck[0] == side:
        carrier = state.puck[1]
        if not _stands(standing, carrier):
            return f"6.41: {carrier} has the puck and cannot change on the fly"
    return None


def _out_of_position(state: GameState, side: str, standing: list[str | None],
                     on_the_fly: bool) -> str | None:
    """15.10: at 5 on 5 (no goalie pulled) a forward may play a forward slot he is not
    rated for only when no forward rated for it is available (rested on the bench, not
    hurt or in the box)."""
    team = state.team(side)
    if state.skaters_allowed("home") < 5 or state.skaters_allowed("away") < 5:
        return None
    if standing[5] != team.goalie or state.team(other(side)).pulled:
        return None  # a sixth attacker on either side: not 5 on 5
    carrier = state.puck[1] if on_the_fly and state.puck else None
    for k in range(3):
        pid = standing[k]
        if pid is None or pid == carrier:  # 6.41: the puck carrier cannot be changed
            continue
        slot = FORWARD_ORDER[k]
        card = team.players[pid].facts()
        if not card.skater or card.defenseman or slot in card.positions:
            continue
        on_ice_or_placed = set(team.skaters_on_ice()) | {p for p in standing if p}
        waiting = rested_on_bench(team, on_ice_or_placed, rated_for=slot)
        if waiting:
            return (f"15.10: {pid} is not rated for {slot} while {waiting} is rested "
                    "and rated for it")
    return None


def rested_on_bench(team: TeamState, unavailable: set[str], rated_for: str = "") -> str | None:
    """A skater on the bench, rested (6.41), not hurt or in the box, not sitting out
    under draft rule 16 and not in ``unavailable``; with ``rated_for``, a forward rated for
    that slot (15.10). None if there is nobody."""
    for pid, status in team.players.items():
        if pid in unavailable or status.out or status.rest < REST_SEQUENCES:
            continue
        card = status.facts()
        if not card.skater or draft.barred(status):
            continue
        if rated_for and (card.defenseman or rated_for not in card.positions):
            continue
        return pid
    return None


def _read_slots(slots: dict[str, str | None], standing: list[str | None]) -> bool:
    """Whether every key of ``slots`` names a slot; ``standing`` gets who stands in each
    slot in slot order (G last). A change made by the coach or read back from the stream
    names its slots in slot order: a key is compared with the slot at its place first,
    then with all of them."""
    at = 0
    for slot, pid in slots.items():
        k = at if at < 6 and slot == SLOT_ORDER[at] else slot_number(slot)
        at += 1
        if k < 0:
            return False
        standing[k] = pid
    return True


def _named(on_ice: list[str], standing: list[str | None]) -> set[str]:
    """Who is on the ice now and everyone the change names (R-6.41a's unavailable)."""
    named = set(on_ice)
    for pid in standing:
        if pid:
            named.add(pid)
    return named


def _stands(standing: list[str | None], pid: str) -> bool:
    """``pid`` is named in the change (a native loop, no list of names made)."""
    for one in standing:
        if one is not None and one == pid:
            return True
    return False


def slot_number(slot: str) -> int:
    """A slot's number in slot order (LW 0 ... RD 4, G 5); -1 for any other name."""
    return 5 if slot == "G" else skater_slot_number(slot)


def skater_slot_number(slot: str) -> int:
    """A skater slot's number in slot order (LW 0 ... RD 4); -1 for any other name."""
    if slot == "LW":
        return 0
    if slot == "C":
        return 1
    if slot == "RW":
        return 2
    if slot == "LD":
        return 3
    return 4 if slot == "RD" else -1


def _fills(standing: list[str | None], wanted: tuple[str, ...]) -> bool:
    """The skater slots someone stands in are the wanted ones, in slot order (no list of
    them built, no tuple compared generically)."""
    at, count = 0, len(wanted)
    for k in range(5):
        if standing[k]:
            if at == count or wanted[at] != SKATER_ORDER[k]:
                return False
            at += 1
    return at == count


def _twice(standing: list[str | None]) -> bool:
    """Someone named in two slots (six slots: compared pairwise, no set built)."""
    for i in range(1, len(standing)):
        pid = standing[i]
        if not pid:
            continue
        for j in range(i):
            one = standing[j]
            if one is not None and one == pid:
                return True
    return False
