# SPDX-License-Identifier: MIT
"""In-memory stand-ins for the app's journal and round checkpoint (tests, and a board without
a writable file system). Imported on demand (`from presstime.device.app import MemJournal`
still works): a board with its journal on flash never loads them.
"""


from .journal_base import JournalBase


class MemMark:
    """In-memory checkpoint (tests, or a port without a writable file system)."""

    def __init__(self):
        self.data = None

    def load(self):
        return self.data

    def save(self, data):
        self.data = bytes(data)


class MemJournal(JournalBase):
    """In-memory stand-in with the Journal API (a board without a writable drive, tests)."""

    def __init__(self):
        self._recs = []

    def append(self, payload):
        self._recs.append(bytes(payload))
        return len(self._recs)

    def records(self, after_seq=0, limit=None):
        end = len(self._recs) if limit is None else min(len(self._recs), after_seq + limit)
        return [(i + 1, self._recs[i]) for i in range(after_seq, end)]

    @property
    def last_seq(self):
        return len(self._recs)
