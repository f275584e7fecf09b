"""The no-solder build of hardware/README.md on the rig: CircuitPython 10.2.1 for the Adafruit
MacroPad RP2040 (the rig's circuitpython/firmware.uf2) with presstime installed over the REPL by
`presstime install-firmware --board macropad --port CONSOLE`, the 12 keys and the encoder switch
pressed on their GPIOs (active low, released to the pull-up), the 12 key pixels read back from
their data pin.

    image = app_image(rig)                 # an 8 MB flash image with presstime installed (cached)
    with EmulatedMacropad.start(rig, image) as pad:
        pad.press(0, in_ns=10 * MS)        # player 1's key, 10 ms of emulated time from now
        pad.frames()                       # [(t_ns, [(r, g, b), ...12]), ...] on GPIO19
        pad.client()                       # a BoardClient on usb_cdc.data (pad.data_pty)
    # with oled=True: pad.screen() reads the OLED, pad.turn(+2) / press_knob() / press_back()

The console (REPL) is `pad.pty`, the link (`usb_cdc.data`) `pad.data_pty`. The key layout is
firmware/presstime/device/boards/macropad.py, the file the firmware itself reads; the GPIO behind
each `board` name is the MacroPad's (CircuitPython's board definition), in GPIO below and checked
against the running firmware by tests/test_rig_macropad_boot.py.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager

from presstime.device.boards import macropad as board

from .pico import cache_dir
from .rp2emu import MS, Emulator, RigError

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOLD_MS = 80  # a player's press: down this long, then released
BOOT_NS = 6_000 * MS
CALL_TIMEOUT_S = 20.0  # call(): the emulated board answers at a fraction of real speed; a short
# timeout would send the request again and make it answer twice    # a cold boot of a blank
# CIRCUITPY (safe-mode wait, FAT format) fits in this

# The MacroPad RP2040's `board` names -> GPIO (CircuitPython's adafruit_macropad_rp2040 pins.c)
GPIO = {
    "ENCODER_SWITCH": 0,
    "KEY1": 1,
    "KEY2": 2,
    "KEY3": 3,
    "KEY4": 4,
    "KEY5": 5,
    "KEY6": 6,
    "KEY7": 7,
    "KEY8": 8,
    "KEY9": 9,
    "KEY10": 10,
    "KEY11": 11,
    "KEY12": 12,
    "SPEAKER_ENABLE": 14,
    "SPEAKER": 16,
    "ROTA": 17,
    "ROTB": 18,
    "NEOPIXEL": 19,
}
PIXEL_GPIO = GPIO[board.PIXEL_PIN]


def firmware_uf2(rig):
    return os.path.join(rig, "circuitpython", "firmware.uf2")


def _digest(rig):
    """The installed files (deploy's CircuitPython list, the one the drive copy uses) and the
    rig's CircuitPython firmware."""
    from presstime.board import deploy

    h = hashlib.sha256()
    for src, dest in deploy.circuitpython_plan(""):
        h.update(dest.encode())
        with open(src, "rb") as f:
            h.update(f.read())
    with open(firmware_uf2(rig), "rb") as f:
        h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()[:16]


def app_image(rig, log=None):
    """An 8 MB flash image of CircuitPython with presstime installed the way a user without the
    drive does it (`presstime install-firmware --board macropad --port CONSOLE` over the emulated
    USB console), booted once into the app (it answered hello on usb_cdc.data). Cached by the
    files' contents and the rig's firmware."""
    path = os.path.join(cache_dir(), "macropad-app-%s.img" % _digest(rig))
    if os.path.exists(path):
        return path
    tmp = tempfile.mkdtemp(prefix="presstime-img-")
    try:
        out = os.path.join(tmp, "app.img")
        with Emulator.start(
            rig, board="macropad", firmware=firmware_uf2(rig), pty=True, data_pty=True, paused=True
        ) as emu:
            emu.run(BOOT_NS)  # the first boot formats CIRCUITPY: full speed, paused
            emu.resume()
            r = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "presstime",
                    "install-firmware",
                    "--board",
                    "macropad",
                    "--port",
                    emu.pty,
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=900,
            )
            text = r.stdout.decode("utf-8", "replace")
            if log is not None:
                log.write(text)
            if r.returncode != 0:
                raise RigError(
                    "install-firmware failed (exit %d): %s" % (r.returncode, text[-1500:])
                )
            hello = wait_hello(emu.data_pty)
            if hello is None:
                raise RigError(
                    "the installed app did not answer hello on usb_cdc.data: %s" % emu.read()[-800:]
                )
            emu.save(out)
        os.replace(out, path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return path


def client(data_pty, timeout=None):
    """A BoardClient on the data pty (the desktop's own link code)."""
    from presstime.board.link import BoardClient, SerialTransport

    if timeout is None:
        return BoardClient(SerialTransport(data_pty))
    return BoardClient(SerialTransport(data_pty), timeout=timeout)


def wait_hello(data_pty, wall_s=240):
    """The app's hello once it answers (a boot runs at a fraction of real time), or None."""
    deadline = time.monotonic() + wall_s
    while time.monotonic() < deadline:
        c = client(data_pty)
        try:
            return c.hello()
        except Exception:
            time.sleep(0.5)
        finally:
            c.close()
    return None


class EmulatedMacropad(Emulator):
    """An Emulator running the MacroPad build, with its keys and key pixels.

    Paused (deterministic, idle time skipped): edges go in at exact instants with press(), time
    moves with run(); link calls go through call(fn), which runs emulated time in small slices
    while fn talks to the board over the data pty."""

    _lock = None

    players = len(board.PLAYER_KEYS)
    pixel_pin = PIXEL_GPIO
    pixels = board.PIXEL_COUNT

    @classmethod
    def start(
        cls, rig, image, pty=True, data_pty=True, paused=False, fast=False, seed=None, held=(), **kw
    ):
        """Boot a copy of `image` (the original is left as it is). `held`: keys (indices into
        KEY_PINS) held down from power-on, e.g. (board.EDIT_MODE_KEY,) for boot.py's edit mode
        (release them with .release_key(k))."""
        emu = cls.start_on_copy(
            rig,
            image,
            board="macropad",
            pty=pty,
            data_pty=data_pty,
            paused=True,
            fast=fast,
            seed=seed,
            **kw,
        )
        for k in held:
            emu.set(emu.key_pin(k), 0 if board.BUTTON_ACTIVE_LOW else 1)
        emu.trace(PIXEL_GPIO)
        emu.cmd("ws2812", pin=PIXEL_GPIO)
        if not paused:
            emu.resume()
        return emu

    def cmd(self, name, **kw):
        if self._lock is None:
            self._lock = threading.Lock()
        with self._lock:
            return Emulator.cmd(self, name, **kw)

    @contextmanager
    def pump(self):
        """While inside: emulated time runs free (a paused rig, for link calls; the CPU's busy
        time runs as fast as the host allows, its idle time at wall speed)."""
        self.resume()
        try:
            yield
        finally:
            self.pause()

    def call(self, fn):
        """fn(client) with a BoardClient on the data pty, emulated time running meanwhile."""
        with self.pump():
            c = self.client(timeout=CALL_TIMEOUT_S)
            try:
                return fn(c)
            finally:
                c.close()

    def board_ms(self, t_ns):
        """A harness instant as the port's clock (ms since this boot's power-on), a float."""
        return (t_ns - self.boot_offset_ns()) / MS

    def harness_ns(self, board_ms):
        return board_ms * MS + self.boot_offset_ns()

    def key_pin(self, key):
        """GPIO of key `key` (0 = KEY1, top left ... 11 = KEY12)."""
        return GPIO[board.KEY_PINS[key]]

    def pin(self, button):
        """GPIO of a player's key (0-based seat) or of the control button (-1: encoder switch)."""
        if button < 0:
            return GPIO[board.CONTROL_PIN]
        return self.key_pin(board.PLAYER_KEYS[button])

    def press(self, button, at=None, in_ns=None, hold_ms=HOLD_MS):
        """Press (drive to the active level) and release (let the pull-up decide again)."""
        if at is None:
            at = self.now() + (in_ns or 0)
        active = 0 if board.BUTTON_ACTIVE_LOW else 1
        if self.set(self.pin(button), active, at=at).get("late"):
            raise RigError("a press scheduled in the emulated past (%d ns ago)" % (self.now() - at))
        self.set(self.pin(button), None, at=at + int(hold_ms * MS))
        return at

    def release_key(self, key, at=None):
        self.set(self.key_pin(key), None, at=at)

    # -- the screen and the knob (rig/oled.py; start with oled=True to read the screen) ------
    def screen(self):
        """An Oled reading this pad's OLED (started with oled=True)."""
        from .oled import Oled

        return Oled(self)

    def turn(self, steps, at=None, **kw):
        """Turn the knob `steps` detents (+ clockwise) from `at`: rig.oled.turn; the edges'
        instants."""
        from .oled import turn

        return turn(self, steps, at=at, **kw)

    def press_knob(self, at=None, hold_ms=HOLD_MS):
        """Press the knob (the control button, -1); (down, up) instants."""
        at = self.press(-1, at=at, hold_ms=hold_ms)
        return at, at + int(hold_ms * MS)

    def press_back(self, at=None, hold_ms=HOLD_MS):
        """Press the back key (boards/macropad.py BACK_KEY: button -2); (down, up) instants."""
        if at is None:
            at = self.now()
        pin = self.key_pin(board.BACK_KEY)
        if self.set(pin, 0 if board.BUTTON_ACTIVE_LOW else 1, at=at).get("late"):
            raise RigError("a press scheduled in the emulated past (%d ns ago)" % (self.now() - at))
        self.set(pin, None, at=at + int(hold_ms * MS))
        return at, at + int(hold_ms * MS)

    def frames(self, clear=False):
        """Complete NeoPixel frames: [(t_ns, [(r, g, b), ...12]), ...] (the pixels are GRB)."""
        out = []
        for f in self.ws2812(PIXEL_GPIO, clear=clear):
            if f.get("complete"):
                out.append((f["t"], [(g[1], g[0], g[2]) for g in f["grb"]]))
        return out

    def client(self, timeout=None):
        return client(self.data_pty, timeout)

    def wait_hello(self, wall_s=240):
        return wait_hello(self.data_pty, wall_s)

    def boot_offset_ns(self):
        """Harness time (`now`) minus the chip's clock since its last power-on: add it to a
        board time (ms since power-on, the port's clock) to place it on the harness timeline."""
        r = self.cmd("now")
        return r["now"] - r["chip_ns"]
