"""Matrix Hockey: the season system's registration object, which engine/systems.py lists
(docs/systems.md, "Season systems")."""

from __future__ import annotations

from engine.matrix import explain, recheck, seasons
from engine.matrix.state import evolve, initial_state
from engine.registration import SeasonSystem
from events.matrix import DieRolled, MatrixEvent, OddsRunReplayed, SeasonOpened

SYSTEM = SeasonSystem(
    name="matrix",
    title="Matrix Hockey (a league played by mail; rinklog referees a season)",
    kind="matrix_season",
    first_event=SeasonOpened,
    event_type=MatrixEvent,
    roll_event=DieRolled,
    initial_state=initial_state,
    evolve=evolve,
    check_dice=recheck.check_dice,
    recheck=recheck.recheck,
    check_lineage=recheck.check_lineage,
    why=explain.why,
    summary=explain.summary,
    season_game_id=seasons.season_game_id,
    fold=recheck.fold,
    standings=seasons.receipt_standings_rows,
    odds_run_event=OddsRunReplayed,
)
