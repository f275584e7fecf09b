"""One board, many screens (presstime.board.share): the process that holds a board serves it to the
others over a Unix socket; nobody opens the port twice; who holds it is said."""

import json
import os
import stat
import subprocess
import sys
import threading
import time

import pytest

from presstime import cli
from presstime.board import ports, share
from presstime.board.link import BoardError, PortBusy, SerialTransport
from presstime.core import wire
from simboard import wait_until


@pytest.fixture
def owner(sim):
    c = share.connect(sim.path, command="play")
    yield c
    c.close()


@pytest.mark.slow
def test_viewers_attach_to_the_owner_and_each_gets_its_own_replies(sim, owner):
    assert not owner.transport.attached
    views = [share.connect(sim.path, command=name) for name in ("watch", "sync")]
    try:
        assert all(v.transport.attached and v.transport.holder["pid"] == os.getpid() for v in views)
        owner.configure(
            {
                "game": "fit-to-print",
                "mode": "standard",
                "duration_ms": 60000,
                "players": [{"name": "Ada"}, {"name": "Ben"}],
            }
        )
        errors = []

        def poll(client):
            try:
                for _ in range(60):
                    st = client.status()
                    assert [p["name"] for p in st["players"]] == ["Ada", "Ben"]
                    assert client.pages(0)  # a records page too: binary replies routed back
            except Exception as e:  # noqa: BLE001 (reported below)
                errors.append(e)

        threads = [threading.Thread(target=poll, args=(c,)) for c in [owner] + views]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        views[0].press(0)  # a change from a viewer reaches the board
        wait_until(
            owner,
            lambda st: (
                st["phase"] != "idle"
                and st["players"][0]["state"] != "waiting"
                or st["phase"] == "ready"
                and st.get("ready", [0])[0]
            ),
        )
    finally:
        for v in views:
            v.close()


def test_the_socket_is_the_users_alone_and_advertised_with_the_holder(sim, owner):
    (h,) = share.holders()
    assert h["pid"] == os.getpid() and h["command"] == "play"
    assert os.path.realpath(h["port"]) == os.path.realpath(sim.path)
    assert stat.S_IMODE(os.stat(h["sock"]).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(h["sock"])).st_mode) == 0o700
    owner.close()
    assert share.holders() == []  # its advert goes with it


def test_the_port_is_opened_exclusively(sim, owner):
    with pytest.raises(PortBusy):
        SerialTransport(sim.path, attempts=1)


def test_a_viewer_takes_the_board_over_when_the_owner_quits(sim, owner):
    view = share.connect(sim.path, command="watch")
    other = share.connect(sim.path, command="sync")
    try:
        assert view.transport.attached
        owner.close()
        assert view.status()["version"] >= 0
        assert other.status()["version"] >= 0
        assert [view.transport.attached, other.transport.attached].count(False) == 1  # one took it
    finally:
        view.close()
        other.close()


@pytest.mark.slow
def test_a_program_that_does_not_share_the_port_is_named(sim):
    code = (
        "import serial,sys,time; s=serial.Serial(sys.argv[1], exclusive=True); print('held', "
        "flush=True); time.sleep(30)"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, sim.path], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(PortBusy) as e:
            share.connect(sim.path, command="watch")
        assert "pid %d" % holder.pid in str(e.value) and "does not share it" in str(e.value)
    finally:
        holder.kill()
        holder.wait()


def test_watch_and_sync_attach_while_play_holds_the_board(sim, owner, tmp_path, capsys):
    owner.configure(
        {
            "game": "fit-to-print",
            "mode": "standard",
            "duration_ms": 60000,
            "players": [{"name": "Ada"}, {"name": "Ben"}],
        }
    )
    assert cli.main(["watch", "--port", sim.path, "--once", "--json"]) == 0
    assert [p["name"] for p in json.loads(capsys.readouterr().out)["players"]] == ["Ada", "Ben"]
    assert cli.main(["sync", "--port", sim.path, "--db", str(tmp_path / "h.sqlite3")]) == 0
    assert "Ada, Ben" in capsys.readouterr().out
    assert owner.status()["players"][0]["name"] == "Ada"  # the owner's link is still whole


def test_repl_is_refused_while_another_process_holds_the_board(sim, owner, capsys):
    assert cli.main(["repl", "--port", sim.path]) == 1
    err = capsys.readouterr().err
    assert "in use by `presstime play` (pid %d)" % os.getpid() in err and "quit it first" in err
    view = share.connect(sim.path, command="watch")  # nor through the socket
    try:
        with pytest.raises(BoardError) as e:
            view.request(wire.REPL)
        assert e.value.code == wire.E_REFUSED
    finally:
        view.close()
    assert owner.status()["version"] >= 0  # the board is still in its loop


def test_a_second_play_becomes_a_view_of_the_game(sim, owner, monkeypatch, capsys):
    from presstime.tableside import watch

    seen = []
    monkeypatch.setattr(watch, "watch_board", lambda port, **kw: seen.append(port) or 0)
    assert cli.main(["play", "--port", sim.path, "--players", "X,Y"]) == 0
    assert seen == [sim.path]
    assert "being played by `presstime play` (pid %d)" % os.getpid() in capsys.readouterr().out


def test_no_board_found_does_not_send_watch_into_play_sim(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "run"))
    monkeypatch.setattr(ports, "usb_boards", lambda comports=None: [])
    assert cli.main(["watch", "--once"]) == 1
    err = capsys.readouterr().err
    assert "no board found" in err and "play --sim" not in err and "presstime sim --pty" in err


def test_sim_pty_holds_its_own_pty(tmp_path, monkeypatch):
    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "run"))
    term, term_end = os.openpty()  # the simulator's own terminal
    proc = subprocess.Popen(
        [sys.executable, "-m", "presstime", "sim", "--pty", "--players", "2"],
        stdin=term_end,
        stdout=term_end,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stderr.readline()  # "presstime sim: serving the link on PATH"
        assert "serving the link on" in line, line
        path = line.split(" on ")[-1].strip()
        deadline = time.monotonic() + 10
        while not share.holder_of(path):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert share.holder_of(path)["pid"] == proc.pid
        c = share.connect(path, command="watch")
        try:
            assert c.transport.attached and c.info["board"] == "sim"
        finally:
            c.close()
        with pytest.raises(PortBusy):
            SerialTransport(path, attempts=1)
    finally:
        proc.terminate()
        proc.wait(10)
        os.close(term)
        os.close(term_end)
