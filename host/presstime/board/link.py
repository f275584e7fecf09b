"""The desktop end of the serial link (docs/protocol.md).

A small `Transport` base with a serial implementation that imports pyserial lazily, opens with
retries and reads with monotonic timeouts (after mpremote's transport), and `BoardClient`,
which speaks the protocol: one request, one reply, retries with the same request id.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from presstime.board.status_check import problem
from presstime.core import wire
from presstime.errors import Failure

if TYPE_CHECKING:
    from presstime.hints import Json, Status


# How long the desktop waits for a reply. A board answers a status in under 20 ms of its own
# time and a 2 KB records page in about as long, but a flash erase holds its CPU 45 ms and a
# littlefs compaction can chain a few (docs/real-firmware.md): 0.5 s is several times the worst
# seen. Retries wait longer (x1, x1, x2, x2, x4) and are answered from the board's reply cache,
# so a slow board is not made slower; a dead board is given up after 5 s in all.
TIMEOUT = 0.5
RETRIES = 4
TIMEOUT_STEPS = (1, 1, 2, 2, 4)
# Attached to the process that holds the board (presstime.board.share): that process retries for us
# (5 s at most) and may first finish another process's request (5 s at most again).
ATTACHED_WAIT = 12.0
# The error code a sharing process answers when its own link to the board failed.
E_LINK = "link"
# Pushed status (docs/protocol.md): the board pushes the status for 3 s after a watching status
# request; the desktop asks again every RENEW_S (its fallback poll too), and a board that sent no
# push NO_PUSH_S after being asked (a firmware before pushes) is polled as before.
RENEW_S = 2.0
NO_PUSH_S = 1.5


class LinkError(Failure):
    """The board did not answer (cable pulled, wrong port, board busy or reset)."""


class BoardError(Failure):
    """The board answered with an error reply; `code` is one of wire.E_*."""

    def __init__(self, code: int | str, message: str, mtype: int = 0) -> None:
        Failure.__init__(
            self, "board refused %s: %s (%s)" % (wire.NAMES.get(mtype, mtype), message, code)
        )
        self.code = code
        self.board_message = message
        self.mtype = mtype


class Transport:
    """Bytes to and from a board. Counts what crosses the wire in both directions."""

    def __init__(self) -> None:
        self.bytes_out = 0
        self.bytes_in = 0

    def write(self, data: bytes) -> None:
        self.bytes_out += len(data)
        self._write(data)

    def read(self, timeout: float) -> bytes:
        """Whatever arrives within `timeout` seconds (returns as soon as something came)."""
        data = self._read(timeout)
        self.bytes_in += len(data)
        return data

    def _write(self, data):
        raise NotImplementedError

    def _read(self, timeout):
        raise NotImplementedError

    def close(self) -> None:
        pass


class PortBusy(Failure):
    """Another process has the port open exclusively (presstime.board.share names it)."""


class SerialTransport(Transport):
    """A serial port (or a pty) through pyserial, imported only when a port is opened. It is
    opened exclusively (a lock another open with `exclusive` respects): two processes reading one
    port steal each other's bytes; PortBusy at once when another process holds it."""

    def __init__(
        self, port: str, baudrate: int = 115200, attempts: int = 5, delay: float = 0.2
    ) -> None:
        Transport.__init__(self)
        try:
            import serial
        except ImportError:
            raise Failure("pyserial is missing: pip install pyserial")
        self.port = port
        last = None
        for i in range(attempts):
            try:
                self.serial = serial.Serial(
                    port, baudrate=baudrate, timeout=0, write_timeout=2, exclusive=True
                )
                break
            except (OSError, serial.SerialException) as e:  # busy or not yet enumerated
                if "exclusively lock" in str(e):
                    raise PortBusy("%s is in use by another process" % port)
                last = e
                time.sleep(delay * (i + 1))
        else:
            raise Failure("cannot open %s: %s" % (port, last))
        self._serial_error = serial.SerialException

    def _write(self, data):
        try:
            self.serial.write(data)
            self.serial.flush()
        except (OSError, self._serial_error) as e:
            raise LinkError("write to %s failed: %s" % (self.port, e))

    def _read(self, timeout):
        deadline = time.monotonic() + timeout
        try:
            while True:
                waiting = self.serial.in_waiting
                if waiting:
                    return self.serial.read(waiting)
                left = deadline - time.monotonic()
                if left <= 0:
                    return b""
                self.serial.timeout = min(left, 0.05)
                data = self.serial.read(1)
                if data:
                    return data + self.serial.read(self.serial.in_waiting)
        except (OSError, self._serial_error) as e:
            raise LinkError("read from %s failed: %s" % (self.port, e))

    def close(self) -> None:
        try:
            self.serial.close()
        except Exception:
            pass


class BoardClient:
    """Requests to one board. Every method sends one request and returns the reply's value.

    A request that gets no reply within `timeout` seconds is resent with the same request id
    (the board answers a retry from its reply cache, never building it again), `retries`
    times, waiting longer each time (TIMEOUT_STEPS), then LinkError. An error reply raises
    BoardError. Time is the transport's `clock` if it has one (a rig's emulated seconds), else
    the monotonic clock."""

    def __init__(
        self, transport: Transport, timeout: float = TIMEOUT, retries: int = RETRIES
    ) -> None:
        self.transport = transport
        self.clock = getattr(transport, "clock", None) or time.monotonic
        self.timeout = timeout
        self.retries = retries
        self.decoder = wire.Decoder()
        self._rid = int.from_bytes(os.urandom(1), "big")
        self.version = None  # the board's state version, from the last reply that told it
        self.info = None  # the hello reply
        self.lock = (
            threading.RLock()
        )  # one request at a time: other processes' go through forward()
        self._push: bytes | None = None  # the newest pushed status's body, not yet taken

    def next_rid(self) -> int:
        self._rid = (self._rid + 1) & 0xFF or 1  # 0 is the board's: a pushed status (PUSH_RID)
        return self._rid

    def _wait(self, attempt):
        """Seconds to wait for the reply to try number `attempt`. Attached to another process's
        link (presstime.board.share), that process does the retries and may be serving another
        request first: one long wait, no retry of our own."""
        if getattr(self.transport, "attached", False):
            return ATTACHED_WAIT
        return self.timeout * TIMEOUT_STEPS[min(attempt, len(TIMEOUT_STEPS) - 1)]

    def _roundtrip(self, data, mtype, rid):
        """The reply body (ours: the same rid, of type `mtype` or an error) to the frame `data`."""
        for attempt in range(self.retries + 1):
            self.transport.write(data)
            deadline = self.clock() + self._wait(attempt)
            while True:
                left = deadline - self.clock()
                if left < 1e-6:  # (a rig's clock counts ns: a wait under 1 µs never ends)
                    break
                found = None
                for body in self.decoder.feed(self.transport.read(left)):
                    if rid != PUSH_RID and _is_push(body):
                        self._push = body  # pushed() takes it
                        continue
                    if len(body) < 3 or not body[1] & wire.REPLY or body[2] != rid:
                        continue  # a late answer to an earlier request
                    if found is None and body[1] & 0x7F in (mtype, wire.ERROR):
                        found = body
                if found is not None:
                    return found
            if getattr(self.transport, "attached", False):
                break
        raise LinkError(
            "no answer from the board to %s after %d tries"
            % (wire.NAMES.get(mtype, mtype), self.retries + 1)
        )

    def request(self, mtype: int, value: Json = None, rid: int | None = None) -> Json:
        with self.lock:
            if rid is None:
                rid = self.next_rid()
            body = self._roundtrip(wire.encode(mtype, rid, value), mtype, rid)
        answer: Json  # a reply's JSON value, or a records page
        try:
            rtype, rrid, reply, answer = wire.parse(body)
        except wire.WireError as e:
            raise LinkError(
                "the board's reply to %s cannot be read: %s" % (wire.NAMES.get(mtype, mtype), e)
            )
        if rtype == wire.ERROR:
            answer = answer or {}
            if answer.get("e") == E_LINK:  # the sharing process lost the board (docs/protocol.md)
                raise LinkError(answer.get("m", "the board's link was lost"))
            raise BoardError(answer.get("e", "?"), answer.get("m", ""), answer.get("t", mtype))
        if isinstance(answer, dict) and isinstance(answer.get("v"), int):
            self.version = answer["v"]
        return answer

    def forward(self, body: bytes) -> bytes:
        """Another process's request body, sent to the board under a request id of ours (two
        processes' ids would collide in the board's reply cache); the reply body comes back with
        the caller's id. LinkError when the board does not answer."""
        with self.lock:
            rid = self.next_rid()
            reply = self._roundtrip(
                wire.frame(bytes(body[:2]) + bytes((rid,)) + bytes(body[3:])), body[1] & 0x7F, rid
            )
        return bytes(reply[:2]) + bytes(body[2:3]) + bytes(reply[3:])

    # ---- read-only --------------------------------------------------------------------------
    def hello(self) -> dict[str, Any]:
        self.info = self.request(wire.HELLO, {"p": wire.PROTOCOL, "host": "presstime"}) or {}
        if isinstance(self.info.get("v"), int):
            self.version = self.info["v"]
        return self.info

    def status(self) -> Status:
        """The board's status, checked field by field (board/status_check.py): LinkError naming the
        field when a reply is not what a board of this firmware sends."""
        return self._checked(self.request(wire.STATUS) or {})

    def _checked(self, s: Any) -> Status:
        bad = problem(s)
        if bad:
            raise LinkError(
                "the board's status reply is not usable (%s): a broken or foreign firmware?" % bad
            )
        self.version = s["version"]
        return s

    def watch(self) -> Status:
        """The status, and the board asked to push it from now on, for 3 s (docs/protocol.md,
        "Pushed status"): whenever its state's version or the second changes. Ask again within
        that to go on being told; pushed() takes what it pushed."""
        self._push = None  # older than this reply
        return self._checked(self.request(wire.STATUS, {"w": 1}) or {})

    def pushed(self, timeout: float) -> Status | None:
        """The newest status the board pushed since the last one taken, waiting up to `timeout`
        seconds for one; None when none came."""
        with self.lock:
            deadline = self.clock() + timeout
            while self._push is None:
                left = deadline - self.clock()
                if left < 1e-6:  # (a rig's clock counts ns: a wait under 1 µs never ends)
                    break
                for body in self.decoder.feed(self.transport.read(left)):
                    if _is_push(body):
                        self._push = body
            body, self._push = self._push, None
        if body is None:
            return None
        try:
            value = wire.parse(body)[3]
        except wire.WireError as e:
            raise LinkError("the board's pushed status cannot be read: %s" % e)
        return self._checked(value or {})

    def records(self, after: int, limit: int = 0) -> dict[str, Any]:
        """One page: {"last": board last seq, "records": [(seq, bytes)]}."""
        return self.request(wire.RECORDS, wire.records_request(after, limit))

    def pages(self, after: int) -> Iterator[dict[str, Any]]:
        """Pages of records after `after` up to the board's last seq (a generator; the last
        page yielded may be empty). A page that starts past after + 1 carries "gone": the seq
        up to which the board no longer has its records (its journal dropped its oldest games)."""
        while True:
            p = self.records(after)
            recs = p["records"]
            if recs and recs[0][0] <= after:
                raise LinkError("board sent seq %d after %d" % (recs[0][0], after))
            p["gone"] = recs[0][0] - 1 if recs and recs[0][0] != after + 1 else 0
            yield p
            if not recs or recs[-1][0] >= p["last"]:
                return
            after = recs[-1][0]

    # ---- state changes (version-stamped)
    # ----------------------------------------------------------
    def _change(self, mtype, extra=None, retry_stale=True):
        if self.version is None:
            self.status()
        value = {"v": self.version}
        if extra:
            value.update(extra)
        try:
            return self.request(mtype, value)
        except BoardError as e:
            if e.code != wire.E_STALE or not retry_stale:
                raise
        self.status()  # decide afresh on the current state: the board refuses what no longer fits
        value["v"] = self.version
        return self.request(mtype, value)

    def configure(self, cfg: dict[str, Any]) -> Json:
        return self._change(wire.CONFIGURE, {"cfg": cfg})

    def start(self) -> Json:
        return self._change(wire.START)

    def pause(self) -> Json:
        return self._change(wire.PAUSE)

    def resume(self) -> Json:
        return self._change(wire.RESUME)

    def abort(self) -> Json:
        return self._change(wire.ABORT)

    def next_round(self) -> Json:
        return self._change(wire.NEXT)

    def end(self) -> Json:
        """Turn modes (Myth Fits): end the running round, as the control button does."""
        return self._change(wire.END)

    def push_standings(self, standings: dict[str, Any]) -> Json:
        """The desktop's standings for the board's lights: {"totals", "out", "winner"} (the board
        takes an object, device/link.py)."""
        return self._change(wire.STANDINGS, {"s": standings})

    def repl(self) -> Json:
        return self.request(wire.REPL)

    def press(self, button: int, ms: int | None = None) -> Json:
        """Simulator only: a virtual press of button `button` (-1: control), held `ms` (default
        80)."""
        value = {"b": button}
        if ms is not None:
            value["ms"] = ms
        return self.request(wire.PRESS, value)

    def close(self) -> None:
        self.transport.close()


PUSH_RID = 0  # a status reply with request id 0 is pushed by the board, answers no request


def _is_push(body: bytes) -> bool:
    return len(body) >= 3 and body[1] == wire.STATUS | wire.REPLY and body[2] == PUSH_RID


class StatusFeed:
    """The status as play's loop takes it, one `next()` a loop: pushed by the board while it is
    watched (BoardClient.watch, asked again every RENEW_S, which is the fallback poll too), so
    the board builds a status only when it changed; polled every `idle_s` as before when the
    board does not push (a firmware before pushes, a link shared through another process, a
    client without watch). next() waits at most `idle_s` (the loop's keys and demo presses go
    on meanwhile) and gives the last status again when nothing new came."""

    def __init__(self, client: Any, idle_s: float = 0.05) -> None:
        self.client = client
        self.idle_s = idle_s
        transport = getattr(client, "transport", None)
        self.push = hasattr(client, "watch") and not getattr(transport, "attached", False)
        self.clock = getattr(client, "clock", None) or time.monotonic
        self.last: Any = None
        self.renew = 0.0  # when to ask again (clock seconds)
        self.asked = None  # when the first watch was asked (no push since: NO_PUSH_S)
        self.pushes = 0

    def next(self) -> Status:
        c = self.client
        if not self.push:
            if self.last is not None:
                time.sleep(self.idle_s)
            self.last = c.status()
            return self.last
        now = self.clock()
        if self.last is None or now >= self.renew - 1e-3:  # (a wait under 1 ms: renewed now)
            self.last = c.watch()
            self.renew = self.clock() + RENEW_S
            if self.asked is None:
                self.asked = now
            return self.last
        st = c.pushed(min(self.idle_s, self.renew - now))
        if st is not None:
            self.pushes += 1
            self.last = st
        elif not self.pushes and self.asked is not None and self.clock() - self.asked > NO_PUSH_S:
            self.push = False  # a board that does not push: polled as before
        return self.last
