"""The board under a real table's load, on the official firmware with the rig's timing model
(issue 23): one game of bench/bench_rp2_table.py's run (rig/table_load.py: the desktop watching
the status as `presstime play` does, bouncy contacts, a press 5-30 ms after another every round,
a reset in the middle of the second round and one after the game), checked against the bench's
own player-facing TARGETS, so a regression fails here and not only in a benchmark nobody reran.
Two to five minutes of wall time. Skips without the rig (PRESSTIME_RP2EMU)."""

import os
import sys

import pytest

from helpers import assert_a_table_run, target_params

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "bench"))

# the bench's targets that a single game can show (the count of presses needs the three games)
PLAYER_FACING = (
    "rp2_press_light_ms_p95",
    "rp2_press_light_none",
    "rp2_status_reply_ms_p99",
    "rp2_reply_ms_max",
    "rp2_cpu_busy_pct_attached",
    "rp2_boot_to_ready_ms",
)


@pytest.fixture(scope="module")
def one_game(rig_dir, pico_image):
    from rig.table_load import table_run

    return table_run(rig_dir, pico_image, games=1)


def test_the_run_is_a_table(one_game):
    """What the figures stand on: every press scheduled, three boots, the desktop's polls."""
    assert_a_table_run(one_game)


# the targets this board still misses on the one-game run, with the figure measured
# (docs/benchmarks.md): strict, so the day one is met the test says so
MISSED = {
    "rp2_boot_to_ready_ms": "710.0 ms after a played game (target 600)",
}

# The slowest light of one game is one press: the one a littlefs erase (45 ms, the chip held)
# falls under. Where the erases fall depends on the flash's layout, and two installs of the
# same firmware give two layouts (the image is made by `install-firmware` on a free-running
# rig: the files' modification times differ, and with them ~900 bytes in 11 of the 50 blocks
# used, some blocks placed elsewhere). On one firmware, 48.0 ms on one image and over 50 on
# another, so one game cannot say met or missed for a 50 ms target; the bench's three games
# carry that (docs/benchmarks.md). Here: no light slower than an erase plus a status reply in
# flight.
LIGHT_MAX_BOUND_MS = 70


@pytest.mark.parametrize("key", target_params(PLAYER_FACING, MISSED))
def test_the_player_facing_target_is_met(one_game, key):
    import bench_rp2_table
    from targets import misses

    got = bench_rp2_table.figures(one_game)
    assert misses(got, {key: bench_rp2_table.TARGETS[key]}) == []


def test_no_light_is_slower_than_an_erase_under_a_press(one_game):
    import bench_rp2_table

    got = bench_rp2_table.figures(one_game)["rp2_press_light_ms_max"]
    assert 0 < got <= LIGHT_MAX_BOUND_MS
