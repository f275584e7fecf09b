"""A game scored on the Pico alone (issue 27), on the official MicroPython v1.28.0 (RPI_PICO) in
the emulated RP2040, with the build's optional SSD1306 OLED on I2C and rotary encoder
(boards/pico.py, ports/rp2_screen.py): the rig answers as the OLED at 0x3C (rig/oled.mjs), so
the firmware finds it at boot. The same game as the MacroPad's (tests/test_rig_board_entry.py):
Mini FITS, 2 players, its 2 rounds, configured over the USB serial link; the players press
their buttons, the numbers are turned in with the knob and confirmed with its press while the
I2C frames are read back as text in MicroPython's framebuf font; a refused number shows the
core's reason; the back key goes to the question before; the round's scores and "won: Ada"
appear. Then sync's own code pulls the journal and the stored game must equal the same numbers
typed with `enter`. A second test scores a 3-player, 3-round Heat game (yes/no, heat and money
questions, the game's end), a 3-player Myth Fits game (photo tokens by holds, who gathered: a
player question) and a 2-player Fit to Print game (3 timed days, each day's Breaking News card
(none) and 48 numbers) the same way, screen by screen against the firmware's own App on the fake
port with a screen of the Pico's size (16 x 8): every screen the Pico shows after a turn or a
press is the simulator's.

With PRESSTIME_SCREENS=DIR the question, refusal, round scores and winner screens are saved
there as PNGs (docs/img/pico-entry-*.png are made so):

    PRESSTIME_RP2EMU=/tmp/rp2emu PRESSTIME_SCREENS=docs/img \\
        python -m pytest tests/test_rig_pico_entry.py
"""

import os

import pytest

from board_entry import SETUPS, Board
from presstime.core import entry as core_entry
from presstime.device.boards import pico as pico_board
from presstime.device.ports.fake_screen import ScreenPort
from presstime.history.store import Store
from rig.knob_entry import (
    MINI_FITS_NUMBERS,
    Knob,
    play_timed_round,
    play_to_summary,
    play_turns,
    walk_mini_fits,
)
from rig.macropad_games import split_games
from rig.pico import EmulatedPico
from rig.rp2emu import MS
from test_board_entry import _typed, _value, stored_as_enter_stores_it


class PicoGame:
    """What play_to_summary needs of a game, on the Pico: its status and the players' buttons
    (times in ms of the rig's timeline)."""

    def __init__(self, pico, client, cfg):
        self.pico = pico
        self.client = client
        client.configure(cfg)

    def status(self):
        return self.client.status()

    def now_ms(self):
        return self.pico.now() / MS

    def press(self, seat, at_ms=None, in_ms=None, hold_ms=80):
        """A player's button (-1: the control button) at a rig instant in ms (or in_ms from
        now); that instant."""
        if at_ms is None:
            at_ms = self.now_ms() + (in_ms or 0)
        self.pico.press(seat, at=int(at_ms * MS), hold_ms=hold_ms)
        return at_ms

    def control(self, at_ms=None, in_ms=None, hold_ms=80):
        return self.press(-1, at_ms, in_ms, hold_ms)

    def run_to(self, ms):
        left = int(ms * MS - self.pico.now())
        if left > 0:
            self.pico.run(left)


@pytest.fixture
def pico(rig_dir, pico_image):
    p = EmulatedPico.start(rig_dir, pico_image, pty=False, paused=True, oled=True)
    try:
        p.boot()
        yield p
    finally:
        p.close()


def save(frame, name):
    d = os.environ.get("PRESSTIME_SCREENS")
    if d:
        frame.save_png(os.path.join(d, "pico-entry-%s.png" % name))


@pytest.mark.slow
def test_a_mini_fits_game_scored_on_the_pico_alone(pico, tmp_path):
    client = pico.client()
    knob = Knob(pico)
    knob.wait("no game set up", after=0)  # the screen found at boot: the entry's first lines
    game = PicoGame(pico, client, {"game": "mini-fits", "players": ["Ada", "Ben"]})
    typed = walk_mini_fits(pico, knob, game, save, over="round %d/2 over")
    assert client.status()["phase"] == "over"

    from presstime.sync.journal import pull

    with Store(str(tmp_path / "h.db")) as store:
        board_id, _ = pull(client, store)
        records = split_games(store.journal(board_id))[-1]
    # one SCORE a confirm: Ada's round-2 lines twice (confirmed again after the back key)
    assert sum(1 for _, p in records if p[0] == core_entry.SCORE) == len(MINI_FITS_NUMBERS) + 1
    stored = stored_as_enter_stores_it(records, typed, tmp_path)
    assert [r["players"]["Ada"] for r in stored["rounds"]] == [
        {"lines": 5},
        {"lines": 4, "colour_sets": 1},
    ]


def _lines(lines):
    return [x.strip() for x in lines if x.strip()]


def wait_lines(pico, screen, want, after, max_ms=3000, quiet_ms=800):
    """The first frame ending after `after` whose text lines (blank ones left out) are `want`'s;
    or, when no frame came for quiet_ms (the screen did not change), the last one if it has
    them."""
    want = _lines(want)
    t0 = pico.now()
    while True:
        new = [f for f in screen.poll()]
        for f in new:
            if f.end > after and _lines(f.text()) == want:
                return f
        last = screen.frames[-1] if screen.frames else None
        quiet = last is None or last.end <= after
        if quiet and pico.now() - t0 >= quiet_ms * MS and last and _lines(last.text()) == want:
            return last
        if pico.now() - t0 >= max_ms * MS:
            raise AssertionError(
                "the Pico's screen is not the simulator's: want %r, last %r"
                % (want, last and _lines(last.text()))
            )
        pico.run(5 * MS)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name,players,photos",
    [
        ("heat", ["Ada", "Ben", "Cy"], None),
        ("myth-fits", ["Ada", "Ben", "Cy"], {0: 1, 1: 2}),
        ("fit-to-print", ["Ada", "Ben"], None),
    ],
)
def test_a_game_scored_on_the_pico_shows_the_simulators_screens(
    name, players, photos, pico, tmp_path, monkeypatch
):
    # the simulator: the firmware's App on the fake port, with the Pico's screen size
    monkeypatch.setattr(ScreenPort, "screen_cols", pico_board.SCREEN_COLS)
    monkeypatch.setattr(ScreenPort, "screen_lines", pico_board.SCREEN_LINES)
    sim = Board(name, players)
    client = pico.client()
    screen = pico.screen()
    game = PicoGame(pico, client, dict(SETUPS[name], game=name, players=list(players)))

    def act(rig_action, sim_action):
        t = pico.now()
        sim_action()
        rig_action(at=pico.now() + 20 * MS)
        return wait_lines(pico, screen, sim.port.lines, after=t)

    typed = []
    asked = []

    def answer_all():
        """Every question the simulator asks now, the same number turned in on both."""
        while sim.entry.asking():
            q = sim.entry.q
            value = _value(q[2], q[3], len(asked))  # (test_board_entry's numbers, in order)
            asked.append(q)
            typed.append(_typed(q[3], value, players))
            d = int(core_entry.number(q[3], value, players)) - sim.entry.v
            if d:
                act(lambda at, d=d: pico.turn(d, at=at), lambda d=d: sim.turn(d))
            act(pico.press_knob, sim.control)

    for _ in range(sim.table.cfg["rounds"]):
        t = pico.now()
        if name == "fit-to-print":  # a timed round: started, every player prints
            sim.play_round()
            play_timed_round(game)  # (the day's Breaking News card asked first: none)
        elif photos is None:
            sim.play_round()
            play_to_summary(game)
        else:  # a turns game: the photo tokens taken by holds, then the control button
            sim.play_round(photos=photos)
            play_turns(game, photos)
        wait_lines(pico, screen, sim.port.lines, after=t)
        act(lambda at: pico.turn(1, at=at), sim.score)
        answer_all()
        act(pico.press_knob, sim.next)  # the next round, or the game's end questions
    answer_all()
    assert sim.table.phase == 7 and client.status()["phase"] == "over"
    assert sim.port.lines[0].startswith("won: ") or sim.port.lines[0] == "no winner"

    from presstime.sync.journal import pull

    with Store(str(tmp_path / "h.db")) as store:
        board_id, _ = pull(client, store)
        records = split_games(store.journal(board_id))[-1]
    stored_as_enter_stores_it(records, typed, tmp_path)
    # the same numbers confirmed on the Pico as on the simulator
    from presstime.sync.rebuild import games_from_journal

    board = games_from_journal(records)[-1]["numbers"]
    assert board == games_from_journal(sim.records())[-1]["numbers"]
    assert len(board) == len(asked)
