"""Power cuts on the MacroPad build (CircuitPython 10.2.1's FAT on the emulated 8 MB flash): the
power is cut during a Fit to Print round, the chip reboots from whatever the cut left (the flash
operation in progress torn), and the app keeps what docs/journal.md ("The MacroPad") promises:

- it always comes back (answers hello on usb_cdc.data): a cut never reaches its own files;
- its journal is an unbroken chain, a prefix of the game (plus the ABORT a boot adds for a round
  it finds cut in play): never a damaged or foreign record;
- a cut between its writes loses no record it had written; a cut inside a write can lose only
  what the 4 KB flash sector being rewritten held (journal records, the journal's folder).

Two cuts, small for CI; bench/bench_cp_cuts.py runs many, seeded, and counts them by class."""

import pytest

from presstime.core import events as E
from rig.macropad_cuts import check, cut_once, journal_part


def test_a_cut_tearing_the_journals_directory_sector_leaves_an_app_that_answers(
    rig_dir, macropad_image
):
    # The cut that left the app silent: the START write's second flash sector (the directory
    # entry of the journal's segment), erased whole. With the journal at the drive's top, that
    # sector held code.py's and boot.py's entries too: CircuitPython came back with no code.py.
    r = cut_once(rig_dir, macropad_image, 8, E.START, offset_ms=98, tear_bytes=4096)
    assert r["hello"] is not None, "the app did not come back: %r (console %r)" % (
        r["class"],
        r["console"][-300:],
    )
    broken = check(r)
    op = (r["cut"] or {}).get("op")
    if op:
        # the sector rewritten was the journal's, never one holding the app's files
        assert all(journal_part(t) or t == "FAT" for t in r["torn"]), r["torn"]
        broken = [b for b in broken if "missing" not in b]  # what the torn sector held
    assert broken == [], (r["class"], broken)


@pytest.mark.parametrize("seed", [3])
def test_a_cut_between_writes_keeps_every_record_written(rig_dir, macropad_image, seed):
    # in the round's countdown and play: its events wait in RAM (hold_round_writes), so the
    # cut costs that round (the board comes back in its ready check), nothing written before
    r = cut_once(rig_dir, macropad_image, seed, E.START, offset_ms=1500)
    assert (r["cut"] or {}).get("op") is None, r["class"]
    assert check(r) == [], r["class"]
    got = [E.decode(p)[0] for _, p in r["records"]]
    assert got == [E.CONFIG, E.START, E.ABORT]
