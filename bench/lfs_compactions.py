# SPDX-License-Identifier: MIT
"""Diagnostic, no target: sector erases per game of the board's journal on littlefs, on the host
(littlefs-python with the Pico's geometry: tests/littlefs_device.py, 352 blocks of 4 KB).

    python bench/lfs_compactions.py [GAMES]

Each game is the table's journal pattern: a set-up and a new journal game, then three rounds of
six ready presses, the start and the go, the round checkpoint rewritten beside the journal, six
prints, the end and the next round; then the board is switched off and on. The flash keeps the
chip's time on a clock the journal reads as MicroPython's `time.ticks_ms` (45 ms an erase, 1 ms
a program), so an append that erased is seen as on the board.

Printed for the journal as it is ("reopen": an append that erased reopens its file) and with the
clock gone ("as before": what the journal did before it reopened): the erases per game, and the
appends that erased right after one that did. Then a round as a table plays it, not as the
bench's short ones: 120 s running, the checkpoint rewritten every second, six prints spread
through it; the erases that fall while it runs. docs/journal.md, "Compactions", says what they
show; tests/test_journal_compactions.py holds it.
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import littlefs  # noqa: E402

import littlefs_device as ld  # noqa: E402
from presstime.device.journal import Journal  # noqa: E402

GEOMETRY = dict(ld.GEOMETRY, block_count=352)  # the Pico's littlefs partition
ERASE_MS = 45
PROGRAM_MS = 1


class TimedFlash(littlefs.UserContext):
    """A flash whose erases and programs take the chip's time on `clock` ([ms]); every erase's
    block goes to `erases`."""

    def __init__(self, buffer, clock, erases):
        super().__init__(buffer=buffer)
        self.clock = clock
        self.erases = erases

    def prog(self, cfg, block, off, data):
        self.clock[0] += PROGRAM_MS
        return super().prog(cfg, block, off, data)

    def erase(self, cfg, block):
        self.clock[0] += ERASE_MS
        self.erases.append(block)
        return super().erase(cfg, block)


def games(n, clock_on=True):
    """Erases of each append, in order, through `n` games (as the module docstring says). With
    `clock_on`, the journal reads the flash's clock as time.ticks_ms; without, it has none (as
    on CPython). Raises AssertionError if a record is lost."""
    return _clocked(lambda clock, erases: _play(n, clock, erases), clock_on)


def long_rounds(n=3, seconds=120):
    """Erases while each of `n` rounds of `seconds` runs (the journal as it is, reopening): the
    go, then every second the checkpoint rewritten, a print every seconds / 6."""
    return _clocked(lambda clock, erases: _long(n, seconds, clock, erases), True)


def _clocked(run, clock_on):
    clock = [0]
    erases = []
    had = {k: getattr(time, k) for k in ("ticks_ms", "ticks_diff") if hasattr(time, k)}
    if clock_on:
        time.ticks_ms = lambda: clock[0]
        time.ticks_diff = lambda a, b: a - b
    else:
        for k in had:
            delattr(time, k)
    try:
        return run(clock, erases)
    finally:
        for k in ("ticks_ms", "ticks_diff"):
            if hasattr(time, k):
                delattr(time, k)
        for k, v in had.items():
            setattr(time, k, v)


def _mounter(clock, erases):
    image = bytearray(b"\xff" * (GEOMETRY["block_size"] * GEOMETRY["block_count"]))

    def mount(first=False):
        fs = littlefs.LittleFS(TimedFlash(image, clock, erases), mount=False, **GEOMETRY)
        if first:
            fs.format()
        fs.mount()
        return fs

    return mount


# the table's journal pattern, record by record (the first byte is the event's kind)
SETUP = bytes([1]) + bytes(40)
READY_CHECK = [bytes([2, p]) for p in range(6)] + [bytes([3])]  # six ready presses, the start
GO = bytes([4, 0, 0, 0, 0])
ROUND_END = [bytes([8]), bytes([12])]  # the round's end, the next round


def _print(p):
    return bytes([5, p]) + bytes(6)


def _checkpoint(fs):
    with fs.open("journal/journal.bin.run", "wb") as f:
        f.write(bytes(8))


def _journal(fs):
    return ld.journal_on(fs, Journal, "journal/journal.bin")


def _long(n, seconds, clock, erases):
    fs = _mounter(clock, erases)(first=True)
    fs.mkdir("journal")
    j = _journal(fs)
    j.append(SETUP)
    j.reset()
    out = []
    for _ in range(n):
        for payload in READY_CHECK:
            j.append(payload)
        k = len(erases)
        j.append(GO)
        for s in range(seconds):
            _checkpoint(fs)
            if s % (seconds // 6) == seconds // 12:
                j.append(_print(s * 6 // seconds))
        out.append(len(erases) - k)
        for payload in ROUND_END:
            j.append(payload)
    j.close()
    return out


def _play(n, clock, erases):
    mount = _mounter(clock, erases)
    fs = mount(first=True)
    fs.mkdir("journal")
    j = _journal(fs)
    per_append = []

    def append(payload):
        k = len(erases)
        j.append(payload)
        per_append.append(len(erases) - k)

    for _ in range(n):
        append(SETUP)
        j.reset()
        for _ in range(3):
            for payload in READY_CHECK:
                append(payload)
            append(GO)
            _checkpoint(fs)
            for p in range(6):
                append(_print(p))
            for payload in ROUND_END:
                append(payload)
        j.close()
        fs.unmount()
        fs = mount()
        j = _journal(fs)
    seqs = [s for s, _ in j.records()]
    assert seqs == list(range(1, len(per_append) + 1)), "records lost"
    j.close()
    return per_append


APPENDS_PER_GAME = 1 + 3 * 16


def per_game(per_append):
    k = APPENDS_PER_GAME
    return [sum(per_append[i : i + k]) for i in range(0, len(per_append), k)]


def back_to_back(per_append):
    """Appends that erased right after an append that erased."""
    return sum(1 for a, b in zip(per_append, per_append[1:]) if a and b)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for name, clock_on in (("reopen", True), ("as before", False)):
        per_append = games(n, clock_on)
        g = per_game(per_append)
        print(
            "%-9s erases per game %s: mean %.1f, max %d; appends erasing right after one that"
            " erased: %d" % (name, g, sum(g) / n, max(g), back_to_back(per_append))
        )
    print("a 120 s round as played: erases while it runs, three rounds: %s" % long_rounds())


if __name__ == "__main__":
    main()
