"""Helpers for the DICE Hockey rules tests: a live game state, cards re-rated, and the
cards of the text's own examples (Crosby, Malone, Fleury, Hossa), used in tests only."""

from __future__ import annotations

import msgspec

from engine.dicehockey import game
from engine.dicehockey.cards import Goalie, PassBand, SaveBand, Skater
from engine.dicehockey.lines import on_ice
from engine.dicehockey.puck import give_puck
from engine.dicehockey.rulesets import DICEHOCKEY
from engine.dicehockey.state import GameState, Step
from events.common import GameCreated, TeamSheet
from events.dicehockey import Roll
from replay.systems.dicehockey.library import dicehockey_charts, find_dicehockey_team

SLOTS = ("LW", "C", "RW", "LD", "RD")


def created(game_id: str = "dh-rules", seed: str = "t", options: list[str] | None = None,
            **kw) -> GameCreated:
    sheet = TeamSheet(team_id="X", name="X", card_hash="0", roster=[])
    extra = {"options": sorted(options)} if options else {}
    kw.setdefault("ruleset_version", DICEHOCKEY.version)  # the rules as they are now
    return GameCreated(game_id=game_id, ruleset="dicehockey", home=sheet, away=sheet,
                       charts_hash="0", dice="seeded", seed=seed, **extra, **kw)


def new_state(options: list[str] | None = None) -> GameState:
    """ALD at home, BRK away, lines 1 and pairs 1 on, period 1 live (length 21)."""
    state = game.initial_state(created(options=options), find_dicehockey_team("ALD"),
                               find_dicehockey_team("BRK"), dicehockey_charts())
    state.period, state.period_live, state.period_opened = 1, True, True
    state.length = 21
    return state


def R(value: int) -> Roll:  # noqa: N802 - reads like the dice
    return Roll(value // 10, value % 10)


def pid(state: GameState, side: str, slot: str) -> str:
    player = on_ice(state, side)[slot]
    assert player is not None
    return player


def rate(state: GameState, side: str, slot: str, **changes) -> str:
    """Replace the card of the player in ``slot`` with ``changes``; return his id."""
    player = pid(state, side, slot)
    team = state.team(side)
    team.cards[player] = msgspec.structs.replace(team.cards[player], **changes)
    return player


def rate_goalie(state: GameState, side: str, **changes) -> str:
    team = state.team(side)
    team.goalies[team.goalie] = msgspec.structs.replace(team.goalie_card(), **changes)
    return team.goalie


def plain(state: GameState, *sides: str) -> None:
    """No goons, no forward defense, no shooter tags, passer 0, defense 0: tests see only
    what they set."""
    for side in sides or ("home", "away"):
        for slot in SLOTS:
            rate(state, side, slot, penalty=10, defense=0, passer=0, shooter=0)


def carry(state: GameState, side: str, slot: str) -> str:
    """Give the puck to the player in ``slot`` (a fresh possession, nothing pending)."""
    state.puck = None
    state.pending = []
    player = pid(state, side, slot)
    give_puck(state, side, player)
    state.fresh_possession = False
    state.coach_window = False
    return player


def decide(state: GameState, value: int, step: Step | None = None):
    """Decide the next step (or ``step``) with the roll ``value``; apply the events."""
    step = step or state.queue[0]
    state.rolls += 1
    events = game.DECIDERS[step.kind](state, step, R(value))
    for event in events:
        game.evolve(state, event)
    return events


def bands(*rows: tuple[int, str, str]) -> list[PassBand]:
    return [PassBand(upto=u, to=t, shot=s) for u, t, s in rows]


def saves(*rows: tuple[int, str, str]) -> list[SaveBand]:
    return [SaveBand(upto=u, team=t, to=s) for u, t, s in rows]


# --- the text's example cards (7, 8, 14, 15, 17, 19) --------------------------------------
# Crosby: PS 27% of his passes (15), 12 To LW PS, 19 To RW PS, 27 To C GS, 36 To LW GS,
# 65 To LW (7); goal range 00-22 (19); passer -9 (15); shootout 00-28 (7) (14);
# Injury Rating 65 (17).
CROSBY_PASSING = bands(
    (10, "C", "PS"), (17, "LW", "PS"), (26, "RW", "PS"), (30, "C", "GS"), (35, "RW", "GS"),
    (40, "LW", "GS"), (44, "LD", "GS*"), (48, "RD", "GS**"), (60, "C", ""), (70, "LW", ""),
    (80, "RW", ""), (85, "LD", ""), (89, "RD", ""))
ALL_TO_D = saves((99, "D", "LD"))


def crosby() -> Skater:
    return Skater(id="sidney-crosby", name="Sidney Crosby", position="C", goal=22,
                  saves=ALL_TO_D, so=28, so_attempts=7, passing=CROSBY_PASSING, passer=-9,
                  faceoff=4, penalty=30, injury=65, shooter=2)


def malone() -> Skater:
    """Goal range 00-28; a 65 under Saves is To D LD (7)."""
    return Skater(id="ryan-malone", name="Ryan Malone", position="LW", goal=28,
                  saves=saves((60, "D", "RD"), (70, "D", "LD"), (99, "O", "C")), so=15,
                  passing=CROSBY_PASSING, passer=-3)


def fleury() -> Goalie:
    """Goal range 00-04; a 42 is saved to the defensive C (7); shootout 00 (3) (14)."""
    return Goalie(id="marc-andre-fleury", name="Marc-Andre Fleury", goal=4,
                  saves=saves((40, "D", "LD"), (50, "D", "C"), (94, "D", "RD")), so=0,
                  so_attempts=3)


def put(state: GameState, side: str, slot: str, card: Skater) -> str:
    """Put ``card`` in ``slot`` in place of the player there (same id kept)."""
    player = pid(state, side, slot)
    state.team(side).cards[player] = msgspec.structs.replace(card, id=player)
    return player


def put_goalie(state: GameState, side: str, card: Goalie) -> str:
    team = state.team(side)
    team.goalies[team.goalie] = msgspec.structs.replace(card, id=team.goalie)
    return team.goalie
