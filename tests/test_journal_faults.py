"""A journal write that fails never stops the table (issue 10, item 8).

Class closed: any error of the flash under the journal (full, a write error, a short write, the
sequence number running out, a stray segment file) while the round runs. The round goes on, the
lights show the warning, RAM keeps every event the flash could not take, and once the flash takes
writes again every event is journaled exactly once, in order.
"""

import pytest

from journal_fakes import FakeFile, FakeFS
from presstime.core import events as E
from presstime.device.app import App
from presstime.device.journal import _MAX_SEQ, Journal
from presstime.device.ports.fake import FakePort


@pytest.fixture(autouse=True)
def no_fsync(monkeypatch):
    monkeypatch.setattr(Journal, "FSYNC", False)


class FullFS(FakeFS):
    """A file system that refuses writes while `full` (ENOSPC), after `room` bytes that still
    fit."""

    def __init__(self):
        FakeFS.__init__(self)
        self.full = False
        self.room = 0

    def open(self, name, mode="rb"):
        if self.full and "w" in mode:
            raise OSError(28, "no space left")
        f = FakeFS.open(self, name, mode)
        f.__class__ = FullFile
        return f


class FullFile(FakeFile):
    def write(self, data):
        fs = self.fs
        if not fs.full:
            return FakeFile.write(self, data)
        k = min(fs.room, len(data))
        fs.room -= k
        self._data().extend(data[:k])
        raise OSError(28, "no space left")


def board(fs):
    j = Journal(
        "journal.bin", opener=fs.open, remove=fs.remove, rename=fs.rename, listdir=fs.listdir
    )
    port = FakePort(players=3, pixels=12)
    app = App(port, j, {"players": 3, "mode": "standard", "duration_ms": 60000})
    return app, port, j


def run_for(app, port, ms):
    for _ in range(ms):
        port.advance(1)
        app.step()


def events(j):
    return [E.decode(p) for _, p in j.records(j.base_seq)]


def test_a_full_flash_mid_round_loses_nothing_and_shows_the_warning():
    fs = FullFS()
    app, port, j = board(fs)
    port.tap(-1, at_ms=port.now_ms() + 5)
    run_for(app, port, 4000)  # count-down, then the round runs
    assert app.table.phase == 3
    fs.full, fs.room = True, 9  # part of the next batch still fits: a torn tail
    t = port.now_ms()
    for b in range(3):
        port.tap(b, at_ms=t + 100 + 700 * b)
    run_for(app, port, 3000)  # the presses are taken, the flash refuses them
    st = app.status()
    assert st["journal"] == "failing"
    assert [p["token"] for p in st["players"]] == [1, 2, 3]  # the table went on
    red = (app._cap, 0, 0)
    lit = [port.last_frame[app._ring[0]]]
    run_for(app, port, 500)
    lit.append(port.last_frame[app._ring[0]])
    assert red in lit  # the first ring pixel blinks red
    fs.full = False  # space again (a file removed, ...)
    run_for(app, port, 2500)
    assert "journal" not in app.status() and app._pending == []
    presses = [ev for ev in events(j) if ev[0] == E.PRESS]
    assert [ev[1] for ev in presses] == [0, 1, 2]  # every press exactly once, in order
    # and a reboot replays the same table
    again = App(
        port,
        Journal(
            "journal.bin", opener=fs.open, remove=fs.remove, rename=fs.rename, listdir=fs.listdir
        ),
    )
    assert [p["token"] for p in again.status()["players"]] == [1, 2, 3]


def test_any_oserror_from_the_journal_is_caught_and_retried():
    class Broken:
        base_seq = 0
        last_seq = 0
        fail = True

        def __init__(self):
            self.recs = []

        def records(self, after, limit=None):
            return [(i + 1, p) for i, p in enumerate(self.recs)][after:][:limit]

        def append_many(self, payloads):
            if self.fail and payloads:
                raise OSError(5, "I/O error")
            for p in payloads:
                self.recs.append(p)
            self.last_seq = len(self.recs)
            return self.last_seq

    j = Broken()
    port = FakePort(players=2, pixels=8)
    app = App(port, j, {"players": 2})
    port.tap(-1, at_ms=port.now_ms() + 5)
    run_for(app, port, 4000)
    assert app.status()["journal"] == "failing" and app._pending
    j.fail = False
    run_for(app, port, 2100)
    assert [E.decode(p)[0] for p in j.recs][:1] == [E.CONFIG] and not app._pending


def test_the_sequence_running_out_does_not_freeze_the_table():
    fs = FullFS()
    # a segment near the end of the sequence numbers (what a stray file could leave)
    from presstime.device.journal import encode_header

    base = _MAX_SEQ - 2
    fs.files["journal.bin.%d" % base] = bytearray(encode_header(base, True))
    fs.files["journal.bin.%d" % (10**12)] = bytearray(b"stray")  # not a segment: left alone
    j = Journal(
        "journal.bin", opener=fs.open, remove=fs.remove, rename=fs.rename, listdir=fs.listdir
    )
    assert j.last_seq == base and "journal.bin.%d" % (10**12) in fs.files
    port = FakePort(players=2, pixels=8)
    app = App(port, j, {"players": 2})
    port.tap(-1, at_ms=port.now_ms() + 5)
    port.tap(0, at_ms=port.now_ms() + 4000)
    run_for(app, port, 5000)  # no exception out of step()
    assert app.table.phase == 3 and app.status()["journal"] == "failing"
    assert app.status()["players"][0]["token"] == 1
