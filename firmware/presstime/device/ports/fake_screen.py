# SPDX-License-Identifier: MIT
"""The fake port with a screen and a knob (device/port.py: `screen_lines`), for tests and the
desktop simulator: the app then scores on it (device/entry.py).

    port = ScreenPort(players=3)      # FakePort's arguments; a screen of 5 lines of 21
    port.turn(2)                      # the knob: 2 detents clockwise (read at the app's step)
    port.tap(-2)                      # the back key
    port.lines                        # what the screen shows now; port.screens: redraws

A module of its own: a board, and the fake port of the firmware's heap figures
(bench/bench_firmware.py), never load it.
"""

from .fake import FakePort


class ScreenPort(FakePort):
    screen_lines = 5
    screen_cols = 21

    def __init__(self, *args, **kw):
        FakePort.__init__(self, *args, **kw)
        self.lines = []
        self.screens = 0
        self._turns = 0

    def turn(self, detents):
        """The knob turned (+ clockwise); the app reads it at its next step."""
        self._turns += detents

    def knob(self):
        d = self._turns
        self._turns = 0
        return d

    def show_lines(self, lines):
        self.lines = [x[:self.screen_cols] for x in lines[:self.screen_lines]]
        self.screens += 1
