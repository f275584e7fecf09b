"""The MacroPad under a real table's load, on official CircuitPython 10.2.1 with the rig's timing
model (issue 23): one game of bench/bench_cp_table.py's run (rig/table_load.py with
board="macropad": the desktop attached on usb_cdc.data watching the status as `presstime play`
does, bouncy contacts on the keys, a press 5-30 ms after another every round, a reset in the
middle of the second round and one after the game), checked against the bench's own
player-facing TARGETS, so a regression fails here and not only in a benchmark nobody reran.
Several minutes of wall time. Skips without the rig (PRESSTIME_RP2EMU)."""

import os
import sys

import pytest

from helpers import assert_a_table_run, target_params

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "bench"))

# the bench's targets that a single game can show (the count of presses needs the three games)
PLAYER_FACING = (
    "cp_press_light_ms_max",
    "cp_press_light_none",
    "cp_cpu_busy_pct_attached",
    "cp_boot_to_ready_ms",
)


@pytest.fixture(scope="module")
def one_game(rig_dir):
    from rig.macropad import app_image
    from rig.table_load import table_run

    return table_run(rig_dir, app_image(rig_dir), games=1, board="macropad")


def test_the_run_is_a_table(one_game):
    """What the figures stand on: every press scheduled, three boots, the desktop's
    polls over usb_cdc.data."""
    assert_a_table_run(one_game)


# the targets the MacroPad still misses (docs/benchmarks.md, "The MacroPad under the same load"):
# strict, so the day one is met the test says so. None since the 30 ms idle sleep ("Seventh
# pass": CPU busy 21.8 -> 19.5 % on this one-game run)
MISSED = {}


@pytest.mark.parametrize("key", target_params(PLAYER_FACING, MISSED))
def test_the_player_facing_target_is_met(one_game, key):
    import bench_cp_table
    from targets import misses

    got = bench_cp_table.figures(one_game, prefix="cp")
    assert misses(got, {key: bench_cp_table.TARGETS[key]}) == []
