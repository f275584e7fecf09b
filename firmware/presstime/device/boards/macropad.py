# SPDX-License-Identifier: MIT
"""Adafruit Macropad RP2040, CircuitPython: pin map as data (no soldering needed).

The Macropad has 12 keys (3 columns x 4 rows, KEY1 top left) with one NeoPixel under each key
(pixel i sits under KEY(i+1)), a rotary encoder with a push switch, a small speaker and an OLED.
Read by ports/macropad.py and quoted by hardware/make_wiring.py. Names are attributes of
CircuitPython's `board` module.
"""

NAME = "macropad"
TITLE = "Adafruit Macropad RP2040, CircuitPython"

# All 12 keys, in pixel order (board.KEY1 .. board.KEY12).
KEY_PINS = ("KEY1", "KEY2", "KEY3", "KEY4", "KEY5", "KEY6",
            "KEY7", "KEY8", "KEY9", "KEY10", "KEY11", "KEY12")
# Player buttons (seat order): the bottom two rows, so players reach them from either side.
# Values index KEY_PINS. Their pixels are the player lights.
PLAYER_KEYS = (6, 7, 8, 9, 10, 11)
# The encoder's push switch is the control button.
CONTROL_PIN = "ENCODER_SWITCH"
BUTTON_ACTIVE_LOW = True
# Hold this key (KEY1, top left) while plugging in or resetting: boot.py then leaves the
# CIRCUITPY drive writable for the computer ("edit mode", journal in RAM only). Not the encoder
# knob: on the Macropad it is also the RP2040's BOOT button (held at reset = UF2 bootloader).
EDIT_MODE_KEY = 0
# The "back" key of the board's own screens (score entry): KEY1, top left, no player's key.
# buttons() reports it as button -2.
BACK_KEY = 0
# Keys not used by players (top two rows): their pixels show the countdown bar.
COUNTDOWN_KEYS = (0, 1, 2, 3, 4, 5)
PIXEL_PIN = "NEOPIXEL"
PIXEL_COUNT = 12
SPEAKER_PIN = "SPEAKER"
SPEAKER_ENABLE_PIN = "SPEAKER_ENABLE"
# Brightness cap (0..255 per channel): 12 pixels at this cap stay far below the USB budget.
MAX_CHANNEL = 64
# The rotary encoder (rotaryio): its two phases. Its push switch is CONTROL_PIN.
ENCODER_A_PIN = "ROTA"
ENCODER_B_PIN = "ROTB"
DISPLAY = "DISPLAY"      # the OLED, which CircuitPython sets up itself (displayio)
# The OLED (board.DISPLAY, 128 x 64) as a grid of terminalio's 6 x 12 glyphs: 21 x 5 characters.
SCREEN_COLS = 21
SCREEN_LINES = 5
# keypad.Keys scan interval in seconds (CircuitPython's default is 0.020): 1 ms resolution.
SCAN_INTERVAL_S = 0.001
