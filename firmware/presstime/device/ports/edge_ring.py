# SPDX-License-Identifier: MIT
"""A preallocated ring of button edges, written from a hard interrupt handler.

`put()` runs inside the pin IRQ: it only stores small ints into buffers allocated here, so it
never allocates (MicroPython forbids allocation in a hard IRQ). One writer (the IRQ) moves
`head`, one reader (the main loop) moves `tail`: no lock is needed. When the ring is full the
newest edge is dropped and counted in `lost` (the port then falls back to reading pin levels).
"""

from array import array


class EdgeRing:
    size = 64

    def __init__(self, size=0):
        if size:
            self.size = size
        self.button = bytearray(self.size)
        self.ticks = array("i", [0] * self.size)  # ticks_us values (< 2**30: fit in 32 bits)
        self.head = 0   # next slot to write (IRQ only)
        self.tail = 0   # next slot to read (main loop only)
        self.lost = 0

    def put(self, button, ticks):
        """IRQ context: record one edge. No allocation."""
        h = self.head
        n = h + 1
        if n == self.size:
            n = 0
        if n == self.tail:
            self.lost += 1
            return
        self.button[h] = button
        self.ticks[h] = ticks
        self.head = n

    def pending(self):
        return self.tail != self.head

    def pop(self):
        """Main loop: the oldest edge as (button, ticks). Call only when pending()."""
        t = self.tail
        edge = (self.button[t], self.ticks[t])
        t += 1
        self.tail = 0 if t == self.size else t
        return edge
