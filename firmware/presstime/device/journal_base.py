# SPDX-License-Identifier: MIT
"""What the main loop and the link need from a journal: the journal contract.

Every journal the app is given subclasses JournalBase: journal.py's Journal (on flash, safe
against a power cut), ports/ram_journal.py's RamJournal (a board whose drive the firmware cannot
write), memstore.py's MemJournal (tests). The defaults below are what a journal that does not
override them does; the app and the link read these names directly, never probe for them.

Sequence numbers start at 1 and only grow; `records(after_seq)` is what `presstime sync` pulls.
"""


class JournalBase:
    base_seq = 0            # seq just before the current game's first record (0: all of them)
    last_seq = 0            # seq of the newest record (base_seq if the current game has none)
    volatile = False        # True: nothing survives a reset (a RAM journal)

    def append(self, payload):
        """Write one record (bytes); returns its seq."""
        raise NotImplementedError

    def append_many(self, payloads):
        """Write several records, oldest first; returns the last seq. A journal on flash does
        it in one write and one flush."""
        seq = self.last_seq
        for p in payloads:
            seq = self.append(p)
        return seq

    def records(self, after_seq=0, limit=None):
        """[(seq, payload bytes)] after `after_seq`, oldest first, at most `limit`."""
        raise NotImplementedError

    def reset(self):
        """Start a new game (configure does): seq continues. A journal that keeps one game per
        file starts a new one and moves base_seq; the default keeps appending."""

    def close(self):
        pass
