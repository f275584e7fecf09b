"""Power cuts on the MacroPad build (CircuitPython 10.2.1's FAT on the emulated 8 MB flash): cut
at seeded instants across a round, the chip reboots from whatever the cut left (torn erase or
program included), and the app must come back: it answers hello, and its journal holds, in
order and undamaged, every record it had finished writing before the cut (a round in play is
not journaled until it ends: that round is what a cut costs, docs/journal.md).
bench/bench_cp_cuts.py runs more of them and reports them by class."""

import pytest

from presstime.core import events as E

from rig.macropad_games import cut_once


@pytest.mark.parametrize("seed,where", [(1, "any"), (2, E.START), (3, E.END), (4, E.NEXT)])
def test_the_app_boots_after_a_cut_and_keeps_what_it_had_written(rig_dir, macropad_image, seed, where):
    r = cut_once(rig_dir, macropad_image, seed, where)
    kinds, due, hello, records = r["kinds"], r["due"], r["hello"], r["records"]
    assert hello is not None, "the app did not come back after the cut"
    got = [E.decode(p)[0] for _, p in records]
    assert [s for s, _ in records] == list(range(1, len(records) + 1))   # an unbroken chain
    if got and got[-1] == E.ABORT and E.START in got:
        got.pop()                           # the boot took a round cut in its countdown back
    assert got == kinds[:len(got)]          # a prefix of what the app journals: nothing foreign
    assert len(got) >= due, "records written before the cut are missing: %d of %d" % (len(got), due)
