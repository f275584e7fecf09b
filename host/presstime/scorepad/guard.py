"""The scorepad's connections held to a budget, and its log kept away from the terminal.

A stranger on the network (no link needed) could open a thousand connections and send each a
few bytes of a request, never finishing it: every one held a socket until the process ran out
of file descriptors, and the table's own requests stalled. Here, at the HTTP protocol:

- a request's head (line and headers) must arrive within HEAD_S of the connection opening or
  of the previous response, however slowly it trickles in (an idle keep-alive connection is
  closed by uvicorn's own keep-alive time-out, shorter still);
- at most MAX_CONNECTIONS are open: past that, the connection that has waited longest without
  a request in progress is closed (a half-sent request, an idle keep-alive), never one being
  answered, such as a big screen's live stream;
- every socket gets TCP_NODELAY (a small response is not held back for the client's delayed
  ACK: 44 ms per keep-alive request without it).

A request body's own deadline (BODY_S) is the server's (it reads bodies itself). What uvicorn
and asyncio log goes to `scorepad.log` in the runtime folder, never to the terminal where the
host types the scores.
"""

from __future__ import annotations

import logging
import os
import socket
from typing import TYPE_CHECKING

from uvicorn.protocols.http.h11_impl import H11Protocol

from presstime.board.ports import advert_dir
from presstime.errors import Failure

if TYPE_CHECKING:
    from asyncio import Transport

HEAD_S = 10.0  # seconds for a request's head to arrive
BODY_S = 10.0  # seconds for a request's body (4 KB at most)
IDLE_S = 5  # an idle keep-alive connection is closed after this
MAX_CONNECTIONS = 256  # open at once (the file descriptors the server may hold)
LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "asyncio")


class GuardedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline on each request's head and a connection budget
    (shared through the server's state: `waiting` is every connection without a request in
    progress, oldest first)."""

    head_s = HEAD_S
    max_connections = MAX_CONNECTIONS

    def connection_made(self, transport: Transport) -> None:
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
        self._deadline = None
        self._arm()
        waiting = _waiting(self.server_state)
        # a closed transport leaves `connections` a moment later (connection_lost): not counted
        excess = (
            sum(1 for c in self.connections if not c.transport.is_closing()) - self.max_connections
        )
        while excess > 0 and waiting:
            oldest = next(iter(waiting))
            waiting.pop(oldest)
            oldest.transport.close()
            excess -= 1

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.cycle is not self._armed_for and self._deadline is not None:
            self._disarm()  # a whole head came in: a request is in progress

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's head has its own deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self):
        self._disarm()
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a pipelined request is already being answered
        self._armed_for = self.cycle
        self._deadline = self.loop.call_later(self.head_s, self._too_slow)
        _waiting(self.server_state)[self] = None

    def _disarm(self):
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        _waiting(self.server_state).pop(self, None)

    def _too_slow(self):
        self._deadline = None
        _waiting(self.server_state).pop(self, None)
        if self.cycle is self._armed_for and not self.transport.is_closing():
            self.transport.close()


def _waiting(server_state):
    try:
        return server_state.scorepad_waiting
    except AttributeError:
        server_state.scorepad_waiting = {}  # insertion order: the oldest first
        return server_state.scorepad_waiting


def log_to_file() -> str | None:
    """uvicorn's and asyncio's records to `scorepad.log` in the runtime folder (created private),
    not to the terminal; returns the file's path (None: logged nowhere, when no folder can be
    had)."""
    try:
        path = os.path.join(advert_dir(), "scorepad.log")
        handler = logging.FileHandler(path, encoding="utf-8", delay=True)
    except (Failure, OSError):
        path, handler = None, logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    for name in LOGGERS:
        logger = logging.getLogger(name)
        for old in list(logger.handlers):
            if getattr(old, "scorepad", False):
                logger.removeHandler(old)
                old.close()
        handler.scorepad = True  # pyright: ignore[reportAttributeAccessIssue]: our mark  # the mark of our handler (a restart replaces it)
        logger.addHandler(handler)
        logger.propagate = False
        if name == "uvicorn.access":
            logger.setLevel(logging.ERROR)
    return path
