"""End to end over a real pseudo-terminal: the simulator firmware (the device App and Link) on
the master side of os.openpty(), the real desktop code (pyserial, BoardClient, the CLI
commands) on the slave side. A complete scripted game from configure to final standings."""

import json
import os
import time

import pytest

from presstime import cli
from presstime.board.link import BoardError
from presstime.core import wire
from presstime.history.store import Store
from presstime.sim.headless import Simulator
from simboard import client_for, wait_until


def wait_phase(c, phases, limit=10.0):
    return wait_until(c, lambda st: st["phase"] in phases, limit)


def test_devices_lists_the_running_simulator(sim, capsys):
    assert cli.main(["devices", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [d["port"] for d in found] == [sim.path]


@pytest.mark.slow
def test_demo_game_end_to_end_then_sync(sim, tmp_path, capsys):
    db = str(tmp_path / "history.db")
    assert cli.main(["play", "--demo", "--save", "--port", sim.path, "--db", db]) == 0
    out = capsys.readouterr().out
    assert "Sunday" in out and "Winner:" in out and "Saved as game 1" in out

    with Store(db) as store:
        [(gid, record)] = store.games()
        assert len(record["rounds"]) == 3
        finish_played = [r["finish"] for r in record["rounds"]]
        assert all(sorted(f) == sorted(record["players"]) for f in finish_played)
        # what the board measured, kept with each round: a print time for everyone, in token order
        tables = [r["table"] for r in record["rounds"]]
        for f, tb in zip(finish_played, tables):
            assert tb["end"] == "all printed" and sorted(tb["print_ms"]) == sorted(f)
            assert [tb["print_ms"][n] for n in f] == sorted(tb["print_ms"].values())

    # the board's journal, synced and rebuilt by the core, tells the same finishing orders
    assert cli.main(["sync", "--port", sim.path, "--db", db, "--json"]) == 0
    synced = json.loads(capsys.readouterr().out)
    assert synced["added"] == sim.app.journal.last_seq == synced["last_seq"]
    [game] = synced["games"]
    assert game["finish"] == finish_played and game["over"] and game["stored"] == gid
    # idempotent: nothing new the second time
    assert cli.main(["sync", "--port", sim.path, "--db", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["added"] == 0
    with Store(db) as store:
        assert store.journal(synced["board"]) == sim.app.journal.records(0)
        # sync rebuilt the same measurements from the journal that play took from the live status
        assert [r["table"] for r in store.get_game(gid)["rounds"]] == tables


@pytest.mark.slow
def test_client_round_stale_versions_and_retries(sim):
    c = client_for(sim)
    c.configure(
        {
            "players": [{"name": "Ada", "colour": "#ff0000"}, {"name": "Ben"}],
            "mode": "standard",
            "duration_ms": 180000,
            "edition": "published",
        }
    )
    v = c.status()["version"]
    rid = c.next_rid()
    first = c.request(wire.START, {"v": v}, rid=rid)
    assert first["v"] > v
    # the same request again (a retry after a lost reply): answered from the cache, not re-applied
    again = c.request(wire.START, {"v": v}, rid=rid)
    st = c.status()
    assert again == first and st["phase"] in ("countdown", "running")
    # a fresh request based on the old version: refused as stale, nothing changes
    with pytest.raises(BoardError) as e:
        c.request(wire.PAUSE, {"v": v})
    assert e.value.code == wire.E_STALE
    wait_phase(c, ("running",))
    c.press(1)
    # the next press only once the board has Ben's: two requests read in one loop step would be
    # stamped alike, a tie that the rotating priority decides (tested in the table's vectors)
    deadline = time.monotonic() + 10
    while c.status()["players"][1]["token"] != 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    c.press(0)
    st = wait_phase(c, ("summary",))
    assert [p["token"] for p in st["players"]] == [2, 1]
    # a newer protocol and an unknown type get clear error replies; the board keeps answering
    c.transport.write(wire.frame(bytes((wire.PROTOCOL + 1, wire.STATUS, 77))))
    with pytest.raises(BoardError) as e:
        c.request(0x3E)
    assert e.value.code == wire.E_UNKNOWN
    c.transport.write(b"\x00garbage\xff\xfe noise\x00")
    assert c.status()["phase"] == "summary"
    c.close()


def test_watch_once_and_bad_input(sim, capsys):
    assert cli.main(["watch", "--port", sim.path, "--once", "--json"]) == 0
    assert "phase" in json.loads(capsys.readouterr().out)
    assert cli.main(["play", "--port", sim.path, "--duration", "9:99", "--players", "A,B"]) == 2
    assert cli.main(["play", "--port", sim.path, "--players", "A,,B"]) == 2
    assert cli.main(["watch", "--port", sim.path, "--interval", "0"]) == 2


def test_repl_request_leaves_the_loop(tmp_path, monkeypatch):
    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "run"))
    s = Simulator(journal=str(tmp_path / "j.bin")).start()
    try:
        c = client_for(s)
        assert c.repl() == {}
        s._thread.join(2)
        assert not s._thread.is_alive()
        c.close()
    finally:
        s.stop()
    assert os.listdir(str(tmp_path / "run")) == []


def test_play_uses_the_simulator_when_no_board_is_attached(tmp_path, monkeypatch):
    from presstime.board import ports
    from presstime.commands import play

    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "run"))
    monkeypatch.setattr(ports, "usb_boards", lambda comports=None: [])
    said = []

    class Args:
        sim = demo = False
        port = None

    client, sim = play.open_board(Args, said.append)
    try:
        assert sim is not None and client.info["board"] == "sim"
        assert "No board found" in said[0]
        assert [d["port"] for d in ports.simulators()] == [sim.path]
    finally:
        client.close()
        sim.stop()
    assert ports.simulators() == []
