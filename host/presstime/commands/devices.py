"""presstime devices: the boards attached by USB and the simulators running."""

from __future__ import annotations

from typing import TYPE_CHECKING

from presstime import term
from presstime.board import ports, share

if TYPE_CHECKING:
    import argparse

EXAMPLE = """examples:
  presstime devices
  presstime devices --json

MicroPython Pico: 2E8A:0005. CircuitPython: Adafruit 239A (Pico 239A:80F4, Macropad 239A:8108);
the data port (usb_cdc.data) is the one the link uses. Simulators are those started by
`presstime sim --pty`, `presstime play --sim` or `python -m presstime.sim.headless`; a board another
presstime command holds is shared with the others (its holder is named)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the list as one JSON document")


def run(args: argparse.Namespace) -> int:
    import json

    found = ports.all_devices()
    for d in found:
        h = share.holder_of(d["port"])
        if h is not None:
            d["held_by"] = {"pid": h["pid"], "command": h.get("command")}
            d["description"] += "; held by %s, shared" % share.describe(h)
    if args.json:
        print(json.dumps(found, indent=2, sort_keys=True))
        return 0
    if not found:
        print("no board or simulator found (`presstime sim --pty` starts a simulated board)")
        return 0
    usable = [d for d in found if d.get("role", "data") == "data"]
    for d in found:
        ids = ("%s:%s" % (d["vid"], d["pid"])) if "vid" in d else "sim"
        role = d.get("role", "data")
        mark = term.paint("*", "1;32") if len(usable) == 1 and d is usable[0] else " "
        print("%s %-16s %-10s %-8s %s" % (mark, d["port"], ids, role, d["description"]))
    if len(usable) == 1:
        print("* used automatically (override with --port)")
    return 0
