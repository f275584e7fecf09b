"""The board ports type-check against the real board APIs (pyright + published stubs).

- CircuitPython: ports/macropad.py, code.py, boot.py against `circuitpython-stubs`, with the
  real `adafruit-circuitpython-neopixel` library source for `neopixel`.
- MicroPython: ports/rp2.py and main.py against `micropython-rp2-rpi-pico-stubs`, with its
  `micropython-stdlib-stubs` as the typeshed (so `time.ticks_us` and friends exist).

Both stub sets install flat modules into the same site-packages (`neopixel.pyi`, `micropython`),
so each check puts the modules it means first on pyright's path (extraPaths: symlinks into
site-packages, nothing hand-written). `reportIncompatibleMethodOverride` is off: the Port base
class is unannotated (MicroPython style), so pyright infers literal return types for it
(`b""`, "journal.bin") that any real override "violates".
"""

import importlib.metadata
import json
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
PYRIGHT = shutil.which("pyright")


def _pyright_ok():
    if PYRIGHT is None:
        return "pyright is not installed (pip install pyright: it is in the dev extra)"
    try:
        proc = subprocess.run([PYRIGHT, "--version"], capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return "pyright cannot run: %s" % e
    if proc.returncode != 0:
        return "pyright cannot run (it needs node; offline without a cached node?): %s" % (
            proc.stderr.strip()[-300:],
        )
    return None


def _dist_dir(dist):
    try:
        files = importlib.metadata.files(dist)
    except importlib.metadata.PackageNotFoundError:
        return None, []
    files = list(files or [])
    if not files:
        return None, []
    return str(files[0].locate()).rsplit(os.sep + str(files[0]).replace("/", os.sep), 1)[0], files


def _link(src, dst_dir):
    dst = os.path.join(dst_dir, os.path.basename(src))
    if not os.path.exists(dst):
        os.symlink(src, dst)


def _run(tmp_path, name, files, extra, typeshed=None):
    project = tmp_path / name
    project.mkdir()
    config = {
        "include": [os.path.relpath(os.path.join(FIRMWARE, f), project) for f in files],
        "extraPaths": [str(p) for p in extra] + [FIRMWARE],
        "pythonVersion": "3.11",
        "typeCheckingMode": "standard",
        "reportMissingModuleSource": False,
        "reportIncompatibleMethodOverride": False,
    }
    if typeshed:
        config["typeshedPath"] = typeshed
    (project / "pyrightconfig.json").write_text(json.dumps(config, indent=1))
    proc = subprocess.run(
        [PYRIGHT, "-p", str(project / "pyrightconfig.json")],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=str(project),
    )
    assert proc.returncode == 0, "pyright (%s):\n%s\n%s" % (name, proc.stdout, proc.stderr)
    assert "0 errors" in proc.stdout, proc.stdout


def _existing(files):
    return [f for f in files if os.path.exists(os.path.join(FIRMWARE, f))]


@pytest.mark.slow
def test_circuitpython_port_type_checks(tmp_path):
    reason = _pyright_ok()
    if reason:
        pytest.skip(reason)
    site, files = _dist_dir("circuitpython-stubs")
    if site is None:
        pytest.skip("circuitpython-stubs is not installed (dev extra)")
    neo_site, neo_files = _dist_dir("adafruit-circuitpython-neopixel")
    if neo_site is None:
        pytest.skip("adafruit-circuitpython-neopixel is not installed (dev extra)")
    extra = tmp_path / "cp_first"
    extra.mkdir()
    _link(os.path.join(neo_site, "neopixel.py"), str(extra))  # not MicroPython's neopixel.pyi
    _run(
        tmp_path,
        "circuitpython",
        _existing(
            [
                "presstime/device/ports/macropad.py",
                "code.py",
                "boot.py",
                "presstime/device/ports/ram_journal.py",
            ]
        ),
        [extra],
    )


def _micropython_check(tmp_path, files):
    reason = _pyright_ok()
    if reason:
        pytest.skip(reason)
    site, stub_files = _dist_dir("micropython-rp2-rpi_pico-stubs")
    std_site, _ = _dist_dir("micropython-stdlib-stubs")
    if site is None or std_site is None:
        pytest.skip("micropython-rp2-rpi-pico-stubs is not installed (dev extra)")
    extra = tmp_path / "mp_first"
    extra.mkdir()
    for f in (
        stub_files
    ):  # the rp2 stubs' own top-level modules first (CircuitPython's `micropython` differs)
        parts = str(f).split("/")
        if len(parts) == 1 and parts[0].endswith(".pyi"):
            _link(os.path.join(site, parts[0]), str(extra))
        elif len(parts) == 2 and parts[0] == "rp2":
            _link(os.path.join(site, "rp2"), str(extra))
    files = _existing(files)
    if not files:
        pytest.skip("nothing to check yet")
    _run(tmp_path, "micropython", files, [extra], typeshed=std_site)


@pytest.mark.slow
def test_micropython_port_type_checks(tmp_path):
    _micropython_check(
        tmp_path,
        [
            "presstime/device/ports/rp2.py",
            "presstime/device/ports/edge_ring.py",
            "presstime/device/ports/debounce.py",
        ],
    )


@pytest.mark.slow
def test_micropython_entry_type_checks(tmp_path):
    _micropython_check(tmp_path, ["main.py"])
