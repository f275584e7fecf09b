"""Pushed status (docs/protocol.md, "Pushed status"): a status request with {"w": 1} makes the
board push its status (a status reply with request id 0), after each step's frame, when the
state's version or the second changed, for 3 s; the desktop's StatusFeed takes those pushes
instead of asking every 50 ms."""

import json

from presstime.board.link import BoardClient, StatusFeed, Transport
from presstime.core import wire
from presstime.device.app import App, MemJournal
from presstime.device.link import Link
from presstime.device.ports.fake import FakePort
from simboard import client_for


def _board(players=3):
    port = FakePort(players=6, pixels=24)
    cfg = {
        "players": ["P%d" % (i + 1) for i in range(players)],
        "mode": "standard",
        "duration_ms": 60000,
    }
    app = App(port, MemJournal(), cfg)
    app.link = Link(app, port)
    return app, port


def _frames(raw):
    return [wire.parse(b) for b in wire.Decoder().feed(raw)]


def _steps(app, port, ms, step=10):
    out = []
    for _ in range(ms // step):
        port.advance(step)
        app.step()
        out += _frames(port.take_written())
    return out


def _plain(value):
    return json.loads(json.dumps(value))


def test_no_push_without_a_watching_request():
    app, port = _board()
    port.feed(wire.encode(wire.STATUS, 1))  # a plain status: answered, nothing pushed after
    got = _steps(app, port, 3000)
    assert [(m, rid, reply) for m, rid, reply, _ in got] == [(wire.STATUS, 1, True)]


def test_pushes_on_a_new_version_and_a_new_second_for_3_s():
    app, port = _board()
    port.feed(wire.encode(wire.STATUS, 5, {"w": 1}))
    first = _steps(app, port, 10)
    assert [(m, rid, reply) for m, rid, reply, _ in first] == [(wire.STATUS, 5, True)]
    v0 = first[0][3]["version"]
    port.tap(0, at_ms=port.now_ms() + 95)  # a ready press: a new version
    got = _steps(app, port, 400)
    assert got, "the new version is pushed"
    mtype, rid, reply, st = got[0]
    assert (mtype, rid, reply) == (wire.STATUS, 0, True)  # a push: request id 0
    assert st["version"] > v0 and st["players"][0]["state"] == "ready"
    assert st == _plain(app.status()) or st["version"] == app.version
    later = _steps(app, port, 5000)
    seconds = [s["t_ms"] // 1000 for _, _, _, s in later]
    assert seconds == sorted(set(seconds))  # one a second at most while nothing changes
    assert 1 <= len(later) <= 3  # and none once the 3 s of the watch are over
    assert all(s["t_ms"] < 3100 + first[0][3]["t_ms"] for _, _, _, s in later)


def test_a_retry_after_a_push_is_answered_right():
    """A push rewrites the frame buffer the last read-only reply sat in: a retry of that request
    must still get a status of its own id, not the push's bytes."""
    app, port = _board()
    req = wire.encode(wire.STATUS, 9, {"w": 1})
    port.feed(req)
    _steps(app, port, 10)
    port.tap(1, at_ms=port.now_ms() + 5)
    pushed = _steps(app, port, 100)
    assert pushed and pushed[0][1] == 0
    port.feed(req)  # the desktop's retry (same id and payload)
    again = _steps(app, port, 10)
    assert [(m, rid, reply) for m, rid, reply, _ in again][:1] == [(wire.STATUS, 9, True)]


class _PortTransport(Transport):
    """The desktop's client wired straight to a FakePort board: each read runs the board 10 ms
    of its time; the clock is the board's."""

    def __init__(self, app, port):
        Transport.__init__(self)
        self.app, self.port = app, port

    def clock(self):
        return self.port.now_ms() / 1000

    def _write(self, data):
        self.port.feed(data)

    def _read(self, timeout):
        for _ in range(max(1, int(timeout * 100))):
            self.port.advance(10)
            self.app.step()
            out = self.port.take_written()
            if out:
                return out
        return b""


def test_status_feed_takes_pushes_and_asks_again_every_2_s():
    app, port = _board()
    t = _PortTransport(app, port)
    client = BoardClient(t, timeout=0.5, retries=0)
    feed = StatusFeed(client, idle_s=0.05)
    asked = []
    plain = client.request
    client.request = lambda m, v=None, rid=None: asked.append((m, v)) or plain(m, v, rid)
    st = feed.next()
    assert asked == [(wire.STATUS, {"w": 1})] and st["phase"] == "ready"
    port.tap(2, at_ms=port.now_ms() + 20)
    seen = []
    while t.clock() < 4.5:
        seen.append(feed.next())
    assert any(s["players"][2]["state"] == "ready" for s in seen)
    assert feed.pushes >= 4  # the press, and a push a second
    assert asked == [(wire.STATUS, {"w": 1})] * 3  # at 0, 2 and 4 s: no poll every 50 ms
    assert t.bytes_in < 12 * 1200  # about one status a second, not one every 50 ms


class _OldLink(Link):
    """A firmware before pushes: the watch is never kept."""

    _until = property(lambda self: None, lambda self, value: None)


def test_status_feed_polls_a_board_that_does_not_push():
    app, port = _board()
    app.link = _OldLink(app, port)
    t = _PortTransport(app, port)
    client = BoardClient(t, timeout=0.5, retries=0)
    feed = StatusFeed(client, idle_s=0.05)
    for _ in range(400):  # 50 ms of board time a loop: past NO_PUSH_S
        feed.next()
        if not feed.push:
            break
    assert not feed.push and feed.pushes == 0
    assert t.clock() < 2.0  # given up on pushes before the first renewal
    feed.idle_s = 0.0
    n = client.decoder.frames
    feed.next()
    assert client.decoder.frames == n + 1  # polled from now on


def test_the_simulator_pushes_to_the_desktop(sim):
    c = client_for(sim)
    try:
        if getattr(c.transport, "attached", False):  # shared: the feed polls
            return
        st = c.watch()
        got = c.pushed(2.5)  # the second changes within 1 s
        assert got is not None and got["version"] >= st["version"]
        assert got["t_ms"] // 1000 != st["t_ms"] // 1000 or got["version"] != st["version"]
    finally:
        c.close()


def test_the_desktop_never_uses_the_push_id():
    client = BoardClient(Transport(), timeout=0.1, retries=0)
    client._rid = 0xFE
    assert [client.next_rid() for _ in range(3)] == [0xFF, 1, 2]


def test_no_push_just_after_a_round_press():
    """A round press's push waits _SETTLE_MS (60 ms of the board's clock) after the step that
    took it: a second press 5-30 ms later (two players at once) gets its light before the ~19 ms
    a status costs the chip; the desktop sees both presses in the one push."""
    app, port = _board()
    port.tap(-1, at_ms=port.now_ms() + 5)
    _steps(app, port, 4000)  # the round starts (running)
    assert app.status()["phase"] == "running"
    port.feed(wire.encode(wire.STATUS, 3, {"w": 1}))
    _steps(app, port, 10)
    t = port.now_ms()
    port.tap(0, at_ms=t + 5)
    port.tap(1, at_ms=t + 25)
    got = []
    for _ in range(20):
        got += [(port.now_ms(), st) for _, _, _, st in _steps(app, port, 5, step=5)]
    firsts = [ms for ms, st in got if st["players"][0].get("print_us") is not None]
    assert firsts and firsts[0] >= t + 25 + 60
    assert got[[ms for ms, _ in got].index(firsts[0])][1]["players"][1].get("print_us") is not None


def test_no_push_while_the_port_says_a_press_is_settling():
    """A port's read() of None (ports/rp2.py: nothing received, and a press still settling)
    means no push in that step, however due; the push comes in the first step after."""
    app, port = _board()
    port.feed(wire.encode(wire.STATUS, 5, {"w": 1}))
    assert [rid for _, rid, _, _ in _steps(app, port, 10)] == [5]
    plain = port.read
    held = [True]
    port.read = lambda: (plain() or None) if held[0] else plain()
    port.tap(0, at_ms=port.now_ms() + 15)  # a new version, and new seconds: pushes are due
    assert _steps(app, port, 2000) == []
    held[0] = False
    got = _steps(app, port, 10)
    assert [rid for _, rid, _, _ in got] == [0]
    assert got[0][3]["players"][0]["state"] == "ready"
