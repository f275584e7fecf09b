# SPDX-License-Identifier: MIT
"""CircuitPython boot (Adafruit Macropad RP2040): runs once at power-up or reset, before code.py.

1. Enables the second USB serial port (`usb_cdc.data`) for the presstime link; the REPL keeps
   its own port (`usb_cdc.console`), so mpremote-style tools and the serial console still work.
2. Makes the CIRCUITPY drive writable for the firmware, so the journal can be kept on flash.
   Only one side may write the drive: while the firmware can, the computer sees it READ-ONLY.

   To edit files from the computer (update the firmware, delete the journal), HOLD KEY1 (the top
   left key) while plugging in or pressing reset: the drive then stays writable for the computer
   and the device keeps its journal in RAM only until the next plain reset. (Not the encoder
   knob: on the Macropad it is the RP2040's BOOT button, which enters the UF2 bootloader.)
Changes here take effect after a hard reset (unplug, or the reset button), not on soft reload.
"""

import board
import digitalio
import storage
import usb_cdc

from presstime.device.boards import macropad

usb_cdc.enable(console=True, data=True)

_switch = digitalio.DigitalInOut(getattr(board, macropad.KEY_PINS[macropad.EDIT_MODE_KEY]))
_switch.switch_to_input(pull=digitalio.Pull.UP)
_edit_mode = not _switch.value          # pressed reads False (active low)
_switch.deinit()

if not _edit_mode:
    try:
        storage.remount("/", readonly=False)
    except (OSError, RuntimeError):
        pass        # a drive CircuitPython cannot remount: code.py keeps the journal in RAM
