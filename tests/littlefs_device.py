# SPDX-License-Identifier: MIT
"""The rp2 flash file system in a test: littlefs-python on a RAM block device that loses power.

Geometry as MicroPython's rp2 port mounts its flash (ports/rp2/modules/_boot.py and
extmod/vfs_lfsx.c): littlefs v2, 4096-byte erase blocks, progsize=256, readsize=32,
lookahead=32, cache = min(block, 4 * max(read, prog)) = 1024, block_cycles=100. The block count
is small (the Pico has 352 blocks) to keep the test quick.

`CutDevice` counts prog and erase operations; after `budget` of them the power is gone: the
cutting operation is not done (or, with torn=True, done for only half its bytes) and every later
prog/erase fails with LFS_ERR_IO, as a board that is switched off.
"""

import littlefs

GEOMETRY = dict(
    block_size=4096,
    block_count=24,
    read_size=32,
    prog_size=256,
    cache_size=1024,
    lookahead_size=32,
    block_cycles=100,
)
_LFS_ERR_IO = -5


class CutDevice(littlefs.UserContext):
    def __init__(self, buffer, budget=-1, torn=False):
        super().__init__(buffer=buffer)
        self.budget = budget  # prog/erase operations left; -1: unlimited
        self.torn = torn
        self.ops = 0  # prog/erase operations done
        self.cut = False

    def _allow(self):
        if self.cut:
            return False
        if self.budget >= 0 and self.ops >= self.budget:
            self.cut = True
            return False
        self.ops += 1
        return True

    def prog(self, cfg, block, off, data):
        if not self._allow():
            if self.torn and not self.ops_torn_done():
                half = bytes(data[: len(data) // 2])
                super().prog(cfg, block, off, half)
            return _LFS_ERR_IO
        return super().prog(cfg, block, off, data)

    def erase(self, cfg, block):
        if not self._allow():
            if self.torn and not self.ops_torn_done():
                # an interrupted erase: the first half of the block is erased, the rest is not
                start = block * cfg.block_size
                self.buffer[start : start + cfg.block_size // 2] = b"\xff" * (cfg.block_size // 2)
            return _LFS_ERR_IO
        return super().erase(cfg, block)

    def ops_torn_done(self):
        """Only the operation the power failed in is torn; mark it done."""
        done = getattr(self, "_torn_done", False)
        self._torn_done = True
        return done


def formatted_image():
    """A freshly formatted flash image (bytearray)."""
    fs = littlefs.LittleFS(mount=False, **GEOMETRY)
    fs.format()
    return bytearray(fs.context.buffer)


def mount(buffer, budget=-1, torn=False):
    """Mount the image the way the board boots: a mount failure is an error here (the rp2
    firmware would reformat the flash and lose the journal)."""
    dev = CutDevice(buffer, budget, torn)
    fs = littlefs.LittleFS(dev, mount=False, **GEOMETRY)
    fs.mount()
    return fs


class LfsFile:
    """An unbuffered littlefs-python file whose close() runs once, even when it fails.

    littlefs-python's FileHandle marks itself closed only after lfs_file_close succeeds; a close
    that fails (power gone) leaves it "open", and its finaliser then closes it again, which trips
    an assertion in lfs.c and aborts the process. Board files have no such problem."""

    def __init__(self, raw):
        self.raw = raw
        self.closed = False

    def read(self, n=-1):
        return self.raw.read(n)

    def readinto(self, buf):
        return self.raw.readinto(buf)

    def write(self, data):
        return self.raw.write(data)

    def seek(self, off, whence=0):
        return self.raw.seek(off, whence)

    def flush(self):
        self.raw.flush()  # lfs_file_sync: what MicroPython's flush() does on littlefs

    def close(self):
        if self.closed:
            return
        self.closed = True
        raw = self.raw
        setattr(raw, "__IOBase_closed", True)  # the finaliser must not close it again
        littlefs.lfs.file_close(raw.fs, raw.fh)


class LfsVolume:
    """open/remove/rename for the Journal, as on the board."""

    def __init__(self, fs):
        self.fs = fs

    def open(self, name, mode="rb"):
        if "a" in mode:
            # littlefs-python's "a" does not create the file; MicroPython's does.
            try:
                self.fs.stat(name)
            except littlefs.LittleFSError:
                self.fs.open(name, "wb", buffering=0).close()
        return LfsFile(self.fs.open(name, mode, buffering=0))

    def remove(self, name):
        self.fs.remove(name)

    def rename(self, src, dst):
        self.fs.rename(src, dst)

    def listdir(self, folder="."):
        return self.fs.listdir(folder or ".")


def journal_on(fs, journal_cls, path="journal.bin"):
    vol = LfsVolume(fs)
    return journal_cls(
        path, opener=vol.open, remove=vol.remove, rename=vol.rename, listdir=vol.listdir
    )
