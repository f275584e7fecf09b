# SPDX-License-Identifier: MIT
"""Raspberry Pi Pico (RP2040) table build: pin map as data.

Read by ports/rp2.py and by hardware/make_wiring.py (which writes hardware/wiring.md), so the
firmware and the build guide cannot disagree. Pins are GPIO numbers (GPn); PHYSICAL maps a GPIO
to the Pico's header pin number (1..40) for the wiring table.
"""

NAME = "pico"
TITLE = "Raspberry Pi Pico (RP2040), MicroPython"

# Player arcade buttons, seat order (player 1 first): switch between the GPIO and GND,
# internal pull-up, pressed reads 0.
PLAYER_PINS = (2, 3, 4, 5, 6, 7)
# The LED of each player's arcade button, same order, driven through an NPN transistor
# (or a logic-level MOSFET) from the GPIO: a high GPIO lights the LED.
PLAYER_LED_PINS = (8, 9, 10, 11, 12, 13)
# Control button (start / pause / undo / abort): switch to GND, internal pull-up.
CONTROL_PIN = 14
BUTTON_ACTIVE_LOW = True
# Piezo (passive, driven by PWM): GPIO -> piezo -> GND (a 100 ohm series resistor is fine).
PIEZO_PIN = 15
# NeoPixel (WS2812B) ring: data in on this GPIO, 5 V from VBUS.
PIXEL_PIN = 16
PIXEL_COUNT = 24
# The lights' entries for the player lights: past the ring's 24 pixels, shown on the button
# LEDs above (on/off: any channel lit), so the whole ring is the countdown.
PLAYER_PIXELS = (24, 25, 26, 27, 28, 29)
# Brightness cap (0..255 per channel) the build's power budget assumes: see hardware/README.md.
MAX_CHANNEL = 48

# GPIO number -> Pico header pin (1..40).
PHYSICAL = {
    2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
    12: 16, 13: 17, 14: 19, 15: 20, 16: 21,
}
# Power and ground pins used by the build.
POWER = (("VBUS (5 V from USB)", 40), ("3V3(OUT)", 36), ("GND", 38), ("GND", 3), ("GND", 8), ("GND", 13), ("GND", 18), ("GND", 23))
