# SPDX-License-Identifier: MIT
"""CircuitPython entry (Adafruit Macropad RP2040): the presstime table loop.

boot.py decides whether the drive is writable for the journal (hold KEY1 at reset to edit
files from the computer instead): then the journal lives in RAM and is lost at reset.
A `repl` request from the desktop ends the loop (the REPL has its own USB port anyway).
"""

from presstime.device.ports.macropad import MacropadPort
from presstime.device.app import App
from presstime.device.link import Link, ReplReturn

port = MacropadPort()
path = port.journal_path()
if path:
    from presstime.device.journal import Journal
    journal = Journal(path)
else:
    from presstime.device.ports.ram_journal import RamJournal
    journal = RamJournal()
app = App(port, journal)
app.link = Link(app, port)  # pyright: ignore[reportAttributeAccessIssue] (App.link starts None)
try:
    while True:
        app.step()
except ReplReturn:
    pass
finally:
    port.close()
