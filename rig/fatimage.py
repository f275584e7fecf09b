"""Which part of the MacroPad's CIRCUITPY (FAT) a flash address holds, read out of a saved rig
flash image with pyfatfs (read-only): to name what a power cut tore.

CircuitPython 10.2.1 on the MacroPad keeps CIRCUITPY at 1 MB into the 8 MB flash: FAT made by
its own format (512-byte sectors, 1 KB clusters, one FAT, a 512-entry root directory). It writes
the drive through a 4 KB flash-sector cache: every sector a write touches is erased and
programmed whole, so a cut tears all 4 KB of it, whatever FAT structures share it.

    fs = FatImage.load(image)
    fs.files()                             # {"/code.py": [cluster, ...], "/presstime/": [...]}
    fs.owner(flash_addr)                   # ["boot sector", "FAT", "root dir", "/code.py", ...]
"""

from pyfatfs import PyFATException
from pyfatfs.PyFat import PyFat

DRIVE_OFFSET = 1 << 20
FLASH_SECTOR = 4096


class FatImage:
    def __init__(self, fat):
        self.fat = fat
        b = fat.bpb_header
        self.bps = b["BPB_BytsPerSec"]
        self.spc = b["BPB_SecPerClus"]
        self.fat0 = b["BPB_RsvdSecCnt"]
        self.root0 = self.fat0 + b["BPB_NumFATs"] * b["BPB_FATSz16"]
        self.data0 = self.root0 + (b["BPB_RootEntCnt"] * 32 + self.bps - 1) // self.bps
        self._files = None

    @classmethod
    def load(cls, image):
        """The drive in a saved flash image; ValueError when there is no FAT at 1 MB."""
        fat = PyFat(offset=DRIVE_OFFSET)
        try:
            fat.open(image, read_only=True)
        except (PyFATException, ValueError, OSError) as e:
            raise ValueError("no FAT drive at 1 MB in %s: %s" % (image, e)) from None
        return cls(fat)

    def close(self):
        self.fat.close()

    def files(self):
        """{path: clusters}, names as the drive lists them (lower case); directories end
        with "/"."""
        if self._files is None:
            out = {}
            todo = [("/", self.fat.root_dir)]
            while todo:
                path, d = todo.pop()
                for e in d.get_entries()[0] + d.get_entries()[1]:
                    name = path + str(e).lower()
                    first = e.get_cluster()
                    cl = list(self.fat.get_cluster_chain(first)) if first >= 2 else []
                    if e.is_directory():
                        out[name + "/"] = cl
                        todo.append((name + "/", e))
                    else:
                        out[name] = cl
            self._files = out
        return self._files

    def owner(self, addr, length=FLASH_SECTOR):
        """What the flash bytes [addr, addr + length) hold: "boot sector", "FAT", "root dir",
        a file's path (a directory's ends with "/"), "free" for data clusters no file owns."""
        lo = (addr - DRIVE_OFFSET) // self.bps
        hi = (addr + length - DRIVE_OFFSET + self.bps - 1) // self.bps
        out = []
        owner = None
        for s in range(max(0, lo), hi):
            if s < self.fat0:
                x = "boot sector"
            elif s < self.root0:
                x = "FAT"
            elif s < self.data0:
                x = "root dir"
            else:
                if owner is None:
                    owner = {c: path for path, cl in self.files().items() for c in cl}
                x = owner.get((s - self.data0) // self.spc + 2, "free")
            if x not in out:
                out.append(x)
        return out
