"""The simulated board, headless, behind a pseudo-terminal: the desktop cannot tell it from a board.

`Simulator()` runs the very firmware App and device Link under CPython; its serial line is the
master end of an `os.openpty()` pair and `Simulator.path` is the slave end, which the desktop
opens with pyserial like any USB serial port. It has no buttons: player presses arrive as
`press` requests (simulator only, see docs/protocol.md), which `presstime play --demo` and the
tests send.

    sim = Simulator().start()      # a background thread; advertised for `presstime devices`
    ... BoardClient(SerialTransport(sim.path)) ...
    sim.stop()

`python -m presstime.simserve [--journal FILE]` runs one in the foreground and prints its port.
"""

import json
import os
import tempfile
import threading
import time

from .boards import advert_dir
from .core import wire
from .core.lights_rgb import tuples
from .device.port import Port
from .pty_out import PtyOut


class PtyPort(Port):
    """The Port contract on the master side of a pty, with a monotonic clock and virtual buttons."""

    board = "sim"
    players = 6
    pixels = 24

    def __init__(self, fd, uid, journal_file):
        self.fd = fd
        self.uid = uid
        self._journal_file = journal_file
        self._t0 = time.monotonic()
        self._pending = []
        self._lock = threading.Lock()
        self.colours = []
        self.bytes_in = 0
        self.out = PtyOut(fd)

    def now_ms(self):
        return int((time.monotonic() - self._t0) * 1000)

    def now_us(self):
        return int((time.monotonic() - self._t0) * 1000000)

    def press(self, button, ms=80):
        """Queue a press of `button` (0..5 players, -1 control) now, released `ms` later."""
        t = self.now_us()
        with self._lock:
            self._pending.append((t, button, True))
            self._pending.append((t + ms * 1000, button, False))
            self._pending.sort()

    def buttons(self):
        now = self.now_us()
        out = []
        with self._lock:
            while self._pending and self._pending[0][0] <= now:
                t, b, down = self._pending.pop(0)
                out.append((b, down, t))
        return out

    def show(self, colours):
        self.colours = list(colours)

    def show_rgb(self, px):
        self.colours = tuples(px)

    def read(self):
        data = self.out.read()
        self.bytes_in += len(data)
        return data

    def write(self, data):
        self.out.write(data)  # never blocks: see pty_out

    @property
    def bytes_out(self):
        return self.out.written

    def journal_path(self):
        return self._journal_file

    def idle(self, wait_ms=None):
        self.out.drain()
        time.sleep(0.002)


def press_request(value, players, press):
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
    from .device.app import App
    from .device.journal import Journal

    return App(port, Journal(journal_file))


class Simulator:
    """One simulated board on a fresh pty. `journal`: the journal file (default: a new temp
    file)."""

    def __init__(self, journal=None, advertise=True):
        import tty

        from .device.link import Link

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
        self.port.uid = self.link.board_id()
        self.link.extra[wire.PRESS] = self._press
        self.app.link = self.link
        self._stop = threading.Event()
        self._thread = None
        self._advert = None
        self._advertise = advertise
        self.error = None

    def _press(self, value):
        return press_request(value, self.port.players, self.port.press)

    def run(self):
        """The firmware loop, until stop() (or a `repl` request)."""
        from .device.link import ReplReturn

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

    def start(self):
        self._thread = threading.Thread(target=self.run, name="presstime-sim", daemon=True)
        self._thread.start()
        if self._advertise:
            self.advertise()
        return self

    def advertise(self):
        d = advert_dir()
        self._advert = os.path.join(d, "sim-%d-%s.json" % (os.getpid(), self.port.uid))
        with open(self._advert, "w") as f:
            json.dump({"pty": self.path, "pid": os.getpid(), "journal": self.journal_file}, f)

    def stop(self):
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

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def main(argv=None):
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m presstime.simserve", description="run a simulated presstime board on a pty"
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
        while sim._thread.is_alive():
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
