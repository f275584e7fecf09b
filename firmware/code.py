# SPDX-License-Identifier: MIT
"""CircuitPython entry (Adafruit Macropad RP2040): the presstime table loop.

boot.py decides whether the drive is writable for the journal (hold KEY1 at reset to edit
files from the computer instead): then the journal lives in RAM and is lost at reset.
A `repl` request from the desktop ends the loop (the REPL has its own USB port anyway).
A drive the journal cannot use (a FAT a power cut broke) never stops the table: the journal
then lives in RAM, and a write the drive refuses is dropped (docs/journal.md, "The MacroPad").
device/start.py loads the app and the link in the order that keeps the heap in one piece.
"""

from presstime.device.ports.macropad import MacropadPort
from presstime.device.start import start
from presstime.device.link import ReplReturn

port = MacropadPort()
try:
    app = start(port)
except Exception:   # whatever a broken drive makes the journal raise, the table runs
    # the drive cannot hold the journal (a FAT a power cut left broken): run with it in RAM
    from presstime.device.ports.ram_journal import RamJournal
    port.journal_writable = False
    app = start(port, RamJournal())
try:
    while True:
        try:
            app.step()
        except OSError:
            # a journal write the drive refused (CircuitPython's FAT is not power-safe): the
            # table goes on from RAM; the journal's next append recovers first
            pass
except ReplReturn:
    pass
finally:
    port.close()
