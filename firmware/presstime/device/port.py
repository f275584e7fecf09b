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

    # Every port defines these (no default; not written here, so that a board carries no
    # bytecode it does not run):
    #   now_ms() -> int     milliseconds since boot, monotonic, not wrapping
    #   buttons() -> list   button edges since the last call, oldest first: (button, down, t_us).
    #                       button: 0..players-1 for the players, -1 for the control button.
    #                       down: True on press, False on release. t_us: the time of the first
    #                       edge (before any debouncing), in microseconds since boot. The port
    #                       debounces: a bounce never appears as an extra edge.
    #   show_rgb(px)        the app's call when the frame changed: one int 0xRRGGBB per pixel
    #                       (core/lights.frame, already brightness-capped; the list is the
    #                       app's and is rebuilt in place after this returns). Written straight
    #                       out, nothing allocated per frame (ports/rp2.py, ports/macropad.py).
    #   show(colours)       the same from one (r, g, b) tuple per pixel (tools and tests)
    # A port with a screen and a knob (ports/macropad.py, ports/rp2_screen.py) also defines (not here: two names
    # more on every board cost the firmware's heap figure a 4 KB step, bench_firmware):
    #   screen_lines, screen_cols   the text grid of its screen (MacroPad: 5 x 21)
    #   show_lines(lines)   the whole screen: a list of str, at most screen_lines, each cut to
    #                       screen_cols (missing lines blank). Call it when the text changed;
    #                       it returns at once (the screen redraws the changed cells later).
    #   knob() -> int       detents turned since the last call, + clockwise. Its press is the
    #                       control button (-1); the board's back key is button -2 in buttons().

    def beep(self, freq_hz, ms):
        """Start a tone (no-op where the board has no piezo or speaker). Must not block."""

    def read(self):
        """Bytes received on the data serial line since the last call (b"" if none). Never blocks.
        None: nothing received, and no status push in this step (ports/rp2.py: a press is
        settling, and its light comes before a push)."""
        return b""

    def write(self, data):
        """Send bytes on the data serial line."""

    def journal_path(self):
        """Path of the journal file on this board's flash (writable by the firmware)."""
        return "journal.bin"

    def restore_repl(self):
        """Before the app leaves its loop for the REPL (the link's `repl` request): give the
        console back (e.g. turn Ctrl-C capture on again). Nothing by default."""

    def idle(self, wait_ms=None):
        """Called once per loop iteration when there is nothing to do (sleep, feed a watchdog).
        wait_ms: how long the app has nothing due (the port may sleep that long, waking
        earlier on serial bytes or a button edge, or less); None: a short sleep."""


# ---- the journal contract -------------------------------------------------------------------
# What the main loop and the link need from a journal. Every journal the app is given subclasses
# JournalBase: journal.py's Journal (on flash, safe against a power cut), ports/ram_journal.py's
# RamJournal (a board whose drive the firmware cannot write), memstore.py's MemJournal (tests).
# The defaults below are what a journal that does not override them does; the app reads these
# names directly, never probes for them. Sequence numbers start at 1 and only grow;
# `records(after_seq)` is what `presstime sync` pulls. (Kept in this file, which every board
# loads anyway: a module of its own would cost a board heap.)


class JournalBase:
    base_seq = 0            # seq just before the current game's first record (0: all of them)
    last_seq = 0            # seq of the newest record (base_seq if the current game has none)
    volatile = False        # True: nothing survives a reset (a RAM journal)

    # Every journal defines (no default, see Port):
    #   append(payload) -> seq          write one record (bytes); returns its seq
    #   records(after_seq=0, limit=None) -> [(seq, payload bytes)] after `after_seq`, oldest
    #                                   first, at most `limit`

    def append_many(self, payloads):
        """Write several records, oldest first; returns the last seq. A journal on flash does
        it in one write and one flush."""
        seq = self.last_seq
        for p in payloads:
            seq = self.append(p)
        return seq

    def reset(self):
        """Start a new game (configure does): seq continues. A journal that keeps one game per
        file starts a new one and moves base_seq; the default keeps appending."""

    def close(self):
        pass
