import micropython
micropython.kbd_intr(-1)
# SPDX-License-Identifier: MIT
# MicroPython entry (Raspberry Pi Pico build): the presstime table loop with the serial link.
#
# The two lines above come first, before any import of ours: from the moment main.py starts
# running, the rp2 USB serial checks every byte that arrives for Ctrl-C (0x03) and raises
# KeyboardInterrupt at once, which would leave the board at the REPL. Link frames contain 0x03
# (a request id 3, a length), and a desktop may be polling while the board boots, so capture goes
# off before the ~0.2 s of imports below (docs/real-firmware.md). The link's "repl" request turns it
# back on and ends the loop (mpremote keeps working).
#
# The built-in modules a user may extend (time, array, machine...) are looked for on the flash
# first at every import: 3.2 ms each on the RP2040, 16 such imports in our modules at boot. Their
# u-names are the built-ins themselves (no search), and sys.modules answers every later import.
# The rest is ports/rp2.py's main(): this file is compiled on the board at every boot (19.5 ms
# for the 14 statements it had), the package's files are compiled already.
#
# Player lights: the ring pixels at 12, 2, 4, 6, 8 and 10 o'clock (the arcade buttons' LEDs mirror
# them); the other 18 pixels are the countdown.

import sys
for _m in ("array", "binascii", "io", "json", "machine", "os", "select", "struct", "time"):
    sys.modules[_m] = __import__("u" + _m)
from presstime.device.ports.rp2 import main
main(player_pixels=(0, 4, 8, 12, 16, 20))
