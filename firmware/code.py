# SPDX-License-Identifier: MIT
"""CircuitPython entry (Adafruit Macropad RP2040): the presstime table loop.

boot.py decides whether the drive is writable for the journal (hold the encoder knob at reset
to edit files instead); without a journal the device still runs, it just keeps no record.
"""

from presstime.device.ports.macropad import MacropadPort
from presstime.device.journal import Journal
from presstime.device.app import App

port = MacropadPort()
path = port.journal_path()
app = App(port, Journal(path) if path else None)
try:
    while True:
        app.step()
finally:
    port.close()
