"""The control button's gestures (device/app.py ControlButton) on a fake clock: press, double
press, holds; each fires once, a hold is never a short press, a double never two."""

import pytest

from presstime.device.app import ControlButton


@pytest.fixture
def button():
    got = []
    b = ControlButton(
        lambda t: got.append(("short", t)),
        lambda t: got.append(("double", t)),
        lambda t, level: got.append(("hold", t, level)),
    )
    b.got = got
    return b


def press(b, t0_ms, t1_ms):
    b.edge(True, t0_ms * 1000)
    b.poll(t0_ms)
    b.edge(False, t1_ms * 1000)


def test_a_short_press_is_taken_once_no_second_came(button):
    press(button, 1000, 1100)
    button.poll(1100 + ControlButton.DOUBLE_MS - 1)
    assert button.got == []
    button.poll(1100 + ControlButton.DOUBLE_MS)
    button.poll(5000)
    assert button.got == [("short", 1500)]


def test_a_double_press_is_one_double_at_its_second_down_edge(button):
    press(button, 1000, 1100)
    press(button, 1300, 1350)
    button.poll(3000)
    assert button.got == [("double", 1300)]


def test_a_second_press_too_late_is_two_shorts(button):
    press(button, 1000, 1100)
    button.poll(1600)
    press(button, 1700, 1800)
    button.poll(2300)
    assert button.got == [("short", 1500), ("short", 2200)]


def test_a_short_press_acts_at_release_plus_the_double_window_however_late_the_poll(button):
    """The loop may poll late (a flash write, a status reply): the short press still acts at
    release + DOUBLE_MS, so the board and the simulator agree to the ms."""
    press(button, 1000, 1100)
    button.poll(1637)
    assert button.got == [("short", 1500)]


def test_holds_fire_once_each_with_the_down_time_then_the_hold_time(button):
    button.edge(True, 10000 * 1000)
    for now in range(10000, 16001, 100):
        button.poll(now)
    button.edge(False, 16000 * 1000)
    button.poll(20000)
    assert button.got == [("hold", 10000, 1), ("hold", 15000, 2)]


def test_a_hold_seen_only_at_release_still_fires_and_is_no_short(button):
    button.edge(True, 0)
    button.edge(False, 1600 * 1000)  # the loop never polled during the hold
    button.poll(9000)
    assert button.got == [("hold", 0, 1)]


def test_a_release_without_a_press_is_ignored(button):
    button.edge(False, 5000)
    button.poll(9000)
    assert button.got == []
