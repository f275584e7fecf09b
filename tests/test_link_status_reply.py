"""The status reply is built from a part cached per state version (kept encoded) and the fields
that move with time, in a version 2 frame (CRC-32): it must say exactly what app.status() says,
at every instant and version; a retry (same request id) gets the same bytes, never a rebuild."""

import json

from hypothesis import given, settings, strategies as st

from presstime.core import wire
from presstime.device.app import App, MemJournal
from presstime.device.link import Link
from presstime.device.ports.fake import FakePort


def _board(players=4):
    port = FakePort(players=6, pixels=24)
    cfg = {
        "players": ["P%d" % (i + 1) for i in range(players)],
        "mode": "standard",
        "duration_ms": 60000,
    }
    app = App(port, MemJournal(), cfg)
    app.link = Link(app, port)
    return app, port


def _ask(app, port, rid, mtype=wire.STATUS, value=None):
    port.feed(wire.encode(mtype, rid, value))
    app.link.poll()
    return port.take_written()


def _plain(value):
    return json.loads(json.dumps(value))  # tuples as lists, as on the wire


def _status(raw):
    bodies = wire.Decoder().feed(raw)
    assert len(bodies) == 1
    mtype, rid, reply, value = wire.parse(bodies[0])
    assert reply and mtype == wire.STATUS
    return rid, value


@settings(max_examples=40)
@given(
    st.lists(st.tuples(st.integers(1, 900), st.sampled_from([None, 0, 1, 2, 3, -1])), max_size=25)
)
def test_status_reply_equals_the_apps_status_at_every_step(steps):
    app, port = _board()
    rid = 0
    for ms, press in steps:
        if press is not None:
            port.tap(press, at_ms=port.now_ms() + 1)
        port.advance(ms)
        app.step()
        rid = (rid + 1) & 0xFF
        got_rid, got = _status(_ask(app, port, rid))
        assert got_rid == rid
        assert got == _plain(app.status())


def test_a_retry_is_answered_with_the_same_bytes_without_a_rebuild():
    app, port = _board()
    first = _ask(app, port, 7)
    calls = []
    real = app.status
    app.status = lambda: calls.append(1) or real()
    port.advance(300)  # the board's clock moved: a rebuild would differ
    again = _ask(app, port, 7)
    assert again == first and calls == []
    fresh = _ask(app, port, 8)  # a new request id: a new status
    assert calls == [1] and _status(fresh)[1]["t_ms"] > _status(first)[1]["t_ms"]


def test_an_old_request_id_much_later_is_a_new_request():
    app, port = _board()
    first = _ask(app, port, 7)
    port.advance(6000)  # past the retry window (link._SAME_MS)
    later = _ask(app, port, 7)
    assert _status(later)[1]["t_ms"] > _status(first)[1]["t_ms"]


def test_standings_change_the_cached_part():
    app, port = _board(players=3)
    before = _status(_ask(app, port, 1))[1]
    app.set_standings({"totals": [3, 2, 1], "out": [], "winner": 0, "names": ["P1", "P2", "P3"]})
    after = _status(_ask(app, port, 2))[1]
    assert before["standings"] is None and after["standings"]["winner"] == 0
    assert after == _plain(app.status())


def test_the_lights_status_lent_to_a_reply_comes_back_whole():
    """A reply of the state version the lights show reads their status dict (no new dict of
    dicts): afterwards that dict is still the lights' and still says what status() says."""
    app, port = _board()
    port.tap(-1, at_ms=5)
    for _ in range(500):  # the round starts; a press
        port.advance(10)
        app.step()
    port.tap(1, at_ms=port.now_ms() + 1)
    port.advance(5)
    app.step()
    lights = app._st
    assert lights is not None and lights["version"] == app.table.version
    calls = []
    real = app.status
    app.status = lambda: calls.append(1) or real()
    _, got = _status(_ask(app, port, 1))
    assert calls == []  # lent, not built
    assert app._st is lights and _plain(lights) == _plain(app.table.status(port.now_ms()))
    assert got == _plain(real())
