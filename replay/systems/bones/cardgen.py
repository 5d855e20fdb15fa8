"""Deterministic generator of invented Hockey Bones teams, and their TOML form.

``generate_team(team_id, name, seed)`` builds 12 forwards, 6 defensemen and 2 goalies
from archetypes (scorer, playmaker, two-way, grinder, goon, penalty killer, shutdown D,
offensive D), better players on higher lines. Every random draw comes from one
``random.Random(f"{seed}:{team_id}")``, so a seed and an id always give the same team.

Cell shares are aimed at by weight: a cell at white total w is read with probability
(6 - |w - 7|) / 216 (3.10), so the action matrix (8.10), the penalty column (14.00) and
the goalie matrix (11.10) are filled by giving each cell, in random order, the category
furthest below its target weight. ``summarize(team)`` measures the shares obtained.

    python -m replay.systems.bones.cardgen OUTDIR HFX:"Halifax Harbourmen" QUE:"Quebec Glaciers"[:0.3]

writes ``OUTDIR/hfx.toml`` ...; an optional ``:STRENGTH`` in [-1, 1] shifts quality.

    python -m replay.systems.bones.cardgen --league fixtures/bones/leagues/demo

writes the demo league (``league.toml`` and ``teams/*.toml``): ``generate_league`` with
``DEMO_TUNING``, the generator knobs (``Tuning``) it was calibrated with.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from engine.bones.cards import Goalie, Lines, Skater, Team
from engine.bones.codes import parse_goalie_cell, parse_skater_cell
from engine.bones.dice import DiceRange
from events.errors import CardError

__all__ = ["DEMO_TUNING", "Tuning", "blocked_shot_ratings", "generate_league", "generate_team",
           "main", "range_probability", "summarize", "team_to_toml"]

WHITE = {w: (6 - abs(w - 7)) / 36 for w in range(2, 13)}
CELL_WEIGHTS = [WHITE[w] / 6 for _ in range(6) for w in range(2, 13)]  # blue-major order
SLOTS = ("LW", "C", "RW", "LD", "RD")

FIRST = ("Marc", "Anders", "Teo", "Rory", "Dax", "Yannick", "Caleb", "Soren", "Miko", "Ewan",
         "Jules", "Brody", "Lars", "Quinn", "Tobias", "Remy", "Ilya", "Nils", "Cody", "Felix",
         "Gage", "Hollis", "Kasimir", "Leif", "Malo", "Oskar", "Pascal", "Reid", "Silas",
         "Tate", "Ulric", "Wade", "Zeke", "Emil", "Fraser")
LAST = ("Brandvold", "Kettering", "Dufresne", "Halvorsen", "Marchetti", "Pruett",
        "Lindqvist", "Okafor", "Trevanion", "Varga", "Whitcombe", "Ashdown", "Beaulieu",
        "Carrow", "Delorme", "Eskola", "Fenwick", "Gauthier", "Haverty", "Ingebrigt",
        "Jessop", "Kowalczyk", "Lachance", "Mulvaney", "Nordby", "Ouellet", "Pelletier",
        "Quist", "Rasmark", "Strand", "Thibodeau", "Uhlig", "Vasseur", "Wexley", "Yarrow",
        "Zelinski", "Archambault", "Bjorkman", "Corriveau", "Dunlevy")

# Action-matrix category shares by archetype (8.10): numeric, pass, automatic shot,
# *H/*D shots, penalty, infraction, icing.
_MIX = {
    "scorer": (.46, .28, .09, .04, .05, .04, .04),
    "playmaker": (.45, .36, .04, .03, .04, .04, .04),
    "two-way": (.48, .32, .04, .03, .05, .04, .04),
    "grinder": (.47, .31, .03, .03, .08, .04, .04),
    "goon": (.44, .29, .03, .02, .13, .05, .04),
    "penalty-killer": (.48, .32, .03, .03, .05, .04, .05),
    "shutdown-d": (.45, .34, .02, .03, .06, .04, .06),
    "offensive-d": (.45, .33, .05, .04, .05, .04, .04),
}
_CATS = ("numeric", "pass", "auto", "special", "penalty", "infraction", "icing")
# (numeric mean shift, shooting-probability shift, defense, intimidation, mi, ma, gm)
_TRAITS = {
    "scorer": (0.8, 0.06, 1, 0, 1, 0, 0), "playmaker": (0.3, 0.01, 2, 0, 1, 0, 0),
    "two-way": (0.0, 0.0, 3, 1, 1, 1, 0), "grinder": (-0.7, -0.03, 2, 2, 3, 2, 1),
    "goon": (-1.2, -0.05, 1, 3, 4, 5, 4), "penalty-killer": (-0.5, -0.03, 3, 1, 2, 1, 0),
    "shutdown-d": (-0.6, -0.03, 5, 2, 2, 2, 1), "offensive-d": (0.8, 0.04, 3, 0, 1, 0, 0),
}
_PEN_TYPES = ("-", "D", "A", "M", "B", "C", "F", "G", "#")
_PEN_MIX = {"base": (.70, .08, .08, .03, .04, .02, .02, .02, .01),
            "goon": (.52, .08, .10, .07, .09, .05, .03, .03, .03)}


@dataclass(frozen=True)
class Tuning:
    """The generator's knobs. The defaults give the original demo teams draw for draw;
    a league is generated with other values (``DEMO_TUNING``) to calibrate its figures.

    - ``injury_marks``: ``?`` cells (18.00) on a goon/grinder card and on the others;
    - ``intimidation``: added to the archetype's intimidation bars (clipped at 0..3);
    - ``pen_mix``: penalty-column shares of - D A M B C F G # (14.00) for base and goon;
    - ``penalty_share``: scales the action-matrix penalty (X) share (8.10);
    - ``shoot``: added to every skater's shooting-range chance (10.10-10.40);
    - ``goalie_goal``: the goal-capable share (11.10) of an average goalie, and the
      change per unit of quality (a better goalie has fewer);
    - ``blocker``: chance a two-way or penalty-killing forward has the B flag (10.70);
    - ``d_blocker``: chance a defenseman below defense 4 has the Blocked Shot rating (B,
      FaceOff 10.70); a shutdown defenseman (defense 4-5) always has it. Drawn from a
      stream of its own (``blocked_shot_ratings``), so no other draw of a card moves;
    - ``star``: quality added to each team's first-line scorer;
    - ``numeric``: added to the mean numeric action code (8.10: more shots beat Team
      Defense); ``pp_shoot``: added to the P (power-play) range only (10.20);
    - ``backup``: the backup goalie's quality (the starter's is 0.4), before team strength;
    - ``goalie_x``: the four cells a goalie's penalty cell (11.10 X, about 2% of his
      reads) is drawn from, one of four as before, so no other draw moves; ``F`` among
      them (a save, puck frozen) lowers how often a goalie is penalized.
    """

    injury_marks: tuple[int, int] = (3, 2)
    intimidation: int = 0
    pen_mix: tuple[tuple[float, ...], tuple[float, ...]] = (_PEN_MIX["base"], _PEN_MIX["goon"])
    penalty_share: float = 1.0
    shoot: float = 0.0
    goalie_goal: tuple[float, float] = (0.30, 0.10)
    blocker: float = 0.5
    d_blocker: float = 0.75
    star: float = 0.0
    numeric: float = 0.0
    pp_shoot: float = 0.0
    backup: float = -0.3
    goalie_x: tuple[str, str, str, str] = ("X", "X2", "X3", "X4")


DEFAULT_TUNING = Tuning()


def range_probability(text: str) -> float:
    """The chance that one roll of the four dice is in this range (3.20)."""
    r = DiceRange.parse(text)
    below = sum(p for w, p in WHITE.items() if w < r.white)
    equal = WHITE[r.white] * (r.red / 6 if r.red is not None else 1.0)
    return (r.blue - 1) / 6 + (below + equal) / 6


_RANGES = sorted(
    (range_probability(t), t)
    for t in [f"{b}-{w}{s}" for b in range(1, 7) for w in range(4, 13)  # no odd "3-2"
              for s in ["", "(1)", "(2)", "(3)", "(4)", "(5)"]]
)


def nearest_range(p: float, with_red: bool = False) -> str:
    """The range whose in-range chance is nearest p (plain ``b-w`` unless with_red)."""
    pool = [(q, t) for q, t in _RANGES if with_red or "(" not in t]
    return min(pool, key=lambda qt: abs(qt[0] - p))[1]


def _allocate(rng: random.Random, weights: list[float], targets: dict[str, float]) -> list[str]:
    """Label each cell so every label's weight nears its share of the total weight.

    Cells in random order take the label furthest below its target; then single cells
    are relabelled while that brings the shares closer (so rare labels land anywhere).
    """
    total, share = sum(weights), sum(targets.values())
    goal = {k: v / share * total for k, v in targets.items()}
    got = dict.fromkeys(targets, 0.0)
    labels = [""] * len(weights)
    order = list(range(len(weights)))
    rng.shuffle(order)
    for i in order:
        label = max(goal, key=lambda k: goal[k] - got[k])
        labels[i] = label
        got[label] += weights[i]
    for _ in range(20):
        moved = False
        for i in order:
            a, w = labels[i], weights[i]
            # moving cell i from a to b changes the squared error by this much
            b = min(goal, key=lambda k: 2 * w * (got[k] - goal[k] - got[a] + goal[a] + w))
            if b != a and got[b] - goal[b] - got[a] + goal[a] + w < -1e-12:
                labels[i], got[a], got[b], moved = b, got[a] - w, got[b] + w, True
        if not moved:
            break
    return labels


def _pick(rng: random.Random, table: dict[str, float]) -> str:
    return rng.choices(list(table), weights=list(table.values()))[0]


def _skater_code(rng: random.Random, cat: str, mean: float, is_d: bool) -> str:
    if cat == "numeric":
        return str(min(14, max(1, round(rng.gauss(mean, 1.8)))))
    if cat == "pass":
        kind = _pick(rng, {"P": .40, "Pn": .32, "@": .13, "PP": .15} if not is_d else
                     {"P": .30, "Pn": .20, "@": .10, "PP": .12, "Pf": .28})
        if kind == "Pn":
            return "P" + _pick(rng, {"1": .1, "2": .25, "3": .3, "4": .25, "5": .1})
        return "Pf" + _pick(rng, {"1": .3, "2": .4, "3": .3}) if kind == "Pf" else kind
    if cat == "auto":
        return _pick(rng, {"*": .7, "R": .3})
    if cat == "special":
        kind = _pick(rng, {"*H": .25, "*Hn": .35, "*D": .40})
        return kind if kind == "*H" else kind[:2] + str(rng.randint(4 if kind == "*D" else 5, 9))
    if cat == "penalty":
        kind = _pick(rng, {"X": .4, "Xn": .4, "XH": .1, "XV": .1})
        return "X" + _pick(rng, {"1": .1, "2": .25, "3": .3, "4": .25, "5": .1}) \
            if kind == "Xn" else kind
    return {"infraction": "#", "icing": "I"}[cat]


def _matrix(cells: list[str]) -> list[list[str]]:
    return [cells[b * 11:(b + 1) * 11] for b in range(6)]


def _penalty(rng: random.Random, kind: str, tune: Tuning = DEFAULT_TUNING
             ) -> dict[str, list[str]]:
    weights = [p / 2 for p in WHITE.values()] * 2
    mix = tune.pen_mix[1 if kind == "goon" else 0]
    cells = _allocate(rng, weights, {k: v for k, v in zip(_PEN_TYPES, mix, strict=True) if v})
    return {"odd": cells[:11], "even": cells[11:]}


def _name(rng: random.Random, taken: set[str], avoid: set[str] | None = None
          ) -> tuple[str, str]:
    """An invented name and its slug id, first and last names unused in the team so far
    (and an id not in ``avoid``: the ids other teams of a league already use)."""
    avoid = avoid if avoid is not None else set()
    firsts = [f for f in FIRST if f not in taken] or list(FIRST)
    lasts = [la for la in LAST if la not in taken] or list(LAST)
    while True:
        first, last = rng.choice(firsts), rng.choice(lasts)
        pid = f"{first}-{last}".lower()
        if pid not in taken and pid not in avoid:
            taken.update((pid, first, last))
            avoid.add(pid)
            return pid, f"{first} {last}"


def _skater(rng: random.Random, taken: set[str], arch: str, slot: str, q: float,
            positions: list[str], line: int, tune: Tuning = DEFAULT_TUNING,
            avoid: set[str] | None = None) -> Skater:
    """One skater of an archetype at quality q (about -1..1) playing ``slot``."""
    is_d = positions == ["D"]
    mean_shift, shoot, defense, intim, mi, ma, gm = _TRAITS[arch]
    pid, name = _name(rng, taken, avoid)
    mix = dict(zip(_CATS, _MIX[arch], strict=True))
    if tune.penalty_share != 1.0:
        mix["numeric"] += mix["penalty"] * (1 - tune.penalty_share)
        mix["penalty"] *= tune.penalty_share
    labels = _allocate(rng, CELL_WEIGHTS, mix)
    mean = (6.0 if is_d else 8.0) + mean_shift + 0.8 * q + tune.numeric
    cells = [_skater_code(rng, cat, mean, is_d) for cat in labels]
    marks: list[str] = [""] * 66
    n_plus = 12 if arch == "penalty-killer" else 8
    hurt = tune.injury_marks[0 if arch in ("goon", "grinder") else 1]
    for mark, count in (("+", n_plus), ("?", hurt),
                        ("S", 6)):  # special codes (8.20), written in the order + ? S
        for i in sorted(rng.sample(range(66), count)):
            marks[i] += mark
    cells = [code + mark for code, mark in zip(cells, marks, strict=True)]
    base = (0.17 + 0.04 * q if is_d else 0.33 + 0.07 * q) + shoot + tune.shoot
    base = min(0.24, max(0.11, base)) if is_d else min(0.48, max(0.22, base))
    others = [s for s in SLOTS if s != slot]
    passes = rng.sample(others, 4) + [rng.choice(others + [slot])]
    rng.shuffle(passes)
    rating = defense + (1 if q > 0.3 else 0) - (1 if q < -0.4 else 0)
    return msgspec.convert(dict(
        id=pid, name=name, positions=positions,
        n=nearest_range(base, rng.random() < 0.3),
        p=nearest_range(base + (0.03 if is_d else 0.04) + tune.pp_shoot, rng.random() < 0.3),
        s=nearest_range(max(0.03, base - (0.05 if is_d else 0.08))),
        d=None if is_d else nearest_range(base - 0.06),
        action=_matrix(cells), passes=passes,
        pass_six={"es": rng.choice(SLOTS), "pk": rng.choice(("LD", "RD", "C")),
                  "pp": rng.choice(SLOTS)},
        penalty=_penalty(rng, "goon" if arch == "goon" else "base", tune),
        defense=min(5, max(2, rating)) if is_d else min(3, max(1, rating)),
        clearing={"shutdown-d": rng.randint(3, 4), "offensive-d": rng.randint(1, 2)}.get(
            arch, rng.randint(2, 3)) if is_d else 0,
        shadow=arch in ("grinder", "two-way", "penalty-killer") and not is_d
        and rng.random() < 0.4,
        forechecking={"grinder": 2, "goon": rng.randint(1, 2), "two-way": 1}.get(
            arch, 0 if is_d else rng.randint(0, 1)),
        intimidation=min(3, max(0, intim + tune.intimidation + rng.choice((-1, 0, 0))))
        if intim else 0,
        passing={"playmaker": 2, "offensive-d": 1, "scorer": 1}.get(arch, rng.randint(0, 1)),
        screening=arch in ("scorer", "grinder") and rng.random() < 0.35,
        blocker=arch in ("penalty-killer", "two-way") and not is_d
        and rng.random() < tune.blocker,
        shift=_shift_rating(rng, line, is_d),
        mc={"goon": "1-6", "grinder": "1-5"}.get(arch, rng.choice(("1-3", "1-4"))),
        assist=min(4, max(1, {"playmaker": 4, "scorer": 3, "offensive-d": 3, "goon": 1}.get(
            arch, 2) + (1 if q > 0.5 else 0))),
        mi=min(5, mi + rng.randint(0, 1)), ma=min(5, ma + rng.randint(0, 1)),
        gm=min(5, gm + rng.randint(0, 1) if gm else rng.choice((0, 0, 1))),
        so=min(10, max(0, round({"scorer": 7, "playmaker": 6, "goon": 1}.get(
            arch, 2 if is_d else 4) + 1.5 * q + rng.uniform(-1, 1)))),
    ), Skater)


def _shift_rating(rng: random.Random, line: int, is_d: bool) -> float:
    """A shift rating in halves that keeps the draft league rules (rules 14-18): every
    dressed skater at 7 or more, the first line at 9 or more, each forward position's
    three regular lines at 26 or more (10.8 + 9.4 + 8.0, at worst 26.25 after noise and
    rounding) and the three pairs' defensemen at 56 or more (at worst 56.1)."""
    mean = 12.0 - 2.0 * line if is_d else 10.8 - 1.4 * line
    return max(7.0, round(2 * (mean + rng.uniform(-0.4, 0.4))) / 2)


def _goalie(rng: random.Random, taken: set[str], q: float, starter: bool,
            tune: Tuning = DEFAULT_TUNING, avoid: set[str] | None = None) -> Goalie:
    """A goalie whose goal-capable cells (11.10) fill ~25% (good) to ~35% (poor)."""
    pid, name = _name(rng, taken, avoid)
    mid, slope = tune.goalie_goal
    goal = min(mid + 0.05, max(mid - 0.05, mid - slope * q))
    mix = {"goal": goal, "slot": .25, "R": .08, "X": .02, "PS1": .01, "F?1": .01}
    mix["F"] = 1 - sum(mix.values())
    own = {"LD": .3, "RD": .3, "C": .15, "LW": .125, "RW": .125}
    cells = []
    for cat in _allocate(rng, CELL_WEIGHTS, mix):
        if cat == "goal":
            kind = _pick(rng, {"FG": .35, "OWN": .35, "*": .30})
            cell = ("FG" if kind == "FG" else _pick(rng, own) + "G" if kind == "OWN"
                    else "*" + _pick(rng, {"LW": .3, "C": .3, "RW": .3, "LD": .05,
                                           "RD": .05}).lower())
        elif cat == "slot":
            cell = _pick(rng, own)
        elif cat == "X":
            cell = rng.choice(tune.goalie_x)
        else:
            cell = cat
        cells.append(cell)
    reb = {"LW": .27, "C": .30, "RW": .27, "LD": .08, "RD": .08}
    grade = "A" if q > 0.5 else "B" if q > 0.2 else "C" if q > -0.2 else "D" if q > -0.5 else "F"
    return msgspec.convert(dict(
        id=pid, name=name, action=_matrix(cells),
        rebounds={"upper": [_pick(rng, reb) for _ in range(5)],
                  "lower": [_pick(rng, reb) for _ in range(6)]},
        penalty=_penalty(rng, "base", tune),
        assist_range=rng.choice(("1-3", "1-4", "1-5")), mc="1-3",
        gm_range=rng.choice(("1-3", "1-4")), shootout=grade,
        # the two goalies' games cover an 82-game season (draft league rule 12)
        games=rng.randint(52, 62) if starter else rng.randint(30, 38),
    ), Goalie)


_F_LINES = (  # archetypes (LW, C, RW) per forward line, alternatives split by "|"
    ("scorer", "playmaker", "scorer|two-way"),
    ("scorer|two-way", "two-way|playmaker", "playmaker|scorer"),
    ("grinder|two-way", "two-way|penalty-killer", "penalty-killer"),
    ("goon", "grinder|penalty-killer", "grinder"),
)
_D_PAIRS = (("offensive-d", "shutdown-d"), ("two-way", "shutdown-d|offensive-d"),
            ("shutdown-d", "goon|two-way"))


def generate_team(team_id: str, name: str, seed: str, strength: float = 0.0,
                  tune: Tuning = DEFAULT_TUNING, avoid: set[str] | None = None) -> Team:
    """An invented team; the same (seed, team_id, name, strength, tune) gives the same team.

    ``avoid`` holds player ids already taken (by the other teams of a league); the new
    team's ids are added to it.
    """
    rng = random.Random(f"{seed}:{team_id}")
    strength = min(1.0, max(-1.0, strength))
    taken: set[str] = set()
    forwards: list[list[str]] = []
    pairs: list[list[str]] = []
    skaters: list[Skater] = []
    archs_of: list[str] = []
    for line, archs in enumerate(_F_LINES):
        ids = []
        for slot, choice in zip(("LW", "C", "RW"), archs, strict=True):
            arch = rng.choice(choice.split("|"))
            q = 0.6 - 0.4 * line + 0.5 * strength + rng.gauss(0, 0.15)
            positions = [slot]
            if rng.random() < 0.25:
                positions.append({"LW": "RW", "RW": "LW", "C": rng.choice(("LW", "RW"))}[slot])
            if line == 0 and slot == "LW":
                q += tune.star
            skater = _skater(rng, taken, arch, slot, q, positions, line, tune, avoid)
            archs_of.append(arch)
            if slot == "C" and line < 2:
                skater = msgspec.structs.replace(skater, faceoff=rng.choice(("A", "AA")))
            elif slot == "C" and rng.random() < 0.3:
                skater = msgspec.structs.replace(skater, faceoff="A")
            skaters.append(skater)
            ids.append(skater.id)
        forwards.append(ids)
    for pair, archs in enumerate(_D_PAIRS):
        ids = []
        for slot, choice in zip(("LD", "RD"), archs, strict=True):
            arch = rng.choice(choice.split("|"))
            q = 0.5 - 0.5 * pair + 0.5 * strength + rng.gauss(0, 0.15)
            skater = _skater(rng, taken, arch, slot, q, ["D"], pair, tune, avoid)
            skaters.append(skater)
            archs_of.append(arch)
            ids.append(skater.id)
        pairs.append(ids)
    # Ace penalty killers (9.51): the penalty-killer forwards first, then one shutdown D.
    killers = sorted(range(12), key=lambda i: (archs_of[i] != "penalty-killer",
                                               -skaters[i].defense, i))[:rng.randint(1, 3)]
    killers += [i for i in range(12, 18) if archs_of[i] == "shutdown-d"][:1]
    for i in killers:
        skaters[i] = msgspec.structs.replace(skaters[i], ace_pk=True)
    goalies = [_goalie(rng, taken, 0.4 + 0.5 * strength, True, tune, avoid),
               _goalie(rng, taken, tune.backup + 0.5 * strength, False, tune, avoid)]
    team = blocked_shot_ratings(Team(
        id=team_id, name=name,
        bench_minor=nearest_range(rng.uniform(0.05, 0.08), with_red=True),  # 5.00
        game_misconduct=nearest_range(rng.uniform(0.08, 0.11)),  # 14.51
        lines=Lines(forwards=forwards, defense=pairs, goalies=[g.id for g in goalies]),
        skaters=skaters, goalies=goalies,
    ), seed, tune)
    return msgspec.convert(msgspec.to_builtins(team), Team)  # checks every constraint


def blocked_shot_ratings(team: Team, seed: str, tune: Tuning = DEFAULT_TUNING) -> Team:
    """The team with its defensemen's Blocked Shot ratings (B, 10.70).

    FaceOff 10.70 counts the Blocked Shot ratings of the players at LD and RD, so the
    rating belongs on defensemen's cards; "0 Bs" among its cases says not every pair has
    two. Hockey Bones 10.70 counts every defenseman on the ice whatever his card (ruling
    R-10.70a) and puts B on "some forwards", which ``_skater`` draws. A shutdown
    defenseman (defense 4-5) has B; any other, with chance ``tune.d_blocker``. Each
    defenseman's draw has a stream of its own, ``f"{seed}:{team.id}:10.70:{player id}"``,
    apart from the team's, so adding the ratings moved no other draw of any card, and
    cards made before it (the bundled teams) take them exactly as the generator gives them.
    A card that already has B keeps it.
    """
    skaters = []
    for s in team.skaters:
        if s.is_defenseman:
            draw = random.Random(f"{seed}:{team.id}:10.70:{s.id}").random()
            if s.defense >= 4 or draw < tune.d_blocker:
                s = msgspec.structs.replace(s, blocker=True)
        skaters.append(s)
    return msgspec.structs.replace(team, skaters=skaters)


# --- a whole league -----------------------------------------------------------------------

# The demo league: invented cities and nicknames (none is an NHL club's), by conference
# and division. ``generate_league`` gives each team a strength and unique player ids.
DEMO_LEAGUE: list[tuple[str, list[tuple[str, list[tuple[str, str]]]]]] = [
    ("Boreal", [
        ("Tamarack", [("ALD", "Alderpoint Ospreys"), ("BRK", "Brackenridge Foxhounds"),
                      ("CDV", "Cedarvale Lumberjacks"), ("DRF", "Driftwood Bay Pilots"),
                      ("ELM", "Elmhurst Falls Millers"), ("FRN", "Fernmoor Thunderbirds"),
                      ("GLN", "Glenharrow Wolverines"), ("HTH", "Heathcote Iron")]),
        ("Lantern", [("IRV", "Irvale Comets"), ("JSP", "Jasper Crossing Hawks"),
                     ("KST", "Kestrel Harbour Gulls"), ("LKM", "Lakemont Voyageurs"),
                     ("MRW", "Marrowick Badgers"), ("NTH", "Northbrook Rivermen"),
                     ("OAK", "Oakhaven Stags"), ("PIK", "Pikeford Sentinels")]),
    ]),
    ("Tidewater", [
        ("Saltmarsh", [("QRY", "Quarry Hill Granite"), ("RVN", "Ravenscar Corsairs"),
                       ("SDL", "Sandalwood Herons"), ("TRN", "Tarnbury Yetis"),
                       ("UPL", "Upland Ridge Rams"), ("VLR", "Valerton Mariners"),
                       ("WLW", "Willowmere Otters"), ("XEN", "Xenford Lynx")]),
        ("Cinder", [("YRK", "Yarrowick Blackflies"), ("ZEP", "Zephyr Point Squalls"),
                    ("ASH", "Ashgrove Bisons"), ("BLF", "Bluffton Cormorants"),
                    ("CRG", "Craigmoor Highlanders"), ("DUN", "Dunmere Miners"),
                    ("EMB", "Emberly Firebrands"), ("FOX", "Foxhollow Marauders")]),
    ]),
]

# The knobs the demo league was calibrated with (docs/calibration.md).
DEMO_TUNING = Tuning(
    injury_marks=(1, 1), intimidation=-1, shoot=0.015, numeric=0.8, pp_shoot=0.14,
    goalie_goal=(0.31, 0.10), blocker=1.0, penalty_share=0.95, star=0.3, backup=0.2,
    goalie_x=("X1", "X1", "F", "F"),
    pen_mix=((.87, .04, .05, .005, .012, .005, .005, .005, .003),
             (.80, .06, .07, .01, .03, .01, .01, .01, .005)),
)
DEMO_SEED = "demo"


def generate_league(
    layout: list[tuple[str, list[tuple[str, list[tuple[str, str]]]]]] | None = None,
    seed: str = DEMO_SEED, tune: Tuning | None = None, spread: float = 0.5,
) -> list[Team]:
    """Every team of a league, player ids unique across all of them.

    Strengths run evenly over [-spread, spread], dealt to the teams in a seeded order,
    so the league has contenders and also-rans; the same arguments give the same teams.
    """
    layout = DEMO_LEAGUE if layout is None else layout
    tune = DEMO_TUNING if tune is None else tune
    entries = [t for _, divisions in layout for _, teams in divisions for t in teams]
    n = len(entries)
    strengths = [round(spread * (2 * i / (n - 1) - 1), 2) if n > 1 else 0.0 for i in range(n)]
    random.Random(f"{seed}:strengths").shuffle(strengths)
    avoid: set[str] = set()
    return [generate_team(tid, name, seed, strength, tune, avoid)
            for (tid, name), strength in zip(entries, strengths, strict=True)]


def league_to_toml(name: str, layout: list[tuple[str, list[tuple[str, list[tuple[str, str]]]]]],
                   games: int = 82, comment: str = "") -> str:
    """A league file (replay/leagues/league.py) for this layout."""
    out = [f"# {line}" for line in comment.splitlines()]
    out += [f"name = {json.dumps(name)}", f"games = {games}"]
    for conf, divisions in layout:
        out += ["", "[[conferences]]", f"name = {json.dumps(conf)}"]
        for div, teams in divisions:
            out += ["", "[[conferences.divisions]]", f"name = {json.dumps(div)}",
                    f"teams = {_value([tid for tid, _ in teams])}"]
    return "\n".join(out) + "\n"


def write_league(outdir: Path, name: str = "demo", seed: str = DEMO_SEED,
                 layout: list[tuple[str, list[tuple[str, list[tuple[str, str]]]]]] | None = None,
                 tune: Tuning | None = None, games: int = 82) -> list[Path]:
    """Write ``OUTDIR/league.toml`` and ``OUTDIR/teams/<id>.toml``; the paths written."""
    layout = DEMO_LEAGUE if layout is None else layout
    teams = generate_league(layout, seed, tune)
    folder = outdir / "teams"
    folder.mkdir(parents=True, exist_ok=True)
    note = (f"The {name} league: invented teams, generated by python -m "
            f"replay.systems.bones.cardgen --league (seed {seed!r}).\nEvery name is made up.")
    paths = [outdir / "league.toml"]
    paths[0].write_text(league_to_toml(name, layout, games, note), encoding="utf-8")
    for team in teams:
        path = folder / f"{team.id.lower()}.toml"
        path.write_text(team_to_toml(team, f"{team.name}: an invented team of the {name} "
                                           f"league (seed {seed!r}). Every name is made up."),
                        encoding="utf-8")
        paths.append(path)
    return paths


# --- TOML, one matrix column per line -------------------------------------------------------

def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    return "[" + ", ".join(_value(x) for x in v) + "]"


def _grid(key: str, grid: list[list[str]]) -> list[str]:
    width = max(9, *(len(json.dumps(c)) + 2 for col in grid for c in col))  # same on all cards
    head = "".join(f"{w:<{width}}" for w in range(2, 13)).rstrip()
    out = [f"{key} = [", f"  #  {head}   <- white"]
    for blue, col in enumerate(grid, start=1):
        cells = "".join(f"{json.dumps(c) + ',':<{width}}" for c in col[:-1])
        out.append(f"  [{cells}{json.dumps(col[-1]):<{width - 1}}],  # blue {blue}")
    return out + ["]"]


def _table(data: dict[str, Any]) -> list[str]:
    out = []
    for key, v in data.items():
        if v is None:
            continue
        if key == "action":
            out += _grid(key, v)
        elif key == "penalty":
            out += [f"penalty.{half} = {_value(v[half])}" for half in ("odd", "even")]
        elif key == "rebounds":
            out += [f"rebounds.{part} = {_value(v[part])}" for part in ("upper", "lower")]
        else:
            out.append(f"{key} = {_value(v)}")
    return out


def team_to_toml(team: Team, comment: str = "") -> str:
    """The team as TOML for people: one line a field, one matrix column a line."""
    data = msgspec.to_builtins(team)
    out = [f"# {line}" for line in comment.splitlines()]
    out += [f"{k} = {_value(data[k])}" for k in ("id", "name", "bench_minor", "game_misconduct")]
    lines = data["lines"]
    out += ["", "[lines]  # forward lines [LW, C, RW], pairs [LD, RD], goalies [starter, backup]"]
    out += ["forwards = ["] + [f"  {_value(x)}," for x in lines["forwards"]] + ["]"]
    out += ["defense = ["] + [f"  {_value(x)}," for x in lines["defense"]] + ["]"]
    out.append(f"goalies = {_value(lines['goalies'])}")
    for kind in ("skaters", "goalies"):
        for card in data[kind]:
            out += ["", f"[[{kind}]]"] + _table(card)
    text = "\n".join(out) + "\n"
    if msgspec.toml.decode(text, type=Team) != team:  # the layout must never change data
        raise RuntimeError(f"TOML layout of {team.id} does not read back the same")
    return text


# --- measuring ------------------------------------------------------------------------------

_CAT_OF = {"N": "numeric", "P": "pass", "PP": "pass", "Pf": "pass", "@": "pass", "*": "auto",
           "R": "auto", "*H": "special", "*D": "special", "X": "penalty", "XH": "penalty",
           "XV": "penalty", "#": "infraction", "I": "icing"}


def summarize(team: Team) -> dict[str, float]:
    """Shares weighted by the dice (3.10), averaged over the team's cards."""
    out: dict[str, float] = {}

    def add(key: str, value: float, count: int) -> None:
        out[key] = out.get(key, 0.0) + value / count

    for group, cards in (("F", [s for s in team.skaters if not s.is_defenseman]),
                         ("D", [s for s in team.skaters if s.is_defenseman])):
        for s in cards:
            for w, cell in zip(CELL_WEIGHTS, (c for col in s.action for c in col), strict=True):
                parsed = parse_skater_cell(cell)
                add(f"{group} {_CAT_OF[parsed.code]}", w, len(cards))
                if parsed.code == "N":
                    add(f"{group} mean numeric", w * parsed.value, len(cards))  # type: ignore
                for mark, flag in (("+", parsed.plus), ("?", parsed.injury),
                                   ("S", parsed.pressure)):
                    add(f"{group} cells with {mark}", float(flag), len(cards))
            add(f"{group} N in-range", range_probability(s.n), len(cards))
            add(f"{group} defense", s.defense, len(cards))
            for half in (s.penalty.odd, s.penalty.even):
                for w, kind in zip(WHITE.values(), half, strict=True):
                    add(f"penalty {kind}", w / 2, len(team.skaters))
        out[f"{group} mean numeric"] /= out[f"{group} numeric"]
    for g in team.goalies:
        for w, cell in zip(CELL_WEIGHTS, (c for col in g.action for c in col), strict=True):
            parsed = parse_goalie_cell(cell)
            kind = "goal-capable" if parsed.goal_if_in_range else (
                "save to slot" if parsed.code == "OWN" else cell.rstrip("12345"))
            add(f"goalie {g.id} {kind}", w, 1)
    return dict(sorted(out.items()))


def main(argv: list[str] | None = None) -> int:
    """``python -m replay.systems.bones.cardgen OUTDIR TEAMID:Name[:STRENGTH] ...``"""
    parser = argparse.ArgumentParser(prog="python -m replay.systems.bones.cardgen",
                                     description=__doc__
                                     .split("\n\n")[0])
    parser.add_argument("outdir", type=Path, nargs="?")
    parser.add_argument("teams", nargs="*", metavar="TEAMID:Name[:STRENGTH]")
    parser.add_argument("--seed", default=None, help="generator seed (default 'rinklog'; "
                        f"{DEMO_SEED!r} with --league)")
    parser.add_argument("--summary", action="store_true", help="print the measured shares")
    parser.add_argument("--league", type=Path, metavar="LEAGUEDIR",
                        help="write the demo league (league.toml, teams/*.toml) there")
    args = parser.parse_args(argv)
    if args.league is not None:
        if args.outdir is not None or args.teams:
            parser.error("--league takes no OUTDIR or teams")
        for path in write_league(args.league, args.league.name, args.seed or DEMO_SEED):
            print(f"wrote {path}")
        return 0
    if args.outdir is None or not args.teams:
        parser.error("give OUTDIR and at least one TEAMID:Name (or --league LEAGUEDIR)")
    args.seed = args.seed or "rinklog"
    try:
        written = write_teams(args.outdir, args.teams, args.seed, force=True)
    except CardError as err:
        parser.error(str(err))
    for path, team in written:
        print(f"wrote {path}")
        if args.summary:
            for key, value in summarize(team).items():
                print(f"  {key:<28} {value:7.3f}")
    return 0


def parse_team_spec(spec: str) -> tuple[str, str, float]:
    """``TEAMID:Name[:STRENGTH]`` as (id, name, strength); strength in [-1, 1]."""
    team_id, _, name = spec.partition(":")
    strength = 0.0
    head, _, tail = name.rpartition(":")
    if head:
        try:
            strength, name = float(tail), head
        except ValueError:
            pass
    if not team_id or not name.strip():
        raise CardError(f"expected TEAM:Name[:strength], got {spec!r}")
    if not -1.0 <= strength <= 1.0:  # also refuses nan
        raise CardError(f"{spec!r}: strength must be between -1 and 1, got {tail}")
    return team_id.upper(), name, strength


def write_teams(outdir: Path, specs: list[str], seed: str,
                force: bool = False) -> list[tuple[Path, Team]]:
    """Generate a team per ``TEAMID:Name[:STRENGTH]`` into ``OUTDIR/<team>.toml``.

    Player ids are unique across the teams of one call (as ``generate_league`` makes them
    for a league), so the teams can form a league. Every spec is checked, and without
    ``force`` no existing file is overwritten, before anything is written."""
    parsed = [parse_team_spec(spec) for spec in specs]
    ids = [team_id for team_id, _, _ in parsed]
    twice = sorted({t for t in ids if ids.count(t) > 1})
    if twice:
        raise CardError(f"team {', '.join(twice)} given more than once")
    paths = [outdir / f"{team_id.lower()}.toml" for team_id, _, _ in parsed]
    if outdir.exists() and not outdir.is_dir():
        raise CardError(f"{outdir}: not a folder")
    if not force:
        there = [str(p) for p in paths if p.exists()]
        if there:
            raise CardError(f"{', '.join(there)}: already there; use --force to overwrite")
    made = []
    avoid: set[str] = set()  # player ids unique across the teams of one run, as a league's
    for spec, (team_id, name, strength) in zip(specs, parsed, strict=True):
        try:
            made.append(generate_team(team_id, name, seed, strength, avoid=avoid))
        except msgspec.ValidationError as err:
            raise CardError(f"{spec!r}: team id {team_id!r} must be 2-6 capital letters or "
                            f"digits, starting with a letter ({err})") from None
    outdir.mkdir(parents=True, exist_ok=True)
    for (_, name, strength), path, team in zip(parsed, paths, made, strict=True):
        note = (f"{name}: an invented team, generated by rinklog cards generate\n"
                f"(seed {seed!r}, strength {strength}). Every name is made up.")
        path.write_text(team_to_toml(team, note), encoding="utf-8")
    return list(zip(paths, made, strict=True))


if __name__ == "__main__":
    sys.exit(main())
