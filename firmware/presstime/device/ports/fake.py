# SPDX-License-Identifier: MIT
"""A scripted fake Port for tests and the desktop simulator (CPython and MicroPython).

    port = FakePort(players=6, pixels=24)
    port.set_ms(1000)                 # the clock is set by the test, never read from the host
    port.tap(0, at_ms=1200)           # player 1: down at 1200 ms, up 80 ms later
    port.hold(-1, at_ms=5000, ms=2000)  # control button held 2 s (pause)
    port.edge(2, True, 7000123)       # one raw edge (button, down, t_us)
    port.advance(10)                  # clock +10 ms
    port.buttons() -> edges whose time has come, oldest first
    port.frames, port.last_frame, port.beeps   # what the app showed and played
    port.feed(b"...")                 # bytes the host "sent"; port.read() returns them once
    port.take_written() -> bytes      # what the app wrote on the serial line

`journal_path()` returns the path given to the constructor, or None (the app then keeps its
checkpoint in memory). `keep_frames` limits the recorded frames (only the last is kept when 0),
`keep_beeps` the recorded beeps (the last 32: a board's port keeps none, and a long list of
small tuples would weigh on the firmware's heap figure).
"""


from ..port import Port


class FakePort(Port):
    board = "fake"

    def __init__(self, players=6, pixels=24, journal_path=None, ring=None, player_pixels=None,
                 keep_frames=0, keep_beeps=32):
        self.players = players
        self.pixels = pixels
        self._path = journal_path
        if ring is not None:
            self.ring = ring
        if player_pixels is not None:
            self.player_pixels = player_pixels
        self.t_us = 0
        self._edges = []         # pending (t_us, button, down), kept sorted
        self.frames = []
        self.keep_frames = keep_frames
        self.last_frame = None
        self.shows = 0
        self.beeps = []
        self.keep_beeps = keep_beeps
        self._rx = b""
        self._tx = []
        self.idles = 0

    # ---- clock ------------------------------------------------------------------------
    def now_ms(self):
        return self.t_us // 1000

    def set_ms(self, ms):
        self.t_us = ms * 1000

    def set_us(self, us):
        self.t_us = us

    def advance(self, ms):
        self.t_us += ms * 1000

    # ---- buttons ----------------------------------------------------------------------
    def edge(self, button, down, t_us):
        self._edges.append((t_us, button, down))
        self._edges.sort()

    def tap(self, button, at_ms=None, ms=80, at_us=None):
        """A press at at_ms (or at_us; default: now) released `ms` later."""
        t = at_us if at_us is not None else (self.t_us if at_ms is None else at_ms * 1000)
        self.edge(button, True, t)
        self.edge(button, False, t + ms * 1000)

    def hold(self, button, at_ms=None, ms=2000):
        self.tap(button, at_ms, ms)

    def pending(self):
        return len(self._edges)

    def buttons(self):
        out = []
        ed = self._edges
        while ed and ed[0][0] <= self.t_us:
            t, b, d = ed.pop(0)
            out.append((b, d, t))
        return out

    # ---- output -------------------------------------------------------------------------
    def show(self, colours):
        self.shows += 1
        # the app hands over a new list per frame and never changes it: kept as it is
        self.last_frame = colours if isinstance(colours, list) else list(colours)
        if self.keep_frames:
            self.frames.append((self.now_ms(), self.last_frame))
            if len(self.frames) > self.keep_frames:
                self.frames.pop(0)

    def beep(self, freq_hz, ms):
        if len(self.beeps) >= self.keep_beeps:
            self.beeps.pop(0)           # first: the list never grows past keep_beeps
        self.beeps.append((self.now_ms(), freq_hz, ms))

    # ---- serial -------------------------------------------------------------------------
    def feed(self, data):
        self._rx += bytes(data)

    def read(self):
        d = self._rx
        self._rx = b""
        return d

    def write(self, data):
        self._tx.append(bytes(data))

    def take_written(self):
        d = b"".join(self._tx)
        self._tx = []
        return d

    def journal_path(self):
        return self._path

    def idle(self):
        self.idles += 1
