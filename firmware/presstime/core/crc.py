# SPDX-License-Identifier: MIT
"""CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), table-driven.

A small CRC of our own: `binascii.crc32` is missing on some CircuitPython builds.
Used by the journal records and the wire frames. The table is an array of 256 16-bit
values (512 bytes, built on first use), not a tuple of 256 ints.
"""

try:
    from array import array
except ImportError:  # pragma: no cover - a port without array
    array = None

_TABLE = None


def _table():
    """The table, made once. A CRC is linear: the entry of i is the XOR of the entries of its
    bits, so only the 8 single-bit entries are computed bit by bit (64 steps, not 2,048: the
    first reply after boot waited for it: the boot took 13 ms longer on the RP2040)."""
    global _TABLE
    if _TABLE is None:
        t = array("H", [0] * 256) if array is not None else [0] * 256
        for k in range(8):          # t[1], t[2], t[4] ... t[128]
            c = (1 << k) << 8
            for _ in range(8):
                c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
            t[1 << k] = c & 0xFFFF
        for i in range(3, 256):
            low = i & -i
            if low != i:
                t[i] = t[low] ^ t[i ^ low]
        _TABLE = t
    return _TABLE


def crc16(data, crc=0xFFFF):
    """CRC of `data` (bytes-like); pass a previous result as `crc` to continue."""
    t = _table()
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ b) & 0xFF]
    return crc
