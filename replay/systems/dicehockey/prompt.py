"""The prompt coach of ``rinklog play`` for DICE Hockey: two ten-sided dice typed as
``red white``, and the coach's choices at the table (lines, dumps, the time out, the
goalie, shootout shooters), each checked by the rules before it is kept."""

from __future__ import annotations

from engine.dicehockey.coach import DefaultCoach
from engine.dicehockey.dice import parse_roll
from engine.dicehockey.errors import IllegalChoice
from engine.dicehockey.explain import roll_for
from engine.dicehockey.game import check_choice
from engine.dicehockey.lines import extra_attacker, slots_for
from engine.dicehockey.state import GameState
from events.base import Event
from events.dicehockey import (
    DumpDeclared,
    GoalieChanged,
    LinesChanged,
    ShootoutShootersChosen,
    TimeOutCalled,
)
from replay.systems.kit import Prompter, TableDice

HELP = ("enter = as shown; 'none' = no change; 'lines home|away F D' (forward line 1-4, "
        "pair 1-3); 'timeout home|away'; 'pull home|away' / 'back home|away' (the goalie); "
        "'dump' (the team with the puck)")


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
        proposal = self.default.lines(state)
        if state.puck is not None and not proposal:
            return []
        while True:
            self._out("  coach: " + ("; ".join(_words(state, c) for c in proposal)
                                     or "no change"))
            answer = self._ask("coach? [enter = as shown; help]")
            if answer.lower() == "help":
                self._out("  " + HELP)
                continue
            if not answer:
                return proposal
            if answer.lower() == "none":
                return []
            choice = self._parse(state, answer)
            if choice is None:
                continue
            try:  # the rules judge it now: nothing illegal is handed to the loop
                check_choice(state, choice)
            except IllegalChoice as err:
                self._out(f"  not allowed: {err}")
                continue
            return [choice]

    def _parse(self, state: GameState, answer: str) -> Event | None:
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
        self._out(f"  not understood: {answer!r} ({HELP})")
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
    return type(choice).__name__

