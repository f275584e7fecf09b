"""Journal (issue 3): the cost of one append, of a boot scan, and of the flash work behind them.

journal_append_us_micropython: median time of one Journal.append (8-byte payload, the size of a
    PRESS event) under the MicroPython unix port: encoding, CRC, write, flush. The files are the
    RAM file system of tests/journal_fakes.py, so this is the interpreter's part of an append
    (the host's disk would only add noise); the flash part on a board is the figures below.
journal_boot_ms_micropython: median time to open (list, scan and check) a journal of 200
    records, as the board does at boot, under the MicroPython unix port, same RAM files.
journal_rp2_erases_per_append: mean 4 KB erases per append over a 200-record journal on
    littlefs with the rp2 geometry (tests/littlefs_device.py), each append flushed.
journal_rp2_append_ms_est / _max: the flash time per append (mean / worst) those erases and
    256-byte programs take at the Pico's W25Q16JV typical datasheet figures: sector erase
    45 ms, page program 0.4 ms (worst-case figures are 400 ms and 3 ms).
journal_rp2_batch8_ms_est: the same for 8 records written with one append_many (one commit),
    per record, mean.
"""

import os
import sys

from mpytools import ROOT, micropython

KEYS = (
    "journal_append_us_micropython",
    "journal_boot_ms_micropython",
    "journal_rp2_erases_per_append",
    "journal_rp2_append_ms_est",
    "journal_rp2_append_ms_max_est",
    "journal_rp2_batch8_ms_est",
)

RECORDS = 200
ERASE_MS = 45.0
PROG_MS = 0.4

_MPY_SCRIPT = """
import time
sys.path.insert(0, %r)
from presstime.device.journal import Journal
import journal_fakes
fs = journal_fakes.FakeFS()
j = journal_fakes.make_journal(fs, Journal)
t = []
for i in range(%d):
    a = time.ticks_us()
    j.append(bytes((5, i %% 6, 1, 0, i & 255, 1, 2, 3)))
    t.append(time.ticks_diff(time.ticks_us(), a))
j.close()
t.sort()
b = []
for k in range(9):
    a = time.ticks_us()
    journal_fakes.make_journal(fs, Journal).close()
    b.append(time.ticks_diff(time.ticks_us(), a))
b.sort()
print(t[len(t) // 2], b[len(b) // 2])
"""


def _micropython_figures():
    script = _MPY_SCRIPT % (os.path.join(ROOT, "tests"), RECORDS)
    code, out, err = micropython(script, heap_kb=256)
    if code != 0:
        raise RuntimeError("micropython failed: %s" % (err or out).strip()[-400:])
    append_us, boot_us = out.split()
    return int(append_us), round(int(boot_us) / 1000.0, 2)


def _flash_figures():
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    import littlefs

    import littlefs_device as ld
    from presstime.device.journal import Journal

    class Counting(ld.CutDevice):
        def __init__(self, buffer):
            super().__init__(buffer)
            self.erases = self.progs = 0

        def prog(self, cfg, block, off, data):
            self.progs += (len(data) + 255) // 256
            return super().prog(cfg, block, off, data)

        def erase(self, cfg, block):
            self.erases += 1
            return super().erase(cfg, block)

    def run(batch):
        dev = Counting(ld.formatted_image())
        fs = littlefs.LittleFS(dev, mount=False, **ld.GEOMETRY)
        fs.mount()
        j = ld.journal_on(fs, Journal)
        costs = []
        erases = 0
        for i in range(0, RECORDS, batch):
            e, p = dev.erases, dev.progs
            j.append_many([bytes((5, k % 6, 1, 0, k & 255, 1, 2, 3)) for k in range(i, i + batch)])
            erases += dev.erases - e
            costs.append((dev.erases - e) * ERASE_MS + (dev.progs - p) * PROG_MS)
        j.close()
        return erases, costs

    erases, costs = run(1)
    _, costs8 = run(8)
    return (
        round(erases / float(RECORDS), 2),
        round(sum(costs) / len(costs), 1),
        round(max(costs), 1),
        round(sum(costs8) / float(RECORDS), 1),
    )


def measure():
    append_us, boot_ms = _micropython_figures()
    erases, mean_ms, max_ms, batch_ms = _flash_figures()
    return {
        "journal_append_us_micropython": append_us,
        "journal_boot_ms_micropython": boot_ms,
        "journal_rp2_erases_per_append": erases,
        "journal_rp2_append_ms_est": mean_ms,
        "journal_rp2_append_ms_max_est": max_ms,
        "journal_rp2_batch8_ms_est": batch_ms,
    }


if __name__ == "__main__":
    print(measure())
