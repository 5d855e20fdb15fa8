"""The prompt coach of ``rinklog play`` for DICE Hockey: two ten-sided dice typed as
``red white``, and the coach's choices at the table (lines, dumps, the time out, the
goalie, the lineup cards when 10 lets them be re-set, shootout shooters), each checked
by the rules before it is kept."""

from __future__ import annotations

import copy

from engine.dicehockey.coach import DefaultCoach
from engine.dicehockey.dice import parse_roll
from engine.dicehockey.errors import IllegalChoice
from engine.dicehockey.explain import roll_for
from engine.dicehockey.game import check_choice, evolve
from engine.dicehockey.lines import LINEUP_WHEN, extra_attacker, rearranged, slots_for
from engine.dicehockey.state import SIDES, GameState, TeamState
from events.base import Event
from events.dicehockey import (
    DumpDeclared,
    GoalieChanged,
    LinesChanged,
    LineupRearranged,
    ShootoutShootersChosen,
    TimeOutCalled,
)
from replay.systems.kit import Prompter, TableDice

HELP = ("enter = as shown; 'none' = no change; 'lines home|away F D' (forward line 1-4, "
        "pair 1-3); 'timeout home|away'; 'pull home|away' / 'back home|away' (the goalie); "
        "'dump' (the team with the puck); lineup cards (10: between periods, at that team's "
        "time out, after its player's injury): 'cards home|away' shows them, 'swap home|away "
        "ID ID' swaps two skaters' boxes, 'lineup home|away LW,C,RW/LW,C,RW/LW,C,RW/LW,C,RW "
        "LD,RD/LD,RD/LD,RD' sets every box (then asked again)")


class PromptCoach(TableDice):
    """Dice and coach choices typed at the table; enter takes the DefaultCoach's choices.

    The person is asked at every stoppage, and during play whenever the default coach
    would choose something (so a dump or a change is never made behind his back)."""

    dice = "red white"
    dice_help = "type the two ten-sided dice: red (tens), then white (ones), e.g. 4 3 for 43"

    def __init__(self, prompter: Prompter) -> None:
        super().__init__(prompter, parse_roll, roll_for)
        self.default = DefaultCoach()

    def lines(self, state: GameState) -> list[Event]:
        """One choice, or (10) a time out and lineup cards re-set, each judged on the game
        as the choices before it leave it."""
        proposal = self.default.lines(state)
        if state.puck is not None and not proposal:
            return []
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
            if not answer:
                return chosen or proposal
            if answer.lower() == "none":
                return chosen
            choice = self._choice(trial, answer)
            if choice is None:
                continue
            try:  # the rules judge it now: nothing illegal is handed to the loop
                check_choice(trial, choice)
            except IllegalChoice as err:
                self._out(f"  not allowed: {err}")
                continue
            if not isinstance(choice, (TimeOutCalled, LineupRearranged)):
                return [*chosen, choice]
            trial = copy.deepcopy(trial) if trial is state else trial
            evolve(trial, choice)  # 10: the lineup cards may be re-set after a time out
            chosen.append(choice)

    def _choice(self, state: GameState, answer: str) -> Event | None:
        words = answer.lower().split()
        side = words[1] if len(words) > 1 and words[1] in ("home", "away") else None
        if words[0] == "dump" and state.puck is not None:
            return DumpDeclared(side=state.puck[0], player=state.puck[1], rule="9")
        if words[0] == "timeout" and side:
            return TimeOutCalled(side=side, add_space=True, period_length=state.length + 1,
                                 rule="12")
        if words[0] in ("pull", "back") and side:
            team = state.team(side)
            extra = None
            if words[0] == "pull":
                on = set(slots_for(team, team.forwards, team.defense).values())
                free = [c for c in team.team.skaters if c.id not in on and c.id not in team.out]
                if not free:
                    self._out("  no skater free to come on for the goalie")
                    return None
                extra = max(free, key=lambda c: c.goal).id
            return GoalieChanged(side=side, goalie=team.goalie, pulled=words[0] == "pull",
                                 extra_attacker=extra, rule="22")
        if words[0] == "lines" and side and len(words) == 4 and words[2].isdigit() \
                and words[3].isdigit():
            team = state.team(side)
            forwards, defense = int(words[2]), int(words[3])
            if not (1 <= forwards <= 4 and 1 <= defense <= 3):
                self._out("  forward lines are 1-4, pairs 1-3")
                return None
            slots = slots_for(team, forwards, defense, extra_attacker(state, side))
            return LinesChanged(side=side, forwards=forwards, defense=defense, slots=slots,
                                rule="9")
        if words[0] in ("cards", "swap", "lineup") and side:
            return self._lineup(state.team(side), words)
        self._out(f"  not understood: {answer!r} ({HELP})")
        return None

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
            if not answer:
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
        return f"{state.team(choice.side).team.id} time out"
    if isinstance(choice, GoalieChanged):
        what = "pulls its goalie" if choice.pulled else "puts its goalie back"
        return f"{state.team(choice.side).team.id} {what}"
    if isinstance(choice, LineupRearranged):
        return f"{state.team(choice.side).team.id} lineup cards re-set"
    return type(choice).__name__

