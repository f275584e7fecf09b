"""Writing the CircuitPython firmware onto a CIRCUITPY drive so that a failure part-way leaves the
old firmware as it was, or says exactly what the drive holds (deploy.install_circuitpython).

1. check, nothing written yet: no path the copy touches inside the drive (lib, presstime and its
   folders, every file, boot.py, code.py, the staging names) may be a symbolic link (a write
   would land outside the drive); a folder the firmware needs must not be a file and a file must
   not be a folder; the free space must hold every new file beside the old ones (each rounded up
   to the drive's allocation unit, plus its new folders).
2. stage: every file is written beside its place (the package into `presstime.new/`, any other
   file as `NAME.new`), flushed and synced. CircuitPython runs neither, so the board keeps
   running its old firmware. A failure here (the drive full after all, an I/O error) removes
   what was staged: the old firmware is untouched, and the message says so.
3. commit: renames only (no new space): the library files, the package (presstime ->
   presstime.old, presstime.new -> presstime, then presstime.old removed), boot.py, and code.py
   last, so the board's auto-reload runs the new code.py only once all its files are in place.
   A failure here names what was replaced and what was not.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Iterable
from typing import TYPE_CHECKING

from presstime.errors import BadInput, Failure

if TYPE_CHECKING:
    from presstime.hints import Say

PACKAGE = "presstime"
STAGED_PACKAGE = PACKAGE + ".new"
OLD_PACKAGE = PACKAGE + ".old"
SPARE_UNITS = 2  # allocation units kept free beyond the estimate (a folder's entries growing)


def _staged(dest):
    """Where `dest` (a drive-relative path, '/'-separated) is written before the commit."""
    parts = dest.split("/")
    if parts[0] == PACKAGE:
        return "/".join([STAGED_PACKAGE] + parts[1:])
    return dest + ".new"


def _prefixes(rel):
    parts = rel.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def check_paths(drive: str, dests: Iterable[str]) -> None:
    """BadInput naming the first path of the drive that is a link, or a file where a folder must
    be (or the other way round); nothing is written."""
    touched = set()
    for dest in dests:
        touched.update(_prefixes(dest))
        touched.update(_prefixes(_staged(dest)))
    touched.add(OLD_PACKAGE)
    for rel in sorted(touched, key=lambda r: (r.count("/"), r)):
        path = os.path.join(drive, *rel.split("/"))
        if os.path.islink(path):
            raise BadInput(
                "%s on the drive is a symbolic link (to %s): install-firmware does not write "
                "through links, nothing was written. Remove the link, then run it again"
                % (rel, os.readlink(path))
            )
    folders = set()
    for dest in dests:
        folders.update(_prefixes(dest)[:-1])
    for rel in sorted(folders):
        path = os.path.join(drive, *rel.split("/"))
        if os.path.exists(path) and not os.path.isdir(path):
            raise BadInput(
                "%s on the drive is a file, but the firmware needs a folder %s/ there: nothing was "
                "written. Rename or remove that file, then run install-firmware again" % (rel, rel)
            )
    for dest in dests:
        path = os.path.join(drive, *dest.split("/"))
        if os.path.isdir(path):
            raise BadInput(
                "%s on the drive is a folder, but the firmware writes a file there: nothing was "
                "written. Rename or remove that folder, then run install-firmware again" % dest
            )


def _unit(drive):
    try:
        st = os.statvfs(drive)
        return max(512, st.f_frsize or st.f_bsize)
    except (AttributeError, OSError):
        return 4096  # no statvfs (Windows): a FAT drive's usual cluster


def needed_bytes(drive: str, pairs: list[tuple[str, str]]) -> int:
    """The space staging takes: every new file rounded up to the allocation unit, one unit per
    folder made, and SPARE_UNITS."""
    unit = _unit(drive)
    total = SPARE_UNITS * unit
    folders = set()
    for src, dest in pairs:
        total += -(-os.path.getsize(src) // unit) * unit
        folders.update(_prefixes(_staged(dest))[:-1])
    for rel in folders:
        if (
            rel == STAGED_PACKAGE
            or rel.startswith(STAGED_PACKAGE + "/")
            or not os.path.isdir(os.path.join(drive, *rel.split("/")))
        ):
            total += unit
    return total


def check_space(drive: str, pairs: list[tuple[str, str]]) -> tuple[int, int]:
    needed = needed_bytes(drive, pairs)
    free = shutil.disk_usage(drive).free
    if needed > free:
        raise Failure(
            "%s has %d KB free, and the new firmware needs %d KB beside the old one until it "
            "replaces it: nothing was written, the board keeps its old firmware. Delete files "
            "you do not need from the drive (old ones in lib/, say), then run install-firmware "
            "again" % (drive, free // 1024, -(-needed // 1024))
        )
    return needed, free


def _write(src, dest):
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(src, "rb") as f:
        data = f.read()
    with open(dest, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _why(e):
    if getattr(e, "errno", None) == errno.ENOSPC:
        return "the drive is full"
    return e.strerror or str(e)


def _unstage(drive, dests):
    shutil.rmtree(os.path.join(drive, STAGED_PACKAGE), ignore_errors=True)
    for dest in dests:
        staged = os.path.join(drive, *_staged(dest).split("/"))
        if not dest.startswith(PACKAGE + "/") and os.path.isfile(staged):
            try:
                os.remove(staged)
            except OSError:
                pass


def stage(drive: str, pairs: list[tuple[str, str]], say: Say) -> None:
    """Write every file beside its place; on a failure remove them all and raise Failure."""
    dests = [dest for _, dest in pairs]
    _unstage(drive, dests)  # what an interrupted install left
    for src, dest in pairs:
        say("copy %s -> %s" % (src, os.path.join(drive, dest)))
        try:
            _write(src, os.path.join(drive, *_staged(dest).split("/")))
        except OSError as e:
            _unstage(drive, dests)
            raise Failure(
                "writing %s on the drive failed (%s): nothing of the firmware changed, the board "
                "keeps its old firmware, and the new files written so far were removed. "
                "Free some space or check the drive, then run install-firmware again"
                % (dest, _why(e))
            )


def commit(drive: str, pairs: list[tuple[str, str]]) -> None:
    """Put the staged files in place: the library files, the package, boot.py, code.py last."""
    replace = os.replace
    done = []
    singles = [dest for _, dest in pairs if not dest.startswith(PACKAGE + "/")]
    code_last = (
        [d for d in singles if d not in ("boot.py", "code.py")]
        + [PACKAGE]
        + [d for d in ("boot.py", "code.py") if d in singles]
    )
    at = None
    try:
        for item in code_last:
            at = item
            if item == PACKAGE:
                old = os.path.join(drive, PACKAGE)
                if os.path.lexists(os.path.join(drive, OLD_PACKAGE)):
                    shutil.rmtree(os.path.join(drive, OLD_PACKAGE))
                if os.path.exists(old):
                    replace(old, os.path.join(drive, OLD_PACKAGE))
                replace(os.path.join(drive, STAGED_PACKAGE), old)
                shutil.rmtree(os.path.join(drive, OLD_PACKAGE), ignore_errors=True)
            else:
                replace(
                    os.path.join(drive, *_staged(item).split("/")),
                    os.path.join(drive, *item.split("/")),
                )
            done.append(item)
    except OSError as e:
        left = code_last[len(done) :]
        raise Failure(
            "replacing the firmware on %s stopped at %s (%s). Replaced: %s. Not replaced yet (each "
            "new file still beside its place as .new): %s.%s code.py is still the old one: run "
            "install-firmware again to finish"
            % (
                drive,
                at,
                _why(e),
                ", ".join(done) or "nothing",
                ", ".join(left),
                _package_state(drive) if at == PACKAGE else "",
            )
        )


def _package_state(drive):
    there = [
        n for n in (PACKAGE, OLD_PACKAGE, STAGED_PACKAGE) if os.path.isdir(os.path.join(drive, n))
    ]
    if PACKAGE not in there:
        return (
            " There is no presstime/ folder now: the old package is in %s/, the new one in %s/."
            % (OLD_PACKAGE, STAGED_PACKAGE)
        )
    return " presstime/ holds the %s package." % ("old" if STAGED_PACKAGE in there else "new")
