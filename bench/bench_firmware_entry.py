"""Scoring on a board's own screen (issue 27): the heap a whole game with the board's entry
needs, under the MicroPython unix port (a stand-in for the MacroPad's CircuitPython, whose
figure the rig measures).

firmware_entry_min_heap_kb: the smallest `-X heapsize` (4 KB steps) that plays a whole
  6-player, 3-round Fit to Print game (the game with the most questions: 6 players x 8
  numbers a day, and each day's Breaking News card: mood doubled, no value) through the
  fake port with a screen and a knob (device/ports/fake_screen.py),
  started as a board starts (device/start.py: the real Journal on files, the Link attached),
  every number set with the knob and confirmed (each checked by the core: core/entry.py
  `problems`, journaled as a SCORE event), the scores shown after each round and the winner
  at the end; every module loaded from .mpy. Compare firmware_min_heap_kb (bench_firmware.py):
  the same game, no screen, and a sync of its journal.
firmware_entry_qstrs: the names the interpreter holds after that game (n_qstr), as
  firmware_qstrs.
"""

from bench_firmware import _mpy_tree
from mpytools import micropython, smallest_heap

KEYS = ("firmware_entry_min_heap_kb", "firmware_entry_qstrs")

_GAME = """
from presstime.device.ports.fake_screen import ScreenPort
from presstime.device.start import start
import os
for n in os.listdir(%(dir)r):
    if n.startswith("journal.bin"):
        os.remove(%(dir)r + "/" + n)
port = ScreenPort(players=6, pixels=24, journal_path=%(dir)r + "/journal.bin")
cfg = {"players": ["P1", "P2", "P3", "P4", "P5", "P6"], "mode": "standard", "duration_ms": 60000}
app = start(port, None, cfg)
t = app.table
e = app.entry.current
def run(ms):
    for _ in range(ms // 10):
        port.advance(10)
        app.step()
answers = 0
for rnd in range(3):
    port.tap(-1)
    run(4000)
    for p in range(6):
        port.tap(p)
        run(200)
    run(600)
    port.turn(1)                     # the knob turned: the round is scored
    run(20)
    while e.asking():
        port.turn(1 - e.v)
        run(20)
        port.tap(-1)
        run(600)
        answers += 1
    port.tap(-1)
    run(600)
# 6 x 8 numbers a day and its Breaking News card (the knob at 1: mood doubled)
print("OK" if t.phase == 7 and port.lines[0].startswith("won") and answers == 147 else "FAIL",
      answers, port.lines)
"""


def _script(d):
    return _GAME % {"dir": d}


def measure():
    d = _mpy_tree()
    heap = smallest_heap(_script(d), d, start=64, step=4)
    code, out, err = micropython(
        _script(d) + "import micropython\nmicropython.qstr_info()\n", heap_kb=512, path=d
    )
    if code != 0 or "OK" not in out or "n_qstr=" not in out:
        raise RuntimeError("micropython failed: %s" % (err or out).strip()[-400:])
    return {
        "firmware_entry_min_heap_kb": heap,
        "firmware_entry_qstrs": int(out.split("n_qstr=", 1)[1].split(",", 1)[0]),
    }
