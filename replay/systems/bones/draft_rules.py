"""The draft league rules of the Hockey Bones text (issue #5), as pure line-up checks.

The rules text ends with "Draft League Setup": the rules of an existing league, numbered
2-29 here as there. A league turns them on with ``draft_rules = true`` in its
``league.toml``; ``replay.leagues.league.load_league`` then refuses a league whose teams break
them, and ``rinklog league check`` lists what breaks. Every check returns
:class:`Violation` values, never raises; ``str(v)`` reads like
``HFX: draft rule 17: the LW shift ratings of the three forward lines total 24.5, at
least 26 needed``.

A team file is read as one team's active roster and its dressed line-up at once (it
holds no reserves). What is checked, by draft rule (paraphrased; see docs/rulings.md,
``R-draft-*``, for the choices made where the text is open):

- 2 (with 4.00): the active roster is 20: 18 skaters and 2 goalies dressed.
- 6 (goalies only): a goalie's card ``games`` (his games of the last pro season) must be
  10 or more; skater cards carry no games played, so their half is not checked.
- 11: at least 2 goalies and 6 defensemen on the active roster.
- 12: the goalies who share the starts (``lines.goalies``, as ``replay.leagues.runner.
  goalie_starts`` takes them) must have card games enough for the season's games; with
  that, ``goalie_starts`` never starts a goalie more often than his card allows.
- 14: every active skater has a shift rating of 7 or more, except a penalty-killing
  specialist (ruling R-draft-14: an ``ace_pk`` card kept off the regular lines).
- 15: the first forward line and the first defense pair have shift ratings of 9 or more.
- 17: the three regular forward lines' LW, C and RW ratings each total 26 or more.
- 18 (and 19): the defensemen of the pairs total 56 shifts or more.
- 21: a forward lines up only at a position of his card (so a centre at centre);
  defensemen play either side of a pair.

Not checked here: 3-5, 7, 8, 10, 23-26 and the draft lottery are front-office rules
(drafts, trades, claims, votes) with nothing in a team file to check; 9 and 27 concern
playoffs, played by ``rinklog playoffs`` (docs/postseason.md), not a line-up; 13 (the
overplay penalty) cannot arise while 12 holds; 16 (sitting out after special teams, no
three consecutive shifts) and 28 (FaceOff rules not used) hold in the league's games,
which record the option ``draft_league`` (engine/bones/draft.py, GameState.uses); 20 (the
five-man rotation) cannot be written in a team's pairs; 22 (out of position) needs the
whole 30-man roster and free agents; 29, the tiebreakers, is always applied by
``projections.standings``; 30 (zero shooting ranges) is not applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.bones.cards import Goalie, Skater, Team
from engine.bones.draft import REGULAR_LINES  # rules 14, 16, 17: three lines, three pairs
from events.plurals import counted
from replay.systems.kit import DraftRuleError

__all__ = ["CHECKED_RULES", "DRESSED_GOALIES", "DRESSED_SKATERS", "DraftRuleError", "Violation",
           "check_goalie_starts", "check_league", "check_team", "starting_goalies"]

DRESSED_SKATERS = 18  # 4.00; with the 2 goalies, the 20-man active roster of rule 2
DRESSED_GOALIES = 2
MIN_GOALIE_GAMES = 10  # rule 6
MIN_GOALIES = 2  # rule 11
MIN_DEFENSEMEN = 6  # rule 11
MIN_ACTIVE_SHIFT = 7.0  # rule 14
MIN_FIRST_LINE_SHIFT = 9.0  # rule 15
MIN_POSITION_TOTAL = 26.0  # rule 17
MIN_DEFENSE_TOTAL = 56.0  # rule 18
FORWARD_SLOTS = ("LW", "C", "RW")

CHECKED_RULES = (2, 6, 11, 12, 14, 15, 17, 18, 21)


@dataclass(frozen=True, order=True)
class Violation:
    """One broken draft rule: the team, the rule's number and what is wrong."""

    team: str
    rule: int
    message: str

    def __str__(self) -> str:
        return f"{self.team}: draft rule {self.rule}: {self.message}"


def _num(value: float) -> str:
    """A shift rating or total as the cards write it: 26, 24.5."""
    return f"{value:g}"


def starting_goalies(team: Team) -> list[Goalie]:
    """The goalies who share a season's starts: those named in ``lines.goalies`` (all of
    the team's if none is), as ``replay.leagues.runner.goalie_starts`` takes them."""
    return [g for g in team.goalies if g.id in team.lines.goalies] or list(team.goalies)


def _regular_ids(team: Team) -> set[str]:
    """Players of the three regular forward lines and the first three pairs."""
    lines = team.lines
    return {p for line in [*lines.forwards[:REGULAR_LINES], *lines.defense[:REGULAR_LINES]]
            for p in line}


def _roster(team: Team) -> list[Violation]:
    out: list[Violation] = []
    skaters, goalies = len(team.skaters), len(team.goalies)  # ruling R-draft-2
    if (skaters, goalies) != (DRESSED_SKATERS, DRESSED_GOALIES):
        out.append(Violation(team.id, 2, f"the active roster holds {counted(skaters, 'skater')} "
                             f"and {counted(goalies, 'goalie')}, "
                             f"{DRESSED_SKATERS + DRESSED_GOALIES} needed: {DRESSED_SKATERS} "
                             f"skaters and {DRESSED_GOALIES} goalies dressed (4.00)"))
    for g in team.goalies:  # ruling R-draft-6: card games are last season's games
        if g.games < MIN_GOALIE_GAMES:
            out.append(Violation(team.id, 6, f"goalie {g.id} ({g.name}) played {counted(g.games, 'game')} "
                                 f"(card games), at least {MIN_GOALIE_GAMES} needed to be on "
                                 "the active roster"))
    defensemen = sum(1 for s in team.skaters if s.is_defenseman)
    if goalies < MIN_GOALIES:
        out.append(Violation(team.id, 11, f"{counted(goalies, 'goalie')} on the active roster, "
                             f"at least {MIN_GOALIES} needed"))
    if defensemen < MIN_DEFENSEMEN:
        out.append(Violation(team.id, 11, f"{counted(defensemen, 'defenseman', 'defensemen')} on "
                             f"the active roster, at least {MIN_DEFENSEMEN} needed"))
    return out


def _goalie_games(team: Team, season_games: int) -> list[Violation]:
    """Rule 12 before a season (ruling R-draft-12): the starters' games cover it."""
    used = starting_goalies(team)
    total = sum(g.games for g in used)
    if total >= season_games:
        return []
    each = ", ".join(f"{g.id} {g.games}" for g in used)
    return [Violation(team.id, 12, f"the starting goalies' card games total {total} ({each}), "
                      f"fewer than the season's {counted(season_games, 'game')}")]


def _shifts(team: Team) -> list[Violation]:
    out: list[Violation] = []
    cards = {s.id: s for s in team.skaters}
    regular = _regular_ids(team)
    for s in team.skaters:
        if s.shift >= MIN_ACTIVE_SHIFT:
            continue
        if s.ace_pk and s.id not in regular:
            continue  # ruling R-draft-14: a penalty-killing specialist
        why = ("an ace penalty killer, but on a regular line or pair" if s.ace_pk
               else "not an ace penalty killer")
        out.append(Violation(team.id, 14, f"skater {s.id} ({s.name}) has shift rating "
                             f"{_num(s.shift)}, at least {_num(MIN_ACTIVE_SHIFT)} needed on the "
                             f"active roster ({why})"))
    # ruling R-draft-15: the first line is the first forward line and the first pair
    first = [("the first forward line", p) for p in team.lines.forwards[0]]
    first += [("the first defense pair", p) for p in team.lines.defense[0]]
    for where, pid in first:
        card = cards.get(pid)
        if card is not None and card.shift < MIN_FIRST_LINE_SHIFT:
            out.append(Violation(team.id, 15, f"skater {pid} ({card.name}) on {where} has shift "
                                 f"rating {_num(card.shift)}, at least "
                                 f"{_num(MIN_FIRST_LINE_SHIFT)} needed"))
    lines = team.lines.forwards[:REGULAR_LINES]  # ruling R-draft-17: a total per position
    for j, slot in enumerate(FORWARD_SLOTS):
        total = sum(cards[line[j]].shift for line in lines if line[j] in cards)
        if total < MIN_POSITION_TOTAL:
            out.append(Violation(team.id, 17, f"the {slot} shift ratings of the three forward "
                                 f"lines total {_num(total)}, at least "
                                 f"{_num(MIN_POSITION_TOTAL)} needed"))
    # ruling R-draft-18: the defensemen of the pairs (so rule 19 holds too)
    pairs = [p for pair in team.lines.defense for p in pair if p in cards]
    total = sum(cards[p].shift for p in pairs)
    if total < MIN_DEFENSE_TOTAL:
        out.append(Violation(team.id, 18, f"the shift ratings of the {len(pairs)} defensemen of "
                             f"the pairs total {_num(total)}, at least "
                             f"{_num(MIN_DEFENSE_TOTAL)} needed"))
    return out


def _positions(team: Team) -> list[Violation]:
    """Rule 21 on the even-strength lines (ruling R-draft-21)."""
    out: list[Violation] = []
    cards: dict[str, Skater] = {s.id: s for s in team.skaters}
    for i, line in enumerate(team.lines.forwards):
        for slot, pid in zip(FORWARD_SLOTS, line, strict=True):
            card = cards.get(pid)
            if card is not None and slot not in card.positions:
                out.append(Violation(team.id, 21, f"skater {pid} ({card.name}) plays {slot} on "
                                     f"forward line {i + 1}, his card has "
                                     f"{'/'.join(card.positions)}"))
    for i, pair in enumerate(team.lines.defense):
        for pid in pair:
            card = cards.get(pid)
            if card is not None and not card.is_defenseman:
                out.append(Violation(team.id, 21, f"skater {pid} ({card.name}) plays defense "
                                     f"in pair {i + 1}, his card has "
                                     f"{'/'.join(card.positions)}"))
    return out


def check_team(team: Team, season_games: int | None = None) -> list[Violation]:
    """Every draft-rule violation of one team's roster and line-up, by rule number.
    ``season_games`` (a season's games per team) adds the goalie-games check of rule 12."""
    out = [*_roster(team), *_shifts(team), *_positions(team)]
    if season_games is not None:
        out += _goalie_games(team, season_games)
    return sorted(out, key=lambda v: v.rule)


def check_league(teams: Mapping[str, Team] | list[Team], season_games: int) -> list[Violation]:
    """Every team's violations, in the order given (a league's order)."""
    listed = list(teams.values()) if isinstance(teams, Mapping) else list(teams)
    return [v for team in listed for v in check_team(team, season_games)]


def check_goalie_starts(teams: Mapping[str, Team],
                        starts: Mapping[int, tuple[str, str]]) -> list[Violation]:
    """Rule 12 over a season: goalies started more often than their cards' ``games``.
    ``starts`` is ``goalie_starts``'s answer (game number -> home, away goalie ids; goalie
    ids are unique across a league)."""
    owner = {g.id: (tid, g) for tid, t in teams.items() for g in t.goalies}
    counts: dict[str, int] = {}
    for pair in starts.values():
        for gid in pair:
            counts[gid] = counts.get(gid, 0) + 1
    out = []
    for gid, n in counts.items():
        tid, card = owner[gid]
        if n > card.games:
            out.append(Violation(tid, 12, f"goalie {gid} ({card.name}) starts {counted(n, 'game')}, his "
                                 f"card allows {card.games}"))
    return out
