"""The audit's checks of the odds events a season stream holds (issue 23, docs/odds.md).

- ``OddsRunReplayed`` (``rinklog odds --replay``): once at most, for a run 1 or more,
  its ``run_seed`` the derivation of (season id, odds seed, run)
  (:func:`replay.leagues.naming.odds_run_seed`); the games recorded after it are then
  held to that seed (SeasonLedger.dice_seed).
- ``OddsRecorded`` (``rinklog odds --record``): a reading of the season whose counts add
  up: the season's teams once each, ``games_played`` the regular-season games the stream
  recorded before it and ``games_remaining`` the rest of the schedule, every count within
  the runs, the playoff spots filled in every run, one champion a run (when the league
  has a postseason) and each lottery pick one team's in every run. A record with its runs
  (issue 33) is then held to them whole by replay/leagues/odds_leaves.py (its leaves,
  their root, the figures their counts), and K of its runs are played again by
  replay/leagues/audit_odds_runs.py (a thousand runs of the rest of a season is no
  audit's cost; K chosen from the record's hash is).
"""

from __future__ import annotations

from events.league import SeasonCreated
from events.odds import OddsRecorded, OddsRunReplayed
from events.plurals import counted
from replay.leagues.naming import odds_run_seed

__all__ = ["recorded_odds", "replayed_run"]


def replayed_run(created: SeasonCreated, event: OddsRunReplayed, before: int) -> str | None:
    """What is wrong with an OddsRunReplayed (``before``: how many came earlier), or None."""
    if before:
        return "one OddsRunReplayed at most in a season stream"
    if event.run < 1:
        return f"an odds run 1 or more, not {event.run}"
    want = odds_run_seed(created.season_id, event.seed, event.run)
    if event.run_seed != want:
        return f"run seed {want} (odds seed {event.seed!r}, run {event.run}), not {event.run_seed}"
    return None


def recorded_odds(created: SeasonCreated, event: OddsRecorded, played: int) -> str | None:
    """What does not add up in an OddsRecorded (``played``: the regular-season games the
    stream recorded before it), or None."""
    teams = sorted({t for _, home, away in created.schedule for t in (home, away)})
    runs = event.runs
    if runs < 1:
        return f"1 run or more, not {runs}"
    if sorted(t.team for t in event.teams) != teams:
        return f"the season's teams once each ({', '.join(teams)})"
    if (event.games_played, event.games_remaining) != (played, len(created.schedule) - played):
        return (f"{counted(played, 'game')} played and {len(created.schedule) - played} to play, not "
                f"{event.games_played} and {event.games_remaining}")
    rounds = {len(t.rounds) for t in event.teams}
    picks = {len(t.picks) for t in event.teams}
    if len(rounds) != 1 or len(picks) != 1:
        return "as many rounds and picks for every team"
    for t in event.teams:
        counts = [t.playoffs, t.champion, *t.rounds, *t.picks]
        if any(not 0 <= c <= runs for c in counts):
            return f"{t.team}: counts between 0 and the {counted(runs, 'run')}"
        if not 0 <= t.points_p10 <= t.points_p90 or t.points_total < 0:
            return f"{t.team}: points, their 10th percentile at most their 90th"
    if sum(t.playoffs for t in event.teams) != event.playoff_spots * runs:
        return f"the {event.playoff_spots} playoff spots filled in each of the {counted(runs, 'run')}"
    champions = sum(t.champion for t in event.teams)
    if champions not in ((runs,) if event.playoff_spots else (0,)):
        return f"one champion in each of the {counted(runs, 'run')}"
    for k in range(picks.pop()):
        if sum(t.picks[k] for t in event.teams) != runs:
            return f"lottery pick {k + 1} one team's in each of the {counted(runs, 'run')}"
    return None
