"""The rig's OLED decoder and knob (rig/oled.py): the SH1106's bytes as the controller takes
them, read back as text with CircuitPython's own font, and on the official CircuitPython 10.2.1
in the rig: what displayio draws is read back, and the knob's quadrature is counted by rotaryio
in the direction rig.oled.turn says."""

import ast

import pytest
from PIL import Image

from rig.oled import (
    COL_OFFSET,
    FONT_DUMP_CODE,
    FRAMEBUF_FONT_DUMP_CODE,
    FRAMEBUF_FONT_FILE,
    HEIGHT,
    ROTA,
    ROTB,
    SH1106,
    SSD1306,
    WIDTH,
    Font,
    Oled,
    quadrature,
    turn,
)
from rig.rp2emu import MS

# board.c's init sequence as displayio sends it (data_as_commands: every byte with DC low)
INIT = [0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x00, 0xAD, 0x8B, 0xA1, 0xC8, 0xDA, 0x12]
INIT += [0x81, 0xFF, 0xD9, 0x1F, 0xDB, 0x20, 0x20, 0x20, 0x33, 0xA6, 0xA4, 0xAF]
RESET_HIGH = 4  # flags: bit 0 DC, bit 1 CS, bit 2 RESET


class Bus:
    """Builds a byte record as rig/oled.mjs gives it (10 MHz SCK: 800 ns a byte)."""

    def __init__(self, t=0):
        self.t = t
        self.records = []

    def send(self, data, dc, cs=0, reset=1):
        for v in data:
            self.records.append([self.t, v, dc | (cs << 1) | (reset << 2), 800])
            self.t += 1000

    def cmd(self, *data):
        self.send(data, 0)

    def page_data(self, page, col, data):
        """What displayio sends for one page of an area (SH1107 addressing, colstart 2)."""
        col += COL_OFFSET
        self.cmd(0x10 | (col >> 4), col & 0x0F, 0xB0 | page)
        self.send(data, 1)

    def draw(self, font, text, x, y):
        """Draw `text` at (x, y) (y a multiple of 8 plus 0..7) page by page, as displayio does."""
        px = [[0] * WIDTH for _ in range(HEIGHT)]
        for j, row in enumerate(font.render(text)):
            for i, p in enumerate(row):
                px[y + j][x + i] = p
        for page in range(HEIGHT // 8):
            cols = [sum(px[page * 8 + b][c] << b for b in range(8)) for c in range(WIDTH)]
            self.page_data(page, 0, cols)


def test_the_board_init_and_a_page_write_decode_into_the_picture():
    font = Font.load()
    bus = Bus()
    bus.cmd(*INIT)
    bus.draw(font, "Score 12", 6, 13)
    chip = SH1106()
    chip.feed(bus.records)
    assert chip.frames == []  # the burst is still open: nothing quiet yet
    chip.flush(bus.t + 30 * MS)
    (frame,) = chip.frames
    assert frame.t == 0 and frame.end == bus.t - 1000 + 800
    assert frame.find("Score 12") == (6, 13)
    assert frame.text() == ["Score 12"]
    assert not frame.says("Score 13")


def test_init_arguments_are_not_taken_for_addresses_and_cs_high_bytes_are_ignored():
    bus = Bus()
    bus.cmd(*INIT)
    bus.page_data(0, 0, [0xFF])  # x = 0, rows 0..7
    bus.cmd(0x81, 0x05)  # contrast 5: an argument that would be "column low 5" as a command
    bus.send([0xFF], 1)  # lands at column 1 (the next one), not at 5
    bus.send([0xFF, 0xFF], 1, cs=1)  # not selected: the chip does not see these
    chip = SH1106()
    chip.feed(bus.records)
    chip.flush(bus.t + 30 * MS)
    px = chip.frames[-1].pixels
    assert [px[y][0] for y in range(8)] == [1] * 8
    assert [px[y][1] for y in range(8)] == [1] * 8
    assert chip.frames[-1].lit() == 16


def test_a_quiet_bus_cuts_frames_and_display_off_is_dark():
    font = Font.load()
    bus = Bus()
    bus.cmd(*INIT)
    bus.draw(font, "A", 0, 0)
    bus.t += 50 * MS
    bus.draw(font, "B", 0, 0)
    bus.t += 50 * MS
    bus.cmd(0xAE)
    chip = SH1106()
    chip.feed(bus.records)
    chip.flush(bus.t + 30 * MS)
    assert [f.text() for f in chip.frames] == [["A"], ["B"], []]
    assert chip.frames[0].t < chip.frames[1].t < chip.frames[2].t
    assert not chip.frames[2].on


def test_text_reads_every_line_on_its_own_grid_and_the_png_holds_the_pixels(tmp_path):
    font = Font.load()
    chip = SH1106()
    bus = Bus()
    bus.cmd(*INIT)
    chip.feed(bus.records)
    # two lines at different offsets, as two labels would put them
    px = [[0] * WIDTH for _ in range(HEIGHT)]
    for text, x0, y0 in (("Ann  +3", 3, 2), ("Bo 10/12", 40, 30)):
        for j, row in enumerate(font.render(text)):
            for i, p in enumerate(row):
                px[y0 + j][x0 + i] = p
    for page in range(8):
        bus.page_data(
            page, 0, [sum(px[page * 8 + b][c] << b for b in range(8)) for c in range(128)]
        )
    chip.feed(bus.records[len(INIT) :])
    chip.flush(bus.t + 30 * MS)
    frame = chip.frames[-1]
    assert frame.text() == ["Ann  +3", "Bo 10/12"]
    path = frame.save_png(str(tmp_path / "f.png"), scale=2)
    img = Image.open(path)
    assert img.size == (256, 128)
    assert all(
        (img.getpixel((2 * x, 2 * y)) != 0) == bool(px[y][x])
        for y in range(HEIGHT)
        for x in range(WIDTH)
    )


def test_quadrature_is_a_gray_code_that_returns_to_rest():
    for steps in (1, -1, 3, -2):
        seq = [(1, 1)] + quadrature(steps)
        assert len(seq) == 4 * abs(steps) + 1 and seq[-1] == (1, 1)
        for (a0, b0), (a1, b1) in zip(seq, seq[1:]):
            assert (a0 != a1) + (b0 != b1) == 1  # one pin at a time
    assert quadrature(1)[0] == (1, 0)  # clockwise: B first
    assert quadrature(-1)[0] == (0, 1)


def test_the_font_is_circuitpythons_terminalio():
    font = Font.load()
    assert (font.width, font.height) == (6, 12)
    assert sorted(font.glyphs) == [chr(c) for c in range(32, 127)]
    with pytest.raises(ValueError):
        font.render("é")


# ---- on the official CircuitPython in the rig ------------------------------------------------


@pytest.fixture(scope="module")
def bare_pad(rig_dir):
    """CircuitPython 10.2.1 for the MacroPad, booted from its UF2 (blank flash), paused, with
    the OLED's bus recorded."""
    from rig.macropad import firmware_uf2
    from rig.rp2emu import Emulator

    emu = Emulator.start(
        rig_dir, board="macropad", firmware=firmware_uf2(rig_dir), paused=True, oled=True
    )
    emu.run(6_000 * MS)  # first boot: safe-mode wait, FAT format, REPL
    yield emu
    emu.close()


def test_the_stored_font_is_the_one_the_board_has(bare_pad):
    r = bare_pad.exec(FONT_DUMP_CODE)
    assert not r["err"], r["err"]
    assert Font.parse(r["out"]).glyphs == Font.load().glyphs


DRAW = """import board, displayio, terminalio
f = terminalio.FONT
w, h = f.get_bounding_box()
pal = displayio.Palette(2)
pal[1] = 0xFFFFFF
g = displayio.Group()
def line(text, x, y):
    tg = displayio.TileGrid(f.bitmap, pixel_shader=pal, width=len(text), height=1,
                            tile_width=w, tile_height=h, x=x, y=y)
    for i, c in enumerate(text):
        tg[i, 0] = f.get_glyph(ord(c)).tile_index
    g.append(tg)
line(%r, 0, 0)
line(%r, 12, 26)
board.DISPLAY.root_group = g
"""


def test_what_displayio_draws_is_read_back_as_text_and_saved(bare_pad, tmp_path):
    screen = Oled(bare_pad)
    screen.poll()  # the boot's frames (the REPL's terminal)
    assert screen.frames and screen.frames[-1].on
    r = bare_pad.exec(DRAW % ("Round 3: Ann", "score? 12"))
    assert not r["err"], r["err"]
    frame = screen.wait_for("score? 12")
    assert frame.text() == ["Round 3: Ann", "score? 12"]
    assert frame.find("score? 12") == (12, 26)
    path = frame.save_png(str(tmp_path / "round3.png"))
    assert Image.open(path).size == (4 * WIDTH, 4 * HEIGHT)


KNOB = """import board, rotaryio, time
e = rotaryio.IncrementalEncoder(board.ROTA, board.ROTB)
seen = []
end = time.monotonic() + 1.0
while time.monotonic() < end:
    p = e.position
    if not seen or seen[-1] != p:
        seen.append(p)
print(seen)
e.deinit()
"""


def test_turns_are_counted_by_rotaryio_in_both_directions(bare_pad):
    t0 = bare_pad.now() + 300 * MS  # (the exec has made the encoder by then)
    edges = turn(bare_pad, 2, at=t0)
    edges += turn(bare_pad, -3, at=edges[-1] + 50 * MS)
    assert len(edges) == 20 and edges == sorted(edges)
    r = bare_pad.exec(KNOB)
    assert not r["err"], r["err"]
    # clockwise is minus rotaryio's position (Adafruit's MacroPad library's sign)
    assert ast.literal_eval(r["out"].strip()) == [0, -1, -2, -1, 0, 1]
    assert bare_pad.get(ROTA)["level"] == 1 and bare_pad.get(ROTB)["level"] == 1


# ---- the Pico build's SSD1306 on I2C (MicroPython) -------------------------------------------


def i2c_write(events, t, data, addr=0x3C):
    """A write transaction as rig/oled.mjs records it (22.5 us a byte: 400 kHz)."""
    events.append([t, "S", 0])
    t += 22_500
    events.append([t, "A", addr << 1])
    for v in data:
        t += 22_500
        events.append([t, "W", v])
    events.append([t, "P", 0])
    return t + 10_000


# MicroPython's ssd1306 driver's init_display(), one command a transaction (0x80 + command)
SSD1306_INIT = [0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 63, 0xC8, 0xD3, 0x00, 0xDA, 0x12]
SSD1306_INIT += [0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF]


def ssd1306_frame(font, text, x, y):
    """The 1024 bytes of a framebuf MONO_VLSB buffer with `text` at (x, y)."""
    buf = bytearray(1024)
    for j, row in enumerate(font.render(text)):
        for i, p in enumerate(row):
            if p:
                buf[((y + j) // 8) * 128 + x + i] |= 1 << ((y + j) % 8)
    return buf


def test_an_ssd1306_show_decodes_in_horizontal_addressing():
    font = Font.load(FRAMEBUF_FONT_FILE)
    events, t = [], 0
    for c in SSD1306_INIT:
        t = i2c_write(events, t, [0x80, c])
    t = i2c_write(events, t, [0x80, 0xB0])  # a command to another address is not the screen's
    t = i2c_write(events, t, [0x40, 0xFF], addr=0x3D)
    for c in (0x21, 0, 127, 0x22, 0, 7):
        t = i2c_write(events, t, [0x80, c])
    t = i2c_write(events, t, [0x40] + list(ssd1306_frame(font, "Ann +3", 4, 20)))
    chip = SSD1306()
    chip.feed_i2c(events)
    chip.flush(t + 30 * MS)
    frame = chip.frames[-1]
    assert frame.text(font) == ["Ann +3"]
    assert frame.find("Ann +3", font) == (4, 20)
    assert frame.lit() == sum(map(sum, font.render("Ann +3")))


def test_the_stored_framebuf_font_is_the_one_the_pico_has_and_a_show_reads_back(rig_dir, tmp_path):
    from rig.rp2emu import Emulator

    with Emulator.start(rig_dir, paused=True, oled=True) as emu:
        emu.expect(">>> ", max_ns=5_000 * MS)
        r = emu.exec(FRAMEBUF_FONT_DUMP_CODE)
        assert not r["err"], r["err"]
        assert Font.parse(r["out"]).glyphs == Font.load(FRAMEBUF_FONT_FILE).glyphs
        screen = Oled(emu, bus="i2c")
        r = emu.exec(SSD1306_SHOW % ("Round 2", "Bo 10"))
        assert not r["err"], r["err"]
        frame = screen.wait_for("Bo 10")
    font = Font.load(FRAMEBUF_FONT_FILE)
    assert frame.text(font) == ["Round 2", "Bo 10"]
    assert frame.find("Round 2", font) == (0, 0)
    # 1 + 6 + 1 + 1028 bytes at 400 kHz: about 23 ms on the wire
    assert 20 * MS < frame.end - frame.t < 40 * MS
    frame.save_png(str(tmp_path / "ssd1306.png"))


# What MicroPython's ssd1306 driver (micropython-lib, SSD1306_I2C) sends, on the rig's I2C0
SSD1306_SHOW = (
    """from machine import I2C, Pin
import framebuf
i2c = I2C(0, sda=Pin(4), scl=Pin(5), freq=400000)
def cmd(c):
    i2c.writeto(0x3C, bytes((0x80, c)))
for c in %r:
    cmd(c)
buf = bytearray(1024)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
"""
    % (SSD1306_INIT,)
    + """fb.text(%r, 0, 0, 1)
fb.text(%r, 16, 30, 1)
for c in (0x21, 0, 127, 0x22, 0, 7):
    cmd(c)
i2c.writevto(0x3C, (b"\\x40", buf))
"""
)


def test_a_refresh_of_the_same_area_soon_after_is_a_frame_of_its_own():
    font = Font.load()
    bus = Bus()
    bus.cmd(*INIT)
    bus.draw(font, "knob 1", 0, 0)
    bus.t += 2 * MS  # far less than the quiet gap
    first_end = bus.t - 2 * MS - 200
    bus.draw(font, "knob 2", 0, 0)
    chip = SH1106()
    chip.feed(bus.records)
    chip.flush(bus.t + 30 * MS)
    assert [f.text() for f in chip.frames] == [["knob 1"], ["knob 2"]]
    assert chip.frames[0].end == first_end  # its last data byte, not the next one's address
