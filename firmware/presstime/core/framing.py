# SPDX-License-Identifier: MIT
"""The board's half of the wire codec (docs/protocol.md): message types, error codes, the
streaming frame Decoder, parse() for requests, and Frame, the one buffer every reply is
written and framed in. core/wire.py re-exports all of it and adds what only the desktop
needs (encode, records_request, page and parse_page, NAMES): the board imports this module
alone and so keeps 3 KB of code it never runs out of its heap (docs/benchmarks.md, Firmware).

Pure: bytes in, bytes out, no I/O. Runs on MicroPython, CircuitPython and CPython.
"""

import json

from .crc import crc16

try:
    from binascii import crc32
except ImportError:  # a port without it: its frames are all version 1
    crc32 = None

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# The first byte of every body is its version, which also says the frame's CRC (docs/protocol.md):
# 1, CRC-16/CCITT-FALSE in 2 bytes (requests; an old board's replies); 2, CRC-32 (binascii.crc32,
# in C on every port) in 4 bytes: a board's replies and pushes, whose 1 KB status the CRC-16 took
# ~12 ms to check on the chip. (Numbers, not names, here: a name is a qstr on the board, and one
# more took the heap figure from 96 KB to 116; wire.py names them for the desktop.)
PROTOCOL = 2           # the newest version this end reads (the hello's "p"): CRC-32
MAX_BODY = const(2048)  # largest body (header + payload) either end sends or accepts

# Message types (requests). A reply carries the request's type with REPLY set.
HELLO = 0x01
STATUS = 0x02
CONFIGURE = 0x03
START = 0x04
PAUSE = 0x05
RESUME = 0x06
ABORT = 0x07
NEXT = 0x08
RECORDS = 0x09
STANDINGS = 0x0A
REPL = 0x0B
PRESS = 0x0C           # simulator only: a virtual button press (real boards: E_UNKNOWN)
END = 0x0D             # turn modes: the table ends the running round (as the control button)
ERROR = 0x7F           # only as a reply: {"e": code, "m": message}
REPLY = 0x80

# Requests that change the board's state: they carry the state version "v" they were based on,
# and their replies are kept in the device's reply cache (a retry is answered, not re-executed).
MUTATING = (CONFIGURE, START, PAUSE, RESUME, ABORT, NEXT, STANDINGS, REPL, PRESS, END)

# Error codes in an ERROR reply.
E_UNKNOWN = "unknown"      # unknown message type
E_VERSION = "version"      # the request speaks a newer protocol
E_BAD = "bad"              # malformed payload or arguments
E_STALE = "stale"          # based on a state version that is no longer current
E_REFUSED = "refused"      # not possible in the current state (e.g. start while running)
E_INTERNAL = "internal"    # the board failed while handling it (it keeps running)


class WireError(Exception):
    """Base of the documented wire errors."""


class MessageError(WireError):
    """A frame decoded with a good CRC but its body or payload is malformed."""


class VersionError(WireError):
    """A body written in a newer protocol version than this end speaks."""

    def __init__(self, version, mtype=0, rid=0):
        super().__init__("protocol version %d is newer than %d" % (version, PROTOCOL))
        self.version = version
        self.mtype = mtype
        self.rid = rid


# ---- COBS ------------------------------------------------------------------------------------

def cobs_decode(data):
    """Inverse of cobs_encode; None if `data` is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        for j in range(i + 1, end):
            b = data[j]
            if b == 0:
                return None
            out.append(b)
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


class Decoder:
    """Streaming frame decoder: feed it chunks as they arrive, get whole, CRC-checked bodies.

    Never raises on line content. Bad frames (CRC, COBS, too long) are dropped and counted
    in `dropped`; bytes of a frame torn by garbage are lost, the next frame decodes."""

    def __init__(self, max_body=MAX_BODY):
        self.max_raw = max_body + 4
        self._limit = self.max_raw + self.max_raw // 254 + 2
        self._buf = bytearray()
        self._skip = False      # an over-long frame is being skipped up to the next 00
        self.dropped = 0
        self.frames = 0

    def reset(self):
        self._buf = bytearray()
        self._skip = False

    def feed(self, data):
        """Bodies (bytes) of the complete good frames in `data` plus what came before."""
        bodies = []
        data = bytes(data)
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                self._take(data[start:])
                break
            self._take(data[start:end])
            self._close(bodies)
            start = end + 1
        return bodies

    def _take(self, part):
        if self._skip or not part:
            return
        if len(self._buf) + len(part) > self._limit:
            self._buf = bytearray()
            self._skip = True
            self.dropped += 1
            return
        self._buf.extend(part)

    def _close(self, bodies):
        if self._skip:
            self._skip = False
            return
        if not self._buf:
            return  # empty frame between two delimiters: the normal frame start
        raw = cobs_decode(self._buf)
        self._buf = bytearray()
        if raw is None or len(raw) < 3 or len(raw) > self.max_raw:
            self.dropped += 1
            return
        if raw[0] < 2:
            body = raw[:-2]
            good = crc16(body) == (raw[-2] << 8) | raw[-1]
        else:
            body = raw[:-4]
            good = crc32 is not None and len(body) >= 3 \
                and crc32(body) == int.from_bytes(raw[-4:], "big")
        if not good:
            self.dropped += 1
            return
        self.frames += 1
        bodies.append(body)


# ---- varints and messages ----------------------------------------------------------------------

def get_varint(data, i):
    """(value, next index); MessageError if truncated or longer than 4 bytes (28 bits)."""
    n = 0
    shift = 0
    while True:
        if i >= len(data) or shift > 21:
            raise MessageError("bad varint")
        b = data[i]
        i += 1
        n |= (b & 0x7F) << shift
        if not b & 0x80:
            return n, i
        shift += 7


def _dumps(value):
    try:
        return json.dumps(value, separators=(",", ":"))
    except TypeError:  # ports whose json has no separators argument
        return json.dumps(value)


def _move(buf, o, i, m, s):
    """buf[o:o+m] = buf[i:i+m] for o < i. Where the buffer has room for it past the frame's end
    (`s`, m <= 0xFE), the block goes there and back, two copies in C between views of the buffer:
    0.76 ms for a 1.1 KB status on the RP2040 where copies of 32 bytes took 5 ms, and nothing
    allocated but the views. Else in copies of 32 bytes at most: no big allocation on a
    fragmented heap, and never an overlapping copy (the slice on the right is a copy)."""
    if s + m <= len(buf):
        mv = memoryview(buf)
        mv[s:s + m] = mv[i:i + m]      # s >= the frame's end >= i + m: no overlap either way
        mv[o:o + m] = mv[s:s + m]
        return
    while m > 32:
        buf[o:o + 32] = buf[i:i + 32]
        o += 32
        i += 32
        m -= 32
    buf[o:o + m] = buf[i:i + m]


_HEAD = 12     # room in front of a Frame's body: the leading 00 and the COBS code bytes


class Frame:
    """One reusable buffer that a message is written into and framed in place, so the board
    sends any message (a 2 KB record page, a 1 KB status) without building it as big
    intermediate strings and copies: `f.message(mtype, rid, value, reply)` returns a
    memoryview of the whole frame, valid until the next message.

    The body is written at offset _HEAD; COBS then encodes it forward into the same buffer
    (the output never overtakes the input: at most one code byte per 254 body bytes plus
    two lead bytes, fewer than _HEAD for MAX_BODY).

    `version`: the bodies' version, 2 (CRC-32) for a board's replies where binascii.crc32 is
    (Frame.board()), else 1 (CRC-16)."""

    def __init__(self, max_body=MAX_BODY, version=1):
        self.buf = bytearray(_HEAD + max_body + 5)
        self.limit = _HEAD + max_body
        self.n = _HEAD
        self.version = version

    @classmethod
    def board(cls):
        """The board's reply buffer: version 2 frames (CRC-32) where the port has crc32."""
        return cls(MAX_BODY, 1 if crc32 is None else PROTOCOL)

    def put(self, data):
        if isinstance(data, str):
            data = data.encode()
        n = self.n
        m = len(data)
        if n + m > self.limit:
            raise MessageError("message too long (more than %d bytes)" % (self.limit - _HEAD))
        self.buf[n:n + m] = data
        self.n = n + m

    def varint(self, n):
        if n < 0:
            raise MessageError("negative varint")
        buf = self.buf
        i = self.n
        while True:
            if i >= self.limit:
                raise MessageError("message too long")
            if n < 0x80:
                buf[i] = n
                self.n = i + 1
                return
            buf[i] = (n & 0x7F) | 0x80
            n >>= 7
            i += 1

    def json(self, v):
        """Write `v` as compact JSON, piece by piece (no whole-message string)."""
        put = self.put
        if isinstance(v, dict):
            put(b"{")
            first = True
            for k in v:
                if not first:
                    put(b",")
                first = False
                put(_dumps(k if isinstance(k, str) else str(k)).encode())
                put(b":")
                self.json(v[k])
            put(b"}")
        elif isinstance(v, (list, tuple)):
            put(b"[")
            first = True
            for x in v:
                if not first:
                    put(b",")
                first = False
                self.json(x)
            put(b"]")
        elif v is None:
            put(b"null")
        elif v is True:
            put(b"true")
        elif v is False:
            put(b"false")
        elif isinstance(v, int):
            put(str(v).encode())
        else:
            put(_dumps(v).encode())

    def page(self, last_seq, records, room):
        """Write a RECORDS page (see page()) from `records` [(seq, bytes)]: records taken."""
        limit = self.limit
        self.limit = min(limit, self.n + room)
        try:
            self.varint(last_seq)
            taken = 0
            prev = None
            for seq, data in records:
                if prev is not None and seq != prev + 1:
                    break
                mark = self.n
                try:
                    if prev is None:
                        self.varint(seq)
                    self.varint(len(data))
                    self.put(data)
                except MessageError:
                    self.n = mark
                    break
                prev = seq
                taken += 1
            if prev is None:
                self.varint(0)
            return taken
        finally:
            self.limit = limit

    def begin(self, mtype, rid, reply=False):
        buf = self.buf
        buf[_HEAD] = self.version
        buf[_HEAD + 1] = (mtype | REPLY) if reply else mtype
        buf[_HEAD + 2] = rid & 0xFF
        self.n = _HEAD + 3

    def end(self, crc=None):
        """Frame the body written since begin(): a memoryview of 00 | COBS(body + crc) | 00.
        `crc`: a version 1 body's CRC-16 when the caller knows it already (see crc.zeros).

        COBS moves whole runs of non-zero bytes (found with find(), copied as slices) rather
        than byte by byte: a JSON body has zeros only in its header and CRC."""
        buf = self.buf
        n = self.n
        if self.version > 1:
            c = crc32(memoryview(buf)[_HEAD:n])
            buf[n] = (c >> 24) & 0xFF
            buf[n + 1] = (c >> 16) & 0xFF
            buf[n + 2] = (c >> 8) & 0xFF
            buf[n + 3] = c & 0xFF
            n += 4
        else:
            c = crc16(memoryview(buf)[_HEAD:n]) if crc is None else crc
            buf[n] = (c >> 8) & 0xFF
            buf[n + 1] = c & 0xFF
            n += 2
        buf[0] = 0
        code_at = 1
        o = 2
        i = _HEAD
        while True:
            z = buf.find(b"\x00", i, n)
            stop = n if z < 0 else z
            while stop - i >= 0xFE:             # a full block: 254 bytes, code 0xFF, no zero
                _move(buf, o, i, 0xFE, n)
                buf[code_at] = 0xFF
                i += 0xFE
                code_at = o + 0xFE
                o = code_at + 1
            m = stop - i
            if m:
                _move(buf, o, i, m, n)
            buf[code_at] = m + 1
            o += m
            if z < 0:
                break
            code_at = o
            o += 1
            i = z + 1
        buf[o] = 0
        return memoryview(buf)[:o + 1]

    def message(self, mtype, rid, value=None, reply=False):
        """The frame of one message (see encode()), as a memoryview into this buffer."""
        self.begin(mtype, rid, reply)
        if isinstance(value, (bytes, bytearray, memoryview)):
            self.put(value)
        elif value is not None:
            self.json(value)
        return self.end()


def parse(body):
    """(type, rid, is_reply, value) of a body from the Decoder.

    value: dict or None (JSON), {"after", "limit"} for a RECORDS request, the payload bytes of
    a RECORDS reply (wire.parse reads the page). Raises MessageError or VersionError only."""
    if len(body) < 3:
        raise MessageError("short message")
    version = body[0]
    mtype = body[1] & 0x7F
    reply = bool(body[1] & REPLY)
    rid = body[2]
    if version > PROTOCOL:
        raise VersionError(version, mtype, rid)
    if version == 0:
        raise MessageError("protocol version 0")
    payload = body[3:]
    if mtype == RECORDS:
        if reply:   # a page: the desktop's business (wire.parse reads it)
            return mtype, rid, reply, bytes(payload)
        after, i = get_varint(payload, 0)
        limit = 0
        if i < len(payload):
            limit, i = get_varint(payload, i)
        return mtype, rid, reply, {"after": after, "limit": limit}
    if not payload:
        return mtype, rid, reply, None
    try:
        value = json.loads(bytes(payload).decode())
    except Exception:  # ValueError / UnicodeError differ between ports
        raise MessageError("payload is not JSON")
    if not isinstance(value, dict):
        raise MessageError("payload is not a JSON object")
    return mtype, rid, reply, value


def error(rid, code, message, mtype=ERROR, frame=None):
    """An ERROR reply (type ERROR|REPLY) with a code from E_* and a human message: bytes, or a
    memoryview into `frame` when one is given (see Frame)."""
    f = frame if frame is not None else Frame(6 * len(message) + 64)
    out = f.message(ERROR, rid, {"e": code, "m": message, "t": mtype}, reply=True)
    return out if frame is not None else bytes(out)
