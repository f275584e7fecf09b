# Runs ON the emulated Pico (raw REPL, the official firmware), sent by bench/bench_rp2_press.py
# and tests/test_rig_press_order.py with its settings prepended as globals:
#   START_US, END_US (chip ticks_us), WRITE_EVERY_US, USE_PIO.
# The port of the board (ports/rp2.py, the real one) is polled as the app polls it, with a
# pixel frame written every step (then up to 5 ms asleep) and a 4 KB file rewritten every WRITE_EVERY_US (one 45 ms
# sector erase and 16 page programs, interrupts off); every debounced edge is printed with its
# stamp on the chip's ticks_us scale, and every flash write with its start and end.
import gc
from time import ticks_us, ticks_diff, sleep_ms
from presstime.device.ports.rp2 import Rp2Port

Rp2Port.use_pio = USE_PIO
port = Rp2Port(player_pixels=(0, 4, 8, 12, 16, 20), serial=False)
origin = port._tu - port._us
A = [(0, 0, 0)] * 24
B = [(9, 3, 0)] * 24
junk = bytearray(4096)
edges = []
writes = []
gc.collect()
while ticks_diff(ticks_us(), START_US) < 0:
    sleep_ms(1)
next_w = START_US + 100000
k = 0
while ticks_diff(ticks_us(), END_US) < 0:
    for b, d, t in port.buttons():
        edges.append((b, d, t))
    k += 1
    port.show(A if k & 1 else B)
    if ticks_diff(ticks_us(), next_w) >= 0:
        w0 = ticks_us()
        with open("/bench.tmp", "wb") as f:
            f.write(junk)
        writes.append((w0, ticks_us()))
        next_w += WRITE_EVERY_US
    port.idle(5)
port.close()
try:
    import os
    os.remove("/bench.tmp")
except OSError:
    pass
print("ORIGIN", origin)
for b, d, t in edges:
    print("E", b, 1 if d else 0, t)
for w0, w1 in writes:
    print("W", w0, w1)
print("LOST", port.lost_edges(), "STEPS", k)
