"""What the terminal shows for the scorepad: a QR code that reads on a light and on a dark
terminal (every cell's colours set, a quiet zone of 4 modules), and a usable URL when the
scorepad listens on every address (0.0.0.0)."""

import re

import segno

from presstime.scorepad.at_table import QUIET, TableScorepad, qr_lines
from presstime.scorepad.options import lan_addresses

URL = "http://192.0.2.2:40123/Zm9vYmFyYmF6cXV4cXV1eA/"
CELL = re.compile(r"\x1b\[(\d+);(\d+)m\u2580")


def test_the_terminal_qr_code_sets_both_colours_of_every_cell():
    lines = qr_lines(URL, colour=True)
    modules = []
    for line in lines:
        assert line.endswith("\x1b[0m")
        cells = CELL.findall(line[: -len("\x1b[0m")])
        assert (
            CELL.sub("", line[: -len("\x1b[0m")]) == ""
        )  # nothing drawn in the terminal's own colours
        modules.append([fg == "30" for fg, bg in cells])
        modules.append([bg == "40" for fg, bg in cells])
    matrix = [[bool(b) for b in row] for row in segno.make(URL, error="l").matrix]
    n = len(matrix)
    assert all(not any(row) for row in modules[:QUIET] + modules[QUIET + n :])  # the quiet zone
    assert [row[QUIET : QUIET + n] for row in modules[QUIET : QUIET + n]] == matrix
    assert all(not any(row[:QUIET] + row[QUIET + n :]) for row in modules)


def test_without_colour_the_dark_modules_are_the_characters():
    lines = qr_lines(URL, colour=False)
    assert all("\x1b" not in line for line in lines)
    matrix = segno.make(URL, error="l").matrix
    first = lines[QUIET // 2]
    assert (
        first[QUIET : QUIET + 7] == "\u2588\u2580\u2580\u2580\u2580\u2580\u2588"
    )  # a finder pattern's top
    assert len(matrix) + 2 * QUIET >= len(lines) * 2 - 1


def test_every_address_prints_this_computers_addresses_not_0_0_0_0():
    said = []
    rec = {"game": "mini-fits", "players": ["Ada", "Ben"]}
    pad = TableScorepad(rec, lambda r: None, bind="0.0.0.0", say=said.append).start()
    try:
        urls = [line.split()[4] for line in said if line.startswith("Scorepad: each player opens")]
        assert urls and "0.0.0.0" not in urls[0]
        assert not [line for line in said if "0.0.0.0" in line]
        expected = (lan_addresses() or ["127.0.0.1"])[0]
        assert urls[0].startswith("http://%s:%d/" % (expected, pad.server.port))
    finally:
        pad.stop()


def test_the_table_view_keeps_the_scorepad_link_in_sight():
    """In `play --scorepad` the full-screen table view runs round 1 at once: its footer carries
    the link, and the URL and QR code are printed again when the round's numbers are due."""
    from presstime.core.table import Table
    from presstime.tableside import display

    t = Table()
    t.configure({"players": ["Ada", "Ben", "Cy"], "mode": "standard", "duration_ms": 60000}, 0)
    t.start(0)
    t.tick(3000)
    said = []
    rec = {"game": "mini-fits", "players": ["Ada", "Ben"]}
    pad = TableScorepad(rec, lambda r: None, say=said.append).start()
    try:
        view = display.View("play", keys="1-6 press")
        view.link = pad.footer()
        for width, height in ((80, 24), (120, 40)):
            screen = "\n".join(display.render_text(t.status(20000), view, width, height))
            assert "scorepad: http://127.0.0.1:%d/" % pad.server.port in screen
        pad.covered = True  # what play's table view sets when it ends
        pad.poll_line = lambda timeout: ""  # the host presses Enter: the round closes at once
        said.clear()
        pad.collect(0, "round 1")  # round 1's numbers are due
        assert said[0].startswith("Scorepad: each player opens " + pad.server.url)
        assert any("\u2580" in line or "\u2588" in line for line in said)  # the QR code again
    finally:
        pad.stop()
