"""Games missed after the game (15, 17): what a game's events rule for its team's later
games of a season, and the players a season game starts without.

An injury puts a player out for the Games Missed roll (17: "If you roll an 11, he would
only miss 11 games"); a game misconduct suspends him for one die's games (15: "that is
how many games the player is suspended for"). Both count his team's games: he dresses
for none of its next N games of the season (the league works out which, from the
season's own events: replay/leagues/availability.py) and the game records him in
``GameCreated.absent``. A team file dresses exactly its 18 skaters (10), so there is no
reserve to call up: his box is played by a stand-in as after an injury in the game
(ruling R-DH-10a), and the lineup cards are his coach's to re-set (ruling R-DH-10b);
ruling R-DH-17b.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.dicehockey.state import GameState
from events.base import Event
from events.common import GameCreated, GamesOut
from events.dicehockey import GamesMissedRolled, SuspensionRolled
from events.errors import IllegalChoice

__all__ = ["ABSENT", "GAMES_OUT_EVENTS", "apply_absent", "games_out"]

ABSENT: Final = "absent"  # TeamState.out: not dressed for this game (15, 17)
# The two event classes as constants (compiled, C statics; a name imported from a module
# that is not compiled is looked up in this module's dictionary at every use).
_GAMES_MISSED: Final = GamesMissedRolled
_SUSPENSION: Final = SuspensionRolled
# what games_out reads (engine/registration.py: each event alone)
GAMES_OUT_EVENTS: Final = (GamesMissedRolled, SuspensionRolled)


def games_out(events: Iterable[Event]) -> list[GamesOut]:
    """The games each injury (17) and suspension (15) of a game takes from its player's
    later games, in the order they happened; a roll of 0 games missed takes none (ruling
    R-DH-17a)."""
    found = []
    for event in events:
        # the event's class compared, not isinstance(): every other event of the game
        # would go through the metaclass's instance check (0.5 ms a game, issue 35)
        kind = type(event)
        if (kind is _GAMES_MISSED or kind is _SUSPENSION) and event.games > 0:
            found.append(GamesOut(side=event.side, player=event.player, games=event.games,
                                  rule=event.rule))
    return found


def apply_absent(state: GameState, created: GameCreated) -> None:
    """Take the players the game records as not dressed (``GameCreated.absent``) off their
    teams for the whole game: they are out as an injured player is (ruling R-DH-17b)."""
    if not created.absent:
        return
    teams = {created.home.team_id: state.home, created.away.team_id: state.away}
    for absent in created.absent:
        team = teams.get(absent.team)
        if team is None:
            raise IllegalChoice(f"17: {absent.team!r} does not play in this game, so its "
                                f"{absent.player!r} cannot be out of it")
        if absent.player not in team.cards:
            raise IllegalChoice(f"15, 17: {absent.player!r} is not a skater of {absent.team} "
                                "(only a skater is injured or suspended)")
        team.out[absent.player] = ABSENT
