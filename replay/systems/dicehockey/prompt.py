"""The prompt coach of ``rinklog play`` for DICE Hockey: two ten-sided dice typed as
``red white``, and the coach's choices at the table (lines, dumps, the time out, the
goalie, the lineup cards when 10 lets them be re-set, who takes a tied penalty, the
delayed penalty's extra attacker, shootout shooters), each checked by the rules before
it is kept."""

from __future__ import annotations

import copy

import msgspec

from engine.dicehockey.coach import DefaultCoach
from engine.dicehockey.dice import parse_roll
from engine.dicehockey.explain import roll_for
from engine.dicehockey.game import check_choice, evolve
from engine.dicehockey.lines import LINEUP_WHEN, extra_attacker, rearranged, slots_for
from engine.dicehockey.penalties import free_skaters, tied
from engine.dicehockey.state import SIDES, GameState, Step, TeamState, other
from events.base import Event
from events.dicehockey import (
    DumpDeclared,
    ExtraAttackerAdded,
    GoalieChanged,
    LinesChanged,
    LineupRearranged,
    PenaltyPlayerChosen,
    ShootoutShootersChosen,
    TimeOutCalled,
)
from events.errors import IllegalChoice
from replay.systems.kit import Prompter, TableDice

HELP = ("enter = as shown (once you chose: done); 'none' = no change; 'lines home|away F D' "
        "(forward line 1-4, pair 1-3; once a team a window: away decides first, home may "
        "answer, typed after away's); "
        "'timeout home|away' (then asked whether to add a shot/turnover); 'pull home|away "
        "[ID]' / 'back home|away' (the goalie); 'dump' (the team with the puck); lineup cards "
        "(10: between periods, at that team's time out, after its player's injury): 'cards "
        "home|away' shows them, 'swap home|away ID ID' swaps two skaters' boxes, 'lineup "
        "home|away LW,C,RW/LW,C,RW/LW,C,RW/LW,C,RW LD,RD/LD,RD/LD,RD' sets every box; dice "
        "typed here are kept for the next roll")


class PromptCoach(TableDice):
    """Dice and coach choices typed at the table; enter takes the DefaultCoach's choices.

    The person is asked at every window the rules open (9: every stoppage, a dump, and in
    play each time the puck changes hands), so a change, a dump or a goalie pull is his
    to start; each choice is judged by the rules on the game as the choices before it
    leave it, and he may go on choosing (the home team answers the away team's change)
    until enter. At a tie on Penalty Chart A (15) and a delayed penalty's extra attacker
    (22) he names the player."""

    dice = "red white"
    dice_help = "type the two ten-sided dice: red (tens), then white (ones), e.g. 4 3 for 43"

    def __init__(self, prompter: Prompter) -> None:
        super().__init__(prompter, parse_roll, roll_for)
        self.default = DefaultCoach()

    def lines(self, state: GameState) -> list[Event]:
        """The choices of a window, in the order typed; or the one pick a step waits for."""
        step = state.queue[0] if state.queue else None
        if step is not None and step.kind in ("penalty_tie", "extra_attacker"):
            return [self._pick(state, step)]
        proposal = self.default.lines(state)
        chosen: list[Event] = []
        trial = state
        while True:
            lineups = _open_lineups(trial)
            if lineups:
                self._out(f"  lineup cards may be re-set: {lineups}")
            if chosen:
                self._out("  chosen: " + "; ".join(_words(state, c) for c in chosen))
            else:
                self._out("  coach: " + ("; ".join(_words(state, c) for c in proposal)
                                         or "no change"))
            answer = self._ask("coach? [enter = " + ("done" if chosen else "as shown")
                               + ("; swap: lineup cards" if lineups else "") + "; help]")
            if answer.lower() == "help":
                self._out("  " + HELP)
                continue
            if not answer or self.dice_typed(answer):
                return _away_first(state, chosen) if chosen else proposal
            if answer.lower() == "none":
                return _away_first(state, chosen)
            choice = self._choice(trial, answer)
            if choice is None:
                continue
            kept = _countered(chosen, choice)  # home's answer replaces its first change
            problem = _twice(kept, choice)
            judged = trial if kept is chosen else _applied(state, kept)
            if problem is None:
                try:  # the rules judge it now: nothing illegal is handed to the loop
                    check_choice(judged, choice)
                except IllegalChoice as err:
                    problem = str(err)
            if problem is not None:
                self._out(f"  not allowed: {problem}")
                continue
            trial = copy.deepcopy(judged) if judged is state else judged
            evolve(trial, choice)  # the next choice is judged after this one
            chosen = [*kept, choice]

    def _pick(self, state: GameState, step: Step) -> Event:
        """15: who of the tied players took the penalty; 22: the delayed penalty's extra
        attacker. Enter takes the default coach's habit."""
        proposal = self.default.lines(state)[0]
        team = state.team(step.side)
        if isinstance(proposal, PenaltyPlayerChosen):
            players = tied(state, step.side, step.number)
            chart = "the Special Play chart's" if step.source == "special" else "Chart A's"
            question = (f"{team.team.id}: penalty on whom? {chart} #{step.number} "
                        f"({step.team}) is a tie (15)")
        else:
            kept = [state.delayed_ea] if state.delayed_ea else []  # a second call: may stay
            players = kept + free_skaters(state, step.side)
            question = (f"{team.team.id} adds an extra attacker for the delayed penalty "
                        "(22)")
        self._out("  " + ", ".join(f"{_name(team, p)} ({p})" for p in players))
        while True:
            answer = self._ask(f"{question} [enter = {proposal.player}; an id or a name]")
            if not answer or self.dice_typed(answer):
                return proposal
            if answer.lower() == "help":
                self._out("  name one of the players listed, by id or name")
                continue
            player = _player(team, players, answer)
            if player is None:
                self._out(f"  not one of them: {answer!r}")
                continue
            choice = msgspec.structs.replace(proposal, player=player)
            try:
                check_choice(state, choice)
            except IllegalChoice as err:
                self._out(f"  not allowed: {err}")
                continue
            return choice

    def _choice(self, state: GameState, answer: str) -> Event | None:
        words = answer.lower().split()
        side = words[1] if len(words) > 1 and words[1] in ("home", "away") else None
        if words[0] == "dump" and state.puck is not None:
            empty_net = state.team(other(state.puck[0])).pulled  # 22: against an empty net
            return DumpDeclared(side=state.puck[0], player=state.puck[1],
                                rule="22" if empty_net else "9")
        if words[0] == "timeout" and side:
            add = self._add_space()
            return TimeOutCalled(side=side, add_space=add, period_length=state.length + add,
                                 rule="12")
        if words[0] in ("pull", "back") and side:
            return self._goalie(state, side, words)
        if words[0] == "lines" and side and len(words) == 4 and words[2].isdigit() \
                and words[3].isdigit():
            team = state.team(side)
            forwards, defense = int(words[2]), int(words[3])
            if not (1 <= forwards <= 4 and 1 <= defense <= 3):
                self._out("  forward lines are 1-4, pairs 1-3")
                return None
            slots = slots_for(team, forwards, defense, extra_attacker(state, side),
                              state.version)
            return LinesChanged(side=side, forwards=forwards, defense=defense, slots=slots,
                                rule="9")
        if words[0] in ("cards", "swap", "lineup") and side:
            return self._lineup(state.team(side), words)
        self._out(f"  not understood: {answer!r} ('help' lists the choices)")
        return None

    def _add_space(self) -> bool:
        """12: "they can choose if they want to, to add 1 shot/turnover to the period"."""
        while True:
            answer = self._ask("add one shot/turnover to the period (12)? [y/n]").lower()
            if answer in ("y", "yes", "n", "no"):
                return answer.startswith("y")
            self._out("  y adds one shot/turnover to the period, n does not")

    def _goalie(self, state: GameState, side: str, words: list[str]) -> GoalieChanged | None:
        """22: 'pull SIDE [ID]' (the default: the free skater with the widest goal range),
        'back SIDE'."""
        team = state.team(side)
        if words[0] == "back":
            return GoalieChanged(side=side, goalie=team.goalie, pulled=False,
                                 extra_attacker=None, rule="22")
        on = set(slots_for(team, team.forwards, team.defense).values())
        free = [c.id for c in team.team.skaters if c.id not in on and c.id not in team.out]
        if not free:
            self._out("  no skater free to come on for the goalie")
            return None
        extra = max(free, key=lambda p: team.cards[p].goal)
        if len(words) > 2:
            extra = _player(team, free, " ".join(words[2:]))
            if extra is None:
                self._out(f"  not a free skater of {team.team.id}: {' '.join(words[2:])!r}")
                return None
        return GoalieChanged(side=side, goalie=team.goalie, pulled=True,
                             extra_attacker=extra, rule="22")

    def _lineup(self, team: TeamState, words: list[str]) -> LineupRearranged | None:
        """10: ``cards`` shows the lineup cards; ``swap`` and ``lineup`` re-set them."""
        if words[0] == "cards":
            self._out(f"  {team.team.id} lineup cards: {_cards(team)}")
            return None
        if words[0] == "swap" and len(words) == 4:
            strangers = [p for p in words[2:] if p not in team.cards]
            if strangers:
                goalie = any(p in team.goalies for p in strangers)
                self._out("  10: goalies cannot play another position" if goalie else
                          f"  not dressed skaters of {team.team.id}: {', '.join(strangers)}")
                return None
            return rearranged(team, words[2], words[3])
        if words[0] == "lineup" and len(words) == 4:
            forwards = [line.split(",") for line in words[2].split("/")]
            defense = [pair.split(",") for pair in words[3].split("/")]
            return LineupRearranged(side=team.side, forwards=forwards, defense=defense,
                                    rule="10")
        self._out("  'swap home|away ID ID' or 'lineup home|away "
                  "LW,C,RW/LW,C,RW/LW,C,RW/LW,C,RW LD,RD/LD,RD/LD,RD'")
        return None

    def shootout(self, state: GameState) -> ShootoutShootersChosen:
        order = self.default.shootout(state)
        while True:
            self._out(f"  shootout: home {', '.join(order.home_shooters[:3])}; away "
                      f"{', '.join(order.away_shooters[:3])}")
            answer = self._ask("shootout? [enter = as shown; 'home ID,ID,ID' or "
                               "'away ID,ID,ID']")
            if not answer or self.dice_typed(answer):
                return order
            words = answer.split()
            if len(words) == 2 and words[0] in ("home", "away"):
                named = [p for p in words[1].split(",") if p]
                team = state.team(words[0])
                bad = [p for p in named if p not in team.cards or p in team.out]
                if bad:
                    self._out(f"  not {team.team.id} skaters who can shoot: {', '.join(bad)}")
                    continue
                order = self.shooting_first(order, words[0], named)
                continue
            self._out("  enter, 'home ID,ID,ID' or 'away ID,ID,ID'")


def _open_lineups(state: GameState) -> str:
    """Whose lineup cards may be re-set now and why (10), e.g. ``ALD at its time out``."""
    return ", ".join(f"{state.team(side).team.id} {LINEUP_WHEN[state.team(side).lineup_open]}"
                     for side in SIDES if state.team(side).lineup_open and state.coach_window)


def _cards(team: TeamState) -> str:
    lines = [f"line {i} {', '.join(line)}" for i, line in enumerate(team.lines.forwards, 1)]
    pairs = [f"pair {i} {', '.join(pair)}" for i, pair in enumerate(team.lines.defense, 1)]
    return "; ".join(lines + pairs)


def _words(state: GameState, choice: Event) -> str:
    if isinstance(choice, LinesChanged):
        return (f"{state.team(choice.side).team.id} forward line {choice.forwards}, "
                f"pair {choice.defense}")
    if isinstance(choice, DumpDeclared):
        return f"{state.team(choice.side).team.id} dumps the puck"
    if isinstance(choice, TimeOutCalled):
        added = ", one shot/turnover added" if choice.add_space else ""
        return f"{state.team(choice.side).team.id} time out{added}"
    if isinstance(choice, GoalieChanged):
        what = "pulls its goalie" if choice.pulled else "puts its goalie back"
        return f"{state.team(choice.side).team.id} {what}"
    if isinstance(choice, LineupRearranged):
        return f"{state.team(choice.side).team.id} lineup cards re-set"
    if isinstance(choice, (PenaltyPlayerChosen, ExtraAttackerAdded)):
        return f"{state.team(choice.side).team.id} names {choice.player}"
    return type(choice).__name__



def _countered(chosen: list[Event], choice: Event) -> list[Event]:
    """3, 9: "The away team must make this decision first and then the home team can
    counter": a home change typed after the away team changed following home's first one
    is home's answer, in place of that first change (``chosen`` as it is otherwise)."""
    if not (isinstance(choice, LinesChanged) and choice.side == "home"):
        return chosen
    changes = [i for i, c in enumerate(chosen) if isinstance(c, LinesChanged)]
    sides = [chosen[i].side for i in changes]  # type: ignore[attr-defined]
    if sides[-2:] != ["home", "away"]:
        return chosen
    return [c for i, c in enumerate(chosen) if i != changes[-2]]


def _away_first(state: GameState, chosen: list[Event]) -> list[Event]:
    """The window's choices with the away team's line change before the home team's
    (3: the away team decides first), however they were typed; as typed when the rules
    take them only so."""
    changes = {c.side: i for i, c in enumerate(chosen) if isinstance(c, LinesChanged)}
    if not {"home", "away"} <= set(changes) or changes["away"] < changes["home"]:
        return chosen
    ordered = [c for i, c in enumerate(chosen) if i != changes["away"]]
    ordered.insert(changes["home"], chosen[changes["away"]])
    trial = copy.deepcopy(state)
    try:
        for choice in ordered:
            check_choice(trial, choice)
            evolve(trial, choice)
    except IllegalChoice:
        return chosen
    return ordered


def _applied(state: GameState, chosen: list[Event]) -> GameState:
    """The game as ``chosen`` leave it (``state`` itself when none)."""
    if not chosen:
        return state
    trial = copy.deepcopy(state)
    for choice in chosen:
        evolve(trial, choice)
    return trial


def _twice(chosen: list[Event], choice: Event) -> str | None:
    """9: one line change per team at a window (the other team may answer it)."""
    if isinstance(choice, LinesChanged) and any(
            isinstance(c, LinesChanged) and c.side == choice.side for c in chosen):
        return f"9: {choice.side} has changed its lines at this window already"
    if isinstance(choice, (DumpDeclared, TimeOutCalled, GoalieChanged)) and any(
            type(c) is type(choice) and getattr(c, "side", "") == choice.side for c in chosen):
        return f"{choice.rule}: {choice.side} has made that choice at this window already"
    return None


def _name(team: TeamState, pid: str) -> str:
    card = team.cards.get(pid)
    return card.name if card is not None else pid


def _player(team: TeamState, players: list[str], answer: str) -> str | None:
    """The one of ``players`` named by ``answer``: his id, his name or his last name."""
    text = answer.strip().lower()
    for pid in players:
        name = _name(team, pid).lower()
        if text in (pid, name, name.split()[-1]):
            return pid
    return None
