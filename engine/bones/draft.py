"""Draft rule 16 in play: sitting out after special teams, no three consecutive shifts.

The rules text's "Draft League Setup", rule 16: "Any regular line forward with less than
10 shifts must sit out his next shift if he kills a penalty or is on the powerplay. If a
player is rated for 10 shifts or more (13 for a defenseman) this rule does not apply. No
player should ever play 3 consecutive shifts." It holds in a draft league's games only
(``GameState.draft_league``, the game option ``draft_league``); what the text leaves open
is ruling R-draft-16 (docs/rulings.md):

- Who: a skater of the team's three regular forward lines with a shift rating under 10,
  or of its three regular pairs under 13 (the sentence that exempts "a player" names a
  defenseman's threshold, so defensemen are held to it too).
- Kills a penalty or is on the power play: a stint (6.40) with a sequence played while
  his team is short-handed or on the power play by penalties (9.00). When that stint
  ends his card is "flipped" (``PlayerStatus.sit_out``).
- Sits out his next shift: he may not go on until he has sat out a shift he could have
  played, a line change of his team that put another skater on at a slot of his kind
  (a forward slot for a forward, LD or RD for a defenseman) while he was on the bench,
  rested (6.41) and able to play.
- Three consecutive shifts: a shift is a stint; a stint begun after fewer than 3
  sequences of rest (R-6.41a: only when nobody rested is free) follows the one before;
  the third in such a row is refused.

A player barred by either part may still go on when no other dressed skater on the bench
could (15.00 leaves no slot empty); the rule cannot be kept then, and he plays.
"""

from __future__ import annotations

from typing import Final

from engine.bones.cards import Skater
from engine.bones.state import (
    FORWARD_SLOTS,
    REST_SEQUENCES,
    GameState,
    PlayerStatus,
    TeamState,
    is_defenseman,
)
from events.bones import LinesChanged, SequencePlayed

REGULAR_LINES: Final = 3  # draft rules 14, 16, 17: the three regular forward lines and pairs
FORWARD_EXEMPT: Final = 10.0  # rule 16: "rated for 10 shifts or more"
DEFENSEMAN_EXEMPT: Final = 13.0  # rule 16: "(13 for a defenseman)"
DEFENSE_SLOTS: Final = ("LD", "RD")


def sits_out_after_special_teams(team: TeamState, pid: str) -> bool:
    """Rule 16's first sentences: a regular line's forward under 10, a regular pair's
    defenseman under 13 (ruling R-draft-16)."""
    card = team.players[pid].card
    if not isinstance(card, Skater):
        return False
    lines = team.team.lines
    if is_defenseman(card):
        regular = any(pid in pair for pair in lines.defense[:REGULAR_LINES])
        return regular and card.shift < DEFENSEMAN_EXEMPT
    regular = any(pid in line for line in lines.forwards[:REGULAR_LINES])
    return regular and card.shift < FORWARD_EXEMPT


def third_in_a_row(status: PlayerStatus) -> bool:
    """Going on now would be his third consecutive shift (ruling R-draft-16)."""
    return status.run >= 2 and status.rest < REST_SEQUENCES


def barred(status: PlayerStatus) -> bool:
    """Rule 16 keeps him off the ice now (never in a game that is no draft league's: the
    fields it reads are set only there)."""
    return status.sit_out or third_in_a_row(status)


def mark_special_teams(state: GameState, event: SequencePlayed) -> None:
    """A sequence played on the power play or short-handed (by penalties, 9.00) marks the
    stints of the regular players on the ice who are held to rule 16."""
    shorts = {"home": event.home_short, "away": event.away_short}
    for side, on_ice in (("home", event.home), ("away", event.away)):
        if shorts[side] == shorts["away" if side == "home" else "home"]:
            continue
        team = state.team(side)
        for pid in on_ice:
            if sits_out_after_special_teams(team, pid):
                team.players[pid].special = True


def went_on(status: PlayerStatus) -> None:
    """He starts a stint: the next of a row of consecutive shifts, or the first; a card
    turned over is turned back (he sits no more, or played because nobody else could)."""
    status.run = status.run + 1 if status.rest < REST_SEQUENCES else 1
    status.sit_out = False


def sat_out(team: TeamState, arrived: dict[str, str]) -> None:
    """A change put ``arrived`` (slot -> skater) on the ice: each turned-over card of a
    player who could have played that shift at a slot of his kind is turned back."""
    kinds = {slot in FORWARD_SLOTS for slot in arrived
             if slot in FORWARD_SLOTS or slot in DEFENSE_SLOTS}
    if not kinds:
        return
    for pid, status in team.players.items():
        if not status.sit_out or status.out or status.rest < REST_SEQUENCES or pid in arrived.values():
            continue
        card = status.card
        if isinstance(card, Skater) and (not is_defenseman(card)) in kinds:
            status.sit_out = False


def leave_at_period_end(team: TeamState) -> None:
    """A period's end ends every shift (ruling R-6.40a): a player whose card that turned
    over leaves his slot, so the next period's first shift, his next, goes on without
    him (a sixth attacker's goalie comes back)."""
    for slot, pid in team.slots.items():
        if pid is None or not team.players[pid].sit_out:
            continue
        if slot == "G":
            team.slots["G"], team.pulled = team.goalie, False
        else:
            team.slots[slot] = None


def fault(state: GameState, event: LinesChanged) -> str | None:
    """Why a change breaks rule 16 in a draft league's game, or None."""
    team = state.team(event.side)
    before = set(team.skaters_on_ice())
    placed = {pid for pid in event.slots.values() if pid}
    for pid in event.slots.values():
        if pid is None or pid in before or pid == team.goalie:
            continue
        status = team.players[pid]
        if status.is_goalie or not barred(status) or not _other_free(team, before | placed):
            continue
        if status.sit_out:
            return (f"draft rule 16: {pid} must sit out his next shift (he killed a penalty "
                    "or was on the power play)")
        return f"draft rule 16: {pid} would play a third consecutive shift"
    return None


def _other_free(team: TeamState, unavailable: set[str]) -> bool:
    """A dressed skater on the bench, able to play and not barred, who could go instead."""
    return any(isinstance(s.card, Skater) and not s.out and not barred(s)
               for pid, s in team.players.items() if pid not in unavailable)
