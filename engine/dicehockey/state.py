"""The state of a DICE Hockey game between two events, and the next step to play.

``GameState`` is rebuilt by folding events with ``evolve``; the rules read it and never
write it. What happens next is ``queue``: the steps an event asked for (a shot after a PS
or GS pass, a Penalty Chart B roll after Chart A, games missed after an injury...) in
order, then the one step the flow of play calls for (``flow_step``: a face-off at a dead
puck, the carrier's pass, a dump, the end of a period...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, NamedTuple

from mypy_extensions import mypyc_attr

from engine.dicehockey.cards import Charts, Goalie, Lines, Skater, Team
from engine.dicehockey.facts import SkaterFacts, read_card
from engine.dicehockey.rulesets import Ruleset

SLOTS: Final = ("LW", "C", "RW", "LD", "RD")
FORWARD_SLOTS: Final = ("LW", "C", "RW")
DEFENSE_SLOTS: Final = ("LD", "RD")
HOME: Final = "home"
AWAY: Final = "away"
SIDES: Final = (HOME, AWAY)


def other(side: str) -> str:
    """The opponents of ``side``: events.common's ``other_side``, here in a compiled module
    because the rules ask it at almost every step (an interpreted call from compiled code
    costs more than the answer)."""
    return "away" if side == "home" else "home"
# (typed as tuples of any length: compiled, a fixed-length tuple of ints is kept unboxed
# and each of its numbers boxed again at every read)
LINES: Final[tuple[int, ...]] = (1, 2, 3, 4)  # 9: "your seldom used fourth line" and the
# first three
ROTATION: Final[tuple[int, ...]] = (1, 2, 3)  # 9: the regular forward lines; the fourth
# joins if it sat a period
PAIRS: Final[tuple[int, ...]] = (1, 2, 3)
SHIFT_SPACES: Final = 2  # 9: "A line change must be made after two timing spaces"
MAX_POSSESSIONS: Final = 2  # 9: "If a line stays on the ice for more than two possessions"


@dataclass(slots=True, init=False)
class Step:
    """One thing still to happen. ``kind`` names the rule handler; the other fields are
    the context a kind needs (left empty by other kinds).

    A step is never changed once made (the flow's steps without context and the carrier's
    pass are made once and shared: ``flow_step``). It is not a frozen
    dataclass only for speed: a thousand are made a game, and a frozen one takes seven
    times as long to build in pure Python (every field set through ``object.__setattr__``).
    Its ``__init__`` is written out for the same reason: compiled (setup.py), a
    dataclass's generated one stays interpreted Python. Every argument has a default so
    that a state holding steps deep-copies compiled (as ``OnIce``)."""

    kind: str
    side: str  # whose step: the shooter's, the penalized player's, the dumping team's
    player: str  # the shooter, the penalized or injured player, the carrier
    shot: str  # shot: "PS", "GS" or "breakaway"; so_card/so_shot: the shot's kind
    source: str  # penalty_who, penalty_what, penalty_tie: "skater" or "goalie" (15)
    team: str  # penalty_what: the penalized player's side; penalty_tie: Chart A's team
    miss: str  # shot: on a missed breakaway, the other team's slot that gets the puck
    reason: str  # dump: "choice", "line_overstayed" or "21B"
    number: int  # so_card, so_shot: the round; penalty_tie: the rank; special_penalty:
    # the Special Play chart's number
    upto: int  # so_shot: the range read (00-upto)
    card: str  # so_shot: "shooter" or "goalie"
    picks: tuple[tuple[str, str], ...]  # special_penalty: (side, player) tie picks (15)

    # whether the step is played with a roll (the loop reads it at every step): worked out
    # from ``kind`` when the step is made, not a property (each read was a call through a
    # descriptor and a set look-up, about 100 instructions, 440 times a game)
    needs_roll: bool = field(compare=False, repr=False)

    def __init__(self, kind: str = "", side: str = "", player: str = "", shot: str = "",
                 source: str = "", team: str = "", miss: str = "", reason: str = "",
                 number: int = 0, upto: int = 0, card: str = "",
                 picks: tuple[tuple[str, str], ...] = ()) -> None:
        self.kind, self.side, self.player, self.shot = kind, side, player, shot
        self.source, self.team, self.miss, self.reason = source, team, miss, reason
        self.number, self.upto, self.card, self.picks = number, upto, card, picks
        self.needs_roll = kind not in NO_ROLL_STEPS


# Steps that wait for a coach: the shootout shooters (14), who takes a penalty when
# Chart A names a tie (15: "the players' coach gets to decide"), and the extra attacker of
# a delayed penalty (22: "take any player from any line").
CHOICE_STEPS: Final = frozenset({"shootout_choice", "penalty_tie", "extra_attacker"})
NO_ROLL_STEPS: Final = frozenset({"start_period", "end_period", "end_game", "assess",
                                  "special_penalty", *CHOICE_STEPS})


@dataclass(slots=True)
class Penalty:
    """A penalty being served (15, 18): killed by clears when it makes the team short,
    served in timing spaces otherwise (a fight, a misconduct); a game misconduct is the
    game (``spaces`` -1)."""

    id: int
    player: str
    kind: str
    clears_left: int
    spaces_left: int
    short: bool


# compiled (setup.py), a plain Python class: a native one cannot be copied or pickled
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Call:
    """A penalty called: on the defense it waits for the whistle (15: delayed)."""

    side: str
    player: str
    infraction: str
    kind: str  # minor, double_minor, major, misconduct, game_misconduct, fight
    rule: str = "15"


@dataclass(slots=True)
class TeamState:
    side: str
    team: Team
    cards: dict[str, Skater]
    goalies: dict[str, Goalie]
    goalie: str  # the goalie of record, in net unless ``pulled``
    lines: Lines  # 10: the lineup cards as now set (the team file's, until re-set)
    forwards: int = 1  # 9: the forward line on the ice (1-4)
    defense: int = 1  # 9: the pair on the ice (1-3)
    f_spaces: int = 0  # timing spaces the forward line has played this shift (9)
    d_spaces: int = 0
    f_possessions: int = 0  # possessions taken while the line has been on (9)
    d_possessions: int = 0
    # 9, 11: a line may not come back until each line named here has been on since
    f_waiting: dict[int, set[int]] = field(default_factory=dict)
    d_waiting: dict[int, set[int]] = field(default_factory=dict)
    # ruling R-DH-9b: the lines (pairs) in the order of their latest full shift, oldest
    # first; one that has had none is not listed (the rotation owes it most)
    f_shifts: list[int] = field(default_factory=list)
    d_shifts: list[int] = field(default_factory=list)
    fourth_played: bool = False  # 9: the fourth line had a full shift this period
    fourth_in_rotation: bool = False  # 9: it sat a period, so it starts and rotates
    pulled: bool = False  # 22: goalie pulled for ``extra_attacker``
    extra_attacker: str | None = None
    time_out: bool = False  # 12: used
    # 10: why the lineup cards may be re-set now ("period", "time_out", "injury"), until
    # the next face-off, pass or dump roll; "" when they may not
    lineup_open: str = ""
    score: int = 0
    shootout_goals: int = 0
    penalties: list[Penalty] = field(default_factory=list)
    out: dict[str, str] = field(default_factory=dict)  # player -> box, injured, ejected
    # who is on the ice as last worked out (lines.on_ice), kept with what it came from
    ice: OnIce | None = field(default=None, compare=False, repr=False)
    # the slots of every line and pair asked for while the team stands as it does
    # (lines.slots_for), with what they came from
    seen: SlotsSeen | None = field(default=None, compare=False, repr=False)
    # the forward lines and the pairs as the rotation reads them (lines.line_turns,
    # lines.pair_turns), brought up to date at each ask
    f_turns: Turns | None = field(default=None, compare=False, repr=False)
    d_turns: Turns | None = field(default=None, compare=False, repr=False)
    # ruling R-DH-9b: the full shift of the line (pair) on the ice already counted for the
    # lines waiting, the latest shifts and the fourth line (lines.shifts_taken): counting
    # it again at each later possession and space changes nothing. Cleared where a unit
    # comes on or the waits are reset (lines.apply_change, lines.rest_all).
    f_counted: bool = field(default=False, compare=False, repr=False)
    d_counted: bool = field(default=False, compare=False, repr=False)
    # whether each forward line of ``b_lines_of`` (the lineup cards they were read from)
    # has a B-stamina player (11), read once a lineup (lines._forward_waits)
    b_lines: list[bool] = field(default_factory=list, compare=False, repr=False)
    b_lines_of: Lines | None = field(default=None, compare=False, repr=False)
    # 22: the team's goons (penalty rating 15 or more), read once from ``goons_of`` (its
    # cards) by shots._goon
    goons: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    goons_of: dict[str, Skater] | None = field(default=None, compare=False, repr=False)
    # 7, 21C: the dressed skaters' ratings and passing columns as compiled fields, by id,
    # each with the card it was read from (``skater``)
    facts: dict[str, SkaterFacts] = field(default_factory=dict, compare=False, repr=False)

    def skater(self, player: str) -> SkaterFacts:
        """``player``'s card's facts (facts.py): read once a card, not a generic look-up
        of a card's field at every pass."""
        card = self.cards[player]
        found = self.facts.get(player)
        if found is None or found.card is not card:  # (a card replaced: read it again)
            found = self.facts[player] = read_card(card)
        return found

    def goalie_card(self) -> Goalie:
        return self.goalies[self.goalie]

    def men_short(self) -> int:
        """Skaters penalties take away: one per running penalty that makes the team
        short, at most two (15: 5 on 3 is the most)."""
        if not self.penalties:  # the common case, asked thousands of times a game
            return 0
        return min(2, sum(1 for p in self.penalties if p.short))

    def tired(self) -> bool:
        """9: "A line change must be made after two timing spaces": a line still on once
        its two are used pays for staying on (ruling R-DH-9a: either unit, its team)."""
        return self.f_spaces >= SHIFT_SPACES or self.d_spaces >= SHIFT_SPACES

    def f_full(self) -> bool:
        """Ruling R-DH-9b: the forward line on the ice has had a full shift (9): its two
        timing spaces, or two possessions (a third would owe a dump)."""
        return self.f_spaces >= SHIFT_SPACES or self.f_possessions >= MAX_POSSESSIONS

    def d_full(self) -> bool:
        """Ruling R-DH-9b: the pair on the ice has had a full shift (as ``f_full``)."""
        return self.d_spaces >= SHIFT_SPACES or self.d_possessions >= MAX_POSSESSIONS

    def overstayed(self) -> bool:
        """9: a line on the ice for more than two possessions must dump."""
        return self.f_possessions > MAX_POSSESSIONS or self.d_possessions > MAX_POSSESSIONS


class Turns:
    """One team's forward lines (or pairs) as the rotation reads them (9, 11;
    lines.line_turns, lines.pair_turns, lines.held).

    A plain class rather than a NamedTuple: compiled (setup.py) a NamedTuple is built by
    interpreted code. Kept in the team's state and brought up to date at each ask (four
    were made at every change the coach proposed and the rules checked); every argument
    has a default so that a state holding one deep-copies compiled (as ``OnIce``)."""

    __slots__ = ("waiting", "every", "regular", "on", "shifts", "version")

    def __init__(self, waiting: dict[int, set[int]] | None = None, every: tuple[int, ...] = (),
                 regular: tuple[int, ...] = (), on: int = 0, shifts: list[int] | None = None,
                 version: int = 0) -> None:
        self.waiting: dict[int, set[int]] = {} if waiting is None else waiting
        # whom each line that left waits for, in leaving order
        self.every = every  # all its lines (1-4) or pairs (1-3)
        self.regular = regular  # the rotation's: 1-3, and 4 once it joined; the pairs
        self.on = on  # the line on the ice
        # in the order of their latest full shift, oldest first
        self.shifts: list[int] = [] if shifts is None else shifts
        self.version = version  # the ruleset version the game was created under


@dataclass(slots=True, eq=False)
class OnIce:
    """A team's slots (lines.on_ice) and everything they were worked out from: its cards
    and lineup cards, its pawns, its extra attacker, the ruleset version, who is out and
    the penalties running. Asked about a thousand times a game, they change a few dozen
    times: ``holds`` says whether the team still stands as it did (compared, not hashed;
    a penalty's player and whether it makes the team short never change once it is in
    the box, so the penalties are compared as the same objects), ``keep`` takes a new
    answer. A dataclass made once a team (so that a state still deep-copies compiled,
    setup.py: a native class's own ``__init__`` would not), then kept up in place."""

    team: Team | None = None
    lines: Lines | None = None
    forwards: int = 0
    defense: int = 0
    extra: str | None = None
    version: int = 0
    out: dict[str, str] = field(default_factory=dict)  # copies of the team's, as they were
    penalties: list[Penalty] = field(default_factory=list)
    slots: dict[str, str | None] = field(default_factory=dict)

    def holds(self, team: TeamState, extra: str | None, version: int) -> bool:
        return (self.forwards == team.forwards and self.defense == team.defense
                and self.extra == extra and self.version == version
                and self.lines is team.lines and self.team is team.team
                # nobody out and no penalty, then or now (nearly every ask): no call
                and ((not self.out and not self.penalties and not team.out
                      and not team.penalties)
                     or _same_standing(self.out, self.penalties, team)))

    def keep(self, team: TeamState, extra: str | None, version: int,
             slots: dict[str, str | None]) -> None:
        self.team, self.lines = team.team, team.lines
        self.forwards, self.defense = team.forwards, team.defense
        self.extra, self.version = extra, version
        self.out = dict(team.out)
        self.penalties = list(team.penalties)
        self.slots = slots


def _same_standing(out: dict[str, str], penalties: list[Penalty], team: TeamState) -> bool:
    """Whether ``out`` and ``penalties`` (an answer's copies) are the team's now: nobody
    out and no penalty on either side (nearly every ask) is told without comparing."""
    now_out, now_penalties = team.out, team.penalties
    if (out or now_out) and out != now_out:
        return False
    return not (penalties or now_penalties) or penalties == now_penalties


@dataclass(slots=True, eq=False)
class SlotsSeen:
    """A team's slots for each line, pair and extra attacker asked for (lines.slots_for),
    and what every answer also comes from: its cards and lineup cards, the ruleset
    version, who is out and the penalties running (compared as ``OnIce`` compares them).
    The coach proposes a change and the rules check it: both ask the same answer, a few
    dozen different ones a game, each asked a hundred times. A dataclass for the reason
    ``OnIce`` is one."""

    team: Team | None = None
    lines: Lines | None = None
    version: int = 0
    out: dict[str, str] = field(default_factory=dict)  # copies of the team's, as they were
    penalties: list[Penalty] = field(default_factory=list)
    # by the pawns (forwards * 4 + defense) or, with an extra attacker, (forwards,
    # defense, extra)
    answers: dict[object, dict[str, str | None]] = field(default_factory=dict)
    # the answers of the team's last few other standings with the same cards, lineup
    # cards and version ((who was out, the penalties running, answers), oldest first): a
    # penalty's end brings the team back to a standing it had (15), whose answers stay
    earlier: list[tuple[dict[str, str], list[Penalty], dict[object, dict[str, str | None]]]] \
        = field(default_factory=list)

    def holds(self, team: TeamState, version: int) -> bool:
        return (self.version == version and self.lines is team.lines
                and self.team is team.team
                # nobody out and no penalty, then or now (nearly every ask): no call, as
                # ``OnIce.holds``
                and ((not self.out and not self.penalties and not team.out
                      and not team.penalties)
                     or _same_standing(self.out, self.penalties, team)))

    def restart(self, team: TeamState, version: int) -> None:
        earlier = self.earlier
        if self.team is not team.team or self.lines is not team.lines \
                or self.version != version:
            earlier.clear()
        elif self.answers:
            if len(earlier) >= SLOTS_STANDINGS_KEPT:
                earlier.pop(0)
            earlier.append((self.out, self.penalties, self.answers))
        self.team, self.lines, self.version = team.team, team.lines, version
        for index in range(len(earlier)):
            out, penalties, answers = earlier[index]
            if out == team.out and penalties == team.penalties:  # as ``holds`` compares
                del earlier[index]
                self.out, self.penalties, self.answers = out, penalties, answers
                return
        self.out = dict(team.out)
        self.penalties = list(team.penalties)
        self.answers = _standing_answers(team, version)


SLOTS_STANDINGS_KEPT: Final = 8  # a team's earlier standings whose slots stay kept

# The answers of every standing seen, shared between games and states (a line's slots are
# a pure function of the team's cards and lineup cards, the ruleset version, who is out
# and which players are in the box and whether each makes the team short), by those,
# with the cards and lineup cards themselves (so a reused ``id`` never matches). Looked
# up once when a team's standing changes (``SlotsSeen.restart``), not at each line not
# yet asked for in it: that key of eight parts, a frozenset and a tuple of the penalties
# built and hashed at 951 asks in 18 games, was 2.6% of DICE Hockey's loop.
_STANDINGS: Final[dict[tuple, tuple[Team, Lines, dict[object, dict[str, str | None]]]]] = {}
_NOBODY_OUT: Final[frozenset[str]] = frozenset()  # the common key part: one object


def _standing_answers(team: TeamState, version: int) -> dict[object, dict[str, str | None]]:
    """The answers kept for the team's standing now (empty the first time it stands so):
    each answer is added as it is first asked (lines.kept_slots), never changed."""
    key = (id(team.team), id(team.lines), version,
           frozenset(team.out) if team.out else _NOBODY_OUT,
           tuple([(p.player, p.short) for p in team.penalties]) if team.penalties else ())
    seen = _STANDINGS.get(key)
    if seen is not None and seen[0] is team.team and seen[1] is team.lines:
        return seen[2]
    if len(_STANDINGS) > 4096:  # a league's every team and standing: never in practice
        _STANDINGS.clear()
    answers: dict[object, dict[str, str | None]] = {}
    _STANDINGS[key] = (team.team, team.lines, answers)
    return answers


class Puck(NamedTuple):
    """Who has the puck: the team and the player (ids are unique only within a team)."""

    side: str
    player: str


# Each side's pucks, by player, each with the carrier's pass as a queue of one
# (``GameState.flow_queue``): made once (compiled, ``tuple.__new__`` on a NamedTuple class
# is a generic call costing about as much as the rest of a pass's evolve). One dict a
# side, chosen by comparing the side (not a dict of the two looked up first: about 140
# instructions at each of 5,000 moves in 18 games).
_HOME_HOLDINGS: Final[dict[str, tuple[Puck, tuple[Step, ...]]]] = {}
_AWAY_HOLDINGS: Final[dict[str, tuple[Puck, tuple[Step, ...]]]] = {}


def holding(side: str, player: str) -> tuple[Puck, tuple[Step, ...]]:
    """``Puck(side, player)`` and the carrier's pass (7) as a queue of one, made without
    the NamedTuple's ``__new__`` (compiled (setup.py), that is interpreted Python) and
    once a side and player: the puck moves at almost every step. Both are never changed,
    so shared; the puck's mover (puck.give_puck) takes both at once (one look-up, not one
    when the puck moves and another when the queue is next read)."""
    if side == HOME:
        holdings = _HOME_HOLDINGS
    elif side == AWAY:
        holdings = _AWAY_HOLDINGS
    else:
        return (tuple.__new__(Puck, (side, player)), (Step("pass", side=side, player=player),))
    found = holdings.get(player)
    if found is None:
        if len(holdings) > 4096:  # a league's every player: never reached in practice
            holdings.clear()
        found = holdings[player] = (tuple.__new__(Puck, (side, player)),
                                    (Step("pass", side=side, player=player),))
    return found


def puck(side: str, player: str) -> Puck:
    """``Puck(side, player)``, made once a side and player (``holding``)."""
    return holding(side, player)[0]


class Attempt(NamedTuple):
    """One shootout attempt taken (14)."""

    side: str
    scored: bool


class Modifier:
    """A number added to a roll and the reasons, one text per rule (for people only).

    A plain class rather than a NamedTuple: one is made at every pass and shot roll, and
    compiled (setup.py) a NamedTuple is built by interpreted code."""

    __slots__ = ("total", "why")

    def __init__(self, total: int, why: list[str]) -> None:
        self.total = total
        self.why = why


@dataclass(slots=True)
class Shootout:
    """A shootout (14) or its choices: shooters in order, attempts taken."""

    home: list[str] = field(default_factory=list)
    away: list[str] = field(default_factory=list)
    taken: list[Attempt] = field(default_factory=list)

    def shooters(self, side: str) -> list[str]:
        return self.home if side == "home" else self.away


@dataclass(slots=True)
class GameState:
    game_id: str
    ruleset: Ruleset
    charts: Charts
    home: TeamState
    away: TeamState
    options: frozenset[str] = frozenset()
    version: int = 0  # the ruleset version the game was created under (rulesets.VERSION_2)
    period: int = 0
    period_live: bool = False  # between PeriodStarted and PeriodEnded
    period_opened: bool = False  # the period's first face-off has been taken
    regular_length: int = 0  # 12: the teams' timing ratings added
    length: int = 0  # this period's timing spaces (a time out may add one)
    space: int = 0  # timing spaces counted this period
    puck: Puck | None = None  # None: a dead puck
    carrier_slot: str = ""  # where the carrier stood when he got it (9: change windows)
    possession_shots: int = 0  # shots of the team with the puck since it gained it (22)
    rebound: bool = False  # 8: the offense kept the puck after a save
    handlers: list[str] = field(default_factory=list)  # 7: this possession, for assists
    dump: str = ""  # a dump owed before the next pass: "choice", "line_overstayed", "21B"
    fresh_possession: bool = False  # no roll yet in this possession (9: dump at once)
    window: str = ""  # what a coach may change now: "stoppage", "dump", "puck" or ""
    coach_window: bool = False  # the puck changed hands or play stopped: coaches may act
    whistle_side: str | None = None  # 12: who had the puck when play stopped
    delayed: list[Call] = field(default_factory=list)  # 15: penalties on the defense
    delayed_ea: str | None = None  # 22: the extra attacker during a delayed penalty
    en_passes: int = 0  # 22: good passes in a row against an empty net
    pending: list[Step] = field(default_factory=list)  # steps events asked for, in order
    next_penalty_id: int = 1
    rolls: int = 0
    finished: bool = False
    decided: str = ""  # "REG", "OT" or "SO" once the game is decided
    shootout: Shootout | None = None
    # the carrier's pass (``flow_queue``) as last handed out, and the puck it is for: the
    # queue is read three times a step, the puck moves once
    pass_puck: Puck | None = field(default=None, compare=False, repr=False)
    pass_queue: tuple[Step, ...] = field(default=(), compare=False, repr=False)

    def team(self, side: str) -> TeamState:
        # the rules' own "home" and "away" (and the events' in play) are the same string
        # objects: compared by identity first, by value only for a side read from elsewhere
        # (asked about 8,000 times a game)
        if side is HOME:
            return self.home
        if side is AWAY:
            return self.away
        return self.home if side == "home" else self.away

    def uses(self, option: str) -> bool:
        return option in self.options

    def card(self, side: str, player_id: str) -> Skater:
        return self.team(side).cards[player_id]

    @property
    def queue(self) -> tuple[Step, ...]:
        """The steps still to play: those events asked for, then the flow's next one.

        A tuple: the flow's own steps come with their queue of one, made once with them
        (``flow_queue``), so the loop's read of the next step (its one read of the queue a
        step, about 440 a game) makes no list."""
        if self.finished:
            return ()
        if not self.pending:  # the common case
            return self.flow_queue()
        return tuple(self.pending) + self.flow_queue()

    def next_step(self) -> Step | None:
        """``queue[0]`` (None when the queue is empty), without making the queue: the rules
        and the coach ask it at every step."""
        if self.finished:
            return None
        return self.pending[0] if self.pending else self.flow_queue()[0]

    def flow_step(self) -> Step:
        return self.flow_queue()[0]

    def flow_queue(self) -> tuple[Step, ...]:
        """The step the flow of play calls for, as a queue of one: the steps without
        context and the carrier's pass (nine in ten) are shared, each with its queue."""
        puck = self.puck
        # the carrier's next pass, as last handed out (most asks): nothing else to read
        if puck is not None and puck is self.pass_puck and not self.dump \
                and not self.fresh_possession and self.en_passes < 2 and not self.delayed \
                and self.period_live and self.shootout is None and not self.decided \
                and self.space < self.length:
            return self.pass_queue
        if self.shootout is not None:
            return (_shootout_step(self),)
        if not self.period_live:
            return _END_GAME if self.decided else _START_PERIOD
        delayed = self.delayed
        if delayed and (puck is None or puck[0] == delayed[0].side
                        or self.space >= self.length):
            return (Step("assess", side=delayed[0].side),)
        if self.decided or self.space >= self.length:
            return _END_PERIOD  # 13: an overtime goal ends it at once
        if puck is None:
            return _FACEOFF
        side, player = puck[0], puck[1]  # (indexed: unpacking a NamedTuple is generic)
        # 9, ruling R-DH-9e: a unit on for more than two possessions dumps at once
        dump = self.dump or ("line_overstayed" if self.fresh_possession
                             and self.team(side).overstayed() else "")
        if dump:
            return (Step("dump", side=side, player=player, reason=dump),)
        if self.en_passes >= 2:  # 22: two good passes against an empty net
            return (Step("en_attempt", side=side, player=player),)
        if self.pass_puck is not puck:  # (a puck not set by puck.give_puck: a test's)
            self.pass_puck, self.pass_queue = puck, holding(side, player)[1]
        return self.pass_queue

    @property
    def overtime(self) -> bool:
        return self.period >= 4


# The flow's steps without context, made once, each as a queue of one: a step is never
# changed once made, and the queue is read several times a step (compiled, making a Step
# or a list costs more than reading it).
_END_GAME: Final = (Step("end_game"),)
_START_PERIOD: Final = (Step("start_period"),)
_END_PERIOD: Final = (Step("end_period"),)
_FACEOFF: Final = (Step("faceoff"),)
def _shootout_step(state: GameState) -> Step:
    shootout = state.shootout
    assert shootout is not None
    if not shootout.home:
        return Step("shootout_choice")
    if state.decided:
        return Step("end_game")
    n = len(shootout.taken)
    side = "away" if n % 2 == 0 else "home"  # ruling R-DH-14b: the away team shoots first
    shooters = shootout.shooters(side)
    return Step("so_card", side=side, player=shooters[(n // 2) % len(shooters)],
                shot="shootout", number=n // 2 + 1)


__all__ = ["CHOICE_STEPS", "NO_ROLL_STEPS", "Attempt", "Call", "GameState", "Modifier", "OnIce",
           "Penalty", "Puck", "holding", "puck", "Shootout", "Step", "TeamState", "Turns", "other"]
