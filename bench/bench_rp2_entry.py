"""A game scored on the Pico alone (issue 27): the build's optional SSD1306 OLED and rotary
encoder (ports/rp2_screen.py) on the official MicroPython v1.28.0 (RPI_PICO) in the emulated
RP2040 (the rp2emu rig, timing model rig/xip.mjs on unless PRESSTIME_RIG_XIP=off, paused:
deterministic). The rig answers as the OLED at 0x3C (rig/oled.mjs), whose I2C frames rig/oled.py
reads back as text. The game of tests/test_rig_pico_entry.py and bench_cp_entry (the
MacroPad's): Mini FITS, 2 players (Ada, Ben), its 2 rounds, 6 numbers turned in with the knob
and confirmed with its press (one refused first), "won: Ada" read back from the OLED. As
bench_cp_entry: main.py's app is left (the link's `repl`) and the app (device/start.py on the
screen's port, as main.py makes it when the OLED answers) is run from the REPL, gc.mem_free()
read after every app.step(); the buttons, the knob and its press are driven on their GPIOs at
exact instants while the loop runs. Without the rig every figure is None.

    rp2_entry_min_free_heap_kb   the least gc.mem_free() after a gc.collect() through that game
                                 (KB), target >= 120: the loop runs in slices of 250-700 ms of
                                 board time (a slice after each turn, press or round's wait;
                                 about 60), each ending with a collect, as rp2_min_free_heap_kb
                                 is taken after a collect (MicroPython's heap does not grow:
                                 uncollected, gc.mem_free() falls to about 1 KB before each
                                 collection and says nothing)
    rp2_knob_to_screen_ms_max    at round 1's first question, 40 seeded turns (single detents
                                 and 3-detent turns, both ways, gaps of 150-330 ms uneven
                                 against the loop): a turn's last edge -> the end of the first
                                 I2C frame whose screen has the line "> N" of the new number;
                                 the largest, target <= 50
    rp2_knob_to_screen_ms_p50    the same, median
"""

import os
import random
import sys

from targets import at_least, at_most

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

KEYS = ("rp2_entry_min_free_heap_kb", "rp2_knob_to_screen_ms_max", "rp2_knob_to_screen_ms_p50")
TARGETS = {
    "rp2_entry_min_free_heap_kb": at_least(120),
    "rp2_knob_to_screen_ms_max": at_most(50),
}

MS = 1_000_000
SEED = 27
TURNS = int(os.environ.get("PRESSTIME_RP2_KNOB_TURNS", "40"))

SETUP = """
import gc
from presstime.device.ports.rp2 import Rp2Port, _oled
from presstime.device.ports.rp2_screen import port_class
from presstime.device.boards import pico
from presstime.device.start import start
port = port_class(Rp2Port)(_oled(pico), player_pixels=(0, 4, 8, 12, 16, 20))
app = start(port)
app.configure(%r)
gc.collect()
low = [gc.mem_free()]
def spin(ms):
    end = port.now_ms() + ms
    while port.now_ms() < end:
        app.step()
    gc.collect()
    m = gc.mem_free()
    if m < low[0]:
        low[0] = m
    st = app.table.status(port.now_ms())
    print("st", st["phase"], "".join("r" if p["state"] == "ready" else "-" for p in st["players"]))
print("ready")
"""


def latencies(pico, screen, rnd, turns, value):
    """Knob edge -> the screen's "> N" line (ms) for `turns` seeded turns from `value`; and
    the value after them."""
    from bench_cp_entry import _spin
    from bench_cp_knob import plan

    t = pico.now() + 100 * MS
    done = []  # (last edge ns, the number after it)
    for steps, gap in plan(rnd, turns):
        t += int(gap * MS)
        edges = pico.turn(steps, at=t)
        value += steps
        done.append((edges[-1], value))
        t = edges[-1]
    _spin(pico, int((t + 300 * MS - pico.now()) / MS))
    frames = screen.poll()
    out = []
    for edge, n in done:
        want = "> %d" % n
        f = next(
            (f for f in frames if f.end > edge and want in [x.strip() for x in f.text()]), None
        )
        out.append(None if f is None else (f.end - edge) / MS)
    return out, value


def game(pico, screen, out):
    """The scored game; the knob's latencies at round 1's first question. Returns the lowest
    gc.mem_free() (bytes) and the last screen's lines."""
    from bench_cp_entry import CFG, NUMBERS, _knob, _play_round, _press
    from rig.pico import PausedLink

    pico.run(300 * MS)
    PausedLink.client(pico).repl()
    pico.run(100 * MS)
    r = pico.exec(SETUP % (CFG,), max_ns=60_000 * MS)
    if r["err"] or "ready" not in r["out"]:
        raise RuntimeError("the app did not start from the REPL: %s" % r["err"][-400:])
    for rnd in (1, 2):
        _play_round(pico)
        _knob(pico, 1)  # the first turn in the summary starts the round's questions
        value = 0
        if rnd == 1:
            lat, value = latencies(pico, screen, random.Random(SEED), TURNS, value)
            seen = sorted(x for x in lat if x is not None)
            print(
                "bench_rp2_entry: %d turns (%d never shown), knob->screen ms min/p50/max %s"
                % (
                    len(lat),
                    len(lat) - len(seen),
                    "/".join(str(round(x, 1)) for x in (seen[0], seen[len(seen) // 2], seen[-1]))
                    if seen
                    else None,
                ),
                file=sys.stderr,
            )
            if seen and len(seen) == len(lat):
                out["rp2_knob_to_screen_ms_max"] = round(seen[-1], 1)
                out["rp2_knob_to_screen_ms_p50"] = round(seen[len(seen) // 2], 1)
        for v in NUMBERS[rnd]:
            _knob(pico, v - value)
            _press(pico)
            value = v if v < 0 else 0  # a refused number stays; a taken one: the next at 0
        _press(pico)  # the round's scores seen: the next round (or the game's end)
    text = [x.strip() for x in screen.last().text()]
    r = pico.exec("print('low', low[0])", max_ns=10_000 * MS)
    return int(r["out"].split()[-1]), text


def measure():
    from rig.rp2emu import find_rig, why_absent

    rig = find_rig()
    if rig is None:
        print("bench_rp2_entry: %s" % why_absent(), file=sys.stderr)
        return {k: None for k in KEYS}
    from rig.pico import EmulatedPico, app_image

    image = app_image(rig)
    out = {k: None for k in KEYS}
    with EmulatedPico.start(rig, image, pty=False, paused=True, oled=True) as pico:
        pico.boot()
        screen = pico.screen()
        low, text = game(pico, screen, out)
    print("bench_rp2_entry: min free %d bytes, last screen %r" % (low, text), file=sys.stderr)
    if text and text[0] == "won: Ada":
        out["rp2_entry_min_free_heap_kb"] = round(low / 1024, 1)
    else:
        out["rp2_knob_to_screen_ms_max"] = out["rp2_knob_to_screen_ms_p50"] = None
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(measure(), indent=2))
