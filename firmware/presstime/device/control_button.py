# SPDX-License-Identifier: MIT
"""The control button's gestures (press, double press, hold), from its edges' timestamps.

In the style of micropython-async's `Pushbutton` (Peter Hinch): one small class, the settings
are class attributes, the actions are callables given to it, and time comes in as arguments
(µs of the edges, ms of the loop), so a test drives it with a fake clock.

    b = ControlButton(short, double, hold)
    b.edge(down, t_us)     # every edge of the button (first-edge time, debounced by the port)
    b.poll(now_ms)         # every loop: holds reached, and a short press that had no second

    short(t_ms)            a short press alone, taken DOUBLE_MS after its release (so that a
                           second press can still make it a double); t_ms is that instant,
                           release + DOUBLE_MS, however late the loop polls (the board and the
                           simulator then agree to the ms)
    double(t_ms)           the second press of a double, at its down edge
    hold(t_ms, level)      held LONG_MS (level 1: t_ms is when it went down) and VERY_LONG_MS
                           (level 2: t_ms is when the hold reached it); each once per hold
A press held LONG_MS or more is a hold, never a short press; the second press of a double is
not a short press either.
"""


class ControlButton:
    LONG_MS = 1500
    VERY_LONG_MS = 5000
    DOUBLE_MS = 400

    def __init__(self, short, double, hold):
        self._short = short
        self._double_cb = double
        self._hold = hold
        self.down_us = None     # the down edge of a press still held
        self._fired = 0         # hold levels fired during this press (bits 1, 2)
        self._single = None     # ms of a short press's release, waiting for a possible second
        self._double = False    # this press is the second of a double

    def edge(self, down, t_us):
        t_ms = t_us // 1000
        if down:
            self.down_us = t_us
            self._fired = 0
            self._double = self._single is not None and t_ms - self._single < self.DOUBLE_MS
            if self._double:
                self._single = None
                self._double_cb(t_ms)
            return
        t0 = self.down_us
        if t0 is None:
            return
        self.down_us = None
        held = (t_us - t0) // 1000
        self._holds(t0, held)
        if held < self.LONG_MS and not self._double:
            self._single = t_ms

    def poll(self, now_ms):
        if self.down_us is not None:
            self._holds(self.down_us, now_ms - self.down_us // 1000)
        s = self._single
        if s is not None and now_ms - s >= self.DOUBLE_MS:
            self._single = None
            self._short(s + self.DOUBLE_MS)     # the instant it became a short press

    def _holds(self, t0_us, held):
        if held >= self.LONG_MS and not self._fired & 1:
            self._fired |= 1
            self._hold(t0_us // 1000, 1)
        if held >= self.VERY_LONG_MS and not self._fired & 2:
            self._fired |= 2
            self._hold(t0_us // 1000 + held, 2)
