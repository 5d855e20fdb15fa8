"""The default coach: line changes, pulling the goalie, tactics and shootout shooters.

Coach decisions are inputs to the rules, like dice: this policy proposes them, the rules
check them (lines.check_lines, game.check_choice) and the stream records them. It rolls
four forward lines and three pairs by shift ratings (6.40), sends power-play and
penalty-killing units, changes tired skaters on the fly and pulls the goalie late when
behind. A ``CoachPolicy`` per team (a coach file, see docs/coach.md, engine/bones/policy.py)
sets its habits.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from engine.bones.cards import Skater
from engine.bones.draft import barred
from engine.bones.lines import SLOTS_FOR, skater_slot_number
from engine.bones.policy import DEFAULT_POLICY as DEFAULT_POLICY
from engine.bones.policy import PULL_AT as PULL_AT
from engine.bones.policy import STOPPAGE_CHANGE as STOPPAGE_CHANGE
from engine.bones.policy import CoachPolicy as CoachPolicy
from engine.bones.rulesets import Ruleset
from engine.bones.state import (
    SKATER_SLOTS,
    TACTIC_OPTIONS,
    TACTIC_RULES,
    GameState,
    PlayerStatus,
    TeamState,
    other,
)
from engine.bones.timing import MAX_STINT, REST_SEQUENCES, number_listed
from events.bones import LinesChanged, ShootoutOrderChosen, TacticDeclared

# The skater slots as a variable-length tuple: compiled, a loop over it indexes it natively
# (a loop over the Final one builds the tuple and iterates it generically each time).
SLOT_ORDER: Final[tuple[str, ...]] = SKATER_SLOTS
NOBODY: Final = -1  # a slot or a unit's place held by no one dressed
# The six slots of a line change, in the order the stream writes them, all empty: only
# copied (``_slots_of``), never changed.
EMPTY_SLOTS: Final[dict[str, str | None]] = {"LW": None, "C": None, "RW": None, "LD": None,
                                             "RD": None, "G": None}
# 15.00's wanted skater slots (lines.SLOTS_FOR) by number, for five, four and three
# skaters: made once, not from the slot names at every decision (never changed).
WANTED_FIVE: Final[list[int]] = [skater_slot_number(slot) for slot in SLOTS_FOR[5]]
WANTED_FOUR: Final[list[int]] = [skater_slot_number(slot) for slot in SLOTS_FOR[4]]
WANTED_THREE: Final[list[int]] = [skater_slot_number(slot) for slot in SLOTS_FOR[3]]


def _wanted(allowed: int) -> list[int]:
    """The skater slots (by number) a team puts ``allowed`` skaters in (15.00)."""
    if allowed == 5:
        return WANTED_FIVE
    if allowed == 4:
        return WANTED_FOUR
    if allowed == 3:
        return WANTED_THREE
    raise KeyError(allowed)


def _place_in_unit(k: int) -> int:
    """Slot ``k``'s place in its unit: LW, C, RW of a line; LD, RD of a pair."""
    return k if k < 3 else k - 3


class _Roster:
    """What the coach reads of one team that never changes during a game, read once a game.
    Its players are numbered, the skaters first in dressing order, and a group of skaters
    (who is on the ice, fit, ready) is a bit mask of those numbers: no set of names built,
    hashed and walked at every decision. Kept: each player's status (the game's own,
    changed in place); each skater's shift rating (6.40), power-play and penalty-kill
    bonuses; who is a defenseman; for each forward slot, whose card names it and the
    forwards rated for it (15.10); the lines and pairs by number."""

    __slots__ = ("players", "team", "ids", "index", "statuses", "skaters", "shift",
                 "pp_bonus", "pk_bonus", "defensemen", "named", "rated", "forward_units",
                 "defense_units", "forward_members", "defense_members")

    def __init__(self, team: TeamState) -> None:
        self.players = team.players  # the game's own dict: a roster is for its game only
        self.team = team.team
        ids: list[str] = []
        statuses: list[PlayerStatus] = []
        shift: list[float] = []
        pp_bonus: list[int] = []
        pk_bonus: list[int] = []
        others: list[str] = []
        defensemen = 0
        named = [0, 0, 0]  # by forward slot: whose card names it (15.10)
        for pid, status in team.players.items():
            card = status.card
            if not isinstance(card, Skater):
                others.append(pid)
                continue
            bit = 1 << len(ids)
            facts = status.facts()
            if facts.defenseman:
                defensemen |= bit
            for k in range(3):
                if SLOT_ORDER[k] in facts.positions:
                    named[k] |= bit
            ids.append(pid)
            statuses.append(status)
            shift.append(card.shift)
            pp_bonus.append(card.assist)
            pk_bonus.append(card.defense + 3 * card.ace_pk)
        self.skaters = len(ids)
        for pid in others:  # numbered after the skaters: never fit, rested or ready
            ids.append(pid)
            statuses.append(team.players[pid])
        self.ids, self.statuses, self.shift = ids, statuses, shift
        self.pp_bonus, self.pk_bonus = pp_bonus, pk_bonus
        self.index = {pid: i for i, pid in enumerate(ids)}
        self.defensemen, self.named = defensemen, named
        self.rated = [mask & ~defensemen for mask in named]  # forwards rated for each slot
        lines = team.team.lines
        self.forward_units = [self._numbers(line) for line in lines.forwards]
        self.defense_units = [self._numbers(pair) for pair in lines.defense]
        # A unit's dressed skaters in slot order, as its score reads them.
        self.forward_members = [[i for i in unit if i != NOBODY] for unit in self.forward_units]
        self.defense_members = [[i for i in unit if i != NOBODY] for unit in self.defense_units]

    def _numbers(self, unit: list[str]) -> list[int]:
        """A line's or pair's skaters by number, NOBODY for one not dressed as a skater."""
        numbers = []
        for pid in unit:
            i = self.index.get(pid, NOBODY)
            numbers.append(i if i < self.skaters else NOBODY)
        return numbers

    def out_of_position(self, i: int, k: int) -> bool:
        """15.10: a forward in a forward slot (``k``) he is not rated for."""
        if k >= 3:
            return False
        bit = 1 << i
        return not (self.defensemen & bit) and not (self.named[k] & bit)


class _Bench:
    """One team as the coach sees it at one decision: who is on the ice (given), who
    rests on the bench fit to go on (6.41: rested three sequences, not hurt or in the box,
    not sitting out under draft rule 16), and who is fit to go out (those, and the
    skaters on the ice for fewer than ``change_at_stoppage`` sequences, 6.40). Read from
    the statuses in one walk when first asked: a choice that keeps its five never asks."""

    __slots__ = ("roster", "stay", "on_ice", "draft", "_read", "_rested", "_fit")

    def __init__(self, roster: _Roster, stay: int, on_ice: int, draft: bool) -> None:
        self.roster, self.stay, self.on_ice = roster, stay, on_ice
        # Draft rule 16 holds in a draft league's games only (GameState.draft_league):
        # elsewhere it bars nobody, and the walk asks it of nobody (about 12 calls a walk).
        self.draft = draft
        self._read = False
        self._rested = self._fit = 0

    def _walk(self) -> None:
        self._read = True
        on_ice, stay, draft = self.on_ice, self.stay, self.draft
        statuses = self.roster.statuses
        rested = staying = 0
        for i in range(self.roster.skaters):
            s = statuses[i]
            if s.out:
                continue
            bit = 1 << i
            if on_ice & bit:
                if s.stint < stay:
                    staying |= bit
            elif s.rest >= REST_SEQUENCES and not (draft and barred(s)):
                rested |= bit
        self._rested, self._fit = rested, rested | staying

    def rested(self) -> int:
        if not self._read:
            self._walk()
        return self._rested

    def fit(self) -> int:
        if not self._read:
            self._walk()
        return self._fit

    def freshness(self, i: int) -> float:
        """Shifts left before his shift rating is used up (6.40)."""
        return self.roster.shift[i] - self.roster.statuses[i].shifts


def _unit_score(members: list[int], roster: _Roster, ready: int,
                bonus: list[int] | None) -> float:
    """A unit's score: its ready members' mean freshness (6.40), plus one a member, plus
    ``bonus`` (their assist ratings on the power play or their defense on the penalty
    kill, :func:`_bonus`)."""
    count, fresh, extra = 0, 0.0, 0
    shift, statuses = roster.shift, roster.statuses
    for i in members:
        if ready & (1 << i):
            count += 1
            fresh += shift[i] - statuses[i].shifts
            if bonus is not None:
                extra += bonus[i]
    if not count:
        return -1e9
    score = fresh / count + count
    if bonus is not None:
        score += extra
    return score


def _bonus(roster: _Roster, strength: str) -> list[int] | None:
    """What a unit's score adds at ``strength``: the assist ratings on the power play,
    the defense on the penalty kill, nothing at even strength."""
    if strength == "pp":
        return roster.pp_bonus
    if strength == "sh":
        return roster.pk_bonus
    return None


def _next_best(scores: list[float], used: int) -> int:
    """The best-scored unit not ``used`` (a mask of unit indexes), ties in roster order:
    taken one at a time, the units come as a stable sort, the best first, would give
    them, and a change the first unit fills sorts no more."""
    best = NOBODY
    for i in range(len(scores)):
        if not used & (1 << i) and (best == NOBODY or scores[i] > scores[best]):
            best = i
    return best


def _misplaced_ready(roster: _Roster, ready: int, i: int, k: int) -> bool:
    """15.10: at 5 on 5 a forward plays only where he is rated while someone rated for
    the slot is ready."""
    return roster.out_of_position(i, k) and bool(roster.rated[k] & ready & ~(1 << i))


def _freshest_rested(bench: _Bench, ready: int, k: int) -> int:
    """Anyone rested who can play (15.10): a defenseman for LD or RD and a forward for a
    forward slot first, then one whose card names the slot, then the freshest, then by
    id (NOBODY if nobody is ready)."""
    roster = bench.roster
    want_d = k >= 3
    named = 0 if want_d else roster.named[k]
    best, best_key = NOBODY, (True, True, 0.0, "")
    for i in range(roster.skaters):
        bit = 1 << i
        if not ready & bit:
            continue
        key = (bool(roster.defensemen & bit) != want_d, not named & bit,
               -bench.freshness(i), roster.ids[i])
        if best == NOBODY or key < best_key:
            best, best_key = i, key
    return best


def _freshest_left(bench: _Bench, placed: int) -> int:
    """Nobody rested: the freshest skater not hurt, in the box or placed (R-6.41a), one
    draft rule 16 lets on first (15.00 leaves no slot empty: anyone, if nobody is)."""
    roster = bench.roster
    statuses, on_ice = roster.statuses, bench.on_ice
    free = allowed = 0
    for i in range(roster.skaters):
        bit = 1 << i
        s = statuses[i]
        if s.out or placed & bit:
            continue
        free |= bit
        if on_ice & bit or not barred(s):
            allowed |= bit
    pool = allowed or free
    best, best_key = NOBODY, (0, 0, "")
    for i in range(roster.skaters):
        if pool & (1 << i):
            key = (statuses[i].stint, -statuses[i].rest, roster.ids[i])
            if best == NOBODY or key < best_key:
                best, best_key = i, key
    return best


def _not_barred(pool: list[str], players: dict[str, PlayerStatus],
                on_ice: set[str]) -> list[str]:
    """The pool without the bench players draft rule 16 keeps off; all of it when that
    leaves nobody (a slot is never left empty, 15.00)."""
    kept = [p for p in pool if p in on_ice or not barred(players[p])]
    return kept or pool


def _sixth_attacker(team: TeamState, slots: dict[str, str | None], bench: _Bench) -> str | None:
    """The fit skater not in a slot with the best N range (10.10), if any."""
    taken = set(slots.values())
    roster, fit = bench.roster, bench.fit()
    pool = [roster.ids[i] for i in range(roster.skaters)
            if fit & (1 << i) and roster.ids[i] not in taken]
    return max(pool, key=lambda p: (team.card(p).n, p)) if pool else None


def _number(index: dict[str, int], pid: str | None) -> int:
    """A player's number, NOBODY for an empty slot or a name the roster lacks."""
    return index.get(pid, NOBODY) if pid else NOBODY


def _mask(numbers: list[int]) -> int:
    """The players of ``numbers`` (NOBODY aside)."""
    mask = 0
    for i in numbers:
        if i != NOBODY:
            mask |= 1 << i
    return mask


def _slots_of(roster: _Roster, chosen: list[int]) -> dict[str, str | None]:
    """The five skater slots of ``chosen`` and G (set after), in slot order: a copy of
    ``EMPTY_SLOTS`` with the chosen put in (a small dict's copy clones its table; a dict
    made by keys inserted each key anew, about twice the instructions)."""
    ids = roster.ids
    slots = EMPTY_SLOTS.copy()
    for k in range(5):
        i = chosen[k]
        if i != NOBODY:
            slots[SLOT_ORDER[k]] = ids[i]
    return slots


def _moved(current: list[int], chosen: list[int]) -> bool:
    """Someone chosen for a skater slot other than who stands there: then the six slots
    made are not the team's (a number is one name; NOBODY an empty slot, or a name the
    roster lacks, never a name chosen), and the two dicts need no comparing (about 400
    instructions a change: most changes move someone)."""
    for k in range(5):
        if chosen[k] != current[k]:
            return True
    return False


def _kept(team: TeamState, current: list[int], chosen: list[int]) -> bool:
    """The five chosen are the five standing, slot for slot, and the G slot holds the
    goalie of record: the six slots ``_slots_of`` would make, with him in G, are the
    team's as they stand (a slot read as empty holds None, not a name undressed)."""
    slots = team.slots
    if len(slots) != 6 or slots.get("G") != team.goalie:
        return False
    for k in range(5):
        if chosen[k] != current[k]:
            return False
        if current[k] == NOBODY and slots.get(SLOT_ORDER[k], "") is not None:
            return False  # a name the roster lacks, or no such slot
    return True


class _Habits:
    """The settings of a side's policy the coach reads at every decision, read once: a
    policy is a msgspec Struct, and compiled code reads each of its fields through a
    generic look-up (a policy is frozen: these never go stale)."""

    __slots__ = ("change_at_stoppage", "pull_goalie_at", "pull_when_behind")

    def __init__(self, policy: CoachPolicy) -> None:
        self.change_at_stoppage: int = policy.change_at_stoppage
        self.pull_goalie_at: int = policy.pull_goalie_at
        self.pull_when_behind: int = policy.pull_when_behind


def _put(chosen: list[int], open_slots: list[int], at: int, ready: int, i: int) -> int:
    """Skater ``i`` takes the slot open at ``at``, which is no longer open (marked NOBODY,
    the list is not shortened); the ready skaters without him are returned."""
    chosen[open_slots[at]] = i
    open_slots[at] = NOBODY
    return ready & ~(1 << i)


def _place_unit(chosen: list[int], open_slots: list[int], unit: list[int], roster: _Roster,
                ready: int, five: bool) -> int:
    """The unit's ready members take the open slots of their places in it (15.10 at 5 on
    5: not a forward out of position while one rated for the slot is ready); the skaters
    still ready after are returned."""
    for at in range(len(open_slots)):
        k = open_slots[at]
        if k == NOBODY:
            continue  # filled
        i = unit[_place_in_unit(k)]
        if i != NOBODY and ready & (1 << i) and not (
                five and _misplaced_ready(roster, ready, i, k)):
            ready = _put(chosen, open_slots, at, ready, i)
    return ready


def _any_open(open_slots: list[int]) -> bool:
    for k in open_slots:
        if k != NOBODY:
            return True
    return False


# compiled (setup.py), still a base class: a test or a tool may subclass the default coach
@mypyc_attr(allow_interpreted_subclasses=True)
class DefaultCoach:
    """A deterministic coach: the same state always gets the same decisions."""

    def __init__(self, home: CoachPolicy = DEFAULT_POLICY,
                 away: CoachPolicy = DEFAULT_POLICY) -> None:
        self.policies = {"home": home, "away": away}
        self._home_habits, self._away_habits = _Habits(home), _Habits(away)
        self._rosters: dict[int, _Roster] = {}
        self._home_roster: _Roster | None = None  # the last asked, for each side
        self._away_roster: _Roster | None = None
        self._cited_by: Ruleset | None = None  # the ruleset 6.41 was last cited for
        self._cited_641 = "6.41"

    def _habits(self, side: str) -> _Habits:
        return self._home_habits if side == "home" else self._away_habits

    def _roster(self, team: TeamState) -> _Roster:
        """The team's roster, built once per game (a coach may coach several games): it
        holds the game's own players and team, so it is never another game's."""
        home = team.side == "home"
        roster = self._home_roster if home else self._away_roster
        if roster is None or roster.players is not team.players or roster.team is not team.team:
            roster = self._rosters.get(id(team.players))
            if roster is None or roster.players is not team.players \
                    or roster.team is not team.team:
                if len(self._rosters) > 8:
                    self._rosters.clear()
                roster = self._rosters[id(team.players)] = _Roster(team)
            if home:
                self._home_roster = roster
            else:
                self._away_roster = roster
        return roster

    def _rule(self, ruleset: Ruleset) -> str:
        """6.41 as ``ruleset`` cites it (a frozen ruleset cites a text always the same)."""
        if ruleset is not self._cited_by:
            self._cited_by, self._cited_641 = ruleset, ruleset.cite("6.41")
        return self._cited_641

    def tactics(self, state: GameState) -> list[TacticDeclared]:
        """At a stoppage: a tactic the policy asks for, from the 3rd period's given
        sequence, when behind or ahead (pressure offense 19.00, checking game 20.00)."""
        declared = []
        for side in ("home", "away"):
            policy = self.policies[side]
            if state.period != 3 or state.sequence < policy.tactic_from:
                continue
            lead = state.team(side).score - state.team(other(side)).score
            wanted = policy.tactic_when_behind if lead < 0 else (
                policy.tactic_when_ahead if lead > 0 else "none")
            if wanted == "none" or not state.uses(TACTIC_OPTIONS[wanted]):
                continue  # FaceOff 19.000/20.000: only when the game turned it on
            if state.team(side).tactic != wanted:
                declared.append(TacticDeclared(side=side, tactic=wanted,
                                               rule=state.ruleset.cite(TACTIC_RULES[wanted])))
        return declared

    def lines(self, state: GameState) -> list[LinesChanged]:
        queue = state.queue
        if queue and queue[0].kind == "extra_skater":
            return [self.extra_skater(state, queue[0].side)]
        on_the_fly = state.puck is not None
        changes: list[LinesChanged] = []
        self._change(state, "home", on_the_fly, changes)  # home, then away, written out
        self._change(state, "away", on_the_fly, changes)
        return changes

    def _change(self, state: GameState, side: str, on_the_fly: bool,
                changes: list[LinesChanged]) -> None:
        if on_the_fly and self._settled(state, side):
            return
        team = state.team(side)
        roster = self._roster(team)
        bench, current, chosen = self._pick(state, side, roster, on_the_fly)
        if _kept(team, current, chosen) and not self._may_pull(state, side, team):
            return  # the six slots as they stand (a third of the choices): no dict made
        slots = _slots_of(roster, chosen)
        slots["G"] = self._net(state, side, slots, bench)
        if _moved(current, chosen) or slots != team.slots:
            # Made with the fields in declared order (msgspec matches each keyword to its
            # field by name; tests/test_coach.py holds the order).
            changes.append(LinesChanged(side,  # side
                                        slots,  # slots
                                        on_the_fly,  # on_the_fly
                                        self._rule(state.ruleset)))  # rule

    def _may_pull(self, state: GameState, side: str, team: TeamState) -> bool:
        """Whether the net can be other than the goalie of record (``_net``'s common case
        is not: it is late in the third, or he is already pulled)."""
        return team.pulled or (state.period == 3
                               and state.sequence >= self._habits(side).pull_goalie_at)

    def _settled(self, state: GameState, side: str) -> bool:
        """On the fly, nothing to do: every wanted slot is filled by a player who may stay,
        no other slot is, the goalie is in, and it is not yet time to pull him (the common
        case, kept fast)."""
        team = state.team(side)
        if self._may_pull(state, side, team):
            return False
        players, slots = team.players, team.slots
        wanted = _wanted(state.skaters_allowed(side))
        if len(wanted) == 5:  # every slot wanted (the common case): no slot looked up in it
            for slot in SLOT_ORDER:
                pid = slots.get(slot)
                if pid is None:
                    return False
                status = players[pid]
                if status.out or status.stint >= MAX_STINT:
                    return False
            return True
        for k in range(5):
            pid = slots.get(SLOT_ORDER[k])
            if not number_listed(wanted, k):
                if pid:
                    return False  # 15.00: a slot that stays empty at this strength
            elif pid is None:
                return False
            else:
                status = players[pid]
                if status.out or status.stint >= MAX_STINT:
                    return False
        return True

    def choose(self, state: GameState, side: str, on_the_fly: bool) -> dict[str, str | None]:
        roster = self._roster(state.team(side))
        bench, _, chosen = self._pick(state, side, roster, on_the_fly)
        slots = _slots_of(roster, chosen)
        slots["G"] = self._net(state, side, slots, bench)
        return slots

    def _pick(self, state: GameState, side: str, roster: _Roster,
              on_the_fly: bool) -> tuple[_Bench, list[int], list[int]]:
        """The bench, who stands in each skater slot now and who is chosen for each, by
        number (NOBODY: empty)."""
        team = state.team(side)
        stay = self._habits(side).change_at_stoppage
        # Who stands in each skater slot now, by number (NOBODY: empty); with a sixth
        # attacker, who is on the ice (TeamState.skaters_on_ice).
        index, slots_now = roster.index, team.slots
        current = [_number(index, slots_now.get("LW")), _number(index, slots_now.get("C")),
                   _number(index, slots_now.get("RW")), _number(index, slots_now.get("LD")),
                   _number(index, slots_now.get("RD"))]  # made whole: no five appends
        on_ice = _mask(current)
        extra = slots_now["G"] if team.pulled else None
        if extra:
            on_ice |= _mask([index.get(extra, NOBODY)])
        bench = _Bench(roster, stay, on_ice, state.draft_league)
        puck = state.puck
        carrier = index.get(puck[1], NOBODY) if puck is not None and puck[0] == side else NOBODY
        limit = MAX_STINT if on_the_fly else stay
        wanted = _wanted(state.skaters_allowed(side))
        five = len(wanted) == 5 and state.skaters_allowed(other(side)) == 5
        statuses = roster.statuses
        chosen = [NOBODY, NOBODY, NOBODY, NOBODY, NOBODY]  # the kept, then the placed
        for k in wanted:
            i = current[k]
            if i == NOBODY:
                continue
            status = statuses[i]
            if not status.out and (i == carrier or (
                    status.stint < limit and not (five and self._misplaced(bench, i, k)))):
                chosen[k] = i
        if carrier != NOBODY and carrier not in chosen \
                and roster.ids[carrier] != slots_now.get("G"):
            self._carrier_stays(roster, current, wanted, chosen, carrier)
        self._fill(state, side, wanted, chosen, bench, five)
        return bench, current, chosen

    @staticmethod
    def _carrier_stays(roster: _Roster, current: list[int], wanted: list[int],
                       chosen: list[int], carrier: int) -> None:
        """6.41: the puck carrier cannot be changed: his slot if it is wanted, else a free
        one (15.00: his slot has gone, a penalty ended or began mid-play), else the slot
        of the most tired of the others, who gives way."""
        home_slot = next(k for k in range(5) if current[k] == carrier)
        free = [k for k in wanted if chosen[k] == NOBODY]
        if home_slot in wanted:
            target = home_slot
        elif free:
            target = free[0]
        else:
            statuses = roster.statuses
            target = max(wanted, key=lambda k: (statuses[chosen[k]].stint, k < 3))
        chosen[target] = carrier

    @staticmethod
    def _misplaced(bench: _Bench, i: int, k: int) -> bool:
        """15.10: a forward out of position while a forward rated for the slot rests on
        the bench gives way."""
        roster = bench.roster
        return roster.out_of_position(i, k) and bool(bench.rested() & roster.rated[k])

    def _fill(self, state: GameState, side: str, wanted: list[int], chosen: list[int],
              bench: _Bench, five: bool) -> None:
        """Fill the wanted slots ``chosen`` leaves open."""
        forward_slots: list[int] = []
        defense_slots: list[int] = []
        for k in wanted:
            if chosen[k] == NOBODY:
                (forward_slots if k < 3 else defense_slots).append(k)
        if not forward_slots and not defense_slots:
            return  # every wanted slot kept: nobody to choose
        roster = bench.roster
        ready = bench.fit() & ~_mask(chosen)  # fit and not placed yet
        strength = state.strength(side)
        if forward_slots:
            ready = self._place(chosen, forward_slots, roster.forward_units,
                                roster.forward_members, bench, ready, strength, five)
        if defense_slots:
            self._place(chosen, defense_slots, roster.defense_units, roster.defense_members,
                        bench, ready, strength, False)

    @staticmethod
    def _place(chosen: list[int], open_slots: list[int], units: list[list[int]],
               members: list[list[int]], bench: _Bench, ready: int, strength: str,
               five: bool) -> int:
        """Fill ``open_slots`` from the best-scored units first, then from anyone rested;
        the skaters still ready after are returned."""
        roster = bench.roster
        # Every unit scored before any is placed, the best first (ties in roster order).
        # The best unit fills the open slots at most changes: it is found in one walk of
        # the scores (no list of boxed floats made, no second walk); the others are
        # scored again, from the same ready skaters, only when it leaves a slot open.
        bonus = _bonus(roster, strength)
        scored = ready
        best, best_score = NOBODY, 0.0
        for at in range(len(members)):
            score = _unit_score(members[at], roster, scored, bonus)
            if best == NOBODY or score > best_score:
                best, best_score = at, score
        if best != NOBODY:  # a team with no lines (or pairs) has none to send
            ready = _place_unit(chosen, open_slots, units[best], roster, ready, five)
            if not _any_open(open_slots):
                return ready
        scores = [_unit_score(unit, roster, scored, bonus) for unit in members]
        used = 0 if best == NOBODY else 1 << best
        for _ in range(len(scores) - 1):
            best = _next_best(scores, used)
            used |= 1 << best
            ready = _place_unit(chosen, open_slots, units[best], roster, ready, five)
            if not _any_open(open_slots):
                return ready
        # Anyone rested who can play: a forward for a forward slot first (15.10).
        for at in range(len(open_slots)):
            k = open_slots[at]
            if k != NOBODY:
                i = _freshest_rested(bench, ready, k)
                if i != NOBODY:
                    ready = _put(chosen, open_slots, at, ready, i)
        for at in range(len(open_slots)):  # nobody rested: the freshest available (R-6.41a)
            k = open_slots[at]
            if k != NOBODY:
                i = _freshest_left(bench, _mask(chosen))
                if i == NOBODY:
                    raise IndexError(f"no skater left for {SLOT_ORDER[k]}")
                ready = _put(chosen, open_slots, at, ready, i)
        return ready

    def extra_skater(self, state: GameState, side: str) -> LinesChanged:
        """14.60: the other team is called for a delayed penalty; the goalie comes off for
        the rested skater with the best N range (else the freshest, R-6.41a)."""
        team = state.team(side)
        slots = self.choose(state, side, on_the_fly=True)  # the five, as on any change
        taken = set(slots.values())
        free = _not_barred([p for p, s in team.players.items()
                            if isinstance(s.card, Skater) and not s.out and p not in taken],
                           team.players, set(team.skaters_on_ice()))
        on_ice = set(team.skaters_on_ice())
        rested = [p for p in free if p not in on_ice and team.players[p].rest >= REST_SEQUENCES]
        if rested:
            extra = max(rested, key=lambda p: (team.card(p).n, p))
        else:
            extra = min(free, key=lambda p: (team.players[p].stint, -team.players[p].rest, p))
        return LinesChanged(side=side, slots={**slots, "G": extra}, on_the_fly=True,
                            rule=state.ruleset.cite("14.60"))

    def _net(self, state: GameState, side: str, slots: dict[str, str | None],
             bench: _Bench) -> str | None:
        team = state.team(side)
        habits = self._habits(side)
        late = state.period == 3 and state.sequence >= habits.pull_goalie_at
        if not late and not team.pulled:
            return team.goalie  # the common case: neither branch below applies
        behind = state.team(other(side)).score - team.score
        carrier = state.puck[1] if state.puck and state.puck[0] == side else None
        extra = team.slots["G"] if team.pulled else None
        # 6.40: the sixth attacker, too, leaves after five sequences unless he has the puck.
        stays = bool(extra) and not team.players[extra].out and extra not in slots.values() \
            and (extra == carrier or team.players[extra].stint < MAX_STINT)
        if late and 1 <= behind <= habits.pull_when_behind and state.strength(side) != "sh":
            if stays:
                return extra
            if (skater := _sixth_attacker(team, slots, bench)) is not None:
                return skater
        if team.pulled and state.puck is not None:
            # 6.41: a goalie who left on the fly returns only after a stoppage.
            if stays:
                return extra
            if (skater := _sixth_attacker(team, slots, bench)) is not None:
                return skater
            return extra if extra not in slots.values() else team.goalie
        return team.goalie

    def shootout(self, state: GameState) -> ShootoutOrderChosen:
        """21.00: the best shootout ratings shoot; the home team chooses to shoot first."""
        def shooters(side: str) -> list[str]:
            team = state.team(side)
            pool = [p for p, s in team.players.items() if isinstance(s.card, Skater)
                    and s.out not in ("game",)]
            named = [p for p in self.policies[side].shootout_shooters if p in pool]
            rest = sorted((p for p in pool if p not in named), key=lambda p: (-team.card(p).so, p))
            return named + rest

        first = "home" if self.policies["home"].shoot_first else "away"
        return ShootoutOrderChosen(first=first, home_shooters=shooters("home"),
                                   away_shooters=shooters("away"),
                                   rule=state.ruleset.cite("21.00"))
