"""`presstime play` against the emulated Pico (the official firmware in the rp2emu rig), as the
README says to try it: `python -m rig play` in a real pty of 80x24, the terminal the player sees
(rendered by a terminal emulator, pyte), a real game (not --sim): each day started and played
by the board's buttons through the rig's control channel, the scorepad numbers typed at the
prompts, and the standings, the winner and the history checked afterwards."""

import os
import re
import sys
import time

import pytest

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

from presstime import records  # noqa: E402
from presstime.history.store import Store  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MS = 1_000_000
COLS, ROWS = 80, 24
# who presses first each day (seat), and the numbers each player types every day
FIRST = (1, 0, 1)
NUMBERS = {"Ada": "3", "Ben": "1"}
GO_NS = (
    3800 * MS
)  # control press -> release (80 ms) + 0.4 s -> START -> 3 s count -> GO (3480) + 320
# wall seconds for one step at most (the rig runs slower than real time, more so on a loaded
# machine)
WAIT_S = 300


class Terminal:
    """What the player sees: the pty's bytes through a VT100 emulator of 80x24."""

    def __init__(self):
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.seen = []  # every line the screen showed, in order (what scrolled away too)
        self._last = set()

    def write(self, data):
        self.stream.feed(data)
        now = [line.rstrip() for line in self.screen.display if line.strip()]
        self.seen.extend(line for line in now if line not in self._last)
        self._last = set(now)

    def flush(self):
        pass

    def text(self):
        return "\n".join(line.rstrip() for line in self.screen.display)


@pytest.fixture
def played(rig_dir, pico_image, tmp_path):
    """`python -m rig play` for Ada and Ben, 10 s days, into a fresh history."""
    from rig.rp2emu import Emulator

    db = str(tmp_path / "history.sqlite3")
    env = dict(os.environ, TERM="xterm-256color", COLUMNS=str(COLS), LINES=str(ROWS))
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "rig", "play", "--players", "Ada,Ben", "--duration", "0:10", "--db", db],
        cwd=ROOT,
        env=env,
        dimensions=(ROWS, COLS),
        timeout=WAIT_S,
    )
    term = Terminal()
    child.logfile_read = term
    board = None
    try:
        child.expect(r"rig control channel: (\S+)")
        board = Emulator.attach(child.match.group(1).decode())
        yield child, term, board, db
    finally:
        if board is not None:
            board.close()
        if child.isalive():
            child.sendintr()
            child.expect(pexpect.EOF, timeout=30)
        child.close()


def wait_shown(child, term, text, since):
    """Until a line shown after the `since`-th one holds `text` (the screen as the player sees
    it, whatever escape sequences drew it)."""
    end = time.monotonic() + WAIT_S
    while not any(text in line for line in term.seen[since:]):
        assert time.monotonic() < end, "%r not shown; the screen:\n%s" % (text, term.text())
        try:
            child.read_nonblocking(65536, timeout=0.5)
        except pexpect.TIMEOUT:
            pass
    return len(term.seen)


def press(board, button, at, hold_ms=80):
    from presstime.device.boards import pico

    pin = pico.CONTROL_PIN if button < 0 else pico.PLAYER_PINS[button]
    for level, t in ((0, at), (None, at + hold_ms * MS)):
        # the board runs on while the command travels: it must still be ahead of the chip
        assert not board.set(pin, level, at=t).get("late"), "a press came too late to schedule"


def test_play_a_whole_game_on_the_emulated_board(played):
    child, term, board, db = played
    for day, first in enumerate(FIRST):
        mark = wait_shown(child, term, "ready 0/2", len(term.seen) if day else 0)  # ready check
        start = board.now() + 500 * MS
        press(board, -1, start)  # the control button starts the day
        press(board, first, start + GO_NS)
        press(board, 1 - first, start + GO_NS + 700 * MS)
        child.expect("Breaking News card")
        assert any("round over: everybody printed" in line for line in term.seen[mark:])
        child.sendline("")  # no card
        typed = 0
        while True:
            i = child.expect(
                [
                    "\u00b7 (Ada|Ben) \u00b7 [^\r\n]*: ".encode(),
                    ("After round %d: ([^\r\n]*)" % (day + 1)).encode(),
                ]
            )
            if i == 1:
                break
            child.sendline(NUMBERS[child.match.group(1).decode()])
            typed += 1
        assert typed == 16  # 8 numbers for each of the two players
        after = child.match.group(1).decode()
        assert re.match(r"Ada \d+ \(\$\d+\), Ben \d+", after), after
    child.expect("Enter: the final table")  # the winner, full screen, until Enter
    child.sendline("")
    child.expect(r"Saved as game (\d+) in the history\.")
    gid = int(child.match.group(1))
    child.expect(r"Same players again\? \[y/N\] ")
    child.sendline("")  # no: the evening ends here
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, term.text()

    # the game in the history, its days as the board measured them
    with Store(db) as store:
        [(got, record)] = store.games()
    assert got == gid and record["players"] == ["Ada", "Ben"]
    names = ["Ada", "Ben"]
    assert [r["finish"] for r in record["rounds"]] == [[names[f], names[1 - f]] for f in FIRST]
    for r in record["rounds"]:
        first, second = r["finish"]
        assert r["table"]["end"] == "all printed"
        # the board stamped the two presses 700 ms of its own time apart
        assert abs(r["table"]["print_ms"][second] - r["table"]["print_ms"][first] - 700) <= 2

    # what the player saw at the end: the standings and the winner the history has
    [winner] = records.tally(record)["winners"]
    assert any(line.strip().startswith("Winner: %s" % winner) for line in term.seen)
    assert any("\u2605 %s WINS \u2605" % winner in line for line in term.seen)
    shown = "\n".join(term.seen)
    assert "\\u001b" not in shown  # no screen code printed as text
