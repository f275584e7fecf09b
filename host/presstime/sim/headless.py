"""The simulated board, headless, behind a pseudo-terminal: the desktop cannot tell it from a board.

`Simulator()` runs the very firmware App and device Link under CPython; its serial line is the
master end of an `os.openpty()` pair and `Simulator.path` is the slave end, which the desktop
opens with pyserial like any USB serial port. It has no buttons: player presses arrive as
`press` requests (simulator only, see docs/protocol.md), which `presstime play --demo` and the
tests send.

    sim = Simulator().start()      # a background thread; advertised for `presstime devices`
    ... BoardClient(SerialTransport(sim.path)) ...
    sim.stop()

`python -m presstime.sim.headless [--journal FILE]` runs one in the foreground and prints its port.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from presstime.board.ports import advert_dir
from presstime.core import wire
from presstime.core.lights_rgb import tuples
from presstime.device.app import App
from presstime.device.journal import Journal
from presstime.device.link import Link, ReplReturn
from presstime.device.port import Port
from presstime.sim.pty_out import PtyOut


class PtyPort(Port):
    """The Port contract on the master side of a pty, with a monotonic clock and virtual buttons."""

    board = "sim"
    players = 6
    pixels = 24

    def __init__(self, fd: int, uid: str, journal_file: str | None) -> None:
        self.fd = fd
        self.uid = uid
        self._journal_file = journal_file
        self._t0 = time.monotonic()
        self._pending = []
        self._lock = threading.Lock()
        self.colours = []
        self.bytes_in = 0
        self.out = PtyOut(fd)

    def now_ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def now_us(self) -> int:
        return int((time.monotonic() - self._t0) * 1000000)

    def press(self, button: int, ms: int = 80) -> None:
        """Queue a press of `button` (0..5 players, -1 control) now, released `ms` later."""
        t = self.now_us()
        with self._lock:
            self._pending.append((t, button, True))
            self._pending.append((t + ms * 1000, button, False))
            self._pending.sort()

    def buttons(self) -> list[tuple[int, bool, int]]:
        now = self.now_us()
        out = []
        with self._lock:
            while self._pending and self._pending[0][0] <= now:
                t, b, down = self._pending.pop(0)
                out.append((b, down, t))
        return out

    def show(self, colours: Sequence[int]) -> None:
        self.colours = list(colours)

    def show_rgb(self, px: Sequence[int]) -> None:
        self.colours = tuples(px)

    def read(self) -> bytes:
        data = self.out.read()
        self.bytes_in += len(data)
        return data

    def write(self, data: bytes) -> None:
        self.out.write(data)  # never blocks: see pty_out

    @property
    def bytes_out(self) -> int:
        return self.out.written

    def journal_path(self) -> str | None:
        return self._journal_file

    def idle(self, wait_ms: int | None = None) -> None:
        self.out.drain()
        time.sleep(0.002)


def press_request(
    value: dict[str, Any], players: int, press: Callable[[int, int], None]
) -> dict[str, Any]:
    """A `press` request (simulator only, docs/protocol.md): checked, then press(button, ms)."""
    b = value.get("b")
    ms = value.get("ms", 80)
    if not isinstance(b, int) or isinstance(b, bool) or not -1 <= b < players:
        raise ValueError("press needs b: a button 0..%d or -1" % (players - 1))
    if not isinstance(ms, int) or isinstance(ms, bool) or not 1 <= ms <= 10000:
        raise ValueError("press: ms (how long the button is held) must be 1..10000")
    press(b, ms)
    return {}


def _make_app(port, journal_file):
    return App(port, Journal(journal_file))


class Simulator:
    """One simulated board on a fresh pty. `journal`: the journal file (default: a new temp
    file)."""

    def __init__(self, journal: str | None = None, advertise: bool = True) -> None:
        import tty

        self.tmpdir = None
        if journal is None:
            self.tmpdir = tempfile.mkdtemp(prefix="presstime-sim-")
            journal = os.path.join(self.tmpdir, "journal.bin")
        self.journal_file = journal
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo, no line editing, even before the desktop opens it
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.port = PtyPort(self.master, "sim", journal)
        self.app = _make_app(self.port, journal)
        self.link = Link(self.app, self.port)
        # "sim-" and a random part, kept beside the journal (<journal>.id): a simulator restarted on
        # its journal is the same board to `sync` (docs/protocol.md, hello)
        self.port.uid = str(self.link.board_id())
        self.link.extra[wire.PRESS] = self._press
        # the firmware has no annotations: App.link, None until a link is attached, reads as None
        self.app.link = self.link  # pyright: ignore[reportAttributeAccessIssue]
        self._stop = threading.Event()
        self._thread = None
        self._advert = None
        self._advertise = advertise
        self.error = None

    def _press(self, value):
        return press_request(value, self.port.players, self.port.press)

    def run(self) -> None:
        """The firmware loop, until stop() (or a `repl` request)."""
        try:
            while not self._stop.is_set():
                try:
                    self.app.step()
                except ReplReturn:
                    break
                self.port.idle()
        except Exception as e:  # keep it for the caller; the desktop sees a silent board
            self.error = e
            raise

    def start(self) -> Simulator:
        self._thread = threading.Thread(target=self.run, name="presstime-sim", daemon=True)
        self._thread.start()
        if self._advertise:
            self.advertise()
        return self

    def advertise(self) -> None:
        d = advert_dir()
        self._advert = os.path.join(d, "sim-%d-%s.json" % (os.getpid(), self.port.uid))
        with open(self._advert, "w") as f:
            json.dump({"pty": self.path, "pid": os.getpid(), "journal": self.journal_file}, f)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
        if self._advert:
            try:
                os.remove(self._advert)
            except OSError:
                pass
            self._advert = None
        j = getattr(self.app, "journal", None)
        if j is not None and hasattr(j, "close"):
            j.close()
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.tmpdir:
            import shutil

            shutil.rmtree(self.tmpdir, ignore_errors=True)

    def running(self) -> bool:
        """Whether the board's loop runs (started and not stopped)."""
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> Simulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m presstime.sim.headless",
        description="run a simulated presstime board on a pty",
    )
    p.add_argument("--journal", help="journal file (default: a new temporary one)")
    args = p.parse_args(argv)
    import signal

    def _term(signum, frame):
        raise KeyboardInterrupt()

    signal.signal(signal.SIGTERM, _term)  # stop cleanly (the advert file goes) when killed
    sim = Simulator(journal=args.journal).start()
    print(sim.path, flush=True)
    try:
        while sim.running():
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
