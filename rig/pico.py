"""The Pico build of hardware/README.md on the rig: the official MicroPython firmware with
presstime installed by `presstime install-firmware`, buttons pressed on the pin map's GPIOs with
their real idle levels, the NeoPixel ring read back from its data pin.

    image = app_image(rig)                 # a flash image with presstime installed (cached)
    with EmulatedPico.start(rig, image, pty=True) as pico:
        pico.press(0, in_ns=10 * MS)       # player 1's button, 10 ms of emulated time from now
        pico.frames()                      # [(t_ns, [(r, g, b), ...24]), ...] on GPIO16

The pin map is firmware/presstime/device/boards/pico.py, the file the firmware itself reads.
"""

import ast
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

from presstime.board.link import BoardClient
from presstime.device.boards import pico as board

from .rp2emu import MS, Emulator, RigError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOLD_MS = 80  # a player's press: down this long, then released
BOOTED_NS = 1000 * MS  # a blank board is at its REPL by then (first boot formats: ~0.1 s)


def _firmware_digest(rig):
    h = hashlib.sha256()
    for base, dirs, files in sorted(os.walk(os.path.join(ROOT, "firmware"))):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py") or name == "package.json":
                p = os.path.join(base, name)
                h.update(os.path.relpath(p, ROOT).encode())
                with open(p, "rb") as f:
                    h.update(f.read())
    with open(os.path.join(rig, "firmware.uf2"), "rb") as f:
        h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()[:16]


def cache_dir():
    d = os.environ.get("PRESSTIME_RIG_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "presstime-rig"
    )
    os.makedirs(d, exist_ok=True)
    return d


def app_image(rig, log=None):
    """A 2 MB flash image of the official firmware with presstime installed the way a user does
    it (`presstime install-firmware --board pico --port PTY` over the emulated USB serial).
    Cached by the firmware files' contents and the rig's firmware, so it is made once."""
    path = os.path.join(cache_dir(), "pico-app-%s.img" % _firmware_digest(rig))
    if os.path.exists(path):
        return path
    tmp = tempfile.mkdtemp(prefix="presstime-img-")
    try:
        out = os.path.join(tmp, "app.img")
        with Emulator.start(rig, pty=True) as emu:
            emu.wait_until(BOOTED_NS)  # mpremote's first Ctrl-C/Ctrl-A to a board still
            r = subprocess.run(  # booting gets no raw REPL (seen under load)
                [
                    sys.executable,
                    "-m",
                    "presstime",
                    "install-firmware",
                    "--board",
                    "pico",
                    "--port",
                    emu.pty,
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=900,
            )
            if log is not None:
                log.write(r.stdout.decode("utf-8", "replace"))
            if r.returncode != 0:
                raise RigError(
                    "install-firmware failed (exit %d): %s"
                    % (r.returncode, r.stdout.decode("utf-8", "replace")[-1500:])
                )
            emu.save(out)
        os.replace(out, path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return path


def ring_layout():
    """(ring, player_pixels, size, cap): the lights' layout the Pico build runs, as
    firmware/main.py sets it (`main(player_pixels=...)`, ports/rp2.py) over the pin map's ring,
    read from main.py itself so this and the firmware cannot disagree."""
    with open(os.path.join(ROOT, "firmware", "main.py")) as f:
        tree = ast.parse(f.read())
    pp = tuple(board.PLAYER_PIXELS)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("main", "Rp2Port"):
            for kw in node.keywords:
                if kw.arg == "player_pixels":
                    pp = tuple(ast.literal_eval(kw.value))
    ring = tuple(i for i in range(board.PIXEL_COUNT) if i not in pp)
    size = max((board.PIXEL_COUNT,) + tuple(i + 1 for i in pp))
    return ring, pp, size, board.MAX_CHANNEL


def rig_client(emu, timeout_s=2.0, rid=0x40):
    """The desktop's BoardClient over rig/transport.py's RigTransport (paused mode: its timeouts
    count emulated seconds). Deterministic: request ids start at `rid` (the desktop picks a
    random one); `timeout_s` of the board's time per try, no retry (nothing is lost in the rig:
    a retry would only make the run differ)."""
    from .transport import RigTransport

    client = BoardClient(RigTransport(emu), timeout=timeout_s, retries=0)
    client._rid = rid
    return client


class EmulatedPico(Emulator):
    """An Emulator running the Pico build, with the pin map's buttons and ring."""

    players = len(board.PLAYER_PINS)
    pixel_pin = board.PIXEL_PIN
    pixels = board.PIXEL_COUNT

    @classmethod
    def start(cls, rig, image, pty=True, paused=False, fast=False, seed=None, **kw):
        """Boot a copy of `image` (the original is left as it is; close() removes the copy)."""
        emu = cls.start_on_copy(rig, image, pty=pty, paused=paused, fast=fast, seed=seed, **kw)
        emu.trace(board.PIXEL_PIN)
        emu.cmd("ws2812", pin=board.PIXEL_PIN)
        return emu

    def pin(self, button):
        """GPIO of a player's button (0-based seat) or of the control button (-1)."""
        if button < 0:
            return board.CONTROL_PIN
        return board.PLAYER_PINS[button]

    def press(self, button, at=None, in_ns=None, hold_ms=HOLD_MS):
        """Press (drive to the active level) and release (let the pull-up decide again)."""
        if at is None:
            at = self.now() + (in_ns or 0)
        active = 0 if board.BUTTON_ACTIVE_LOW else 1
        self.set(self.pin(button), active, at=at)
        self.set(self.pin(button), None, at=at + int(hold_ms * MS))
        return at

    def to_repl(self):
        """The app leaves its loop for the REPL (the link's repl request), as mpremote finds it."""
        from presstime.core import wire

        self.write(wire.encode(wire.REPL, 0x5A))
        self.expect(">>> ", max_ns=5000 * MS)

    def put_files(self, files, clear=None):
        """Write files on the board's flash ({board path: bytes}) and power-cycle it: the app
        leaves its loop (to_repl), the raw REPL writes them, then a reset.
        `clear`: a folder emptied and removed first (the journal's, "/journal": a journal then
        put at the top is an earlier firmware's, which the boot moves into the folder), and made
        again empty when `files` go into it."""
        self.to_repl()
        code = ""
        if clear:
            code = (
                "import os\ntry:\n    for n in os.listdir(%r):\n        os.remove(%r + '/' + n)\n"
                "    os.rmdir(%r)\nexcept OSError:\n    pass\n" % (clear, clear, clear)
            )
            if any(p.startswith(clear + "/") for p in files):
                code += "os.mkdir(%r)\n" % clear  # files put into the folder itself
        code += "".join(
            "with open(%r, 'wb') as f:\n    f.write(bytes.fromhex(%r))\n" % (p, d.hex())
            for p, d in files.items()
        )
        r = self.exec(code)
        if r.get("err"):
            raise RigError("writing files on the board failed: %s" % r["err"])
        self.reset()

    def boot(self, ns=700 * MS):
        """Paused mode: run the boot (the app answers the link after it); returns the now."""
        return self.run(ns)

    def client(self, **kw):
        return rig_client(self, **kw)

    # the optional screen and knob (boards/pico.py; start the rig with oled=True: its SSD1306)
    def screen(self):
        """The SSD1306 on I2C (rig/oled.py Oled, read with MicroPython's framebuf font)."""
        from .oled import Oled

        return Oled(self, bus="i2c")

    def turn(self, steps, at=None, **kw):
        """Turn the knob `steps` detents (+ clockwise) on the pin map's encoder pins."""
        from .oled import turn

        return turn(self, steps, at=at, pins=(board.ENCODER_A_PIN, board.ENCODER_B_PIN), **kw)

    def press_knob(self, at=None, hold_ms=HOLD_MS):
        from .oled import press_knob

        return press_knob(self, at=at, hold_ns=int(hold_ms * MS), pin=board.ENCODER_SWITCH_PIN)

    def press_back(self, at=None, hold_ms=HOLD_MS):
        """The back key (button -2 of the screen's port)."""
        from .oled import press_knob

        return press_knob(self, at=at, hold_ns=int(hold_ms * MS), pin=board.BACK_PIN)

    def frames(self, clear=False):
        """Complete NeoPixel frames: [(t_ns, [(r, g, b), ...]), ...] (the ring is GRB)."""
        out = []
        for f in self.ws2812(board.PIXEL_PIN, clear=clear):
            if f.get("complete"):
                out.append((f["t"], [(g[1], g[0], g[2]) for g in f["grb"]]))
        return out


class PausedLink:
    """The desktop's link (presstime.board.link.BoardClient) to a paused EmulatedPico: the request
    bytes go in through the control channel's `write`, and emulated time runs in `slice_ns`
    slices until the reply is there (at most `max_ns` per read), so a run is deterministic.

        client = PausedLink.client(pico)          # a BoardClient; client.hello(), .status() ...
    """

    slice_ns = 1 * MS

    def __init__(self, emu, max_ns=2000 * MS):
        from presstime.board.link import Transport

        self.emu = emu
        self.max_ns = max_ns
        self.emulated_ns = 0  # emulated time spent waiting for replies
        Transport.__init__(self)

    @classmethod
    def client(cls, emu, max_ns=2000 * MS):
        from presstime.board.link import BoardClient, Transport

        class _T(cls, Transport):
            pass

        # the client's own deadline is wall time: it must never be the one that ends a wait
        return BoardClient(_T(emu, max_ns), timeout=600, retries=0)

    def _write(self, data):
        self.emu.write(bytes(data))

    def _read(self, timeout):
        waited = 0
        while True:
            data = self._take()
            if data or waited >= self.max_ns:
                return data
            self.emu.run(self.slice_ns)
            waited += self.slice_ns
            self.emulated_ns += self.slice_ns

    def _take(self):
        d = self.emu.read()
        if isinstance(d, str):
            return d.encode("latin-1")
        return bytes(d or b"")

    def close(self):
        pass
