# Runs ON the emulated Pico (raw REPL, the official firmware), sent by bench/bench_rp2_press.py
# and tests/test_rig_press_order.py with its settings prepended as globals:
#   START_US, END_US (chip ticks_us), WRITE_EVERY_US, USE_PIO, MAX_PRESSES.
# The port of the board (ports/rp2.py, the real one) is polled as the app polls it, with a
# pixel frame written every step (then up to 5 ms asleep) and a 4 KB file rewritten every WRITE_EVERY_US (one 45 ms
# sector erase and 16 page programs, interrupts off); every debounced edge is printed with its
# stamp on the chip's ticks_us scale, and every flash write with its start and end.
import gc
from array import array
from time import ticks_us, ticks_diff, sleep_ms
from presstime.device.ports.rp2 import Rp2Port

Rp2Port.use_pio = USE_PIO
port = Rp2Port(player_pixels=(0, 4, 8, 12, 16, 20), serial=False)
origin = port._tu - port._us
A = [(0, 0, 0)] * 24
B = [(9, 3, 0)] * 24
junk = bytearray(4096)
N = 2 * MAX_PRESSES + 16
eb = bytearray(N)                   # preallocated: the loop allocates no lists of its own
ed = bytearray(N)
et = array("i", [0] * N)
ne = 0
w0s = array("i", [0] * 200)
w1s = array("i", [0] * 200)
nw = 0
gc.collect()
while ticks_diff(ticks_us(), START_US) < 0:
    sleep_ms(1)
next_w = START_US + 100000
k = 0
while ticks_diff(ticks_us(), END_US) < 0:
    for b, d, t in port.buttons():
        if ne < N:
            eb[ne] = b & 255
            ed[ne] = 1 if d else 0
            et[ne] = t
            ne += 1
    k += 1
    port.show(A if k & 1 else B)
    if ticks_diff(ticks_us(), next_w) >= 0:
        w0 = ticks_us()
        with open("/bench.tmp", "wb") as f:
            f.write(junk)
        if nw < 200:
            w0s[nw] = w0
            w1s[nw] = ticks_us()
            nw += 1
        next_w += WRITE_EVERY_US
    port.idle(5)
port.close()
try:
    import os
    os.remove("/bench.tmp")
except OSError:
    pass
print("ORIGIN", origin)
for i in range(ne):
    print("E", eb[i] if eb[i] < 128 else eb[i] - 256, ed[i], et[i])
for i in range(nw):
    print("W", w0s[i], w1s[i])
print("LOST", port.lost_edges(), "STEPS", k)
