"""rig/table_load.py's press -> light figure, on frames made here (no rig needed)."""

from rig.rp2emu import MS
from rig.table_load import light_latencies

OFF, RED, GREEN = (0, 0, 0), (64, 0, 0), (0, 64, 0)
PLAYER_PIXELS = (6, 7, 8, 9, 10, 11)  # the MacroPad's player keys


def frame(player_colour):
    return [OFF] * 6 + [player_colour] * 6


def test_a_light_is_timed_from_the_press_to_the_pixel_leaving_its_values():
    frames = [(0, frame(RED)), (900 * MS, frame(RED)), (1030 * MS, frame(GREEN))]
    assert light_latencies(frames, [(0, 1000 * MS)], PLAYER_PIXELS) == [30.0]


def test_a_press_whose_pixel_never_changes_has_no_light():
    frames = [(0, frame(RED)), (1030 * MS, frame(RED))]
    assert light_latencies(frames, [(0, 1000 * MS)], PLAYER_PIXELS) == [None]


def test_circuitpythons_one_pixel_status_frames_at_boot_are_not_the_apps():
    """The MacroPad's boot shows CircuitPython's status on pixel 0 alone: a one-pixel frame
    (it made the MacroPad's table run fail with an IndexError)."""
    frames = [(0, [GREEN]), (500 * MS, frame(RED)), (1020 * MS, [RED]), (1040 * MS, frame(GREEN))]
    assert light_latencies(frames, [(3, 1000 * MS)], PLAYER_PIXELS) == [40.0]


def test_a_round_press_is_timed_against_its_round_not_the_countdown_before_it():
    """Ready and counting down, the pixel is steady in the player's colour, the colour of a
    press's first flash: timed against the 2 s before, a press 300 ms into the round found its
    flash 'seen before' and was timed to the flash's dim half (161 ms instead of 39 on the
    MacroPad's table run)."""
    waiting, dim = (21, 3, 3), (10, 1, 1)
    frames = [
        (0, frame(RED)),  # ready, counting down
        (1700 * MS, frame(waiting)),  # the round's go
        (2039 * MS, frame(RED)),  # the press's flash
        (2161 * MS, frame(dim)),
    ]
    press = [(0, 2000 * MS)]
    assert light_latencies(frames, press, PLAYER_PIXELS) == [161.0]
    assert light_latencies(frames, press, PLAYER_PIXELS, since=[1690 * MS]) == [39.0]
