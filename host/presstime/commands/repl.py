"""presstime repl: ask the presstime app on the board to leave its loop for the REPL (mpremote works
again)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime.board import ports
from presstime.board.link import LinkError
from presstime.board.ports import add_port_argument
from presstime.errors import Failure

if TYPE_CHECKING:
    import argparse

EXAMPLE = """examples:
  presstime repl && mpremote ls
  presstime repl --port /dev/ttyACM0

While presstime runs, the board keeps Ctrl-C off (binary frames flow on the REPL's port), so
mpremote cannot get in. This sends the link's `repl` request: the app answers, turns Ctrl-C back
on and ends its loop. Reset the board (Ctrl-D in the REPL, or unplug it) to start presstime again.
A CircuitPython board's REPL is on its console port (press a key there). A simulator has no REPL:
it stops. `presstime install-firmware` does this by itself when mpremote finds the app running."""

# The request is sent once, never retried: after its reply the board is at the REPL, and a second
# frame would reach the REPL as keystrokes (a 0x04 byte in it is Ctrl-D, a soft reset that starts
# presstime again).
REPL_TIMEOUT = 1.5


def configure(parser: argparse.ArgumentParser) -> None:
    add_port_argument(parser)


def _usb_entries(port):
    """The USB listing's entries of the board on `port` ([] if it is not listed, e.g. a pty)."""
    try:
        found = ports.usb_boards()
    except Exception:  # the listing only chooses the wording
        return []
    mine = [d for d in found if d["port"] == port]
    if not mine:
        return []
    key = mine[0].get("serial") or port
    return [d for d in found if (d.get("serial") or d["port"]) == key]


def what_happened(info: dict[str, Any], port: str) -> str:
    """The sentence that says where the REPL now is, for the board that answered `info` (hello)."""
    name = info.get("id") or info.get("board") or "?"
    if info.get("board") == "sim":
        return (
            "A simulator has no REPL: it runs on this computer, there is nothing for mpremote to "
            "reach. The simulator %s on %s has stopped; `presstime sim --pty` starts another."
            % (name, port)
        )
    entries = _usb_entries(port)
    if any(d.get("kind") == "circuitpython" for d in entries):
        consoles = [d["port"] for d in entries if d.get("role") == "console"]
        where = ("its console port %s" % consoles[0]) if consoles else "its console port"
        return (
            "board %s on %s left presstime; the CircuitPython REPL is on %s (press a key there). "
            "Reset the board (Ctrl-D in the REPL) to restart presstime." % (name, port, where)
        )
    return (
        "board %s on %s returned to the REPL; run `mpremote` now, or reset the board "
        "(Ctrl-D in the REPL) to restart presstime." % (name, port)
    )


def run(args: argparse.Namespace) -> int:
    from presstime.board.share import connect, describe, holder_of

    port = ports.pick_port(args.port)
    holder = holder_of(port)
    if holder is not None and holder.get("command") == "sim --pty":
        raise Failure(
            "the board on %s is a simulator (%s): a simulator has no REPL; `q` in its "
            "terminal stops it" % (port, describe(holder))
        )
    if holder is not None:  # its session would end under it
        raise Failure(
            "the board on %s is in use by %s: quit it first, then run `presstime repl` again"
            % (port, describe(holder))
        )
    try:
        client = connect(port, retries=3, command="repl")
    except LinkError:
        raise Failure(
            "no presstime app answered on %s: the board may be at the REPL already "
            "(try `mpremote`), still starting, or not a presstime board" % port
        ) from None
    try:
        info = client.info or {}
        client.timeout = REPL_TIMEOUT
        client.retries = 0
        try:
            client.repl()
        except LinkError:
            raise Failure(
                "board %s on %s did not confirm the return to the REPL; it may have returned "
                "anyway: try `mpremote`, or reset the board" % (info.get("id") or "?", port)
            ) from None
    finally:
        client.close()
    print(what_happened(info, port))
    return 0
