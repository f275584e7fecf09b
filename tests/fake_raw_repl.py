"""A MicroPython board on a pseudo-terminal, for the real `mpremote` to talk to.

The board side of MicroPython's raw REPL (Ctrl-A, code, Ctrl-D -> "OK", output, \\x04, error,
\\x04, ">"; raw-paste refused with "R\\x00" so mpremote falls back to plain raw REPL), with every
piece of code run by the real `micropython` unix port in a folder that is the board's flash.
The interpreter is persistent across execs (mpremote's file copy keeps `f` and `w` between
them) and restarts on a soft reset, like a board.

With `app=True` the board starts (and restarts after `machine.reset()`) "running the presstime
app": REPL control characters are ignored, link frames are decoded with the core's wire codec,
`hello` is answered with the firmware version found on the flash, and `repl` hands the line
back to the REPL, as the real app does.

    with PtyBoard(folder) as board:
        subprocess.run(["mpremote", "connect", board.port, "fs", "ls"])
"""

import os
import select
import subprocess
import threading
import tty

from mpy import MICROPYTHON

BANNER = b"raw REPL; CTRL-B to exit\r\n>"

# Runs under micropython: read length-prefixed code, exec it in one shared namespace, report.
DRIVER = r"""
import sys
sys.path.insert(0, %r)
g = {'__name__': '__main__'}
inp = sys.stdin.buffer
out = sys.stdout
while True:
    line = inp.readline()
    if not line:
        break
    code = inp.read(int(line))
    err = None
    try:
        exec(code, g)
    except BaseException as e:
        err = e
    out.write('\x00ERR\x00')
    if err is not None:
        sys.print_exception(err, out)
    out.write('\x00END\x00')
"""

MACHINE_STUB = (
    "def reset():\n    pass\n\n"
    "def soft_reset():\n    pass\n\n"
    "def unique_id():\n    return b'fakeboard'\n"
)


class PtyBoard:
    def __init__(self, folder, app=False):
        self.app_after_reset = app
        self.app = app
        self.folder = str(folder)
        os.makedirs(self.folder, exist_ok=True)
        self.stubs = self.folder + "-stubs"
        os.makedirs(self.stubs, exist_ok=True)
        with open(os.path.join(self.stubs, "machine.py"), "w") as f:
            f.write(MACHINE_STUB)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.proc = None
        self.execs = []
        self.stopping = False
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self):
        self._restart()
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping = True
        self.thread.join(5)
        if self.proc:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)
        os.close(self.slave)

    # ---- the interpreter
    def _restart(self):
        if self.proc:
            self.proc.kill()
            self.proc.wait()
        self.proc = subprocess.Popen(
            [MICROPYTHON, "-c", DRIVER % self.stubs],
            cwd=self.folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )

    def _run(self, code):
        self.execs.append(code)
        self.proc.stdin.write(b"%d\n" % len(code) + code)
        self.proc.stdin.flush()
        data = b""
        while not data.endswith(b"\x00END\x00"):
            chunk = (
                self.proc.stdout.read1(4096)
                if hasattr(self.proc.stdout, "read1")
                else self.proc.stdout.read(1)
            )
            if not chunk:
                return b"", b"the interpreter died\r\n"
            data += chunk
        data = data[: -len(b"\x00END\x00")]
        out, _, err = data.partition(b"\x00ERR\x00")
        return out.replace(b"\n", b"\r\n"), err.replace(b"\n", b"\r\n")

    # ---- the serial side
    def _write(self, data):
        os.write(self.master, data)

    def _app_serve(self, data):
        from presstime.core import wire

        for body in self.decoder.feed(data):
            try:
                mtype, rid, reply, value = wire.parse(body)
            except wire.WireError:
                continue
            if mtype == wire.HELLO:
                self._write(
                    wire.encode(
                        wire.HELLO,
                        rid,
                        {"p": wire.PROTOCOL, "fw": self._flash_version(), "board": "pico"},
                        reply=True,
                    )
                )
            elif mtype == wire.REPL:
                self._write(wire.encode(wire.REPL, rid, {}, reply=True))
                self.app = False
                self._write(b"\r\n>>> ")

    def _flash_version(self):
        import re

        try:
            with open(os.path.join(self.folder, "presstime", "__init__.mpy"), "rb") as f:
                m = re.search(rb"(\d+\.\d+\.\d+)", f.read())
            return m.group(1).decode() if m else "?"
        except OSError:
            return "?"

    def _serve(self):
        from presstime.core import wire

        self.decoder = wire.Decoder()
        raw = False
        code = b""
        pending = b""
        while not self.stopping:
            r, _, _ = select.select([self.master], [], [], 0.05)
            if not r:
                continue
            try:
                pending += os.read(self.master, 4096)
            except OSError:
                return
            if self.app:
                self._app_serve(pending)
                pending = b""
                raw = False
                continue
            while pending:
                c, pending = pending[:1], pending[1:]
                if not raw:
                    if c == b"\x01":
                        raw = True
                        code = b""
                        self._write(b"\r\n" + BANNER)
                    elif c == b"\x04":
                        self._restart()
                        self._write(b"MPY: soft reboot\r\nMicroPython fake\r\n>>> ")
                    continue
                if c == b"\x02":
                    raw = False
                    self._write(b"\r\n>>> ")
                elif c == b"\x01":
                    code = b""
                    self._write(b"\r\n" + BANNER)
                elif c == b"\x03":
                    code = b""
                elif c == b"\x05" and not code:
                    while len(pending) < 2:
                        pending += os.read(self.master, 2)
                    pending = pending[2:]  # "A\x01": a raw-paste request
                    self._write(b"R\x00")  # understood, not supported
                elif c == b"\x04" and not code:
                    self._restart()  # soft reset from the raw REPL
                    self._write(b"OK\r\nMPY: soft reboot\r\n" + BANNER)
                elif c == b"\x04":
                    self._write(b"OK")
                    out, err = self._run(code)
                    self._write(out + b"\x04" + err + b"\x04>")
                    if b"machine.reset()" in code and self.app_after_reset:
                        self._restart()
                        self.app = True  # main.py starts the app after a hard reset
                        self.decoder = wire.Decoder()
                        pending = b""
                    code = b""
                else:
                    code += c
