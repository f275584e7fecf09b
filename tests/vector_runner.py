"""Run the shared scoring vectors with the core and print one JSON line per vector.

Runs unchanged under CPython and the MicroPython unix port (json, os, sys only):
    micropython tests/vector_runner.py firmware tests/vectors/fit_to_print
Each line: {"file": ..., "errors": [...], "result": {...} or null}.

A name vector (tests/vectors/names: {"cases", "same", "differ"}) gives instead, per case, what
the name rule, the board's set-up and the record checks of each game say of it, and per pair
whether the two names are one player: {"file", "names": [...], "same": [...], "differ": [...]}.
"""

import json
import os
import sys


def _hex(b):
    return "".join("%02x" % x for x in b)


def _names(vector):
    from presstime.core import config, games, table

    out = []
    for case in vector["cases"]:
        name = case["name"]
        try:
            table.normalise({"players": [name, "Zed"]})
            setup = None
        except ValueError as e:
            setup = str(e)
        checks = {}
        for game in games.GAMES:
            players = [name, "Zed", "Yan"]
            errors = [
                e
                for e in games.check({"game": game, "players": players, "rounds": []})
                if e.startswith("players, seat 1") or e.startswith("players[1]")
            ]
            checks[game] = errors
        bad = config.name_refused(name, "name", ())
        out.append(
            {
                "rule": bad,
                "key": None if bad else _hex(config.key(name)),
                "setup": setup,
                "checks": checks,
            }
        )
    same = [config.key(a) == config.key(b) for a, b in vector["same"]]
    differ = [config.key(a) == config.key(b) for a, b in vector["differ"]]
    return {"names": out, "same": same, "differ": differ}


def main(firmware, folders):
    sys.path.insert(0, firmware)
    from presstime.core import games

    for folder in folders:
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".json"):
                continue
            with open(folder + "/" + name) as f:
                vector = json.load(f)
            if "cases" in vector:
                got = _names(vector)
                got["file"] = folder + "/" + name
                print(json.dumps(got))
                continue
            record = vector["record"]
            errors = games.check(record)
            result = None if errors else games.score(record)
            print(json.dumps({"file": folder + "/" + name, "errors": errors, "result": result}))


main(sys.argv[1], sys.argv[2:])
