"""Turn-based Fit to Print's random first player: the board draws it (device/app.py, its random
source), the set-up and the CONFIG event carry it (core/config.py, core/events.py), the turn
indicator starts there and `presstime play` names who was drawn (status_text.setup_lines)."""

import sys

import pytest
from hypothesis import given, strategies as s

from mpy import FIRMWARE

sys.path.insert(0, FIRMWARE)

from presstime.core import events as E  # noqa: E402
from presstime.core.table import Table  # noqa: E402
from presstime.device import app as app_module  # noqa: E402
from presstime.device.app import App, MemJournal  # noqa: E402
from presstime.device.ports.fake import FakePort  # noqa: E402

NAMES = ["Ada", "Ben", "Cy", "Di", "Ed"]
_FLAGS = 11  # the CONFIG record's flags byte: after B kind, B mode, B n, I, H, H


def _bytes(*values):
    """A random source that hands out these bytes, one per call."""
    left = list(values)

    def urandom(k):
        assert k == 1
        return bytes((left.pop(0),))

    return urandom


@given(s.integers(2, 5), s.data())
def test_the_first_seat_rides_the_config_event_and_starts_the_turn(n, data):
    first = data.draw(s.integers(0, n - 1))
    t = Table()
    t.configure({"players": NAMES[:n], "mode": "turn-based", "first": first})
    assert t.cfg.get("first", 0) == first
    evs = t.drain()
    assert E.decode(E.encode(evs[0])) == evs[0]
    again = E.replay(E.encode(e) for e in evs)
    for table in (t, again):
        assert table.status(0)["turn"] == table.status(0)["first"] == first
        assert table.start(0)
        table.tick(5000)
        assert table.status(5000)["turn"] == first


def test_a_set_up_without_a_first_seat_encodes_as_before():
    t = Table()
    t.configure({"players": NAMES[:3], "mode": "turn-based"})
    cfg = t.drain()[0]
    assert "first" not in cfg[1] and t.status(0)["first"] == 0
    assert E.encode(cfg)[_FLAGS] == 0  # as journals before the first seat was kept
    assert "first" not in E.decode(E.encode(cfg))[1]


def test_the_draw_is_even_and_kept_to_the_table():
    # 240 and up are drawn again: 240 is a multiple of every table size, so no seat is favoured
    t = Table()
    t.configure({"players": NAMES[:5], "mode": "turn-based"}, 0, _bytes(255, 240, 7))
    assert t.cfg["first"] == 2
    t.configure({"players": NAMES[:3], "mode": "turn-based"}, 0, _bytes(239))
    assert t.cfg["first"] == 2
    t.configure({"players": NAMES[:3], "mode": "turn-based", "first": 0}, 0, _bytes(1))
    assert "first" not in t.cfg  # named: not drawn
    for mode in ("standard", "family"):  # their rules pick no first player
        t.configure({"players": NAMES[:3], "mode": mode}, 0, _bytes(1))
        assert "first" not in t.cfg and "first" not in t.status(0)


@pytest.mark.parametrize(
    "cfg",
    [
        {"mode": "turn-based", "first": 3},
        {"mode": "turn-based", "first": -1},
        {"mode": "turn-based", "first": True},
        {"mode": "standard", "first": 1},
        {"mode": "turn-based", "options": {"first": "2"}},
    ],
)
def test_a_bad_first_seat_is_refused_by_name(cfg):
    with pytest.raises(ValueError) as e:
        Table().configure(dict(cfg, players=NAMES[:3]))
    assert "first" in str(e.value)


def test_a_journal_seat_past_the_table_is_refused():
    t = Table()
    t.configure({"players": NAMES[:3], "mode": "turn-based", "first": 2})
    b = bytearray(E.encode(t.drain()[0]))
    b[_FLAGS] = b[_FLAGS] & 3 | 3 << 2  # seat 3 of 3
    with pytest.raises(ValueError) as e:
        E.decode(bytes(b))
    assert "first seat" in str(e.value)


def test_the_board_draws_the_first_player_into_its_journal_and_lights_it(monkeypatch):
    monkeypatch.setattr(app_module.os, "urandom", _bytes(250, 4))  # 250 redrawn, 4 -> seat 1
    port = FakePort(
        players=6,
        pixels=24,
        ring=list(range(18)),
        player_pixels=[18, 19, 20, 21, 22, 23],
        keep_frames=1,
    )
    j = MemJournal()
    app = App(port, j, {"players": NAMES[:3], "mode": "turn-based", "game": "fit-to-print"})
    configs = [E.decode(rec) for _, rec in j.records() if rec[0] == E.CONFIG]
    assert configs[-1][1]["first"] == 1
    st = app.status()
    assert st["first"] == 1 and st["turn"] == 1
    port.tap(-1, at_ms=10)  # the control button starts a turn game
    for _ in range(400):
        port.advance(5)
        app.step()
    st = app.status()
    assert st["phase"] == "running" and st["turn"] == 1
    px = port.frames[-1][1]
    lit = [sum(px[18 + p]) for p in range(3)]
    assert lit[1] > 2 * max(lit[0], lit[2])  # the drawn seat's light is on, the others dim


def test_the_screen_names_the_first_player_the_board_drew(sim):
    from presstime.tableside import status_text
    from simboard import client_for

    c = client_for(sim)
    try:
        c.configure({"players": ["Ada", "Ben", "Cy"], "game": "fit-to-print", "mode": "turn-based"})
        st = c.status()
    finally:
        c.close()
    first = sim.app.table.cfg.get("first", 0)
    line = "first player: %s (seat %d), drawn by the board" % (
        ["Ada", "Ben", "Cy"][first],
        first + 1,
    )
    assert st["first"] == first and line in status_text.setup_lines(st)  # what play says at set-up
    assert "  " + line in status_text.lines(st)


@pytest.mark.slow
def test_a_turn_based_demo_plays_its_day_from_the_drawn_seat_and_stores_it(sim, tmp_path, capsys):
    """`play --demo --mode turn-based`: the day is played in turns from the seat the board drew,
    each turn ended by whoever's turn it is, and the control button ends it (the demo pressed
    everybody once in a shuffled order, which out of turn does nothing: it never ended)."""
    from presstime import cli
    from presstime.history.store import Store

    db = str(tmp_path / "history.db")
    assert (
        cli.main(
            ["play", "--demo", "--save", "--mode", "turn-based", "--port", sim.path, "--db", db]
        )
        == 0
    )
    out = capsys.readouterr().out
    first = sim.app.table.cfg.get("first", 0)
    names = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay"]
    assert "first player: %s (seat %d), drawn by the board" % (names[first], first + 1) in out
    assert "Winner:" in out and "Saved as game 1" in out
    with Store(db) as store:
        [(gid, record)] = store.games()
    assert record["mode"] == "turn-based" and len(record["rounds"]) == 1
