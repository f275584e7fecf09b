# SPDX-License-Identifier: MIT
"""MicroPython on a Raspberry Pi Pico (RP2040): the table build of hardware/README.md.

- Buttons: a hard pin IRQ on both edges writes `ticks_us()` into a preallocated EdgeRing (no
  allocation inside the IRQ); the main loop drains the ring and debounces afterwards
  (Debouncer), so a press keeps the time of its first edge.
- Time: `ticks_ms`/`ticks_us` wrap; they are folded with `ticks_diff` into one growing count of
  microseconds since the port started (`now_ms()` is that count // 1000), the single origin of
  press stamps and of the loop's clock. `now_ms()` waits (at most settle_us) at the first edge
  of a press still settling, so a press just before time-out is never judged after it.
- Pixels: the built-in `neopixel` module drives the ring (the countdown); the player lights are
  the arcade buttons' LEDs, fed from the entries past the ring (`player_pixels`, see
  core/lights.py) and dimmed by PWM, so dim/bright patterns read on a one-colour LED too.
- Piezo: PWM; `beep()` starts the tone and returns, the stop time is checked in `buttons()`/`idle()`.
- Link: USB serial through `sys.stdin.buffer` (polled with `select.poll`, read ONE byte at a time:
  on rp2 a larger read can block even when poll said ready) and `sys.stdout.buffer`. Ctrl-C
  capture is off while the app runs (`kbd_intr(-1)`) so binary data passes; `restore_repl()`
  turns it back on for the link's "return to REPL" command (then mpremote works again).
- Journal: a file on the littlefs flash.

The pin map comes from boards/pico.py (passed in, so a test can pass another board module).
"""

import sys
import select
from binascii import hexlify
import machine
import micropython
from micropython import const
from time import ticks_us, ticks_ms, ticks_diff, sleep_ms

from ..port import Port
from ..boards import pico
from .edge_ring import EdgeRing
from .debounce import Debouncer

_PERIOD_US = const(1073741824)   # ticks_us wraps at 2**30 on every MicroPython port
_FOLD_CHECK_MS = const(500000)   # beyond ~8.9 min between folds ticks_us may have wrapped
_READ_MAX = const(512)           # bytes taken from the USB serial per read() call


class Rp2Port(Port):
    board = "pico"
    idle_ms = 1          # sleep per idle loop iteration
    duty = 32768         # piezo PWM duty (u16) while beeping
    settle_us = 10000    # debounce: quiet time after the last edge
    ring_size = 64       # edges the IRQ ring holds between two loop iterations
    led_hz = 1000        # PWM frequency of the button LEDs

    def __init__(self, board=pico, serial=True, player_pixels=None):
        self.board_map = board
        self.board = board.NAME
        self.players = len(board.PLAYER_PINS)
        self.pixels = board.PIXEL_COUNT
        self.max_channel = board.MAX_CHANNEL
        # time origin: now
        self._tu = ticks_us()
        self._tm = ticks_ms()
        self._us = 0
        self._mark = 0      # now_ms() never goes back
        # buttons: players 0..n-1, then the control button as index n
        pull = machine.Pin.PULL_UP if board.BUTTON_ACTIVE_LOW else machine.Pin.PULL_DOWN
        self._active = 0 if board.BUTTON_ACTIVE_LOW else 1
        self._pins = []
        for gpio in tuple(board.PLAYER_PINS) + (board.CONTROL_PIN,):
            self._pins.append(machine.Pin(gpio, machine.Pin.IN, pull))
        self._levels = bytearray(len(self._pins))
        self._ring = EdgeRing(self.ring_size)
        self._debounce = Debouncer(len(self._pins))
        self._debounce.settle_us = self.settle_us
        for i in range(len(self._pins)):
            self._watch(self._pins[i], i)
        # lights
        # the arcade buttons' LEDs: PWM (GP8-GP13 are six distinct PWM channels), so a dim
        # "reporting" light and a bright token flash differ on a one-colour LED as on a pixel
        self._leds = []
        for gpio in board.PLAYER_LED_PINS:
            led = machine.PWM(machine.Pin(gpio, machine.Pin.OUT))
            led.freq(self.led_hz)
            led.duty_u16(0)
            self._leds.append(led)
        self._led_duty = [0] * len(self._leds)
        # the lights' layout (read by the app). Default: the whole ring is the countdown and the
        # player lights are entries past it (board.PLAYER_PIXELS), shown on the buttons' LEDs.
        # player_pixels=ring indices puts them on the ring instead (the LEDs mirror them).
        if player_pixels is None:
            player_pixels = board.PLAYER_PIXELS
        self.player_pixels = tuple(player_pixels)
        self.ring = tuple(i for i in range(self.pixels) if i not in self.player_pixels)
        import neopixel
        self._np = neopixel.NeoPixel(machine.Pin(board.PIXEL_PIN, machine.Pin.OUT), self.pixels)
        self._shown = None
        # piezo
        self._pwm = None
        if board.PIEZO_PIN is not None:
            self._pwm = machine.PWM(machine.Pin(board.PIEZO_PIN))
            self._pwm.duty_u16(0)
        self._beep_end = -1
        # USB serial link
        self._poll = None
        if serial:
            self._poll = select.poll()
            self._poll.register(sys.stdin, select.POLLIN)
            micropython.kbd_intr(-1)

    # -- buttons ---------------------------------------------------------------------------
    def _watch(self, pin, index):
        ring = self._ring

        def edge(p):
            # hard IRQ: stamp first, store two small ints, allocate nothing
            ring.put(index, ticks_us())

        trigger = machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING
        try:
            pin.irq(handler=edge, trigger=trigger, hard=True)
        except TypeError:   # no hard IRQs here: a soft (scheduled) one stamps later, still in order
            pin.irq(handler=edge, trigger=trigger)

    def _fold(self):
        tu = ticks_us()
        tm = ticks_ms()
        dm = ticks_diff(tm, self._tm)
        du = ticks_diff(tu, self._tu)
        self._tm = tm
        self._tu = tu
        if dm > _FOLD_CHECK_MS:
            # a long stall: the ms ticks tell how many µs periods went by unseen
            du += ((dm * 1000 - du + _PERIOD_US // 2) // _PERIOD_US) * _PERIOD_US
        self._us += du

    def _drain(self):
        """Move the IRQ ring's edges into the debouncer (after a fold)."""
        now_tu = self._tu
        now_us = self._us
        ring = self._ring
        debounce = self._debounce
        while ring.pending():
            b, t = ring.pop()
            debounce.edge(b, now_us + ticks_diff(t, now_tu))

    def now_us(self):
        self._fold()
        return self._us

    def now_ms(self):
        """The loop's clock: ms since start, held (never back) at the first edge of a press that
        is still settling, so the loop never acts on a time past a press it has not seen yet
        (a press 5 ms before time-out counts as in time). The hold lasts at most settle_us."""
        self._fold()
        self._drain()
        t = self._us
        f = self._debounce.pending_since(t)
        if 0 <= f < t:
            t = f
        if t < self._mark:
            t = self._mark
        self._mark = t
        return t // 1000

    def buttons(self):
        levels = self._levels
        pins = self._pins
        active = self._active
        for i in range(len(pins)):   # levels first: an edge seen here is already in the ring
            levels[i] = 1 if pins[i].value() == active else 0
        self._fold()
        self._drain()
        now_us = self._us
        self._beep_check(now_us // 1000)
        out = []
        players = self.players
        for t, b, down in self._debounce.poll(now_us, levels):
            out.append((b if b < players else -1, down, t))
        return out

    def uid(self):
        """This board's identity for the desktop's history: "pico-" and the flash's unique id."""
        return "pico-" + hexlify(machine.unique_id()).decode()

    def lost_edges(self):
        """Edges dropped because the ring was full (then levels were used): a health figure."""
        return self._ring.lost

    # -- lights ----------------------------------------------------------------------------
    def show(self, colours):
        """Ring pixels from colours[:pixels]; each button LED glows as bright as its player's
        entry (player_pixels) relative to the cap: brightest channel / max_channel as PWM duty."""
        if colours == self._shown:
            return
        np = self._np
        n = min(len(colours), self.pixels)
        for i in range(n):
            np[i] = colours[i]
        np.write()
        self._shown = list(colours)
        pp = self.player_pixels
        leds = self._leds
        top = self.max_channel
        for i in range(min(len(leds), len(pp))):
            k = pp[i]
            c = colours[k] if k < len(colours) else (0, 0, 0)
            v = c[0]
            if c[1] > v:
                v = c[1]
            if c[2] > v:
                v = c[2]
            self._led(i, 65535 if v >= top else v * 65535 // top)

    def _led(self, i, duty):
        if self._led_duty[i] != duty:
            self._led_duty[i] = duty
            self._leds[i].duty_u16(duty)

    def set_leds(self, on):
        """Light the arcade buttons' LEDs directly: one truthy value per player."""
        for i in range(min(len(on), len(self._leds))):
            self._led(i, 65535 if on[i] else 0)

    # -- sound -----------------------------------------------------------------------------
    def beep(self, freq_hz, ms):
        if self._pwm is None:
            return
        self._pwm.freq(freq_hz)
        self._pwm.duty_u16(self.duty)
        self._beep_end = self.now_us() // 1000 + ms

    def _beep_check(self, now_ms):
        if self._beep_end >= 0 and now_ms >= self._beep_end:
            self._beep_end = -1
            if self._pwm is not None:
                self._pwm.duty_u16(0)

    # -- link ------------------------------------------------------------------------------
    def read(self):
        if self._poll is None:
            return b""
        data = bytearray()
        stdin = sys.stdin.buffer
        while len(data) < _READ_MAX and self._poll.poll(0):
            c = stdin.read(1)
            if not c:
                break
            data.extend(c)
        return bytes(data)

    def write(self, data):
        sys.stdout.buffer.write(data)

    def restore_repl(self):
        """Give Ctrl-C back to the REPL (the link's "return to REPL" command, or on exit)."""
        micropython.kbd_intr(3)

    # -- storage, loop -----------------------------------------------------------------------
    def journal_path(self):
        return "/journal.bin"

    def idle(self):
        self._beep_check(self.now_us() // 1000)
        sleep_ms(self.idle_ms)

    def close(self):
        """Stop IRQs, sound and lights; give the console back."""
        for pin in self._pins:
            pin.irq(handler=None)
        if self._pwm is not None:
            self._pwm.duty_u16(0)
        for i in range(len(self._leds)):
            self._led(i, 0)
        self._np.fill((0, 0, 0))
        self._np.write()
        self.restore_repl()
