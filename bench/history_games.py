"""Generated game records for the history benchmarks: a gaming group's years of play.

`records(n, seed)` gives n valid records (checked by the core in `presstime import`): 70 % Fit to
Print (3 days, 2-6 of 12 players, every mode but puzzle now and then), 10 % each of Heat, Mini
FITS and Myth Fits; each with a `date`, one game an evening from 2016 on.
"""

import datetime
import random

NAMES = ["Ada", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
DAYS = ["friday", "saturday", "sunday"]


def _fit_to_print(rng, names):
    mode = rng.choice(["standard"] * 8 + ["family", "turn-based"])
    rounds = []
    for day in DAYS if mode != "turn-based" else ["saturday"]:
        pads = {}
        for name in names:
            pads[name] = {
                "articles": rng.randint(0, 20),
                "photos": rng.randint(0, 8),
                "centerpiece": rng.randint(-2, 4),
                "white_space": rng.randint(0, 12),
                "smiles": rng.randint(0, 6),
                "frowns": rng.randint(0, 6),
                "unplaced": rng.randint(0, 4),
                "ads": rng.randint(0, 6),
            }
        rnd = {"day": day, "players": pads}
        if mode != "family":
            finish = list(names)
            rng.shuffle(finish)
            rnd["finish"] = finish
        rounds.append(rnd)
    return {"game": "fit-to-print", "mode": mode, "players": list(names), "rounds": rounds}


def _heat(rng, names):
    names = names[:5]
    while len(names) < 3:
        names.append([n for n in NAMES if n not in names][0])
    final, left = {}, 15
    for name in names:
        heat = rng.randint(0, min(5, left))
        left -= heat
        final[name] = {"money": rng.randint(10, 60), "heat": heat}
    return {
        "game": "heat",
        "heat_value": rng.randint(1, 4),
        "players": names,
        "final": final,
        "arrested": rng.random() < 0.05,
    }


def _mini(rng, names):
    names = names[:4]
    rounds = [
        {"players": dict((n, {"lines": rng.randint(0, 10)}) for n in names)},
        {
            "players": dict(
                (n, {"lines": rng.randint(0, 10), "colour_sets": rng.randint(0, 3)}) for n in names
            )
        },
    ]
    return {"game": "mini-fits", "players": list(names), "rounds": rounds}


def _myth(rng, names):
    names = names[:4]
    while len(names) < 2:
        names.append([n for n in NAMES if n not in names][0])
    target = {2: 3, 3: 4, 4: 5}[len(names)]
    winner = rng.choice(names)
    tokens = dict((n, target if n == winner else rng.randint(0, target - 1)) for n in names)
    return {"game": "myth-fits", "players": names, "photo_tokens": tokens}


def records(n, seed=14):
    rng = random.Random(seed)
    start = datetime.date(2016, 1, 1)
    out = []
    for i in range(n):
        names = rng.sample(NAMES, rng.randint(2, 6))
        kind = rng.random()
        if kind < 0.7:
            record = _fit_to_print(rng, names)
        elif kind < 0.8:
            record = _heat(rng, names)
        elif kind < 0.9:
            record = _mini(rng, names)
        else:
            record = _myth(rng, names)
        record["date"] = (start + datetime.timedelta(days=i // 3)).isoformat() + " %02d:00:00" % (
            18 + i % 3
        )
        record["notes"] = "bench game %d" % (i + 1)
        out.append(record)
    return out
