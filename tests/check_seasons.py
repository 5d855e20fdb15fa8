"""Rules round 4's seasons, checked whole (issue 31): a seeded DICE Hockey season and a
seeded Hockey Bones draft-league season are played, audited (``rinklog audit --all``)
and every game is replayed event by event against the invariants the suite checks on a
few games:

- DICE Hockey: no player in the box (or out of the game) stands in a slot, the extra
  attacker's included (15, 22; ruling R-DH-22g), no rotation line or pair is skipped
  (9; ruling R-DH-9b), and every goal records the timing space the scoresheet prints (9, 12);
- the Hockey Bones draft league: no breach of draft rule 16 or rule 28, and every game
  misconduct check with the league's NHL range (14.51).

Run: ``.venv/bin/python tests/check_seasons.py [--games 200] [--seed r4] [--keep DIR]``.
It prints a line a season and exits 1 on any failure. Not part of ``make test`` (two
200-game seasons take a few minutes on two cores).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE / "dicehockey"), str(HERE / "bones"), str(HERE.parent)]

from dicehockey_invariants import boxed_on_ice, goal_spaces_off, skipped_lines  # noqa: E402
from test_draft_league_games import rule_16_and_28_breaches  # noqa: E402

from replay.cli.app import main  # noqa: E402
from replay.games.game_streams import load_inputs, open_store, read_game  # noqa: E402
from replay.leagues.league import load_league  # noqa: E402

NHL_GM_RANGE = "1-7"


def dice_season(where: Path, games: int, seed: str) -> list[str]:
    db = where / "dice.db"
    assert main(["season", "--league", "dicedemo", "--seed", seed, "--games", str(games),
                 "--db", str(db)]) == 0
    failures = [] if main(["audit", "--all", "--db", str(db)]) == 0 else ["audit --all"]
    with open_store(db) as store:
        for info in store.streams(kind="game"):
            events = read_game(store, info.stream)
            inputs = load_inputs(store, events[0])
            failures += [f"{info.stream} {f}" for f in
                         boxed_on_ice(events[0], *inputs, events[1:])
                         + skipped_lines(events[0], *inputs, events[1:])
                         + goal_spaces_off(events)]
    return failures


def draft_season(where: Path, games: int, seed: str) -> list[str]:
    demo = load_league("demo")
    root = where / "draft"
    shutil.copytree(demo.root / "teams", root / "teams")
    text = (demo.root / "league.toml").read_text()
    head, rest = text.split("\n", 1)
    (root / "league.toml").write_text(
        f'{head}\ndraft_rules = true\nnhl_gm_range = "{NHL_GM_RANGE}"\n{rest}'
        .replace('name = "demo"', 'name = "draft"'))
    db = where / "draft.db"
    assert main(["league", "check", "--league", str(root)]) == 0
    assert main(["season", "--league", str(root), "--seed", seed, "--games", str(games),
                 "--db", str(db)]) == 0
    failures = [] if main(["audit", "--all", "--db", str(db)]) == 0 else ["audit --all"]
    with open_store(db) as store:
        for info in store.streams(kind="game"):
            events = read_game(store, info.stream)
            created = events[0]
            if created.options != ["draft_league"] or created.nhl_gm_range != NHL_GM_RANGE:
                failures.append(f"{info.stream}: not played as a draft league's game")
            home, away = (demo.teams[created.home.team_id], demo.teams[created.away.team_id])
            failures += [f"{info.stream} {b}" for b in
                         rule_16_and_28_breaches(events, home, away, NHL_GM_RANGE)]
    return failures


def run() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", default="r4")
    parser.add_argument("--keep", type=Path, help="a folder to keep the databases in")
    args = parser.parse_args()
    where = args.keep or Path(tempfile.mkdtemp(prefix="rinklog-check-"))
    where.mkdir(parents=True, exist_ok=True)
    failed = False
    for name, check in (("DICE Hockey (dicedemo)", dice_season),
                        ("Hockey Bones draft league", draft_season)):
        found = check(where, args.games, args.seed)
        failed |= bool(found)
        print(f"{name}: {args.games} games, seed {args.seed}: "
              + ("ok: audited clean, no invariant broken" if not found else
                 f"{len(found)} failures, first: {found[:3]}"))
    if args.keep is None:
        shutil.rmtree(where, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(run())
