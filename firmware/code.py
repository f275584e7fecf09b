# SPDX-License-Identifier: MIT
"""CircuitPython entry (Adafruit Macropad RP2040): the presstime table loop.

boot.py decides whether the drive is writable for the journal (hold KEY1 at reset to edit
files from the computer instead): then the journal lives in RAM and is lost at reset.
A `repl` request from the desktop ends the loop (the REPL has its own USB port anyway).
device/start.py loads the app and the link in the order that keeps the heap in one piece.
"""

from presstime.device.ports.macropad import MacropadPort
from presstime.device.start import start
from presstime.device.link import ReplReturn

port = MacropadPort()
app = start(port)
try:
    while True:
        app.step()
except ReplReturn:
    pass
finally:
    port.close()
