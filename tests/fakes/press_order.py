# SPDX-License-Identifier: MIT
"""Two players press close together: does the Pico port path still give the earlier one token 1?

Runs under the MicroPython unix port (and CPython) with tests/fakes first on sys.path, so
`machine` and `neopixel` are the fakes and the port's clock is a FakeClock. The path under test is
the real one: fake pin edge -> the port's hard-IRQ handler (heap locked where the interpreter
can: any allocation raises) -> EdgeRing -> Debouncer (every press bounces) -> Rp2Port.buttons()
in a loop polling every `loop_us` -> Table.press() with its tie rule (tie_us).
The clock starts just before ticks_us wraps (2**30), so the wrap falls between the presses.

    python/micropython press_order.py [tie_us]   prints  resolution_us: N
"""

import machine
from fake_clock import FakeClock

import presstime.device.ports.rp2 as rp2
from presstime.core.table import Table

try:
    from micropython import heap_lock, heap_unlock
except ImportError:  # CPython: nothing to lock

    def heap_lock():
        pass

    def heap_unlock():
        return 0


GAPS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 999, 1000, 1001, 2000, 5000)
BOUNCE = ((0, 0), (150, 1), (300, 0), (700, 1), (900, 0))  # (µs after the first edge, level)
T_PRESS = 20000000  # round running; the first press at 20 s after the port started


def new_setup(tie_us, start_ticks):
    clock = FakeClock(start=start_ticks).install(rp2)
    machine.Pin.by_id = {}
    port = rp2.Rp2Port(serial=False)
    table = Table()
    table.configure({"players": 6, "mode": "standard", "options": {"tie_us": tie_us}}, 0)
    table.control(0)  # start: countdown 3-2-1
    table.tick(3000)  # running
    return clock, port, table


def fire(clock, pin, level, t_us):
    clock.us = t_us
    heap_lock()
    try:
        pin.set(level)
    finally:
        heap_unlock()


def play(clock, port, table, presses, loop_us=1000, until_us=0):
    """presses: [(player, first_edge_us)]; each bounces by BOUNCE. Returns the port's events."""
    timeline = []
    for player, t in presses:
        gpio = port.board_map.PLAYER_PINS[player]
        for dt, level in BOUNCE:
            timeline.append((t + dt, gpio, level))
    timeline.sort(key=lambda e: e[0])
    end = max(e[0] for e in timeline) + 4 * port.settle_us
    if until_us > end:
        end = until_us
    seen = []
    i = 0
    t = timeline[0][0] - loop_us
    while t <= end:
        while i < len(timeline) and timeline[i][0] <= t:
            when, gpio, level = timeline[i]
            fire(clock, machine.Pin.by_id[gpio], level, when)
            i += 1
        clock.us = t
        for ev in port.buttons():
            seen.append(ev)
            if ev[1] and ev[0] >= 0:
                table.press(ev[0], ev[2])
        table.tick(t // 1000)
        t += loop_us
    return seen


def ordered(tie_us, a, b, gap_us, start_ticks):
    """True when a (pressed first) gets token 1, b token 2, and neither is flagged as a tie."""
    clock, port, table = new_setup(tie_us, start_ticks)
    play(clock, port, table, [(a, T_PRESS), (b, T_PRESS + gap_us)])
    return table.tok[a] == 1 and table.tok[b] == 2 and not table.tie[a] and not table.tie[b]


def resolution(tie_us, gaps=GAPS, players=6):
    """The smallest gap from which on (every larger gap too) every ordered pair of players is
    ordered correctly, with ticks_us wrapping between the two presses; None if none is."""
    good = []
    for gap in gaps:
        # wrap the µs ticks halfway between the two presses
        start = (1 << 30) - T_PRESS - gap // 2 - 1
        ok = True
        for a in range(players):
            for b in range(players):
                if a != b and not ordered(tie_us, a, b, gap, start):
                    ok = False
                    break
            if not ok:
                break
        good.append(ok)
    best = None
    for i in range(len(gaps) - 1, -1, -1):
        if not good[i]:
            break
        best = gaps[i]
    return best


def main(argv):
    tie_us = int(argv[1]) if len(argv) > 1 else 1000
    print("resolution_us: %s" % resolution(tie_us))


if __name__ == "__main__":
    import sys

    main(sys.argv)
