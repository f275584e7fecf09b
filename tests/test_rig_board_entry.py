"""A game scored on the MacroPad alone (issue 27), on the official CircuitPython 10.2.1 in the
emulated RP2040: Mini FITS (the game whose face asks fewest numbers: complete lines, and colour
sets in round 2; Heat takes 3 players at least), 2 players, its 2 rounds. The board is
configured over usb_cdc.data, the players press their keys, and the numbers are turned in with
the knob and confirmed with its press while the OLED is read back as text (rig/oled.py); a
refused number shows the core's reason; the back key goes to the question before; the round's
scores and "won: Ada" appear. Then sync's own code pulls the journal and the stored game must
equal the same numbers typed with `enter` (tests/test_board_entry.py's comparison).

With PRESSTIME_SCREENS=DIR the question, refusal, round scores and winner screens are saved
there as PNGs (docs/img/board-entry-*.png are made so):

    PRESSTIME_RP2EMU=/tmp/rp2emu PRESSTIME_SCREENS=docs/img \\
        python -m pytest tests/test_rig_board_entry.py
"""

import os

import pytest

from presstime.core import entry as core_entry
from rig.macropad import EmulatedMacropad
from rig.macropad_games import Game, split_games
from rig.rp2emu import MS
from test_board_entry import stored_as_enter_stores_it
from test_rig_macropad_games import synced

# (round, player, question's words on the screen, value); Ada's first is refused first
NUMBERS = [
    (1, "Ada", "complete lines", 5),
    (1, "Ben", "complete lines", 2),
    (2, "Ada", "complete lines", 4),
    (2, "Ada", "colour sets", 1),
    (2, "Ben", "complete lines", 3),
    (2, "Ben", "colour sets", 0),
]


@pytest.fixture
def pad(rig_dir, macropad_image):
    p = EmulatedMacropad.start(rig_dir, macropad_image, paused=True, oled=True)
    try:
        p.run(3500 * MS)
        p.call(lambda c: c.hello())
        yield p
    finally:
        p.close()


def save(frame, name):
    d = os.environ.get("PRESSTIME_SCREENS")
    if d:
        frame.save_png(os.path.join(d, "board-entry-%s.png" % name))


def play_to_summary(game):
    """A ready-reveal round: each player not ready presses a key, until the summary."""
    for _ in range(30):
        st = game.status()
        now = game.now_ms()
        if st["phase"] == "summary":
            return st
        t = now + 50
        for i, p in enumerate(st["players"]):
            if p["state"] != "ready":
                game.press(i, at_ms=t)
                t += 70
        game.run_to(t + 200)
    raise AssertionError("no summary: %r" % game.status())


class Knob:
    """The knob turned and pressed on the rig, the screen read after each."""

    def __init__(self, pad):
        self.pad = pad
        self.screen = pad.screen()
        self.value = 0

    def wait(self, text, max_ms=3000, after=None):
        """The first frame ending after `after` (default: now) that shows `text`."""
        after = self.pad.now() if after is None else after
        return self.screen.wait_for(text, max_ns=max_ms * MS, after=after)

    def turn(self, steps, then):
        if steps == 0:
            return self.screen.last()
        self.pad.turn(steps, at=self.pad.now() + 20 * MS)
        self.value += steps
        return self.wait(then)

    def to(self, value):
        return self.turn(value - self.value, "> %d" % value)

    def press(self, then, taken=True):
        """The knob's press: taken ~0.4 s after its release (the control button's short press);
        a number taken, the next question starts at 0 (a refused one stays)."""
        self.pad.press_knob(at=self.pad.now() + 20 * MS)
        if taken:
            self.value = 0
        return self.wait(then)


@pytest.mark.slow
def test_a_mini_fits_game_scored_on_the_macropad_alone(pad, tmp_path, capsys):
    cfg = {"game": "mini-fits", "players": [{"name": "Ada"}, {"name": "Ben"}]}
    game = Game(pad, cfg)
    knob = Knob(pad)
    typed = []
    for rnd in (1, 2):
        t = pad.now()
        play_to_summary(game)
        knob.wait("turn the knob", after=t)
        # the first turn starts the round's questions (the value stays 0)
        shown = knob.turn(1, "round %d Ada" % rnd)
        knob.value = 0
        lines = [x.strip() for x in shown.text()]
        assert lines[0] == "round %d Ada" % rnd and "> 0" in lines, lines
        if rnd == 1:
            assert "complete lines" in lines, lines
            save(shown, "question")
            knob.to(-1)
            shown = knob.press("must be 0 to 10", taken=False)
            assert shown.says("round 1 Ada") and shown.says("> -1"), shown.text()
            save(shown, "refused")
        numbers = [n for n in NUMBERS if n[0] == rnd]
        for k, (r, name, words, value) in enumerate(numbers):
            assert shown.says("round %d %s" % (r, name)) and shown.says(words), shown.text()
            knob.to(value)
            typed.append(str(value))
            if (r, k) == (2, 0):
                # confirmed, then the back key: the question before, its number shown; the
                # knob's press confirms it again (the SCORE replaced, the same number)
                shown = knob.press("colour sets")
                pad.press_back(at=pad.now() + 20 * MS)
                shown = knob.wait("> %d" % value)
                assert shown.says("round 2 Ada") and shown.says("complete lines"), shown.text()
                knob.value = value
            if k + 1 < len(numbers):
                shown = knob.press("round %d %s" % numbers[k + 1][:2])
            else:
                shown = knob.press("round %d scores" % r)
        assert shown.says("Ada") and shown.says("Ben"), shown.text()
        if rnd == 1:
            assert shown.says("Ada 5 (+5)") and shown.says("Ben 2 (+2)"), shown.text()
            save(shown, "scores")
            knob.press("round 2")  # the next round
    won = knob.press("won: Ada")
    save(won, "winner")
    assert game.status()["phase"] == "over"

    records = split_games(synced(pad, tmp_path, capsys))[-1]
    # one SCORE a confirm: Ada's round-2 lines twice (confirmed again after the back key)
    assert sum(1 for _, p in records if p[0] == core_entry.SCORE) == len(NUMBERS) + 1
    stored = stored_as_enter_stores_it(records, typed, tmp_path)
    assert [r["players"]["Ada"] for r in stored["rounds"]] == [
        {"lines": 5},
        {"lines": 4, "colour_sets": 1},
    ]
