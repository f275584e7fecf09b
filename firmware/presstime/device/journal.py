# SPDX-License-Identifier: MIT
"""Append-only journal on the board's flash: every record has a sequence number and a CRC.

File (format in docs/journal.md):
    header  b"PTJ\\x01" | base seq (4 bytes, big-endian) | crc16 of those 8 bytes (2 bytes, big-endian)
    record  0xA5 | payload length (1 byte) | seq (LEB128 varint) | payload | crc16 (2 bytes, big-endian)
The record CRC covers everything from the 0xA5 byte to the end of the payload. The first record
of a file has seq base+1, each next one +1.

On open the file is scanned; the first record that is torn, corrupt or out of sequence ends the
journal, and the bytes from there on are dropped by copying the good prefix to `<path>.tmp` and
renaming it over `<path>` (MicroPython files have no truncate()). `reset()` starts a new game file
whose seq continues from the last one; the previous game stays readable as `<path>.old`.

Runs on MicroPython (unix, rp2), CircuitPython and CPython; the file functions are passed in so a
fake file system (tests) or littlefs-python drops in.
"""

import os

from ..core.crc import crc16

_MAGIC = 0xA5
_HEADER_TAG = b"PTJ\x01"
_HEADER_LEN = 10
_MAX_PAYLOAD = 255
_MAX_RECORD = 1 + 1 + 4 + _MAX_PAYLOAD + 2
_MAX_SEQ = (1 << 28) - 1      # four varint bytes; stays a small int on every port
_CHUNK = 256

_fsync = getattr(os, "fsync", None)   # CPython
_sync = getattr(os, "sync", None)     # MicroPython rp2 and others (not the unix port)


def _replace(src, dst):
    """Rename `src` over `dst` (CPython: os.replace; MicroPython's rename replaces on littlefs/FAT)."""
    f = getattr(os, "replace", None)
    if f is None:
        f = os.rename
    f(src, dst)


def encode_header(base):
    h = bytearray(_HEADER_TAG)
    h.append((base >> 24) & 0xFF)
    h.append((base >> 16) & 0xFF)
    h.append((base >> 8) & 0xFF)
    h.append(base & 0xFF)
    c = crc16(h)
    h.append(c >> 8)
    h.append(c & 0xFF)
    return bytes(h)


def decode_header(buf):
    """The base seq of a header at the start of `buf`, or -1 if there is no valid header."""
    if len(buf) < _HEADER_LEN or bytes(buf[0:4]) != _HEADER_TAG:
        return -1
    if crc16(buf[0:8]) != (buf[8] << 8) | buf[9]:
        return -1
    return (buf[4] << 24) | (buf[5] << 16) | (buf[6] << 8) | buf[7]


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


class Journal:
    """Append-only journal of small binary records, safe against a power cut at any point.

    Journal(path, opener=open, remove=os.remove, rename=<replace>)
      .append(payload) -> seq      write one record, flushed (and synced where the port can)
      .append_many(payloads) -> seq  several records in one write and one flush
      .records(after_seq=0, limit=None) -> [(seq, payload bytes), ...]   oldest first, for sync
      .last_seq                    seq of the newest record (base_seq if this game has none)
      .base_seq                    seq just before this game's first record (0 for a fresh journal)
      .size_bytes                  bytes of the current game's file (header included)
      .reset()                     start a new game file; seq continues, the old game is kept
      .close()
    """

    FSYNC = True            # CPython: os.fsync after each append (tests may switch it off)

    def __init__(self, path, opener=open, remove=None, rename=None):
        self.path = path
        self.tmp_path = path + ".tmp"
        self.old_path = path + ".old"
        self._open_file = opener
        self._remove = remove if remove is not None else os.remove
        self._rename = rename if rename is not None else _replace
        self._f = None
        self.base_seq = 0
        self.last_seq = 0
        self.size_bytes = 0
        self.dropped_bytes = 0      # torn/corrupt tail bytes dropped by the last recovery
        self._mark_seq = 0          # records() resumes scanning from here...
        self._mark_pos = _HEADER_LEN  # ...at this file offset
        self._recover()

    # -- file helpers ------------------------------------------------------------------

    def _exists(self, name):
        try:
            f = self._open_file(name, "rb")
        except OSError:
            return False
        f.close()
        return True

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

    def _write_file(self, name, data):
        f = self._open_file(name, "wb")
        try:
            f.write(data)
            self._durable(f)
        finally:
            f.close()

    def _read_base(self, name):
        """Base seq from the header of `name`, or -1 (missing file or bad header)."""
        try:
            f = self._open_file(name, "rb")
        except OSError:
            return -1
        try:
            return decode_header(f.read(_HEADER_LEN))
        finally:
            f.close()

    def _scan(self, name, pos, seq, after, limit, out):
        """Walk the valid records of `name` from offset `pos`, the next one being seq+1.

        Appends (seq, payload) with seq > after to `out` (if not None) until `limit` are there.
        Returns (seq, pos): the last record walked and the offset just after it."""
        f = self._open_file(name, "rb")
        try:
            f.seek(pos)
            buf = b""
            at = 0
            eof = False
            while True:
                if not eof and len(buf) - at < _MAX_RECORD:
                    chunk = f.read(_CHUNK)
                    if not chunk:
                        eof = True
                    buf = buf[at:] + chunk
                    at = 0
                    continue
                r = decode_record(buf, at, seq + 1)
                if r is None:
                    break
                seq += 1
                pos += r[2] - at
                if out is not None and seq > after:
                    out.append((seq, bytes(buf[r[0]:r[1]])))
                at = r[2]
                if out is not None and limit is not None and len(out) >= limit:
                    break
            return seq, pos
        finally:
            f.close()

    def _file_size(self, name):
        f = self._open_file(name, "rb")
        try:
            return f.seek(0, 2)
        finally:
            f.close()

    # -- recovery ----------------------------------------------------------------------

    def _recover(self):
        """Bring the files to a consistent state after whatever happened before (see docs)."""
        if self._f is not None:
            try:
                self._f.close()
            except OSError:
                pass
            self._f = None
        if self._exists(self.tmp_path):
            if self._exists(self.path):
                self._remove(self.tmp_path)     # an unfinished rewrite or reset: drop it
            else:
                self._rename(self.tmp_path, self.path)  # a reset cut between its two renames
        base = self._read_base(self.path)
        if base < 0:
            # No journal, or a header that was never completed (so no record was ever in it).
            old_base = self._read_base(self.old_path)
            base = 0
            if old_base >= 0:
                base = self._scan(self.old_path, _HEADER_LEN, old_base, 0, None, None)[0]
            self._write_file(self.tmp_path, encode_header(base))
            self._rename(self.tmp_path, self.path)
        last, end = self._scan(self.path, _HEADER_LEN, base, 0, None, None)
        size = self._file_size(self.path)
        self.dropped_bytes = size - end
        if size > end:
            self._rewrite_prefix(end)
        self.base_seq = base
        self.last_seq = last
        self.size_bytes = end
        self._mark_seq = base
        self._mark_pos = _HEADER_LEN
        self._f = self._open_file(self.path, "ab")

    def _rewrite_prefix(self, end):
        """Keep only the first `end` bytes of the journal: copy them to tmp, rename over."""
        src = self._open_file(self.path, "rb")
        try:
            dst = self._open_file(self.tmp_path, "wb")
            try:
                left = end
                while left > 0:
                    chunk = src.read(_CHUNK if left > _CHUNK else left)
                    if not chunk:
                        break
                    dst.write(chunk)
                    left -= len(chunk)
                self._durable(dst)
            finally:
                dst.close()
        finally:
            src.close()
        self._rename(self.tmp_path, self.path)

    # -- the API -----------------------------------------------------------------------

    def append(self, payload):
        """Append one record (payload: up to 255 bytes); returns its seq once it is on flash."""
        return self.append_many((payload,))

    def append_many(self, payloads):
        """Append several records with one write and one flush (one littlefs commit, so far
        fewer flash erases than one append each); returns the last seq. A cut keeps a prefix."""
        if self._f is None:
            self._recover()         # an earlier append failed: drop its torn tail first
        seq = self.last_seq
        data = bytearray()
        for p in payloads:
            seq += 1
            data.extend(encode_record(seq, p))
        if not data:
            return seq
        try:
            n = self._f.write(data)
            if n is not None and n != len(data):
                raise OSError(28)   # ENOSPC: a short write
            self._durable(self._f)
        except Exception:
            try:
                self._f.close()
            except Exception:
                pass
            self._f = None
            raise
        self.last_seq = seq
        self.size_bytes += len(data)
        return seq

    def records(self, after_seq=0, limit=None):
        """Records with seq > after_seq, oldest first, at most `limit`: a list of (seq, bytes).

        Reaches into the previous game's file (`<path>.old`) when after_seq < base_seq."""
        out = []
        if limit is not None and limit <= 0:
            return out
        if after_seq < self.base_seq:
            old_base = self._read_base(self.old_path)
            if old_base >= 0 and old_base < self.base_seq:
                self._scan(self.old_path, _HEADER_LEN, old_base, after_seq, limit, out)
                while out and out[-1][0] > self.base_seq:
                    out.pop()       # never show records the current file also claims
            if limit is not None and len(out) >= limit:
                return out
        if after_seq >= self.last_seq:
            return out
        if self._mark_seq <= after_seq:
            seq, pos = self._mark_seq, self._mark_pos
        else:
            seq, pos = self.base_seq, _HEADER_LEN
        n0 = len(out)
        seq, pos = self._scan(self.path, pos, seq, after_seq,
                              None if limit is None else limit, out)
        if len(out) > n0:
            self._mark_seq, self._mark_pos = seq, pos
        return out

    def reset(self):
        """Start a new game file. Seq goes on from last_seq; the current file becomes `.old`.

        Atomic: after a power cut either the old game continues or the new one has begun.
        Does nothing while the current game has no record (so the previous game, maybe not yet
        synced, is not pushed out by an empty one)."""
        if self.last_seq == self.base_seq:
            return
        if self._f is not None:
            self._f.close()
            self._f = None
        base = self.last_seq
        self._write_file(self.tmp_path, encode_header(base))
        self._rename(self.path, self.old_path)
        self._rename(self.tmp_path, self.path)
        self.base_seq = base
        self.size_bytes = _HEADER_LEN
        self._mark_seq = base
        self._mark_pos = _HEADER_LEN
        self._f = self._open_file(self.path, "ab")

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None
