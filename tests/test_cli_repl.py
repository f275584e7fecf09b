"""presstime repl: end to end against the simulator firmware on a real pty (the `sim` fixture)."""

import os
import subprocess
import sys

import pytest

from helpers import run_cli
from presstime.board import ports
from presstime.board.link import BoardClient, LinkError


def wait_stopped(sim, limit=5.0):
    sim._thread.join(limit)
    return not sim._thread.is_alive()


def test_help_has_an_example(capsys):
    code, out, _ = run_cli(capsys, "repl", "--help")
    assert code == 0
    assert "presstime repl" in out and "--port" in out and "mpremote" in out


def test_the_simulator_leaves_its_loop_and_says_so(sim, capsys):
    code, out, err = run_cli(capsys, "repl", "--port", sim.path)
    assert code == 0, err
    assert "simulator %s on %s" % (sim.port.uid, sim.path) in out and out.startswith(
        "A simulator has no REPL"
    )
    assert "has no REPL" in out and "stopped" in out
    assert wait_stopped(sim)  # the message is true: the firmware loop ended
    assert sim.error is None


def test_the_only_simulator_is_used_without_port(sim, capsys, monkeypatch):
    monkeypatch.setattr(ports, "usb_boards", lambda comports=None: [])
    code, out, err = run_cli(capsys, "repl")
    assert code == 0, err
    assert sim.path in out
    assert wait_stopped(sim)


def test_a_micropython_board_returns_to_the_repl(sim, capsys, monkeypatch):
    sim.port.board = "pico"  # the hello now says what a Pico says
    monkeypatch.setattr(ports, "usb_boards", lambda comports=None: [])
    code, out, err = run_cli(capsys, "repl", "--port", sim.path)
    assert code == 0, err
    assert out.strip() == (
        "board %s on %s returned to the REPL; run `mpremote` now, or reset the board "
        "(Ctrl-D in the REPL) to restart presstime." % (sim.port.uid, sim.path)
    )
    assert wait_stopped(sim)


def test_a_circuitpython_board_names_its_console_port(sim, capsys, monkeypatch):
    sim.port.board = "macropad"
    listing = [
        {"port": "/dev/ttyACM7", "kind": "circuitpython", "role": "console", "serial": "X1"},
        {"port": sim.path, "kind": "circuitpython", "role": "data", "serial": "X1"},
    ]
    monkeypatch.setattr(ports, "usb_boards", lambda comports=None: listing)
    code, out, err = run_cli(capsys, "repl", "--port", sim.path)
    assert code == 0, err
    assert "CircuitPython REPL is on its console port /dev/ttyACM7" in out


@pytest.mark.slow
def test_a_board_that_no_longer_answers_is_a_failure_without_traceback(sim, capsys):
    assert run_cli(capsys, "repl", "--port", sim.path)[0] == 0
    assert wait_stopped(sim)
    code, out, err = run_cli(capsys, "repl", "--port", sim.path)
    assert code == 1
    assert out == ""
    assert "no presstime app answered on %s" % sim.path in err
    assert "Traceback" not in err


def test_no_board_at_all(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "empty"))
    monkeypatch.setattr(ports, "usb_boards", lambda comports=None: [])
    code, _, err = run_cli(capsys, "repl")
    assert code == 1
    assert "no board found" in err and "Traceback" not in err


@pytest.mark.slow
def test_a_port_that_cannot_be_opened(tmp_path, capsys):
    code, _, err = run_cli(capsys, "repl", "--port", str(tmp_path / "nope"))
    assert code == 1
    assert "cannot open" in err and "Traceback" not in err


def test_the_repl_request_is_sent_once_and_a_lost_reply_is_reported(sim, capsys, monkeypatch):
    sent = []

    def lost(self):
        sent.append((self.timeout, self.retries))
        raise LinkError("no answer")

    monkeypatch.setattr(BoardClient, "repl", lost)
    code, _, err = run_cli(capsys, "repl", "--port", sim.path)
    assert code == 1
    assert sent and sent[0][1] == 0  # never retried: a retry would reach the REPL as keystrokes
    assert "did not confirm" in err and "try `mpremote`" in err


@pytest.mark.parametrize("argv", [["repl", "--bogus"], ["repl", "extra"]])
def test_usage_errors_exit_2(capsys, argv):
    assert run_cli(capsys, *argv)[0] == 2


def test_a_foreground_simulator_process_exits(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "run"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "presstime.sim.headless", "--journal", str(tmp_path / "j.bin")],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    try:
        path = proc.stdout.readline().strip()
        code, _, err = run_cli(capsys, "repl", "--port", path)
        assert code == 0, err
        assert proc.wait(10) == 0
        assert (
            os.listdir(str(tmp_path / "run")) == []
        )  # its advert is gone: `devices` no longer lists it
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
