"""Read the board's littlefs out of a saved rig flash image (no board needed).

The rp2 port keeps its filesystem in the last 1408 KB of the 2 MB flash (352 blocks of 4 KB at
0xA0000), littlefs v2 with MicroPython's geometry. littlefs-python mounts a copy (never format:
a mount that fails is reported, as the firmware would reformat there), and the project's own
Journal class reads the journal through it.

    fs = mount(image)                      # FsError if it does not mount
    journal_records(fs)                    # [(seq, payload)] of every game kept
    read(fs, JOURNAL + ".run")             # a file's bytes, or None
"""

import littlefs

from presstime.device.journal import Journal

FS_OFFSET = 0xA0000
BLOCKS = 352
GEOMETRY = dict(
    block_size=4096,
    block_count=BLOCKS,
    read_size=32,
    prog_size=256,
    cache_size=1024,
    lookahead_size=32,
    block_cycles=100,
)
JOURNAL = "/journal/journal.bin"  # ports/rp2.py journal_path()


class FsError(Exception):
    """The image's filesystem does not mount (the firmware would reformat it)."""


def mount(image):
    with open(image, "rb") as f:
        data = f.read()
    part = bytearray(data[FS_OFFSET : FS_OFFSET + BLOCKS * 4096])
    ctx = littlefs.UserContext(buffer=part)
    fs = littlefs.LittleFS(context=ctx, mount=False, **GEOMETRY)
    try:
        fs.mount()
    except Exception as e:  # littlefs.errors.LittleFSError
        raise FsError("littlefs does not mount: %s" % e)
    return fs


def read(fs, path):
    try:
        with fs.open(path, "rb") as f:
            return f.read()
    except Exception:
        return None


def journal_records(fs, path=JOURNAL):
    """Every record of the journal kept in `fs`, read by the firmware's Journal class (on this
    copy of the flash: a torn tail it would drop at boot is dropped here too)."""
    j = Journal(
        path,
        opener=fs.open,
        remove=fs.remove,
        rename=fs.rename,
        listdir=lambda d="/": fs.listdir(d),
    )
    j.FSYNC = False
    try:
        return j.records(0)
    finally:
        j.close()


def files(fs):
    return sorted(fs.listdir("/"))
