# SPDX-License-Identifier: MIT
"""A fake built-in `neopixel` module: keeps the pixels and counts writes."""


class NeoPixel:
    def __init__(self, pin, n, bpp=3):
        self.pin = pin
        self.n = n
        self.buf = [(0, 0, 0)] * n
        self.writes = 0
        self.shown = list(self.buf)

    def __setitem__(self, i, c):
        self.buf[i] = c

    def __getitem__(self, i):
        return self.buf[i]

    def __len__(self):
        return self.n

    def fill(self, c):
        for i in range(self.n):
            self.buf[i] = c

    def write(self):
        self.writes += 1
        self.shown = list(self.buf)
