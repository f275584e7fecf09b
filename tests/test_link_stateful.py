"""A stateful test of the link and the sync: a lossy, noisy line between the desktop and a board.

The board is the real device Link over a real Journal file; the desktop is the real BoardClient,
journal.pull and the real sqlite Store. Between them a channel injects garbage, re-chunks
the stream, drops and duplicates frames, and can be cut mid-sync; the board can be reset
(journal reopened from its file, link state and reply cache lost).

Invariant: the desktop's journal is always a prefix of the board's, without duplicates, and
equal to it after a final clean sync.
"""

import os
import random
import shutil
import tempfile

import pytest
from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from presstime.board.link import BoardClient, LinkError, Transport
from presstime.core import wire
from presstime.device.journal import Journal
from presstime.device.link import Link
from presstime.errors import Failure
from presstime.history.store import Store
from presstime.sync.journal import pull

Journal.FSYNC = False


class FakeApp:
    """Only what the link needs for a sync: status with a version, and the journal."""

    def __init__(self, journal):
        self.journal = journal
        self.version = 1

    def status(self):
        return {"version": self.version, "game": None}


class BoardPort:
    board = "test"
    uid = "test-board"

    def __init__(self):
        self.inbox = b""
        self.outbox = b""

    def read(self):
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data):
        self.outbox += data

    def now_ms(self):
        return 0


class Channel(Transport):
    """The cable: the board answers during read(); faults come from a seeded random."""

    def __init__(self, machine, rnd, faults, cut_after=None, at=None, action=None):
        Transport.__init__(self)
        self.m = machine
        self.rnd = rnd
        self.faults = faults
        self.cut_after = cut_after
        self.at = at  # after this many bytes on the wire, run `action` once
        self.action = action

    def _mangle(self, data):
        if not self.faults:
            return [data]
        r = self.rnd
        if r.random() < 0.15:
            return []  # frame lost
        if r.random() < 0.15:
            data = data + data  # frame duplicated
        if r.random() < 0.2:
            data = bytes(r.getrandbits(8) for _ in range(r.randint(1, 12))) + data  # noise
        if r.random() < 0.05 and len(data) > 4:
            i = r.randrange(len(data))
            data = data[:i] + bytes((data[i] ^ 0x40,)) + data[i + 1 :]  # bit flip
        step = r.randint(1, 40)
        return [data[i : i + step] for i in range(0, len(data), step)]  # re-chunked

    def _check_cable(self):
        if self.at is not None and self.bytes_in + self.bytes_out >= self.at:
            self.at = None
            self.action()
        if self.cut_after is not None and self.bytes_in + self.bytes_out >= self.cut_after:
            raise LinkError("cable pulled")

    def _write(self, data):
        self._check_cable()
        for chunk in self._mangle(data):
            self.m.port.inbox += chunk

    def _read(self, timeout):
        self._check_cable()
        self.m.link.poll()
        out, self.m.port.outbox = self.m.port.outbox, b""
        return b"".join(self._mangle(out)) if out else b""


class LinkMachine(RuleBasedStateMachine):
    @initialize()
    def setup(self):
        self.dir = tempfile.mkdtemp()
        self.path = os.path.join(self.dir, "journal.bin")
        self.store = Store(os.path.join(self.dir, "history.db"))
        self.boot()
        self.board_id = None

    def boot(self):
        self.journal = Journal(self.path)
        self.app = FakeApp(self.journal)
        self.port = BoardPort()
        self.link = Link(self.app, self.port)

    def teardown(self):
        self.journal.close()
        self.store.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def client(self, seed, faults, cut_after=None, at=None, action=None):
        return BoardClient(
            Channel(self, random.Random(seed), faults, cut_after, at, action),
            timeout=0.005,
            retries=8,
        )

    def board_records(self):
        return self.journal.records(0)

    @rule(payloads=st.lists(st.binary(min_size=1, max_size=40), min_size=1, max_size=30))
    def play_events(self, payloads):
        for p in payloads:
            self.journal.append(p)
        self.app.version += 1

    @rule()
    def device_reset(self):
        self.journal.close()
        self.boot()

    @rule(seed=st.integers(0, 2**16), faults=st.booleans())
    def sync(self, seed, faults):
        try:
            self.board_id, _ = pull(self.client(seed, faults), self.store)
        except LinkError:
            pass  # gave up after its retries: the next sync resumes

    @rule(seed=st.integers(0, 2**16), cut=st.integers(0, 600), faults=st.booleans())
    def cable_pulled_mid_sync(self, seed, cut, faults):
        try:
            self.board_id, _ = pull(self.client(seed, faults, cut_after=cut), self.store)
        except LinkError:
            pass

    @rule(seed=st.integers(0, 2**16), at=st.integers(0, 400), faults=st.booleans())
    def device_reset_mid_sync(self, seed, at, faults):
        try:
            self.board_id, _ = pull(
                self.client(seed, faults, at=at, action=self.device_reset), self.store
            )
        except LinkError:
            pass

    @rule(
        seed=st.integers(0, 2**16),
        at=st.integers(0, 400),
        payloads=st.lists(st.binary(min_size=1, max_size=20), min_size=1, max_size=5),
    )
    def board_plays_on_mid_sync(self, seed, at, payloads):
        try:
            self.board_id, _ = pull(
                self.client(seed, False, at=at, action=lambda: self.play_events(payloads)),
                self.store,
            )
        except LinkError:
            pass

    @rule(seed=st.integers(0, 255))
    def replayed_old_request(self, seed):
        # a stale, retried state change arriving late: refused or answered from the cache,
        # never applied twice; the sync state is untouched
        c = self.client(seed, False)
        try:
            c.request(wire.START, {"v": self.app.version - 1})
        except Failure:
            pass

    @invariant()
    def desktop_is_a_prefix(self):
        if not hasattr(self, "store"):
            return
        mine = self.store.journal(self.link.board_id())
        seqs = [s for s, _ in mine]
        assert len(seqs) == len(set(seqs))
        assert mine == self.board_records()[: len(mine)]

    def final_sync_equal(self):
        self.board_id, _ = pull(self.client(0, False), self.store)
        assert self.store.journal(self.link.board_id()) == self.board_records()


class Checked(LinkMachine):
    def teardown(self):
        if hasattr(self, "store"):
            self.final_sync_equal()
        LinkMachine.teardown(self)


Checked.TestCase.settings = settings(max_examples=100, stateful_step_count=25, deadline=None)
TestLinkSync = Checked.TestCase
TestLinkSync.pytestmark = [pytest.mark.slow]
