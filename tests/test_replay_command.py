"""`rinklog replay GAME`: the stream re-run through the rules, every projection rebuilt and
compared with the stored read models, the final state printed."""

from __future__ import annotations

import json

from setups import simulate

from replay.cli.app import main
from replay.games.game_streams import open_store


def test_replay_confirms_the_stored_read_models(tmp_path, capsys):
    db = tmp_path / "r.db"
    with open_store(db) as store:
        game = simulate(store, "HFX", "QUE", seed="r1").game_id
    assert main(["replay", game, "--db", str(db), "--json"]) == 0  # a read: stores nothing
    report = json.loads(capsys.readouterr().out)
    assert report["rules"] == "ok" and report["projections"] == "not stored"
    assert main(["projections", "update", "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["replay", game, "--db", str(db), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rules"] == "ok" and report["projections"] == "identical"
    assert report["finished"] and report["events"] > 1000


def test_replay_reports_a_stored_read_model_that_drifted(tmp_path, capsys):
    db = tmp_path / "r.db"
    with open_store(db) as store:
        game = simulate(store, "WPG", "SAS", seed="r2").game_id
    assert main(["projections", "update", "--db", str(db)]) == 0
    assert main(["replay", game, "--db", str(db)]) == 0
    with open_store(db) as store:
        store.connection.execute("UPDATE rm_player_stats SET g = g + 1 WHERE game_id = ?", (game,))
        store.connection.commit()
    capsys.readouterr()
    assert main(["replay", game, "--db", str(db)]) == 1
    assert "rm_player_stats" in capsys.readouterr().out
