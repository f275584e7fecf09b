# SPDX-License-Identifier: MIT
"""A journal kept in RAM: the fallback when a board's flash is not writable by the firmware.

Same calls as device/journal.py's Journal (append, records, last_seq, reset, close), so the app
and the link run unchanged, but nothing survives a reset. Used by the Macropad in "edit mode"
(KEY1 held at reset: the CIRCUITPY drive stays writable for the computer instead).
"""


from ..journal_base import JournalBase


class RamJournal(JournalBase):
    volatile = True
    limit = 2000            # records kept (oldest dropped first): bounded RAM

    def __init__(self):
        self.base_seq = 0
        self.last_seq = 0
        self.size_bytes = 0
        self.dropped_bytes = 0
        self._recs = []

    def append(self, payload):
        self.last_seq += 1
        self._recs.append((self.last_seq, bytes(payload)))
        self.size_bytes += len(payload)
        if len(self._recs) > self.limit:
            self._recs.pop(0)
        return self.last_seq

    def records(self, after_seq=0, limit=None):
        out = []
        for rec in self._recs:
            if rec[0] > after_seq:
                if limit is not None and len(out) >= limit:
                    break
                out.append(rec)
        return out

    def reset(self):
        self.base_seq = self.last_seq

    def close(self):
        pass
