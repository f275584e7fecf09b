"""The simulator board behind a real pty, for the end-to-end tests (the `sim` fixture is in
conftest.py)."""

import json
import time


def client_for(sim):
    """A desktop BoardClient on the other end of the pty, greeted: it holds the pty and shares
    it, so the commands a test runs meanwhile attach to it (presstime.board.share)."""
    from presstime.board.share import connect

    return connect(sim.path, command="test")


def wait_until(c, ok, limit=10.0):
    """The board's status once `ok(status)` holds; AssertionError with the status after `limit`
    s."""
    deadline = time.monotonic() + limit
    while True:
        st = c.status()
        if ok(st):
            return st
        assert time.monotonic() < deadline, json.dumps(st)
        time.sleep(0.03)
