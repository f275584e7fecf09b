"""Find, start and drive the rp2emu rig (the official firmware in an emulated RP2040).

    rig = find_rig()                       # the folder from PRESSTIME_RP2EMU, or None
    emu = Emulator.start(rig, pty="/tmp/ttyPico", paused=False)
    emu.set(2, 0, in_ns=5 * MS)            # drive GPIO2 low 5 ms of emulated time from now
    emu.ws2812(16)                         # start decoding the NeoPixel pin
    emu.close()

Times are emulated nanoseconds on the rig's timeline (`now`), which goes on across resets and
power cuts. The control channel is one JSON object per line each way (see the rig's README).
"""

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time

ENV = "PRESSTIME_RP2EMU"
MS = 1_000_000  # ns
WFI_FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wfi.mjs")
XIP_MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "xip.mjs")
DATA_LINK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "datalink.mjs")
OLED_BUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "oled.mjs")
XIP_ENV = "PRESSTIME_RIG_XIP"  # "off": the rig without the timing model (to record its effect)
US = 1_000

SKIP_MESSAGE = (
    "the rp2emu rig is not set up: set %s to a copy of the rp2emu folder with "
    "`npm ci` done in it, node on PATH and socat installed (.ci/run does this)" % ENV
)


class RigError(RuntimeError):
    """The rig answered {"ok": false}, closed, or did not start."""


def find_rig():
    """The rig's folder when it is usable here (run.mjs, its node_modules, node, socat), else
    None."""
    d = os.environ.get(ENV)
    if not d:
        return None
    d = os.path.abspath(os.path.expanduser(d))
    if not os.path.isfile(os.path.join(d, "run.mjs")):
        return None
    if not os.path.isdir(os.path.join(d, "node_modules", "rp2040js")):
        return None
    if shutil.which("node") is None or shutil.which("socat") is None:
        return None
    return d


def xip_model_on():
    """Whether rigs load the timing model (rig/xip.mjs): yes unless PRESSTIME_RIG_XIP=off."""
    return os.environ.get(XIP_ENV, "on").strip().lower() not in ("off", "0", "no")


def timing_id():
    """Names the timing the rigs run with (the model's source, or "noxip"): part of the key of
    every cached result that depends on emulated time (rig/games.py, rig/cuts.py)."""
    if not xip_model_on():
        return "noxip"
    import hashlib

    with open(XIP_MODEL, "rb") as f:
        return "xip" + hashlib.sha256(f.read()).hexdigest()[:8]


def why_absent():
    """One line: why find_rig() found nothing (for a skip message)."""
    d = os.environ.get(ENV)
    if not d:
        return SKIP_MESSAGE
    d = os.path.abspath(os.path.expanduser(d))
    if not os.path.isfile(os.path.join(d, "run.mjs")):
        return "%s=%s has no run.mjs; %s" % (ENV, d, SKIP_MESSAGE)
    if not os.path.isdir(os.path.join(d, "node_modules", "rp2040js")):
        return "%s=%s: run `npm ci` there first" % (ENV, d)
    if shutil.which("node") is None:
        return "node is not on PATH; %s" % SKIP_MESSAGE
    return "socat is not installed (apt-get install socat); %s" % SKIP_MESSAGE


def _connect(path, proc):
    """A connected Unix socket (the file appears a moment before node listens on it)."""
    t0 = time.monotonic()
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            return sock
        except (ConnectionRefusedError, FileNotFoundError):
            sock.close()
            if (proc is not None and proc.poll() is not None) or time.monotonic() - t0 > 30:
                raise
            time.sleep(0.05)


def _call(f, name, kw):
    """One JSON request on a rig socket's file, its reply (RigError when it says not ok)."""
    kw["cmd"] = name
    try:
        f.write((json.dumps(kw) + "\n").encode())
        f.flush()
        line = f.readline()
    except OSError as e:
        raise RigError("%s: %s" % (name, e))
    if not line:
        return None
    reply = json.loads(line)
    if not reply.get("ok"):
        raise RigError("%s: %s" % (name, reply.get("error")))
    return reply


class DataLink:
    """The MacroPad's usb_cdc.data in emulated time (rig/datalink.mjs's socket): write(bytes)
    queues bytes for the board at the rig's `now`, cmd("read") gives what it sent since."""

    def __init__(self, path, proc):
        self._sock = _connect(path, proc)
        self._file = self._sock.makefile("rwb")

    def cmd(self, name, **kw):
        reply = _call(self._file, name, kw)
        if reply is None:
            raise RigError("the rig closed its data link")
        return reply

    def write(self, data):
        return self.cmd("write", hex=bytes(data).hex())

    def close(self):
        for f in (self._file, self._sock):
            try:
                f.close()
            except OSError:
                pass


class Emulator:
    """One run.mjs process and its control channel."""

    flash_copy = None  # the temporary copy of an image it booted from (start_on_copy)
    data_link = None  # a DataLink when started with data_link=True
    oled_bus = None  # a DataLink on rig/oled.mjs's socket when started with oled=True

    def __init__(self, proc, sock_path, workdir, pty=None, data_pty=None):
        self.proc = proc
        self.workdir = workdir
        self.control = sock_path
        self.pty = pty
        self.data_pty = data_pty
        self._sock = _connect(sock_path, proc)
        self._file = self._sock.makefile("rwb")

    @classmethod
    def start_on_copy(cls, rig, image, **kw):
        """start() on a temporary copy of the flash image `image` (the original is left as it
        is); close() removes the copy."""
        fd, flash = tempfile.mkstemp(prefix="presstime-flash-", suffix=".img")
        os.close(fd)
        try:
            shutil.copyfile(image, flash)
            emu = Emulator.start.__func__(cls, rig, flash=flash, **kw)
        except BaseException:
            os.remove(flash)
            raise
        emu.flash_copy = flash
        return emu

    @classmethod
    def start(
        cls,
        rig,
        board="pico",
        firmware=None,
        flash=None,
        pty=None,
        data_pty=None,
        paused=False,
        fast=False,
        seed=None,
        save_flash=None,
        timeout=30,
        wfi_fix=None,
        xip=None,
        data_link=False,
        oled=False,
    ):
        """Start run.mjs. `flash`: a saved 2 MB (MacroPad: 8 MB) image to boot from; `pty`: a
        path for the USB serial as a Linux pty (True: one in a temporary folder); `paused`:
        emulated time runs only inside run/expect/exec (deterministic). `wfi_fix` (default: on
        for the MacroPad): load rig/wfi.mjs, which makes the emulated core leave WFI when an
        interrupt is already pending, as the silicon does (CircuitPython's idle hangs otherwise).
        `xip` (default: on unless PRESSTIME_RIG_XIP=off): load rig/xip.mjs, the XIP cache and
        the cost of its misses, so code and data fetched from flash cost what they do on the
        chip (docs/benchmarks.md, "The rig's timing model"). `data_link`: load rig/datalink.mjs
        and connect `.data_link`, usb_cdc.data (the MacroPad's link) in emulated time. `oled`: load
        rig/oled.mjs and connect `.oled_bus`, the record of the MacroPad OLED's SPI bytes
        (rig/oled.py decodes them)."""
        workdir = tempfile.mkdtemp(prefix="presstime-rig-")
        sock = os.path.join(workdir, "control.sock")
        if wfi_fix is None:
            wfi_fix = board == "macropad"
        if xip is None:
            xip = xip_model_on()
        cmd = ["node"]
        if wfi_fix:
            cmd += ["--import", WFI_FIX]
        if xip:
            cmd += ["--import", XIP_MODEL]
        data_sock = os.path.join(workdir, "data.sock") if data_link else None
        if data_link:
            cmd += ["--import", DATA_LINK]
        oled_sock = os.path.join(workdir, "oled.sock") if oled else None
        if oled:
            cmd += ["--import", OLED_BUS]
        cmd += [os.path.join(rig, "run.mjs"), "--control", sock, "--quiet"]
        if board != "pico":
            cmd += ["--board", board]
        if firmware:
            cmd += ["--firmware", firmware]
        if flash:
            cmd += ["--flash", flash]
        if pty is True:
            pty = os.path.join(workdir, "tty")
        if pty:
            cmd += ["--pty", pty]
        if data_pty is True:
            data_pty = os.path.join(workdir, "ttydata")
        if data_pty:
            cmd += ["--data-pty", data_pty]
        if paused:
            cmd.append("--paused")
        if fast:
            cmd.append("--fast")
        if seed is not None:
            cmd += ["--seed", str(seed)]
        if save_flash:
            cmd += ["--save-flash", save_flash]
        log = open(os.path.join(workdir, "rig.log"), "wb")
        env = dict(os.environ, **{ENV: rig})  # (rig/*.mjs find rp2040js through it)
        if data_sock:
            env["PRESSTIME_RIG_DATA_SOCK"] = data_sock
        if oled_sock:
            env["PRESSTIME_RIG_OLED_SOCK"] = oled_sock
        proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True, env=env
        )
        log.close()
        t0 = time.monotonic()
        while (
            not os.path.exists(sock)
            or (pty and not os.path.exists(pty))
            or (data_pty and not os.path.exists(data_pty))
        ):
            if proc.poll() is not None or time.monotonic() - t0 > timeout:
                proc.kill()
                why = _tail(os.path.join(workdir, "rig.log"))
                shutil.rmtree(workdir, ignore_errors=True)
                raise RigError("run.mjs did not start: %s" % why)
            time.sleep(0.05)
        emu = cls(proc, sock, workdir, pty, data_pty)
        if data_sock:
            emu.data_link = DataLink(data_sock, proc)
        if oled_sock:
            emu.oled_bus = DataLink(oled_sock, proc)
        return emu

    @classmethod
    def attach(cls, control):
        """A second connection to the control channel of a rig started elsewhere (`python -m
        rig` prints its socket): the same commands; close() leaves that rig running."""
        return cls(None, control, None)

    # -- the control channel ---------------------------------------------------------------
    def cmd(self, name, **kw):
        reply = _call(self._file, name, kw)
        if reply is None:
            raise RigError("the rig closed its control channel: %s" % self.log_tail())
        return reply

    def now(self):
        return self.cmd("now")["now"]

    def chip_ns(self):
        return self.cmd("now")["chip_ns"]

    def set(self, pin, value, at=None, in_ns=None):
        """Drive a pin (0/1) or release it (None: the pad's pull decides), at an instant."""
        kw = {"pin": pin, "value": value}
        if at is not None:
            kw["at"] = at
        if in_ns is not None:
            kw["in"] = in_ns
        return self.cmd("set", **kw)

    def get(self, pin):
        return self.cmd("get", pin=pin)

    def trace(self, pin):
        return self.cmd("trace", pin=pin)

    def edges(self, pin, clear=False):
        return self.cmd("edges", pin=pin, clear=clear)["edges"]

    def ws2812(self, pin, clear=False):
        """Decoded WS2812 frames on the pin since tracing began (the first call starts it)."""
        return self.cmd("ws2812", pin=pin, clear=clear).get("frames", [])

    def run(self, ns):
        return self.cmd("run", ns=int(ns))["now"]

    def wait_until(self, t_ns, timeout=120):
        """Free-running: wait (wall time) until the timeline reaches t_ns; paused: run to it."""
        r = self.cmd("now")
        if r.get("paused"):
            if r["now"] < t_ns:
                self.run(t_ns - r["now"])
            return
        t0 = time.monotonic()
        while self.now() < t_ns:
            if time.monotonic() - t0 > timeout:
                raise RigError(
                    "the emulated clock did not reach %d ms within %d s" % (t_ns // MS, timeout)
                )
            time.sleep(0.05)

    def expect(self, text, max_ns=10_000 * MS):
        r = self.cmd("expect", text=text, max_ns=int(max_ns))
        if not r.get("found"):
            raise RigError("%r not seen within %d ms of emulated time" % (text, max_ns // MS))
        return r["data"]

    def write(self, data):
        if isinstance(data, (bytes, bytearray)):
            return self.cmd("write", hex=bytes(data).hex())
        return self.cmd("write", data=data)

    def read(self):
        return self.cmd("read")["data"]

    def exec(self, code, max_ns=60_000 * MS):
        """Run code in the raw REPL: {'out', 'err', 'emu_ns', 'now'}."""
        return self.cmd("exec", code=code, max_ns=int(max_ns))

    def cut(self, at=None, in_ns=None, tear=True, mode="prefix", seed=None, tear_bytes=None):
        kw = {"tear": tear, "mode": mode}
        if at is not None:
            kw["at"] = at
        if in_ns is not None:
            kw["in"] = in_ns
        if seed is not None:
            kw["seed"] = seed
        if tear_bytes is not None:
            kw["tear_bytes"] = tear_bytes
        return self.cmd("cut", **kw)

    def cuts(self):
        return self.cmd("cuts")["cuts"]

    def stats(self):
        return self.cmd("stats")

    def save(self, path):
        return self.cmd("save", file=path)

    def reset(self):
        return self.cmd("reset")

    def pause(self):
        return self.cmd("pause")

    def resume(self):
        return self.cmd("resume")

    # -- lifetime --------------------------------------------------------------------------
    def log_tail(self):
        if self.workdir is None:
            return "(a rig started elsewhere)"
        return _tail(os.path.join(self.workdir, "rig.log"))

    def close(self):
        """Quit the rig (it saves the flash if started with save_flash) and clean up; attached
        (`attach`): only this connection closes."""
        if self.data_link is not None:
            self.data_link.close()
        if self.oled_bus is not None:
            self.oled_bus.close()
        if self.proc is not None and self.proc.poll() is None:
            try:
                self._file.write(b'{"cmd":"quit"}\n')
                self._file.flush()
            except OSError:
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for f in (self._file, self._sock):
            try:
                f.close()
            except OSError:
                pass
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)
        if self.flash_copy and os.path.exists(self.flash_copy):
            os.remove(self.flash_copy)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _tail(path, n=800):
    try:
        with open(path, "rb") as f:
            return f.read()[-n:].decode("utf-8", "replace").strip() or "(no output)"
    except OSError:
        return "(no log)"
