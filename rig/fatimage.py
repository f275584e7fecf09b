"""Read the MacroPad's CIRCUITPY (FAT) out of a saved rig flash image, read-only: where its
structures sit on the flash, and which file owns a flash address (to name what a power cut tore).

CircuitPython 10.2.1 on the MacroPad keeps CIRCUITPY at 1 MB into the 8 MB flash: FAT16 made by
its own format (512-byte sectors, 1 KB clusters, one FAT, a 512-entry root directory). It writes
the drive through a 4 KB flash-sector cache: every sector a write touches is erased and
programmed whole, so a cut tears all 4 KB of it, whatever FAT structures share it.

    fs = FatImage.load(image)
    fs.files()                             # {"/code.py": [cluster, ...], "/presstime/": [...]}
    fs.owner(flash_addr)                   # ["boot sector", "FAT", "root dir", "/code.py", ...]
    fs.read("/code.py")                    # a file's bytes, or None
"""

import struct

DRIVE_OFFSET = 1 << 20
FLASH_SECTOR = 4096


class FatImage:
    def __init__(self, data):
        self.data = data
        b = data[DRIVE_OFFSET:DRIVE_OFFSET + 512]
        (self.bps, self.spc, res, nfats, rootent, tot16, _media, fatsz, _spt, _heads, _hidden,
         tot32) = struct.unpack_from("<HBHBHHBHHHII", b, 11)
        if self.bps not in (512, 1024, 2048, 4096) or not self.spc or not fatsz or b[510:512] != b"\x55\xaa":
            raise ValueError("no FAT boot sector at 1 MB")
        self.fat0 = res
        self.root0 = res + nfats * fatsz
        self.data0 = self.root0 + (rootent * 32 + self.bps - 1) // self.bps
        self.total = tot16 or tot32
        self.nclusters = (self.total - self.data0) // self.spc + 2
        self.fat12 = self.nclusters < 4085
        self._files = None

    @classmethod
    def load(cls, image):
        with open(image, "rb") as f:
            return cls(f.read())

    def _sector(self, s, n=1):
        o = DRIVE_OFFSET + s * self.bps
        return self.data[o:o + n * self.bps]

    def fat(self, c):
        base = DRIVE_OFFSET + self.fat0 * self.bps
        if self.fat12:
            o = base + c + c // 2
            v = self.data[o] | self.data[o + 1] << 8
            return (v >> 4) if c & 1 else (v & 0xFFF)
        return struct.unpack_from("<H", self.data, base + 2 * c)[0]

    def chain(self, c):
        out = []
        end = 0xFF8 if self.fat12 else 0xFFF8
        while 2 <= c < self.nclusters and c not in out and len(out) < self.nclusters:
            out.append(c)
            c = self.fat(c)
            if c >= end:
                break
        return out

    def _cluster(self, c):
        return self._sector(self.data0 + (c - 2) * self.spc, self.spc)

    def _entries(self, raw):
        lfn = []
        for i in range(0, len(raw) - 31, 32):
            e = raw[i:i + 32]
            if e[0] == 0:
                break
            if e[0] == 0xE5:
                lfn = []
                continue
            if e[11] == 0x0F:
                part = e[1:11] + e[14:26] + e[28:32]
                lfn.insert(0, part.decode("utf-16-le", "replace").split("\x00")[0])
                continue
            if e[11] & 0x08:
                lfn = []
                continue
            short = e[0:8].decode("latin1").rstrip()
            ext = e[8:11].decode("latin1").rstrip()
            name = "".join(lfn) if lfn else (short + ("." + ext if ext else "")).lower()
            lfn = []
            first, size = struct.unpack_from("<HI", e, 26)
            yield name, bool(e[11] & 0x10), first, size

    def files(self):
        """{path: clusters}; directories end with "/"."""
        if self._files is not None:
            return self._files
        out = {}
        todo = [("/", self._sector(self.root0, self.data0 - self.root0))]
        seen = set()
        while todo:
            path, raw = todo.pop()
            for name, is_dir, first, _size in self._entries(raw):
                if name in (".", ".."):
                    continue
                cl = self.chain(first) if first else []
                if is_dir:
                    out[path + name + "/"] = cl
                    if cl and cl[0] not in seen:
                        seen.add(cl[0])
                        todo.append((path + name + "/", b"".join(self._cluster(c) for c in cl)))
                else:
                    out[path + name] = cl
        self._files = out
        return out

    def entry(self, path):
        """(first cluster, size) of a file, or None."""
        parts = [p for p in path.split("/") if p]
        raw = self._sector(self.root0, self.data0 - self.root0)
        for k, p in enumerate(parts):
            for name, is_dir, first, size in self._entries(raw):
                if name == p.lower() or name == p:
                    if k == len(parts) - 1:
                        return first, size
                    raw = b"".join(self._cluster(c) for c in self.chain(first))
                    break
            else:
                return None
        return None

    def read(self, path):
        e = self.entry(path)
        if e is None:
            return None
        first, size = e
        data = b"".join(self._cluster(c) for c in self.chain(first)) if first else b""
        return data[:size]

    def owner(self, addr, length=FLASH_SECTOR):
        """What the flash bytes [addr, addr + length) hold: "boot sector", "FAT", "root dir",
        a file's path (a directory's ends with "/"), "free" for data clusters no file owns."""
        lo = (addr - DRIVE_OFFSET) // self.bps
        hi = (addr + length - DRIVE_OFFSET + self.bps - 1) // self.bps
        out = []

        def add(x):
            if x not in out:
                out.append(x)
        owner = None
        for s in range(max(0, lo), hi):
            if s < self.fat0:
                add("boot sector")
            elif s < self.root0:
                add("FAT")
            elif s < self.data0:
                add("root dir")
            else:
                c = (s - self.data0) // self.spc + 2
                if owner is None:
                    owner = {}
                    for path, cl in self.files().items():
                        for x in cl:
                            owner[x] = path
                add(owner.get(c, "free"))
        return out
