"""The Pico port (ports/rp2.py) under the MicroPython unix port with fake machine/neopixel modules.

The fake Pin fires the port's real IRQ handler with the heap locked (an allocation inside the
handler would raise MemoryError), the fake clock wraps like rp2's ticks_us (2**30).
"""

import os
import subprocess

import pytest

from mpy import FIRMWARE, ROOT, needs_micropython, run_micropython

FAKES = os.path.join(ROOT, "tests", "fakes")
PRELUDE = "sys.path.insert(0, %r)\n" % FAKES


def mp(script, heap="128K"):
    return run_micropython(PRELUDE + script, heap=heap).stdout


@needs_micropython
def test_irq_path_keeps_first_edge_and_order_across_calls():
    out = mp("""
import machine, micropython
from fake_clock import FakeClock
import presstime.device.ports.rp2 as rp2
clock = FakeClock(start=(1 << 30) - 3000).install(rp2)   # ticks_us wraps 3 ms in
port = rp2.Rp2Port(serial=False)
P = machine.Pin.by_id
def at(us, gpio, level):
    clock.us = us
    micropython.heap_lock()
    P[gpio].set(level)
    micropython.heap_unlock()
# player 3 (GP4) presses at 1000 µs and bounces until 1900; player 1 (GP2) at 1300, clean
at(1000, 4, 0); at(1100, 4, 1); at(1900, 4, 0); at(1300, 2, 0)
clock.us = 5000; print(port.buttons())       # nothing settled yet
clock.us = 11400; print(port.buttons())      # player 1 settled, but player 3 started earlier
clock.us = 12000; print(port.buttons())      # both, oldest first
at(30000, 4, 1); at(30500, 14, 0)            # release; control button
clock.us = 45000; print(port.buttons())
print(port.now_ms(), port.lost_edges())
""")
    lines = out.split("\n")
    assert lines[0] == "[]"
    assert lines[1] == "[]"
    assert lines[2] == "[(2, True, 1000), (0, True, 1300)]"
    assert lines[3] == "[(2, False, 30000), (-1, True, 30500)]"
    assert lines[4] == "45 0"


@needs_micropython
def test_glitch_is_dropped_and_missed_edge_recovered():
    out = mp("""
import machine
from fake_clock import FakeClock
import presstime.device.ports.rp2 as rp2
clock = FakeClock().install(rp2)
port = rp2.Rp2Port(serial=False)
P = machine.Pin.by_id
clock.us = 1000; P[3].set(0); clock.us = 1200; P[3].set(1)   # a 200 µs spike
clock.us = 20000; print(port.buttons())
P[5].level = 0                                                # an edge the IRQ never saw
clock.us = 21000; print(port.buttons())
clock.us = 32000; print(port.buttons())
""")
    assert out.split("\n")[:3] == ["[]", "[]", "[(3, True, 21000)]"]


@needs_micropython
def test_ring_overflow_counts_and_levels_take_over():
    out = mp("""
import machine
from fake_clock import FakeClock
import presstime.device.ports.rp2 as rp2
clock = FakeClock().install(rp2)
port = rp2.Rp2Port(serial=False)
P = machine.Pin.by_id
for i in range(200):                      # a chattering switch fills the ring
    clock.us = 1000 + i; P[6].set(i % 2)
P[6].set(0)
clock.us = 100000; print(port.buttons(), port.lost_edges() > 0)
clock.us = 200000; print(port.buttons())
""")
    lines = out.split("\n")
    assert lines[0].endswith("True")
    assert "(4, True," in lines[0] + lines[1]


@needs_micropython
def test_clock_folds_across_wraps_and_long_stalls():
    out = mp("""
from fake_clock import FakeClock
import presstime.device.ports.rp2 as rp2
clock = FakeClock(start=(1 << 30) - 500).install(rp2)
port = rp2.Rp2Port(serial=False)
ok = True
for step in (1, 999, 400000000, 700000000, 1500000000, 3):   # µs; 700 s and 1500 s stalls
    clock.us += step
    ok = ok and port.now_us() == clock.us
print(ok, port.now_ms() == clock.us // 1000)
""")
    assert out.strip() == "True True"


@needs_micropython
def test_pixels_leds_beep_and_console():
    out = mp("""
import machine, micropython
from fake_clock import FakeClock
import presstime.device.ports.rp2 as rp2
clock = FakeClock().install(rp2)
port = rp2.Rp2Port(serial=False)
colours = [(0, 0, 0)] * 30
colours[4] = (0, 9, 0); colours[25] = (0, 0, 7)
port.show(colours); port.show(list(colours))
print(port._np.writes, port._np.shown[4], [machine.PWM.by_id[g].duty_u16() for g in (8, 9, 10)])
port.beep(880, 100)
pwm = port._pwm
print(pwm.freq(), pwm.duty_u16())
clock.us = 50000; port.idle(); print(pwm.duty_u16())
clock.us = 101000; port.idle(); print(pwm.duty_u16())
print(port.journal_dir, port.players, port.pixels, port.uid())
port.close()
""")
    lines = out.split("\n")
    assert lines[0] == "1 (0, 9, 0) [0, %d, 0]" % (7 * 65535 // 48)  # LED 2: entry 25 at 7/48
    assert lines[1:4] == ["880 32768", "32768", "0"]
    assert lines[4] == "/journal 6 24 pico-e6605838832f4a21"


@needs_micropython
def test_the_journal_moves_into_its_folder_once_and_a_cut_move_finishes(tmp_path):
    """An earlier firmware kept the journal at the flash's top: its files (segments, checkpoint,
    id) move into /journal at the first boot; a move cut short (some files already in
    journal.new) finishes at the next; other files stay where they are."""
    top = str(tmp_path)
    for name in (
        "journal.bin.0",
        "journal.bin.12",
        "journal.bin.run",
        "journal.bin.id",
        "journal.binary",
        "main.py",
    ):
        with open(os.path.join(top, name), "w") as f:
            f.write(name)
    os.mkdir(os.path.join(top, "journal.new"))
    os.rename(
        os.path.join(top, "journal.bin.12"), os.path.join(top, "journal.new", "journal.bin.12")
    )
    out = mp(
        """
import os
import presstime.device.ports.rp2 as rp2
from fake_clock import FakeClock
FakeClock().install(rp2)
rp2.Rp2Port.journal_dir = %r + "/journal"
port = rp2.Rp2Port(serial=False)
print(port.journal_path())
print(sorted(os.listdir(%r)))
print(sorted(os.listdir(%r + "/journal")))
print(port.journal_path())
print(open(%r + "/journal/journal.bin.12").read())
"""
        % (top, top, top, top)
    )
    lines = out.strip().split("\n")
    assert lines[0] == top + "/journal/journal.bin" == lines[3]
    assert lines[1] == str(["journal", "journal.binary", "main.py"])
    assert lines[2] == str(["journal.bin.0", "journal.bin.12", "journal.bin.id", "journal.bin.run"])
    assert lines[4] == "journal.bin.12"


@needs_micropython
def test_a_journal_move_that_cannot_finish_leaves_every_file_and_keeps_ram(tmp_path):
    """A file where the folder would be, or a move that fails half way (here: a file named
    journal.new, so no segment can go into it): journal_path() is None (the app's RAM journal
    for this session) and every file stays where it was, for the next boot to try again."""
    top = str(tmp_path)
    for name in ("journal.bin.0", "journal.bin.9", "journal.new"):
        with open(os.path.join(top, name), "w") as f:
            f.write(name)
    other = os.path.join(top, "other")
    os.mkdir(other)
    with open(os.path.join(other, "journal"), "w") as f:
        f.write("a file, not a folder")
    out = mp(
        """
import os
import presstime.device.ports.rp2 as rp2
from fake_clock import FakeClock
FakeClock().install(rp2)
port = rp2.Rp2Port(serial=False)
port.journal_dir = %r + "/journal"
print(port.journal_path())
port.journal_dir = %r + "/journal"
print(port.journal_path())
print(sorted(os.listdir(%r)))
"""
        % (top, other, top)
    )
    lines = out.strip().split("\n")
    assert lines[:2] == ["None", "None"]
    assert lines[2] == str(["journal.bin.0", "journal.bin.9", "journal.new", "other"])


@needs_micropython
def test_serial_reads_one_byte_at_a_time_and_writes_binary():
    script = (
        PRELUDE
        + """
from fake_clock import FakeClock
import presstime.device.ports.rp2 as rp2
FakeClock().install(rp2)
port = rp2.Rp2Port()
got = b""
for i in range(50):
    got += port.read()
port.write(b"\\x00\\xffok\\n")
port.restore_repl()
print(len(got), got == bytes(range(256)) * 2)
"""
    )
    from mpy import MICROPYTHON

    proc = subprocess.run(
        [
            MICROPYTHON,
            "-X",
            "heapsize=128K",
            "-c",
            "import sys\nsys.path.insert(0, %r)\n" % FIRMWARE + script,
        ],
        input=bytes(range(256)) * 2,
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(b"\x00\xffok\n")
    assert proc.stdout.endswith(b"512 True\n")


@pytest.mark.slow
@needs_micropython
@pytest.mark.parametrize("tie_us,expect", [(1000, 1000), (0, 1)])
def test_press_resolution(tie_us, expect):
    out = mp("import press_order\npress_order.main(['x', '%d'])\n" % tie_us, heap="512K")
    assert out.strip() == "resolution_us: %d" % expect


@needs_micropython
def test_presses_during_a_flash_write_become_a_fair_tie_never_an_inversion():
    """The RP2040 writes flash with interrupts off (docs/journal.md: up to ~95 ms). Edges in that
    window are stamped when it ends, back to back in pin order: within tie_us, so the round
    machine flags a tie and its rotating priority decides, not the wiring. A press after the
    window still comes after both."""
    out = mp(
        """
import machine
from fake_clock import FakeClock
import presstime.device.ports.rp2 as rp2
from presstime.core.table import Table
clock = FakeClock().install(rp2)
port = rp2.Rp2Port(serial=False)
table = Table()
table.configure({"players": 3, "mode": "standard"}, 0)
table.control(0); table.tick(3000)
P = machine.Pin.by_id
# window 10.000 s .. 10.090 s: player 3 (GP4) presses at 10.010, player 1 (GP2) at 10.050
P[4].level = 0; P[2].level = 0
clock.us = 10090000
for gpio in (2, 3, 4, 5, 6, 7, 14):     # rp2's handler visits pending pins in pin order
    if P[gpio].level == 0:
        P[gpio].handler(P[gpio]); clock.us += 3
clock.us = 10092000; P[3].set(0)        # player 2, after the window
for t in range(10091000, 10140000, 1000):
    clock.us = t
    for b, down, t_us in port.buttons():
        if down:
            table.press(b, t_us)
print(table.tok, table.tie)
""",
        heap="512K",
    )
    tok, tie = out.strip().split("] [")
    assert tie.rstrip("]") == "1, 0, 1"  # players 1 and 3 tied, flagged
    assert tok.lstrip("[").split(", ")[1] == "3"  # player 2 (after the window) is third


@needs_micropython
def test_a_press_settling_at_the_deadline_still_counts_in_time():
    """Pressed 3 ms before time-out, bouncing: the loop's clock waits for the press to settle,
    so the round machine sees it before its time-out (token 1, not a late grace press)."""
    out = mp(
        """
import machine
from fake_clock import FakeClock
import presstime.device.ports.rp2 as rp2
from presstime.core.table import Table
clock = FakeClock().install(rp2)
port = rp2.Rp2Port(serial=False)
table = Table()
table.configure({"players": 2, "mode": "standard", "duration_ms": 10000}, 0)
table.control(0); table.tick(3000)          # running from 3.000 s: time-out at 13.000 s
P = machine.Pin.by_id
for t in range(12990000, 13040000, 500):
    clock.us = t
    if t == 12997000: P[2].set(0)
    if t == 12997500: P[2].set(1)
    if t == 12998000: P[2].set(0)
    for b, down, t_us in port.buttons():
        if down:
            table.press(b, t_us)
    now = port.now_ms()
    table.tick(now)
print(table.status()["players"][0]["state"], table.tok[0], table.phase)
print(port.now_ms() == clock.us // 1000)
""",
        heap="512K",
    )
    lines = out.split("\n")
    assert lines[0] == "printed 1 5"  # printed in time (without the hold: "late"); grace now
    assert lines[1] == "True"


@needs_micropython
def test_the_app_runs_on_the_pico_port_through_pin_edges():
    """The firmware App on Rp2Port (fake pins, fake clock): control tap starts, presses take
    tokens in press order, the ring and the button LEDs show it."""
    out = mp(
        """
import machine
from fake_clock import FakeClock
import presstime.device.ports.rp2 as rp2
from presstime.device.ports.ram_journal import RamJournal
from presstime.device.app import App
clock = FakeClock().install(rp2)
port = rp2.Rp2Port(serial=False)
app = App(port, RamJournal(), config={"players": 3, "mode": "standard", "duration_ms": 180000})
P = machine.Pin.by_id
def run_until(us):
    while clock.us < us:
        app.step()          # idle() sleeps 1 ms on the fake clock
def tap(gpio, at, ms=80):
    run_until(at); P[gpio].set(0); run_until(at + ms * 1000); P[gpio].set(1)
tap(14, 100000)                     # control: start (0.4 s later), then 3-2-1
run_until(5000000)
tap(4, 6000000); tap(2, 6500000)    # player 3, then player 1
run_until(7000000)
st = app.status()
print(st["phase"], [p["token"] for p in st["players"]], [p["state"] for p in st["players"]])
print(port._np.writes > 0, len(port._np.shown))
leds = []
for t in range(7000000, 9000000, 50000):   # a printed player's LED flashes its token number
    run_until(t)
    leds.append(machine.PWM.by_id[10].duty_u16())
print(min(leds) > 0 and max(leds) > 3 * min(leds), app.journal.last_seq > 3)
""",
        heap="512K",
    )
    lines = out.split("\n")
    assert lines[0] == "running [2, 0, 1] ['printed', 'reporting', 'printed']"
    assert lines[1] == "True 24"
    assert lines[2] == "True True"


# ---- the optional screen and knob (ports/rp2_screen.py, issue 27) ------------------------------


@needs_micropython
def test_the_oled_is_looked_for_by_a_write_and_its_pins_let_go_without_it():
    out = mp("""
import machine
import presstime.device.ports.rp2 as rp2
from presstime.device.boards import pico
print(rp2._oled(pico), machine.Pin.by_id[20].mode, machine.Pin.by_id[21].mode)
machine.I2C.devices = (0x3C,)
i2c = rp2._oled(pico)
print(i2c.id, i2c.timeout, machine.I2C.by_id[0].writes == [], [w for w in i2c.writes])
""")
    lines = out.split("\n")
    assert lines[0] == "None 0 0"  # no answer: None, SDA and SCL inputs again
    # found: a bus made again with the default timeout (the probe's bus took the probe write)
    assert lines[1] == "0 50000 True []"


SCREEN = """
import machine, micropython, framebuf
from fake_clock import FakeClock
import presstime.device.ports.rp2 as rp2
from presstime.device.ports.rp2_screen import port_class
ScreenPort = port_class(rp2.Rp2Port)
clock = FakeClock().install(rp2)
machine.I2C.devices = (0x3C,)
i2c = machine.I2C(0)
port = ScreenPort(i2c, serial=False)
P = machine.Pin.by_id
def at(us, gpio, level):
    clock.us = us
    micropython.heap_lock()
    P[gpio].set(level)
    micropython.heap_unlock()
def page(text):
    buf = bytearray(128)
    fb = framebuf.FrameBuffer(buf, 128, 8, framebuf.MONO_VLSB)
    fb.text(text, 0, 0, 1)
    return b"\\x40" + buf
"""


@needs_micropython
def test_the_screen_sends_its_set_up_then_only_the_pages_whose_line_changed():
    out = mp(
        SCREEN
        + """
w = i2c.writes
print(w[0][1][:2] == b"\\x00\\xae", w[0][1][-1] == 0xAF, len(w))
print(all(w[2 + 2 * p][1] == page("") for p in range(8)))
del w[:]
port.show_lines(["round 1 Ada", "complete lines", "", "> 0"])
print([x[1][5] for x in w[0::2]], w[1][1] == page("round 1 Ada"), w[5][1] == page("> 0"))
del w[:]
port.show_lines(["round 1 Ada", "complete lines", "", "> 12", "a line longer than the screen"])
print([x[1][5] for x in w[0::2]], w[1][1] == page("> 12"), w[3][1] == page("a line longer th"))
del w[:]
port.show_lines(["round 1 Ada"])
print([x[1][5] for x in w[0::2]], port.screen_cols, port.screen_lines)
"""
    )
    lines = out.split("\n")
    assert lines[0] == "True True 17"  # the set-up, then 8 pages cleared: window + page each
    assert lines[1] == "True"
    assert lines[2] == "[0, 1, 3] True True"  # line 2 was blank already
    assert lines[3] == "[3, 4] True True"  # the number's line and the new one, cut to 16
    assert lines[4] == "[1, 3, 4] 16 8"  # missing lines blank


@needs_micropython
def test_the_knob_counts_detents_both_ways_in_its_hard_irq_and_a_bounce_counts_nothing():
    out = mp(
        SCREEN
        + """
def detent(first, second, t):
    at(t, first, 0); at(t + 2000, second, 0); at(t + 4000, first, 1); at(t + 6000, second, 1)
A, B = 18, 19
detent(B, A, 1000); detent(B, A, 20000)         # clockwise: B falls first
print(port.knob(), port.knob())
detent(A, B, 40000)                              # the other way
at(60000, A, 0); at(60300, A, 1); at(60600, A, 0); at(60900, A, 1)   # A bouncing at rest
at(61000, B, 0); at(61200, A, 0); at(61400, A, 1); at(61600, B, 1)   # half a turn, back
print(port.knob())
"""
    )
    assert out.split("\n")[:2] == ["2 0", "-1"]


@needs_micropython
def test_the_knob_press_is_a_control_button_and_the_back_key_is_minus_two():
    out = mp(
        SCREEN
        + """
clock.us = 1000; P[17].level = 0                 # the knob pressed
print(port.buttons())
clock.us = 4000; print(port.buttons())           # held 3 ms: not yet
clock.us = 7000; print(port.buttons())           # held 6 ms: a press, at its first reading
clock.us = 50000; P[17].level = 1; P[22].level = 0
print(port.buttons())
clock.us = 52000; P[22].level = 1                # the back key let go within 5 ms: a glitch
clock.us = 58000; print(port.buttons())
clock.us = 60000; print(port.buttons())
clock.us = 70000; P[22].level = 0; print(port.buttons())
clock.us = 80000; print(port.buttons())
"""
    )
    assert out.split("\n")[:8] == [
        "[]",
        "[]",
        "[(-1, True, 1000)]",
        "[]",  # the knob let go, the back key down: first readings
        "[(-1, False, 50000)]",  # the back key's 2 ms went by unseen as a press
        "[]",
        "[]",
        "[(-2, True, 70000)]",
    ]


@needs_micropython
def test_read_says_no_push_while_a_press_settles():
    """With nothing received, read() gives None from a press's first edge until it settles (the
    link pushes no status then: a push never stands between a press and its light), and for
    at most the debouncer's hold_us, so a chattering switch cannot stop the pushes."""
    out = mp("""
import machine
from fake_clock import FakeClock
import presstime.device.ports.rp2 as rp2
clock = FakeClock().install(rp2)
port = rp2.Rp2Port(serial=False)
P = machine.Pin.by_id
clock.us = 1000; print(port.read())                          # nothing pressed: b''
clock.us = 2000; P[3].set(0); clock.us = 2300; P[3].set(1); clock.us = 2600; P[3].set(0)
clock.us = 3000; print(port.read())                          # bouncing: None
clock.us = 2600 + port.settle_us + 100; print(port.buttons(), port.read())   # settled: b''
for i in range(400):                                         # a switch that never settles
    clock.us = 40000 + 500 * i; P[5].set(i % 2)
    if port.read() is not None:
        break
print(clock.us - 40000)
""")
    lines = out.split("\n")
    assert lines[0] == "b''"
    assert lines[1] == "None"
    assert lines[2] == "[(1, True, 2000)] b''"
    assert 0 < int(lines[3]) <= 50000 + 500  # no longer than hold_us
