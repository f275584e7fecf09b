"""A stranger without the link opens 1,100 connections to the scorepad and sends each half a
request (slowloris), against 127.0.0.1 only: the table is still served, the server holds at most
its budget of connections, the half-sent ones are closed at their deadline, and nothing the
server logs reaches the terminal (it goes to scorepad.log in the runtime folder)."""

import json
import os
import resource
import select
import socket
import time
import urllib.request

import pytest

from helpers import fit_to_print_record
from presstime.scorepad import guard
from presstime.scorepad.server import ScorepadServer
from presstime.scorepad.session import ScorepadSession

ATTACK = 1100
HEAD = b"GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "  # never finished


def fd_room(needed):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return soft
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip("the attack needs %d file descriptors; this system allows %d" % (needed, hard))
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    return soft


@pytest.fixture
def pad(tmp_path, monkeypatch):
    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "run"))
    monkeypatch.setattr(guard.GuardedH11, "head_s", 3.0)
    rec = fit_to_print_record()
    session = ScorepadSession(rec, lambda r: None)
    server = ScorepadServer(session).start()
    session.open_round(0)
    yield server
    server.stop()


def get_state(server):
    with urllib.request.urlopen(server.url + "api/state", timeout=10) as r:
        return json.loads(r.read())


@pytest.mark.slow
def test_half_sent_requests_do_not_stop_the_table(pad, capfd):
    old = fd_room(ATTACK + guard.MAX_CONNECTIONS + 200)
    held = []
    try:
        for _ in range(ATTACK):  # a bounded loop against loopback only
            s = socket.socket()
            s.settimeout(5)
            try:
                s.connect(("127.0.0.1", pad.port))
                s.sendall(HEAD)
            except OSError:
                s.close()
                continue
            held.append(s)
        assert len(held) > guard.MAX_CONNECTIONS
        # a connection the budget closed leaves the server's set when its close completes
        t0 = time.monotonic()
        while (
            len(pad._server.server_state.connections) > guard.MAX_CONNECTIONS
            and time.monotonic() - t0 < 10
        ):
            time.sleep(0.05)
        assert len(pad._server.server_state.connections) <= guard.MAX_CONNECTIONS
        assert get_state(pad)["open"] is True  # the table is served meanwhile
        token = json.loads(
            urllib.request.urlopen(
                urllib.request.Request(pad.url + "api/claim", data=b'{"seat": 0}', method="POST"),
                timeout=10,
            ).read()
        )["token"]
        assert token
        # every half-sent request is closed by the server: at its deadline, or to make room
        deadline = time.monotonic() + guard.GuardedH11.head_s + 20
        alive = dict((s.fileno(), s) for s in held)
        poll = select.poll()
        for fd in alive:
            poll.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        while alive and time.monotonic() < deadline:
            for fd, _ in poll.poll(1000):
                try:
                    data = alive[fd].recv(1024)
                except OSError:
                    data = b""
                if not data:
                    poll.unregister(fd)
                    del alive[fd]
        assert not alive
    finally:
        for s in held:
            s.close()
        resource.setrlimit(
            resource.RLIMIT_NOFILE, (old, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
        )
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_what_the_server_logs_goes_to_a_file_not_the_terminal(pad, capfd, tmp_path):
    s = socket.create_connection(("127.0.0.1", pad.port), timeout=10)
    s.sendall(b"NOT HTTP AT ALL\r\n\r\n")
    assert s.recv(100).startswith(b"HTTP/1.1 400")
    s.close()
    path = os.path.join(str(tmp_path / "run"), "scorepad.log")
    t0 = time.monotonic()
    while time.monotonic() - t0 < 10 and not (
        os.path.exists(path) and "Invalid HTTP" in open(path).read()
    ):
        time.sleep(0.05)
    assert "Invalid HTTP request" in open(path).read()
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert pad.log_path == path


def test_every_connection_sends_small_responses_at_once(pad):
    """TCP_NODELAY on the server's sockets: a keep-alive request's small response is not held
    back for the client's delayed ACK (44 ms a request without it)."""
    import http.client

    c = http.client.HTTPConnection("127.0.0.1", pad.port, timeout=10)
    c.request("GET", "/%s/api/state" % pad.session.secret)
    assert c.getresponse().read()
    socks = [
        p.transport.get_extra_info("socket") for p in list(pad._server.server_state.connections)
    ]
    assert socks and all(s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) for s in socks)
    c.close()
