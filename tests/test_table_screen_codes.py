"""The full-screen table view on a terminal behind cli's SafeStream: rich's screen codes (the
alternate screen, the cursor home of each redraw) reach the terminal as codes, never as text
(they were printed as `\\u001b[?1049h\\u001b[H` at the top of every redraw)."""

import io

from presstime.tableside.display import Screen, View
from presstime.term import SafeStream


class Tty(io.StringIO):
    def isatty(self):
        return True


def test_the_live_view_writes_its_screen_codes_not_their_escapes(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLORTERM", "truecolor")  # rich keeps a style's codes from its first
    # colour system: the other tests' truecolor
    tty = Tty()
    st = {"phase": "ready", "round": 1, "players": [{"name": "Ada\x1b[2J"}, {"name": "Ben"}]}
    with Screen(View(), stream=SafeStream(tty)) as screen:
        assert screen.live
        screen.show(st)
        screen.show(dict(st, round=2))
    out = tty.getvalue()
    assert "\x1b[?1049h" in out and "\x1b[?1049l" in out  # into the alternate screen and out
    assert "\\u001b" not in out
    assert "\x1b[2J" not in out and "Ada" in out  # a name's own codes never act
