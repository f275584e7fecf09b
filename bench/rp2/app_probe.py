# Runs ON the emulated Pico (raw REPL, the official firmware), sent by bench/bench_rp2_press.py
# with STEP_SLOTS = N prepended.
# The app as main.py starts it (ports/rp2.py, device/start.py: App + Journal + Link), driven
# from here instead of main.py so that its steps can be timed and its heap read:
#   setup(cfg)            the port and the app, a new game configured
#   run(ms, control)      app.step() for ms of chip time; each step's work (the step minus the
#                         time asleep in port.idle) goes into STEPS; with control=True the
#                         control button's short press is sent (command "control") whenever
#                         the round is in its ready check or summary (the games below)
#   sync()                a `records` request fed to the Link as the desktop's sync sends it,
#                         page after page; returns the bytes answered
#   heap()                gc.collect(), then (free bytes, largest free block in bytes)
#   games(n, ms, cfg)     n games of ms each on the app, a sync and heap() after each, one line
#                         per game; all in one call, so no REPL snippet is compiled into the
#                         heap between games (a board runs its app with none)
import gc
from array import array
from time import ticks_us, ticks_ms, ticks_diff
from presstime.device.ports.rp2 import Rp2Port
from presstime.device.start import start
from presstime.core import framing, table

STEPS = array("i", [0] * STEP_SLOTS)    # STEP_SLOTS: given by the bench (small for the heap run)
NSTEPS = [0]
_SLEPT = [0]
port = None
app = None


def setup(cfg):
    global port, app
    port = Rp2Port(player_pixels=(0, 4, 8, 12, 16, 20))
    app = start(port)
    idle = port.idle

    def timed_idle(w=None):
        t = ticks_us()
        idle(w)
        _SLEPT[0] += ticks_diff(ticks_us(), t)

    port.idle = timed_idle
    app.configure(cfg)


def run(ms, control=False):
    end = ticks_ms() + ms
    t = app.table
    while ticks_diff(end, ticks_ms()) > 0:
        if control and (t.phase == table.READYCHK or t.phase == table.SUMMARY):
            app.command("control")
        _SLEPT[0] = 0
        t0 = ticks_us()
        app.step()
        n = NSTEPS[0]
        if n < len(STEPS):
            STEPS[n] = ticks_diff(ticks_us(), t0) - _SLEPT[0]
            NSTEPS[0] = n + 1


def sync():
    """The desktop's sync: records after 0, then after the last seq received, until a page is
    empty; the replies are decoded here as the desktop decodes them."""
    link = app.link
    dec = framing.Decoder()
    after = getattr(app.journal, "base_seq", 0)
    got = 0
    rid = 1
    while True:
        f = framing.Frame(32)
        f.begin(framing.RECORDS, rid)
        f.varint(after)
        f.varint(0)
        req = bytes(f.end())
        rx = [req]
        tx = []
        port.read = lambda: rx.pop() if rx else b""
        port.write = lambda d: tx.append(bytes(d))
        link.poll()
        del port.read, port.write
        got += sum(len(x) for x in tx)
        last = after
        for body in dec.feed(b"".join(tx)):
            mtype, rrid, reply, value = framing.parse(body)
            if isinstance(value, (bytes, bytearray, memoryview)) and len(value) > 1:
                board_last, i = framing.get_varint(value, 0)
                seq, i = framing.get_varint(value, i)
                n = 0
                while i < len(value):
                    ln, i = framing.get_varint(value, i)
                    i += ln
                    n += 1
                if n:
                    last = seq + n - 1
        rid += 1
        if last == after:
            return got
        after = last


def heap():
    gc.collect()
    free = gc.mem_free()
    lo, hi = 0, free
    while hi - lo > 256:
        mid = (lo + hi) // 2
        try:
            b = bytearray(mid)  # noqa: F841 (held, then let go)
            b = None  # noqa: F841
            lo = mid
        except MemoryError:
            hi = mid
    gc.collect()
    return free, lo


def steps():
    n = NSTEPS[0]
    print("STEPS", " ".join(str(STEPS[i]) for i in range(n)))
    NSTEPS[0] = 0


def games(n, ms, cfg):
    for g in range(n):
        if g:
            app.configure(cfg)
        run(ms, True)
        NSTEPS[0] = 0
        s = sync()
        print("PHASE", app.table.phase, "SYNC", s, "HEAP", *heap())
