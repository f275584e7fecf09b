"""The Macropad port (ports/macropad.py) and boot.py under the MicroPython unix port, with fake
CircuitPython modules (tests/fakes/circuitpython): key mapping, timestamps folded across the
2**29 wrap of supervisor.ticks_ms, speaker, data serial, and boot.py's drive decision."""

import os

from mpy import ROOT, needs_micropython, run_micropython

FAKES = os.path.join(ROOT, "tests", "fakes", "circuitpython")
PRELUDE = "sys.path.insert(0, %r)\n" % FAKES


def mp(script):
    return run_micropython(PRELUDE + script, heap="256K").stdout.split("\n")


@needs_micropython
def test_keys_map_to_players_and_control_with_wrapped_timestamps():
    out = mp("""
import supervisor, keypad
W = 1 << 29
supervisor.now = W - 5                      # ticks_ms wraps 5 ms after the port starts,
                                            # 65531 ms after power-on (at W - 65536)
from presstime.device.ports.macropad import MacropadPort
port = MacropadPort()
keys = keypad.made[-1]
print(port.players, port.pixels, port.ring, port.player_pixels, keys.interval,
      keys.value_when_pressed)
keys.events.queue = [(6, True, W - 3), (12, True, W - 1), (0, True, W - 1), (7, False, 2)]
supervisor.now = W + 10
print(port.buttons(), port.now_ms())
for i in range(5):                          # more wraps, each folded (a loop runs every ms)
    supervisor.now += W // 3
    port.now_ms()
print(port.now_ms() == 65546 + 5 * (W // 3))
print(port.uid())
""")
    assert out[0] == "6 12 (0, 1, 2, 3, 4, 5) (6, 7, 8, 9, 10, 11) 0.001 False"
    # times count from power-on (supervisor.ticks_ms() was 2**29 - 65536 then)
    # KEY1 (key 0) is the back key, button -2 (a board with a screen, issue 27)
    assert out[1] == (
        "[(0, True, 65533000), (-1, True, 65535000), (-2, True, 65535000), (1, False, 65538000)]"
        " 65546"
    )
    assert out[2] == "True"
    assert out[3] == "macropad-deadbeef01020304"


@needs_micropython
def test_speaker_serial_pixels_and_journal(tmp_path):
    drive = str(tmp_path)
    for name in ("journal.bin.0", "journal.bin.id", "journal.binary", "code.py"):
        (tmp_path / name).write_text(name)
    out = mp(
        """
import supervisor, storage, usb_cdc, neopixel
from presstime.device.ports.macropad import MacropadPort
port = MacropadPort()
print(port.journal_path())                  # drive read-only to code: no journal file
storage.readonly = False
port = MacropadPort()
port.journal_dir = %r + "/journal"          # the drive's top is the test's folder
print(port.journal_path() == port.journal_dir + "/journal.bin", port.journal_path() is not None)
"""
        % drive
        + """
port.beep(1000, 50)
print(port._pwm.frequency, port._pwm.duty_cycle)
supervisor.now = 60; port.idle(); print(port._pwm.duty_cycle)
usb_cdc.data.rx = b"\\x00hello"
print(port.read(), port.read())
port.write(b"\\x01ok"); print(usb_cdc.data.tx)
np = neopixel.made[-1]
port.show([(1, 2, 3)] * 12); port.show([(1, 2, 3)] * 12)
print(np.shows, np.buf[11], np.auto_write)
port.show_rgb([0x010203] * 11 + [0xFF8000, 0x112233])      # the app's ints, one past the pixels
print(np.shows, np.buf[0], np.buf[11], len(np.buf))
from presstime.device.journal import Journal
print(Journal.SEGMENT_BYTES)                # one FAT cluster, set before start() makes it
"""
    )
    assert out[0] == "None"
    assert out[1] == "True True"  # made once, found the second time
    # a journal kept at the drive's top (before the folder) moved into it; other files stay
    assert sorted(os.listdir(tmp_path / "journal")) == ["journal.bin.0", "journal.bin.id", "pad"]
    assert (tmp_path / "journal" / "journal.bin.id").read_text() == "journal.bin.id"
    assert sorted(os.listdir(tmp_path)) == [
        "code.py",
        "journal",
        "journal-reserve.bin",
        "journal.binary",
    ]
    # the guard made before the folder: 1790 KB (the drive's clusters whose FAT entries share
    # the boot sector's flash sector), so the journal's clusters come after it
    assert os.path.getsize(tmp_path / "journal-reserve.bin") == 1790 * 1024
    assert out[2:4] == ["1000 32768", "0"]
    assert out[4] == "b'\\x00hello' b''"
    assert out[5] == "b'\\x01ok'"
    assert out[6] == "1 (1, 2, 3) False"
    assert out[7] == "2 %d %d 12" % (0x010203, 0xFF8000)  # ints as they are: neopixel takes them
    assert out[8] == "1024"


@needs_micropython
def test_boot_enables_data_port_and_remounts_unless_key1_is_held():
    out = mp(
        """
import storage, usb_cdc, digitalio
exec(open(%r).read())
print(usb_cdc.enabled, storage.calls)
storage.calls.clear()
digitalio.held.append("KEY1")
exec(open(%r).read())
print(storage.calls)
"""
        % (os.path.join(ROOT, "firmware", "boot.py"), os.path.join(ROOT, "firmware", "boot.py"))
    )
    assert out[0] in (
        "{'console': True, 'data': True} [('/', False)]",
        "{'data': True, 'console': True} [('/', False)]",
    )
    assert out[1] == "[]"


@needs_micropython
def test_screen_lines_set_only_changed_tiles_and_the_knob_counts_clockwise():
    out = mp("""
import board, rotaryio
from presstime.device.ports.macropad import MacropadPort
port = MacropadPort()
print(port.screen_lines, port.screen_cols, board.DISPLAY.root_group)   # console until shown
port.show_lines(["Ann 12", "ok?"])
grid = board.DISPLAY.root_group.items[0]
print(grid.width, grid.height, grid.tile_size, grid.sets, board.DISPLAY.auto_refresh,
      board.DISPLAY.refreshes)
print(grid.tiles[:6], grid.tiles[21:24], grid.tiles[42])
port.show_lines(["Ann 13", "ok?"])                  # one cell changed: one tile set
print(grid.sets, grid.tiles[5])
port.show_lines(["Ann 13", "ok?"])                  # nothing changed: no refresh
print(board.DISPLAY.refreshes)
port.show_lines(["Ann 13 and a line longer than the screen", "\u00e9"])
print(grid.sets, grid.tiles[20], grid.tiles[21], grid.tiles[22])
enc = rotaryio.made[-1]
print(enc.pins, port.knob())
enc.position = -3                                   # rotaryio counts clockwise down
print(port.knob(), port.knob())
enc.position = -1
print(port.knob())
port.close()
print(board.DISPLAY.root_group, enc.deinited, board.DISPLAY.auto_refresh)
""")
    assert out[0] == "5 21 None"
    # 5 + 3 visible characters set (spaces and the rest stay the blank tile)
    # drawn at once, displayio's own 60 Hz refresh off while the port owns the screen
    assert out[1] == "21 5 (6, 12) 8 False 1"
    assert out[2] == "[33, 78, 78, 0, 17, 18] [79, 75, 31] 0"
    assert out[3] == "9 19"
    assert out.pop(4) == "2"
    # cut at 21 columns (11 more letters); a character the font has not is "?" (é: 2 bytes, so
    # "??" over "ok?", and the third cell blanked): 3 more
    assert out[4] == "23 78 31 31"
    assert out[5] == "('ROTA', 'ROTB') 0"
    assert out[6:8] == ["3 0", "-2"]
    # close() gives the screen back to CircuitPython's console, refreshing on its own
    assert out[8] == "console True True"
