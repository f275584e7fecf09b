"""The MacroPad's free heap through a game scored on the board alone (issue 27), on the official
CircuitPython 10.2.1 in the emulated RP2040 (the rp2emu rig, timing model rig/xip.mjs on unless
PRESSTIME_RIG_XIP=off). The game of tests/test_rig_board_entry.py: Mini FITS, 2 players (Ada,
Ben), its 2 rounds, 6 numbers turned in with the knob and confirmed with its press (and one
refused first), "won: Ada" read back from the OLED. As bench_cp's heap figure: code.py is
stopped on the console and the app (device/start.py on the installed MacropadPort) is run from
the REPL, gc.mem_free() read after every app.step(); the keys and the knob are driven on their
GPIOs at exact instants while the loop runs. Without the rig every figure is None.

    cp_entry_min_free_heap_kb    gc.mem_free() minimum through that game (KB), target >= 16
                                 (a 6-player Fit to Print game does not fit: rig/entry_heap.py)
    cp_entry_heap_cost_kb        the same game played without scoring on the board (the knob's
                                 press in each summary: the next round), its minimum minus the
                                 one above: what scoring on the board costs (no target)
"""

import os
import sys

from targets import at_least

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

KEYS = ("cp_entry_min_free_heap_kb", "cp_entry_heap_cost_kb")
TARGETS = {"cp_entry_min_free_heap_kb": at_least(16)}

MS = 1_000_000
CFG = {"game": "mini-fits", "players": ["Ada", "Ben"]}
# round -> the knob's values, in the order asked (Ada's first refused at -1 in round 1)
NUMBERS = {1: [-1, 5, 2], 2: [4, 1, 3, 0]}

SETUP = """
import gc
from presstime.device.ports.macropad import MacropadPort
from presstime.device.start import start
port = MacropadPort()
app = start(port)
app.configure(%r)
gc.collect()
low = [gc.mem_free()]
def spin(ms):
    end = port.now_ms() + ms
    while port.now_ms() < end:
        app.step()
        m = gc.mem_free()
        if m < low[0]:
            low[0] = m
    st = app.table.status(port.now_ms())
    print("st", st["phase"], "".join("r" if p["state"] == "ready" else "-" for p in st["players"]))
print("ready")
"""


def _spin(pad, ms):
    r = pad.exec("spin(%d)" % ms, max_ns=(ms + 60_000) * MS)
    if r["err"]:
        raise RuntimeError(r["err"][-400:])
    words = r["out"].split()
    i = words.index("st")
    return words[i + 1], words[i + 2]


def _play_round(pad):
    """Every player not ready presses a key, until the round's summary."""
    for _ in range(20):
        phase, ready = _spin(pad, 300)
        if phase == "summary":
            return
        t = pad.now() + 50 * MS
        for seat, r in enumerate(ready):
            if r != "r":
                pad.press(seat, at=t)
                t += 70 * MS
    raise RuntimeError("the round did not reach its summary")


def _knob(pad, steps):
    if steps:
        pad.turn(steps, at=pad.now() + 30 * MS)
    _spin(pad, 250 + 50 * abs(steps))


def _press(pad):
    pad.press_knob(at=pad.now() + 30 * MS)
    _spin(pad, 700)  # taken ~0.4 s after the release


def game(pad, screen, score=True):
    """The game, driven on the pins (`score`: its numbers turned in on the board, else the
    knob's press in each summary only); the lowest gc.mem_free() (bytes) and the last screen."""
    r = pad.exec(SETUP % (CFG,), max_ns=60_000 * MS)
    if r["err"] or "ready" not in r["out"]:
        raise RuntimeError("the app did not start from the REPL: %s" % r["err"][-400:])
    for rnd in (1, 2):
        _play_round(pad)
        if not score:
            _press(pad)
            continue
        _knob(pad, 1)  # the first turn in the summary starts the round's questions
        value = 0
        for v in NUMBERS[rnd]:
            _knob(pad, v - value)
            _press(pad)
            value = v if v < 0 else 0  # a refused number stays; a taken one: the next at 0
        _press(pad)  # the round's scores seen: the next round (or the game's end)
    text = screen.last().text()
    r = pad.exec("print('low', low[0])", max_ns=10_000 * MS)
    return int(r["out"].split()[-1]), text


def measure():
    from rig.rp2emu import find_rig, why_absent

    rig = find_rig()
    if rig is None:
        print("bench_cp_entry: %s" % why_absent(), file=sys.stderr)
        return {k: None for k in KEYS}
    from rig.knob_screen import stop_code
    from rig.macropad import EmulatedMacropad, app_image

    image = app_image(rig)
    out = {k: None for k in KEYS}
    lows = []
    for score in (True, False):
        pad = EmulatedMacropad.start(rig, image, paused=True, oled=True)
        try:
            stop_code(pad)
            screen = pad.screen()
            low, text = game(pad, screen, score)
        finally:
            pad.close()
        print(
            "bench_cp_entry: %s, min free %d bytes, last screen %r"
            % ("scored on the board" if score else "not scored", low, text),
            file=sys.stderr,
        )
        if score and not (text and text[0].strip() == "won: Ada"):
            return out
        lows.append(low)
    out["cp_entry_min_free_heap_kb"] = round(lows[0] / 1024, 1)
    out["cp_entry_heap_cost_kb"] = round((lows[1] - lows[0]) / 1024, 1)
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(measure(), indent=2))
