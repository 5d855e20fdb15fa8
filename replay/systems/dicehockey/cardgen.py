"""Invented DICE Hockey teams: a card generator (engine-free: it writes TOML data).

``python -m replay.systems.dicehockey.cardgen [--seed demo] [OUT]`` writes the demo league's
teams to ``fixtures/dicehockey/teams/`` (or OUT). Every name is made up. A player's
talent sets his card: a forward's goal range (PS), the share of his passing column that
makes player shots, his passer rating; a defenseman's defense rating; a goalie's goal
range (GS) and how often his saves give up a rebound. The numbers aim at NHL-like games
(about three goals and thirty shots a team, a few power plays); docs/dicehockey-charts.md
says how the demo league lands.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import tomli_w

TEAMS = [
    ("ALD", "Alderpoint Ospreys"), ("BRK", "Brackwater Lynx"), ("CDV", "Cedarvale Comets"),
    ("DRF", "Driftwood Pilots"), ("ELM", "Elmhurst Foxhounds"), ("FRN", "Fernhill Rangers"),
    ("GLN", "Glenmoor Harriers"), ("HTH", "Heathrow Bay Grizzlies"),
]
FIRST = ["Leif", "Kasimir", "Wade", "Rory", "Marc", "Dax", "Remy", "Ulric", "Oskar", "Pascal",
         "Silas", "Jules", "Hollis", "Teo", "Miko", "Ilya", "Gage", "Soren", "Emil", "Tate",
         "Bram", "Corin", "Aldo", "Niko", "Evander", "Fitz", "Garrick", "Hale", "Ivo", "Joss",
         "Kellan", "Lars", "Mattis", "Nils", "Orrin", "Piet", "Quill", "Rafe", "Stellan", "Tobin"]
LAST = ["Pelletier", "Jessop", "Ouellet", "Delorme", "Marchetti", "Rasmark", "Pruett",
        "Gauthier", "Halvorsen", "Lindqvist", "Yarrow", "Trevanion", "Lachance", "Mulvaney",
        "Uhlig", "Strand", "Ashdown", "Bjorkman", "Eskola", "Fenwick", "Corriveau", "Dunmore",
        "Eklund", "Fairbairn", "Gustafsen", "Holloway", "Isberg", "Jandric", "Kowalchuk",
        "Laframboise", "Moberg", "Nordahl", "Ostrander", "Parvainen", "Quennell", "Rautio",
        "Sandvik", "Thibodeau", "Vanderlaan", "Whitcombe"]
SLOTS = ("LW", "C", "RW", "LD", "RD")


def _split(total: int, weights: list[float]) -> list[int]:
    """``total`` numbers shared out in proportion to ``weights`` (each share at least 1)."""
    raw = [w / sum(weights) * total for w in weights]
    shares = [max(1, int(r)) for r in raw]
    while sum(shares) < total:
        shares[max(range(len(raw)), key=lambda i: raw[i] - shares[i])] += 1
    while sum(shares) > total:
        shares[max(range(len(shares)), key=lambda i: shares[i])] -= 1
    return shares


def passing_column(rng: random.Random, position: str, talent: float) -> list[dict[str, Any]]:
    """00-89: PS bands, GS bands (with 21C's To LD GS* and To RD GS**), To bands."""
    forward = position != "D"
    ps = round((10 if forward else 7) + 10 * talent + rng.uniform(-2, 2))
    gs = round(10 + rng.uniform(-3, 3))
    to = 90 - ps - gs - 6
    shots_to = [3.0, 3.0, 3.0, 1.2, 1.2] if forward else [2.5, 2.5, 2.5, 1.5, 1.5]
    bands: list[dict[str, Any]] = []
    upto = -1
    for kind, total, weights in (("PS", ps, shots_to), ("GS", gs, [2.0, 2.0, 2.0, 1.0, 1.0])):
        for slot, share in zip(SLOTS, _split(total, weights), strict=True):
            upto += share
            bands.append({"upto": upto, "to": slot, "shot": kind})
    upto += 3
    bands.append({"upto": upto, "to": "LD", "shot": "GS*"})
    upto += 3
    bands.append({"upto": upto, "to": "RD", "shot": "GS**"})
    for slot, share in zip(SLOTS, _split(to, [1.0, 1.2, 1.0, 1.3, 1.3]), strict=True):
        upto += share
        bands.append({"upto": upto, "to": slot})
    assert upto == 89, upto
    return bands


def saves(rng: random.Random, last: int, rebound: float) -> list[dict[str, Any]]:
    """A Saves section up to ``last``: the defense mostly, the offense (a rebound) for
    about ``rebound`` of the numbers, at the top."""
    offense = round((last + 1) * rebound)
    defense = last + 1 - offense
    bands: list[dict[str, Any]] = []
    upto = -1
    for team, total, weights in (("D", defense, [1.2, 1.0, 1.0, 1.5, 1.5]),
                                 ("O", offense, [1.0, 1.2, 1.0, 0.6, 0.6])):
        for slot, share in zip(SLOTS, _split(total, weights), strict=True):
            upto += share
            bands.append({"upto": upto, "team": team, "to": slot})
    return bands


def skater(rng: random.Random, name: str, position: str, talent: float, line: int) -> dict:
    forward = position != "D"
    card: dict[str, Any] = {
        "id": name.lower().replace(" ", "-"), "name": name, "position": position,
        "goal": round((8 if forward else 3.5) + (15 if forward else 6) * talent
                      + rng.uniform(-1.5, 1.5)),
        "saves": saves(rng, 99, 0.22 + rng.uniform(-0.05, 0.05)),
        "so": round(12 + 22 * talent * (1 if forward else 0.5)),
        "so_attempts": rng.randint(2, 9) if forward else rng.randint(0, 2),
        "passing": passing_column(rng, position, talent),
        "passer": -min(10, round((8 if forward else 4) * talent + rng.uniform(0, 2))),
        "defense": round(1 + 4 * (1 - talent / 2) * rng.uniform(0.5, 1))
        if not forward else int(rng.random() < 0.35),
        "penalty": min(99, round(rng.triangular(5, 90, 25 + 10 * line))),
        "injury": rng.randint(10, 85),
        "stamina": "B" if line >= 4 and rng.random() < 0.5 else "A",
    }
    if position == "C" or (forward and rng.random() < 0.3):
        card["faceoff"] = round(rng.uniform(-8, 8) + (4 * talent if position == "C" else -3))
    return card


def goalie(rng: random.Random, name: str, talent: float) -> dict[str, Any]:
    return {"id": name.lower().replace(" ", "-"), "name": name,
            "goal": round(5.8 - 3 * talent + rng.uniform(-0.6, 0.6)),
            "saves": saves(rng, 94, 0.30 - 0.12 * talent), "so": rng.randint(0, 3),
            "so_attempts": rng.randint(2, 12)}


def team(rng: random.Random, team_id: str, name: str, names: list[str]) -> dict[str, Any]:
    strength = rng.uniform(0.45, 0.65)
    forwards, defense, skaters = [], [], []
    for line in range(1, 5):
        row = []
        for position in ("LW", "C", "RW"):
            talent = max(0.05, min(1.0, strength * (1.35 - 0.22 * line) + rng.uniform(-.15, .15)))
            card = skater(rng, names.pop(), position, talent, line)
            skaters.append(card)
            row.append(card["id"])
        forwards.append(row)
    for pair in range(1, 4):
        row = []
        for _ in ("LD", "RD"):
            talent = max(0.05, min(1.0, strength * (1.3 - 0.2 * pair) + rng.uniform(-.15, .15)))
            card = skater(rng, names.pop(), "D", talent, pair + 1)
            skaters.append(card)
            row.append(card["id"])
        defense.append(row)
    shooters = sorted((c for c in skaters if c["position"] != "D"), key=lambda c: -c["goal"])
    for rank, card in enumerate(shooters[:3], start=1):
        card["shooter"] = rank  # 21C: *[1], *[2], *[3]
    goalies = [goalie(rng, names.pop(), strength + 0.1), goalie(rng, names.pop(), strength - 0.2)]
    return {
        "id": team_id, "name": name, "timing": rng.randint(9, 11),
        "pp": -round(5 + 8 * strength + rng.uniform(-2, 2)),
        "pk": round(2 + 6 * strength + rng.uniform(-1, 1)),
        "lines": {"forwards": forwards, "defense": defense,
                  "goalies": [g["id"] for g in goalies]},
        "skaters": skaters, "goalies": goalies,
    }


def league(seed: str = "demo") -> list[dict[str, Any]]:
    rng = random.Random(seed)
    names = [f"{first} {last}" for first in FIRST for last in LAST]
    rng.shuffle(names)
    return [team(rng, team_id, name, names) for team_id, name in TEAMS]


def write(out: Path, seed: str = "demo") -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for data in league(seed):
        path = out / f"{data['id'].lower()}.toml"
        header = (f"# {data['name']}: an invented DICE Hockey team (replay/systems/"
                  f"dicehockey/cardgen.py, seed {seed!r}). Every name is made up.\n")
        path.write_text(header + tomli_w.dumps(data), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--seed")]
    seed = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--seed=")), "demo")
    target = Path(args[0]) if args else Path(__file__).resolve().parents[3] / "fixtures" \
        / "dicehockey" / "teams"
    for path in write(target, seed):
        print(path)
