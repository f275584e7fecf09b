"""A whole game scored on a board's own screen and knob (device/entry.py), on the fake port:
the helpers of tests/test_board_entry.py.

    b = Board(game, players)       an App on ScreenPort (a fake port with a screen and a knob)
                                   with a MemJournal
    b.play_round()                 the round played to its summary (the game's own way)
    b.score()                      the knob turned: the round's questions start
    b.answer(value)                the knob turned to `value`, then pressed (a refused value
                                   leaves the question asked, with the core's reason shown)
    b.next()                       the control button: the next round, or the game over
    b.records()                    the journal's records [(seq, payload)]
"""

from presstime.device.app import App
from presstime.device.memstore import MemJournal
from presstime.device.ports.fake_screen import ScreenPort

SETUPS = {
    "fit-to-print": {"mode": "standard"},
    "heat": {"mode": "ready-reveal"},
    "mini-fits": {"mode": "ready-reveal"},
    "myth-fits": {"mode": "turns"},
}


class Board:
    def __init__(self, game, players, journal=None):
        self.game = game
        self.players = players
        self.port = ScreenPort(players=len(players))
        self.journal = journal if journal is not None else MemJournal()
        self.app = App(self.port, self.journal)
        self._entry = self.app.entry.current  # (the module's is the last app's: see resume())
        if self.app.table.cfg is None:
            cfg = dict(SETUPS[game], game=game, players=list(players))
            self.app.configure(cfg)
        self.step()

    @property
    def entry(self):
        return self._entry

    @property
    def table(self):
        return self.app.table

    def resume(self):
        """This board's app drives the entry again (device/entry.py keeps the last app's)."""
        self.app.entry.current = self._entry

    def step(self, ms=10, n=1):
        for _ in range(n):
            self.port.advance(ms)
            self.app.step()

    def settle(self, ms=600):
        self.step(10, ms // 10)

    def control(self):
        self.port.tap(-1)
        self.settle()

    def back(self):
        self.port.tap(-2)
        self.settle(100)

    def key(self, seat):
        self.port.tap(seat)
        self.settle(100)

    def turn(self, d):
        self.port.turn(d)
        self.step()

    def play_round(self, photos=None):
        """Play the round to its summary: a token round (everyone presses in seat order), the
        reveals of a ready-reveal round, or a turns game (photos: {seat: tokens}; then ended
        by the control button unless a player reached the target)."""
        t = self.table
        if t.mode == 5:  # ready-reveal
            while t.phase != 6:
                self.control()
            return
        if t.mode == 6:  # turns
            self.control()  # go
            for seat, n in sorted((photos or {}).items()):
                for _ in range(n):
                    self.port.hold(seat, ms=1000)
                    self.settle(1200)
            if t.phase != 6:
                self.control()
            return
        self.control()
        self.settle(3200)
        for seat in range(t.n):
            self.port.tap(seat)
            self.settle(100)
        self.settle(600)
        assert t.phase == 6, t.status()["phase"]

    def score(self):
        """A knob's turn in the summary: the players score the round (its first turn starts
        the questions; without it the knob's press is the next round, as before)."""
        self.turn(1)

    def answer(self, value):
        """Turn the knob to `value` (a number, True/False, a seat or -1) and press it."""
        e = self.entry
        assert e.asking(), self.port.lines
        self.turn(int(value) - e.v)
        self.control()

    def next(self):
        self.control()

    def records(self):
        return self.journal.records(0)
