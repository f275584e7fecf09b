"""A client that floods the simulated board and never reads (issue 10, item 9).

Class closed: the board's loop waiting on its serial line. Replies go out through pty_out.PtyOut,
which never blocks: a press is taken when it happens, however many requests wait unread, and
no reply is dropped: the board stops reading requests while its replies wait instead.
"""

import os
import time

import pytest

from presstime.core import wire
from presstime.sim import pty_out
from simboard import client_for, wait_until


@pytest.mark.slow
def test_presses_never_wait_for_a_client_that_does_not_read(sim):
    c = client_for(sim)
    c.configure({"players": ["Ada", "Ben"], "duration_ms": 60000})
    c.start()
    wait_until(c, lambda st: st["phase"] == "running")
    c.close()
    fd = os.open(sim.path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    try:
        frame = wire.encode(wire.RECORDS, 1, wire.records_request(0, 0))  # the biggest replies
        sent = 0
        t_end = time.monotonic() + 3.0
        while time.monotonic() < t_end:
            try:
                sent += os.write(fd, frame * 50)
            except BlockingIOError:
                time.sleep(0.01)
        assert len(sim.port.out.backlog) > 0  # replies wait, the client reads none
        before = sim.app.status()["elapsed_ms"]
        sim.port.press(0)
        time.sleep(0.3)
        st = sim.app.status()
        ada = st["players"][0]
        assert ada["token"] == 1
        assert 0 <= ada["print_ms"] - before < 250  # taken when pressed, not when the link let go
        # nothing was dropped: every reply still waits whole, and the client gets them in order
        # bounded: what one read of requests (MAX_READ bytes) can ask for past MAX_BACKLOG
        assert len(sim.port.out.backlog) <= pty_out.MAX_BACKLOG + pty_out.MAX_READ * (
            wire.MAX_BODY + 16
        )
        got = b""
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and len(got) < 10000:
            try:
                got += os.read(fd, 65536)
            except BlockingIOError:
                time.sleep(0.01)
        dec = wire.Decoder()
        bodies = dec.feed(got)
        assert bodies and all(wire.parse(b)[0] == wire.RECORDS for b in bodies)
    finally:
        os.close(fd)
