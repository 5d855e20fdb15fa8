"""The state of a Hockey Bones game between two events, and the steps still to play.

``GameState`` is rebuilt by folding events with ``evolve``; the rules read it and never
write it. ``queue`` holds what happens next: each step is decided with one roll (or
none), and the events that decision yields put the following steps in the queue.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal, NamedTuple, cast

from mypy_extensions import mypyc_attr

from engine.bones.cards import Charts, Goalie, Skater, Team
from engine.bones.rulesets import UNUSED_IN_DRAFT_LEAGUES, Citations, Ruleset

SKATER_SLOTS: Final = ("LW", "C", "RW", "LD", "RD")
FORWARD_SLOTS: Final = ("LW", "C", "RW")
SIDES: Final = ("home", "away")


def other(side: str) -> str:
    """The opponents of ``side``: events.common's ``other_side``, here in a compiled module
    because the rules ask it at almost every step (an interpreted call from compiled code
    costs more than the answer)."""
    return "away" if side == "home" else "home"


def is_defenseman(card: Skater) -> bool:
    """The card's ``is_defenseman``, here compiled: a card's property is interpreted Python
    and the rules ask it at every action, shot and line change."""
    return "D" in card.positions


REGULATION_SEQUENCES: Final = 50  # 6.00: three 20-minute periods of 24-second sequences
OVERTIME_SEQUENCES: Final = 12  # 6.00: a 5-minute regular-season overtime
SECONDS_PER_SEQUENCE: Final = 24
REST_SEQUENCES: Final = 3  # 6.41: a skater rests at least 3 sequences before he returns
NOBODY_SHORT: Final = (0, 0)
# The card classes (cards.py defines msgspec types and is not compiled) as Final aliases:
# compiled, an imported name is looked up in this module's dictionary at every use.
_SKATER_CARD: Final = Skater
_GOALIE_CARD: Final = Goalie



class CardFacts:
    """What the rules ask of a player's card again and again, read from it once: a card
    is a msgspec Struct, and compiled code reads each of its attributes through a generic
    look-up. Kept with the card it was read from (``PlayerStatus.facts``)."""

    __slots__ = ("card", "skater", "goalie", "defenseman", "positions", "defense", "shift",
                 "shadow", "blocker", "ace")

    def __init__(self, card: Skater | Goalie) -> None:
        self.card = card
        # A card's exact type first: isinstance of a msgspec card class that is not the
        # card's own goes through the class's metaclass (most cards asked are skaters).
        card_type = type(card)
        self.goalie = card_type is _GOALIE_CARD or (
            card_type is not _SKATER_CARD and isinstance(card, Goalie))
        self.skater = card_type is _SKATER_CARD or (
            card_type is not _GOALIE_CARD and isinstance(card, Skater))
        positions: frozenset[str] = frozenset()
        defense = 0
        shift = 0.0
        shadow = blocker = False
        mark = ""
        if self.skater:
            # A skater's fields read by name (a goalie's card has none of them: asked
            # with a default, each raised and caught an AttributeError, about 2,000
            # instructions; a field found that way costs about twice a plain read).
            skater = cast(Skater, card)
            positions = frozenset(skater.positions)
            defense = skater.defense
            shift, shadow, blocker = skater.shift, skater.shadow, skater.blocker
            mark = skater.faceoff
        elif not self.goalie:  # another kind of card: what it has, as any card
            shift = getattr(card, "shift", 0.0)
            shadow = getattr(card, "shadow", False)
            blocker = getattr(card, "blocker", False)
        self.positions = positions  # a skater's (15.10); a goalie's card names none
        self.defenseman = "D" in positions
        self.defense = defense  # a skater's defensive rating (9.10); a goalie has none
        self.shift = shift  # the shift rating fatigue counts against (17.00)
        self.shadow = shadow  # a shadow: -2 to the attacker across from him (8.10)
        self.blocker = blocker  # B: blocks shots (10.70)
        # A skater's face-off mark as a level (7.20): 0 none, 1 A, 2 AA; a goalie none.
        self.ace = 2 if mark == "AA" else 1 if mark == "A" else 0


class SequenceCount:
    """The time sequences a team has played this game (6.10), shared by its players'
    statuses: a player's rest (6.41) is kept as this count less the count when his rest
    began, so a sequence adds one here instead of one to every player's rest."""

    played: int

    def __init__(self) -> None:
        self.played = 0


@dataclass(slots=True)
class PlayerStatus:
    """What the rules track of a dressed player during the game."""

    card: Skater | Goalie
    stint: int = 0  # consecutive sequences on the ice now (6.40)
    # ``rest`` (6.41: sequences since he last left the ice) is ``_count.played - rest_from``:
    # a sequence on the ice moves ``rest_from`` up by one (his rest stays), a sequence off
    # it moves nothing (his rest grows by one). Rest starts at 99 (the count at 0).
    rest_from: int = -99
    shifts: float = 0.0  # shifts charged so far (6.40, 17.00)
    modifier: int = 0  # cumulative injury penalty to numeric and P codes (18.10)
    out: str = ""  # "" available, "box", "period" (injured), "game"
    # Draft rule 16, set only in a draft league's game (engine/bones/draft.py): this stint
    # had a special-teams sequence; his card is turned over (he sits out his next shift);
    # the shifts he has played in a row (each begun after less than 3 sequences of rest).
    special: bool = False
    sit_out: bool = False
    run: int = 0
    _facts: CardFacts | None = field(default=None, compare=False, repr=False)
    # The team's count of sequences when his last sequence was counted (6.40): a player
    # named twice in a sequence (a line-up the rules refuse) is counted once.
    counted_at: int = field(default=-1, compare=False, repr=False)
    # His team's count of sequences played (``TeamState.count``); his own when made alone.
    _count: SequenceCount = field(default_factory=SequenceCount, compare=False, repr=False)

    @property
    def rest(self) -> int:
        """Sequences since he last left the ice (6.41)."""
        return self._count.played - self.rest_from

    @rest.setter
    def rest(self, value: int) -> None:
        self.rest_from = self._count.played - value

    def facts(self) -> CardFacts:
        """His card's kind and positions, read again only when the card is another."""
        facts = self._facts
        if facts is None or facts.card is not self.card:
            facts = self._facts = CardFacts(self.card)
        return facts

    @property
    def is_goalie(self) -> bool:
        return self.facts().goalie


@dataclass(slots=True, init=False)
class Penalty:
    """A penalty being served (14.10): box time for the player, short time for the team.
    Its ``__init__`` written out: compiled (setup.py), a dataclass's generated one stays
    interpreted Python, about 4,900 instructions a penalty made with keywords (a native
    one, about 300)."""

    id: int
    side: str
    player: str
    served_by: str | None
    kind: str
    box_left: int
    short_left: int
    releasable: bool  # a minor's man-short time ends on a power-play goal (14.20)
    short: int  # man-short sequences assessed: a double minor's second minor is
    # short when they are more than one minor's (14.20 D, G), not for F (ruling R-14.20b)

    def __init__(self, id: int, side: str, player: str, served_by: str | None, kind: str,
                 box_left: int, short_left: int, releasable: bool, short: int = 0) -> None:
        self.id, self.side, self.player, self.served_by = id, side, player, served_by
        self.kind, self.box_left, self.short_left = kind, box_left, short_left
        self.releasable, self.short = releasable, short


@dataclass(slots=True)
class TeamState:
    side: str
    team: Team
    players: dict[str, PlayerStatus]
    slots: dict[str, str | None]  # LW, C, RW, LD, RD and G (goalie, or a 6th skater)
    goalie: str  # the goalie of record, in net unless ``pulled``
    pulled: bool = False
    pulled_on_the_fly: bool = False  # 6.41: then the goalie waits for a stoppage
    score: int = 0
    shootout_goals: int = 0
    penalties: list[Penalty] = field(default_factory=list)
    bench_minor_at: int | None = None  # sequence of this period when a bench minor falls
    tactic: str | None = None
    # The sequences the team has played (6.10), shared with its players' statuses, which
    # keep their rest (6.41) against it: see ``PlayerStatus.rest``.
    count: SequenceCount = field(default_factory=SequenceCount, compare=False, repr=False)

    def skaters_on_ice(self) -> list[str]:
        # The filled slots, in slot order. The five slots written out and read into typed
        # locals: compiled, a loop over the Final tuple builds the tuple and walks it
        # generically, and this is asked over seven hundred times a game. Five filled and
        # no sixth attacker (nearly every ask): the list made whole, not appended to.
        slots = self.slots
        lw, c, rw = slots.get("LW"), slots.get("C"), slots.get("RW")
        ld, rd = slots.get("LD"), slots.get("RD")
        if lw and c and rw and ld and rd and not self.pulled:
            return [lw, c, rw, ld, rd]
        ids: list[str] = []
        if lw:
            ids.append(lw)
        if c:
            ids.append(c)
        if rw:
            ids.append(rw)
        if ld:
            ids.append(ld)
        if rd:
            ids.append(rd)
        if self.pulled:
            extra = slots["G"]
            if extra:
                ids.append(extra)
        return ids

    def five_skater_slots(self) -> bool:
        """Every skater slot filled (a sixth attacker in G aside)."""
        slots = self.slots
        return bool(slots.get("LW") and slots.get("C") and slots.get("RW")
                    and slots.get("LD") and slots.get("RD"))

    def man_short(self) -> int:
        """How many skaters penalties take away, at most two (ruling R-14.10a)."""
        if not self.penalties:  # the common case, asked thousands of times a game
            return 0
        short = 0
        for penalty in self.penalties:
            if penalty.short_left > 0:
                short += 1
        return min(2, short)

    def card(self, player_id: str) -> Skater | Goalie:
        return self.players[player_id].card


# compiled (setup.py), a plain Python class: a native one cannot be copied or pickled
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Retaliation:
    """A retaliation penalty still to give (14.30, 14.20 A-C): the rating scale that picks
    the retaliating player, the penalty he gets and the time his team plays short."""

    scale: Literal["MI", "MA"]
    penalty: str  # a penalty kind of 14.10: "minor", "double_minor", "major", "minor_major"
    short: int  # time sequences the team plays short (14.10)


@dataclass(slots=True, init=False)
class Step:
    """One thing still to happen. ``kind`` names the rule handler; the other fields are
    the context a kind needs, each named for what it holds (left empty by other kinds).

    A step is replaced in the queue, never changed. It is not a frozen dataclass only for
    speed: hundreds are made a game, and a frozen one takes seven times as long to build
    in pure Python (every field set through ``object.__setattr__``). Its ``__init__`` is
    written out for the same reason: compiled (setup.py), a dataclass's generated one
    stays interpreted Python."""

    kind: str
    side: str
    player: str
    number: int  # assists still to give (16.00, 21.10); the shootout round (21.00)
    # shot, goalie: the kind of shot: "normal", "R" (11.20), "N" (10.11), "rebound" or
    # "ps", a penalty shot (10.60).
    shot: str
    in_range: bool  # goalie: the shot was in the shooter's range (11.10)
    shooter: str  # rebound, rebound_lower, clearing: who took the shot (11.20)
    source: str  # penalty: whose card the penalty came off, "action" or "goalie" (14.20)
    retaliation: Retaliation | None  # retaliation; arc for MI and MA (14.30, 21.20)
    draw: str  # arc, arc_rest: what the ARC draw gives, "assist", "MI", "MA" or "GM"
    goalie: str  # assist_ranks, arc: the goalie who already has an assist (16.00, 21.10)
    incident: str  # time: whose exact time is rolled, "goal" or "penalty" (6.30)
    reason: str  # stop: why play stops, "goal" or "penalty"
    zone: str | None  # faceoff: whose defensive zone (7.30); None at centre ice
    decided: str  # end_game: "SO" or "TIE" (21.00, FaceOff 5.00); "" by the clock

    def __init__(self, kind: str, side: str = "", player: str = "", number: int = 0,
                 shot: str = "", in_range: bool = False, shooter: str = "", source: str = "",
                 retaliation: Retaliation | None = None, draw: str = "", goalie: str = "",
                 incident: str = "", reason: str = "", zone: str | None = None,
                 decided: str = "") -> None:
        self.kind, self.side, self.player, self.number = kind, side, player, number
        self.shot, self.in_range, self.shooter, self.source = shot, in_range, shooter, source
        self.retaliation, self.draw, self.goalie = retaliation, draw, goalie
        self.incident, self.reason, self.zone, self.decided = incident, reason, zone, decided

    @property
    def needs_roll(self) -> bool:
        return self.kind not in NO_ROLL_STEPS


NO_ROLL_STEPS: Final = frozenset({"start_period", "assess", "stop", "end_period", "end_game",
                           "shootout_order", "extra_skater", "arc_rest"})
# The rule section of each tactic a coach may declare at a stoppage (19.00, 20.00).
TACTIC_RULES: Final = {"pressure": "19.00", "checking1": "20.00", "checking2": "20.00"}
# The rule each tactic belongs to, an option of a FaceOff game (see GameState.uses).
TACTIC_OPTIONS: Final = {"pressure": "pressure_offense", "checking1": "checking_game",
                  "checking2": "checking_game"}
# Steps that wait for a coach's choice: the shootout shooters (21.00), and the skater who
# replaces the goalie when the other team is called for a delayed penalty (14.60).
CHOICE_STEPS: Final = frozenset({"shootout_order", "extra_skater"})


@dataclass(slots=True, init=False)
class Call:
    """A penalty called but not yet assessed: assessed all together when play stops. Its
    ``__init__`` written out, as ``Penalty``'s."""

    side: str
    player: str
    kind: str
    minutes: int
    box: int  # time sequences in the box (14.10)
    short: int  # time sequences the team plays short
    releasable: bool
    rule: str
    served_by: str | None
    time: int | None  # seconds into the period, when fixed in advance (bench minors)

    def __init__(self, side: str, player: str, kind: str, minutes: int, box: int, short: int,
                 releasable: bool, rule: str, served_by: str | None = None,
                 time: int | None = None) -> None:
        self.side, self.player, self.kind, self.minutes = side, player, kind, minutes
        self.box, self.short, self.releasable, self.rule = box, short, releasable, rule
        self.served_by, self.time = served_by, time


@dataclass(slots=True)
class ArcDraw:
    """An ARC card draw under way (FaceOff 21.000): see engine/bones/arc.py."""

    kind: str  # "assist", "MI", "MA" or "GM"
    side: str
    players: list[str]  # still to check, lowest rating first
    ratings: dict[str, int]
    total: int
    column: int  # 1, or 2 while two assists are to be given (21.10)
    left: int  # awards still to make
    awarded: list[str] = field(default_factory=list)


class Scorer(NamedTuple):
    """The goal whose assists are still to give (16.00): the scoring team and the scorer
    (player ids are unique only within a team)."""

    side: str
    player: str


class PendingShot(NamedTuple):
    """A shot owed once the puck reaches the shooter (8.10 Pf, 13.00)."""

    shooter: str
    kind: str  # the shot's kind, as ``Step.shot``


class ShootoutOrder(NamedTuple):
    """The coaches' shootout choices (21.00): who shoots first, and each side's shooters."""

    first: str
    home_shooters: list[str]
    away_shooters: list[str]

    def shooters(self, side: str) -> list[str]:
        return self.home_shooters if side == "home" else self.away_shooters


@dataclass(slots=True)
class GameState:
    game_id: str
    ruleset: Ruleset
    charts: Charts
    home: TeamState
    away: TeamState
    period: int = 0
    sequence: int = 0  # sequences used in this period
    puck: tuple[str, str] | None = None  # (side, player)
    queue: list[Step] = field(default_factory=list)
    rolls: int = 0  # dice rolled so far
    pp_passes: int = 0  # consecutive passes by a power-play team (13.00)
    dz_bonus: str = ""  # side that won a defensive-zone face-off, for one roll (7.30)
    shots_this_sequence: int = 0  # never more than two a sequence (11.20)
    calls: list[Call] = field(default_factory=list)
    delayed: bool = False  # a delayed penalty's one roll is under way (14.60)
    injured: str = ""  # player hurt on this play: check when play stops (18.00)
    injured_side: str = ""  # his team: player ids are unique only within a team
    scorer: Scorer | None = None  # the goal whose assists are open
    next_penalty_id: int = 1
    finished: bool = False
    shootout_order: ShootoutOrder | None = None
    pending_shot: PendingShot | None = None  # a shot owed once the puck moves
    penalty_time: int = 0  # exact time of the incident whose penalties are being called
    overtime: bool = True
    overtime_skaters: int = 5  # 6.00: the text's overtime is 5 on 5
    # A playoff game (the game option "playoff", ruling R-6.00c): tied after three, full
    # 50-sequence sudden-death periods at 5 on 5 until a goal; no shootout, no tie.
    playoff: bool = False
    late_penalty_house_rule: bool = False  # quick reference house rule, a game option
    # Optional rules turned on at creation (FaceOff 17.000-21.000: "fatigue", "injuries",
    # "pressure_offense", "checking_game", "arc_cards"); see ``uses``.
    options: frozenset[str] = frozenset()
    nhl_bench_range: str = ""  # FaceOff 6.00: a draft league's range for both teams
    nhl_gm_range: str = ""  # 14.51 (both texts): likewise for game misconducts
    # A Hockey Bones draft league's game (the game option "draft_league"): draft rules 16
    # and 28 in play (engine/bones/draft.py), the NHL game-misconduct range above (14.51).
    draft_league: bool = False
    arc: ArcDraw | None = None  # an ARC card draw under way (FaceOff 21.000)
    coach_window: bool = False  # a stoppage or a played sequence: lines may change
    # The ruleset's citations as ``decide`` reads them (``citations``), made on first use.
    _citations: Citations | None = field(default=None, compare=False, repr=False)

    def team(self, side: str) -> TeamState:
        return self.home if side == "home" else self.away

    def citations(self) -> Citations:
        """The ruleset's citations (``rulesets.Citations``), made again only if the state
        holds another ruleset."""
        found = self._citations
        if found is None or found.ruleset is not self.ruleset:
            found = self._citations = Citations(self.ruleset)
        return found

    def cite(self, text: str) -> str:
        """``text`` as the ruleset cites it (``Citations.cite``: FaceOff's own section
        numbers; Hockey Bones' text itself). The events ``game.decide`` would cite after
        they are made (a face-off, a pass or interception, a shot, a goalie's result) are
        made with their rule cited by this instead (see ``game._cited_when_made``). The
        citations read here as ``citations`` reads them, and a ruleset that does not cite
        answered without a call (Hockey Bones: five events in six a decision)."""
        found = self._citations
        if found is None or found.ruleset is not self.ruleset:
            found = self.citations()
        return found.cite(text) if found.cites else text

    def replace_step(self, step: Step) -> None:
        """The step at the head of the queue replaced by ``step`` (pushed on an empty
        queue): ``queue[0:1] = [step]`` without the slice and the list made for it, at
        nearly every event a play applies."""
        queue = self.queue
        if queue:
            queue[0] = step
        else:
            queue.append(step)

    def uses(self, rule: str) -> bool:
        """Whether a rule that is optional in some ruleset is in play: fatigue, injuries,
        pressure offense and the checking game stand in Hockey Bones (17.00-20.00) and
        are options of a FaceOff game (17.000-20.000); ARC cards are FaceOff's only. A
        Hockey Bones draft league uses no injuries, pressure offense or checking game
        (draft rule 28)."""
        # Read from the ruleset's citations (a compiled class: a native read; the
        # ruleset's own field is a generic look-up).
        if self.citations().optional_rules:
            return rule in self.options
        if self.draft_league and rule in UNUSED_IN_DRAFT_LEAGUES:
            return False
        return rule != "arc_cards"

    def status(self, player_id: str) -> PlayerStatus:
        found = self.home.players.get(player_id) or self.away.players.get(player_id)
        assert found is not None, player_id
        return found

    def side_of(self, player_id: str) -> str:
        return "home" if player_id in self.home.players else "away"

    @property
    def period_length(self) -> int:
        if self.period == 4 and not self.playoff:
            return OVERTIME_SEQUENCES  # 6.00: the regular season's 5-minute overtime
        return REGULATION_SEQUENCES  # 6.00; a playoff overtime too (ruling R-6.00c)

    @property
    def clock_expired(self) -> bool:
        return self.sequence >= self.period_length

    def skaters(self, side: str) -> int:
        """Skaters on the ice, counting a sixth attacker for a pulled goalie."""
        return len(self.team(side).skaters_on_ice())

    def men_short(self, side: str) -> tuple[int, int]:
        """How many skaters penalties take from ``side`` and from the other team."""
        if not self.home.penalties and not self.away.penalties:
            return NOBODY_SHORT  # the common case, asked thousands of times a game
        home, away = self.home.man_short(), self.away.man_short()
        return (home, away) if side == "home" else (away, home)

    def skaters_allowed(self, side: str) -> int:
        """Skaters a team puts on the ice (15.00): five less its men short, at least three.
        In a 3-on-3 overtime (a league option) each penalty to the other side adds one; a
        playoff overtime is played as the regulation periods, 5 on 5 (ruling R-6.00c)."""
        if not self.home.penalties and not self.away.penalties and self.period != 4:
            return 5  # nobody short in regulation, nearly every ask: men_short not asked
        mine, theirs = self.men_short(side)
        if self.period == 4 and self.overtime_skaters < 5 and not self.playoff:
            return max(3, min(5, self.overtime_skaters + theirs - mine))
        return 5 - mine

    def strength(self, side: str) -> str:
        """``pp``, ``sh`` or ``es`` for ``side`` from the penalties, not the goalie (9.00)."""
        if not self.home.penalties and not self.away.penalties:
            return "es"  # nobody short, nearly every ask: men_short not asked
        mine, theirs = self.men_short(side)
        if mine < theirs:
            return "pp"
        if mine > theirs:
            return "sh"
        return "es"

    def slot_of(self, side: str, player_id: str) -> str | None:
        for slot, pid in self.team(side).slots.items():
            if pid == player_id:
                return slot
        return None
