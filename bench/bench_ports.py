"""Ports (issue 3): how close two presses may come and still be ordered by the Pico port path.

press_resolution_us: the smallest gap (from the ladder in tests/fakes/press_order.py, every
larger gap also passing) between two players' first edges for which the earlier player gets
token 1 and no tie is flagged, for all 30 ordered pairs of 6 players, with every press bouncing
and ticks_us wrapping between the two presses. Path: fake pin -> the port's hard-IRQ handler
(heap locked) -> EdgeRing -> Debouncer -> Rp2Port.buttons() polled every 1 ms -> Table.press
with the default tie rule (tie_us = 1000). Under the MicroPython unix port.
press_resolution_port_us: the same with tie_us = 0, i.e. what the port path alone resolves
(the rest is the round machine's deliberate tie window).
"""

import os

from mpytools import ROOT, micropython

KEYS = ("press_resolution_us", "press_resolution_port_us")
FAKES = os.path.join(ROOT, "tests", "fakes")


def _resolution(tie_us):
    script = "sys.path.insert(0, %r)\nimport press_order\npress_order.main(['x', '%d'])\n" % (FAKES, tie_us)
    code, out, err = micropython(script, heap_kb=512)
    if code != 0:
        raise RuntimeError("micropython failed: %s" % err.strip()[-400:])
    value = out.strip().split(": ")[-1]
    return None if value == "None" else int(value)


def measure():
    return {"press_resolution_us": _resolution(1000), "press_resolution_port_us": _resolution(0)}


if __name__ == "__main__":
    print(measure())
