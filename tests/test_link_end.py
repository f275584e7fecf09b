"""The link's `end` request (wire.END): in turn modes it ends the running round as the control
button does; elsewhere the board refuses it. Desktop side: BoardClient.end()."""

import pytest

from presstime.board.link import BoardClient, BoardError, Transport
from presstime.core import events as E, wire
from presstime.device.app import App, MemJournal
from presstime.device.link import Link
from presstime.device.ports.fake import FakePort


class Cable(Transport):
    """The desktop's bytes go to the fake port; the board answers during read()."""

    def __init__(self, app, port):
        Transport.__init__(self)
        self.app = app
        self.port = port

    def _write(self, data):
        self.port.feed(data)

    def _read(self, timeout):
        self.port.advance(1)
        self.app.step()
        return self.port.take_written()


def _board(cfg):
    port = FakePort(players=len(cfg["players"]), pixels=24)
    app = App(port, MemJournal(), cfg)
    app.link = Link(app, port)
    return app, port, BoardClient(Cable(app, port), timeout=0.01, retries=1)


def _running(app, port):
    port.tap(-1, at_ms=port.now_ms() + 10)  # control: start
    for _ in range(500):
        port.advance(10)
        app.step()
        if app.status()["phase"] == "running":
            return
    raise AssertionError(app.status()["phase"])


def test_end_request_ends_a_turns_round():
    app, port, client = _board({"players": ["Ada", "Ben", "Cy"], "mode": "turns"})
    _running(app, port)
    client.end()
    st = app.status()
    assert st["phase"] == "summary" and st["end_reason"] == E.END_CONTROL
    kinds = [E.decode(p)[0] for _, p in app.journal.records(0)]
    assert kinds[-1] == E.END


def test_end_request_is_refused_in_a_timed_round():
    app, port, client = _board(
        {"players": ["Ada", "Ben"], "mode": "standard", "duration_ms": 180000}
    )
    _running(app, port)
    with pytest.raises(BoardError) as e:
        client.end()
    assert e.value.code == wire.E_REFUSED and "end" in str(e.value)
    assert app.status()["phase"] == "running"


def test_end_is_a_named_mutating_message():
    assert wire.NAMES[wire.END] == "end" and wire.END in wire.MUTATING
