"""Matrix Hockey events: the stream of one league season refereed by rinklog.

Matrix Hockey is a league game played by mail: every week each manager sends picks and
the referee works out every result. A season is one stream (``system = "matrix"``, kind
``matrix_season``). Its events, in the order commands append them:

- ``open``: :class:`SeasonOpened` (the league, the matrices, the allowances, the seed),
  then the draws of the schedule and the cups (:class:`DieRolled` and their decisions);
- ``picks``: :class:`PicksSent` per team, :class:`RefereeDrawsEntered` for draws made at
  a real table (both replace what was sent before for that week);
- ``play``: :class:`WeekStarted`, the dice, the decisions, :class:`WeekEnded`;
- ``close``: :class:`ClosingStarted`, tie-break dice, :class:`SeasonClosed`.

Every decision names the rule section it applied (``rule``) and the dice it used
(``rolls``, the ``n`` of each :class:`DieRolled`). Tags are ``matrix.<Name>``.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from events.base import Event

__all__ = [
    "BonusDrawn", "ClosingStarted", "CupDrawn", "DieRolled", "DivisionRanked", "GamePlayed",
    "GameSide", "LuckyLoserChosen", "MATRIX_SEASON_VERSION", "MatrixEvent", "MatrixOddsLeaf",
    "MatrixOddsRecorded", "MatrixOddsTeam",
    "MatrixTable", "MemberJoined", "OddsRunReplayed", "Pick", "PicksDeadlineSet",
    "PicksSubmitted",
    "PickReplaced",
    "NewTeamReplaced", "PicksSent", "RefereeCupDrawsEntered", "RefereeDrawsEntered",
    "RefereeOnr", "SlotHandedOn", "WaitingListJoined", "SanctionApplied", "ScheduleDrawn",
    "SeasonClosed", "SeasonOpened", "StockCharged", "TeamAllowance", "TeamEntry",
    "TeamReplaced", "WeekEnded", "WeekStarted", "WgGroupsDrawn", "WgRanked",
]

Competition = Literal["championship", "kdh", "wg"]
# SO: the KDH shootout (3.2.2); GROUP: a WG knock-out game won on the goals of the group
# games (3.3.2), which is no shootout
Decided = Literal["REG", "AP", "DRAW", "SO", "GROUP", "DIE", "FORFEIT"]


class _Event(Event, frozen=True):
    """Base of Matrix events (tagged ``matrix.<Name>``; see each class)."""


class _Data(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A value inside an event."""


class TeamEntry(_Data):
    id: str
    name: str
    number: int  # the team's number in its division, 1-12 (3.2.1: KDH qualifiers 03-12)
    extra_goals: int
    great_saves: int
    dummy: bool = False  # 3.1.3: a dummy team plays random picks


class MatrixTable(_Data):
    """A competition's matrix: ``rows[week - 1][column index]`` goals."""

    columns: list[str]
    rows: list[list[int]]
    label: str  # where it comes from ("printed 2.1.1" or a substitute's file)


class TeamAllowance(_Data):
    team: str
    extra_goals: int
    great_saves: int
    points: int  # 2.1.2.1 points before the division by 3
    shutouts: int  # 2.1.3.1 championship games the opponent scored none


class Pick(_Data):
    """One game's picks (2.1.1, 2.1.2, 2.1.3, 2.2); a team plays at most one game of a
    competition a week."""

    competition: Competition
    column: str
    extra_time: str  # "0".."3" or "X"
    extra_goals: int = 0
    great_saves: int = 0
    shootout: str = ""  # KDH: "0".."5" or "X"; "" when not sent


class RefereeOnr(_Data):
    column: str = ""
    extra_time: str = ""


class GameSide(_Data):
    """How one team's goals were worked out (2.1.1-2.1.4, 3.1.3)."""

    team: str
    column: str
    row_value: int  # the matrix value of the week's row and the column
    shared_with: list[str]  # other teams of the division counted on the same column
    extra_goals: int  # charged (4: the overspent ones were dropped)
    great_saves_against: int  # the opponent's great saves
    bonus: bool
    onr: bool  # no picks received: a random pick and a penalty goal
    replaced: str  # "" or why the pick was the referee's: "onr", "repeat", "dummy"
    extra_time: str  # the value picked ("X" included)
    extra_time_value: int  # what it counted for (-1: not needed)
    shootout_value: int  # -1: no shootout
    regular: int  # goals at the end of regular time


# --- set-up ------------------------------------------------------------------------------

class SeasonOpened(_Event, tag="matrix.SeasonOpened"):
    """First event: the league, its divisions (level 1 = Elite), the matrices, the
    calendar of the cups, each team's allowances, the WG entrants and the seed."""

    season_id: str
    league: str
    season: int  # 1 for a league's first season
    seed: str
    divisions: list[tuple[str, str, int, list[TeamEntry]]]  # (id, name, level, teams)
    matrices: dict[str, MatrixTable]
    competitions: list[str]
    kdh_weeks: list[int]
    wg_weeks: list[int]
    wg_teams: list[str]
    waiting_list: list[tuple[str, str]]  # (id, name)
    schedule: list[tuple[int, str, str]]  # a fixed championship schedule, else []
    previous: str = ""  # the season closed before, and its head hash
    previous_head: str = ""
    rule: str = "3.1.1"
    # the season stream's version (UNSET: 1, opened before issue 33); from 2 every
    # matrix.OddsRecorded in it carries its runs (docs/trust.md, "Recorded odds")
    season_version: int | UnsetType = UNSET


MATRIX_SEASON_VERSION = 2
"""The version rinklog opens Matrix seasons with (``SeasonOpened.season_version``)."""


class DieRolled(_Event, tag="matrix.DieRolled"):
    """A die of the referee: ``face`` of ``faces`` picks ``value`` among the options.
    Seeded dice are derived (engine/matrix/dice.py); table dice were typed in."""

    n: int
    faces: int
    face: int
    value: str
    purpose: str
    seeded: bool


class ScheduleDrawn(_Event, tag="matrix.ScheduleDrawn"):
    """A division's championship schedule drawn by the referee's dice (3.1.1)."""
    division: str
    games: list[tuple[int, str, str]]  # (week, home, away)
    rolls: list[int]
    rule: str


class WgGroupsDrawn(_Event, tag="matrix.WgGroupsDrawn"):
    """The Wayne Gretzky cup's groups of four drawn by the referee's dice (3.3.1)."""
    groups: list[list[str]]
    rolls: list[int]
    rule: str


class CupDrawn(_Event, tag="matrix.CupDrawn"):
    """The pairings of a cup round (3.2.1 KDH draws; 3.3.1 WG semi-final draw)."""

    competition: str
    round: int
    week: int
    games: list[tuple[str, str]]
    byes: list[str]  # teams through without a game (no lucky loser to meet)
    rolls: list[int]
    rule: str


# --- picks ---------------------------------------------------------------------------------

class PicksSent(_Event, tag="matrix.PicksSent"):
    """A team's picks for a week; sending again replaces them (3.1.3 NB)."""

    week: int
    team: str
    picks: list[Pick]


class RefereeDrawsEntered(_Event, tag="matrix.RefereeDrawsEntered"):
    """Draws made at a real table for a week, used instead of seeded dice."""

    week: int
    bonus: dict[str, str]  # division -> team
    onr: dict[str, RefereeOnr]
    x: dict[str, int]  # the team's championship X (its one game if it plays no other)


class RefereeCupDrawsEntered(_Event, tag="matrix.RefereeCupDrawsEntered"):
    """Draws made at a real table for a week's cup games (2.2): one X per game and the
    KDH shootout X. Follows the week's :class:`RefereeDrawsEntered` (which clears it)."""

    week: int
    x: dict[str, dict[str, int]]  # competition ("kdh", "wg") -> team -> 0-3
    shootout: dict[str, int]  # team -> 0-5 (3.2.2)


class WaitingListJoined(_Event, tag="matrix.WaitingListJoined"):
    """2.1.2.1, 3.1.3: a team named on the waiting list during the season (it gets the 3
    points of a team that played the season when it takes a slot)."""

    id: str
    name: str
    rule: str


# --- a week --------------------------------------------------------------------------------

class WeekStarted(_Event, tag="matrix.WeekStarted"):
    """A week of the season begins: its games follow (3.1.1, 3.1.4)."""
    week: int


class PickReplaced(_Event, tag="matrix.PickReplaced"):
    """The referee's pick for a team: ONR (3.1.3), a used pick sent again (4), a dummy."""

    week: int
    team: str
    competition: str
    column: str
    extra_time: str
    reason: str  # "onr", "repeat", "dummy"
    rolls: list[int]
    rule: str


class StockCharged(_Event, tag="matrix.StockCharged"):
    """Extra goals and great saves charged for a week, championship then WG then KDH (4)."""

    week: int
    team: str
    extra_goals: dict[str, int]
    great_saves: dict[str, int]
    dropped_extra_goals: int
    dropped_great_saves: int
    rule: str


class BonusDrawn(_Event, tag="matrix.BonusDrawn"):
    """The team of a division drawn for the week's bonus goal (2.1.4)."""
    week: int
    division: str
    team: str
    rolls: list[int]
    rule: str


class GamePlayed(_Event, tag="matrix.GamePlayed"):
    """One game worked out: each side's goals, the result and any tie-break (3.1.2, 3.2.2, 3.3.2)."""
    competition: str
    week: int
    round: int  # the competition's round (the championship's is its week)
    stage: str  # "", "group A", "semi", "final", "third", "qualifying", "round of 64"...
    home: GameSide
    away: GameSide
    home_goals: int
    away_goals: int
    decided: Decided
    winner: str  # "" for a draw
    tiebreak: str  # "", "shootout", "group goals", "die"
    rolls: list[int]
    rule: str


class LuckyLoserChosen(_Event, tag="matrix.LuckyLoserChosen"):
    """A lucky loser drawn to replace a KDH game of two ONR teams (3.2.3)."""
    week: int
    round: int
    team: str
    instead_of: list[str]  # the two ONR teams of the game it replaces
    rolls: list[int]
    rule: str


class SanctionApplied(_Event, tag="matrix.SanctionApplied"):
    """3.1.3: the n-th ONR of a team and what it cost."""

    week: int
    team: str
    onr_count: int
    extra_goals_lost: int
    great_saves_lost: int
    no_promotion: bool
    rule: str


class TeamReplaced(_Event, tag="matrix.TeamReplaced"):
    """3.1.3: a third ONR; the slot keeps its record under a dummy or a waiting-list team."""

    week: int
    team: str
    new_name: str
    new_id: str  # the waiting-list team's id ("" for a dummy)
    dummy: bool
    rule: str


class NewTeamReplaced(_Event, tag="matrix.NewTeamReplaced"):
    """3.1.3: "A new team ONR on the first week might be replaced immediately by a team
    from the waiting list": the referee's decision, taken after week 1 is played."""

    team: str
    new_name: str
    new_id: str
    rule: str


class WgRanked(_Event, tag="matrix.WgRanked"):
    """3.3.1: group order after the group games, and the best runner-up."""

    groups: list[list[str]]
    best_second: str
    rolls: list[int]
    rule: str


class WeekEnded(_Event, tag="matrix.WeekEnded"):
    """A week of the season is over (3.1.4)."""
    week: int


# --- the end of a season -------------------------------------------------------------------

class OddsRunReplayed(_Event, tag="matrix.OddsRunReplayed"):
    """``rinklog odds --replay R --out DB`` (docs/odds.md): the weeks and the close after
    this event are run ``run`` of the odds seed ``seed``: the referee's dice derive from
    ``run_seed`` (which the audit re-derives from the season id, ``seed`` and ``run``) in
    place of the season's seed. Not a rule: which dice follow. At most once a season,
    between weeks, before the close."""
    seed: str
    run: int
    run_seed: str


class MatrixOddsTeam(_Data):
    """One team's odds in a :class:`MatrixOddsRecorded`, as counts of runs (a chance is a
    count over the runs): its championship points summed over the runs and their 10th and
    90th percentile (3.1.4), the runs it finished 1st, 2nd... of its division (3.1.5), went
    up, went down (3.1.6), won the KDH and the WG."""

    team: str
    division: str
    points_total: int
    points_p10: int
    points_p90: int
    places: list[int]
    promoted: int
    relegated: int
    kdh: int
    wg: int


class MatrixOddsLeaf(msgspec.Struct, frozen=True, array_like=True, forbid_unknown_fields=True):
    """One run of a :class:`MatrixOddsRecorded`, a leaf of its Merkle tree (issue 33): the
    run, its run seed, and by team (teams by their index in the season's team ids sorted)
    its championship points (3.1.4) and its final place in its division (3.1.5), then the
    teams that went up and down (3.1.6) and the KDH's and WG's winners (-1: none)."""

    run: int
    run_seed: str
    points: list[int]
    places: list[int]
    promoted: list[int]
    relegated: list[int]
    kdh: int
    wg: int


class MatrixOddsRecorded(_Event, tag="matrix.OddsRecorded"):
    """``rinklog odds SEASON --record`` (docs/odds.md): the season's odds after
    ``weeks_played`` weeks (``weeks_remaining`` to play), from ``runs`` runs of the weeks
    left and the close with the odds seed ``seed`` (run r's dice are ``odds_run_seed(season,
    seed, r)``'s). Not a rule and no die: a reading, recorded so the season's page can plot
    each team's chances over the season. Between weeks, before the close; the audit checks
    it adds up (every team once in its division, each place of a division one team a run,
    ``promotion_places`` up and ``relegation_places`` down a run, one winner a cup a run,
    no team's points below its points when recorded)."""

    seed: str
    runs: int
    weeks_played: int
    weeks_remaining: int
    promotion_places: int
    relegation_places: int
    competitions: list[str]
    teams: list[MatrixOddsTeam]
    # issue 33 (UNSET in a record written before, which only a season opened before may
    # hold): the runs, one leaf a run in run order, and the hex RFC 6962 root of their bytes
    root: str | UnsetType = UNSET
    leaves: list[MatrixOddsLeaf] | UnsetType = UNSET


class ClosingStarted(_Event, tag="matrix.ClosingStarted"):
    """The season's close begins: final ranking, promotion and relegation follow (3.1.5, 3.1.6)."""
    pass


class DivisionRanked(_Event, tag="matrix.DivisionRanked"):
    """3.1.5: a division's final order (full ties broken by ``rolls``)."""

    division: str
    order: list[str]
    rolls: list[int]
    rule: str


class SlotHandedOn(_Event, tag="matrix.SlotHandedOn"):
    """3.1.3, 2.1.2.1: at the close, a dummy's slot ("till the end of the season") goes to
    the next team of the waiting list, with the allowance of the 3 points of a team on
    the waiting list before the end of the season."""

    team: str  # the dummy's slot
    new_id: str
    new_name: str
    extra_goals: int
    great_saves: int
    rule: str


class SeasonClosed(_Event, tag="matrix.SeasonClosed"):
    """3.1.6 promotion and relegation, 2.1.2.1/2.1.3.1 allowances, 3.3.1 next WG."""

    promoted: list[tuple[str, str, str]]  # (team, from division, to division)
    relegated: list[tuple[str, str, str]]
    next_divisions: list[tuple[str, list[str]]]  # (division, team ids by number)
    allowances: list[TeamAllowance]
    next_wg: list[str]
    kdh_winner: str
    wg_order: list[str]
    next_season: str
    rule: str


# --- the league on the web (issue 36, docs/web.md): its people's acts -----------------------
# Folded by the audit's recheck (engine/matrix/people.py); none is a rule of the game.

class MemberJoined(_Event, tag="matrix.MemberJoined"):
    """``account`` joined the league on the web: the manager of ``team``, one a team, or
    the commissioner (the referee; ``team`` empty), by the commissioner's invitation."""

    account: str
    role: Literal["coach", "commissioner"]
    team: str
    at: str  # UTC, ISO 8601


class PicksDeadlineSet(_Event, tag="matrix.PicksDeadlineSet"):
    """The commissioner set week ``week``'s deadline: picks sent on the web after it are
    refused (3.1.3: picks come in before the week is played)."""

    week: int
    deadline: str  # UTC, ISO 8601
    account: str
    at: str


class PicksSubmitted(_Event, tag="matrix.PicksSubmitted"):
    """The manager ``account`` sent ``team``'s picks for ``week`` on the web, before its
    deadline: the PicksSent that follows it."""

    week: int
    team: str
    account: str
    at: str


MatrixEvent = (
    SeasonOpened | DieRolled | ScheduleDrawn | WgGroupsDrawn | CupDrawn | PicksSent
    | RefereeDrawsEntered | RefereeCupDrawsEntered | WaitingListJoined | NewTeamReplaced
    | SlotHandedOn | WeekStarted | PickReplaced | StockCharged | BonusDrawn | GamePlayed
    | LuckyLoserChosen | SanctionApplied | TeamReplaced | WgRanked | WeekEnded | ClosingStarted
    | DivisionRanked | SeasonClosed | OddsRunReplayed | MatrixOddsRecorded
    | MemberJoined | PicksDeadlineSet | PicksSubmitted
)
