"""The prompt coach of ``rinklog play`` for Hockey Bones and FaceOff 2008: typed dice and
the coach's choices at the table (lines, the goalie, tactics, shootout shooters)."""

from __future__ import annotations

import msgspec

from engine.bones.coach import DefaultCoach
from engine.bones.dice import parse_roll
from engine.bones.explain import roll_for
from engine.bones.game import check_choice
from engine.bones.lines import check_lines
from engine.bones.state import TACTIC_RULES, GameState
from events.bones import LinesChanged, ShootoutOrderChosen, TacticDeclared
from events.errors import IllegalChoice
from replay.systems.kit import Prompter, TableDice

TACTICS = ("none", "pressure", "checking1", "checking2")


class PromptCoach(TableDice):
    """Coach choices and dice typed at the table; enter takes the DefaultCoach's choice."""

    dice = "blue white white red"
    dice_help = "type the four dice as they lie: blue, the two whites, red (e.g. 3 4 2 6)"

    def __init__(self, prompter: Prompter) -> None:
        super().__init__(prompter, parse_roll, roll_for)
        self.default = DefaultCoach()

    def lines(self, state: GameState) -> list[LinesChanged]:
        proposal = self.default.lines(state)
        if state.queue and state.queue[0].kind == "extra_skater":
            return [self._extra_skater(state, proposal[0])]
        if not state.queue or state.queue[0].kind != "faceoff":
            return proposal  # on the fly, during play: the default coach changes lines
        slots = {side: dict(state.team(side).slots) for side in ("home", "away")}
        for change in proposal:
            slots[change.side] = dict(change.slots)
        for side in ("home", "away"):
            self._show(state, side, slots[side])
        while True:
            answer = self._ask("line change? [enter = as shown; e.g. 'home C=Roy LW=3', "
                               "'away G=ID' pulls the goalie; help]")
            if answer.lower() == "help":
                self._help(state)
                continue
            if not answer:
                return [LinesChanged(side=side, slots=slots[side], on_the_fly=False,
                                     rule=state.ruleset.cite("6.41"))
                        for side in ("home", "away") if slots[side] != state.team(side).slots]
            edited = self._edit(state, slots, answer)
            if edited is not None:
                side, new = edited
                slots[side] = new
                self._show(state, side, new)

    def _extra_skater(self, state: GameState, proposal: LinesChanged) -> LinesChanged:
        """14.60: the other team is called for a delayed penalty; this team's goalie goes
        off for an extra skater, who the person names (enter takes the default's)."""
        team = state.team(proposal.side)
        while True:
            answer = self._ask(f"{team.team.id} pulls its goalie for an extra skater "
                               f"(14.60, delayed penalty) [enter = {proposal.slots['G']}]")
            if not answer:
                return proposal
            pid = _player(state, proposal.side, answer)
            if pid is None:
                self._out(f"  not a {team.team.id} player: {answer!r}")
                continue
            choice = msgspec.structs.replace(proposal, slots={**proposal.slots, "G": pid})
            try:
                check_choice(state, choice)
            except IllegalChoice as err:
                self._out(f"  not allowed: {err}")
                continue
            return choice

    def _show(self, state: GameState, side: str, slots: dict[str, str | None]) -> None:
        team = state.team(side)
        names = ", ".join(f"{slot} {team.players[pid].card.name} ({pid})"
                          for slot, pid in slots.items() if pid)
        self._out(f"  {team.team.id} ({side}): {names}")

    def _edit(self, state: GameState, slots: dict[str, dict[str, str | None]],
              answer: str) -> tuple[str, dict[str, str | None]] | None:
        """Apply 'SIDE SLOT=ID ...' (ID '-' empties a slot) if the rules allow it (6.41,
        15.00); otherwise say why and keep the lines as they were."""
        words = answer.split()
        side = words[0].lower() if words else ""
        if side not in ("home", "away") or len(words) < 2:
            self._out("  start with home or away, then SLOT=ID pairs (slots LW C RW LD RD G)")
            return None
        new = dict(slots[side])
        for word in words[1:]:
            slot, _, who = word.partition("=")
            if slot.upper() not in new or not who:
                self._out(f"  not SLOT=ID: {word!r} (slots LW C RW LD RD G; '-' for empty)")
                return None
            pid = None if who == "-" else _player(state, side, who)
            if who != "-" and pid is None:
                self._out(f"  no {state.team(side).team.id} player {who!r} (an id, a name "
                          "such as Roy or Marc-Roy, or a number from 'help')")
                return None
            new[slot.upper()] = pid
        problem = check_lines(state, LinesChanged(side=side, slots=new, on_the_fly=False,
                                                  rule=state.ruleset.cite("6.41")))
        if problem:
            self._out(f"  not allowed: {problem}")
            return None
        return side, new

    def _help(self, state: GameState) -> None:
        """Every dressed player by number, name and id: what a line change may name."""
        for side in ("home", "away"):
            team = state.team(side)
            self._out(f"  {team.team.id} ({side}):")
            for i, pid in enumerate(_roster(state, side), start=1):
                card = team.players[pid].card
                self._out(f"    {i:>2}  {card.name} ({pid})")
        self._out("  change lines with 'home C=NAME LW=NUMBER ...' ('-' empties a slot; "
                  "G=a skater pulls the goalie); enter keeps the lines shown; q stops")

    def tactics(self, state: GameState) -> list[TacticDeclared]:
        if not (state.uses("pressure_offense") or state.uses("checking_game")):
            return []  # FaceOff 19.000/20.000: options this game did not turn on
        chosen = []
        for side in ("home", "away"):
            team = state.team(side).team.id
            while True:
                answer = self._ask(f"{team} tactic [none/pressure/checking1/checking2]")
                answer = answer.lower() or "none"
                if answer in TACTICS:
                    break
                self._out(f"  not a tactic: {answer!r} (none, pressure, checking1, checking2)")
            if answer != "none":
                chosen.append(TacticDeclared(side=side, tactic=answer,
                                             rule=state.ruleset.cite(TACTIC_RULES[answer])))
        return chosen

    def shootout(self, state: GameState) -> ShootoutOrderChosen:
        order = self.default.shootout(state)
        while True:
            self._out(f"  shootout: {order.first} shoots first; home {', '.join(order.home_shooters[:3])}"
                 f"; away {', '.join(order.away_shooters[:3])}")
            answer = self._ask("shootout? [enter = as shown; 'home ID,ID,ID', "
                               "'away ID,ID,ID' or 'first away']")
            if not answer:
                return order
            words = answer.split()
            if len(words) == 2 and words[0] == "first" and words[1] in ("home", "away"):
                order = msgspec.structs.replace(order, first=words[1])
                continue
            if len(words) == 2 and words[0] in ("home", "away"):
                named = [_player(state, words[0], p) or p for p in words[1].split(",") if p]
                team = state.team(words[0])
                bad = [p for p in named if p not in team.players or team.players[p].is_goalie]
                if bad:
                    self._out(f"  not {team.team.id} skaters: {', '.join(bad)}")
                    continue
                order = self.shooting_first(order, words[0], named)
                continue
            self._out("  enter, 'home ID,ID,ID', 'away ID,ID,ID' or 'first home|away'")


def _roster(state: GameState, side: str) -> list[str]:
    """A team's dressed players in card order: skaters, then goalies (the numbers 'help'
    shows)."""
    team = state.team(side).team
    return [card.id for card in [*team.skaters, *team.goalies]]


def _player(state: GameState, side: str, who: str) -> str | None:
    """The player a person names: his id, his number in 'help', his full name (with '-'
    or '_' for spaces) or a last name that only he has."""
    roster = _roster(state, side)
    players = state.team(side).players
    if who in players:
        return who
    if who.isdigit() and 1 <= int(who) <= len(roster):
        return roster[int(who) - 1]
    wanted = who.lower().replace("_", " ").replace("-", " ")
    named = [pid for pid in roster if players[pid].card.name.lower() == wanted]
    last = [pid for pid in roster if players[pid].card.name.lower().split()[-1] == wanted]
    found = named or last
    return found[0] if len(found) == 1 else None
