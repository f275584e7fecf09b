"""One board, many screens: the process that holds a board's serial link serves it to the other
presstime processes of this user (docs/protocol.md, "Sharing the board").

The first presstime process to open a board (a USB port, a simulator's pty, the rig's pty) opens
it exclusively and becomes its owner: it listens on a Unix socket in the runtime folder (0700,
the socket 0600) and advertises it beside the simulators' adverts, in `link-<pid>-<n>.json`:
{"port": the port's real path, "sock", "pid", "command"}. Every later process on the same port
attaches to that socket instead and speaks the same frames as on the serial line; the owner sends
each request on under a request id of its own and routes the reply back with the caller's id.
When the owner quits, an attached process takes the port over (or attaches to whoever did) and
sends its pending request again.

    client = share.open_client(port, "watch")     # a link.BoardClient, owner or attached
"""

from __future__ import annotations

import json
import os
import select
import socket
import threading
import time
from typing import TYPE_CHECKING, Any

from presstime.board.link import (
    E_LINK,
    RETRIES,
    TIMEOUT,
    BoardClient,
    LinkError,
    PortBusy,
    SerialTransport,
    Transport,
)
from presstime.board.ports import _alive, advert_dir, adverts, simulators
from presstime.core import wire
from presstime.errors import Failure

if TYPE_CHECKING:
    from presstime.board.link import BoardClient

PREFIX = "link-"  # an owner: its socket
USER = "use-"  # every process on a board, owner or attached: what it does there


def _same(a, b):
    return os.path.realpath(a) == os.path.realpath(b)


def holders(prefix: str = PREFIX) -> list[dict[str, Any]]:
    """The live owners' adverts: [{"port", "sock", "pid", "command", "advert"}] (dead ones removed).
    prefix=USER: every process using a board ({"port", "pid", "command", "advert"})."""
    found = []
    for path, info, pid in adverts(prefix, ("port", "sock")):
        if not _alive(pid) or "sock" in info and not os.path.exists(info["sock"]):
            _remove(path, info.get("sock", ""))  # a process that died without cleaning up
            continue
        info["advert"] = path
        found.append(info)
    return found


def holder_of(port: str) -> dict[str, Any] | None:
    """The advert of the process that serves `port`, or None."""
    for h in holders():
        if _same(h["port"], port):
            return h
    return None


def users_of(port: str, command: str | None = None) -> list[dict[str, Any]]:
    """The processes using the board on `port` (owner or attached), those running `command` only
    if given."""
    return [
        u for u in holders(USER) if _same(u["port"], port) and command in (None, u.get("command"))
    ]


def _write_advert(path, info):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(info, f)
    os.replace(tmp, path)


def _remove(*paths):
    for p in paths:
        try:
            os.remove(p)
        except OSError:
            pass


def describe(holder: dict[str, Any]) -> str:
    return "`presstime %s` (pid %d)" % (holder.get("command") or "", holder["pid"])


def processes_holding(port: str) -> list[tuple[int, str]]:
    """[(pid, command line)] of the other processes with `port` open (Linux /proc; [] elsewhere).
    A simulator keeps its own pty open: it is not counted."""
    real = os.path.realpath(port)
    skip = {os.getpid()} | {s["pid"] for s in simulators() if _same(s["port"], port)}
    found = []
    try:
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return found
    for pid in pids:
        if pid in skip:
            continue
        try:
            fds = os.listdir("/proc/%d/fd" % pid)
            if not any(os.readlink("/proc/%d/fd/%s" % (pid, fd)) == real for fd in fds):
                continue
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
        except OSError:
            continue
        found.append((pid, cmd))
    return found


def busy_message(port: str) -> str:
    """Why `port` cannot be opened: who has it, and what to do."""
    h = holder_of(port)
    if h is not None:
        return "the board on %s is in use by %s" % (port, describe(h))
    procs = processes_holding(port)
    if procs:
        who = ", ".join("pid %d (%s)" % (pid, cmd[:60]) for pid, cmd in procs)
        return (
            "the board on %s is open in another program that does not share it: %s; "
            "close that program and try again" % (port, who)
        )
    return (
        "the board on %s is open in another program that does not share it; close it and try again"
        % port
    )


class SocketTransport(Transport):
    """The frames of one board, through the process that holds it (its Unix socket)."""

    attached = True

    def __init__(self, holder: dict[str, Any]) -> None:
        Transport.__init__(self)
        self.holder = holder
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.sock.connect(holder["sock"])
        except OSError:
            self.sock.close()
            raise

    def _gone(self, e=None):
        return LinkError(
            "%s, which held the board, stopped sharing it%s"
            % (describe(self.holder), ": %s" % e if e else "")
        )

    def _write(self, data):
        try:
            self.sock.sendall(data)
        except OSError as e:
            raise self._gone(e)

    def _read(self, timeout):
        try:
            ready, _, _ = select.select([self.sock], [], [], max(timeout, 0))
            if not ready:
                return b""
            data = self.sock.recv(65536)
        except OSError as e:
            raise self._gone(e)
        if not data:
            raise self._gone()
        return data

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


class Owner:
    """Serves the board that `client` holds to the other processes: a Unix socket, a thread per
    process attached, each request forwarded through client.forward (one at a time)."""

    _count = 0

    def __init__(self, client: BoardClient, port: str, command: str) -> None:
        Owner._count += 1
        d = advert_dir()
        base = os.path.join(d, "%s%d-%d" % (PREFIX, os.getpid(), Owner._count))
        self.client = client
        self.command = command
        self.sock_path = base + ".sock"
        self.advert = base + ".json"
        self._stop = threading.Event()
        self._conns = []
        _remove(self.sock_path)
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            self.listener.bind(self.sock_path)
        finally:
            os.umask(old)
        os.chmod(self.sock_path, 0o600)
        self.listener.listen(8)
        _write_advert(
            self.advert,
            {
                "port": os.path.realpath(port),
                "sock": self.sock_path,
                "pid": os.getpid(),
                "command": command,
            },
        )
        self._thread = threading.Thread(target=self._accept, name="presstime-share", daemon=True)
        self._thread.start()

    def _accept(self):
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self.listener], [], [], 0.2)
                if not ready:
                    continue
                conn, _ = self.listener.accept()
            except OSError:
                return
            self._conns.append(conn)
            threading.Thread(
                target=self._serve, args=(conn,), name="presstime-share-client", daemon=True
            ).start()

    def _serve(self, conn):
        decoder = wire.Decoder()
        try:
            while not self._stop.is_set():
                data = conn.recv(65536)
                if not data:
                    return
                for body in decoder.feed(data):
                    reply = self._answer(body)
                    if reply is not None:
                        conn.sendall(reply)
        except OSError:
            return
        finally:
            conn.close()

    def _answer(self, body):
        """The frame that answers one request body from an attached process."""
        if len(body) < 3 or body[1] & wire.REPLY:
            return None
        rid, mtype = body[2], body[1] & 0x7F
        if mtype == wire.REPL:  # it would end the owner's session under it
            return self._error(
                rid,
                wire.E_REFUSED,
                mtype,
                "the board is in use by `presstime %s` (pid %d): "
                "quit it first, then ask for the REPL" % (self.command, os.getpid()),
            )
        try:
            return wire.frame(self.client.forward(body))
        except Failure as e:
            return self._error(rid, E_LINK, mtype, str(e))

    def _error(self, rid, code, mtype, message):
        return wire.encode(wire.ERROR, rid, {"e": code, "m": message, "t": mtype}, reply=True)

    def close(self) -> None:
        self._stop.set()
        _remove(self.advert, self.sock_path)
        try:
            self.listener.close()
        except OSError:
            pass
        for c in self._conns:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._thread.join(1)


class SharedTransport(Transport):
    """The link to the board on `port`, whoever holds it: attached to the owner's socket, or the
    port itself (then served to the others once `serve(client)` was called). When the owner
    goes away, the next read or write takes over (or attaches to the new owner) and sends the
    request in flight again (the board's version check refuses a change applied twice)."""

    def __init__(self, port: str, command: str) -> None:
        Transport.__init__(self)
        self.port = port
        self.command = command
        self.inner: SocketTransport | SerialTransport | None = None
        self.owner: Owner | None = None
        self.client: BoardClient | None = None
        self._last = b""
        self._connect()
        self._use = None
        try:
            self._use = os.path.join(advert_dir(), "%s%d-%d.json" % (USER, os.getpid(), id(self)))
            _write_advert(
                self._use, {"port": os.path.realpath(port), "pid": os.getpid(), "command": command}
            )
        except (OSError, Failure):
            self._use = None

    @property
    def attached(self) -> bool:
        return isinstance(self.inner, SocketTransport)

    @property
    def holder(self) -> dict[str, Any] | None:
        """The owner's advert when attached, else None."""
        return self.inner.holder if isinstance(self.inner, SocketTransport) else None

    def _connect(self):
        for i in range(8):
            h = holder_of(self.port)
            if h is not None:
                try:
                    self.inner = SocketTransport(h)
                    return
                except OSError:
                    pass  # it is going away: its port comes free
            else:
                try:
                    self.inner = SerialTransport(self.port, attempts=1 if i else 5)
                except PortBusy:
                    pass  # another process is opening it: its advert follows
                else:
                    self._serve()
                    return
            time.sleep(0.05 * (i + 1))
        raise PortBusy(busy_message(self.port))

    def serve(self, client: BoardClient) -> None:
        """Share the port with the other processes, requests going through `client`."""
        self.client = client
        self._serve()

    def _serve(self):
        if self.client is None or self.attached or self.owner is not None:
            return
        try:
            self.owner = Owner(self.client, self.port, self.command)
        except (OSError, Failure):
            self.owner = (
                None  # an unusable runtime folder: the board is still ours, just not shared
            )

    def _transport(self) -> SocketTransport | SerialTransport:
        if self.inner is None:  # closed, or a take-over that found no owner and no port
            raise LinkError("the link to %s is closed" % self.port)
        return self.inner

    def _take_over(self):
        self._transport().close()
        self.inner = None
        self._connect()

    def _write(self, data):
        self._last = data
        try:
            self._transport().write(data)
        except LinkError:
            if not self.attached:
                raise
            self._take_over()
            self._transport().write(data)

    def _read(self, timeout):
        try:
            return self._transport().read(timeout)
        except LinkError:
            if not self.attached:
                raise
            self._take_over()
            self._transport().write(self._last)
            return b""

    def close(self) -> None:
        if self._use:
            _remove(self._use)
            self._use = None
        if self.owner is not None:
            self.owner.close()
            self.owner = None
        if self.inner is not None:
            self.inner.close()


def connect(
    port: str, timeout: float | None = None, retries: int | None = None, command: str = "presstime"
) -> BoardClient:
    """A BoardClient on `port`, after a hello (Failure if nothing answers): attached to the
    presstime process that holds the board, else holding it and sharing it. `command` names
    this process to the others ("play", "watch"…)."""
    client = open_client(port, command, timeout=timeout, retries=retries)
    try:
        client.hello()
    except Failure:
        client.close()
        raise
    return client


def open_client(
    port: str, command: str, timeout: float | None = None, retries: int | None = None
) -> BoardClient:
    """A BoardClient on `port`: attached to the process that holds it, else holding it (and
    serving it to the others). PortBusy (naming the holder) when neither is possible."""
    transport = SharedTransport(port, command)
    client = BoardClient(
        transport, timeout=timeout or TIMEOUT, retries=RETRIES if retries is None else retries
    )
    transport.serve(client)
    return client
