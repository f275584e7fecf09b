# SPDX-License-Identifier: MIT
"""PIO and DMA helpers of the Pico port (MicroPython rp2 only): button edges stamped by a state
machine, NeoPixel frames written by a state machine fed by DMA. docs/press-capture.md explains
the design and its figures.

EdgeCapture: PIO1 SM0 samples the six player pins (consecutive GPIOs, `in pins, 6`) and the
control pin (`jmp pin`) every 16 µs (1 MHz SM clock, 16 cycles per sample whatever the path)
while X counts down once per sample. On any change it pushes one word: the 7 levels in bits
22..28, X's low 22 bits in bits 0..21 (below 2**30: a small int on MicroPython, no allocation).
A DMA channel paced by the RX FIFO's DREQ copies each word into a 64-word ring in RAM, so
neither a flash erase (CPU stalled, interrupts off, 45 ms) nor a pixel write delays or drops a
stamp. The CPU turns the sample count back into a `ticks_us` value: the enable is one store
between two reads of the µs timer, so sample k read the pins at most 16 k + 7 µs after the
later read (never before); the PIO and the µs timer run from the same crystal, so the count
does not drift. The count is unwrapped against an anchor taken AFTER the DMA count is read
(and signed, half a wrap either way): a word that arrives while the CPU is between reading the
clock and reading the ring is not taken for one 67 s older (docs/press-capture.md, "The bug").

PixelWriter: PIO0 SM0 runs the ws2812 program (8 MHz, 10 cycles a bit) on the ring's data pin;
a DMA channel moves the GRB bytes (one byte per FIFO word, the PIO pulls 8 bits at a time) and
the CPU returns at once: no bit-banging with interrupts off.
"""

import io
import rp2
import sys
import uctypes
from array import array
from machine import Pin, mem32
from micropython import const
from time import ticks_us, ticks_diff, ticks_add

SAMPLE_US = const(16)        # one sample every 16 µs
_READ_AT = const(7)          # µs from the enable to sample 0's pin read, at most: the 7th
                             # instruction (`in pins`, SM cycle 6) + up to 1 µs of divider phase
_MASK22 = const(0x3FFFFF)
_HALF22 = const(0x200000)
_SPAN22 = const(0x400000)
_PIO1_CTRL_SET = const(0x50302000)   # PIO1 CTRL through its atomic set alias: bit 0 = SM0
_RING = const(64)            # words in the DMA ring (256 bytes, aligned to 256)
_DMA_COUNT = const(1 << 29)  # transfers the capture DMA may make (about 10**4 years of edges)
_PIO1_RXF0 = const(0x50300020)
_PIO0_TXF0 = const(0x50200010)
_DREQ_PIO1_RX0 = const(12)
_DREQ_PIO0_TX0 = const(0)


def _capture_asm():
    set(y, 1)                   # y: the last sample; 0x80000000 matches none, so the
    mov(y, reverse(y))          # first sample is pushed (the levels at start)
    mov(x, invert(null))        # x: 0xFFFFFFFF, minus one per sample
    wrap_target()
    label("top")
    mov(isr, null)              # control pin high -> the sample's upper bits are ones
    jmp(pin, "hi")
    jmp("sample")
    label("hi")
    mov(isr, invert(null))
    label("sample")
    in_(pins, 6)                # cycle 3: the six player pins
    mov(osr, x)
    mov(x, isr)
    jmp(x_not_y, "changed")
    mov(x, osr)[7]              # no change: 16 cycles in all
    jmp(x_dec, "top")
    jmp("top")                  # x passed 0 (once in 19 hours): one extra cycle
    label("changed")
    mov(y, x)
    mov(x, osr)
    mov(isr, null)
    in_(y, 7)                   # levels: players bits 0..5, control bit 6
    in_(x, 22)                  # then the count
    push(noblock)[1]
    irq(rel(0))                 # wakes the CPU's idle wait (EdgeCapture.ioctl); 16 cycles too
    jmp(x_dec, "top")
    wrap()


def _ws2812_asm():
    wrap_target()
    label("bit")
    out(x, 1).side(0)[2]
    jmp(not_x, "zero").side(1)[1]
    jmp("bit").side(1)[4]
    label("zero")
    nop().side(0)[4]
    wrap()


def _assemble():
    """The two programs above through MicroPython's PIO assembler (rp2.asm_pio, Python code in
    the firmware: 12.4 ms of the boot on the RP2040)."""
    return (rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_LEFT, fifo_join=rp2.PIO.JOIN_RX)(_capture_asm),
            rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT,
                        autopull=True, pull_thresh=8, fifo_join=rp2.PIO.JOIN_TX)(_ws2812_asm))


if sys.implementation.version[:2] == (1, 28):
    # what _assemble() gives on MicroPython 1.28 (the list rp2.StateMachine takes: the
    # instructions, the program's offset in PIO0/1/2, EXECCTRL, SHIFTCTRL, the out/set/side-set
    # pins' initial state), kept as data: no assembly at boot. tests/test_rig_boot_imports.py
    # checks it against the assembler on the official firmware; another version assembles.
    _CAPTURE = [array("H", (57409, 41042, 41003, 41155, 198, 7, 41163, 16390, 41185, 40998, 174,
                            42791, 67, 3, 41025, 40999, 41155, 16455, 16438, 33024, 49168, 67)),
                -1, -1, -1, 86400, 2147483648, None, None, None]
    _WS2812 = [array("H", (25121, 4387, 5120, 42050)), -1, -1, -1, 12288, 1342308352, None, None, 2]
else:
    _CAPTURE, _WS2812 = _assemble()


def _wake(sm):
    """The capture's PIO interrupt (its `irq` on every pushed change): nothing to do, the
    interrupt itself ends the CPU's wait in select.poll, which then asks EdgeCapture.ioctl."""


class EdgeCapture(io.IOBase):
    """Edges of the player pins (first..first+5) and the control pin, stamped by PIO.

    start() once; edges(out) appends (index, level, t) for each changed pin (players 0..5,
    control 6), oldest first, t on the ticks_us scale (the port folds it into its own µs).
    It is a stream select.poll can wait on: readable when a change is in the ring. The state
    machine raises its PIO interrupt with each change, which wakes the poll at once: the idle
    wait needs no chunks to notice a press (ports/rp2.py idle)."""

    def __init__(self, first_pin, control_pin):
        self._sm = rp2.StateMachine(4, _CAPTURE, freq=1_000_000, in_base=Pin(first_pin),
                                    jmp_pin=Pin(control_pin))
        self._sm.irq(_wake, hard=True)
        buf = array("I", [0] * (2 * _RING))
        addr = uctypes.addressof(buf)
        aligned = (addr + 4 * _RING - 1) & ~(4 * _RING - 1)
        self._buf = buf
        self._off = (aligned - addr) >> 2
        self._dma = rp2.DMA()
        ctrl = self._dma.pack_ctrl(size=2, inc_read=False, inc_write=True, ring_size=8,
                                   ring_sel=True, treq_sel=_DREQ_PIO1_RX0)
        self._dma.config(read=_PIO1_RXF0, write=aligned, count=_DMA_COUNT, ctrl=ctrl,
                         trigger=True)
        self._read = 0          # words taken from the ring
        self._state = -1        # last levels seen (7 bits), -1 before the first word
        self.lost = 0           # words the ring overwrote before the CPU read them
        self._at = 0            # ticks_us of an anchor sample (see start)
        self._ac = 0            # that sample's count, mod 2**22
        self.start_bracket_us = 0

    def start(self):
        """Start sampling. The enable is one store to PIO1's CTRL between two reads of the µs
        timer: the state machine started before the second read's µs ended, so sample k read
        the pins no later than that + 1 + _READ_AT + 16 k µs, and no earlier than the first
        read + 6 + 16 k. Stamps use the later bound: never before the edge."""
        ta = ticks_us()
        mem32[_PIO1_CTRL_SET] = 1
        tb = ticks_us()
        self._at = ticks_add(tb, 1 + _READ_AT)   # ticks_us of the anchor sample
        self._ac = 0                             # its count, mod 2**22
        self.start_bracket_us = ticks_diff(tb, ta) + 1

    def pending(self):
        return _DMA_COUNT - self._dma.count != self._read

    def ioctl(self, req, arg):
        """select.poll's question (MP_STREAM_POLL, 3): POLLIN (1) when a change waits."""
        if req == 3 and _DMA_COUNT - self._dma.count != self._read:
            return arg & 1
        return 0

    def edges(self, out):
        """Append (index, level, t) for each changed pin since the last call, oldest first;
        t is on the ticks_us scale. Call it at least every 30 s (the count wraps in 67 s).

        Few locals on purpose, here and in the port's loop path: a bytecode function whose
        locals and stack pass 11 words gets its frame from the heap on every call, at a cost
        that depends on the heap's layout (docs/real-firmware.md); the words are taken by
        _take(), called only when there are some."""
        done = _DMA_COUNT - self._dma.count
        # the clock is read after the DMA count: every word below was pushed before `now`
        k = ticks_diff(ticks_us(), self._at) // SAMPLE_US
        if k > 0:
            self._at = ticks_add(self._at, k * SAMPLE_US)
            self._ac = (self._ac + k) & _MASK22
        if done != self._read:
            self._take(out, done)

    def _take(self, out, done):
        n = done - self._read
        if n > _RING:
            self.lost += n - _RING
            self._read = done - _RING
        buf = self._buf
        off = self._off
        at = self._at
        ac = self._ac
        while self._read != done:
            w = buf[off + (self._read & (_RING - 1))]
            self._read += 1
            state = w >> 22
            # samples from this word's sample to the anchor, signed: a word whose sample is
            # after the anchor (the bound is late by up to the start bracket) stays after it
            d = (ac - (_MASK22 - (w & _MASK22))) & _MASK22
            if d >= _HALF22:
                d -= _SPAN22
            t = ticks_add(at, -d * SAMPLE_US)
            old = self._state
            self._state = state
            if old < 0:
                continue
            ch = old ^ state
            i = 0
            while ch:
                if ch & 1:
                    out.append((i, (state >> i) & 1, t))
                ch >>= 1
                i += 1

    def stop(self):
        self._sm.irq(None)
        self._sm.active(0)
        self._dma.close()


class PixelWriter:
    """GRB bytes to the WS2812 ring through PIO0 SM0 and a DMA channel (write() returns at once).

    rest() stops the state machine once a frame is out (stop() uses it). The port does not call
    it between frames: stopping it there made the rig's early-stamp artefact rarer, but the
    app's frames were then no longer decoded on the rig (docs/press-capture.md)."""

    def __init__(self, pin, count):
        self._sm = rp2.StateMachine(0, _WS2812, freq=8_000_000, sideset_base=Pin(pin))
        self._sm.active(1)
        self._on = True
        self.buf = bytearray(3 * count)
        self._dma = rp2.DMA()
        self._ctrl = self._dma.pack_ctrl(size=0, inc_read=True, inc_write=False,
                                         treq_sel=_DREQ_PIO0_TX0)

    def busy(self):
        return self._dma.active()

    def write(self):
        """Send self.buf (waits only if the previous frame is still going out: 0.7 ms)."""
        d = self._dma
        while d.active():
            pass
        if not self._on:
            self._sm.active(1)
            self._on = True
        d.config(read=self.buf, write=_PIO0_TXF0, count=len(self.buf), ctrl=self._ctrl,
                 trigger=True)

    def rest(self):
        """Stop the state machine if its frame is out (the DMA done, the FIFO empty, then
        12 µs for the last byte's 8 bits); returns False while a frame is still going out."""
        if not self._on:
            return True
        if self._dma.active() or self._sm.tx_fifo():
            return False
        t = ticks_us()
        while ticks_diff(ticks_us(), t) < 12:
            pass
        self._sm.active(0)
        self._on = False
        return True

    def stop(self):
        while not self.rest():
            pass
        self._dma.close()
