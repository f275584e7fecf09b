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

# The optional screen and knob (scoring on the board, issue 27; hardware/README.md): an SSD1306
# 128 x 64 OLED on I2C0 at 0x3C and a rotary encoder with a push switch, plus a back key. The
# firmware looks for the OLED at boot (a write to its address: ports/rp2.py main); only when it
# answers are the knob's and the back key's pins set up (ports/rp2_screen.py).
OLED_I2C = 0            # the RP2040's I2C0 (GP20 is one of its SDA pins, GP21 an SCL pin)
OLED_SDA_PIN = 20
OLED_SCL_PIN = 21
OLED_ADDR = 0x3C
OLED_HZ = 400000
# The encoder: A (often marked CLK) and B (DT) switch to GND, a quarter cycle apart, internal
# pull-ups; four edges a detent, clockwise when B falls first. Its push switch (SW) is a second
# control button (the knob's press confirms a number); the back key goes a question back.
ENCODER_A_PIN = 18
ENCODER_B_PIN = 19
ENCODER_SWITCH_PIN = 17
BACK_PIN = 22
# The OLED as a grid of MicroPython's framebuf font (8 x 8): 16 characters on 8 lines.
SCREEN_COLS = 16
SCREEN_LINES = 8

# GPIO number -> Pico header pin (1..40).
PHYSICAL = {
    2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
    12: 16, 13: 17, 14: 19, 15: 20, 16: 21,
    17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29,
}
# Power and ground pins used by the build.
POWER = (("VBUS (5 V from USB)", 40), ("3V3(OUT)", 36), ("GND", 38), ("GND", 3), ("GND", 8), ("GND", 13), ("GND", 18), ("GND", 23))
