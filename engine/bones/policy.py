"""A team's coaching habits (a coach file, docs/coach.md): the default coach's settings.

A data model, like the cards (engine/bones/cards.py): msgspec checks every field of a
coach file. It lives apart from the coach's logic (engine/bones/coach.py) so that
``make compile`` can build the coach while msgspec keeps reading these annotations.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

STOPPAGE_CHANGE = 3  # change at a whistle after three sequences on the ice
PULL_AT = 46  # pull the goalie from sequence 46 of the third period (1:36 left)
Tactic = Literal["none", "pressure", "checking1", "checking2"]


class CoachPolicy(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """One team's coaching habits. The defaults are the default coach's."""

    pull_goalie_at: Annotated[int, Meta(ge=1, le=50)] = PULL_AT  # 3rd-period sequence
    pull_when_behind: Annotated[int, Meta(ge=0, le=9)] = 2  # pull when 1..N goals behind
    change_at_stoppage: Annotated[int, Meta(ge=1, le=5)] = STOPPAGE_CHANGE  # 6.41
    tactic_when_behind: Tactic = "none"  # 19.00 / 20.00, declared at stoppages
    tactic_when_ahead: Tactic = "none"
    tactic_from: Annotated[int, Meta(ge=1, le=50)] = 1  # ...from this sequence of the 3rd
    shootout_shooters: list[str] = []  # 21.00: named first, in order; then by SO rating
    shoot_first: bool = True  # a home coach's choice to shoot first (21.00)


DEFAULT_POLICY = CoachPolicy()
