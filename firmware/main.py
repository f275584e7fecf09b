# SPDX-License-Identifier: MIT
"""MicroPython entry (Raspberry Pi Pico build): the presstime table loop with the serial link.

Player lights: the ring pixels at 12, 2, 4, 6, 8 and 10 o'clock (the arcade buttons' LEDs mirror
them); the other 18 pixels are the countdown. Ctrl-C capture is off while the loop runs; the
link's "repl" request ends the loop and gives the REPL back (mpremote keeps working).
device/start.py loads the app and the link in the order that keeps the heap in one piece.
"""

from presstime.device.ports.rp2 import Rp2Port
from presstime.device.start import start

port = Rp2Port(player_pixels=(0, 4, 8, 12, 16, 20))
app = start(port)
try:
    from presstime.device.link import ReplReturn
except ImportError:
    ReplReturn = KeyboardInterrupt
try:
    app.run()
except ReplReturn:
    pass
finally:
    port.close()
