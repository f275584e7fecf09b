# SPDX-License-Identifier: MIT
"""The Pico build with its optional screen and knob (issue 27, hardware/README.md): Rp2Port and
the port contract's screen (device/port.py: screen_lines, show_lines, knob, the back key).
Loaded only when ports/rp2.py's main() found the OLED at boot; a Pico without it never imports
this file. `port_class(Rp2Port)` makes the class: rp2.py passes its port in, so that the two
modules do not import each other.

- Screen: an SSD1306 128 x 64 OLED on I2C (boards/pico.py), driven here with a few of its
  commands (MicroPython's rp2 firmware has no ssd1306 driver): its set-up once, then per line
  the page window (0x21/0x22) and the page's 128 bytes. A text line is one 8-row page in
  MicroPython's framebuf font (8 x 8): 16 characters on 8 lines. `show_lines` draws each
  changed line into one 128-byte FrameBuffer and sends that page (129 bytes, ~3 ms at 400 kHz)
  before it returns: a knob's turn changes the number's line only.
- Knob: A/B quadrature to ground, a hard IRQ on both edges of both pins counts quarter steps
  (a Gray-code step table, so a bounce goes back and forth and a skipped state counts nothing)
  and a detent at each return to rest (both high) that moved two quarters or more; `knob()` is
  the detents since the last call, clockwise (B falls first) positive. Nothing is allocated
  in the IRQ (an array of three ints).
- Keys: the knob's press is a second control button (-1) and the back key is button -2, read
  at each buttons() call (a level held 5 ms, stamped at its first reading): with this screen
  the loop's sleep is at most 10 ms a pass (idle), so a press (~80 ms) is never missed and a
  turn shows within a pass. The players' and the control button's stamps are Rp2Port's own.
"""

import framebuf
import machine
from array import array
from micropython import const

from ..boards import pico

_W = const(128)
_PASS_MS = const(10)        # longest idle sleep while the screen is on
_SETTLE_US = const(5000)    # a key's level held this long is a press or a release
# the SSD1306's set-up, as MicroPython's ssd1306 driver sends it for 128 x 64 (one transaction:
# control byte 0x00, then commands): off, horizontal addressing, start line 0, columns mirrored
# (A1) and rows scanned up (C8): the picture upright; multiplex 63, offset 0, COM pins, clock,
# precharge, VCOM, contrast, RAM shown, not inverted, charge pump on, display on
_INIT = (b"\x00\xae\x20\x00\x40\xa1\xa8\x3f\xc8\xd3\x00\xda\x12\xd5\x80\xd9\xf1\xdb\x30"
         b"\x81\xff\xa4\xa6\x8d\x14\xaf")
# a quarter step's place in the cycle, from the level (A << 1) | B: rest 3, then 2, 0, 1 clockwise
_PLACE = b"\x02\x03\x01\x00"


def port_class(Rp2Port):
    """ScreenPort: Rp2Port (passed in) with the screen, the knob and their keys."""

    class ScreenPort(Rp2Port):
        def __init__(self, i2c, board=pico, serial=True, player_pixels=None):
            Rp2Port.__init__(self, board, serial, player_pixels)
            self.screen_cols = board.SCREEN_COLS
            self.screen_lines = board.SCREEN_LINES
            # screen: one page buffer, 0x40 (data follows) then the page's 128 columns
            self._i2c = i2c
            self._addr = board.OLED_ADDR
            page = self._page = bytearray(_W + 1)
            page[0] = 0x40
            self._fb = framebuf.FrameBuffer(memoryview(page)[1:], _W, 8, framebuf.MONO_VLSB)
            self._win = bytearray(b"\x00\x21\x00\x7f\x22\x00\x00")
            self._rows = [None] * self.screen_lines
            i2c.writeto(self._addr, _INIT)
            self.show_lines(())     # blank: its RAM holds anything at power-up
            # knob: [level (A << 1) | B, quarters since rest, detents]
            P = machine.Pin
            a = P(board.ENCODER_A_PIN, P.IN, P.PULL_UP)
            b = P(board.ENCODER_B_PIN, P.IN, P.PULL_UP)
            q = self._q = array("i", (3, 0, 0))
            self._ab = (a, b)
            self._seen = 0

            def edge(pin):
                # hard IRQ: small ints into the array only
                s = (a.value() << 1) | b.value()
                d = (_PLACE[s] - _PLACE[q[0]]) & 3
                q[0] = s
                if d == 1:
                    q[1] += 1
                elif d == 3:
                    q[1] -= 1
                if s == 3:
                    if q[1] >= 2:
                        q[2] += 1
                    elif q[1] <= -2:
                        q[2] -= 1
                    q[1] = 0

            for pin in (a, b):
                pin.irq(handler=edge, trigger=P.IRQ_FALLING | P.IRQ_RISING, hard=True)
            # keys: the knob's press (-1), the back key (-2)
            self._keys = (P(board.ENCODER_SWITCH_PIN, P.IN, P.PULL_UP),
                          P(board.BACK_PIN, P.IN, P.PULL_UP))
            self._down = bytearray(2)
            self._since = [-1, -1]      # first reading of a level not yet taken (µs), -1: none

        def _put(self, page, text):
            fb = self._fb
            fb.fill(0)
            fb.text(text, 0, 0, 1)
            w = self._win
            w[5] = page
            w[6] = page
            self._i2c.writeto(self._addr, w)
            self._i2c.writeto(self._addr, self._page)

        def show_lines(self, lines):
            rows = self._rows
            n = len(lines)
            for i in range(self.screen_lines):
                text = lines[i][:self.screen_cols] if i < n else ""
                if rows[i] != text:
                    self._put(i, text)
                    rows[i] = text

        def knob(self):
            d = self._q[2] - self._seen
            self._seen += d
            return d

        def buttons(self):
            got = Rp2Port.buttons(self)     # (folds the clock: self._us is now)
            us = self._us
            keys = self._keys
            down = self._down
            since = self._since
            out = None
            for i in range(2):
                v = 1 if keys[i].value() == 0 else 0
                if v == down[i]:
                    since[i] = -1
                elif since[i] < 0:
                    since[i] = us
                elif us - since[i] >= _SETTLE_US:
                    down[i] = v
                    if out is None:
                        out = list(got)
                    out.append((-1 - i, v == 1, since[i]))
                    since[i] = -1
            return got if out is None else out

        def idle(self, wait_ms=None):
            if wait_ms is not None and wait_ms > _PASS_MS:
                wait_ms = _PASS_MS
            Rp2Port.idle(self, wait_ms)

        def close(self):
            for pin in self._ab:
                pin.irq(handler=None)
            try:
                self._i2c.writeto(self._addr, b"\x80\xae")    # the display off
            except OSError:
                pass
            Rp2Port.close(self)

    return ScreenPort
