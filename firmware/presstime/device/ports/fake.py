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
`keep_beeps` the recorded beeps (the last 32: a board's port keeps none). What it records weighs
on the firmware's heap figure (bench/bench_firmware.py), so the beeps are kept as ints in one
list made once and the last frame as the app's ints (show_rgb, as a board's port takes them):
`beeps` and `last_frame` make the tuples when asked.
"""


from ..port import Port


def _rgb(px):
    """Ints 0xRRGGBB -> a list of (r, g, b)."""
    return [((c >> 16) & 255, (c >> 8) & 255, c & 255) for c in px]


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
        self._frame = None       # the last frame as (r, g, b) tuples (last_frame), or None:
        self._shown = None       # not made yet from these ints of the last show_rgb
        self.shows = 0
        # the last keep_beeps beeps as a ring of (t_ms, Hz, ms), flat: one list made once, no
        # tuple kept per beep (beeps makes them when asked)
        self._beeps = [0] * (3 * keep_beeps)
        self._at = 0             # beeps so far
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
        # a new list per frame that the caller never changes: kept as it is
        self._frame = colours if isinstance(colours, list) else list(colours)
        if self.keep_frames:
            self.frames.append((self.now_ms(), self._frame))
            if len(self.frames) > self.keep_frames:
                self.frames.pop(0)

    def show_rgb(self, px):
        """The app's ints are copied into one list kept for the port's life, as a board's port
        writes them out without a list of tuples per frame; last_frame makes the tuples when
        asked. Recording frames (keep_frames) goes through show()."""
        if self.keep_frames:
            self.show(_rgb(px))
            return
        self.shows += 1
        self._frame = None
        if self._shown is None or len(self._shown) != len(px):
            self._shown = list(px)
        else:
            self._shown[:] = px

    @property
    def last_frame(self):
        """The last frame shown: a list of (r, g, b), or None before the first."""
        if self._frame is None and self._shown is not None:
            self._frame = _rgb(self._shown)
        return self._frame

    def beep(self, freq_hz, ms):
        b = self._beeps
        if b:
            i = 3 * (self._at % self.keep_beeps)
            b[i] = self.now_ms()
            b[i + 1] = freq_hz
            b[i + 2] = ms
        self._at += 1

    @property
    def beeps(self):
        """The last keep_beeps beeps, oldest first: a list of (t_ms, Hz, ms)."""
        k = self.keep_beeps
        n = self._at
        b = self._beeps
        return [(b[3 * (i % k)], b[3 * (i % k) + 1], b[3 * (i % k) + 2])
                for i in range(n - k if n > k else 0, n)]

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

    def idle(self, wait_ms=None):
        self.idles += 1
