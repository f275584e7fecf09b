"""Sync against a board that forgot, or restarted (issue 10, items 1 and 2).

Class closed: a desktop history that is behind what the board still has (a new laptop, a fresh
--db, a history last synced before the board dropped its oldest games) takes what the board has,
says what was gone, and is never stuck; a board's identity lasts as long as its journal, so a
restart never makes the desktop pull (and double) the same games again.
"""

import json

import pytest

from presstime import cli
from presstime.core import events as E
from presstime.core.table import normalise
from presstime.device.journal import Journal
from presstime.history.store import Store
from presstime.sim.headless import Simulator


def fill(path, games, keep=400):
    """A board journal on files that played `games` short games and so dropped its oldest ones."""
    old = Journal.KEEP_BYTES, Journal.FSYNC
    Journal.KEEP_BYTES, Journal.FSYNC = keep, False
    try:
        j = Journal(path)
        for g in range(games):
            j.append(E.encode((E.CONFIG, normalise({"players": ["Ada", "Ben%d" % g]}))))
            for _ in range(6):
                j.append(E.encode((E.READY, 0, 1)))
            j.reset()
        first = j.records(0, 1)[0][0]
        last = j.last_seq
        j.close()
        return first, last
    finally:
        Journal.KEEP_BYTES, Journal.FSYNC = old


@pytest.fixture
def runtime(tmp_path, monkeypatch):
    monkeypatch.setenv("PRESSTIME_RUNTIME", str(tmp_path / "run"))


def sync(capsys, port, db):
    code = cli.main(["sync", "--port", port, "--db", db, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


@pytest.mark.slow
def test_a_board_that_dropped_its_oldest_games_syncs_what_it_still_has(tmp_path, capsys, runtime):
    journal = str(tmp_path / "journal.bin")
    first, last = fill(journal, 40)
    assert first > 1  # the oldest games are gone
    sim = Simulator(journal=journal).start()
    try:
        db = str(tmp_path / "fresh.sqlite3")
        doc = sync(capsys, sim.path, db)
        assert doc["gone"] == [[1, first - 1]]
        assert doc["added"] == last - first + 1 == doc["last_seq"] - first + 1
        assert len(doc["games"]) == len(
            [s for s, p in sim.app.journal.records(0) if p[0] == E.CONFIG]
        )
        again = sync(capsys, sim.path, db)  # never stuck, nothing twice
        assert again["added"] == 0 and again["gone"] == []
        # the text report says what was gone
        assert cli.main(["sync", "--port", sim.path, "--db", db]) == 0
        assert cli.main(["sync", "--port", sim.path, "--db", str(tmp_path / "other.sqlite3")]) == 0
        out = capsys.readouterr().out
        assert "records 1-%d were already gone from the board" % (first - 1) in out
    finally:
        sim.stop()


def test_a_history_synced_long_ago_skips_the_gap_and_keeps_its_games(tmp_path, capsys, runtime):
    journal = str(tmp_path / "journal.bin")
    fill(journal, 2, keep=100000)
    sim = Simulator(journal=journal).start()
    db = str(tmp_path / "h.sqlite3")
    try:
        early = sync(capsys, sim.path, db)
        board = early["board"]
    finally:
        sim.stop()
    first, last = fill(journal, 60)  # the board plays on, forgets old games
    assert first > early["last_seq"] + 1
    sim = Simulator(journal=journal).start()
    try:
        doc = sync(capsys, sim.path, db)
        assert doc["board"] == board  # the same board (item 2)
        assert doc["gone"] == [[early["last_seq"] + 1, first - 1]]
        with Store(db) as s:
            seqs = [seq for seq, _ in s.journal(board)]
        assert seqs == list(range(1, early["last_seq"] + 1)) + list(range(first, last + 1))
        # the games on either side of the gap are rebuilt apart: every one has its own names
        names = [g["players"] for g in doc["games"]]
        assert all(len(n) == 2 and n[0] == "Ada" for n in names)
    finally:
        sim.stop()


def test_a_restarted_simulator_keeps_its_id_and_nothing_is_doubled(tmp_path, capsys, runtime):
    journal = str(tmp_path / "journal.bin")
    db = str(tmp_path / "h.sqlite3")
    ids = []
    for _ in range(2):
        sim = Simulator(journal=journal).start()
        try:
            doc = sync(capsys, sim.path, db)
            ids.append(doc["board"])
            sim.app.configure({"players": ["Ada", "Ben"]})
        finally:
            sim.stop()
    assert ids[0] == ids[1] and ids[0].startswith("sim-")
    with Store(db) as s:
        assert s.boards() == [ids[0]]
    # a new journal is a new board: the old id file does not carry over to an empty journal
    other = Simulator(journal=str(tmp_path / "other.bin")).start()
    other.stop()
    assert other.port.uid != ids[0]


def test_the_id_kept_beside_the_journal_tells_emulated_picos_apart(tmp_path):
    from presstime.device.app import App
    from presstime.device.link import Link
    from presstime.device.ports.fake import FakePort

    def board(name):
        port = FakePort(players=2, pixels=8)
        port.uid = lambda: "pico-0000000000000000"  # the emulated Pico's unique id
        path = str(tmp_path / name)
        app = App(port, Journal(path), {"players": 2})
        return Link(app, port).board_id(), path

    a, path_a = board("a.bin")
    b, _ = board("b.bin")
    assert a != b and a.startswith("pico-0000000000000000-")
    assert board("a.bin")[0] == a  # restarted on its journal: the same
    with open(path_a + ".id") as f:
        assert f.read() == a
