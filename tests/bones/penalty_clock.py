"""A hand-built stretch of a Hockey Bones game for the penalty-clock tests (14.10, 14.20):
penalties assessed, time sequences played and goals scored through the rules, each event
applied to the state and kept, so the penalty read model (projections/penalties.py) can
fold the same stream."""

from __future__ import annotations

from bones_support import apply, created

from engine.bones import penalties, scoring, timing
from engine.bones.state import SECONDS_PER_SEQUENCE, GameState, Step
from events.bones import PenaltyAssessed, PenaltyEnded, SequencePlayed
from projections.penalties import PenaltyReport, build_penalties


class Clock:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list = [created(state.ruleset.name)]

    def run(self, events: list) -> list:
        apply(self.state, events)
        self.events += events
        return events

    def assess(self, *calls: tuple[str, str, str, int]) -> list[int]:
        """Assess at one stoppage the penalties ``(side, slot, kind, short)``: the players
        in those slots go to the box (14.10); the penalties' ids."""
        state = self.state
        state.calls = [penalties.make_call(side, state.team(side).slots[slot] or "", kind,
                                           "14.20", short=short)
                       for side, slot, kind, short in calls]
        state.queue = [Step("assess")]
        events = self.run(penalties.decide_assess(state, state.queue[0], None))
        return [e.id for e in events if isinstance(e, PenaltyAssessed)]

    def play(self, sequences: int) -> None:
        for _ in range(sequences):
            self.run(timing.play_sequence(self.state))

    def goal(self, side: str, slot: str = "C") -> list:
        """``side``'s player in ``slot`` scores (11.10)."""
        state = self.state
        state.queue = [Step("goalie", side=side)]
        scorer = state.team(side).slots[slot]
        assert scorer is not None
        return self.run(scoring.goal_events(state, side, scorer, "normal", "11.10"))

    def box_time(self, penalty: int) -> int | None:
        """Time sequences played from the penalty's assessment to its end; None while it
        runs."""
        played, counting = 0, False
        for event in self.events:
            if isinstance(event, PenaltyAssessed) and event.id == penalty:
                counting = True
            elif counting and isinstance(event, SequencePlayed):
                played += 1
            elif counting and isinstance(event, PenaltyEnded) and event.id == penalty:
                return played
        return None

    def report(self) -> PenaltyReport:
        return build_penalties(self.events)

    def running(self, penalty: int) -> tuple[int, int]:
        """The read model's box and man-short time left of a running penalty, in sequences."""
        row = next(r for r in self.report().running if r.id == penalty)
        return row.time_left // SECONDS_PER_SEQUENCE, row.short_left // SECONDS_PER_SEQUENCE
