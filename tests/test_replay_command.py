"""`rinklog replay GAME`: the stream re-run through the rules, every projection rebuilt and
compared with the stored read models, the final state printed."""

from __future__ import annotations

import json

from replay.cli import main
from replay.tooling.games import open_store, simulate


def test_replay_confirms_the_stored_read_models(tmp_path, capsys):
    db = tmp_path / "r.db"
    with open_store(db) as store:
        game = simulate(store, "HFX", "QUE", seed="r1").game_id
    assert main(["replay", game, "--db", str(db)]) == 0  # stores them, then compares
    assert main(["replay", game, "--db", str(db), "--json"]) == 0
    out = capsys.readouterr().out
    report = json.loads(out[out.index("{"):])
    assert report["rules"] == "ok" and report["projections"] == "identical"
    assert report["finished"] and report["events"] > 1000


def test_replay_reports_a_stored_read_model_that_drifted(tmp_path, capsys):
    db = tmp_path / "r.db"
    with open_store(db) as store:
        game = simulate(store, "WPG", "SAS", seed="r2").game_id
    assert main(["replay", game, "--db", str(db)]) == 0
    with open_store(db) as store:
        store._db.execute("UPDATE rm_player_stats SET g = g + 1 WHERE game_id = ?", (game,))
        store._db.commit()
    capsys.readouterr()
    assert main(["replay", game, "--db", str(db)]) == 1
    assert "rm_player_stats" in capsys.readouterr().out
