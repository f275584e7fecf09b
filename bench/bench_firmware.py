"""Firmware (issue 3): the main loop's speed and heap under MicroPython, and the round timer's
accuracy. Both MicroPython figures start the app as the boards' entry points do
(device/start.py: the serial Link attached).

loop_us_micropython: median time of one App.step() (6 player buttons, 24 pixels, journal idle,
  the link polling an empty serial line, a round running) under the MicroPython unix port with
  the firmware compiled by mpy-cross; the fake clock moves 1 ms per step, so the lights are
  recomputed every 125 ms as on the board.
  loop_us_micropython_p99: the 99th percentile (the steps that redraw the lights).
firmware_min_heap_kb: the smallest `-X heapsize` (4 KB steps) that plays a whole 6-player,
  3-round game (bench/firmware_game.py) through the fake port with the real Journal on files
  and the round checkpoint file, the Link attached, and then answers over the fake port's
  serial buffers a hello, a status and a sync of the whole journal (page by page), every
  module loaded from .mpy. (Until 2026-11-22 it was measured without the link: 84 KB then.)
firmware_qstrs: the names (qstrs) the interpreter holds after that game and its sync, at 512 KB of
  heap (micropython.qstr_info()'s n_qstr). Every module, global, attribute, argument name and
  short string the board loads is one, never freed; they live in pools that double in size, and
  the unix port's 6th pool (7 KB of heap on x86-64) is made when the 621st is: an import that
  crosses it late (the first status, after a game) needs that block in a fragmented heap, which
  took firmware_min_heap_kb from 104 to 140-164 on main after stop 16 (docs/benchmarks.md).
  Target: at most 620 (the 5 pools of a young interpreter).
timer_error_ms: over 40 rounds of 5:00 with random loop stalls of 0-50 ms and random
  pauses (control-button holds at random µs times), the worst difference between the round end
  the machine records and the ideal end (go + 5:00 + the true paused time).
timer_late_ms: the worst delay between that ideal end and the loop iteration that noticed it
  (bounded by the stall: the time-out event itself carries the exact deadline).
"""

import os
import random
import sys

from mpytools import FIRMWARE, ROOT, compile_firmware, micropython, smallest_heap, temp_dir
from targets import at_most

KEYS = (
    "loop_us_micropython",
    "loop_us_micropython_p99",
    "firmware_min_heap_kb",
    "firmware_qstrs",
    "timer_error_ms",
    "timer_late_ms",
)
TARGETS = {
    "loop_us_micropython": at_most(100),
    "firmware_min_heap_kb": at_most(96),
    "firmware_qstrs": at_most(620),
    "timer_error_ms": at_most(10),
}

_LOOP = """
import time
N = 20000
hist = [0] * 2000          # a histogram of µs per step (no big list to grow)
from presstime.device.memstore import MemJournal
from presstime.device.ports.fake import FakePort
from presstime.device.start import start
port = FakePort(players=6, pixels=24)
app = start(port, MemJournal(), {"players": 6, "mode": "standard", "duration_ms": 300000})
assert app.link is not None          # the link polls (an empty read) every step, as on a board
port.tap(-1, at_ms=10)
for i in range(4000):
    port.advance(1)
    app.step()
assert app.table.phase == 3
tu = time.ticks_us
td = time.ticks_diff
for i in range(N):
    port.advance(1)
    t0 = tu()
    app.step()
    us = td(tu(), t0)
    hist[us if us < 1999 else 1999] += 1
def pct(q):
    s = 0
    for us in range(2000):
        s += hist[us]
        if s * 100 >= N * q:
            return us
print("OK", pct(50), pct(99))
"""

_GAME = """
import firmware_game
desk = firmware_game.desk()         # the desktop's end of the serial line
from presstime.device.ports.fake import FakePort
from presstime.device.start import start
import os
for n in os.listdir(%(dir)r):
    if n.startswith("journal.bin"):
        os.remove(%(dir)r + "/" + n)
r = firmware_game.play(None, FakePort, None, start=start, journal_path=%(dir)r + "/journal.bin",
                       desk=desk)
print("OK" if r["phase"] == "over" and r["synced"] == r["records"] else "FAIL", r["synced"], r["records"], r["wire"])
"""  # noqa: E501 (compiled on the board: its heap is the figure)


def _mpy_tree():
    d = temp_dir()
    compile_firmware(d)
    import shutil
    import subprocess

    subprocess.run(
        [
            shutil.which("mpy-cross"),
            "-o",
            os.path.join(d, "firmware_game.mpy"),
            "-s",
            "firmware_game.py",
            os.path.join(ROOT, "bench", "firmware_game.py"),
        ],
        check=True,
    )
    return d


def loop_us(d):
    code, out, err = micropython(_LOOP, heap_kb=512, path=d)
    if code != 0:
        raise RuntimeError("micropython failed: %s" % err.strip()[-400:])
    _, med, p99 = out.split()
    return int(med), int(p99)


def min_heap(d):
    return smallest_heap(_GAME % {"dir": d}, d, start=4, step=4)


def qstrs(d):
    """n_qstr after the bench game and its sync (a roomy heap: the count, not the fit)."""
    script = _GAME % {"dir": d} + "import micropython\nmicropython.qstr_info()\n"
    code, out, err = micropython(script, heap_kb=512, path=d)
    if code != 0 or "OK" not in out or "n_qstr=" not in out:
        raise RuntimeError("micropython failed: %s" % (err or out).strip()[-400:])
    return int(out.split("n_qstr=", 1)[1].split(",", 1)[0])


def timer(rounds=40, seed=7):
    if FIRMWARE not in sys.path:
        sys.path.insert(0, FIRMWARE)
    from presstime.core import events as E
    from presstime.device.app import App, MemJournal
    from presstime.device.ports.fake import FakePort

    rnd = random.Random(seed)
    worst = 0.0
    late = 0.0
    for _ in range(rounds):
        port = FakePort(players=6, pixels=24)
        port.set_us(rnd.randrange(10**9))
        j = MemJournal()
        app = App(
            port,
            j,
            {"players": 6, "mode": "standard", "duration_ms": 300000, "options": {"grace_ms": 0}},
        )
        port.tap(-1, at_us=port.t_us + 1000)

        def stall():
            port.advance(rnd.randrange(0, 51))  # a loop stall of 0-50 ms
            port.t_us += 1 + rnd.randrange(999)
            app.step()

        while app.table.phase != 3:  # RUNNING
            stall()
        go_us = app.table.seg * 1000
        paused_us = 0
        at = go_us
        for _ in range(rnd.randrange(0, 4)):  # 0-3 pauses at random µs times
            at += rnd.randrange(5, 60) * 10**6 + rnd.randrange(10**6)
            dur = rnd.randrange(2000, 9000) * 1000 + rnd.randrange(1000)
            port.edge(-1, True, at)
            port.edge(-1, False, at + 1600 * 1000)
            port.edge(-1, True, at + dur)
            port.edge(-1, False, at + dur + 1600 * 1000)
            at += dur
            paused_us += dur
        while app.table.phase != 6:  # SUMMARY
            stall()
        noticed_us = port.t_us
        ideal_us = go_us + 300000 * 1000 + paused_us
        base = 0
        end_ms = None
        for _, p in j.records():
            ev = E.decode(p)
            if ev[0] == E.PAUSE:
                base = ev[1]
            elif ev[0] in (E.GO, E.RESUME):
                end_ms = ev[1] + 300000 - (0 if ev[0] == E.GO else base)
        worst = max(worst, abs(end_ms * 1000 - ideal_us) / 1000.0)
        late = max(late, (noticed_us - ideal_us) / 1000.0)
    return worst, late


def measure():
    d = _mpy_tree()
    med, p99 = loop_us(d)
    heap = min_heap(d)
    names = qstrs(d)
    err, late = timer()
    return {
        "loop_us_micropython": med,
        "loop_us_micropython_p99": p99,
        "firmware_min_heap_kb": heap,
        "firmware_qstrs": names,
        "timer_error_ms": err,
        "timer_late_ms": late,
    }


if __name__ == "__main__":
    print(measure())
