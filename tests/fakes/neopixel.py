# SPDX-License-Identifier: MIT
"""A fake built-in `neopixel` module: the real one's GRB byte buffer (`buf`, which the port
writes directly), and what each write() sent, decoded back to (r, g, b) tuples."""


class NeoPixel:
    ORDER = (1, 0, 2)

    def __init__(self, pin, n, bpp=3):
        self.pin = pin
        self.n = n
        self.buf = bytearray(3 * n)
        self.writes = 0
        self.shown = [self[i] for i in range(n)]

    def __setitem__(self, i, c):
        for k in range(3):
            self.buf[3 * i + self.ORDER[k]] = c[k]

    def __getitem__(self, i):
        b = self.buf
        return (b[3 * i + 1], b[3 * i], b[3 * i + 2])

    def __len__(self):
        return self.n

    def fill(self, c):
        for i in range(self.n):
            self[i] = c

    def write(self):
        self.writes += 1
        self.shown = [self[i] for i in range(self.n)]
