"""Ports (issue 3): the Pico port's fallback path on fakes, under the MicroPython unix port.

press_resolution_port_us (unix port, fake pins, fake clock): the smallest gap (from the ladder
in tests/fakes/press_order.py, every larger gap also passing) between two players' first edges
for which the earlier player gets token 1 and no tie is flagged (tie_us = 0), for all 30
ordered pairs of 6 players, with every press bouncing and ticks_us wrapping between the two
presses. Path: fake pin -> the port's hard-IRQ handler (heap locked) -> EdgeRing -> Debouncer
-> Rp2Port.buttons() polled every 1 ms -> Table.press. It says the bookkeeping keeps 1 µs
apart; it says nothing about a chip (interrupt latency, flash writes): the board's figures are
bench_rp2_press.py's, on the official firmware in the emulated RP2040.
(`press_resolution_us`, the same with the default tie window, was removed: it returned the
configured tie_us, a setting, not a measurement.)
"""

import os

from mpytools import ROOT, micropython

KEYS = ("press_resolution_port_us",)
FAKES = os.path.join(ROOT, "tests", "fakes")


def _resolution(tie_us):
    script = "sys.path.insert(0, %r)\nimport press_order\npress_order.main(['x', '%d'])\n" % (
        FAKES,
        tie_us,
    )
    code, out, err = micropython(script, heap_kb=512)
    if code != 0:
        raise RuntimeError("micropython failed: %s" % err.strip()[-400:])
    value = out.strip().split(": ")[-1]
    return None if value == "None" else int(value)


def measure():
    return {"press_resolution_port_us": _resolution(0)}


if __name__ == "__main__":
    print(measure())
