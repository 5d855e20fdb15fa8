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
from engine.bones.lines import skater_slots
from engine.bones.policy import DEFAULT_POLICY as DEFAULT_POLICY
from engine.bones.policy import PULL_AT as PULL_AT
from engine.bones.policy import STOPPAGE_CHANGE as STOPPAGE_CHANGE
from engine.bones.policy import CoachPolicy as CoachPolicy
from engine.bones.state import (
    SKATER_SLOTS,
    TACTIC_OPTIONS,
    TACTIC_RULES,
    GameState,
    PlayerStatus,
    TeamState,
    other,
)
from engine.bones.timing import MAX_STINT, REST_SEQUENCES
from events.bones import LinesChanged, ShootoutOrderChosen, TacticDeclared

FORWARDS: Final = ("LW", "C", "RW")
# The skater slots as a variable-length tuple: compiled, a loop over it indexes it natively
# (a loop over the Final one builds the tuple and iterates it generically each time).
SLOT_ORDER: Final[tuple[str, ...]] = SKATER_SLOTS


class _Roster:
    """What the coach reads of one team that never changes during a game: its skaters in
    dressing order, its lines as slot -> player units, the forwards rated for each forward
    slot (15.10), each skater's positions and shift rating (6.40), and his unit bonuses on
    the power play and the penalty kill."""

    __slots__ = ("players", "skaters", "statuses", "forward_units", "defense_units",
                 "forward_scored", "defense_scored", "rated", "positions", "defensemen",
                 "shift", "pp_bonus", "pk_bonus")

    def __init__(self, team: TeamState) -> None:
        self.players = team.players  # the game's own dict: a roster is for its game only
        cards = {pid: s.card for pid, s in team.players.items() if isinstance(s.card, Skater)}
        self.skaters: tuple[str, ...] = tuple(cards)
        # The skaters' statuses in the same order: the game's own, changed in place.
        self.statuses = [team.players[pid] for pid in self.skaters]
        lines = team.team.lines
        self.forward_units = tuple(dict(zip(FORWARDS, line, strict=True)) for line in lines.forwards)
        self.defense_units = tuple(dict(zip(("LD", "RD"), pair, strict=True))
                                   for pair in lines.defense)
        facts = {pid: team.players[pid].facts() for pid in self.skaters}
        self.rated = {slot: frozenset(pid for pid, f in facts.items()
                                      if not f.defenseman and slot in f.positions)
                      for slot in FORWARDS}
        self.positions = {pid: f.positions for pid, f in facts.items()}
        self.defensemen = frozenset(pid for pid, f in facts.items() if f.defenseman)
        self.shift = {pid: c.shift for pid, c in cards.items()}
        self.pp_bonus = {pid: c.assist for pid, c in cards.items()}
        self.pk_bonus = {pid: c.defense + 3 * c.ace_pk for pid, c in cards.items()}
        self.forward_scored = [self._scored(unit) for unit in self.forward_units]
        self.defense_scored = [self._scored(unit) for unit in self.defense_units]

    def _scored(self, unit: dict[str, str]) -> _Unit:
        """The unit's dressed skaters, as its score reads them (no one else is ever
        ready)."""
        ids = [pid for pid in unit.values() if pid in self.shift]
        return _Unit([self.players[pid] for pid in ids], [self.shift[pid] for pid in ids],
                     [self.pp_bonus[pid] for pid in ids], [self.pk_bonus[pid] for pid in ids],
                     ids)

    def out_of_position(self, pid: str, slot: str) -> bool:
        """15.10: a forward in a forward slot he is not rated for."""
        return slot in FORWARDS and pid not in self.defensemen and slot not in self.positions[pid]


class _Unit:
    """What a unit's score reads of its members (6.40), in the unit's slot order: their
    statuses, shift ratings and power-play and penalty-kill bonuses, read once a game."""

    __slots__ = ("statuses", "shift", "pp_bonus", "pk_bonus", "ids")

    def __init__(self, statuses: list[PlayerStatus], shift: list[float], pp_bonus: list[int],
                 pk_bonus: list[int], ids: list[str]) -> None:
        self.statuses, self.shift, self.ids = statuses, shift, ids
        self.pp_bonus, self.pk_bonus = pp_bonus, pk_bonus


class _Bench:
    """One team as the coach sees it at one decision: who is on the ice, and who is fit
    to go out (rested 6.41, or on the ice for fewer than ``change_at_stoppage``
    sequences, 6.40), not hurt or in the box, not sitting out (draft rule 16). Who is
    fit is worked out when first asked: a choice that keeps its five never asks."""

    __slots__ = ("team", "roster", "stay", "_on_ice", "_fit")

    def __init__(self, team: TeamState, roster: _Roster, stay: int) -> None:
        self.team, self.roster, self.stay = team, roster, stay
        self._on_ice: set[str] | None = None
        self._fit: set[str] | None = None

    def on_ice(self) -> set[str]:
        """The skaters on the ice, worked out when first asked."""
        on_ice = self._on_ice
        if on_ice is None:
            on_ice = self._on_ice = set(self.team.skaters_on_ice())
        return on_ice

    def fit(self) -> set[str]:
        fit = self._fit
        if fit is None:
            on_ice, stay = self.on_ice(), self.stay
            statuses = self.roster.statuses
            fit = self._fit = set()
            for i, pid in enumerate(self.roster.skaters):
                s = statuses[i]
                if not s.out and (s.stint < stay if pid in on_ice
                                  else s.rest >= REST_SEQUENCES and not barred(s)):
                    fit.add(pid)
        return fit

    def freshness(self, pid: str) -> float:
        """Shifts left before his shift rating is used up (6.40)."""
        return self.roster.shift[pid] - self.team.players[pid].shifts


def _unit_score(unit: _Unit, ready: set[str], strength: str) -> float:
    """A unit's score: its ready members' mean freshness (6.40), plus one a member, plus
    their assist ratings on the power play or their defense on the penalty kill."""
    members, fresh, extra = 0, 0.0, 0
    bonus = unit.pp_bonus if strength == "pp" else unit.pk_bonus
    with_bonus = strength == "pp" or strength == "sh"
    for i, pid in enumerate(unit.ids):
        if pid in ready:
            members += 1
            fresh += unit.shift[i] - unit.statuses[i].shifts
            if with_bonus:
                extra += bonus[i]
    if not members:
        return -1e9
    score = fresh / members + members
    if with_bonus:
        score += extra
    return score


def _best_first(scores: list[float]) -> list[int]:
    """The units' indexes by score, the best first, ties in roster order (a stable sort,
    written out: a sort keyed by a bound method calls it generically for every unit)."""
    order: list[int] = []
    for i, score in enumerate(scores):
        at = len(order)
        while at > 0 and scores[order[at - 1]] < score:
            at -= 1
        order.insert(at, i)
    return order


def _among(slots: tuple[str, ...], slot: str) -> bool:
    """``slot in slots``, as a native loop (``in`` on a tuple compiled is a generic call)."""
    for one in slots:
        if one == slot:
            return True
    return False


def _misplaced_ready(roster: _Roster, ready: set[str], pid: str, slot: str) -> bool:
    """15.10: at 5 on 5 a forward plays only where he is rated while someone rated for
    the slot is ready."""
    return roster.out_of_position(pid, slot) and bool((roster.rated[slot] & ready) - {pid})


def _put(chosen: dict[str, str], open_slots: list[str], ready: set[str], slot: str,
         pid: str) -> None:
    """``pid`` takes ``slot``: the slot is no longer open, and he is no longer ready."""
    chosen[slot] = pid
    open_slots.remove(slot)
    ready.discard(pid)


def _not_barred(pool: list[str], players: dict[str, PlayerStatus],
                on_ice: set[str]) -> list[str]:
    """The pool without the bench players draft rule 16 keeps off; all of it when that
    leaves nobody (a slot is never left empty, 15.00)."""
    kept = [p for p in pool if p in on_ice or not barred(players[p])]
    return kept or pool


# compiled (setup.py), still a base class: a test or a tool may subclass the default coach
@mypyc_attr(allow_interpreted_subclasses=True)
class DefaultCoach:
    """A deterministic coach: the same state always gets the same decisions."""

    def __init__(self, home: CoachPolicy = DEFAULT_POLICY,
                 away: CoachPolicy = DEFAULT_POLICY) -> None:
        self.policies = {"home": home, "away": away}
        self._rosters: dict[int, _Roster] = {}

    def _roster(self, team: TeamState) -> _Roster:
        """The team's roster, built once per game (a coach may coach several games)."""
        roster = self._rosters.get(id(team.players))
        if roster is None or roster.players is not team.players:
            if len(self._rosters) > 8:
                self._rosters.clear()
            roster = self._rosters[id(team.players)] = _Roster(team)
        return roster

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
        if state.queue and state.queue[0].kind == "extra_skater":
            return [self.extra_skater(state, state.queue[0].side)]
        on_the_fly = state.puck is not None
        changes = []
        for side in ("home", "away"):
            if on_the_fly and self._settled(state, side):
                continue
            slots = self.choose(state, side, on_the_fly)
            if slots != state.team(side).slots:
                changes.append(LinesChanged(side=side, slots=slots, on_the_fly=on_the_fly,
                                            rule=state.ruleset.cite("6.41")))
        return changes

    def _settled(self, state: GameState, side: str) -> bool:
        """On the fly, nothing to do: every wanted slot is filled by a player who may stay,
        no other slot is, the goalie is in, and it is not yet time to pull him (the common
        case, kept fast)."""
        team = state.team(side)
        if team.pulled or (state.period == 3
                           and state.sequence >= self.policies[side].pull_goalie_at):
            return False
        players, slots = team.players, team.slots
        wanted = skater_slots(state, side)
        for slot in SLOT_ORDER:
            pid = slots.get(slot)
            if not _among(wanted, slot):
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
        team = state.team(side)
        bench = _Bench(team, self._roster(team), self.policies[side].change_at_stoppage)
        carrier = state.puck[1] if state.puck and state.puck[0] == side else None
        limit = MAX_STINT if on_the_fly else self.policies[side].change_at_stoppage
        wanted = skater_slots(state, side)
        keep: dict[str, str] = {}
        five = len(wanted) == 5 and state.skaters_allowed(other(side)) == 5
        for slot in wanted:
            pid = team.slots.get(slot)
            if not pid:
                continue
            status = team.players[pid]
            if not status.out and (status.stint < limit or pid == carrier) and (
                    pid == carrier or not (five and self._misplaced(bench, pid, slot))):
                keep[slot] = pid
        if carrier and carrier not in keep.values() and carrier != team.slots.get("G"):
            home_slot = next(s for s in SLOT_ORDER if team.slots.get(s) == carrier)
            free = [s for s in wanted if s not in keep]
            if home_slot in wanted:
                target = home_slot
            elif free:
                target = free[0]
            else:
                # 15.00: his slot has gone (a penalty ended or began mid-play) and every
                # other slot is taken: the most tired of the others gives way.
                target = max(wanted, key=lambda s: (team.players[keep[s]].stint, s in FORWARDS))
            keep[target] = carrier
        unit_changes = self._fill(state, side, wanted, keep, bench, five)
        slots: dict[str, str | None] = {s: unit_changes.get(s) for s in SLOT_ORDER}
        slots["G"] = self._net(state, side, slots, bench)
        return slots

    @staticmethod
    def _misplaced(bench: _Bench, pid: str, slot: str) -> bool:
        """15.10: a forward out of position while a forward rated for the slot rests on
        the bench gives way."""
        roster = bench.roster
        if not roster.out_of_position(pid, slot):
            return False
        players = bench.team.players
        on_ice = bench.on_ice()
        return any(q not in on_ice and not players[q].out
                   and players[q].rest >= REST_SEQUENCES and not barred(players[q])
                   for q in roster.rated[slot])

    def _fill(self, state: GameState, side: str, wanted: tuple[str, ...],
              keep: dict[str, str], bench: _Bench, five: bool) -> dict[str, str]:
        chosen = dict(keep)
        forward_slots = [s for s in wanted if s in FORWARDS and s not in chosen]
        defense_slots = [s for s in wanted if s in ("LD", "RD") and s not in chosen]
        if not forward_slots and not defense_slots:
            return chosen  # every wanted slot kept: nobody to choose
        ready = bench.fit() - set(keep.values())  # fit and not placed yet
        strength = state.strength(side)
        if forward_slots:
            self._place(chosen, forward_slots, bench.roster.forward_units,
                        bench.roster.forward_scored, bench, ready, strength, five)
        if defense_slots:
            self._place(chosen, defense_slots, bench.roster.defense_units,
                        bench.roster.defense_scored, bench, ready, strength)
        return chosen

    @staticmethod
    def _place(chosen: dict[str, str], open_slots: list[str],
               units: tuple[dict[str, str], ...], scored: list[_Unit], bench: _Bench,
               ready: set[str], strength: str, five: bool = False) -> None:
        """Fill ``open_slots`` from the best-scored units first, then from anyone rested;
        a player placed leaves ``ready``."""
        roster, players = bench.roster, bench.team.players
        # Every unit scored before any is placed, the best first (ties in roster order).
        scores = [_unit_score(unit, ready, strength) for unit in scored]
        for best in _best_first(scores):
            unit = units[best]
            for slot in list(open_slots):
                pid = unit.get(slot)
                if pid is None and slot == "C" and "C" not in unit:
                    continue
                if pid is None:
                    pid = unit.get("C") if slot in ("LW", "RW") else unit.get("LW")
                if pid and pid in ready and not (five and _misplaced_ready(roster, ready, pid,
                                                                            slot)):
                    _put(chosen, open_slots, ready, slot, pid)
            if not open_slots:
                return
        # Anyone rested who can play: a forward for a forward slot first (15.10).
        for slot in list(open_slots):
            want_d = slot in ("LD", "RD")
            pool = sorted(ready, key=lambda p: ((p in roster.defensemen) != want_d,
                                                slot not in roster.positions[p],
                                                -bench.freshness(p), p))
            if pool:
                _put(chosen, open_slots, ready, slot, pool[0])
        for slot in list(open_slots):  # nobody rested: the freshest available (R-6.41a)
            placed = set(chosen.values())
            pool = _not_barred([p for p in roster.skaters if not players[p].out
                                and p not in placed], players, bench.on_ice())
            pool.sort(key=lambda p: (players[p].stint, -players[p].rest, p))
            _put(chosen, open_slots, ready, slot, pool[0])

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
        behind = state.team(other(side)).score - team.score
        policy = self.policies[side]
        late = state.period == 3 and state.sequence >= policy.pull_goalie_at
        carrier = state.puck[1] if state.puck and state.puck[0] == side else None
        extra = team.slots["G"] if team.pulled else None
        # 6.40: the sixth attacker, too, leaves after five sequences unless he has the puck.
        stays = bool(extra) and not team.players[extra].out and extra not in slots.values() \
            and (extra == carrier or team.players[extra].stint < MAX_STINT)

        def sixth_attacker() -> str | None:
            """The fit skater not in a slot with the best N range (10.10), if any."""
            taken = set(slots.values())
            pool = [p for p in bench.roster.skaters if p in bench.fit() and p not in taken]
            return max(pool, key=lambda p: (team.card(p).n, p)) if pool else None

        if late and 1 <= behind <= policy.pull_when_behind and state.strength(side) != "sh":
            if stays:
                return extra
            if (skater := sixth_attacker()) is not None:
                return skater
        if team.pulled and state.puck is not None:
            # 6.41: a goalie who left on the fly returns only after a stoppage.
            if stays:
                return extra
            if (skater := sixth_attacker()) is not None:
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
