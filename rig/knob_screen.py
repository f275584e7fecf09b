"""The MacroPad port's screen and knob (ports/macropad.py show_lines, knob, the back key) on the
official CircuitPython in the rig: code.py is stopped on the console and a small loop is run from
the REPL with the installed port, paced as the app paces its loop (port.idle(), 20 ms a pass):
each pass reads the knob and the keys and, when the count changed, shows it.

    with EmulatedMacropad.start(rig, image, oled=True) as pad:   # (paused)
        heap = start(pad)                 # gc.mem_free() in bytes: {"free_before": no port,
                                          # "free_port": port made, "free_after": screen drawn}
        screen = Oled(pad)
        edges = turn(pad, +2, at=pad.now() + 100 * MS)
        spin(pad, 400)                    # the loop runs 400 ms of board time
        screen.wait_for("knob 2")

The screen's lines: "knob N" (detents, + clockwise), "press N" (knob presses), "back N" (back
key presses); after whole_screen(pad): "knob N" then "line 1 NNN…" to "line 4 NNN…", so that
every turn redraws the whole screen. Used by tests/test_rig_oled_port.py and bench/bench_cp_knob.py.
"""

from .rp2emu import MS, RigError

SETUP = """
import gc
gc.collect()
free_before = gc.mem_free()
from presstime.device.ports.macropad import MacropadPort
port = MacropadPort()
gc.collect()
free_port = gc.mem_free()
state = [0, 0, 0]
shown = [None]
wide = [False]
def draw():
    lines = ["knob %d" % state[0], "press %d" % state[1], "back %d" % state[2]]
    if wide[0]:             # the whole screen changes with the count: 5 lines redrawn
        n = "%d" % state[0]
        lines = [lines[0]] + [("line %d " % i) + n * 14 for i in range(1, 5)]
    if lines != shown[0]:
        port.show_lines(lines)
        shown[0] = lines
draw()
gc.collect()
free_after = gc.mem_free()
low = [free_after]
def spin(ms):
    end = port.now_ms() + ms
    while port.now_ms() < end:
        state[0] += port.knob()
        for b, down, t in port.buttons():
            if down and b == -1:
                state[1] += 1
            elif down and b == -2:
                state[2] += 1
        draw()
        m = gc.mem_free()
        if m < low[0]:
            low[0] = m
        port.idle()
print("heap", free_before, free_port, free_after)
"""


def stop_code(pad, boot_ns=20_000 * MS):
    """Wait for code.py to start (a paused pad just booted) and stop it: the REPL."""
    seen = ""
    t0 = pad.now()
    while "code.py" not in seen:
        if pad.now() - t0 > boot_ns:
            raise RigError("code.py did not start: %s" % seen[-300:])
        pad.run(5 * MS)
        seen += pad.read()
    pad.write("\x03")  # Ctrl-C: code.py stops, the REPL
    pad.run(300 * MS)
    pad.write("\r")
    pad.run(300 * MS)


def start(pad, boot_ns=20_000 * MS):
    """Wait for code.py to start (a paused pad just booted), stop it, set the loop up. Returns
    gc.mem_free() (after a collect) before the port was made, once made, and once its screen
    showed the first lines."""
    stop_code(pad, boot_ns)
    r = pad.exec(SETUP, max_ns=30_000 * MS)
    if r["err"]:
        raise RigError("the port's loop did not start: %s" % r["err"][-400:])
    words = r["out"].split()
    i = words.index("heap")
    before, port, after = (int(w) for w in words[i + 1 : i + 4])
    return {"free_before": before, "free_port": port, "free_after": after}


def spin(pad, ms):
    """Run the loop for `ms` of board time (edges scheduled before run meanwhile)."""
    r = pad.exec("spin(%d)" % ms, max_ns=(ms + 30_000) * MS)
    if r["err"]:
        raise RigError("the port's loop failed: %s" % r["err"][-400:])


def low_heap(pad):
    """The least gc.mem_free() the loop saw (bytes)."""
    r = pad.exec("print(low[0])")
    if r["err"]:
        raise RigError(r["err"][-400:])
    return int(r["out"].split()[-1])


def whole_screen(pad):
    """From now on every count redraws all five lines (the worst case for a turn's latency)."""
    r = pad.exec("wide[0] = True\ndraw()")
    if r["err"]:
        raise RigError(r["err"][-400:])


def whole_screen_text(n):
    """The last line whole_screen's loop shows for count n (cut to the screen's 21 columns)."""
    return ("line 4 " + ("%d" % n) * 14)[:21]
