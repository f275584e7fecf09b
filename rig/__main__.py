"""Try presstime on the official board firmware without a board: the emulated Pico (MicroPython)
or, with --board macropad, the emulated MacroPad (CircuitPython).

    PRESSTIME_RP2EMU=DIR python -m rig [--board macropad] play [PLAY OPTIONS]   a game against it
    PRESSTIME_RP2EMU=DIR python -m rig [--board macropad] watch|sync|repl [OPTIONS]
    PRESSTIME_RP2EMU=DIR python -m rig [--board macropad] serve      just the board, until Ctrl-C

Boots the board's build (presstime installed by `presstime install-firmware`, made once and
cached in PRESSTIME_RIG_CACHE) in the rp2emu rig, serves its USB serial on a pty (the MacroPad's
link, `usb_cdc.data`, on a second one) and runs `presstime COMMAND --port PTY OPTIONS` against it
in this terminal. The rig runs the chip at
0.1-0.3x real time while it is busy, so a round's clock runs slower than the wall clock.
It prints the rig's control channel (a Unix socket): rig.rp2emu.Emulator.attach(SOCKET) presses
the board's buttons and reads its ring from a script while you play.
Exit status: presstime's; 2 when the rig is not set up (the message says how).
"""

import os
import signal
import subprocess
import sys
import time

from . import macropad
from .pico import EmulatedPico, app_image
from .rp2emu import MS, RigError, find_rig, why_absent

READY_NS = 800 * MS

USAGE = __doc__.split("\n\n")[1]


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    board = "pico"
    if argv and argv[0] == "--board" or argv and argv[0].startswith("--board="):
        board = argv[0].partition("=")[2] or (argv[1] if len(argv) > 1 else "")
        argv = argv[1:] if "=" in argv[0] else argv[2:]
    if board not in ("pico", "macropad"):
        print("python -m rig: --board is pico or macropad, not %r" % board, file=sys.stderr)
        return 2
    command = argv[0] if argv else "play"
    rest = argv[1:]
    rig = find_rig()
    if rig is None:
        print("python -m rig: " + why_absent(), file=sys.stderr)
        return 2
    if not os.path.exists(
        os.path.join(
            os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware", "main.py"
        )
    ):
        print(
            "python -m rig: run it from a presstime checkout (firmware/ is missing)",
            file=sys.stderr,
        )
        return 2
    for sig in (signal.SIGHUP, signal.SIGTERM):  # a closed terminal still stops the rig
        signal.signal(sig, lambda *_: sys.exit(1))
    name = "MacroPad" if board == "macropad" else "Pico"
    print(
        "starting the emulated %s (the first time it installs presstime: a few minutes)" % name,
        flush=True,
    )
    try:
        if board == "macropad":
            pico = macropad.EmulatedMacropad.start(rig, macropad.app_image(rig))
        else:
            pico = EmulatedPico.start(rig, app_image(rig), pty=True)
    except RigError as e:
        print("python -m rig: %s" % e, file=sys.stderr)
        return 1
    try:
        if board == "macropad":
            if pico.wait_hello() is None:  # CircuitPython boots in ~4 s of chip time
                print("python -m rig: the emulated MacroPad's app did not answer", file=sys.stderr)
                return 1
            port = pico.data_pty  # the link (usb_cdc.data)
            print(
                "emulated MacroPad (official CircuitPython firmware): link on %s, console on %s"
                % (pico.data_pty, pico.pty),
                flush=True,
            )
        else:
            pico.wait_until(READY_NS)  # the app is up (~0.45 s of chip time; longer on the wall)
            port = pico.pty
            print("emulated Pico (official MicroPython firmware) on %s" % pico.pty, flush=True)
        print("rig control channel: %s" % pico.control, flush=True)  # Emulator.attach: buttons
        if command == "serve":
            print("press Ctrl-C to stop it", flush=True)
            try:
                while pico.proc.poll() is None:
                    time.sleep(0.5)
            except KeyboardInterrupt:
                pass
            return 0
        cmd = [sys.executable, "-m", "presstime", command, "--port", port] + rest
        proc = subprocess.Popen(cmd)
        try:
            return proc.wait()
        except KeyboardInterrupt:
            proc.send_signal(signal.SIGINT)
            return proc.wait()
    finally:
        pico.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
