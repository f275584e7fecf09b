# SPDX-License-Identifier: MIT
"""What the main loop needs from a board: the port contract.

One small adapter per platform implements it (ports/rp2.py for MicroPython on a Pico,
ports/macropad.py for CircuitPython, ports/fake.py for tests and the desktop simulator).
The loop never touches hardware directly, so a fake port drops in.

Times: `now_ms()` counts milliseconds since boot and never wraps back (the port folds the
hardware's wrapping ticks with ticks_diff into a growing integer). Press timestamps are
microseconds on the same origin (`now_ms() * 1000` scale).
"""


class Port:
    """Every port subclasses Port; the app and the link read these names directly (no probes):
    a port overrides what its board has, the defaults say what a board without it gets."""

    board = "none"          # board name, as in boards/<board>.py
    players = 6             # player buttons available (index 0..players-1)
    pixels = 24             # pixels driven by show()
    ring = None             # pixel indices of the countdown ring; None: every pixel that is
                            # not a player's
    player_pixels = None    # one pixel index per seat (indices >= pixels: extra entries for
                            # plain LEDs, core/lights.py); None: the players are on the ring
    max_channel = 48        # brightness cap of a colour channel (0..255)
    uid = None              # the board's identity for the desktop; None: board name + chip id

    def now_ms(self):
        """Milliseconds since boot, monotonic, not wrapping."""
        raise NotImplementedError

    def buttons(self):
        """Button edges since the last call, oldest first: a list of (button, down, t_us).

        button: 0..players-1 for the players, -1 for the control button. down: True on press,
        False on release. t_us: the time of the first edge (before any debouncing), in
        microseconds since boot. The port debounces: a bounce never appears as an extra edge."""
        raise NotImplementedError

    def show(self, colours):
        """Write one (r, g, b) tuple per pixel (already brightness-capped by the caller)."""
        raise NotImplementedError

    def beep(self, freq_hz, ms):
        """Start a tone (no-op where the board has no piezo or speaker). Must not block."""

    def read(self):
        """Bytes received on the data serial line since the last call (b"" if none). Never blocks."""
        return b""

    def write(self, data):
        """Send bytes on the data serial line."""

    def journal_path(self):
        """Path of the journal file on this board's flash (writable by the firmware)."""
        return "journal.bin"

    def restore_repl(self):
        """Before the app leaves its loop for the REPL (the link's `repl` request): give the
        console back (e.g. turn Ctrl-C capture on again). Nothing by default."""

    def idle(self):
        """Called once per loop iteration when there is nothing to do (sleep a little, feed a watchdog)."""
