"""The MacroPad's OLED and rotary encoder on the rig.

The OLED is an SH1106 (132 x 64 RAM, 8 pages of 8 rows) on SPI1; CircuitPython's board_init
drives it through displayio (ports/raspberrypi/boards/adafruit_macropad_rp2040/board.c: DC on
GPIO24, CS GPIO22, RESET GPIO23, column start 2). rig/oled.mjs records every byte the chip gets
with the wires' levels; SH1106 below replays them as the controller does (commands when DC is
low, RAM writes at the page/column address when high, nothing while CS is high or RESET low) and
cuts the stream into frames: a frame is the 128 x 64 picture after a burst of bytes, a burst
ending where the bus stays quiet for `gap_ns` (20 ms) or where a RAM cell already written in it
is written again (the next refresh of the same area, however soon it follows). displayio sends
a refresh page by page (8 rows at a time) and renders the next page in between: on the rig ~6 ms
per full-width page with the timing model on, so a whole-screen refresh is ~45 ms of page writes
6 ms apart. Columns 2..129 of the RAM are the picture's x 0..127.

    with EmulatedMacropad.start(rig, image, oled=True) as pad:
        screen = Oled(pad)
        frame = screen.wait_for("Round 2")       # runs the paused rig until the screen says it
        frame.text()                             # ["Round 2", "Ann   12", ...]
        frame.save_png("round2.png")
        t = turn(pad, +1)                        # one detent clockwise; the edges' instants

Text is read with CircuitPython's own terminalio font (rig/terminalio_font.txt, read from the
board): `frame.find("Ann")` looks for the exact pixels the firmware draws for that text,
`frame.text()` reads every line of glyphs on a 6-pixel grid.

The encoder (ROTA GPIO17, ROTB GPIO18; its switch is the control button, GPIO0) is a mechanical
quadrature switch to ground: a detent is four edges, A and B a quarter cycle apart. turn() drives
them on the pins at exact emulated instants through the control channel (`set` with `at`): low
by driving 0, high by releasing the pin to its pull-up (rotaryio turns the pads' pull-ups on).
"""

import os

from .rp2emu import MS, RigError

WIDTH = 128
HEIGHT = 64
PAGES = 8
RAM_COLS = 132
COL_OFFSET = 2  # the MacroPad's panel shows RAM columns 2..129 (board.c's column start)
GAP_NS = 20 * MS  # a quiet bus this long ends a frame (displayio renders ~6 ms between pages)
FONT_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "terminalio_font.txt")
FRAMEBUF_FONT_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "framebuf_font.txt")
ROTA = 17
ROTB = 18
KNOB_SWITCH = 0
EDGE_NS = 2 * MS  # a detent's four edges, this far apart (a brisk turn: ~6 ms a detent)
DETENT_NS = 40 * MS  # from one detent's first edge to the next one's

# SH1106 commands followed by one argument byte (datasheet, "Commands")
_TWO_BYTE = {0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB}

# Run on the board to read its font back (the source of rig/terminalio_font.txt)
FONT_DUMP_CODE = """import terminalio
f = terminalio.FONT
b = f.bitmap
w, h = f.get_bounding_box()
for c in range(32, 256):
    g = f.get_glyph(c)
    if g is None:
        continue
    i = g.tile_index
    rows = []
    for y in range(h):
        rows.append("".join("#" if b[i * w + x, y] else "." for x in range(w)))
    print("G", c, i, g.width, g.height, g.dx, g.dy, g.shift_x, " ".join(rows))
"""


class Frame:
    """One picture the OLED showed: `t` (first byte of its burst) and `end` (the instant its
    last byte finished shifting out), on the rig's timeline in ns; `pixels`, 64 rows of 128
    ints 0/1 (1 lit); `on`: the display was on (0xAF) when the burst ended."""

    def __init__(self, t, end, pixels, on=True):
        self.t = t
        self.end = end
        self.pixels = pixels
        self.on = on

    def __repr__(self):
        return "Frame(t=%d, end=%d, %r)" % (self.t, self.end, self.text())

    def __eq__(self, other):
        return isinstance(other, Frame) and self.pixels == other.pixels

    def __hash__(self):
        return hash(tuple(tuple(r) for r in self.pixels))

    def rows(self):
        """The picture as 64 strings of 128 characters, '#' lit and '.' dark."""
        return ["".join("#" if p else "." for p in row) for row in self.pixels]

    def lit(self):
        return sum(sum(row) for row in self.pixels)

    def save_png(self, path, scale=4):
        """Write the picture as a PNG, `scale` screen pixels to a side, lit white on black."""
        from PIL import Image

        img = Image.new("1", (WIDTH, HEIGHT))
        img.putdata([p for row in self.pixels for p in row])
        if scale != 1:
            img = img.resize((WIDTH * scale, HEIGHT * scale), Image.Resampling.NEAREST)
        img.save(path)
        return path

    font_file = FONT_FILE  # the font its controller's firmware draws with (SSD1306: framebuf's)

    def find(self, text, font=None):
        """(x, y) of the first place (top to bottom, left to right) where the picture has
        exactly the pixels the firmware draws for `text` in the frame's font (the terminalio
        font; an SSD1306's frames: MicroPython's framebuf font), or None."""
        font = font or Font.load(self.font_file)
        tmpl = font.render(text)
        th, tw = len(tmpl), len(tmpl[0])
        px = self.pixels
        for y in range(HEIGHT - th + 1):
            for x in range(WIDTH - tw + 1):
                if all(px[y + j][x : x + tw] == tmpl[j] for j in range(th)):
                    return (x, y)
        return None

    def says(self, text, font=None):
        return self.find(text, font) is not None

    def text(self, font=None):
        """Every line of text on the screen, top to bottom: glyphs of the terminalio font on a
        6-pixel grid (the frame's font: see find); trailing blanks dropped, '?' for a cell that
        is lit but no glyph."""
        return (font or Font.load(self.font_file)).read(self.pixels)


# Run on the Pico's MicroPython to read framebuf's 8 x 8 font back (rig/framebuf_font.txt)
FRAMEBUF_FONT_DUMP_CODE = """import framebuf
fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
for c in range(32, 127):
    fb.fill(0)
    fb.text(chr(c), 0, 0, 1)
    rows = ["".join("#" if fb.pixel(x, y) else "." for x in range(8)) for y in range(8)]
    print("G", c, c - 32, 8, 8, 0, 0, 8, " ".join(rows))
"""


class Font:
    """CircuitPython's terminalio font, as read from the board (rig/terminalio_font.txt)."""

    _loaded = {}

    def __init__(self, glyphs, width, height):
        self.glyphs = glyphs  # char -> list of `height` lists of `width` ints
        self.width = width
        self.height = height
        self._by_rows = {}
        for ch, g in glyphs.items():
            self._by_rows.setdefault(tuple(tuple(r) for r in g), ch)

    @classmethod
    def load(cls, path=FONT_FILE):
        font = cls._loaded.get(path)
        if font is None:
            with open(path) as f:
                font = cls._loaded[path] = cls.parse(f.read())
        return font

    @classmethod
    def parse(cls, text):
        """A font from FONT_DUMP_CODE's output (the "G ..." lines)."""
        glyphs = {}
        width = height = 0
        for line in text.splitlines():
            parts = line.split()
            if not parts or parts[0] != "G":
                continue
            code, w, h = int(parts[1]), int(parts[3]), int(parts[4])
            rows = parts[8:]
            if len(rows) != h or any(len(r) != w for r in rows):
                raise ValueError("a damaged glyph line: %r" % line)
            glyphs[chr(code)] = [[1 if c == "#" else 0 for c in r] for r in rows]
            width, height = w, h
        if not glyphs:
            raise ValueError("no glyphs in the font text")
        return cls(glyphs, width, height)

    def render(self, text):
        """The pixels of `text` drawn from x = 0: `height` rows of len(text) * width."""
        rows = [[] for _ in range(self.height)]
        for ch in text:
            g = self.glyphs.get(ch)
            if g is None:
                raise ValueError("%r is not in the terminalio font" % ch)
            for j in range(self.height):
                rows[j].extend(g[j])
        return rows

    def _cell(self, px, x, y):
        return tuple(tuple(px[y + j][x : x + self.width]) for j in range(self.height))

    def read(self, px):
        """Lines of text in a picture (see Frame.text)."""
        w, h = self.width, self.height
        height, width = len(px), len(px[0])
        blank = tuple(tuple([0] * w) for _ in range(h))
        # every place a visible glyph matches exactly
        hits = {}
        for y in range(height - h + 1):
            for x in range(width - w + 1):
                cell = self._cell(px, x, y)
                if cell == blank:
                    continue
                ch = self._by_rows.get(cell)
                if ch is not None and ch != " ":
                    hits[(x, y)] = ch
        lines = []
        taken = [False] * height
        while True:
            # the line (row y, grid phase x % w) whose glyphs cover the most lit pixels
            best, best_lit = None, 0
            groups = {}
            for x, y in hits:
                if any(taken[y : y + h]):
                    continue
                groups.setdefault((y, x % w), []).append(x)
            for key, xs in groups.items():
                lit = sum(sum(map(sum, self.glyphs[hits[(x, key[0])]])) for x in xs)
                if lit > best_lit or (lit == best_lit and best is not None and key < best):
                    best, best_lit = key, lit
            if best is None:
                break
            y, phase = best
            xs = sorted(groups[best])
            chars = []
            for x in range(xs[0], xs[-1] + 1, w):
                cell = self._cell(px, x, y)
                chars.append(" " if cell == blank else self._by_rows.get(cell, "?"))
            lines.append((y, xs[0], "".join(chars)))
            for j in range(y, y + h):
                taken[j] = True
        lines.sort()
        return [s for _, _, s in lines]


class SH1106:
    """The controller's state, fed the recorded bytes in order (feed()); completed frames
    collect in `frames`."""

    ram_cols = RAM_COLS
    col_offset = COL_OFFSET
    font_file = FONT_FILE

    def __init__(self, gap_ns=GAP_NS):
        self.gap_ns = gap_ns
        self.ram = [bytearray(self.ram_cols) for _ in range(PAGES)]
        self.frames = []
        self.bytes_seen = 0
        self._reset_state()
        self._burst = None  # [t_first, end_last] of the burst in progress
        self._written = bytearray(PAGES * self.ram_cols)  # cells written in it
        self._data_end = 0

    def _reset_state(self):
        self.page = 0
        self.col = 0
        self.start_line = 0
        self.offset = 0
        self.seg_remap = False  # power-on: A0, C0 (the MacroPad is upright after its A1, C8)
        self.com_reversed = False
        self.inverse = False
        self.all_on = False
        self.on = False
        self._arg_of = None

    def feed(self, records):
        """records: [[t, byte, flags, ns], ...] from rig/oled.mjs, in order."""
        for t, v, flags, ns in records:
            if self._burst is not None and t - self._burst[1] >= self.gap_ns:
                self._close()
            if not flags & 4:  # RESET held low: the controller is in reset
                self._reset_state()
                continue
            if flags & 2:  # CS high: not selected
                continue
            self.bytes_seen += 1
            if flags & 1:
                self._rewrite_cut(t)
            if self._burst is None:
                self._burst = [t, t + ns]
            else:
                self._burst[1] = t + ns
            if flags & 1:
                self._data(v)
                self._data_end = t + ns
            else:
                self._command(v)

    def flush(self, now):
        """Close the burst in progress if the bus has been quiet for gap_ns by `now`."""
        if self._burst is not None and now - self._burst[1] >= self.gap_ns:
            self._close()

    def _close(self, end=None):
        t, last = self._burst
        self._burst = None
        self._written = bytearray(PAGES * self.ram_cols)
        end = last if end is None else end
        frame = Frame(int(t), int(end), self.picture(), self.on)
        frame.font_file = self.font_file
        self.frames.append(frame)

    def _rewrite_cut(self, t):
        """Before a data byte: a cell already written in this burst starts a new frame (the
        next refresh of the same area, however soon it comes); the frame ends with the last
        data byte before it."""
        if self.col >= self.ram_cols:
            return
        cell = self.page * self.ram_cols + self.col
        if self._written[cell] and self._burst is not None:
            self._close(self._data_end)
        self._written[cell] = 1

    def _data(self, v):
        if self.col < RAM_COLS:
            self.ram[self.page][self.col] = v
            self.col += 1

    def _command(self, v):
        if self._arg_of is not None:
            cmd, self._arg_of = self._arg_of, None
            if cmd == 0xD3:
                self.offset = v & 0x3F
            return
        if v in _TWO_BYTE:
            self._arg_of = v
        elif v <= 0x0F:
            self.col = (self.col & 0xF0) | v
        elif v <= 0x1F:
            self.col = ((v & 0x0F) << 4) | (self.col & 0x0F)
        elif 0x40 <= v <= 0x7F:
            self.start_line = v & 0x3F
        elif v in (0xA0, 0xA1):
            self.seg_remap = v == 0xA1
        elif v in (0xA4, 0xA5):
            self.all_on = v == 0xA5
        elif v in (0xA6, 0xA7):
            self.inverse = v == 0xA7
        elif v in (0xAE, 0xAF):
            self.on = v == 0xAF
        elif 0xB0 <= v <= 0xB7:
            self.page = v & 0x07
        elif 0xC0 <= v <= 0xCF:
            self.com_reversed = bool(v & 0x08)
        # others (pump voltage 0x30-0x33, read-modify-write 0xE0/0xEE, NOP 0xE3): no picture change

    def picture(self):
        """The 128 x 64 picture the panel shows now (rows of 0/1)."""
        out = []
        for y in range(HEIGHT):
            ry = (y + self.start_line + self.offset) % HEIGHT
            if not self.com_reversed:  # the other scan direction: the picture upside down
                ry = HEIGHT - 1 - ry
            page, bit = ry // 8, ry % 8
            ram = self.ram[page]
            row = []
            for x in range(WIDTH):
                if self.seg_remap:
                    col = x + self.col_offset
                else:
                    col = self.ram_cols - 1 - self.col_offset - x
                p = (ram[col] >> bit) & 1
                if self.all_on:
                    p = 1
                elif self.inverse:
                    p ^= 1
                row.append(p if self.on else 0)
            out.append(row)
        return out


# SSD1306 commands and how many argument bytes follow (datasheet, "Command Table")
_SSD1306_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2}
_SSD1306_ARGS.update(dict.fromkeys((0x81, 0x8D, 0xA8, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB), 1))


class SSD1306(SH1106):
    """The Pico build's optional OLED: an SSD1306 (128 x 64 RAM) on I2C at 0x3C, fed the bus
    events rig/oled.mjs records (feed_i2c). Each write transaction is a control byte (Co, D/C)
    then commands or data: Co = 0, the rest of the transaction is of that kind; Co = 1, one byte,
    then another control byte. Addressing modes: horizontal and vertical (the column and page
    windows of 0x21/0x22, wrapping), page mode (0xB0-0xB7, column nibbles). As for the SH1106,
    the upright picture is the one MicroPython's ssd1306 driver's init gives (A1, C8)."""

    ram_cols = WIDTH
    col_offset = 0
    font_file = FRAMEBUF_FONT_FILE

    def _reset_state(self):
        SH1106._reset_state(self)
        self.mode = 2  # power-on: page addressing
        self.col_window = (0, WIDTH - 1)
        self.page_window = (0, PAGES - 1)
        self._args = []
        self._control = True
        self._single = False
        self._dc = 0
        self._ours = False

    def feed_i2c(self, events):
        """events: [[t, kind, value], ...] from rig/oled.mjs's "i2c" record, in order."""
        for t, kind, v in events:
            if kind == "S":
                self._control = True
                self._ours = False
            elif kind == "A":
                self._ours = v == 0x3C << 1
            elif kind == "P":
                self._ours = False
            elif kind == "W" and self._ours:
                if self._burst is not None and t - self._burst[1] >= self.gap_ns:
                    self._close()
                self.bytes_seen += 1
                if self._dc and not self._control:
                    self._rewrite_cut(t)
                if self._burst is None:
                    self._burst = [t, t]
                else:
                    self._burst[1] = t
                if self._control:
                    self._single = bool(v & 0x80)
                    self._dc = v & 0x40
                    self._control = False
                    continue
                if self._dc:
                    self._data(v)
                    self._data_end = t
                else:
                    self._command(v)
                if self._single:
                    self._control = True

    def _data(self, v):
        if self.col >= WIDTH:
            return
        self.ram[self.page][self.col] = v
        c0, c1 = self.col_window
        p0, p1 = self.page_window
        if self.mode == 0:  # horizontal
            self.col += 1
            if self.col > c1:
                self.col = c0
                self.page = p0 if self.page >= p1 else self.page + 1
        elif self.mode == 1:  # vertical
            self.page += 1
            if self.page > p1:
                self.page = p0
                self.col = c0 if self.col >= c1 else self.col + 1
        else:
            self.col += 1

    def _command(self, v):
        if self._arg_of is not None:
            self._args.append(v)
            if len(self._args) < _SSD1306_ARGS[self._arg_of]:
                return
            cmd, args, self._arg_of, self._args = self._arg_of, self._args, None, []
            if cmd == 0x20:
                self.mode = args[0] & 3
            elif cmd == 0x21:
                self.col_window = (args[0] & 0x7F, args[1] & 0x7F)
                self.col = self.col_window[0]
            elif cmd == 0x22:
                self.page_window = (args[0] & 7, args[1] & 7)
                self.page = self.page_window[0]
            elif cmd == 0xD3:
                self.offset = args[0] & 0x3F
            return
        if v in _SSD1306_ARGS:
            self._arg_of = v
            self._args = []
        else:
            SH1106._command(self, v)  # the same one-byte commands (column nibbles, page, A0-CF)


class Oled:
    """The OLED of a rig started with oled=True (Emulator.start / EmulatedMacropad.start):
    poll() reads the bytes recorded since the last poll and returns the frames they completed;
    `frames` keeps them all. `bus`: "spi", the MacroPad's SH1106 (default), or "i2c", the Pico
    build's SSD1306 (its text: MicroPython's framebuf font, FRAMEBUF_FONT_FILE)."""

    def __init__(self, emu, gap_ns=GAP_NS, bus="spi"):
        if emu.oled_bus is None:
            raise RigError("the rig was started without oled=True: no OLED record")
        if bus not in ("spi", "i2c"):
            raise ValueError("bus is spi (the MacroPad's SH1106) or i2c (an SSD1306)")
        self.emu = emu
        self.bus = bus
        self.chip = SH1106(gap_ns) if bus == "spi" else SSD1306(gap_ns)
        self.font_file = FONT_FILE if bus == "spi" else FRAMEBUF_FONT_FILE
        self.frames = self.chip.frames

    def poll(self):
        n = len(self.frames)
        if self.bus == "spi":
            r = self.emu.oled_bus.cmd("spi", clear=True)
            self.chip.feed(r["bytes"])
        else:
            r = self.emu.oled_bus.cmd("i2c", clear=True)
            self.chip.feed_i2c(r["events"])
        self.chip.flush(r["now"])
        return self.frames[n:]

    def last(self):
        """The newest complete frame (None before the first)."""
        self.poll()
        return self.frames[-1] if self.frames else None

    def wait_for(self, text, max_ns=2_000 * MS, step_ns=5 * MS, after=None):
        """Run the (paused) rig in steps until a frame that ends after `after` (default: any)
        shows `text`; that frame. RigError if none within max_ns of emulated time."""
        font = Font.load(self.font_file)
        start = self.emu.now()
        while True:
            for f in self.poll():
                if (after is None or f.end > after) and f.says(text, font):
                    return f
            if self.emu.now() - start >= max_ns:
                last = self.frames[-1].text(font) if self.frames else "no frame"
                raise RigError(
                    "the screen did not show %r within %d ms (last: %r)"
                    % (text, max_ns // MS, last)
                )
            self.emu.run(step_ns)


def quadrature(steps):
    """The levels (a, b) a knob passes through for `steps` detents (+ clockwise, - the other
    way), from the rest position (both open: high): four edges a detent. Clockwise is as
    Adafruit's MacroPad library counts it: its `encoder` is minus rotaryio's position, and
    rotaryio counts +1 when A falls first (checked on the rig), so clockwise is B first."""
    seq = [(1, 0), (0, 0), (0, 1), (1, 1)]  # clockwise: B leads (rotaryio -1)
    if steps < 0:
        seq = [(0, 1), (0, 0), (1, 0), (1, 1)]  # the other way: A leads (rotaryio +1)
    return seq * abs(steps)


def turn(emu, steps, at=None, edge_ns=EDGE_NS, detent_ns=DETENT_NS, pins=(ROTA, ROTB)):
    """Turn the knob `steps` detents (+ clockwise) from `at` (default: now): each detent's four
    edges `edge_ns` apart, detents `detent_ns` apart, set on its A and B pins (`pins`: the
    MacroPad's ROTA/ROTB by default) at those exact instants. Returns the instants of the edges
    (the last one completes the turn)."""
    if steps == 0:
        return []
    if edge_ns <= 0 or detent_ns < 4 * edge_ns:
        raise ValueError("edges need time: edge_ns > 0 and detent_ns >= 4 * edge_ns")
    if at is None:
        at = emu.now()
    times = []
    a = 1
    for i, (na, nb) in enumerate(quadrature(steps)):
        t = int(at + (i // 4) * detent_ns + (i % 4) * edge_ns)
        pin, level = (pins[0], na) if na != a else (pins[1], nb)
        a = na
        if emu.set(pin, 0 if level == 0 else None, at=t).get("late"):
            raise RigError(
                "a knob edge scheduled in the emulated past (%d ns ago)" % (emu.now() - t)
            )
        times.append(t)
    return times


def press_knob(emu, at=None, hold_ns=80 * MS, pin=KNOB_SWITCH):
    """Press the knob's switch (`pin` low: the MacroPad's GPIO0 by default) at `at` (default:
    now) for hold_ns, then release it to its pull-up. Returns (down, up) instants."""
    if at is None:
        at = emu.now()
    if emu.set(pin, 0, at=at).get("late"):
        raise RigError("a knob press scheduled in the emulated past")
    emu.set(pin, None, at=at + hold_ns)
    return at, at + hold_ns
