# SPDX-License-Identifier: MIT
"""The wire codec shared by the board and the desktop (docs/protocol.md).

Pure: bytes in, bytes out, no I/O. Runs on MicroPython, CircuitPython and CPython.

A frame on the line is   00 | COBS(body + crc(body), big-endian) | 00
and a body is            version | type | request id | payload,
the version saying the CRC: 1, CRC-16 (2 bytes; requests), 2, CRC-32 (4 bytes; board replies).

COBS removes every 00 byte from the frame, so 00 only ever marks a frame boundary: after
garbage, a torn frame or line noise the decoder drops what it holds at the next 00 and the
following frame decodes normally. The payload is compact JSON for control messages and a
small binary page for journal records (several records per frame, no per-record CRC: the
frame's CRC covers them).

Errors: the streaming `Decoder` never raises on bad input, it counts and drops bad frames.
`parse()` raises only `MessageError` (malformed body or payload) or `VersionError` (a newer
protocol), both subclasses of `WireError`.

The board's half (types, errors, Decoder, Frame, request parsing) lives in core/framing.py and
is re-exported here; this module adds the desktop's half. The board imports framing alone.
"""

from .crc import crc16
from .framing import crc32, PROTOCOL
from .framing import *  # noqa: F401,F403 (the board's half: one copy)  # pyright: ignore
from .framing import MAX_BODY, REPLY, RECORDS, ERROR, MessageError, Frame, \
    _HEAD, _dumps, get_varint
from .framing import parse as _parse
from .framing import (HELLO, STATUS, CONFIGURE, START, PAUSE, RESUME, ABORT, NEXT, STANDINGS,
                      REPL, PRESS, END)


# A body's version says its frame's CRC (core/framing.py, which has them as numbers: no qstrs)
CRC16_BODY = 1  # CRC-16, 2 bytes: requests (every board reads them); an old board's replies
CRC32_BODY = PROTOCOL  # CRC-32, 4 bytes: a board's replies and pushes

NAMES = {
    HELLO: "hello", STATUS: "status", CONFIGURE: "configure", START: "start",
    PAUSE: "pause", RESUME: "resume", ABORT: "abort", NEXT: "next", RECORDS: "records",
    STANDINGS: "standings", REPL: "repl", PRESS: "press", END: "end", ERROR: "error",
}


# ---- COBS ---------------------------------------------------------------------------------

def cobs_encode(data):
    out = bytearray()
    out.append(0)  # placeholder for the first code byte
    code_at = 0
    code = 1
    for b in data:
        if b == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(b)
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = len(out)
                out.append(0)
                code = 1
    out[code_at] = code
    return bytes(out)


def frame(body):
    """The bytes to put on the line for one body (its first byte, the version, says the CRC)."""
    if body and body[0] >= CRC32_BODY:
        crc = crc32(body).to_bytes(4, "big")
    else:
        c = crc16(body)
        crc = bytes(((c >> 8) & 0xFF, c & 0xFF))
    return b"\x00" + cobs_encode(bytes(body) + crc) + b"\x00"


# ---- varints and record pages ---------------------------------------------------------------

def put_varint(out, n):
    if n < 0:
        raise MessageError("negative varint")
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def records_request(after, limit=0):
    """Payload of a RECORDS request: records after seq `after`, at most `limit` (0: fill a page)."""
    out = bytearray()
    put_varint(out, after)
    put_varint(out, limit)
    return bytes(out)


def page(last_seq, records, room=MAX_BODY - 3):
    """Payload of a RECORDS reply: (payload bytes, records taken).

    Layout: varint board last seq | varint first seq | (varint length, payload)*.
    Takes consecutive records from `records` [(seq, bytes)] while they fit in `room`."""
    f = Frame(room)
    taken = f.page(last_seq, records, room)
    return bytes(f.buf[_HEAD:f.n]), taken


def parse_page(payload):
    """{"last": board last seq, "records": [(seq, bytes)]} from a RECORDS reply payload."""
    last, i = get_varint(payload, 0)
    seq, i = get_varint(payload, i)
    records = []
    n = len(payload)
    while i < n:
        length, i = get_varint(payload, i)
        if i + length > n or seq == 0:
            raise MessageError("truncated record page")
        records.append((seq, bytes(payload[i:i + length])))
        i += length
        seq += 1
    if records and records[-1][0] > last:
        raise MessageError("page beyond the board's last seq")
    return {"last": last, "records": records}


# ---- messages ----------------------------------------------------------------------------------

def encode(mtype, rid, value=None, reply=False, version=CRC16_BODY):
    """The bytes on the line for one message. `value`: a dict (JSON) or None, or bytes for
    the binary payloads (RECORDS request and reply). Version 1 (CRC-16) by default: the
    desktop's requests, which every board reads. (The board writes its replies with a Frame
    instead: no whole-message copies.)"""
    if isinstance(value, (bytes, bytearray)):
        payload = bytes(value)
    elif value is None:
        payload = b""
    else:
        payload = _dumps(value).encode()
    body = bytes((version, (mtype | REPLY) if reply else mtype, rid & 0xFF)) + payload
    if len(body) > MAX_BODY:
        raise MessageError("message too long (%d bytes, limit %d)" % (len(body), MAX_BODY))
    return frame(body)


def parse(body):
    """(type, rid, is_reply, value) of a body from the Decoder.

    value: dict or None (JSON), {"after", "limit"} for a RECORDS request, the page dict for a
    RECORDS reply. Raises MessageError or VersionError only."""
    mtype, rid, reply, value = _parse(body)
    if mtype == RECORDS and reply:
        value = parse_page(value)
    return mtype, rid, reply, value
