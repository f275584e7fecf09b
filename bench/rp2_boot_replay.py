# SPDX-License-Identifier: MIT
"""Diagnostic, no target: what the boot after a played game spends on the game's replay, on the
official firmware in the rig (emulated RP2040, timing model on, paused).

    PRESSTIME_RP2EMU=DIR python bench/rp2_boot_replay.py

Three runs, each from the installed image with its own main.py written on it (the flash saved
right after, so the three layouts differ by main.py alone and each run starts at power-on),
then the table load's first game (rig/table_load.py: the desktop attached, bouncy presses) and
a power reset:
- as installed: the boot after the game (`rp2_boot_after_game_ms` of the table bench);
- timed: one wrapper each around `App.__init__`, `Journal.__init__` and `App._replay`, whose
  µs the board keeps and the REPL prints after the boot;
- no replay: `App._replay` replaced by one that replays nothing (the link then reads the game's
  records itself for its game id), the boot a snapshot of the machine's state could give at best.
docs/benchmarks.md ("Where it stands") says what they show.
"""

import ast
import os
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from rig.pico import EmulatedPico, app_image  # noqa: E402
from rig.rp2emu import ENV, MS, RigError, find_rig  # noqa: E402
from rig.table_load import Table  # noqa: E402

ENTRY = "from presstime.device.ports.rp2 import main\n"

TIMED = """import time
import presstime.device.app as _A, presstime.device.journal as _J
_P = []
sys.modules["_parts"] = _P
def _wrap(cls, nm):
    f = getattr(cls, nm)
    def w(*a):
        t = time.ticks_us()
        r = f(*a)
        _P.append((cls.__name__ + "." + nm, time.ticks_diff(time.ticks_us(), t)))
        return r
    setattr(cls, nm, w)
_wrap(_A.App, "_replay"); _wrap(_J.Journal, "__init__"); _wrap(_A.App, "__init__")
"""

NO_REPLAY = """import presstime.device.app as _A
def _none(self):
    self.journal.gid = None
_A.App._replay = _none
"""


def with_main(rig, image, main_py, path):
    """`image` with main.py replaced, saved at `path`: written through the board's REPL, the
    flash saved before the board runs again, so each run below starts from a power-on."""
    with EmulatedPico.start(rig, image, pty=False, paused=True) as pico:
        pico.run(1500 * MS)
        pico.put_files({"main.py": main_py.encode()})
        pico.save(path)
    return path


def boot_after_game(rig, image, parts=False):
    """(ms from the power reset after one played game to the hello reply, [(part, µs)])."""
    with EmulatedPico.start(rig, image, pty=False, paused=True) as pico:
        table = Table(pico, 23, pico)
        table.boot("first")
        table.play_game()
        pico.reset()
        table.boot("after a played game")
        got = []
        if parts:
            pico.to_repl()
            out = pico.exec("import sys\nprint(sys.modules['_parts'])\n").get("out", "")
            got = ast.literal_eval(out.strip() or "[]")  # a list of (str, int)
    return table.boots["after a played game"], got


def main():
    rig = find_rig()
    if rig is None:
        print("the rig is not here: set %s to the rp2emu folder (npm ci done)" % ENV)
        return 2
    image = app_image(rig)
    with open(os.path.join(ROOT, "firmware", "main.py")) as f:
        src = f.read()
    if ENTRY not in src:
        print("firmware/main.py no longer imports the port's main as expected")
        return 2
    try:
        with tempfile.TemporaryDirectory(prefix="presstime-boot-") as tmp:
            variants = (
                src,
                src.replace(ENTRY, TIMED + ENTRY),
                src.replace(ENTRY, NO_REPLAY + ENTRY),
            )
            images = [
                with_main(rig, image, main_py, os.path.join(tmp, "%d.img" % i))
                for i, main_py in enumerate(variants)
            ]
            stock, _ = boot_after_game(rig, images[0])
            timed, parts = boot_after_game(rig, images[1], parts=True)
            bare, _ = boot_after_game(rig, images[2])
    except (RigError, RuntimeError, ValueError, SyntaxError) as e:
        # the rig or the board failed (RuntimeError: the table load's board never got there;
        # ValueError/SyntaxError: the board printed no list of parts)
        print("the run failed: %s" % e)
        return 1
    print("emulated RP2040, official MicroPython firmware, timing model on")
    print("boot after a played game, as installed: %.1f ms" % stock)
    print("  with the three wrappers: %.1f ms" % timed)
    for name, us in parts:
        print("    %-20s %6.1f ms" % (name, us / 1000))
    print("boot after a played game, no replay: %.1f ms" % bare)
    return 0


if __name__ == "__main__":
    sys.exit(main())
