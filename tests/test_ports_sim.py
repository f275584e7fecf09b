"""`presstime sim`: the firmware App loop under CPython with the terminal port, driven by
scripts."""

import os
import threading
import time

from presstime import cli
from presstime.sim import terminal


def run_sim(capsys, *argv):
    code = cli.main(["sim"] + list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_round_with_presses_undo_and_summary(capsys):
    code, out, err = run_sim(
        capsys,
        "--players",
        "3",
        "--duration",
        "0:30",
        "--script",
        "space +3500 2 +500 1 +100 3 +500 u +1000 3 +2000",
    )
    assert code == 0, err
    lines = out.splitlines()
    assert any(
        "running" in line and "2:printed#1" in line and "1:reporting" in line for line in lines
    )
    # 3 printed, undone (back to reporting), printed again: the round ends with the pick order
    assert any("3:printed#3" in line and "summary" in line for line in lines)
    assert any(
        "summary" not in line and "3:reporting" in line and "1:printed#2" in line
        for line in lines[3:]
    )
    assert "pick order: 2, 1, 3" in out


def test_time_out_and_grace_take_the_remaining_tokens(capsys):
    code, out, err = run_sim(
        capsys,
        "--players",
        "3",
        "--duration",
        "10",
        "--grace",
        "2",
        "--script",
        "space +3500 3 +9000 1 +3000",
    )
    assert code == 0, err
    assert "grace" in out
    last = [line for line in out.splitlines() if line.startswith("t=")][-1]
    # 3 pressed in time (token 1), 1 pressed in the grace window (2), 2 forced by seat order (3)
    assert "3:printed#1" in last and ("1:late#2" in last or "1:printed#2" in last)
    assert "2:forced#3" in last


def test_a_whole_three_day_game(capsys):
    day = "space +3500 1 +50 2 +50 3 +50 4 +500 space +500 "
    code, out, err = run_sim(capsys, "--players", "4", "--duration", "3:00", "--script", day * 3)
    assert code == 0, err
    assert "SATURDAY" in out and "SUNDAY" in out
    assert " over" in out


def test_pause_and_abort_keys(capsys):
    code, out, err = run_sim(
        capsys,
        "--players",
        "2",
        "--duration",
        "1:00",
        "--script",
        "space +4000 p +5000 p +1000 x +500",
    )
    assert code == 0, err
    assert "paused" in out
    assert out.count("FRIDAY  ready") >= 2  # abort: back to the ready check


def test_bad_options_exit_2_with_every_problem(capsys):
    code, out, err = run_sim(
        capsys, "--players", "9", "--duration", "soon", "--mode", "chess", "--script", "1"
    )
    assert code == 2
    assert "--players 9" in err and "--duration 'soon'" in err and "--mode 'chess'" in err
    assert "Traceback" not in err


def test_bad_script_word_is_named(capsys):
    code, out, err = run_sim(capsys, "--script", "space +3000 jump")
    assert code == 2
    assert "word 3 'jump'" in err


def test_needs_a_terminal_without_script(capsys, monkeypatch):
    code, out, err = run_sim(capsys, "--players", "2")
    assert code == 2
    assert "--script" in err


def test_journal_file_resumes_the_game(capsys, tmp_path):
    j = str(tmp_path / "j.bin")
    code, out, err = run_sim(
        capsys, "--players", "2", "--journal", j, "--script", "space +3500 1 +200"
    )
    assert code == 0, err
    code, out, err = run_sim(capsys, "--players", "2", "--journal", j, "--script", "+100")
    assert code == 0, err
    # the running round came back paused after the restart, player 1 still printed
    assert "paused" in out and "1:printed#1" in out


def test_no_color_and_glyphs():
    frame = [(0, 0, 0)] * 24 + [(255, 0, 0), (40, 0, 0)]
    st = {
        "game": "fit-to-print",
        "mode": "standard",
        "round": 1,
        "rounds": 3,
        "phase": "running",
        "day": "friday",
        "remaining_ms": 61000,
        "players": [
            {"name": "Ada", "state": "printed", "token": 1, "tied": 1},
            {"name": "Ben", "state": "reporting", "token": 0},
        ],
    }
    lines = terminal.screen(st, frame, colour=False)
    text = "\n".join(lines)
    assert "\x1b" not in text
    assert "1:01 left" in text
    assert "[1] \u2588\u2588 Ada" in text and "token 1 (tie)" in text
    assert "[2] \u2591\u2591 Ben" in text
    coloured = "\n".join(terminal.screen(st, frame, colour=True))
    assert "\x1b[38;2;255;0;0m" in coloured


def test_terminal_port_serves_the_link_on_a_pty():
    """The terminal port with a serial fd: the desktop's BoardClient talks to the sim's App."""
    import tty

    from presstime.board.link import BoardClient, SerialTransport
    from presstime.device.app import App
    from presstime.device.journal import Journal
    from presstime.device.link import Link

    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    d = __import__("tempfile").mkdtemp()
    port = terminal.TerminalPort(players=2, journal_path=os.path.join(d, "j.bin"), serial_fd=master)
    journal = Journal(port.journal_path())
    app = App(port, journal, config={"players": 2, "mode": "standard"})
    app.link = Link(app, port, journal)
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            app.step()

    t = threading.Thread(target=loop, daemon=True)
    t.start()
    try:
        client = BoardClient(SerialTransport(os.ttyname(slave)))
        hello = client.hello()
        assert hello["board"] == "sim" and hello["id"] == port.uid
        port.tap_now(0)
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            st = client.status()
            if st["players"][0]["state"] == "ready":
                break
            time.sleep(0.05)
        assert st["players"][0]["state"] == "ready"
        client.transport.close()
    finally:
        stop.set()
        t.join(2)
        journal.close()
        os.close(master)
        os.close(slave)


def test_other_games_run_their_table_mode(capsys):
    code, out, err = run_sim(
        capsys, "--game", "heat", "--players", "3", "--script", "space +3500 1 2 3 +500 q"
    )
    assert code == 0, err
    assert "heat" in out and "ready-reveal" in out.lower()
    code, out, err = run_sim(capsys, "--game", "myth-fits", "--players", "2", "--script", "+100 q")
    assert code == 0, err
    assert "turns" in out.lower()


def test_other_games_refuse_fit_to_print_modes_and_wrong_counts(capsys):
    code, out, err = run_sim(capsys, "--game", "heat", "--mode", "family", "--script", "q")
    assert code == 2 and "--mode family" in err
    code, out, err = run_sim(capsys, "--game", "heat", "--players", "2", "--script", "q")
    assert code == 2 and "heat takes 3 to 5 players" in err and "Traceback" not in err
