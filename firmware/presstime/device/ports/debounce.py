# SPDX-License-Identifier: MIT
"""Debounce timestamped edges after the fact, keeping the time of the first edge.

Pure: no clock, no pins. The port feeds `edge(button, t_us)` for every raw edge (from the IRQ
ring) and calls `poll(now_us, levels)` once per loop with the current pressed levels (1 pressed,
0 released). A button whose edges have been quiet for `settle_us` is settled: if its level
changed, one event comes out stamped with the FIRST edge of the burst (the moment the player
pressed), otherwise the burst was a glitch and nothing comes out.

Order: events leave oldest first, across calls too. An event is held back while another
button's burst that started earlier is still settling (at most `hold_us`, so a chattering,
broken switch cannot stall the others). Equal timestamps (a same-instant tie: one PIO sample)
leave in button order, as the simulator's port delivers them, so the journal of a tie is the
same on the board and in the simulator (MicroPython's sort is not stable: the order is set by
the whole tuple). Who gets which token is still the round machine's rotating priority, never
the pin (docs/table.md).
Times are plain growing integers (µs since boot), so `<` and `-` are safe here.
"""


class Debouncer:
    settle_us = 10000   # arcade microswitches bounce for 1..5 ms
    hold_us = 50000     # longest a settling burst may hold back other buttons' events

    def __init__(self, count):
        self.count = count
        self.stable = bytearray(count)      # 1 = pressed (debounced)
        self.first = [-1] * count           # first edge of the unsettled burst, -1 = none
        self.last = [0] * count             # latest edge of that burst
        self.after = [-1] * count           # level after the latest edge (-1: not given)
        self.ready = []                     # settled events held back for ordering: (t, button, down)
        self.busy = 0                       # bursts still settling (0: poll() has nothing to do
                                            # unless the levels changed without an edge)

    def edge(self, button, t_us, level=-1):
        """One raw edge. `level` (1 pressed, 0 released), when the source knows it (the PIO
        capture does), lets a burst settle here: an edge settle_us or more after the previous
        one closes that burst with the level it left, so a whole press that went by unseen
        (down and up during a flash write, drained afterwards) still comes out, with its time."""
        f = self.first[button]
        if f < 0:
            self.first[button] = t_us
            self.last[button] = t_us
            self.busy += 1
        elif t_us > self.last[button]:
            if level >= 0 and t_us - self.last[button] >= self.settle_us:
                was = 1 - level if self.after[button] < 0 else self.after[button]
                if was != self.stable[button]:
                    self.stable[button] = was
                    self.ready.append((f, button, was == 1))
                self.first[button] = t_us
            self.last[button] = t_us
        self.after[button] = level

    def pending_since(self, now_us):
        """First edge of the oldest burst still settling (and still allowed to hold the others
        back), or -1: the port's clock does not run past it, so the round machine never times
        out ahead of a press that came before the deadline but is still settling."""
        earliest = -1
        for f in self.first:
            if f >= 0 and now_us - f < self.hold_us and (earliest < 0 or f < earliest):
                earliest = f
        return earliest

    def settle_by(self, now_us):
        """µs from now_us until the next burst settles (0 if one is due), or -1 if none settles."""
        soon = -1
        for b in range(self.count):
            if self.first[b] >= 0:
                d = self.last[b] + self.settle_us - now_us
                if d < 0:
                    d = 0
                if soon < 0 or d < soon:
                    soon = d
        return soon

    def poll(self, now_us, levels):
        """Settled events, oldest first: a list of (t_us, button, down)."""
        earliest = -1
        for b in range(self.count):
            f = self.first[b]
            if f < 0:
                if levels[b] != self.stable[b]:
                    # A change with no edge seen (ring overflow, or an IRQ lost): settle it now.
                    self.first[b] = now_us
                    self.last[b] = now_us
                    self.busy += 1
                    f = now_us
                else:
                    continue
            if now_us - self.last[b] >= self.settle_us:
                self.first[b] = -1
                self.busy -= 1
                if levels[b] != self.stable[b]:
                    self.stable[b] = levels[b]
                    self.ready.append((f, b, levels[b] == 1))
            elif now_us - f < self.hold_us and (earliest < 0 or f < earliest):
                earliest = f
        ready = self.ready
        if not ready:
            return []
        ready.sort()            # (t, button, down): time, then button order
        if earliest < 0:
            self.ready = []
            return ready
        n = 0
        while n < len(ready) and ready[n][0] < earliest:
            n += 1
        out = ready[:n]
        self.ready = ready[n:]
        return out

