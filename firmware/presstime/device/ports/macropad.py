# SPDX-License-Identifier: MIT
"""CircuitPython on the Adafruit Macropad RP2040: the no-soldering build.

- Buttons: `keypad.Keys` scans all 12 keys and the encoder switch every `SCAN_INTERVAL_S`
  (1 ms, CircuitPython's default is 20 ms) and debounces; each event carries `timestamp`, the
  `supervisor.ticks_ms()` of the scan that saw it, so a press keeps its own time even when the
  loop is busy. Resolution: 1 ms (two presses in the same scan share a stamp: a tie for the
  round machine's rule). Player keys and the control switch come from boards/macropad.py.
- Time: `supervisor.ticks_ms()` wraps at 2**29; it is folded with this module's `ticks_diff` into
  a growing count of ms since power-on (the port contract's "since boot"): CircuitPython starts
  the count at 2**29 - 65536 at power-on (so that it first wraps 65.5 s later) and keeps it
  across soft reloads, so `ticks_diff(ticks_ms(), _BOOT_TICKS)` is the ms since power-on
  (checked on the rig: tests/test_rig_macropad_boot.py).
- Pixels: the 12 key pixels (adafruit-circuitpython-neopixel) are the player lights and the
  countdown bar; the lights module lays them out from `pixels`.
- Speaker: PWM tone, started by `beep()`, stopped from `buttons()`/`idle()` when due.
- Screen: the OLED (`board.DISPLAY`, which CircuitPython drives itself) as 5 lines of 21
  characters: one displayio TileGrid over terminalio's built-in font bitmap, one tile per
  character (no label library, nothing per character allocated). Made at the first
  `show_lines()` (until then the screen shows CircuitPython's console, as before); only the cells
  that changed are set, and `show_lines()` redraws just their rectangle before it returns
  (auto_refresh off while the port owns the screen: displayio's own refresh waits for its 60 Hz
  grid, up to 17 ms more before a knob turn shows; measured on the rig, docs/rig-oled.md).
- Knob: `rotaryio.IncrementalEncoder` on ROTA/ROTB, one count a detent; `knob()` is the detents
  since the last call, clockwise positive (minus rotaryio's position, as Adafruit's MacroPad
  library counts). Its push switch is the control button; KEY1 is the back key (button -2).
- Link: `usb_cdc.data`, the second USB serial port that boot.py enables (None if it did not).
- Journal: files in the `/journal` folder of the CIRCUITPY drive. Code can write there only when
  boot.py remounted it writable (then the computer sees it read-only); see boot.py. When the
  drive is read-only to code, `journal_path()` returns None and the device runs without a
  journal. CircuitPython's FAT is not power-safe: it rewrites a whole 4 KB flash sector for every
  512-byte sector it writes, and a cut tears all of it (docs/journal.md, "The MacroPad"). So the
  journal's writes are kept out of every flash sector that holds the app: before the folder is
  made, `journal-reserve.bin` takes every free cluster among the first 1792 (whose FAT entries
  share the drive's first flash sector with its boot sector), so the folder, the segments, the
  board id and the checkpoint are allocated after it (and `pad`, 3 KB, right after the folder's
  own cluster, so no segment shares the folder's flash sector); the folder keeps the root
  directory (with code.py's entry) out of every append. Segments of 1 KB (one FAT cluster): a new segment, a
  FAT-table write, about once a game.
"""

import os
import time

import board
import displayio
import keypad
import microcontroller
import neopixel
import pwmio
import digitalio
import rotaryio
import storage
import supervisor
import usb_cdc
from micropython import const

from ..port import Port
from ..boards import macropad

_UNUSED = const(-9)                  # a key that is no player's, nor control nor back
_GLYPH0 = const(32)                  # terminalio's tiles: the printable ASCII from the space
_GLYPHS = const(95)
_TICKS_PERIOD = const(1 << 29)       # supervisor.ticks_ms wraps here
_TICKS_MASK = const((1 << 29) - 1)
_TICKS_HALF = const(1 << 28)
_BOOT_TICKS = const((1 << 29) - 65536)  # supervisor.ticks_ms() at power-on
# the journal's guard (see the module docstring): 1790 KB = the clusters 2..1791 of CIRCUITPY's
# FAT16 (1 KB clusters) whose FAT entries sit in the drive's first 4 KB flash sector
RESERVE_NAME = "journal-reserve.bin"
RESERVE_KB = const(1790)


def ticks_diff(a, b):
    """a - b for supervisor.ticks_ms values, correct across one wrap (like time.ticks_diff)."""
    return ((a - b + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF


class MacropadPort(Port):
    board = "macropad"
    # sleep per idle loop iteration: keypad stamps each press at its own scan, so a longer
    # sleep costs no press accuracy, only light and reply latency (<= 30 ms + a step); 1 ms
    # kept the CPU 70 % busy in a round (docs/real-firmware.md), 20 ms 22.1 % with the desktop
    # attached (three games), 30 ms 19.9 % (the slowest light 31.5 -> 47.1 ms, target 50:
    # docs/benchmarks.md, "Seventh pass")
    idle_s = 0.03
    # no flash writes while a token round runs (device/app.py _held): a FAT write stops the
    # key scan for 56 ms per 4 KB sector, and a press in it would be stamped that much late
    hold_round_writes = True
    duty = 0x8000         # speaker PWM duty while beeping
    journal_dir = "/journal"
    journal_segment_bytes = 1024    # one FAT cluster: the journal's SEGMENT_BYTES on this port

    def __init__(self, board_map=macropad):
        self.board_map = board_map
        self.board = board_map.NAME
        self.players = len(board_map.PLAYER_KEYS)
        self.pixels = board_map.PIXEL_COUNT
        self.max_channel = board_map.MAX_CHANNEL
        # the lights' layout (read by the app): each player key's pixel is that player's light,
        # the other keys' pixels are the countdown bar
        self.player_pixels = tuple(board_map.PLAYER_KEYS)
        self.ring = tuple(board_map.COUNTDOWN_KEYS)
        # time origin: power-on (a board up for more than 2**28 ms, 74 h: origin now)
        self._t = supervisor.ticks_ms()
        self._ms = max(0, ticks_diff(self._t, _BOOT_TICKS))
        # keys: the 12 key switches, then the control switch (key number 12)
        pins = []
        for name in board_map.KEY_PINS:
            pins.append(getattr(board, name))
        pins.append(getattr(board, board_map.CONTROL_PIN))
        self._control = len(pins) - 1
        # key number -> player, -1 control, -2 back, _UNUSED
        self._player_of = [_UNUSED] * len(pins)
        for player in range(self.players):
            self._player_of[board_map.PLAYER_KEYS[player]] = player
        self._player_of[self._control] = -1
        self._player_of[board_map.BACK_KEY] = -2
        self._keys = keypad.Keys(
            pins, value_when_pressed=not board_map.BUTTON_ACTIVE_LOW, pull=True,
            interval=board_map.SCAN_INTERVAL_S, max_events=64,
        )
        self._event = keypad.Event()
        # pixels
        self._np = neopixel.NeoPixel(getattr(board, board_map.PIXEL_PIN), self.pixels,
                                     brightness=1.0, auto_write=False)
        self._shown = None
        # speaker: enable the amplifier, tone by PWM
        self._speaker_on = digitalio.DigitalInOut(getattr(board, board_map.SPEAKER_ENABLE_PIN))
        self._speaker_on.direction = digitalio.Direction.OUTPUT
        self._speaker_on.value = True
        self._pwm = pwmio.PWMOut(getattr(board, board_map.SPEAKER_PIN), duty_cycle=0,
                                 frequency=440, variable_frequency=True)
        self._beep_end = -1
        # knob: counts from now; the screen is made at the first show_lines()
        self._enc = rotaryio.IncrementalEncoder(getattr(board, board_map.ENCODER_A_PIN),
                                                getattr(board, board_map.ENCODER_B_PIN))
        self._knob_at = self._enc.position
        self.screen_lines = board_map.SCREEN_LINES
        self.screen_cols = board_map.SCREEN_COLS
        self._grid = None
        self._cells = None
        self._blank = 0
        self._display = None
        # link: None unless boot.py enabled the data port
        self._serial = usb_cdc.data
        # journal: writable only when boot.py remounted the drive for code
        self.journal_writable = not storage.getmount("/").readonly

    # -- time ------------------------------------------------------------------------------
    def _fold(self):
        t = supervisor.ticks_ms()
        self._ms += ticks_diff(t, self._t)
        self._t = t

    def now_ms(self):
        self._fold()
        return self._ms

    # -- buttons ---------------------------------------------------------------------------
    def buttons(self):
        self._fold()
        out = []
        event = self._event
        events = self._keys.events
        while events.get_into(event):
            who = self._player_of[event.key_number]
            if who == _UNUSED:
                continue
            ms = self._ms + ticks_diff(event.timestamp, self._t)
            out.append((who, event.pressed, ms * 1000))
        self._beep_check(self._ms)
        return out

    def uid(self):
        """This board's identity for the desktop's history: "macropad-" and the chip's unique id."""
        return "macropad-" + "".join("%02x" % b for b in microcontroller.cpu.uid)

    def lost_edges(self):
        """1 if the keypad event queue overflowed since the last call (events were lost)."""
        events = self._keys.events
        lost = 1 if events.overflowed else 0
        events.overflowed = False
        return lost

    # -- lights ----------------------------------------------------------------------------
    def show_rgb(self, px):
        """The app's frame (ints 0xRRGGBB, which neopixel takes as they are; called only when
        the frame changed): written straight out, no list of tuples per frame."""
        np = self._np
        for i in range(len(px) if len(px) < self.pixels else self.pixels):
            np[i] = px[i]
        np.show()
        self._shown = None      # show()'s last tuples are no longer what the pixels show

    def show(self, colours):
        if colours == self._shown:
            return
        np = self._np
        for i in range(min(len(colours), self.pixels)):
            np[i] = colours[i]
        np.show()
        self._shown = list(colours)

    # -- screen and knob ---------------------------------------------------------------------
    def _screen(self):
        import terminalio
        font = terminalio.FONT
        w, h = font.get_bounding_box()
        palette = displayio.Palette(2)
        palette[1] = 0xFFFFFF
        cols, lines = self.screen_cols, self.screen_lines
        space = font.get_glyph(_GLYPH0)
        # (the stubs' Glyph lists tile_index only as an argument)
        self._blank = space.tile_index if space is not None else 0  # pyright: ignore[reportAttributeAccessIssue]
        grid = displayio.TileGrid(font.bitmap, pixel_shader=palette, width=cols, height=lines,
                                  tile_width=w, tile_height=h, default_tile=self._blank)
        group = displayio.Group()
        group.append(grid)
        display = getattr(board, self.board_map.DISPLAY)
        display.auto_refresh = False
        display.root_group = group
        self._display = display
        cells = bytearray(b" " * (cols * lines))      # the characters shown
        self._grid = grid
        self._cells = cells
        return grid, cells, display

    def show_lines(self, lines):
        grid, cells, display = self._grid, self._cells, self._display
        changed = False
        if grid is None or cells is None or display is None:
            grid, cells, display = self._screen()
            changed = True                                  # (the console goes, even for blanks)
        blank = self._blank
        cols = self.screen_cols
        n = len(lines)
        for row in range(self.screen_lines):
            text = lines[row].encode() if row < n else b""
            m = len(text)
            i = row * cols
            for col in range(cols):
                c = text[col] if col < m else 32
                if c - _GLYPH0 >= _GLYPHS or c < _GLYPH0:
                    c = 63                                  # "?": not in the font
                if cells[i + col] != c:
                    cells[i + col] = c
                    grid[col, row] = blank + c - _GLYPH0
                    changed = True
        if changed:
            display.refresh(target_frames_per_second=None)

    def knob(self):
        p = self._enc.position
        d = self._knob_at - p
        self._knob_at = p
        return d

    # -- sound -----------------------------------------------------------------------------
    def beep(self, freq_hz, ms):
        self._pwm.frequency = freq_hz
        self._pwm.duty_cycle = self.duty
        self._beep_end = self.now_ms() + ms

    def _beep_check(self, now_ms):
        if self._beep_end >= 0 and now_ms >= self._beep_end:
            self._beep_end = -1
            self._pwm.duty_cycle = 0

    # -- link ------------------------------------------------------------------------------
    def read(self):
        serial = self._serial
        if serial is None:
            return b""
        n = serial.in_waiting
        if not n:
            return b""
        return serial.read(n) or b""

    def write(self, data):
        if self._serial is not None:
            self._serial.write(data)

    def restore_repl(self):
        """Nothing to do: the REPL has its own USB serial port (usb_cdc.console)."""

    # -- storage, loop -----------------------------------------------------------------------
    def journal_path(self):
        """`/journal/journal.bin`, or None when the drive is read-only to code. The first time:
        the reserve, then the folder; a journal kept at the drive's top before moves in (copied:
        its clusters may sit beside the app's). OSError when the drive refuses."""
        if not self.journal_writable:
            return None
        from ..journal import Journal
        # before start() makes the journal (a class attribute meant to be set: pyright reads it
        # as the literal 240)
        Journal.SEGMENT_BYTES = self.journal_segment_bytes  # pyright: ignore[reportAttributeAccessIssue]
        d = self.journal_dir
        top = d[:d.rfind("/")]
        reserve = top + "/" + RESERVE_NAME
        try:
            os.stat(reserve)
        except OSError:
            try:
                with open(reserve, "wb") as f:      # clusters taken, not written (no data)
                    f.seek(RESERVE_KB * 1024 - 1)
                    f.write(b"\0")
            except OSError:
                pass        # a full drive: the journal still works, without the guarantee
        try:
            os.stat(d)
        except OSError:
            os.mkdir(d)
            with open(d + "/pad", "wb") as f:       # 3 clusters after the folder's own: no
                f.seek(3 * 1024 - 1)                # segment shares its 4 KB flash sector
                f.write(b"\0")
        old = [n for n in os.listdir(top or "/") if n.startswith("journal.bin.")]
        for name in old:
            with open(top + "/" + name, "rb") as src:
                data = src.read()
            with open(d + "/" + name, "wb") as dst:
                dst.write(data)
        for name in old:
            os.remove(top + "/" + name)
        return d + "/journal.bin"

    def idle(self, wait_ms=None):
        self._beep_check(self.now_ms())
        time.sleep(self.idle_s)

    def close(self):
        self._pwm.duty_cycle = 0
        self._speaker_on.value = False
        self._np.fill((0, 0, 0))
        self._np.show()
        self._keys.deinit()
        self._enc.deinit()
        display = self._display
        if display is not None:
            display.root_group = displayio.CIRCUITPYTHON_TERMINAL
            display.auto_refresh = True
