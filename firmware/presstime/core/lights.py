# SPDX-License-Identifier: MIT
"""Lights: a pure function from the round machine's status to pixel colours.

    px = lights(status, t_ms, ring, players, n_pixels, cap=48, budget_ma=400)   # lights_rgb.py

status: Table.status(t_ms) (dict). ring: tuple of pixel indices for the countdown ring or bar
(clockwise, first = 12 o'clock). players: tuple of pixel indices, one per seat, or None: then the
player lights sit on the ring itself, at ring[p * R // n], and the countdown uses the other ring
pixels. n_pixels: length of the returned list of (r, g, b). Indices may go beyond the board's
NeoPixel count: the Pico port drives its plain button LEDs from those entries (lit = any
channel > 0), so every state below also reads on a one-colour LED.

Never colour alone: each state differs by position, blink rhythm or pattern too (docs/lights.md):
    player light:  waiting = slow blink (1 Hz), ready = steady, reporting = steady dim,
                   layout = double flash every second, printed = one flash per token number
                   then a pause (token 3: three flashes), forced = fast blink (4 Hz),
                   turn = steady bright on the active player only, winner = strobe.
    ring:          fill = time left (drains clockwise), green > 60 s, amber > 30 s,
                   orange > 10 s, red and blinking at <= 10 s; paused = dashed pattern,
                   slow blink; grace = red with a running gap; summary = pick order
                   (segment k clockwise in the colour of token k+1); game over = comet in the
                   winner's colour.
Brightness: every channel is scaled to `cap` (0..255), then the whole frame is scaled down if
its estimated current (20 mA per channel at 255) exceeds `budget_ma`.

    frame(px, status, t_ms, ring, players, cap=48, budget_ma=400)

is the same frame written into `px`, a list of ints 0xRRGGBB the caller keeps (the board's loop
reuses one list: a frame allocates nothing, so the chip's heap is not walked for room 8 times a
second and the GC stays away from the loop). Colours are ints inside; lights() (in
core/lights_rgb.py, which a board does not load) turns them into (r, g, b) tuples for everything
else (the simulator, the tests, the rig's frame checks).
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# colours: private consts, folded into the code (no global, no name on the board)
_OFF = const(0)
_WHITE = const(0xFFFFFF)
_GREEN = const(0x00FF28)       # (0, 255, 40)
_AMBER = const(0xFFAA00)
_ORANGE = const(0xFF5000)
_RED = const(0xFF0000)
_BLUE = const(0x3C64FF)        # (60, 100, 255)

_MA_PER_CHANNEL = const(20)    # WS2812B at full drive, per colour channel


def _rgb(c):
    """A status colour ((r, g, b) tuple or list) as an int 0xRRGGBB."""
    return (c[0] << 16) | (c[1] << 8) | c[2]


def _dim(c, num, den):
    return ((((c >> 16) * num // den) << 16) | ((((c >> 8) & 255) * num // den) << 8)
            | ((c & 255) * num // den))


_U = [0]        # frame(): the ms up to which (not included) the frame stays as built
_K = [48, None]  # frame(): the cap in force; an all-off frame of the last length (copied over px)


def _c(c):
    """A colour with every channel scaled to the frame's cap (cap/255). Frames are capped
    where a colour is chosen, once per colour, not pixel by pixel afterwards: a Python loop
    over the pixels costs ~0.7 ms a frame on the RP2040 (docs/benchmarks.md)."""
    k = _K[0]
    return (((c >> 16) * k // 255) << 16) | ((((c >> 8) & 255) * k // 255) << 8) \
        | ((c & 255) * k // 255)


def _at(ms):
    """The frame may change at ms (frame() keeps the earliest such instant)."""
    if ms < _U[0]:
        _U[0] = ms


def _on(t, period, on_ms):
    pos = t % period
    if pos < on_ms:
        _at(t - pos + on_ms)
        return True
    _at(t - pos + period)
    return False


def _every(t, ms):
    """t // ms, and the frame may change when it does."""
    _at(t - t % ms + ms)
    return t // ms


def _flashes(t, k):
    """k short flashes (200 ms on, 200 ms off) then an 800 ms pause: reads a token number."""
    cycle = 400 * k + 800
    pos = t % cycle
    if pos < 400 * k:
        _at(t - pos % 200 + 200)
        return pos % 400 < 200
    _at(t - pos + cycle)
    return False


def _runs_down(t, left, whole, r):
    """A fill of ceil(left * r / whole) pixels, left running down 1 ms per ms: the frame may
    change when that count drops, and when left reaches 0."""
    if left > 0:
        k = (left * r + whole - 1) // whole
        _at(t + left - (k - 1) * whole // r)
        _at(t + left)


def layout(ring, players, n_players):
    """(ring pixels, player pixels) with players None -> players on the ring."""
    if players is not None:
        return tuple(ring), tuple(players[:n_players])
    r = len(ring)
    if n_players == 0 or r == 0:
        return tuple(ring), ()
    pp = tuple(ring[p * r // n_players] for p in range(n_players))
    rest = tuple(i for i in ring if i not in pp)
    return rest, pp


def _player(st, p, info, t, winner):
    c = _rgb(info["colour"])
    s = info["state"]
    ph = st["phase"]
    if ph == "over" or winner >= 0:
        if winner == p:
            return c if _on(t, 250, 125) else _WHITE
        if _is_out(st, p):
            return _OFF
        return _dim(c, 1, 6)
    if ph == "setup":
        return _OFF
    if "turn" in st and ph in ("running", "paused"):
        if p != st["turn"]:
            return _dim(c, 1, 8)
        if st.get("alert_ms") and not _on(t, 250, 125):
            return _OFF
        return c
    if s == "waiting":
        return _dim(c, 1, 3) if _on(t, 1000, 500) else _OFF
    if s == "ready":
        return c
    if s == "reporting":
        return _dim(c, 1, 3)
    if s == "layout":
        pos = t % 1000
        for b in (120, 240, 360, 1000):
            if pos < b:
                _at(t - pos + b)
                break
        return c if (pos < 120 or 240 <= pos < 360) else _dim(c, 1, 6)
    if s == "forced":
        if st["tokens"] and ph == "summary" and info["token"]:
            return c if _flashes(t, info["token"]) else _dim(c, 1, 8)
        return c if _on(t, 250, 125) else _OFF
    # printed / late
    if st["tokens"] and info["token"]:
        return c if _flashes(t, info["token"]) else _dim(c, 1, 6)
    return c


def _is_out(st, p):
    """Seat p is in the standings' "out" list (ints only; no list built)."""
    s = st.get("standings") or {}
    for i in s.get("out") or ():
        if isinstance(i, int) and i == p:
            return True
    return False


def _winner(st):
    w = st.get("winner", -1)
    if w is not None and w >= 0:
        return w
    s = st.get("standings") or {}
    w = s.get("winner")
    if isinstance(w, int) and not isinstance(w, bool):
        return w
    if isinstance(w, str):
        for i in range(len(st["players"])):
            if st["players"][i]["name"] == w:
                return i
    return -1


def _fill(px, ring, k, colour):
    c = _c(colour)
    r = len(ring)
    if k > r:
        k = r
    for i in range(k):
        px[ring[i]] = c
    for i in range(k, r):
        px[ring[i]] = _OFF


def _ring(st, t, ring, px, winner):
    r = len(ring)
    if r == 0:
        return
    ph = st["phase"]
    players = st["players"]
    n = len(players)
    if ph == "setup":
        px[ring[0]] = _c(_dim(_WHITE, 1, 4)) if _on(t, 2000, 1000) else _OFF
        return
    if st.get("reveal_ms") is not None and st["reveal_ms"] < 1500:
        _at(t + 1500 - st["reveal_ms"])     # reveal_ms runs with the clock
        c = _c(_WHITE) if _on(t, 250, 125) else _OFF
        for i in ring:
            px[i] = c
        return
    if ph == "ready":
        ready = 0
        for pl in players:
            if pl["state"] == "ready":
                ready += 1
        if "steps" in st:       # ready-reveal: steps done, a steady fill
            k = (st["steps"] - st["steps_left"]) * r // st["steps"]
        else:
            k = ready * r // n if n else 0
        _fill(px, ring, k, _dim(_WHITE, 1, 5))
        px[ring[_every(t, 100) % r]] = _c(_WHITE)    # a running dot: "waiting for you"
        return
    if ph == "countdown":
        k = st["countdown"] * r // 3
        _fill(px, ring, k, _WHITE if _on(t, 1000, 700) else _dim(_WHITE, 1, 4))
        return
    if ph == "grace":
        gap = _every(t, 60) % r
        _fill(px, ring, r, _RED)
        px[ring[gap]] = _OFF
        return
    if ph == "summary" or ph == "over":
        if winner >= 0:
            c = _rgb(players[winner]["colour"])
            d3 = _c(_dim(c, 1, 3))
            c = _c(c)
            head = _every(t, 80) % r
            for i in range(r):
                d = (head - i) % r
                px[ring[i]] = c if d == 0 else (d3 if d < 3 else _OFF)
            return
        order = st.get("pick_order") or []
        if ph == "summary" and order:
            seg = r // len(order) if len(order) <= r else 1
            for k in range(len(order) if len(order) * seg <= r else r // seg):
                c = _c(_rgb(players[order[k]]["colour"]))     # one colour per segment
                for i in range(k * seg, k * seg + seg - (seg != 1)):
                    px[ring[i]] = c     # the rest stays off: a gap after each segment
            return
        c = _dim(_GREEN, 1, 3) if ph == "summary" else _dim(_WHITE, 1, 4)
        on = ph == "summary" or _on(t, 2000, 1000)
        _fill(px, ring, r if on else 0, c)
        return
    # running / paused
    if "turn" in st:
        p = st["turn"]
        c = _rgb(players[p]["colour"]) if p < n else _WHITE
        lim = st.get("turn_limit_ms") or 0
        if lim:
            left = lim - st["turn_ms"]
            if ph == "running":
                _runs_down(t, left, lim, r)     # alert_ms (the turn ran over) flips at left 0 too
            k = (left * r + lim - 1) // lim if left > 0 else r
            if left <= 0:
                c = _RED if _on(t, 500, 250) else _OFF
        else:
            k = r
        _fill(px, ring, k, _dim(c, 1, 2))
        if ph == "paused":
            _paused(px, ring, t)
        return
    dur = st.get("duration_ms")
    if not dur:                      # puzzle: stopwatch counting up
        e = st["elapsed_ms"]
        if ph == "running":
            _at(t + 1000 - e % 1000)
        mins = (e // 60000) % (r + 1)
        _fill(px, ring, mins, _dim(_BLUE, 1, 3))
        px[ring[(e // 1000) * r // 60 % r]] = _c(_WHITE)
        if ph == "paused":
            _paused(px, ring, t)
        return
    left = st["remaining_ms"]
    k = (left * r + dur - 1) // dur
    if ph == "running":
        _runs_down(t, left, dur, r)
        for w in (60000, 30000, 10000):
            if left > w:
                _at(t + left - w)
    if left > 60000:
        c = _GREEN
    elif left > 30000:
        c = _AMBER
    elif left > 10000:
        c = _ORANGE
    else:
        c = _RED if _on(t, 500, 250) else _OFF
    _fill(px, ring, k, c)
    if 10000 < left <= 30000 and k > 0 and not _on(t, 1000, 500):
        px[ring[k - 1]] = _OFF       # the leading pixel blinks from 30 s on
    if ph == "paused":
        _paused(px, ring, t)


def _paused(px, ring, t):
    """Paused: every other pixel off, the rest blink slowly (0.5 Hz)."""
    on = _on(t, 2000, 1000)
    for i in range(len(ring)):
        if i % 2 or not on:
            px[ring[i]] = _OFF
        elif px[ring[i]] == _OFF:
            px[ring[i]] = _c(_dim(_BLUE, 1, 4))


_LAYOUT = [None, None, -1, None]     # the last layout() call: ring, players, n -> result


def _layout(ring, players, n):
    """layout() for the same ring and players objects as last time is answered from a
    one-entry cache (the app passes the same tuples every frame: no new tuples per frame)."""
    c = _LAYOUT
    if c[0] is not ring or c[1] is not players or c[2] != n:
        c[3] = layout(ring, players, n)
        c[0] = ring
        c[1] = players
        c[2] = n
    return c[3]


def frame(px, st, t, ring, players, cap=48, budget_ma=400):
    """Status -> px (a list of ints 0xRRGGBB, len = the pixel count), in place, brightness-
    capped; returns px. Pure apart from px: the board's loop passes the same list each time.
    until() then tells how long this frame holds (see there)."""
    _U[0] = t + 3600000
    _K[0] = cap
    z = _K[1]
    if z is None or len(z) != len(px):
        z = _K[1] = [_OFF] * len(px)        # made once; copied over px in one go
    px[:] = z
    pl = st.get("players") or []
    ring, pp = _layout(ring, players, len(pl))
    ph = st["phase"]
    winner = _winner(st) if ph == "over" else -1
    if ph == "summary" and st.get("winner", -1) >= 0:
        winner = st["winner"]          # Myth Fits: the target was reached

    _ring(st, t, ring, px, winner)
    for p in range(len(pp)):
        px[pp[p]] = _c(_player(st, p, pl[p], t, winner))
    return _budget(px, cap, budget_ma)


def until():
    """The ms up to which (not included) the last frame() stays what it is, for the same status
    version: the next blink edge, running dot step, ring step (time left running down in a
    running round, the turn's time, a stopwatch second) or reveal flash end, whichever comes
    first. Not covered: the countdown's seconds (the status' "countdown" comes from the
    countdown's start, which the status does not carry): the caller rebuilds then. The board's
    loop builds a frame only when the version changed or this instant came (device/app.py)."""
    return _U[0]


def _budget(px, cap, budget_ma):
    """Scale a capped frame (ints, in place) down to the current budget; a frame whose every
    channel could sit at the cap and still fit is left as it is without a look."""
    lim = budget_ma * 255 // _MA_PER_CHANNEL
    if 3 * cap * len(px) <= lim:
        return px
    total = 0
    for c in px:
        total += (c >> 16) + ((c >> 8) & 255) + (c & 255)
    if total > lim:
        last = -1
        out = _OFF
        for i in range(len(px)):
            c = px[i]
            if c != last:
                last = c
                out = ((((c >> 16) * lim // total) << 16) | ((((c >> 8) & 255) * lim // total) << 8)
                       | ((c & 255) * lim // total))
            px[i] = out
    return px

