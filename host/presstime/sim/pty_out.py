"""The simulated board's serial output: never blocks, never drops a reply.

A real board's USB serial takes its replies into the host's buffers; a pty master whose other end
does not read fills up, and a blocking write there would stall the board's whole loop (a press
taken seconds late). So the simulators (headless.PtyPort, terminal.TerminalPort) write through
`PtyOut`: what the pty cannot take at once waits here, written again at every read, write and
idle; and while more than MAX_BACKLOG bytes wait, the board reads no new requests (`busy()`),
so a client that floods requests and never reads only stalls itself (docs/protocol.md).
"""

from __future__ import annotations

import errno
import os

MAX_BACKLOG = 64 * 1024  # bytes of replies waiting before the board stops taking requests
MAX_READ = 1024  # bytes of requests taken per loop iteration


class PtyOut:
    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.backlog = bytearray()
        self.written = 0

    def write(self, data: bytes) -> None:
        self.backlog.extend(data)
        self.drain()

    def drain(self) -> None:
        while self.backlog:
            try:
                n = os.write(self.fd, self.backlog)
            except (BlockingIOError, InterruptedError):
                return
            except OSError as e:
                if e.errno == errno.EIO:  # nobody has the other end open: nobody to answer
                    self.backlog = bytearray()
                return
            del self.backlog[:n]
            self.written += n

    def busy(self) -> bool:
        """True while the replies waiting pass MAX_BACKLOG: take no new requests now."""
        self.drain()
        return len(self.backlog) > MAX_BACKLOG

    def read(self) -> bytes:
        """Requests waiting on the pty (at most MAX_READ bytes), b"" when busy or none."""
        if self.busy():
            return b""
        try:
            return os.read(self.fd, MAX_READ)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError as e:
            if e.errno in (errno.EIO, errno.EAGAIN):  # EIO: nobody has the slave end open
                return b""
            raise
