"""The MacroPad port's screen and knob on the official CircuitPython 10.2.1 in the rig: what
show_lines() puts on the OLED is read back from the SPI bus as text, a turn of the knob (both
ways, at a human pace and fast) changes what the screen shows by the detents turned, and the
knob's press and the back key reach buttons() as -1 and -2 (rig/knob_screen.py's loop, paced as
the app's)."""

import pytest
from PIL import Image

from rig.knob_screen import low_heap, spin, start
from rig.oled import press_knob, turn
from rig.rp2emu import MS


@pytest.fixture
def pad(rig_dir, macropad_image):
    from rig.macropad import EmulatedMacropad

    p = EmulatedMacropad.start(rig_dir, macropad_image, paused=True, oled=True)
    yield p
    p.close()


def test_the_port_shows_lines_and_counts_the_knob_and_keys(pad, tmp_path):
    heap = start(pad)
    screen = pad.screen()
    first = screen.wait_for("knob 0")
    assert first.text() == ["knob 0", "press 0", "back 0"]
    assert first.find("knob 0") == (0, 0)  # line 1 at the top left, 12 pixels a line
    assert first.find("back 0") == (0, 24)
    first.save_png(str(tmp_path / "knob0.png"))
    assert Image.open(str(tmp_path / "knob0.png")).size == (512, 256)

    t = pad.now() + 100 * MS
    edges = pad.turn(1, at=t)
    edges += turn(pad, -3, at=edges[-1] + 200 * MS)
    edges += turn(pad, 5, at=edges[-1] + 200 * MS, edge_ns=500_000, detent_ns=3 * MS)  # a flick
    down, _ = press_knob(pad, at=edges[-1] + 200 * MS)
    pad.press_knob(at=down + 300 * MS)  # (the same switch, through rig.macropad)
    back_at, _ = pad.press_back(at=down + 600 * MS)  # KEY1
    spin(pad, int((back_at + 200 * MS - pad.now()) / MS))

    shown = []
    for f in screen.poll():
        if f.text() and (not shown or shown[-1] != f.text()[0]):
            shown.append(f.text()[0])
    # every count the loop saw, in order: +1, then -3 detent by detent, then the flick of +5
    # (read in one or more passes)
    assert shown[0] == "knob 1" and shown[1:4] == ["knob 0", "knob -1", "knob -2"]
    assert shown[-1] == "knob 3"
    last = screen.frames[-1]
    assert last.text() == ["knob 3", "press 2", "back 1"]
    # each turn shows after its last edge
    f1 = next(f for f in screen.frames if f.says("knob 1"))
    assert f1.end > edges[3]
    assert heap["free_after"] < heap["free_port"]  # the screen takes heap
    assert low_heap(pad) > 16 * 1024
