"""Scoring core figures (issue 2): a complete 6-player Fit to Print game under MicroPython.

core_min_heap_kb: the .mpy core (as a board carries it) loads the record and scores it; the
record's checks (fit_to_print_check) run on the desktop before a record reaches a board and are
not loaded here. core_game_us_micropython: median of 101 score() calls, .py sources."""

import os
import shutil

from mpytools import ROOT, compile_firmware, micropython, smallest_heap, temp_dir
from targets import at_most

KEYS = ["core_game_us_micropython", "core_min_heap_kb"]
TARGETS = {"core_min_heap_kb": at_most(32)}
GAME = os.path.join(ROOT, "tests", "vectors", "fit_to_print", "six-players-full-game.json")

_TIMING = """
import json, time
from presstime.core import games
record = json.load(open(%r))["record"]
assert games.check(record) == []
times = []
for _ in range(101):
    t0 = time.ticks_us()
    games.score(record)
    times.append(time.ticks_diff(time.ticks_us(), t0))
times.sort()
print(times[len(times) // 2])
"""

_SCORE_ONCE = """
import gc, json
from presstime.core import games
games.module("fit-to-print").score  # a board loads its code at boot, before any game arrives
gc.collect()
f = open(%r)
record = json.load(f)["record"]
f.close()
result = games.score(record)
assert result["complete"] and len(result["players"]) == 6
print("OK")
"""


def measure():
    code, out, err = micropython(_TIMING % GAME)
    if code:
        raise RuntimeError(err)
    mpy = temp_dir()
    try:
        compile_firmware(mpy, subdirs=("presstime/core",))
        open(os.path.join(mpy, "presstime", "__init__.py"), "w").close()
        heap = smallest_heap(_SCORE_ONCE % GAME, path=mpy)
    finally:
        shutil.rmtree(mpy)
    return {"core_game_us_micropython": int(out.split()[-1]), "core_min_heap_kb": heap}
