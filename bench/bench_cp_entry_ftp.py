"""The MacroPad's free heap through a Fit to Print game scored on the board alone (issue 27), on
the official CircuitPython 10.2.1 in the emulated RP2040 (the rp2emu rig, timing model
rig/xip.mjs on unless PRESSTIME_RIG_XIP=off): the game with the most numbers, with 2 players
(a 6-player one does not fit: rig/entry_heap.py), in standard mode, its 3 days, each with a
Breaking News card (most-tiles-ads 4: the card, its value, each player's tiles asked), 60 answers
turned in with the knob (Ada's 1, Ben's 0) and confirmed with its press, "won: Ada" read back
from the OLED. The method of bench_cp_entry (Mini FITS): code.py is stopped on the console and
the app (device/start.py on the installed MacropadPort) is run from the REPL, gc.mem_free() read
after every app.step(); the keys and the knob driven on their GPIOs. Without the rig, None.

    cp_entry_ftp_min_free_heap_kb   gc.mem_free() minimum through that game (KB), target >= 16
"""

import os
import sys

from targets import at_least

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

KEYS = ("cp_entry_ftp_min_free_heap_kb",)
TARGETS = {"cp_entry_ftp_min_free_heap_kb": at_least(16)}

MS = 1_000_000
CFG = {"game": "fit-to-print", "mode": "standard", "duration_ms": 10000, "players": ["Ada", "Ben"]}


# each day's Breaking News card: the one that asks the most (its value, each player's tiles)
CARD = {"effect": "most-tiles-ads", "value": 4}


def value(path, kind):
    if path[-1] == "breaking_news":
        return [dict(CARD)]
    if path[-1] == "value":
        return CARD["value"]
    return 1 if "Ada" in path else 0


def _play_round(pad):
    """The control button starts the round; after the 3 s count both print."""
    from bench_cp_entry import _press, _spin

    _press(pad)
    _spin(pad, 3300)
    for seat in (0, 1):
        pad.press(seat, at=pad.now() + (50 + 150 * seat) * MS)
    for _ in range(10):
        phase, _ = _spin(pad, 400)
        if phase == "summary":
            return
    raise RuntimeError("the round did not reach its summary")


def game(pad, screen):
    """The game; the lowest gc.mem_free() (bytes), the last screen and the winner expected."""
    from bench_cp_entry import SETUP, _knob, _press
    from presstime.core import games
    from rig.knob_entry import questions

    asked, record = questions(CFG, value)
    r = pad.exec(SETUP % (CFG,), max_ns=60_000 * MS)
    if r["err"] or "ready" not in r["out"]:
        raise RuntimeError("the app did not start from the REPL: %s" % r["err"][-400:])
    for rnd in range(3):
        _play_round(pad)
        _knob(pad, 1)  # the first turn in the summary starts the round's questions
        for q in asked[rnd]:
            _knob(pad, q.v - q.start)
            _press(pad)
        _press(pad)  # the round's scores seen: the next round (or the game's end)
    text = screen.last().text()
    r = pad.exec("print('low', low[0])", max_ns=10_000 * MS)
    return int(r["out"].split()[-1]), text, "won: " + " ".join(games.score(record)["winners"])


def measure():
    from rig.rp2emu import find_rig, why_absent

    rig = find_rig()
    if rig is None:
        print("bench_cp_entry_ftp: %s" % why_absent(), file=sys.stderr)
        return {k: None for k in KEYS}
    from rig.knob_screen import stop_code
    from rig.macropad import EmulatedMacropad, app_image

    image = app_image(rig)
    pad = EmulatedMacropad.start(rig, image, paused=True, oled=True)
    try:
        stop_code(pad)
        low, text, won = game(pad, pad.screen())
    finally:
        pad.close()
    print("bench_cp_entry_ftp: min free %d bytes, last screen %r" % (low, text), file=sys.stderr)
    if not (text and text[0].strip() == won):
        print("bench_cp_entry_ftp: not %r at the end" % won, file=sys.stderr)
        return {k: None for k in KEYS}
    return {"cp_entry_ftp_min_free_heap_kb": round(low / 1024, 1)}


if __name__ == "__main__":
    import json

    print(json.dumps(measure(), indent=2))
