# SPDX-License-Identifier: MIT
"""Debounce timestamped edges after the fact, keeping the time of the first edge.

Pure: no clock, no pins. The port feeds `edge(button, t_us)` for every raw edge (from the IRQ
ring) and calls `poll(now_us, levels)` once per loop with the current pressed levels (1 pressed,
0 released). A button whose edges have been quiet for `settle_us` is settled: if its level
changed, one event comes out stamped with the FIRST edge of the burst (the moment the player
pressed), otherwise the burst was a glitch and nothing comes out.

Order: events leave oldest first, across calls too. An event is held back while another
button's burst that started earlier is still settling (at most `hold_us`, so a chattering,
broken switch cannot stall the others). Equal timestamps keep no pin priority here: deciding a
tie is the round machine's documented rule, not the port's.
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
        self.ready = []                     # settled events held back for ordering: (t, button, down)

    def edge(self, button, t_us):
        if self.first[button] < 0:
            self.first[button] = t_us
            self.last[button] = t_us
        elif t_us > self.last[button]:
            self.last[button] = t_us

    def pending_since(self, now_us):
        """First edge of the oldest burst still settling (and still allowed to hold the others
        back), or -1: the port's clock does not run past it, so the round machine never times
        out ahead of a press that came before the deadline but is still settling."""
        earliest = -1
        for f in self.first:
            if f >= 0 and now_us - f < self.hold_us and (earliest < 0 or f < earliest):
                earliest = f
        return earliest

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
                    f = now_us
                else:
                    continue
            if now_us - self.last[b] >= self.settle_us:
                self.first[b] = -1
                if levels[b] != self.stable[b]:
                    self.stable[b] = levels[b]
                    self.ready.append((f, b, levels[b] == 1))
            elif now_us - f < self.hold_us and (earliest < 0 or f < earliest):
                earliest = f
        ready = self.ready
        if not ready:
            return []
        ready.sort(key=_time)
        if earliest < 0:
            self.ready = []
            return ready
        n = 0
        while n < len(ready) and ready[n][0] < earliest:
            n += 1
        out = ready[:n]
        self.ready = ready[n:]
        return out


def _time(event):
    return event[0]
