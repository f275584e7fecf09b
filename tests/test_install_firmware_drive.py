"""install-firmware onto a CIRCUITPY drive that is nearly full, holds links or has a file where a
folder goes (issue 22, item 9): refused before anything is written, or written beside the old
firmware and put in place by renames, code.py last; a failure says what the drive holds."""

import os
import shutil
import subprocess
import uuid

import pytest

from presstime.board import deploy, drive_copy
from presstime.errors import BadInput, Failure
from test_install_firmware import drive, fake_firmware

LIBS = [(os.path.abspath(__file__), "lib/neopixel.py")]  # any file stands for the NeoPixel library


def _tree(d):
    out = {}
    for folder, _dirs, files in os.walk(d):
        for name in files:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, d)] = f.read()
    return out


def _old_board(tmp_path, root=None):
    """A drive holding presstime 1.0.0 (with a module the new version no longer has)."""
    d = drive(tmp_path) if root is None else root
    if root is not None:
        with open(os.path.join(d, "boot_out.txt"), "w") as f:
            f.write(
                "Adafruit CircuitPython 9.1.0 on 2024-07-10; Adafruit Macropad RP2040 with rp2040\n"
            )
    old = fake_firmware(tmp_path / "old", version="1.0.0")
    os.makedirs(os.path.join(old, "presstime", "gone"))
    with open(os.path.join(old, "presstime", "gone", "x.py"), "w") as f:
        f.write("# a module of 1.0.0 only\n")
    deploy.install_circuitpython(
        drive=d, firmware=old, say=lambda s: None, libraries=LIBS, link_hello=lambda: None
    )
    return d


def _installs(d, fw, said=None):
    return deploy.install_circuitpython(
        drive=d,
        firmware=fw,
        say=(said.append if said is not None else lambda s: None),
        libraries=LIBS,
        link_hello=lambda: None,
    )


def test_an_install_replaces_the_whole_package_and_leaves_nothing_staged(tmp_path):
    d = _old_board(tmp_path)
    fw = fake_firmware(tmp_path / "new", version="2.0.0")
    said = []
    assert _installs(d, fw, said) == "2.0.0"
    files = sorted(_tree(d))
    assert "presstime/gone/x.py" not in files  # the old package went whole
    assert not [
        f for f in files if f.endswith(".new") or "presstime.new" in f or "presstime.old" in f
    ]
    assert [s for s in said if s.startswith("copy ")][-1].endswith("code.py")


def test_a_nearly_full_drive_is_refused_before_anything_is_written(tmp_path, monkeypatch):
    d = _old_board(tmp_path)
    before = _tree(d)
    monkeypatch.setattr(
        drive_copy.shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(10**6, 10**6, 3000)
    )
    with pytest.raises(
        Failure, match=r"has 2 KB free, and the new firmware needs \d+ KB.*nothing was written"
    ):
        _installs(d, fake_firmware(tmp_path / "new", version="2.0.0"))
    assert _tree(d) == before


def test_a_failure_while_writing_leaves_the_old_firmware_whole(tmp_path, monkeypatch):
    d = _old_board(tmp_path)
    before = _tree(d)
    writes = []
    real = drive_copy._write

    def failing(src, dest):
        writes.append(dest)
        if len(writes) == 3:
            raise OSError(28, "No space left on device")
        real(src, dest)

    monkeypatch.setattr(drive_copy, "_write", failing)
    with pytest.raises(Failure, match="the drive is full.*nothing of the firmware changed"):
        _installs(d, fake_firmware(tmp_path / "new", version="2.0.0"))
    assert len(writes) == 3 and _tree(d) == before  # old code.py, old package, no .new left


def test_a_failure_while_replacing_says_what_the_drive_holds(tmp_path, monkeypatch):
    d = _old_board(tmp_path)
    real = os.replace

    def refuse_code(src, dst):
        if dst.endswith("code.py"):
            raise OSError(5, "Input/output error")
        real(src, dst)

    monkeypatch.setattr(os, "replace", refuse_code)
    fw = fake_firmware(tmp_path / "new", version="2.0.0")
    with pytest.raises(Failure) as e:
        _installs(d, fw)
    message = str(e.value)
    assert "stopped at code.py (Input/output error)" in message
    assert (
        "Replaced: lib/neopixel.py, presstime, boot.py" in message
        and "code.py is still the old one" in message
    )
    assert os.path.exists(os.path.join(d, "code.py.new"))
    monkeypatch.setattr(os, "replace", real)
    assert _installs(d, fw) == "2.0.0"  # run again: finished, nothing left over
    assert not [f for f in _tree(d) if f.endswith(".new")]


@pytest.mark.parametrize(
    "link", ["lib", "presstime", "presstime/core", "code.py", "lib/neopixel.py", "presstime.new"]
)
def test_a_link_inside_the_drive_is_refused_and_nothing_is_written(tmp_path, link):
    d = _old_board(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine")
    target = os.path.join(d, *link.split("/"))
    if os.path.isdir(target):
        shutil.rmtree(target)
    elif os.path.exists(target):
        os.remove(target)
    os.symlink(str(outside) if not link.endswith(".py") else str(outside / "keep.txt"), target)
    before = _tree(d)
    with pytest.raises(
        BadInput, match="%s on the drive is a symbolic link.*nothing was written" % link
    ):
        _installs(d, fake_firmware(tmp_path / "new", version="2.0.0"))
    assert _tree(d) == before and sorted(os.listdir(outside)) == ["keep.txt"]
    assert (outside / "keep.txt").read_text() == "mine"


@pytest.mark.parametrize("name", ["lib", "presstime", "presstime/core"])
def test_a_file_where_the_firmware_needs_a_folder_is_a_clear_error(tmp_path, name):
    d = drive(tmp_path)
    path = os.path.join(d, *name.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("not a folder")
    with pytest.raises(
        BadInput, match="%s on the drive is a file, but the firmware needs a folder" % name
    ):
        _installs(d, fake_firmware(tmp_path / "new", version="2.0.0"))
    assert open(path).read() == "not a folder"


@pytest.fixture
def small_drive(tmp_path):
    """A real 160 KB file system (tmpfs) as the drive; skipped where mounting is not allowed."""
    root = tmp_path / ("CIRCUITPY-" + uuid.uuid4().hex[:6])
    root.mkdir()
    try:
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=160k", "tmpfs", str(root)],
            check=True,
            capture_output=True,
            timeout=20,
        )
    except (OSError, subprocess.SubprocessError):
        pytest.skip("cannot mount a small file system here (needs root)")
    try:
        yield str(root)
    finally:
        subprocess.run(["umount", str(root)], capture_output=True, timeout=20)


def test_a_real_full_drive(tmp_path, small_drive, monkeypatch):
    d = _old_board(tmp_path, small_drive)
    fw = fake_firmware(tmp_path / "new", version="2.0.0")
    with open(os.path.join(fw, "presstime", "core", "big.py"), "w") as f:
        f.write("# %s\n" % ("x" * 120000))
    before = _tree(d)
    with pytest.raises(Failure, match="KB free, and the new firmware needs"):
        _installs(d, fw)  # the check saw it
    assert _tree(d) == before
    # the check fooled (a drive that reports more than it has): the write fails for real part-way
    monkeypatch.setattr(
        drive_copy.shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(10**9, 0, 10**9)
    )
    st = os.statvfs(d)
    with open(os.path.join(d, "filler"), "wb") as f:
        f.write(b"\0" * (st.f_bavail * st.f_frsize - 8192))  # 8 KB left: less than the new files
    before = _tree(d)
    with pytest.raises(Failure, match="the drive is full.*nothing of the firmware changed"):
        _installs(d, fw)
    assert _tree(d) == before
