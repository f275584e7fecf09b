# SPDX-License-Identifier: MIT
"""Journal events: the tuples the round machine emits, their compact binary form, and replay.

Every state change of the round machine (core/table.py) is one event tuple whose first item is
the kind (a small int below). The machine changes state ONLY by applying events, live or from
the journal, so `replay(events)` rebuilds exactly the state the board had: finishing orders,
times, ties, undo, pauses. Times inside events are either round time (`elapsed`, ms or µs since
the round's "go", pauses excluded) or board wall time (ms since boot, only in START/GO/RESUME,
meaningful within one boot).

    kind        tuple                                        bytes (kind byte + ...)
    CONFIG      (CONFIG, cfg_dict)                           see _enc_config
    READY       (READY, player, on)                          BB
    START       (START, t_ms)                                I   3-2-1 countdown starts
    GO          (GO, t_ms)                                   I   round time 0 (t = start + 3000)
    PRESS       (PRESS, player, token, flags, elapsed_us)    BBBI  token 0 = no token (layout,
                                                                   family, puzzle); flags F_*
    TIMEOUT     (TIMEOUT,)                                   -   round time reached duration
    FORCE       (FORCE,)                                     -   players not done get the rest
                                                                 of the tokens (fallback order)
    END         (END, reason, elapsed_ms)                    BI  round summary; reason END_*
    PAUSE       (PAUSE, elapsed_ms)                          I
    RESUME      (RESUME, t_ms)                               I
    UNDO        (UNDO,)                                      -   revert the last press/turn/photo
    ABORT       (ABORT,)                                     -   the round restarts (ready check)
    NEXT        (NEXT,)                                      -   next round, or game over
    CUT         (CUT, elapsed_ms)                            I   boot after a power cut: the
                                                                 running round is now paused
    REVEAL      (REVEAL,)                                    -   ready-reveal: all ready
    TURN        (TURN, player, turn_ms, elapsed_ms)          BII player ends their turn
    PHOTO       (PHOTO, player, elapsed_ms)                  BI  one photo token (turns mode); the
                                                                 round time ends the game at the target
    SCORE      (SCORE, round, seat, value, key)            BBi + key (utf-8, 1-24 bytes) a
                                                                 scorepad number confirmed on the
                                                                 board (round 255: the game's end
                                                                 numbers; seat 255: no one player's)

SCORE is named in core/entry.py (the board keeps no name for it: table.py's _SCORE).

`encode(ev) -> bytes`, `decode(data) -> tuple` (ValueError on bad data), `name(kind)`,
`replay(events, table=None) -> Table` (events: tuples or encoded bytes).
"""

import struct

from . import games
from . import table as _machine   # the kinds are the round machine's: table.py defines them

# kind -> struct format of the fields after the kind byte (None: no such kind; CONFIG is
# special). A tuple indexed by the kind (core/table.py numbers them), not a dict: less heap.
_FMT = (None, None,                     # -, CONFIG
        "<BB", "<I", "<I", "<BBBI",     # READY, START, GO, PRESS
        "", "", "<BI",                  # TIMEOUT, FORCE, END
        "<I", "<I", "", "", "",         # PAUSE, RESUME, UNDO, ABORT, NEXT
        "<I", "", "<BII", "<BI",        # CUT, REVEAL, TURN, PHOTO
        "<BBi")                         # SCORE (then its key: the rest of the record)


def __getattr__(attr):
    """The kinds, PRESS flags, END reasons and set-up words are the round machine's
    (core/table.py, which emits these events): read through this module as ever (E.PRESS,
    E.F_TIE, E.END_ALL, E.MODES, E.name ...) without a second copy of each name here."""
    return getattr(_machine, attr)


def encode(ev):
    """Event tuple -> bytes (1 kind byte + fixed fields; CONFIG carries names and colours)."""
    kind = ev[0]
    if kind == _machine.CONFIG:
        return _enc_config(ev[1])
    fmt = _FMT[kind]
    if not fmt:
        return bytes((kind,))
    if kind == 18:      # SCORE (core/entry.py; table.py's _SCORE): its key follows
        return bytes((kind,)) + struct.pack(fmt, ev[1], ev[2], ev[3]) + ev[4].encode()
    vals = list(ev[1:])
    for i in range(len(vals)):
        v = vals[i]
        if fmt[i + 1] == "I" and (v < 0 or v > 0xFFFFFFFF):
            vals[i] = 0 if v < 0 else 0xFFFFFFFF    # a u32 field holds what it can
    return bytes((kind,)) + struct.pack(fmt, *vals)


def decode(data):
    """bytes -> event tuple. Raises ValueError naming the problem on bad data."""
    if not data:
        raise ValueError("event: empty record")
    kind = data[0]
    if kind == _machine.CONFIG:
        return (_machine.CONFIG, _dec_config(data))
    fmt = _FMT[kind] if kind < len(_FMT) else None
    if fmt is None:
        raise ValueError("event: unknown kind %d" % kind)
    if not fmt:
        if len(data) != 1:
            raise ValueError("event %s: %d bytes, expected 1" % (_machine.name(kind), len(data)))
        return (kind,)
    size = struct.calcsize(fmt)
    if kind == 18 and size + 1 < len(data) < size + 26:    # SCORE: its key, 1-24 bytes, follows
        return (kind,) + tuple(struct.unpack(fmt, data[1:size + 1])) + \
            (bytes(data[size + 1:]).decode(),)
    if len(data) != size + 1 or kind == 18:
        raise ValueError("event %s: %d bytes, expected %d" % (_machine.name(kind), len(data),
                                                              size + 1 + (kind == 18)))
    return (kind,) + tuple(struct.unpack(fmt, data[1:]))


# CONFIG: B kind, B mode, B n, I duration_ms, H grace_ms, H tie_us, B flags (1 two_step,
# 2 fallback rotate, bits 2-4 the first seat of turn-based mode: 0 in journals before it),
# B edition, B game, B rounds, B steps, I turn_ms, B target,
# then per player: B len + utf-8 name, BBB colour; then, only when the warnings are not
# table.WARNINGS: B count + H seconds left per warning.
_CFG = "<BBIHHBBBBBIB"


def _enc_config(c):
    flags = (1 if c["two_step"] else 0) | (2 if c["grace_fallback"] == "rotate" else 0) | \
        c.get("first", 0) << 2
    out = bytes((_machine.CONFIG,)) + struct.pack(
        _CFG, _machine.MODES.index(c["mode"]), len(c["names"]), c["duration_ms"], c["grace_ms"],
        c["tie_us"], flags, _machine.EDITIONS.index(c["edition"]), games.GAMES.index(c["game"]),
        c["rounds"], c["steps"], c["turn_ms"], c["target"])
    for i in range(len(c["names"])):
        nm = c["names"][i].encode()[:24]
        col = c["colours"][i]
        out += bytes((len(nm),)) + nm + bytes((col[0], col[1], col[2]))
    w = c.get("warn", _machine.WARNINGS)
    if tuple(w) != _machine.WARNINGS:
        out += bytes((len(w),))
        for ms in w:
            out += struct.pack("<H", ms // 1000)
    return out


def _dec_config(data):
    size = struct.calcsize(_CFG)
    if len(data) < 1 + size:
        raise ValueError("event config: %d bytes, too short" % len(data))
    (mode, n, dur, grace, tie, flags, ed, game, rounds, steps, turn_ms,
     target) = struct.unpack(_CFG, data[1:1 + size])
    first = flags >> 2
    if mode >= len(_machine.MODES) or ed >= len(_machine.EDITIONS) or game >= len(games.GAMES) \
            or first and first >= n:
        raise ValueError("event config: unknown mode, edition, game or first seat")
    pos = 1 + size
    names = []
    colours = []
    for _ in range(n):
        if pos >= len(data):
            raise ValueError("event config: truncated player list")
        ln = data[pos]
        if pos + 1 + ln + 3 > len(data):
            raise ValueError("event config: truncated player list")
        names.append(bytes(data[pos + 1:pos + 1 + ln]).decode())
        pos += 1 + ln
        colours.append((data[pos], data[pos + 1], data[pos + 2]))
        pos += 3
    warn = None
    if pos < len(data) and pos + 1 + 2 * data[pos] == len(data):
        warn = tuple(ms * 1000 for ms in struct.unpack("<%dH" % data[pos], data[pos + 1:]))
        pos = len(data)
    if pos != len(data):
        raise ValueError("event config: %d trailing bytes" % (len(data) - pos))
    c = {"mode": _machine.MODES[mode], "names": names, "colours": colours, "duration_ms": dur,
         "grace_ms": grace, "tie_us": tie, "two_step": bool(flags & 1),
         "grace_fallback": _machine.FALLBACKS[1 if flags & 2 else 0], "edition": _machine.EDITIONS[ed],
         "game": games.GAMES[game], "rounds": rounds, "steps": steps, "turn_ms": turn_ms,
         "target": target}
    if warn is not None:
        c["warn"] = warn
    if first:
        c["first"] = first
    return c


def replay(events, table=None):
    """Rebuild a round machine from journal events (tuples or encoded bytes), oldest first.

    Returns the Table (a new one unless `table` is given). Events are applied, not re-decided,
    so the result is exactly the recorded game whatever the clock did."""
    if table is None:
        table = _machine.Table()
    for ev in events:
        if not isinstance(ev, tuple):
            ev = decode(ev)
        table.apply(ev)
    return table
