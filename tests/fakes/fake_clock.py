# SPDX-License-Identifier: MIT
"""A settable clock with MicroPython's wrapping ticks (period 2**30), for ports under test.

`install(module)` replaces the module's `ticks_us`, `ticks_ms`, `ticks_diff` and `sleep_ms` names,
so code that imported them (`from time import ticks_us`) reads this clock, IRQ handlers included.
`ticks_diff` is the rp2 one (period 2**30): the unix port's own period is far longer.
`us` is the true time in µs; `start` offsets it so a test can begin just before a wrap.
"""

_PERIOD = 1 << 30
_MASK = _PERIOD - 1
_HALF = _PERIOD // 2


def ticks_diff(a, b):
    return ((a - b + _HALF) & _MASK) - _HALF


class FakeClock:
    def __init__(self, start=0):
        self.us = 0
        self.start = start

    def ticks_us(self):
        return (self.start + self.us) & _MASK

    def ticks_ms(self):
        return ((self.start + self.us) // 1000) & _MASK

    def sleep_ms(self, ms):
        self.us += ms * 1000

    def install(self, module):
        module.ticks_us = self.ticks_us
        module.ticks_ms = self.ticks_ms
        module.ticks_diff = ticks_diff
        module.sleep_ms = self.sleep_ms
        return self
