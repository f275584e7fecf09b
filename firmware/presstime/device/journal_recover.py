# SPDX-License-Identifier: MIT
"""The journal's recovery (device/journal.py, docs/journal.md): after whatever happened before
(a power cut in a write, a rewrite or a rename; a write that failed), bring the segment files
to a consistent state: unfinished rewrites dropped or finished, the chain of good segments
kept, a torn or corrupt tail cut off, what follows it removed.

Journal._recover imports this module for the call and drops it from RAM after: it runs at boot,
after a failed write, and when a new game starts (trim: the oldest games removed) only. The
journal module comes with the call (J: its header and record codecs): this file does not import
it back (tests/test_import_cycles.py).
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# as in journal.py (the on-flash format)
_HEADER_LEN = const(10)
_MAX_SEQ = const((1 << 28) - 1)
_CHUNK = const(256)
_MIN_RECORD = const(5)  # 0xA5, length, a 1-byte seq, no payload, the CRC


def _list(j):
    """(segment bases, sorted; bases that have a .tmp file; {base: size} of the segments whose
    size the listing gave: os.ilistdir's entries on MicroPython, (name, type, inode, size))."""
    entries = j._listdir(j._dir) if j._dir else j._listdir()
    segs = []
    tmps = []
    sizes = {}
    p = j._prefix
    n = len(p)
    for name in entries:
        size = None
        if type(name) is tuple:
            if len(name) > 3:
                size = name[3]
            name = name[0]
        if not name.startswith(p):
            continue
        rest = name[n:]
        tmp = rest.endswith(".tmp")
        if tmp:
            rest = rest[:-4]
        if not rest.isdigit() or str(int(rest)) != rest or int(rest) > _MAX_SEQ:
            continue        # not a segment (a stray file with a huge number is left alone)
        if tmp:
            tmps.append(int(rest))
        else:
            segs.append(int(rest))
            if size is not None:
                sizes[int(rest)] = size
    segs.sort()
    return segs, tmps, sizes


def _check(j, J, name):
    """(header or None, last seq, good bytes, file size) of segment `name`, its records walked
    (the header alone, without a walk: Journal._head)."""
    f = j._open_file(name, "rb")
    try:
        h = J.decode_header(f.read(_HEADER_LEN))
        seq = end = None
        if h is not None:
            seq, n = J._walk(f, h[0], 0, None, None, j._win)
            end = _HEADER_LEN + n
        size = f.seek(0, 2)
        return h, seq, size if end is None else end, size
    finally:
        f.close()


def recover(j, J):
    """Bring journal j's files to a consistent state after whatever happened before (see docs);
    J: the journal module."""
    if j._f is not None:
        try:
            j._f.close()
        except Exception:
            pass
        j._f = None
    segs, tmps, sizes = _list(j)
    for b in tmps:
        if b in segs:
            j._remove(j._name(b) + ".tmp")    # an unfinished rewrite: drop it
        else:
            # the rename over the segment was cut after the segment went (FAT)
            j._rename(j._name(b) + ".tmp", j._name(b))
            segs.append(b)
    segs.sort()
    n = len(segs)
    # This game's segments, from the last back to its first (the one with the game flag): their
    # headers. Earlier games' segments are not opened (each open is a lookup through the
    # journal's folder, ~7 ms on the RP2040): their sizes come from the listing where it gives
    # them, their game flags are read when a trim needs them (trim, below).
    tail = _check(j, J, j._name(segs[-1])) if n else None     # the last segment: walked
    heads = []
    g = n
    while g > 0:
        g -= 1
        heads.append(tail if g == n - 1 else j._head(j._name(segs[g])))
        if heads[-1][0] is not None and heads[-1][0][1]:
            break
    heads.reverse()         # heads[i - g]: (header, ..., size) of segment i >= g
    kept = []               # [base, game flag (None: not read), size] of the good chain
    seq = -1
    dropped = 0
    broken = False
    for i in range(n):
        b = segs[i]
        name = j._name(b)
        if not broken:
            if i + 1 < n:
                # An earlier segment: only the last one is ever written to, so it is whole.
                # Its place in the chain and its size are checked (and its header, in this
                # game), not its records (a record's CRC is still checked when it is read);
                # a segment that fails is walked.
                if i >= g:
                    h = heads[i - g][0]
                    size = heads[i - g][-1]
                else:
                    h = None
                    size = sizes.get(b)
                    if size is None:
                        size = j._head(name)[1]
                nb = segs[i + 1]
                if ((i < g or h is not None and h[0] == b) and (not kept or b == seq) and nb > b
                        and (nb - b) * _MIN_RECORD <= size - _HEADER_LEN):
                    kept.append([b, h[1] if h is not None else None, size])
                    seq = nb
                    continue
            h, last, end, size = tail if i == n - 1 else _check(j, J, name)
            if h is None or h[0] != b or (kept and b != seq):
                broken = True   # a segment that was never completed, or not in the chain
            else:
                kept.append([b, h[1], end])
                seq = last
                if end < size:
                    dropped += size - end
                    _rewrite_prefix(j, name, end)
                    broken = True   # a torn/corrupt record ends the journal
                continue
        dropped += j._head(name)[1]
        j._remove(name)
    j.dropped_bytes = dropped
    if not kept:
        base = segs[-1] if segs else 0      # never reuse a seq the names show was used
        j._write_new(j._name(base), J.encode_header(base, True))
        kept = [[base, True, _HEADER_LEN]]
        seq = base
    if g >= len(kept):
        g = 0               # this game's first segment is gone: every header is read
    starts = [0]
    for i in range(1, len(kept)):
        if kept[i][1] is None and i >= g:
            h = j._head(j._name(kept[i][0]))[0]
            kept[i][1] = h is not None and h[1]
        if kept[i][1]:
            starts.append(i)
    j._segs = [k[0] for k in kept]
    j._sizes = [k[2] for k in kept]
    j._starts = starts
    # the game flags of segments 1 to g - 1 are not read yet: trim reads them from _lazy on
    j._lazy = 1 if g > 1 else _MAX_SEQ
    kept = None
    trim(j, J)               # a cut reset() may have left games to remove
    game = j._starts[-1]
    j.base_seq = j._segs[game]
    j.last_seq = seq
    j.size_bytes = 0
    for i in range(game, len(j._sizes)):
        j.size_bytes += j._sizes[i]
    j._f = j._open_file(j._name(j._segs[-1]), "ab")


def trim(j, J):
    """Remove the oldest games while the earlier games pass KEEP_BYTES (the one before this
    game always stays): Journal.reset()'s, through Journal._recover(True). Oldest segment first,
    so a cut leaves a shorter, valid chain.

    The boot reads the headers of this game's segments only (recover, above): the
    game flags of segments j._lazy up to the next start known are read here, when a trim needs
    the end of an earlier game."""
    starts = j._starts
    sizes = j._sizes
    before = 0
    for i in range(starts[-1]):
        before += sizes[i]
    k = 0
    while before > j.KEEP_BYTES:
        end = starts[k + 1]
        while j._lazy < end:         # where does game k end? (end: the next start known)
            i = j._lazy
            j._lazy = i + 1 if i + 1 < end else _MAX_SEQ     # every unread flag read
            h = j._head(j._name(j._segs[i]))[0]
            if h is not None and h[1]:
                starts.insert(k + 1, i)
                break
        if k >= len(starts) - 2:
            break
        for i in range(starts[k], starts[k + 1]):
            before -= sizes[i]
        k += 1
    cut = starts[k]
    if cut == 0:
        return
    for b in j._segs[:cut]:
        j._remove(j._name(b))
    j._segs = j._segs[cut:]
    j._sizes = sizes[cut:]
    j._starts = [i - cut for i in starts[k:]]
    j._lazy -= cut


def _rewrite_prefix(j, name, end):
    """Keep only the first `end` bytes of segment `name`: copy them to a tmp, rename over."""
    tmp = name + ".tmp"
    src = j._open_file(name, "rb")
    try:
        dst = j._open_file(tmp, "wb")
        try:
            left = end
            while left > 0:
                chunk = src.read(_CHUNK if left > _CHUNK else left)
                if not chunk:
                    break
                dst.write(chunk)
                left -= len(chunk)
            j._durable(dst)
        finally:
            dst.close()
    finally:
        src.close()
    j._rename(tmp, name)
