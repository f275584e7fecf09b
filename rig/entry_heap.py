"""The heap a game scored on the MacroPad's own screen takes, on the official CircuitPython 10.2.1
in the emulated RP2040 (issue 27): code.py is stopped on the console and, from the REPL, a round
machine (core/table.py) is set up for a 6-player, 3-round Fit to Print game (the game with the most
questions: 144 numbers) and scored through device/entry.py (a stand-in port with a 5 x 21 screen
and no knob: each number is set to 1 and confirmed, so each is checked by the core and becomes a
SCORE event). `gc.mem_alloc()` after a `gc.collect()`: at the REPL, with the machine in its first
summary, after the first number, after the last; the largest uncollected figure in between.

    PRESSTIME_RP2EMU=/tmp/rp2emu python -m rig.entry_heap [--players N]

(--players N, 1 to 6: the same game with players P1..PN; 6 unless given) prints `COST <at the
REPL> <summary> <first number> <game over> <largest> <numbers> <screen> <mem_free>` (bytes)
and the emulated ms the numbers took. The app's own free heap is bench_cp's
`cp_min_free_heap_kb` (the REPL's heap grows in areas as needed: its free figure says little).
"""

import sys
import time

from .macropad import EmulatedMacropad, app_image
from .rp2emu import MS, find_rig, why_absent

CODE = r"""
import gc
gc.collect()
a0 = gc.mem_alloc()
from presstime.core.table import Table
from presstime.device import entry
class P:
    screen_lines = 5
    screen_cols = 21
    def knob(self):
        return 0
    def show_lines(self, lines):
        pass
t = Table()
names = ["P1", "P2", "P3", "P4", "P5", "P6"][:NPLAYERS]
t.configure({"players": names, "mode": "standard", "duration_ms": 60000}, 0)
def play(t0):
    t.control(t0)
    t.tick(t0 + 3000)
    for p in range(len(names)):
        t.press(p, (t0 + 3100 + 100 * p) * 1000)
    t.drain()
play(0)
gc.collect()
a1 = gc.mem_alloc()
e = entry.start(t, P())
hi = 0
n = 0
for rnd in range(3):
    e.turn(1)
    while e.asking():
        e.v = 1
        e.confirm()
        t.drain()
        n += 1
        m = gc.mem_alloc()
        if m > hi:
            hi = m
        if n == 1:
            gc.collect()
            a2 = gc.mem_alloc()
    e.screen()
    t.next(0)
    t.drain()
    if rnd < 2:
        play(10000 * (rnd + 1))
gc.collect()
a3 = gc.mem_alloc()
print("COST", a0, a1, a2, a3, hi, n, e.screen(), gc.mem_free())
"""


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    players = 6
    if args[:1] == ["--players"] and len(args) == 2 and args[1] in "123456" and len(args[1]) == 1:
        players = int(args[1])
    elif args:
        print("usage: python -m rig.entry_heap [--players 1..6]", file=sys.stderr)
        return 2
    rig = find_rig()
    if rig is None:
        print("rig.entry_heap: %s" % why_absent(), file=sys.stderr)
        return 2
    image = app_image(rig)
    pad = EmulatedMacropad.start(rig, image, paused=True)
    try:
        seen = ""
        t0 = pad.now()
        while "code.py" not in seen:
            pad.run(5 * MS)
            seen += pad.read()
            if pad.now() - t0 > 30_000 * MS:
                print("rig.entry_heap: code.py did not start: " + seen[-300:], file=sys.stderr)
                return 1
        pad.write("\x03")  # Ctrl-C: code.py stops, the REPL
        pad.run(300 * MS)
        pad.write("\r")
        pad.run(300 * MS)
        wall = time.time()
        r = pad.exec("NPLAYERS = %d\n" % players + CODE, max_ns=600_000 * MS)
        print(r["out"].strip(), r["err"].strip())
        print("emulated ms %d, wall s %.0f" % (r.get("emu_ns", 0) // MS, time.time() - wall))
        return 0 if "COST" in r["out"] else 1
    finally:
        pad.close()


if __name__ == "__main__":
    sys.exit(main())
