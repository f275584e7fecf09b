"""The desktop's commands against the official firmware in the emulated RP2040 (the rp2emu rig):
`watch`, `sync`, `repl` and `install-firmware` over a running app, each the real command line on
the board's USB serial pty, within the desktop's own timeouts."""

import json
import os
import subprocess
import sys

import pytest

from helpers import presstime_process
from rig.rp2emu import MS

READY_NS = 800 * MS
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "bench"))


@pytest.fixture
def board(pico):
    """The emulated Pico once its app is up (~0.45 s of emulated time after power-on; the rig
    runs the chip slower than real time, so that is seconds of wall time under load)."""
    pico.wait_until(READY_NS)
    return pico


def presstime(*args, timeout=600):
    """The command line on the board, with the rig's patience (the chip runs slower than real
    time)."""
    return presstime_process(*args, timeout=timeout)


def test_watch_once_shows_the_boards_status(board):
    r = presstime("watch", "--port", board.pty, "--once", "--json")
    assert r.returncode == 0, r.stderr
    st = json.loads(r.stdout.strip().splitlines()[-1])
    assert st["phase"] == "setup" and isinstance(st["version"], int)


def test_sync_pulls_a_whole_games_journal_and_rebuilds_it(board, tmp_path):
    from bench_rp2_link import game_journal
    from presstime.device.journal import Journal
    from presstime.sync import rebuild

    folder = tmp_path / "made"
    folder.mkdir()
    files = game_journal(str(folder))  # the app's own code on the fake port
    # put where an earlier firmware kept the journal, at the top, with no /journal/ folder: the
    # boot moves it in (ports/rp2.py _move_in) before the app replays it
    board.put_files(files, clear="/journal")
    board.wait_until(board.now() + READY_NS)  # booted again, the journal moved and replayed
    db = str(tmp_path / "history.sqlite3")
    r = presstime("sync", "--port", board.pty, "--db", db, "--json")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    here = Journal(str(folder / "journal.bin"))
    want = rebuild.games_from_journal(list(here.records(0, 10_000)))
    assert got["added"] == here.last_seq == got["last_seq"]
    assert len(got["games"]) == len(want) == 1
    game = got["games"][0]
    assert game["rounds"] == 3 and game["over"]
    assert [r["finish"] for r in game["round_details"]] == [r["finish"] for r in want[0]["rounds"]]
    again = presstime("sync", "--port", board.pty, "--db", db, "--json")
    assert again.returncode == 0 and json.loads(again.stdout)["added"] == 0


def test_repl_gives_mpremote_the_board(board):
    r = presstime("repl", "--port", board.pty)
    assert r.returncode == 0, r.stderr
    assert "returned to the REPL" in r.stdout
    m = subprocess.run(
        ["mpremote", "connect", board.pty, "exec", "print(6 * 7)"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert m.returncode == 0 and "42" in m.stdout, m.stderr


def test_install_firmware_again_over_the_running_app(board):
    r = presstime("install-firmware", "--board", "pico", "--port", board.pty, timeout=1200)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "returned to the REPL" in r.stdout  # the app stepped aside over the link
    assert "installed presstime" in r.stdout
    w = presstime("watch", "--port", board.pty, "--once", "--json")
    assert w.returncode == 0, w.stderr
