"""One judge of a round's fate: the core's round machine (Table.apply) decides which journal
events it takes, on the board (device App._replay at boot) and on the desktop (sync's
rebuild.games_from_journal). An event it cannot apply raises ValueError and changes nothing, so
a bad journal never stops a board from booting, and what the board's machine shows after a boot
is what the desktop rebuilds from the same records. (The refused events one by one, under
CPython and MicroPython: tests/vectors/table/bad_events*.json.)"""

import copy
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mpy import FIRMWARE

sys.path.insert(0, FIRMWARE)

from presstime.core import events as E  # noqa: E402
from presstime.core.table import OVER, SUMMARY, Table  # noqa: E402
from presstime.device.app import App, MemJournal  # noqa: E402
from presstime.device.ports.fake import FakePort  # noqa: E402
from presstime.sync import damage, rebuild  # noqa: E402

SETUPS = [
    {"players": ["Ada", "Ben", "Cy"], "mode": "standard", "duration_ms": 20000},
    {
        "players": ["Ada", "Ben"],
        "mode": "standard",
        "duration_ms": 20000,
        "options": {"two_step": True},
    },
    {"players": ["Ada", "Ben"], "mode": "puzzle"},
    {"game": "heat", "players": ["Ada", "Ben", "Cy"]},
    {"game": "myth-fits", "players": ["Ada", "Ben"]},
    {"game": "mini-fits", "players": ["Ada", "Ben"]},
]


def boot(payloads):
    """The board booting on a journal holding `payloads`: (its App, the journal after the boot,
    which holds what the boot's power-cut recovery wrote too)."""
    j = MemJournal()
    for p in payloads:
        j.append(p)
    return App(FakePort(players=6), j), j


def game_started():
    t = Table()
    t.configure(SETUPS[0], 0)
    t.control(0)
    t.tick(3000)
    return t


def test_a_board_boots_on_a_press_for_a_seat_the_game_does_not_have():
    """Old firmware: IndexError at boot (a board that could never start again)."""
    t = game_started()
    t.press(0, 5000000)
    good = [E.encode(ev) for ev in t.drain()]
    bad = E.encode((E.PRESS, 7, 2, 0, 6000000))
    app, _ = boot(good[:-1] + [bad] + good[-1:])
    assert app.errors == 1
    clean, _ = boot(good)
    assert app.table.status(0) == clean.table.status(0)


def test_a_refused_record_breaks_the_undo_chain_on_the_board_and_the_desktop_alike():
    """A press, a record nobody can read, an undo: what the undo would take back is unknown, so
    both refuse it (the old desktop skipped it while the old board undid the press)."""
    t = game_started()
    t.press(0, 5000000)
    payloads = [E.encode(ev) for ev in t.drain()] + [b"\x28\x01", E.encode((E.UNDO,))]
    app, j = boot(payloads)
    damaged = []
    [game] = rebuild.games_from_journal(j.records(), damaged)
    assert app.errors == len(damaged) == 2
    assert "an undo of record %d, which was skipped" % (len(payloads) - 1) in damaged[1]["why"]
    assert app.table.status(0)["players"][0]["token"] == 1  # the press stands


def test_the_desktop_words_come_from_the_machine():
    """The machine decides, with a code; the desktop only words it."""
    t = game_started()
    t.press(0, 5000000)
    t.drain()
    assert (
        damage.apply(t, (E.PRESS, 7, 1, 0, 1000))
        == "the table refuses it: a press for seat 8, but the game has 3 players"
    )
    assert (
        damage.apply(t, (E.NEXT,))
        == "the table refuses it: a next while the round is running (standard mode), "
        "which the table never does"
    )
    assert (
        damage.apply(t, (E.PRESS, 0, 2, 0, 6000))
        == "the table refuses it: a press for seat 1 (token 2, flags 0) while it is printed: "
        "not one the table makes"
    )
    assert damage.apply(t, (E.PRESS, 1, 2, 0, 6000)) is None


# ---- the laws --------------------------------------------------------------------------------

_KINDS = [
    E.READY,
    E.START,
    E.GO,
    E.PRESS,
    E.TIMEOUT,
    E.FORCE,
    E.END,
    E.PAUSE,
    E.RESUME,
    E.UNDO,
    E.ABORT,
    E.NEXT,
    E.CUT,
    E.REVEAL,
    E.TURN,
    E.PHOTO,
]
_FIELDS = {
    E.READY: 2,
    E.START: 1,
    E.GO: 1,
    E.PRESS: 4,
    E.END: 2,
    E.PAUSE: 1,
    E.RESUME: 1,
    E.CUT: 1,
    E.TURN: 3,
    E.PHOTO: 2,
}

small = st.integers(0, 7)
raw_events = st.sampled_from(_KINDS).flatmap(
    lambda k: st.tuples(
        st.just(k), *[small if i < 3 else st.integers(0, 90000) for i in range(_FIELDS.get(k, 0))]
    )
)
junk = st.tuples(st.sampled_from([0, 18, 40, 255, E.PRESS, E.PAUSE]), st.binary(max_size=2)).map(
    lambda kd: bytes((kd[0],)) + kd[1]
)  # no event: an unknown kind, or too few bytes
_OPS = (
    ["press"] * 45
    + ["control"] * 12
    + ["tick"] * 5
    + ["undo"] * 3
    + ["toggle_pause"] * 3
    + ["abort"] * 2
    + ["long"] * 8
    + ["raw"] * 14
    + ["junk"] * 8
)
commands = st.sampled_from(_OPS).flatmap(  # mostly what a table does: rounds end, games go on
    lambda op: st.tuples(
        st.just(op),
        {
            "press": st.integers(0, 3),
            "long": st.integers(0, 2),
            "raw": raw_events,
            "junk": junk,
        }.get(op, st.just(0)),
        st.integers(1, 4000),
    )
)


def journal_of(setup, steps):
    """A game's journal records: what a live table emits for random commands, with random
    events (most of which the machine refuses where they land; the table goes on from those it
    takes) and unreadable records mixed in."""
    t = Table()
    t.configure(setup, 0)
    out = [E.encode(ev) for ev in t.drain()]
    now = 0
    for op, arg, dt in steps:
        now += dt
        if op == "press":
            t.press(arg, now * 1000)
        elif op == "long":
            t.photo(arg, now)
        elif op == "tick":
            t.tick(now)
        elif op not in ("raw", "junk"):
            getattr(t, op)(now)
        out.extend(E.encode(ev) for ev in t.drain())
        if op == "raw":  # the table goes on from it when it is one it takes
            out.append(E.encode(arg))
            try:
                t.apply(arg)
            except ValueError:
                t.lost()
        elif op == "junk":
            out.append(arg)
            t.lost()
    return out


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SETUPS), st.lists(commands, min_size=15, max_size=60))
def test_the_board_shows_the_rounds_the_desktop_rebuilds(setup, steps):
    """For every prefix of a journal (valid and refused records mixed), the board booted on it
    (App._replay, then its power-cut recovery) and the desktop's rebuild of the same records
    agree: the records skipped, whether the game is over, how many rounds count, and the round
    its summary shows."""
    payloads = journal_of(setup, steps)
    for k in range(1, len(payloads) + 1):
        app, j = boot(payloads[:k])
        damaged = []
        [game] = rebuild.games_from_journal(j.records(), damaged)
        t = app.table
        assert app.errors == len(damaged), damaged
        assert game["over"] == (t.phase == OVER)
        assert len(game["rounds"]) == t.round + (1 if t.phase in (SUMMARY, OVER) else 0)
        if t.phase == SUMMARY:
            assert game["rounds"][-1] == rebuild.round_of(t.status(), t.step)


def _state(t):
    return copy.deepcopy(dict((k, v) for k, v in t.__dict__.items() if k != "face"))


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from(SETUPS),
    st.lists(commands, max_size=30),
    st.lists(raw_events, min_size=1, max_size=8),
)
def test_an_event_the_machine_refuses_changes_nothing(setup, steps, bad):
    """Anywhere in a game, an event is applied or refused with ValueError (never another
    error), and a refused one leaves the whole machine as it was."""
    t = E.replay(p for p in journal_of(setup, [s for s in steps if s[0] not in ("raw", "junk")]))
    for ev in bad:
        before = _state(t)
        try:
            t.apply(ev)
        except ValueError as e:
            assert str(e)
            assert _state(t) == before
