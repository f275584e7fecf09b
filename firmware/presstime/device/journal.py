# SPDX-License-Identifier: MIT
"""Append-only journal on the board's flash: every record has a sequence number and a CRC.

The journal at `path` is a chain of small segment files `<path>.<base>` (base: the seq just
before the segment's first record), each about SEGMENT_BYTES long, so that on littlefs every
segment stays an inline file and a flushed append costs a metadata commit, not a block copy
(see docs/journal.md for the figures).

    header  b"PTJ" | 0x10 + game flag (1 byte) | base seq (4 bytes, big-endian) | crc16 (2 bytes)
    record  0xA5 | payload length (1 byte) | seq (LEB128 varint) | payload | crc16 (2 bytes)

CRCs are big-endian; a record's CRC covers everything from the 0xA5 byte to the end of the payload.
The first record of a segment has seq base+1, each next one +1, and each segment's base is the
previous segment's last seq. The game flag marks the first segment of a game (`reset()`).

On open the chain is checked; the first record that is torn, corrupt or out of sequence ends the
journal: the bytes from there on are dropped (the good prefix of that segment is copied to
`<segment>.tmp` and renamed over it; MicroPython files have no truncate()) and later segments are
removed. Earlier games are kept for sync up to KEEP_BYTES (the game just ended always).

Runs on MicroPython (unix, rp2), CircuitPython and CPython; the file functions are passed in, so
a fake file system (tests) or littlefs-python drops in.
"""

import os

from ..core.crc import crc16
from .port import JournalBase

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# private const()s: inlined by the compiler, no global and no name (qstr) in the board's RAM
_MAGIC = const(0xA5)
_TAG = b"PTJ"
_V1 = const(0x10)       # header byte 3: format version 1 in the high nibble...
_GAME = const(0x01)     # ...and this bit on the first segment of a game
_HEADER_LEN = const(10)
_MAX_PAYLOAD = const(255)
_MAX_RECORD = const(1 + 1 + 4 + _MAX_PAYLOAD + 2)
_MAX_SEQ = const((1 << 28) - 1)     # four varint bytes; stays a small int on every port
_CHUNK = const(256)

_ERASED_MS = const(25)  # an append this slow erased a block: NOR flash erases take 30 ms or more

_fsync = getattr(os, "fsync", None)   # CPython
_sync = getattr(os, "sync", None)     # MicroPython rp2 and others (not the unix port)


def _replace(src, dst):
    """Rename `src` over `dst` (CPython: os.replace; MicroPython's rename replaces on littlefs/FAT)."""
    f = getattr(os, "replace", None)
    if f is None:
        f = os.rename
    f(src, dst)


def encode_header(base, game):
    h = bytearray(_TAG)
    h.append(_V1 | (_GAME if game else 0))
    h.append((base >> 24) & 0xFF)
    h.append((base >> 16) & 0xFF)
    h.append((base >> 8) & 0xFF)
    h.append(base & 0xFF)
    c = crc16(h)
    h.append(c >> 8)
    h.append(c & 0xFF)
    return h


def decode_header(buf):
    """(base, game) from a header at the start of `buf`, or None if there is no valid header."""
    if len(buf) < _HEADER_LEN or bytes(buf[0:3]) != _TAG or buf[3] & 0xF0 != _V1:
        return None
    if crc16(buf[0:8]) != (buf[8] << 8) | buf[9]:
        return None
    return (buf[4] << 24) | (buf[5] << 16) | (buf[6] << 8) | buf[7], bool(buf[3] & _GAME)


def encode_record(seq, payload):
    """The bytes of one record (see the module docstring)."""
    n = len(payload)
    if n > _MAX_PAYLOAD:
        raise ValueError("journal payload longer than 255 bytes")
    if seq < 1 or seq > _MAX_SEQ:
        raise ValueError("journal seq out of range")
    r = bytearray()
    r.append(_MAGIC)
    r.append(n)
    while seq > 0x7F:
        r.append((seq & 0x7F) | 0x80)
        seq >>= 7
    r.append(seq)
    r.extend(payload)
    c = crc16(r)
    r.append(c >> 8)
    r.append(c & 0xFF)
    return r


def decode_record(buf, pos, expect):
    """Parse the record at buf[pos:] that must have seq `expect`.

    Returns (payload_start, payload_end, next_pos), or None when the bytes there are not that
    record (torn, corrupt, wrong seq, or `buf` ends before the record does)."""
    n = len(buf)
    if pos + 5 > n or buf[pos] != _MAGIC:
        return None
    ln = buf[pos + 1]
    p = pos + 2
    seq = 0
    shift = 0
    while True:
        if p >= n or shift > 21:
            return None
        b = buf[p]
        p += 1
        seq |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            break
    if seq != expect:
        return None
    q = p + ln
    if q + 2 > n:
        return None
    if crc16(memoryview(buf)[pos:q]) != (buf[q] << 8) | buf[q + 1]:
        return None
    return p, q, q + 2


def _walk(f, seq, after, limit, out, win=None):
    """Walk the valid records of open file `f` from its position, the next one being seq+1.

    Appends (seq, payload) with seq > after to `out` (if not None) until `limit` are there.
    Returns (seq, n): the last record walked and the bytes walked. `win` is the read window
    (a bytearray of _CHUNK + _MAX_RECORD, the journal keeps one): the file is read into it
    (readinto: the file objects of every opener have it), so a walk allocates only the
    payloads it returns (and small memoryviews)."""
    if win is None:
        win = bytearray(_CHUNK + _MAX_RECORD)
    mv = memoryview(win)
    end = at = walked = 0
    eof = False
    while True:
        if not eof and end - at < _MAX_RECORD:
            # the unread tail (under a record) to the front, in pieces that do not overlap
            # (a copy within the window: no bytes object of up to a record per chunk)
            n = end - at
            k = 0
            while at and k < n:
                m = at if at < n - k else n - k
                win[k:k + m] = mv[at + k:at + k + m]
                k += m
            end -= at
            at = 0
            n = f.readinto(mv[end:end + _CHUNK])    # no 257-byte bytes per chunk: a sync
            eof = not n                              # after a game found no room for one
            end += n or 0
            continue
        r = decode_record(mv[:end], at, seq + 1)
        if r is None:
            return seq, walked
        seq += 1
        walked += r[2] - at
        if out is not None and seq > after:
            out.append((seq, bytes(mv[r[0]:r[1]])))
        at = r[2]
        if out is not None and limit is not None and len(out) >= limit:
            return seq, walked


class Journal(JournalBase):
    """Append-only journal of small binary records, safe against a power cut at any point.

    Journal(path, opener=open, remove=os.remove, rename=<replace>, listdir=os.listdir)
      .append(payload) -> seq      write one record, flushed (and synced where the port can)
      .append_many(payloads) -> seq  several records in one write and one flush
      .records(after_seq=0, limit=None) -> [(seq, payload bytes), ...]   oldest first, for sync
      .last_seq                    seq of the newest record (base_seq if this game has none)
      .base_seq                    seq just before this game's first record (0 for a fresh journal)
      .size_bytes                  bytes of this game's segment files (headers included)
      .reset()                     start a new game; seq continues, earlier games are kept
                                   up to KEEP_BYTES (the game just ended always)
      .close()
    """

    FSYNC = True            # CPython: os.fsync after each append (tests may switch it off)
    SEGMENT_BYTES = 240     # a new segment starts when a write would pass this size
    KEEP_BYTES = 16384      # earlier games kept for sync (besides the game just ended)

    def __init__(self, path, opener=open, remove=None, rename=None, listdir=None):
        self.path = path
        i = path.rfind("/")
        self._dir = path[:i] if i > 0 else ("/" if i == 0 else "")
        self._prefix = path[i + 1:] + "."
        self._open_file = opener
        self._remove = remove if remove is not None else os.remove
        self._rename = rename if rename is not None else _replace
        # os.ilistdir where there is one (MicroPython): its entries give the segments' sizes
        self._listdir = listdir if listdir is not None else getattr(os, "ilistdir", os.listdir)
        self._f = None
        self._segs = []         # bases of the segments kept, oldest first
        self._sizes = []        # their sizes in bytes
        self._starts = [0]      # indices in _segs where a game starts (the last: this game)
        self._lazy = _MAX_SEQ   # game flags from here to the next start not read yet (trim)
        self.base_seq = 0
        self.last_seq = 0
        self.size_bytes = 0
        self.dropped_bytes = 0  # torn/corrupt bytes dropped by the last recovery
        self._win = bytearray(_CHUNK + _MAX_RECORD)   # the read window of every walk
        self._recover()

    # -- file helpers ------------------------------------------------------------------

    def _name(self, base):
        return "%s.%d" % (self.path, base)

    def segment_names(self):
        """The segment files kept, oldest first (earlier games', then this game's)."""
        return [self._name(b) for b in self._segs]

    def _durable(self, f):
        f.flush()
        if not self.FSYNC:
            return
        if _fsync is not None:
            try:
                _fsync(f.fileno())
            except (AttributeError, OSError, ValueError):
                pass                # not a real OS file (littlefs-python, a fake)
        elif _sync is not None:
            _sync()

    def _write_new(self, name, data):
        f = self._open_file(name, "wb")
        try:
            f.write(data)
            self._durable(f)
        finally:
            f.close()

    def _head(self, name):
        """(header or None, size in bytes) of segment `name`, its records not read: the trim's
        game flags, the recovery's segments it does not walk (journal_recover.py)."""
        f = self._open_file(name, "rb")
        try:
            return decode_header(f.read(_HEADER_LEN)), f.seek(0, 2)
        finally:
            f.close()

    # -- recovery ----------------------------------------------------------------------

    def _recover(self, *trim):
        """Bring the files to a consistent state after whatever happened before (see docs):
        at boot and after a failed write; with an argument, remove the oldest games instead
        (reset()). The code of both is device/journal_recover.py's, imported for the call and
        dropped from RAM after (1.4 KB of the board's heap on x86-64 otherwise; the trim's,
        ~1 KB more, went there when the reopen in append_many needed the room)."""
        import sys
        from . import journal_recover
        name = journal_recover.__name__
        try:
            (journal_recover.trim if trim else journal_recover.recover)(self, sys.modules[__name__])
        finally:
            journal_recover = None
            del sys.modules[name]
            delattr(sys.modules[name[:-16]], "journal_recover")  # the import put it there too

    # -- the API -----------------------------------------------------------------------

    def append(self, payload):
        """Append one record (payload: up to 255 bytes); returns its seq once it is on flash."""
        return self.append_many((payload,))

    def append_many(self, payloads):
        """Append several records with one write and one flush (one littlefs commit, so far
        fewer flash operations than one append each); returns the last seq. A cut keeps a
        prefix of them."""
        if self._f is None:
            self._recover()         # an earlier append failed: drop its torn tail first
        seq = self.last_seq
        data = bytearray()
        for p in payloads:
            seq += 1
            data.extend(encode_record(seq, p))
        if not data:
            return seq
        last = self._sizes[-1]
        roll = last > _HEADER_LEN and last + len(data) > self.SEGMENT_BYTES
        base = self.last_seq
        try:    # MicroPython's clock, to see an append that erased (below); CPython and
            # CircuitPython (FAT, not littlefs) have none. Imported here: no global, no new name
            from time import ticks_ms, ticks_diff
            t = ticks_ms()
        except ImportError:
            t = None
        try:
            if roll:
                self._f.close()
                self._f = None
                self._f = self._open_file(self._name(base), "wb")
                data = encode_header(base, False) + data
            n = self._f.write(data)
            if n is not None and n != len(data):
                raise OSError(28)   # ENOSPC: a short write
            self._durable(self._f)
        except Exception:
            if self._f is not None:
                try:
                    self._f.close()
                except Exception:
                    pass
                self._f = None
            raise
        if roll:
            self._segs.append(base)
            self._sizes.append(0)
        self._sizes[-1] += len(data)
        self.size_bytes += len(data)
        self.last_seq = seq
        if t is not None and ticks_diff(ticks_ms(), t) >= _ERASED_MS:
            # An append that erased: littlefs compacted the folder's metadata in it, and may
            # then compact again at every later flush through the same open file (a 4 KB erase,
            # 45 ms on the Pico, each; five in a row seen in the rig) until the file is opened
            # anew (docs/journal.md, "Compactions"). A failed reopen: the next append recovers.
            try:
                self._f.close()
                self._f = self._open_file(self._name(self._segs[-1]), "ab")
            except OSError:
                self._f = None
        return seq

    def records(self, after_seq=0, limit=None):
        """Records with seq > after_seq, oldest first, at most `limit`: a list of (seq, bytes).

        Reaches into the previous game when after_seq < base_seq."""
        out = []
        if (limit is not None and limit <= 0) or after_seq >= self.last_seq:
            return out
        segs = self._segs
        i = len(segs) - 1
        while i > 0 and segs[i] > after_seq:
            i -= 1
        while i < len(segs):
            f = self._open_file(self._name(segs[i]), "rb")
            try:
                f.seek(_HEADER_LEN)
                _walk(f, segs[i], after_seq, limit, out, self._win)
            finally:
                f.close()
            if limit is not None and len(out) >= limit:
                break
            i += 1
        return out

    def reset(self):
        """Start a new game: seq goes on from last_seq. Earlier games stay (for sync) while they
        take no more than KEEP_BYTES; the game just ended always stays.

        Atomic: after a power cut either the old game continues or the new one has begun.
        Does nothing while the current game has no record."""
        if self._f is None:
            self._recover()         # an earlier write failed: get a consistent state first
        if self.last_seq == self.base_seq:
            return
        self._f.close()
        self._f = None
        base = self.last_seq
        name = self._name(base)
        if self._sizes[-1] == _HEADER_LEN:
            # the last segment has no record yet (same base): replace it, atomically
            self._write_new(name + ".tmp", encode_header(base, True))
            self._rename(name + ".tmp", name)
        else:
            self._write_new(name, encode_header(base, True))
            self._segs.append(base)
            self._sizes.append(_HEADER_LEN)
        self._starts.append(len(self._segs) - 1)
        self._recover(True)     # the oldest games removed (journal_recover.trim)
        self.base_seq = base
        self.size_bytes = _HEADER_LEN
        self._f = self._open_file(name, "ab")

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None
