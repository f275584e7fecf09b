# SPDX-License-Identifier: MIT
"""CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), table-driven.

A small CRC of our own: `binascii.crc32` is missing on some CircuitPython builds.
Used by the journal records and the wire frames. The table is kept as two 256-byte
bytearrays, the high and the low byte of each entry (512 bytes, built on first use): the loop
then works on the CRC's two bytes apart, with no shift or mask per byte. On the official
firmware in the emulated RP2040 that is 9 us a byte instead of 11.4 (docs/real-firmware.md).
"""

_HI = None
_LO = None


def _tables():
    global _HI, _LO
    if _HI is None:
        hi = bytearray(256)
        lo = bytearray(256)
        for i in range(256):
            c = i << 8
            for _ in range(8):
                c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
            hi[i] = (c >> 8) & 0xFF
            lo[i] = c & 0xFF
        _HI = hi
        _LO = lo
    return _HI, _LO


def crc16(data, crc=0xFFFF):
    """CRC of `data` (bytes-like); pass a previous result as `crc` to continue."""
    th, tl = _tables()
    hi = (crc >> 8) & 0xFF
    lo = crc & 0xFF
    for b in data:
        i = hi ^ b
        hi = lo ^ th[i]
        lo = tl[i]
    return (hi << 8) | lo


_POW = None     # _POW[16*k + j]: the CRC state e_j (bit j) after 2**k zero bytes, k = 0..11


def _powers():
    global _POW
    if _POW is None:
        from array import array
        th, tl = _tables()
        p = array("H", [0] * (16 * 12))
        for j in range(16):             # one zero byte
            c = 1 << j
            i = c >> 8
            p[j] = (((c & 0xFF) ^ th[i]) << 8) | tl[i]
        for k in range(1, 12):          # squaring: 2**k zero bytes is 2**(k-1) twice
            b = 16 * (k - 1)
            for j in range(16):
                p[16 * k + j] = _apply(p, b, _apply(p, b, 1 << j))
        _POW = p
    return _POW


def _apply(p, base, s):
    r = 0
    while s:
        if s & 1:
            r ^= p[base]
        s >>= 1
        base += 1
    return r


def zeros(crc, n):
    """The CRC state `crc` carried over `n` zero bytes (n < 4096). The CRC is linear, so for any
    bytes S and any state s: crc16(S, s) == zeros(s, len(S)) ^ crc16(S, 0). A part of a message
    that does not change is then checked once (crc16(S, 0)) and its CRC combined with any state
    in front of it in a few hundred operations, not one table step per byte (link.py, status)."""
    p = _powers()
    k = 0
    while n:
        if n & 1:
            crc = _apply(p, 16 * k, crc)
        n >>= 1
        k += 1
    return crc
