"""Finding boards: USB serial ports by VID/PID and interface name, plus running simulators.

MicroPython on the Pico enumerates as 2E8A:0005 with one port (the REPL, which the app shares
with binary frames). CircuitPython boards use Adafruit's VID 239A with a PID per board; with
`usb_cdc.data` enabled (our boot.py) they show two ports, the console ("CircuitPython CDC
control") and the data port ("CircuitPython CDC2 control"): the link uses the data port.

A running simulator advertises itself with a small JSON file in the runtime folder
(`$PRESSTIME_RUNTIME`, else <tmp>/presstime-<uid>): {"pty": path, "pid": n, "journal": path}.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import TYPE_CHECKING, Any, Literal, overload

from presstime.errors import BadInput, Failure
from presstime.term import printable

if TYPE_CHECKING:
    import argparse

MICROPYTHON = {(0x2E8A, 0x0005): "MicroPython (Raspberry Pi Pico / RP2040)"}
ADAFRUIT_VID = 0x239A
CIRCUITPYTHON = {
    0x80F4: "CircuitPython (Raspberry Pi Pico)",
    0x8108: "CircuitPython (Adafruit Macropad RP2040)",
    0x8107: "Adafruit Macropad RP2040",
}


def runtime_dir() -> str:
    d = os.environ.get("PRESSTIME_RUNTIME")
    if not d:
        d = os.path.join(
            tempfile.gettempdir(), "presstime-%d" % (os.getuid() if hasattr(os, "getuid") else 0)
        )
    return d


def _trusted(path, folder=False):
    """True when `path` belongs to this user and nobody else may write it (a folder under /tmp that
    another user made could hand `devices`, `sync` and `play` a port of their choosing)."""
    if not hasattr(os, "getuid"):
        return True
    try:
        st = os.lstat(path)
    except OSError:
        return False
    import stat

    kind = stat.S_ISDIR if folder else stat.S_ISREG
    return kind(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o022


def advert_dir() -> str:
    """The runtime folder, created private (0700) if missing; Failure if it is not this user's."""
    d = runtime_dir()
    try:
        os.makedirs(d, mode=0o700, exist_ok=True)
    except OSError as e:
        raise Failure("cannot create the runtime folder %s: %s" % (d, e.strerror or e))
    if not _trusted(d, folder=True):
        raise Failure(
            "the runtime folder %s is not yours alone (another user owns it or may write in it): "
            "the simulator is not advertised there; set PRESSTIME_RUNTIME to a folder of your own"
            % d
        )
    return d


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def adverts(prefix: str, fields: tuple[str, ...]) -> list[tuple[str, dict[str, Any], int]]:
    """The adverts in the runtime folder whose names start with `prefix`: [(path, info, pid)] for
    each file of this user's that reads as JSON with an int "pid" and a str for each of `fields`.
    An advert whose pid is no process id is named on stderr and left out (0 or -1 would ask
    os.kill about a whole process group, 2^31 overflows); the caller checks it is alive."""
    d = runtime_dir()
    found = []
    if not _trusted(d, folder=True):
        return found  # another user's folder (or none): its adverts are not trusted
    try:
        names = sorted(os.listdir(d))
    except OSError:
        return found
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".json")):
            continue
        path = os.path.join(d, name)
        if not _trusted(path):
            continue
        try:
            with open(path) as f:
                info = json.load(f)
            pid = int(info["pid"])
            if (
                not all(isinstance(info.get(k, ""), str) for k in fields)
                or fields
                and not info.get(fields[0])
            ):
                continue
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue
        if not 0 < pid < 2**31:
            sys.stderr.write(
                "presstime: ignored the advert %s: its pid %d is not a process id\n"
                % (printable(path), pid)
            )
            continue
        found.append((path, info, pid))
    return found


def simulators() -> list[dict[str, Any]]:
    """Running simulators: [{"port", "kind": "simulator", "description", "pid", ...}]."""
    found = []
    for path, info, pid in adverts("sim-", ("pty",)):
        pty = info["pty"]
        if not _alive(pid) or not os.path.exists(pty):
            try:
                os.remove(path)  # a simulator that died without cleaning up
            except OSError:
                pass
            continue
        found.append(
            {
                "port": pty,
                "kind": "simulator",
                "board": "sim",
                "pid": pid,
                "description": "presstime simulator (pid %d)" % pid,
                "journal": info.get("journal"),
            }
        )
    return found


def usb_boards(comports: list[Any] | None = None) -> list[dict[str, Any]]:
    """Attached boards: [{"port", "kind", "board", "vid", "pid", "description", "role"}].

    role: "data" for the port the link uses, "console" for a CircuitPython REPL port."""
    if comports is None:
        try:
            from serial.tools import list_ports
        except ImportError:
            raise Failure("pyserial is missing: pip install pyserial")
        comports = list_ports.comports()
    found = []
    adafruit = {}
    for p in comports:
        vid, pid = getattr(p, "vid", None), getattr(p, "pid", None)
        if vid is None or pid is None:
            continue
        entry = {
            "port": p.device,
            "vid": "%04X" % vid,
            "pid": "%04X" % pid,
            "interface": getattr(p, "interface", None) or "",
            "serial": getattr(p, "serial_number", None),
        }
        if (vid, pid) in MICROPYTHON:
            entry.update(
                kind="micropython", board="pico", role="data", description=MICROPYTHON[(vid, pid)]
            )
            found.append(entry)
        elif vid == ADAFRUIT_VID:
            entry.update(
                kind="circuitpython",
                board="macropad" if pid in (0x8107, 0x8108) else "pico",
                description=CIRCUITPYTHON.get(pid, "CircuitPython board (239A:%04X)" % pid),
                location=getattr(p, "location", None) or "",
            )
            adafruit.setdefault(entry["serial"] or entry["port"], []).append(entry)
    for key in sorted(adafruit, key=str):
        ports = adafruit[key]
        named = [e for e in ports if "CDC2" in e["interface"] or "data" in e["interface"].lower()]
        if named:
            data = named[0]
        elif len(ports) > 1:  # no interface names: the data port is the second interface
            data = sorted(ports, key=lambda e: (e["location"], e["port"]))[-1]
        else:
            data = None  # only the console: boot.py has not enabled usb_cdc.data
        for e in ports:
            e["role"] = "data" if e is data else "console"
            found.append(e)
    return found


def all_devices(comports: list[Any] | None = None) -> list[dict[str, Any]]:
    return usb_boards(comports) + simulators()


@overload
def pick_port(
    port: str | None = None, comports: list[Any] | None = None, allow_none: Literal[False] = False
) -> str: ...
@overload
def pick_port(
    port: str | None = None, comports: list[Any] | None = None, *, allow_none: bool
) -> str | None: ...
def pick_port(
    port: str | None = None, comports: list[Any] | None = None, allow_none: bool = False
) -> str | None:
    """The serial port to use: `port` if given, else the only board (or simulator) attached.

    With none found: None if allow_none (the caller may start a simulator), else Failure.
    With several: BadInput listing them, asking for --port."""
    if port:
        return port
    usable = [d for d in usb_boards(comports) if d["role"] == "data"]
    if not usable:
        usable = simulators()
    if len(usable) == 1:
        return usable[0]["port"]
    if not usable:
        if allow_none:
            return None
        consoles = [d for d in usb_boards(comports) if d["role"] == "console"]
        hint = ""
        if consoles:
            hint = (
                " (a CircuitPython console was found at %s: copy boot.py so the data port is "
                "enabled)" % consoles[0]["port"]
            )
        raise Failure(
            "no board found%s; attach one, name it with --port, or start a simulated board "
            "in another terminal with `presstime sim --pty`" % hint
        )
    raise BadInput(
        "several boards found (%s): choose one with --port" % ", ".join(d["port"] for d in usable)
    )


def add_port_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port",
        metavar="PORT",
        default=None,
        help="serial port of the board (default: the only board attached)",
    )
