"""hardware/wiring.md is generated from the board pin maps, and the pin maps make sense."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "hardware"))

import make_wiring  # noqa: E402


def test_committed_wiring_matches_the_pin_maps():
    with open(os.path.join(ROOT, "hardware", "wiring.md"), encoding="utf-8") as f:
        assert f.read() == make_wiring.render(), "run: python hardware/make_wiring.py"


def test_check_mode_exit_status():
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "hardware", "make_wiring.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr


def test_pico_pins_are_distinct_usable_and_on_the_header():
    b = make_wiring.load_board("pico")
    pins = list(b.PLAYER_PINS) + list(b.PLAYER_LED_PINS) + [b.CONTROL_PIN, b.PIEZO_PIN, b.PIXEL_PIN]
    # the optional screen and knob: spare pins, none of the above
    pins += [b.OLED_SDA_PIN, b.OLED_SCL_PIN, b.ENCODER_A_PIN, b.ENCODER_B_PIN]
    pins += [b.ENCODER_SWITCH_PIN, b.BACK_PIN]
    assert len(set(pins)) == len(pins)
    assert len(b.PLAYER_PINS) == len(b.PLAYER_LED_PINS) == 6
    for pin in pins:
        assert 0 <= pin <= 28 and pin not in (23, 24, 25), pin  # GP23-25 are on-board only
        assert pin in b.PHYSICAL
    # the Pico's header: GP0..GP15 on pins 1-20 (skipping the GNDs 3, 8, 13, 18), GP16.. from 21
    gnd = (3, 8, 13, 18)
    left = [p for p in range(1, 21) if p not in gnd]
    for gpio in range(16):
        if gpio in b.PHYSICAL:
            assert b.PHYSICAL[gpio] == left[gpio]
    assert b.PHYSICAL.get(16, 21) == 21
    # the other side, from pin 21 up: GP16-GP22 (skipping the GNDs 23 and 28)
    right = [p for p in range(21, 30) if p not in (23, 28)]
    for gpio in range(16, 23):
        if gpio in b.PHYSICAL:
            assert b.PHYSICAL[gpio] == right[gpio - 16]
    # the RP2040's I2C0 SDA and SCL functions (GPIO 4k and 4k + 1)
    assert b.OLED_I2C == 0 and b.OLED_SDA_PIN % 4 == 0 and b.OLED_SCL_PIN == b.OLED_SDA_PIN + 1
    assert len(b.PLAYER_PIXELS) == 6 and min(b.PLAYER_PIXELS) >= b.PIXEL_COUNT


def test_macropad_keys_are_distinct_and_split_players_and_countdown():
    b = make_wiring.load_board("macropad")
    assert len(b.KEY_PINS) == b.PIXEL_COUNT == 12
    used = list(b.PLAYER_KEYS) + list(b.COUNTDOWN_KEYS)
    assert sorted(used) == list(range(12))


def test_the_power_budget_in_the_readme_matches_the_caps():
    """The README's worst case for the ring uses the pin map's cap (20 mA per channel at 255)."""
    b = make_wiring.load_board("pico")
    ring_ma = b.PIXEL_COUNT * 3 * 20 * b.MAX_CHANNEL // 255
    with open(os.path.join(ROOT, "hardware", "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert "%d mA" % ring_ma in readme
    assert "cap %d" % b.MAX_CHANNEL in readme
