"""Journal event codec: every kind round-trips, bad bytes give ValueError only; the set-up
normaliser names the field it refuses."""

import sys

import pytest
from hypothesis import given, strategies as st

from mpy import FIRMWARE

sys.path.insert(0, FIRMWARE)

from presstime.core import events as E  # noqa: E402
from presstime.core.entry import SCORE  # noqa: E402
from presstime.core.table import Table, normalise  # noqa: E402

u8 = st.integers(0, 255)
u32 = st.integers(0, 0xFFFFFFFF)


def test_every_kind_round_trips():
    cfg = normalise(
        {
            "players": [{"name": "Ada", "colour": [1, 2, 3]}, "Bén"],
            "mode": "turns",
            "options": {"turn_ms": 45000},
        }
    )
    evs = [
        (E.CONFIG, cfg),
        (E.READY, 1, 1),
        (E.START, 123),
        (E.GO, 3123),
        (E.PRESS, 2, 3, E.F_TIE | E.F_LATE, 123456789),
        (E.TIMEOUT,),
        (E.FORCE,),
        (E.END, E.END_GRACE, 185000),
        (E.PAUSE, 1000),
        (E.RESUME, 77),
        (E.UNDO,),
        (E.ABORT,),
        (E.NEXT,),
        (E.CUT, 46000),
        (E.REVEAL,),
        (E.TURN, 1, 30000, 90000),
        (E.PHOTO, 0, 91000),
        (SCORE, 2, 1, -7, "centerpiece"),
    ]
    kinds = set()
    for ev in evs:
        b = E.encode(ev)
        assert E.decode(b) == ev
        kinds.add(ev[0])
        assert E.name(ev[0]) != "?"
    assert kinds == set(range(1, len(E.NAMES)))
    assert len(E.encode((E.PRESS, 0, 1, 0, 5))) == 8


def test_config_with_six_long_names_fits_a_journal_record():
    names = [("N%d" % i) * 8 for i in range(6)]  # 24 bytes each
    cfg = normalise({"players": names, "mode": "standard"})
    assert len(E.encode((E.CONFIG, cfg))) <= 255


@given(st.tuples(u8, u8, u8, u32))
def test_press_round_trip(t):
    ev = (E.PRESS,) + t
    assert E.decode(E.encode(ev)) == ev


@given(st.binary(max_size=64))
def test_decode_garbage_only_value_error(data):
    try:
        E.decode(data)
    except ValueError:
        pass


def test_replay_takes_bytes_or_tuples():
    t = Table()
    t.configure({"players": 2}, 0)
    t.start(0)
    t.tick(3000)
    t.press(1, 4000000)
    evs = t.drain()
    a = E.replay(evs).status(5000)
    b = E.replay([E.encode(e) for e in evs]).status(5000)
    live = t.status(5000)
    assert live.pop("undo") is True  # undo is offered live only, never after a reboot
    assert a.pop("undo") is False and b.pop("undo") is False
    assert a == b == live


@pytest.mark.parametrize(
    "cfg, words",
    [
        ({"players": 7}, "1 to 6 players"),
        ({"players": 2, "mode": "solo"}, "solo"),
        ({"players": 5, "mode": "turns"}, "2 to 4"),
        ({"players": 2, "duration_ms": 5}, "duration_ms"),
        ({"players": 2, "options": {"grace_fallback": "random"}}, "grace_fallback"),
        ({"players": [{"name": "A", "colour": "red"}]}, "players[0]"),
        ({"players": ["x" * 30]}, "24 bytes"),
        ({"players": 2, "edition": "third"}, "edition"),
        ({"players": 2, "options": {"two_step": "yes"}}, "two_step"),
        ("nope", "object"),
        ({"players": 2, "mode": "ready-reveal", "game": "heat"}, "heat takes 3 to 5"),
        ({"players": 6, "mode": "ready-reveal", "game": "heat"}, "heat takes 3 to 5"),
        ({"players": 5, "mode": "ready-reveal", "game": "mini-fits"}, "mini-fits takes 1 to 4"),
        ({"players": 3, "mode": "turns", "game": "heat"}, "not played in mode"),
        ({"players": 3, "mode": "ready-reveal", "game": "myth-fits"}, "not played in mode"),
        ({"players": 3, "mode": "standard", "game": "heat"}, "not played in mode"),
    ],
)
def test_configure_errors_name_the_field(cfg, words):
    t = Table()
    with pytest.raises(ValueError) as e:
        t.configure(cfg)
    assert words in str(e.value)
    assert t.version == 0 and list(t.drain()) == []


def test_version_counts_every_state_change():
    t = Table()
    t.configure({"players": 2, "duration_ms": 60000})
    v = t.version
    assert t.press(0, 1000) and t.version == v + 1
    assert not t.pause(2000) and t.version == v + 1  # refused: nothing changes
    t.tick(2500)
    assert t.version == v + 1
