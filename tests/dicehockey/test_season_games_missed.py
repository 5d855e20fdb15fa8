"""DICE Hockey 15 and 17 over a season: a player out for N games (an injury's games
missed, a game misconduct's suspension) dresses for none of his team's next N games, the
season is the same with any number of workers and when resumed, and the audit names a
game that dresses a player who should be out."""

from __future__ import annotations

import shutil
import sqlite3

import msgspec
import pytest

from engine.dicehockey.system import SYSTEM as DICEHOCKEY
from events.base import tag_of
from events.common import GameCreated
from events.dicehockey import GamesMissedRolled, SuspensionRolled
from events.errors import CorruptDatabase
from replay.cli.app import main
from replay.games.game_setup import league_setup
from replay.games.game_streams import open_store
from replay.leagues import availability
from replay.leagues.audit import audit_all
from replay.leagues.league import load_league
from replay.leagues.naming import season_game_id
from replay.leagues.runner import run_season, table_game
from replay.leagues.schedule import make_schedule

GAMES = 40  # ten games a team in the eight-team DICE Hockey demo league
SEASON = "dicedemo-t"


@pytest.fixture(scope="module")
def league():
    return load_league("dicedemo")


def play(path, league, workers=1, games=GAMES, audit=True):
    fixtures = [(f.number, f.home, f.away) for f in make_schedule(league, "t")]
    with open_store(path) as store:
        return run_season(store, league_setup(league), league=league.name, schedule=fixtures,
                          seed="t", workers=workers, games=games, divisions=league.divisions,
                          audit=audit)


def heads(path) -> dict[str, str]:
    with open_store(path) as store:
        return {info.stream: info.head_hash for info in store.streams()}


@pytest.fixture(scope="module")
def season(tmp_path_factory, league):
    path = tmp_path_factory.mktemp("missed") / "one.db"
    play(path, league, workers=1)
    with open_store(path) as store:
        games = {n: [row.event for row in store.read(season_game_id(SEASON, n))]
                 for n in range(1, GAMES + 1)}
        schedule = store.read(SEASON, 1, 1)[0].event.schedule
    return path, games, schedule


def test_15_17_a_player_out_for_n_games_misses_exactly_his_teams_next_n(season) -> None:
    """For every injury (17) and suspension (15) of the season's games, N read from its
    event: his team's next N games record him as not dressed and never name him after
    their first event; its game after those (where played) does not have him out for it."""
    _, games, schedule = season
    team_games: dict[str, list[int]] = {}
    for number, home, away in schedule[:GAMES]:
        team_games.setdefault(home, []).append(number)
        team_games.setdefault(away, []).append(number)
    rulings = 0
    back = 0  # rulings whose (N+1)-th game is in the cut
    for number, events in games.items():
        created = events[0]
        assert isinstance(created, GameCreated)
        for event in events:
            if not isinstance(event, GamesMissedRolled | SuspensionRolled) or not event.games:
                continue
            rulings += 1
            team = getattr(created, event.side).team_id
            later = [g for g in team_games[team] if g > number]
            for i, g in enumerate(later[:event.games + 1]):
                first = games[g][0]
                out = [a for a in first.absent or [] if a.player == event.player
                       and a.game == number]
                if i < event.games:
                    assert out and out[0].team == team and out[0].rule == event.rule, (number, g)
                    named = msgspec.json.encode(games[g][1:])
                    assert f'"{event.player}"'.encode() not in named, (number, g)
                else:
                    assert not out, (number, g)
                    back += 1
    assert rulings >= 3 and back >= 1  # the cut holds injuries, and one player's return


def test_15_17_workers_and_a_resumed_run_give_the_same_season(season, league, tmp_path) -> None:
    path, _, _ = season
    play(tmp_path / "two.db", league, workers=2)
    assert heads(tmp_path / "two.db") == heads(path)
    play(tmp_path / "grown.db", league, workers=2, games=GAMES // 2)
    play(tmp_path / "grown.db", league, workers=1)  # who is out read back from the store
    assert heads(tmp_path / "grown.db") == heads(path)


def test_15_17_the_audit_names_a_game_that_dresses_a_player_who_is_out(
        season, league, tmp_path, monkeypatch, capsys) -> None:
    """A season played as rinklog did before (nobody carried out of later games): each
    game checks out on its own, but ``audit --all`` re-derives who is out from the
    season's stored games and names the first game that dresses him."""
    _, games, _ = season
    first = min(n for n, events in games.items() if events[0].absent)
    want = games[first][0].absent
    monkeypatch.setattr(availability.Availability, "absent", lambda self, number: [])
    play(tmp_path / "forged.db", league, games=first, audit=False)
    monkeypatch.undo()
    with open_store(tmp_path / "forged.db") as store:
        failed = [r for r in audit_all(store) if not r.ok]
    assert [r.game_id for r in failed] == [season_game_id(SEASON, first)]
    failure = failed[0].failure
    assert failure.check == "season" and failure.seq == 1
    assert f"dresses {want[0].team} {want[0].player}" in failure.recorded
    assert f"ruled out in game {want[0].game}, rule {want[0].rule}" in failure.expected
    assert main(["audit", "--all", "--db", str(tmp_path / "forged.db")]) == 1
    assert season_game_id(SEASON, first) in capsys.readouterr().out


def test_15_17_a_seasons_earlier_games_are_read_for_their_rulings_alone(season, tmp_path
                                                                         ) -> None:
    """Who a stored game puts out is read from its rulings' rows alone (the types DICE
    Hockey's ``games_out`` reads, not its ~900 events): the same events, in order, as
    every event read and filtered; a ruling's row that does not decode is refused, and
    the game then rules nothing (it fails its own audit)."""
    path, games, _ = season
    wanted = (GamesMissedRolled, SuspensionRolled)
    with open_store(path) as store:
        tags = [tag_of(cls) for cls in DICEHOCKEY.games_out_events]
        assert set(DICEHOCKEY.games_out_events) == set(wanted)
        for n, events in games.items():
            read = store.read_tagged(season_game_id(SEASON, n), tags)
            assert read == [e for e in events if isinstance(e, wanted)]
    ruled = next(n for n, events in games.items() if any(isinstance(e, wanted) for e in events))
    broken = tmp_path / "broken.db"
    shutil.copyfile(path, broken)
    game_id = season_game_id(SEASON, ruled)
    raw = sqlite3.connect(broken)
    raw.execute("UPDATE events SET payload = X'7B' WHERE stream_key = (SELECT key FROM streams"
                " WHERE stream = ?) AND type_key IN (SELECT key FROM event_types WHERE tag IN"
                f" ({', '.join('?' * len(tags))}))", (game_id, *tags))
    raw.commit()
    raw.close()
    with open_store(broken) as store:
        with pytest.raises(CorruptDatabase, match=f"stream {game_id!r} event .* does not decode"):
            store.read_tagged(game_id, tags)
        schedule = store.read(SEASON, 1, 1)[0].event.schedule
        found = availability.stored_availability(store, SEASON, schedule, DICEHOCKEY)
    assert ruled not in found.rulings


def test_15_17_a_table_game_waits_for_its_teams_earlier_games(league, tmp_path) -> None:
    """`rinklog play --season`: who is out comes from the teams' earlier games, so those
    are played first (DICE Hockey); the message names them."""
    from events.errors import RinklogError

    play(tmp_path / "table.db", league, games=1)
    with open_store(tmp_path / "table.db") as store:
        schedule = store.read(SEASON, 1, 1)[0].event.schedule
        first = {schedule[0][1], schedule[0][2]}
        # round 2 (four games a round): a game whose teams' round-1 games are not all game 1
        later = next(n for n, h, a in schedule[4:] if {h, a} != first)
        with pytest.raises(RinklogError, match="has to wait for its teams' earlier games"):
            table_game(store, SEASON, later)
        assert table_game(store, SEASON, 2) == season_game_id(SEASON, 2)  # round 1: ready


def test_17_explain_names_who_is_not_dressed(season) -> None:
    from replay.games.explain import explain_event

    path, games, _ = season
    first = min(n for n, events in games.items() if events[0].absent)
    out = games[first][0].absent[0]
    with open_store(path) as store:
        text = explain_event(store, season_game_id(SEASON, first), 1)
    assert (f"not dressed: {out.team} {out.player} (out from season game {out.game}, "
            f"rule {out.rule})") in text
