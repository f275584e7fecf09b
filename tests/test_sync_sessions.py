"""The law of sync (issue 22): what the board played, the desktop keeps.

Random sessions on the board's own App (device/app.py, in-process on a fake port and a fake
flash) in every game — Fit to Print in each of its modes, Heat, Mini FITS, Myth Fits — with
presses, long presses, pauses, undo, abort anywhere (in a summary too), waits, power cuts that
tear the journal's write, and restarts. Then sync: the journal is rebuilt into games and
drafted, and every game the table finished is completed with valid scorepad numbers and stored.
The law: every rebuilt game has the rounds the table itself went past (with the finishing orders,
times, ties, reveals and photo tokens its summary showed), every finished game stores, and the
stored record carries those same rounds.

A few seconds by default; `-m hunt` runs the long hunt (or PRESSTIME_HYPOTHESIS=thorough).
"""

import os
import tempfile

import pytest
from hypothesis import HealthCheck, event, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from journal_fakes import FakeFS, PowerCut
from presstime.core.table import OVER, SUMMARY
from presstime.device.app import App
from presstime.device.journal import Journal
from presstime.device.ports.fake import FakePort
from presstime.history.keeping import store_board_games
from presstime.history.store import Store
from presstime.sync import rebuild
from presstime.tableside.play_demo import Demo

NAMES = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay"]
CONTROL = -1
STEP_MS = 10


def _setup(game, mode, n, **options):
    options.setdefault("duration_ms", 10000)
    return {"game": game, "mode": mode, "players": NAMES[:n], "options": options}


SETUPS = st.one_of(
    st.builds(
        lambda n, grace, two, fb: _setup(
            "fit-to-print", "standard", n, grace_ms=grace, two_step=two, grace_fallback=fb
        ),
        st.integers(2, 4),
        st.sampled_from([0, 2000]),
        st.booleans(),
        st.sampled_from(["seat", "rotate"]),
    ),
    st.builds(lambda: _setup("fit-to-print", "solo", 1)),
    st.builds(
        lambda mode, n: _setup("fit-to-print", mode, n),
        st.sampled_from(["family", "puzzle", "turn-based"]),
        st.integers(2, 4),
    ),
    st.builds(lambda n: _setup("heat", "ready-reveal", n, steps=2), st.integers(3, 5)),
    st.builds(lambda n: _setup("mini-fits", "ready-reveal", n, cards=2), st.integers(1, 4)),
    st.builds(
        lambda n, turn: _setup("myth-fits", "turns", n, turn_ms=turn),
        st.integers(2, 4),
        st.sampled_from([0, 5000]),
    ),
)


class Sessions(RuleBasedStateMachine):
    """One board, its flash, and what the table showed the players."""

    def __init__(self):
        RuleBasedStateMachine.__init__(self)
        self.fs = FakeFS()
        self.played = []  # per game set up: {"cfg", "rounds": [the summaries the table went past]}
        self.dir = tempfile.TemporaryDirectory()
        self.store = Store(os.path.join(self.dir.name, "h.sqlite3"))
        self.boot()

    def boot(self):
        """Power on: a new App on what the flash holds (a fresh clock, as a real boot)."""
        fs = self.fs
        fs.dead, fs.budget = False, -1
        self.port = FakePort(players=6, pixels=12)
        self.app = App(
            self.port,
            Journal(
                "journal.bin",
                opener=fs.open,
                remove=fs.remove,
                rename=fs.rename,
                listdir=fs.listdir,
            ),
        )
        self.seen = -1
        if self.played:
            self.watch()

    def run(self, ms):
        """Let the board's loop run for `ms`, watching the table's every version."""
        end = self.port.now_ms() + ms
        while self.port.now_ms() < end:
            self.port.advance(STEP_MS)
            self.app.step()
            if self.app.table.version != self.seen:
                self.watch()

    def watch(self):
        """The players' view: a summary they went past (next: the round index moved on, or the
        game is over) is a played round; a power cut takes back what the flash had not kept."""
        t = self.app.table
        self.seen = t.version
        if t.cfg is None:
            return
        game = self.played[-1]
        went_past = t.round + (1 if t.phase == OVER else 0)
        del game["rounds"][went_past:]  # a cut came back to an earlier state
        if t.phase == SUMMARY:
            game["showing"] = rebuild.round_of(t.status(), t.step)
        elif len(game["rounds"]) < went_past and game.get("showing"):
            game["rounds"].append(game.pop("showing"))
        if t.phase != SUMMARY:
            game.pop("showing", None)
        game["over"] = t.phase == OVER
        game["photos"] = list(t.photos)

    # ---- the players --------------------------------------------------------------------
    @initialize(cfg=SETUPS)
    def set_up(self, cfg):
        self.configure(cfg)

    @rule(cfg=SETUPS, midway=st.integers(0, 5))
    def set_up_another_game(self, cfg, midway):
        """A new game: after the last one ended, or now and then in the middle of one."""
        if self.app.table.phase == OVER or midway == 0:
            self.configure(cfg)

    def configure(self, cfg):
        self.app.configure(cfg)
        self.played.append({"cfg": cfg, "rounds": [], "over": False})
        self.watch()
        self.run(50)

    @rule(p=st.integers(0, 5), ms=st.sampled_from([80, 80, 80, 900]))
    def press(self, p, ms):
        self.port.tap(p, at_ms=self.port.now_ms() + 1, ms=ms)
        self.run(ms + 60)

    @rule(order=st.permutations(range(6)), gap=st.integers(0, 400))
    def everyone_presses(self, order, gap):
        t0 = self.port.now_ms() + 1
        for i, p in enumerate(order):
            self.port.tap(p, at_ms=t0 + i * gap)
        self.run(6 * gap + 150)

    @rule(times=st.integers(1, 20), gap=st.integers(0, 300))
    def play_on(self, times, gap):
        """What a table does to get on with the game, `times` over: start, resume, press to
        print or to be ready, take a photo token, end a turn game, go to the next round."""
        for _ in range(times):
            t = self.app.table
            phase = t.status()["phase"]
            if t.cfg is None or phase == "over":
                return
            if phase in ("countdown", "grace"):
                self.run(1000)
            elif phase == "running" and t.mode == 6:  # turns: a photo token
                self.press(t.turn, 900)
            elif phase == "running" and t.mode == 4:  # turn-based: the table ends it
                self.control()
            elif phase == "running" or (phase == "ready" and t.mode == 5):
                self.everyone_presses(list(range(t.n)), gap)
            else:
                self.control()

    @rule()
    def control(self):
        self.port.tap(CONTROL, at_ms=self.port.now_ms() + 1)
        self.run(600)

    @rule()
    def undo(self):
        t0 = self.port.now_ms() + 1
        self.port.tap(CONTROL, at_ms=t0)
        self.port.tap(CONTROL, at_ms=t0 + 200)
        self.run(800)

    @rule()
    def pause_or_resume(self):
        self.port.hold(CONTROL, at_ms=self.port.now_ms() + 1, ms=1700)
        self.run(1800)

    @rule()
    def abort(self):
        self.port.hold(CONTROL, at_ms=self.port.now_ms() + 1, ms=5200)
        self.run(5300)

    @rule(ms=st.sampled_from([200, 1000, 3500, 12000]))
    def wait(self, ms):
        self.run(ms)

    @rule(units=st.integers(0, 60), ms=st.integers(0, 400))
    def power_cut(self, units, ms):
        """The power goes `ms` from now, tearing the flash's work after `units` of it."""
        self.fs.budget = units
        try:
            self.run(ms)
        except PowerCut:
            pass
        self.boot()

    @rule()
    def restart(self):
        self.run(1000)  # everything written: the round's quiet spell is over
        self.boot()

    @rule()
    def sync_midway(self):
        """A sync while the table plays: what the journal holds so far becomes drafts."""
        self.sync()

    def sync(self):
        """What `presstime sync` does with the board's journal: (rebuilt games, summaries)."""
        records = self.app.journal.records(0)
        self.store.add_journal("b", records)
        damaged = []
        rebuilt = rebuild.games_from_journal(self.store.journal("b"), damaged)
        assert damaged == []
        return rebuilt, store_board_games(self.store, "b", rebuilt)

    # ---- then sync, and finish every game the table finished ------------------------------
    def teardown(self):
        try:
            self.check()
        finally:
            self.store.close()
            self.dir.cleanup()

    def check(self):
        self.run(1000)
        rebuilt, summaries = self.sync()
        assert len(rebuilt) == len(self.played)
        for game, seen, summary in zip(rebuilt, self.played, summaries):
            want = seen["rounds"] + ([seen["showing"]] if seen.get("showing") else [])
            assert game["rounds"] == want
            assert game["over"] == seen["over"]
            assert "problem" not in summary, summary["problem"]
            if seen["cfg"]["game"] in ("fit-to-print", "mini-fits"):  # the draft: those rounds
                assert len(self.store.load_draft(summary["draft"])["rounds"]) == len(want)
            event(
                "%s %s: %s"
                % (
                    seen["cfg"]["game"],
                    seen["cfg"]["mode"],
                    "finished" if seen["over"] else "%d rounds" % len(want),
                )
            )
            if seen["over"]:
                self.finish(self.store, summary["draft"], game, seen)

    def finish(self, store, key, game, seen):
        """The draft completed with valid numbers, as `enter --draft` would, then stored."""
        record = store.load_draft(key)
        kind = record["game"]
        if kind == "fit-to-print":
            numbers = Demo(7)
            for i in range(len(record["rounds"])):
                numbers.fill(record, i)
        else:
            numbers = Demo(7)
            for i in list(range(len(game["rounds"]))) + [None]:
                numbers.fill(record, i)
            if kind == "myth-fits" and game["winner"] is None:
                record["gathered"] = record["players"][0]
        game_id = store.add_game(record, key)
        state, _, _, error = store.result(game_id)
        assert state == "complete", error
        stored = store.get_game(game_id)
        if kind in ("fit-to-print", "mini-fits"):
            assert len(stored["rounds"]) == len(seen["rounds"])
            for rnd, want in zip(stored["rounds"], seen["rounds"]):
                assert rnd.get("finish", []) == want["finish"]
                if kind == "fit-to-print":
                    assert rnd["table"] == rebuild.table_block(want)
        if kind == "myth-fits":
            assert list(stored["photo_tokens"].values()) == seen["photos"]


THOROUGH = os.environ.get("PRESSTIME_HYPOTHESIS") == "thorough"
Sessions.TestCase.settings = settings(
    max_examples=1000 if THOROUGH else 25,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestSyncSessions = Sessions.TestCase
TestSyncSessions.pytestmark = [pytest.mark.slow]


@pytest.mark.hunt
def test_sync_sessions_long_hunt():
    from hypothesis.stateful import run_state_machine_as_test

    run_state_machine_as_test(
        Sessions,
        settings=settings(
            max_examples=400,
            stateful_step_count=60,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
