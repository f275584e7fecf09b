# SPDX-License-Identifier: MIT
"""A fake file system that loses power after N units of work, and journal sessions to cut.

Runs under CPython and the MicroPython unix port (no pytest, no CPython-only features), so the
very same power-cut proof runs on both interpreters.

Units: every byte written costs 1; creating/truncating a file, rename and remove cost 1 each
(the cut falls before that operation). A write that runs out of budget stores only the bytes that
fit, optionally followed by `junk` (what an interrupted sector write may leave), then raises
PowerCut; after that every write and metadata operation raises PowerCut (the board is off).
"""


class PowerCut(Exception):
    pass


class FakeFS:
    def __init__(self, files=None, budget=-1, junk=b"", sizes=False):
        self.files = {} if files is None else files  # name -> bytearray (what is on flash)
        self.sizes = sizes  # listdir() gives os.ilistdir's entries: (name, type, inode, size)
        self.budget = budget  # units left; -1: unlimited
        self.junk = junk
        self.used = 0  # units spent so far
        self.dead = False

    def _take(self, n):
        """How many of `n` units may still happen."""
        if self.dead:
            return 0
        if self.budget < 0:
            self.used += n
            return n
        k = n if n <= self.budget else self.budget
        self.budget -= k
        self.used += k
        return k

    def _op(self):
        if self._take(1) < 1:
            self.dead = True
            raise PowerCut()

    def open(self, name, mode="rb"):
        if "r" in mode:
            if name not in self.files:
                raise OSError(2)
        elif "w" in mode:
            self._op()
            self.files[name] = bytearray()
        elif "a" in mode:
            if name not in self.files:
                self._op()
                self.files[name] = bytearray()
        return FakeFile(self, name, mode)

    def remove(self, name):
        if name not in self.files:
            raise OSError(2)
        self._op()
        del self.files[name]

    def listdir(self, folder=""):
        if self.sizes:
            return [(k, 0x8000, 0, len(self.files[k])) for k in self.files]
        return list(self.files)

    def rename(self, src, dst):
        if src not in self.files:
            raise OSError(2)
        self._op()
        self.files[dst] = self.files.pop(src)

    def copy(self):
        files = {}
        for k in self.files:
            files[k] = bytearray(self.files[k])
        return FakeFS(files, sizes=self.sizes)


class FakeFile:
    def __init__(self, fs, name, mode):
        self.fs = fs
        self.name = name
        self.pos = 0
        self.closed = False

    def _data(self):
        return self.fs.files[self.name]

    def read(self, n=-1):
        d = self._data()
        end = len(d) if n < 0 else min(len(d), self.pos + n)
        out = bytes(d[self.pos : end])
        self.pos = end
        return out

    def readinto(self, buf):
        got = self.read(len(buf))
        buf[: len(got)] = got
        return len(got)

    def seek(self, off, whence=0):
        if whence == 2:
            off += len(self._data())
        elif whence == 1:
            off += self.pos
        self.pos = off
        return off

    def write(self, data):
        if self.closed:
            raise OSError(9)
        n = len(data)
        k = self.fs._take(n)
        d = self._data()
        d.extend(data[:k])
        if k < n:
            self.fs.dead = True
            d.extend(self.fs.junk)
            raise PowerCut()
        return n

    def flush(self):
        if self.fs.dead:
            raise PowerCut()

    def close(self):
        self.closed = True


PATH = "journal.bin"

# Sessions: lists of steps (see run_session). A payload set that covers the
# empty payload, the largest one (255 bytes) and seq values crossing the 1-byte varint limit.
SESSION_A = (
    [("append", b"\x01")]
    + [("append", bytes([i, 7, i * 3 % 256])) for i in range(5)]
    + [("append", b""), ("append", bytes(range(40))), ("append", b"\xa5" * 255)]
    + [("many", [b"m1", b"", b"m3" * 30]), ("many", [])]
    + [("reset",)]
    + [("append", b"\xa5\x05"), ("append", b"day 2"), ("append", b"\xff\x00\xa5")]
)


def make_journal(fs, journal_cls):
    return journal_cls(PATH, opener=fs.open, remove=fs.remove, rename=fs.rename, listdir=fs.listdir)


def last_segment(names):
    """The newest journal segment among file names."""
    best = None
    for n in names:
        rest = n[len(PATH) + 1 :]
        if n.startswith(PATH + ".") and rest.isdigit() and (best is None or int(rest) > best):
            best = int(rest)
    return "%s.%d" % (PATH, best)


def game_bytes(j):
    """Bytes of the current game's segment files, measured on the file system."""
    total = 0
    for name in j.segment_names():
        if int(name[len(PATH) + 1 :]) >= j.base_seq:
            total += j._head(name)[1]
    return total


def run_session(fs, journal_cls, steps, cut=PowerCut):
    """Run `steps` on a journal over `fs` (a FakeFS or a littlefs.LittleFS) until done or cut.

    Steps: ("append", payload), ("many", [payload, ...]) for append_many, ("reset",).
    Returns (done, inflight, starts): the (seq, payload) of every record whose append returned,
    the payloads of an append that was cut (a list, maybe empty), and the seqs a game may start
    after (0 and the last seq at every reset tried)."""
    done = []
    inflight = []
    starts = [0]
    try:
        j = make_journal(fs, journal_cls)
        for step in steps:
            if step[0] == "append":
                inflight = [step[1]]
                seq = j.append(step[1])
                done.append((seq, step[1]))
                inflight = []
            elif step[0] == "many":
                inflight = list(step[1])
                seq = j.append_many(step[1]) - len(inflight)
                for p in inflight:
                    seq += 1
                    done.append((seq, p))
                inflight = []
            else:
                starts.append(j.last_seq)
                j.reset()
    except cut:
        pass
    return done, inflight, starts


def oldest_kept(j):
    """The seq just before the oldest record the journal still keeps (its oldest segment's base)."""
    return int(j.segment_names()[0][len(PATH) + 1 :])


def check_after_cut(boot, before, done, inflight, starts=None):
    """Reboot on what is on flash and check the journal's promises. Returns an error or None.

    boot(): a Journal opened on the flash as the cut left it (each call is a new boot);
    before: records that existed before the session; done/inflight: from run_session.
    starts: where games may start (from run_session): if given, whole old games may have been
    removed (Journal.KEEP_BYTES), so the records are checked from the oldest kept game on."""
    j = boot()
    got = j.records(0)
    want = before + done
    if starts is not None:
        oldest = oldest_kept(j)
        if oldest not in starts:
            return "the oldest segment kept (base %d) does not start a game %r" % (oldest, starts)
        want = [r for r in want if r[0] > oldest]
    # the records of a cut append_many may survive, as a prefix of that batch
    seq = want[-1][0] if want else 0
    extra = got[len(want) :]
    ok = got[: len(want)] == want and len(extra) <= len(inflight)
    for i in range(len(extra)):
        ok = ok and extra[i] == (seq + 1 + i, inflight[i])
    if not ok:
        return "records after the cut: got %r want %r (+ maybe %r)" % (got, want, inflight)
    if j.last_seq != (got[-1][0] if got else 0):
        return "last_seq %d but records end at %r" % (j.last_seq, got[-1:] or None)
    cur = j.records(j.base_seq)
    if cur != [r for r in got if r[0] > j.base_seq]:
        return "current game records %r wrong for base %d" % (cur, j.base_seq)
    seq = j.append(b"after")
    if seq != j.last_seq or seq != (got[-1][0] if got else 0) + 1:
        return "append after the cut gave seq %d" % seq
    j.close()
    j2 = boot()
    if j2.dropped_bytes != 0:
        return "a second boot still dropped %d bytes" % j2.dropped_bytes
    if j2.records(0) != got + [(seq, b"after")]:
        return "append after the cut not kept: %r" % j2.records(0)
    if j2.size_bytes != game_bytes(j2):
        return "size_bytes %d, files have %d" % (j2.size_bytes, game_bytes(j2))
    j2.close()
    return None


def prepare(journal_cls, steps, tail=b""):
    """A flash with a journal made by `steps` (no cut), plus `tail` bytes appended raw."""
    fs = FakeFS()
    done = run_session(fs, journal_cls, steps)[0]
    fs.files[last_segment(fs.files)].extend(tail)
    return fs, done


def cut_everywhere(journal_cls, steps, start=None, before=(), junk=b"", step=1, trims=False):
    """Cut the session at every unit (every `step`-th) and check each reboot.

    start: a FakeFS with the flash before the session (default empty). Returns (cuts, errors)."""
    if start is None:
        start = FakeFS()
    before = list(before)
    full = start.copy()
    run_session(full, journal_cls, steps)
    total = full.used
    errors = []
    n = 0
    cuts = 0
    while n <= total:
        fs = start.copy()
        fs.budget = n
        fs.junk = junk
        done, inflight, starts = run_session(fs, journal_cls, steps)
        disk = fs.copy()
        err = check_after_cut(
            lambda: make_journal(disk, journal_cls),
            before,
            done,
            inflight,
            starts if trims else None,
        )
        if err is not None:
            errors.append("cut after %d units: %s" % (n, err))
        cuts += 1
        n += step
    return cuts, errors
