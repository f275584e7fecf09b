# SPDX-License-Identifier: MIT
"""The journal on the Pico's littlefs (littlefs-python, the rp2 geometry) through games: an append
that erased reopens its file, so littlefs does not go on compacting the folder's metadata at
every append (device/journal.py append_many; docs/journal.md, "Compactions").

The board sees an erasing append by its length; here the flash keeps that clock (45 ms an erase,
1 ms a program) and the journal reads it as time.ticks_ms (bench/lfs_compactions.py).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "bench"))

import lfs_compactions as lc  # noqa: E402


def test_an_append_that_erased_reopens_so_the_next_does_not_erase_again():
    per_append = lc.games(12)
    assert lc.back_to_back(per_append) == 0, lc.per_game(per_append)
    assert max(lc.per_game(per_append)) <= 8, lc.per_game(per_append)


def test_without_the_reopen_littlefs_compacts_at_every_append_for_a_while():
    # What the reopen is for, as this littlefs does it: should a littlefs release stop doing
    # it, this fails, and the reopen (and this test) can go.
    per_append = lc.games(12, clock_on=False)
    assert lc.back_to_back(per_append) >= 10, lc.per_game(per_append)
    assert max(lc.per_game(per_append)) >= 20, lc.per_game(per_append)


def test_the_clock_is_given_back():
    import time

    had = hasattr(time, "ticks_ms")
    lc.games(1)
    lc.games(1, clock_on=False)
    assert hasattr(time, "ticks_ms") == had


def test_a_round_as_played_has_erases_while_it_runs():
    # Why no scheduling of compactions between rounds can keep a real round free of erases:
    # the once-a-second checkpoint alone fills the folder's metadata block (256-byte commits)
    # every ~12 s of a 2-minute round (docs/journal.md, "Compactions").
    per_round = lc.long_rounds(2)
    assert all(e >= 5 for e in per_round), per_round
