"""The status reply, built cheaply on the chip (link.py loads this on the first status asked).

The reply has the same fields as app.status(), in an order that makes it cheap: the fields that
change only with the state version (and the standings the desktop sends) first, the players
each as one piece, then the few that move with time (_MOVING). The first part is encoded once
per version and kept as bytes; a reply copies it and encodes only the moving tail. The frame is
a version 2 one (core/framing.py): its CRC-32 is binascii's, in C, so the 1 KB body costs no
Python loop (the CRC-16 of version 1 took ~12 ms of the ~33 a status cost after each press on
the RP2040 with the timing model, docs/benchmarks.md).
"""

from ..core import framing as wire

# The status fields that change with time alone; every other field changes only with the state
# version (or the standings). They go last in a status reply, each after its key as it goes on
# the wire (_KEYS: encoded once, not per reply).
_MOVING = ("t_ms", "remaining_ms", "elapsed_ms", "countdown", "alert_ms", "undo", "turn_ms",
           "reveal_ms")
_KEYS = tuple((',"' + k + '":').encode() for k in _MOVING)


def status_frame(link, rid):
    """The status reply's frame: the same fields as app.status(), in an order that makes it
    cheap on the chip. The fields that change only with the state version come first, the
    players each as one piece, then the few that move with time (_MOVING). The first part is
    kept encoded per version, so a reply between two changes encodes only the moving tail,
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
    moving = []
    for k in _MOVING:
        moving.append(st.pop(k, _KEYS))     # _KEYS: a field this status does not have
    players = st.pop("players", ())
    try:
        f = link.frame
        f.begin(wire.STATUS, rid, True)
        start = f.n
        put = f.put
        key = (st.get("version"), id(getattr(t, "standings", None)))
        known = link.fixed
        if known is not None and known[0] == key:
            put(known[1])                   # the fixed part as encoded for this version
        else:
            link.fixed = None               # the old copy goes before the new one is made
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
            try:
                link.fixed = (key, bytes(memoryview(f.buf)[start:f.n]))  # ~1 KB, this version
            except MemoryError:
                pass
        for i in range(len(_MOVING)):
            v = moving[i]
            if v is not _KEYS:
                put(_KEYS[i])
                put(wire._dumps(v))
        put(b"}")
        return f.end()
    finally:
        if lent is not None:            # given back as it was
            for i in range(len(_MOVING)):
                if moving[i] is not _KEYS:
                    lent[_MOVING[i]] = moving[i]
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
