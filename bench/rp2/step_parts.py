"""Where a main-loop step's time goes on the emulated Pico (official firmware, paused rig), and
what native code would buy: the evidence behind rp2_loop_us_p99 (docs/real-firmware.md, row 6).

    PRESSTIME_RP2EMU=DIR python bench/rp2/step_parts.py           # the parts of each kind of step
    PRESSTIME_RP2EMU=DIR python bench/rp2/step_parts.py --native  # core/lights as bytecode and native

The parts: the bench's round (bench_rp2_press.round_figures: 6 players, a 3 s countdown, the
six pressing 150 ms apart, grace, summary; 10 s of chip time) with the app's parts wrapped in
timers (each wrapped call reads ~20 µs high): the port's buttons (the edges read and settled),
the presses given to the round machine (App._edges), the events encoded and beeped
(App._journal), the lights' status (Table.status/refresh), the frame (core/lights.frame),
the pixel write (show_rgb), the journal write, the checkpoint, the link's poll. Steps are
sorted into kinds by what they did; per kind: how many, the median step and each part's median.

--native: a running round's status and core/lights.frame() timed as installed (bytecode) and
as the same source compiled on the board with @micropython.native on each function, and the
heap each costs (gc.mem_free() before and after compiling the source on the board).
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, ROOT)

from rig.pico import EmulatedPico             # noqa: E402
from rig.rp2emu import MS                       # noqa: E402

import bench_rp2_press as B                     # noqa: E402

PARTS = ("buttons", "edges", "journal", "status", "frame", "show", "write", "checkpoint", "link",
         "tick", "control", "timers", "wait")

_WRAP = """
import presstime.device.app as A
PART = {}
def _wrap(obj, name, key):
    f = getattr(obj, name)
    def w(*a):
        t = ticks_us()
        r = f(*a)
        PART[key] = PART.get(key, 0) + ticks_diff(ticks_us(), t)
        return r
    setattr(obj, name, w)
_wrap(port, 'buttons', 'buttons')
_wrap(app, '_edges', 'edges')
_wrap(app, '_journal', 'journal')
_wrap(app.table, 'status', 'status')
_wrap(app.table, 'refresh', 'status')
_wrap(A, '_frame', 'frame')
_wrap(port, 'show_rgb', 'show')
_wrap(app, '_write', 'write')
_wrap(app.marks, 'save', 'checkpoint')
_wrap(app.link, 'poll', 'link')
_wrap(app.table, 'tick', 'tick')
_wrap(app.control, 'poll', 'control')
_wrap(app, '_timers', 'timers')
_wrap(app, '_wait_ms', 'wait')
ROWS = []
def run_parts(ms):
    end = ticks_ms() + ms
    while ticks_diff(end, ticks_ms()) > 0:
        PART.clear()
        _SLEPT[0] = 0
        t0 = ticks_us()
        app.step()
        ROWS.append((ticks_diff(ticks_us(), t0) - _SLEPT[0],) + tuple(PART.get(k, 0) for k in %r))
def rows():
    for r in ROWS:
        print('ROW', *r)
""" % (PARTS,)


def _kind(row):
    parts = dict(zip(PARTS, row[1:]))
    if parts["edges"]:
        return "button edge"
    if parts["write"] or parts["checkpoint"]:
        return "flash write"
    if parts["frame"]:
        return "frame"
    return "idle"


def _median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else 0


def parts(rig, image):
    with EmulatedPico.start(rig, image, pty=False, paused=True) as pico:
        B._app(pico)
        B._exec(pico, "setup(%r)\n" % (B._cfg(),) + _WRAP + "app.command('start')\nrun_parts(200)")
        t0 = pico.now()
        for p in range(6):
            pico.press(p, at=t0 + 3500 * MS + p * 150 * MS + (p * 7919) % 1000 * 1000, hold_ms=80)
        B._exec(pico, "ROWS.clear()\nrun_parts(10000)")
        out = B._exec(pico, "rows()")
    rows = [tuple(int(x) for x in line.split()[1:]) for line in out.splitlines()
            if line.startswith("ROW")]
    print("%d steps; p50 %d µs, p99 %d µs (wrapped: each part ~20 µs high)"
          % (len(rows), B._percentile([r[0] for r in rows], 50),
             B._percentile([r[0] for r in rows], 99)))
    print("%-11s %5s %5s %s" % ("kind", "steps", "step", " ".join("%5s" % p[:5] for p in PARTS)))
    for kind in ("idle", "frame", "button edge", "flash write"):
        rs = [r for r in rows if _kind(r) == kind]
        if not rs:
            continue
        meds = [_median([r[i + 1] for r in rs]) for i in range(len(PARTS))]
        print("%-11s %5d %5d %s" % (kind, len(rs), _median([r[0] for r in rs]),
                                     " ".join("%5d" % m for m in meds)))


_NATIVE = """
import gc
from presstime.core import lights as LL
gc.collect()
f0 = gc.mem_free()
L = {}
exec(SRC, L)
gc.collect()
print('HEAP', f0 - gc.mem_free())
t = app.table
now = port.now_ms()
st = t.status(now)
px = [0] * 24
for fn in (L['frame'], LL.frame, L['frame'], LL.frame):
    ts = []
    for i in range(9):
        a = ticks_us()
        fn(px, st, now + i * 37, app._ring, app._pp, 48)
        ts.append(ticks_diff(ticks_us(), a))
    ts.sort()
    print('US', ts[4])
print('SAME', LL.frame([0] * 24, st, now, app._ring, app._pp, 48) == L['frame']([0] * 24, st, now, app._ring, app._pp, 48))
"""


def native(rig, image):
    with open(os.path.join(ROOT, "firmware", "presstime", "core", "lights.py")) as f:
        src = f.read().replace("from micropython import const",
                               "import micropython\n    from micropython import const")
    nat = re.sub(r"^def ", "@micropython.native\ndef ", src, flags=re.M)
    for name, text in (("bytecode", src), ("native", nat)):
        with EmulatedPico.start(rig, image, pty=False, paused=True) as pico:
            B._app(pico)
            B._exec(pico, "setup(%r)\napp.command('start')\nrun(200)" % (B._cfg(),))
            t0 = pico.now()
            for p in range(4):
                pico.press(p, at=t0 + 3500 * MS + p * 150 * MS, hold_ms=80)
            B._exec(pico, "run(4500)")
            out = B._exec(pico, "SRC = %r\n" % text + _NATIVE).split()
        us = [int(out[i + 1]) for i in range(len(out)) if out[i] == "US"]
        print("core/lights compiled on the board as %s: %d bytes of heap; frame() of a running "
              "round (6 players, 4 pressed): %d µs (the installed .mpy, bytecode: %d µs); same "
              "frame: %s" % (name, int(out[out.index("HEAP") + 1]), us[2], us[3],
                             out[out.index("SAME") + 1]))


def main():
    rig, image = B.rig_image("step_parts")
    if rig is None:
        return 2
    if "--native" in sys.argv[1:]:
        native(rig, image)
    else:
        parts(rig, image)
    return 0


if __name__ == "__main__":
    sys.exit(main())
