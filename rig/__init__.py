"""presstime's drivers for external rigs: the board's official firmware in an emulated chip.

The rig itself (the rp2emu harness around the npm package rp2040js, with the official
MicroPython RPI_PICO and CircuitPython MacroPad firmware) is not part of this project: it is
found through the environment variable PRESSTIME_RP2EMU (a folder holding run.mjs with its
node_modules installed). These modules are the project's own code that drives it:

    rig/rp2emu.py   find the rig, start it, talk to its JSON control channel
    rig/pico.py     the Pico build on it: install presstime, press the pin map's buttons,
                    read the NeoPixel ring back
    rig/oled.py     the OLEDs' buses decoded into frames read as text (the MacroPad's SH1106 on
                    SPI, an SSD1306 on I2C), the MacroPad's knob turned (docs/rig-oled.md)
"""
