"""Run the shared scoring vectors with the core and print one JSON line per vector.

Runs unchanged under CPython and the MicroPython unix port (json, os, sys only):
    micropython tests/vector_runner.py firmware tests/vectors/fit_to_print
Each line: {"file": ..., "errors": [...], "result": {...} or null}.
"""

import json
import os
import sys


def main(firmware, folders):
    sys.path.insert(0, firmware)
    from presstime.core import games

    for folder in folders:
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".json"):
                continue
            with open(folder + "/" + name) as f:
                vector = json.load(f)
            record = vector["record"]
            errors = games.check(record)
            result = None if errors else games.score(record)
            print(json.dumps({"file": folder + "/" + name, "errors": errors, "result": result}))


main(sys.argv[1], sys.argv[2:])
