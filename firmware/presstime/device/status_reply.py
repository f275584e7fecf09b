# SPDX-License-Identifier: MIT
"""The status reply, built cheaply on the chip (link.py loads this on the first status asked).

The reply has the same fields as app.status(), in an order that makes it cheap: the fields that
change only with the state version (and the standings the desktop sends) first, the players
each as one piece, then the few that move with time (_MOVING). The first part's CRC (from state
0) is kept per version and combined with the header's by zeros(), so only the moving tail is
CRC'd byte by byte. On the RP2040 (official firmware, emulated) a status reply went from ~129 ms
to ~10 ms of work (docs/real-firmware.md, bench/bench_rp2_link.py).
"""

from array import array

from ..core import framing as wire
from ..core.crc import crc16, _table

# The status fields that change with time alone; every other field changes only with the state
# version (or the standings). They go last in a status reply.
_MOVING = ("t_ms", "remaining_ms", "elapsed_ms", "countdown", "alert_ms", "undo", "turn_ms",
           "reveal_ms")


def status_frame(link, rid):
    """The status reply's frame: the same fields as app.status(), in an order that makes it
    cheap on the chip. The fields that change only with the state version come first, the
    players each as one piece, then the few that move with time (_MOVING). The first part's
    CRC (from state 0) is kept per version and combined with the header's by zeros(), so
    only the moving tail is CRC'd byte by byte: ~9 ms of work on the RP2040 instead of ~23,
    and no string bigger than one player's entry or the scalars (docs/real-firmware.md)."""
    # The lights' status dict (App._st, rewritten in place all game) is the status when it is
    # this state version's and app.status() would add nothing (no journal fault): refreshed to
    # now, it is lent to the reply and given back as it was, so a reply builds no dict of
    # dicts (1.8 KB on x86-64, table.status ~1.4 ms on the RP2040).
    app = link.app
    st = getattr(app, "_st", None)
    t = getattr(app, "table", None)
    if st is None or t is None or getattr(app, "_fault", None) is not None \
            or st.get("version") != t.version:
        lent = None
        st = app.status()
    else:
        lent = t.refresh(st, app.port.now_ms())
    moving = {}
    for k in _MOVING:
        if k in st:
            moving[k] = st.pop(k)
    players = st.pop("players", ())
    try:
        f = link.frame
        f.begin(wire.STATUS, rid, True)
        start = f.n
        put = f.put
        key = (st.get("version"), id(getattr(t, "standings", None)))
        known = link.fixed
        if known is not None and known[0] == key:
            put(known[2])                   # the fixed part as encoded for this version
        else:
            link.fixed = known = None       # the old copy goes before the new one is made
            _json(f, st)
            f.n -= 1                        # reopen: the players and the moving fields follow
            put(b',"players":[' if f.n - start > 1 else b'"players":[')
            first = True
            for p in players:
                if not first:
                    put(b",")
                first = False
                _json(f, p)
            put(b"]")
            part = memoryview(f.buf)[start:f.n]
            try:
                copy = bytes(part)          # ~1 KB kept until the version changes
            except MemoryError:
                copy = None
            if copy is not None:
                known = link.fixed = (key, crc16(part, 0), copy)
            else:
                known = (key, crc16(part, 0), None)
        fixed = f.n - start
        buf = f.buf
        for k in moving:
            put(b',"')
            put(k)
            put(b'":')
            put(wire._dumps(moving[k]))
        put(b"}")
        c = zeros(crc16(memoryview(buf)[wire._HEAD:start]), fixed) ^ known[1]
        return f.end(crc16(memoryview(buf)[start + fixed:f.n], c))
    finally:
        if lent is not None:            # given back as it was
            for k in moving:
                lent[k] = moving[k]
            lent["players"] = players


def _json(f, v):
    """v as compact JSON by the port's (C) json.dumps: 0.56 ms for a player's entry on the
    RP2040, where Frame.json's token by token Python takes ~10. Frame.json (no piece bigger than
    a key or a number) when the heap has no room for the string."""
    mark = f.n
    try:
        f.put(wire._dumps(v))
    except MemoryError:
        f.n = mark
        f.json(v)


# _POW[16*k + j]: the CRC state e_j (bit j) after 2**k zero bytes, k = 0..11. Its 384 bytes are
# taken at import (the board's start, while the heap is young and has them in one piece: taken
# at the first status, late in a game, they were the allocation a fragmented heap refused) and
# filled at the first status; _POW[0] (bit 0 after one zero byte) is 0x100 once filled.
_POW = array("H", range(16 * 12))


def _powers():
    p = _POW
    if p[0] != 0x100:
        t = _table()
        for j in range(16):             # one zero byte
            c = 1 << j
            p[j] = ((c << 8) & 0xFFFF) ^ t[c >> 8]
        for k in range(1, 12):          # squaring: 2**k zero bytes is 2**(k-1) twice
            b = 16 * (k - 1)
            for j in range(16):
                p[16 * k + j] = _apply(p, b, _apply(p, b, 1 << j))
    return p


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
    in front of it in a few hundred operations, not one table step per byte (status_frame above)."""
    p = _powers()
    k = 0
    while n:
        if n & 1:
            crc = _apply(p, 16 * k, crc)
        n >>= 1
        k += 1
    return crc
