# SPDX-License-Identifier: MIT
"""MicroPython on a Raspberry Pi Pico (RP2040): the table build of hardware/README.md.

- Buttons: a PIO state machine samples the seven button pins every 16 µs and a DMA channel
  stores each change with its sample count in a RAM ring (ports/rp2_pio.py,
  docs/press-capture.md): a press keeps the time of its edge through flash writes and pixel
  writes. Where PIO is not available (another board map, a test's fake `machine`), a hard pin
  IRQ on both edges writes `ticks_us()` into a preallocated EdgeRing instead (no allocation
  inside the IRQ). The main loop debounces afterwards (Debouncer), so a press keeps the time of
  its first edge.
- Time: `ticks_ms`/`ticks_us` wrap; they are folded with `ticks_diff` into one growing count of
  microseconds since the port started (`now_ms()` is that count // 1000), the single origin of
  press stamps and of the loop's clock. `now_ms()` waits (at most settle_us) at the first edge
  of a press still settling, so a press just before time-out is never judged after it.
- Pixels: a PIO state machine fed by DMA drives the ring (the countdown; the built-in
  `neopixel` module where PIO is not available); the app hands a frame as ints 0xRRGGBB
  (`show_rgb`), only changed pixels are re-encoded, nothing is allocated; the player lights are
  the arcade buttons' LEDs, fed from the entries past the ring (`player_pixels`, see
  core/lights.py) and dimmed by PWM, so dim/bright patterns read on a one-colour LED too.
- Piezo: PWM; `beep()` starts the tone and returns, the stop time is checked in `buttons()`/`idle()`.
- Link: USB serial through `sys.stdin.buffer` (polled with `select.poll`, read ONE byte at a time:
  on rp2 a larger read can block even when poll said ready) and `sys.stdout.buffer`. Ctrl-C
  capture is off while the app runs (`kbd_intr(-1)`) so binary data passes; `restore_repl()`
  turns it back on for the link's "return to REPL" command (then mpremote works again).
- Idle: `idle(wait_ms)` sleeps until the app's next due instant (light tick, settle, beep end),
  and returns early when serial bytes or a button edge arrive (a PIO interrupt wakes it).
- Journal: a file on the littlefs flash.

The pin map comes from boards/pico.py (passed in, so a test can pass another board module).
"""

import gc
import os
import sys
import select
from binascii import hexlify
import machine
import micropython
from micropython import const
from time import ticks_us, ticks_ms, ticks_diff, sleep_ms

from ..port import Port
from ..boards import pico
from .debounce import Debouncer

_PERIOD_US = const(1073741824)   # ticks_us wraps at 2**30 on every MicroPython port
_FOLD_CHECK_MS = const(500000)   # beyond ~8.9 min between folds ticks_us may have wrapped
_READ_MAX = const(512)           # bytes taken from the USB serial per read() call
_CHUNK_MS = const(20)            # longest sleep without looking at the buttons (no PIO capture)
_GC_IDLE_MS = const(20)          # a wait this long or longer may begin with a garbage collection,
_GC_EVERY_MS = const(2000)       # at most once in this long
_NONE = ()


class Rp2Port(Port):
    board = "pico"
    idle_ms = 1          # sleep per idle loop iteration
    duty = 32768         # piezo PWM duty (u16) while beeping
    settle_us = 10000    # debounce: quiet time after the last edge
    ring_size = 64       # edges the IRQ ring holds between two loop iterations
    led_hz = 1000        # PWM frequency of the button LEDs
    use_pio = True       # False: the hard-IRQ stamps and the neopixel module (the fallback)
    journal_dir = "/journal"     # the journal's folder (journal_path)

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
        self._gc = 0        # ms of the last collection in idle()
        # buttons: players 0..n-1, then the control button as index n
        pull = machine.Pin.PULL_UP if board.BUTTON_ACTIVE_LOW else machine.Pin.PULL_DOWN
        self._active = 0 if board.BUTTON_ACTIVE_LOW else 1
        self._pins = []
        for gpio in tuple(board.PLAYER_PINS) + (board.CONTROL_PIN,):
            self._pins.append(machine.Pin(gpio, machine.Pin.IN, pull))
        self._levels = bytearray(len(self._pins))
        self._debounce = Debouncer(len(self._pins))
        self._debounce.settle_us = self.settle_us
        self._cap = None
        self._ring = None
        self._got = []          # (index, level, t_us) from the PIO capture, reused
        pins = tuple(board.PLAYER_PINS)
        if self.use_pio and len(pins) == 6 and pins == tuple(range(pins[0], pins[0] + 6)):
            try:
                from .rp2_pio import EdgeCapture
                self._cap = EdgeCapture(pins[0], board.CONTROL_PIN)
            except (ImportError, OSError, ValueError):
                self._cap = None
        if self._cap is not None:
            self._cap.start()
        else:
            from .edge_ring import EdgeRing     # the fallback's only: not loaded at boot with PIO
            ring = self._ring = EdgeRing(self.ring_size)
            for i in range(len(self._pins)):
                self._watch(self._pins[i], i, ring)
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
        self._px = None
        self._np = None
        if self._cap is not None:
            try:
                from .rp2_pio import PixelWriter
                self._px = PixelWriter(board.PIXEL_PIN, self.pixels)
            except (ImportError, OSError, ValueError):
                self._px = None
        if self._px is None:
            import neopixel
            self._np = neopixel.NeoPixel(machine.Pin(board.PIXEL_PIN, machine.Pin.OUT), self.pixels)
        self._shown = [-1] * self.pixels     # ints 0xRRGGBB on the ring (-1: not yet)
        self._lit = [-1] * min(len(self._leds), len(self.player_pixels))   # the LEDs' entries
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
        # the idle wait's: the serial and, with the PIO capture, its ring (a stream whose
        # interrupt wakes the wait at the first edge of a press, see rp2_pio.EdgeCapture)
        if self._cap is not None:
            self._wait = select.poll()
            self._wait.register(self._cap, select.POLLIN)
            if serial:
                self._wait.register(sys.stdin, select.POLLIN)
        else:
            self._wait = self._poll

    # -- buttons ---------------------------------------------------------------------------
    def _watch(self, pin, index, ring):

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
        """Move the captured edges into the debouncer (after a fold). Runs twice a loop step:
        the common case (nothing captured) stays in this small frame (see _feed)."""
        cap = self._cap
        if cap is not None:
            got = self._got
            cap.edges(got)
            if got:
                self._feed(got)
            return
        ring = self._ring
        if ring is not None and ring.pending():
            self._feed_ring(ring)

    def _feed(self, got):
        debounce = self._debounce
        levels = self._levels
        active = self._active
        now_tu = self._tu
        now_us = self._us
        for b, level, t in got:     # t: ticks_us, as the IRQ ring's stamps below
            v = 1 if level == active else 0
            levels[b] = v
            debounce.edge(b, now_us + ticks_diff(t, now_tu), v)
        got.clear()

    def _feed_ring(self, ring):
        debounce = self._debounce
        now_tu = self._tu
        now_us = self._us
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
        if self._debounce.busy:
            f = self._debounce.pending_since(t)
            if 0 <= f < t:
                t = f
        if t < self._mark:
            t = self._mark
        self._mark = t
        return t // 1000

    def buttons(self):
        if self._cap is None:
            self._read_levels()
        self._fold()
        self._drain()
        if self._beep_end >= 0:
            self._beep_check(self._us // 1000)
        if self._cap is not None and not self._debounce.busy:
            return _NONE    # the capture's levels change only with an edge: nothing to settle
        return self._settled()

    def _read_levels(self):
        levels = self._levels
        pins = self._pins
        active = self._active
        for i in range(len(pins)):   # levels first: an edge seen here is already in the ring
            levels[i] = 1 if pins[i].value() == active else 0

    def _settled(self):
        out = []
        players = self.players
        for t, b, down in self._debounce.poll(self._us, self._levels):
            out.append((b if b < players else -1, down, t))
        return out

    def uid(self):
        """This board's identity for the desktop's history: "pico-" and the flash's unique id."""
        return "pico-" + hexlify(machine.unique_id()).decode()

    def lost_edges(self):
        """Edges dropped because the ring was full (then levels were used): a health figure."""
        cap = self._cap
        if cap is not None:
            return cap.lost
        ring = self._ring
        return ring.lost if ring is not None else 0

    # -- lights ----------------------------------------------------------------------------
    def show(self, colours):
        """Ring pixels from (r, g, b) tuples (close(); the app calls show_rgb)."""
        self.show_rgb([(c[0] << 16) | (c[1] << 8) | c[2] for c in colours])

    def show_rgb(self, px):
        """Ring pixels from px[:pixels], ints 0xRRGGBB; each button LED glows as bright as its
        player's entry (player_pixels) relative to the cap: brightest channel / max_channel as
        PWM duty. Only changed pixels are re-encoded into the writer's GRB buffer, and nothing
        is allocated (the app calls this from its loop step)."""
        shown = self._shown
        n = len(px)
        if n > self.pixels:
            n = self.pixels
        out = self._px
        np = self._np
        if out is not None:
            buf = out.buf
        elif np is not None:
            buf = np.buf
        else:
            return
        changed = False
        for i in range(n):
            c = px[i]
            if shown[i] != c:
                shown[i] = c
                changed = True
                j = 3 * i
                buf[j] = (c >> 8) & 255     # GRB on the wire
                buf[j + 1] = c >> 16
                buf[j + 2] = c & 255
        if changed:
            if out is not None:
                out.write()
            elif np is not None:
                np.write()
        pp = self.player_pixels
        lit = self._lit
        top = self.max_channel
        for i in range(len(lit)):
            k = pp[i]
            c = px[k] if k < len(px) else 0
            if lit[i] == c:
                continue
            lit[i] = c
            v = c >> 16
            if (c >> 8) & 255 > v:
                v = (c >> 8) & 255
            if c & 255 > v:
                v = c & 255
            self._led(i, 65535 if v >= top else v * 65535 // top)

    def _led(self, i, duty):
        if self._led_duty[i] != duty:
            self._led_duty[i] = duty
            self._leds[i].duty_u16(duty)

    def set_leds(self, on):
        """Light the arcade buttons' LEDs directly: one truthy value per player."""
        for i in range(min(len(on), len(self._leds))):
            self._led(i, 65535 if on[i] else 0)
            if i < len(self._lit):
                self._lit[i] = -1       # the next frame sets it again

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
        """The serial bytes waiting; when none: b"", or None while a press is settling (its
        first edge less than the debouncer's hold_us ago), and the link then pushes no status
        in this step: a push (~15 ms of CPU) never stands between a press and its light. A
        request waiting is read and answered as ever (the desktop waits for that one)."""
        poll = self._poll
        if poll is not None:
            for _ in poll.ipoll(0):
                data = bytearray()
                stdin = sys.stdin.buffer
                while len(data) < _READ_MAX and poll.poll(0):
                    c = stdin.read(1)
                    if not c:
                        break
                    data.extend(c)
                return bytes(data)
        self._fold()
        self._drain()       # (an edge that came during this step's frame)
        d = self._debounce
        if d.busy and d.pending_since(self._us) >= 0:
            return None
        return b""          # nothing waiting (the common case: no list, no bytearray)

    def write(self, data):
        sys.stdout.buffer.write(data)

    def restore_repl(self):
        """Give Ctrl-C back to the REPL (the link's "return to REPL" command, or on exit)."""
        micropython.kbd_intr(3)

    # -- storage, loop -----------------------------------------------------------------------
    def journal_path(self):
        """`/journal/journal.bin`: the journal in a folder of its own. Every import looks in the
        top folder first, and in littlefs each write of a file there is a commit on that
        folder's metadata, which each lookup reads: with the journal at the top, the boot after
        a played game imported its modules ~20 % slower (docs/benchmarks.md). A journal kept at
        the top by an earlier firmware moves in at the first boot (_move_in).

        None (the app keeps this session's records in RAM, device/start.py) when the move cannot
        finish (a full flash: the files stay where they are, the next boot moves them) or a file
        of that name is in the way (not ours to remove): never a journal read half moved."""
        d = self.journal_dir
        try:
            if not os.stat(d)[0] & 0x4000:      # not a folder
                return None
        except OSError:
            try:
                _move_in(d)
            except OSError:
                return None
        return d + "/journal.bin"

    def idle(self, wait_ms=None):
        """Sleep until the app's next due instant (`wait_ms`; None: idle_ms), the end of a beep
        or of a settling press, whichever comes first; return early when serial bytes or a
        button edge arrive. With the PIO capture an edge wakes the wait at once (its interrupt,
        rp2_pio.EdgeCapture); on the hard-IRQ fallback the wait is cut in chunks of at most
        20 ms, after each of which the ring is looked at."""
        now = self.now_us() // 1000
        self._beep_check(now)
        w = self.idle_ms if wait_ms is None else wait_ms
        if self._beep_end >= 0 and self._beep_end - now < w:
            w = self._beep_end - now
        if now - self._gc >= _GC_EVERY_MS:
            # a collection may begin this wait: first take in the edges that came during the
            # step, so a press's settle bounds the wait (too short for one): its light first
            self._drain()
        debounce = self._debounce
        if debounce.busy:
            d = debounce.settle_by(self._us) // 1000 + 1
            if d < w:
                w = d
        poll = self._wait
        if self._cap is not None and poll is not None:
            if w >= _GC_IDLE_MS and now - self._gc >= _GC_EVERY_MS:
                # the heap's garbage collected here, in a wait, before the automatic collection
                # (the whole heap swept) falls wherever an allocation finds the heap full: in a
                # press's way to its light, or in a status reply (docs/press-capture.md)
                gc.collect()
                self._gc = self.now_us() // 1000
                w -= self._gc - now
                if w < 0:
                    w = 0       # (a negative timeout would be none)
            for _ in poll.ipoll(w):
                return
            return
        ring = self._ring
        while w > 0:
            ch = w if w < _CHUNK_MS else _CHUNK_MS
            w -= ch
            if poll is not None:
                for _ in poll.ipoll(ch):
                    return
            else:
                sleep_ms(ch)
            if ring is not None and ring.pending():
                return

    def close(self):
        """Stop IRQs, sound and lights; give the console back."""
        if self._cap is not None:
            self._cap.stop()
        else:
            for pin in self._pins:
                pin.irq(handler=None)
        if self._pwm is not None:
            self._pwm.duty_u16(0)
        for i in range(len(self._leds)):
            self._led(i, 0)
        self.show([(0, 0, 0)] * self.pixels)
        if self._px is not None:
            self._px.stop()
        self.restore_repl()


def _move_in(d):
    """Move the journal's files (`journal.bin.*`: segments, checkpoint, id) from the folder
    above `d` into `d`: into `d`.new first, which becomes `d` last (littlefs renames are atomic),
    so a power cut anywhere leaves either the files to move again at the next boot or the
    journal's folder whole."""
    i = d.rfind("/")
    top = d[:i] or "/"
    new = d + ".new"
    try:
        os.mkdir(new)
    except OSError:
        pass                # there already: a move cut short
    for name in os.listdir(top):
        if name.startswith("journal.bin."):
            os.rename(d[:i] + "/" + name, new + "/" + name)
    os.rename(new, d)


def _oled(board):
    """The I2C bus of the optional OLED (boards/pico.py) when it answers at its address, else
    None, its pins inputs again. The probe is a write of the set-up's first command (display
    off), not scan(): rp2's scan() bit-bangs its empty writes on the pins, which the rig's I2C
    model does not see. At most the 1 ms timeout when nothing answers."""
    P = machine.Pin
    try:
        i2c = machine.I2C(board.OLED_I2C, sda=P(board.OLED_SDA_PIN), scl=P(board.OLED_SCL_PIN),
                          freq=board.OLED_HZ, timeout=1000)
        i2c.writeto(board.OLED_ADDR, b"\x80\xae")
    except OSError:
        P(board.OLED_SDA_PIN, P.IN)
        P(board.OLED_SCL_PIN, P.IN)
        return None
    # found: the page writes (129 bytes, ~3 ms) need a longer timeout
    return machine.I2C(board.OLED_I2C, sda=P(board.OLED_SDA_PIN), scl=P(board.OLED_SCL_PIN),
                       freq=board.OLED_HZ)


def main(player_pixels=None):
    """The Pico build's program (firmware/main.py calls it, with the player lights' pixels):
    the port (with the screen and knob when the OLED answers: ports/rp2_screen.py), the app
    and its link (device/start.py), the loop until the link's "repl" request, the pins let
    go."""
    from ..start import start
    i2c = _oled(pico)
    if i2c is None:
        port = Rp2Port(player_pixels=player_pixels)
    else:
        from .rp2_screen import port_class
        port = port_class(Rp2Port)(i2c, player_pixels=player_pixels)
    app = start(port)
    try:
        from ..link import ReplReturn
    except ImportError:
        ReplReturn = KeyboardInterrupt
    try:
        app.run()
    except ReplReturn:
        pass
    finally:
        port.close()
