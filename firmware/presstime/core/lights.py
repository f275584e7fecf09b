# SPDX-License-Identifier: MIT
"""Lights: a pure function from the round machine's status to pixel colours.

    px = lights(status, t_ms, ring, players, n_pixels, cap=48, budget_ma=400)

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
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_OFF = (0, 0, 0)
_WHITE = (255, 255, 255)
_GREEN = (0, 255, 40)
_AMBER = (255, 170, 0)
_ORANGE = (255, 80, 0)
_RED = (255, 0, 0)
_BLUE = (60, 100, 255)

_MA_PER_CHANNEL = const(20)    # WS2812B at full drive, per colour channel


def _dim(c, num, den):
    return (c[0] * num // den, c[1] * num // den, c[2] * num // den)


def _on(t, period, on_ms):
    return t % period < on_ms


def _flashes(t, k):
    """k short flashes (200 ms on, 200 ms off) then an 800 ms pause: reads a token number."""
    cycle = 400 * k + 800
    pos = t % cycle
    return pos < 400 * k and pos % 400 < 200


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
    c = info["colour"]
    s = info["state"]
    ph = st["phase"]
    if ph == "over" or winner >= 0:
        if winner == p:
            return c if _on(t, 250, 125) else _WHITE
        out = _out_list(st)
        if p in out:
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
        return c if (pos < 120 or 240 <= pos < 360) else _dim(c, 1, 6)
    if s == "forced":
        if st["tokens"] and ph == "summary" and info["token"]:
            return c if _flashes(t, info["token"]) else _dim(c, 1, 8)
        return c if _on(t, 250, 125) else _OFF
    # printed / late
    if st["tokens"] and info["token"]:
        return c if _flashes(t, info["token"]) else _dim(c, 1, 6)
    return c


def _out_list(st):
    s = st.get("standings") or {}
    out = s.get("out") or ()
    return [i for i in out if isinstance(i, int)]


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
    for i in range(len(ring)):
        px[ring[i]] = colour if i < k else _OFF


def _ring(st, t, ring, px, winner):
    r = len(ring)
    if r == 0:
        return
    ph = st["phase"]
    players = st["players"]
    n = len(players)
    if ph == "setup":
        px[ring[0]] = _dim(_WHITE, 1, 4) if _on(t, 2000, 1000) else _OFF
        return
    if st.get("reveal_ms") is not None and st["reveal_ms"] < 1500:
        c = _WHITE if _on(t, 250, 125) else _OFF
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
        px[ring[(t // 100) % r]] = _WHITE        # a running dot: "waiting for you"
        return
    if ph == "countdown":
        k = st["countdown"] * r // 3
        _fill(px, ring, k, _WHITE if _on(t, 1000, 700) else _dim(_WHITE, 1, 4))
        return
    if ph == "grace":
        gap = (t // 60) % r
        for i in range(r):
            px[ring[i]] = _OFF if i == gap else _RED
        return
    if ph == "summary" or ph == "over":
        if winner >= 0:
            c = players[winner]["colour"]
            head = (t // 80) % r
            for i in range(r):
                d = (head - i) % r
                px[ring[i]] = c if d == 0 else (_dim(c, 1, 3) if d < 3 else _OFF)
            return
        order = st.get("pick_order") or []
        if ph == "summary" and order:
            seg = r // len(order) if len(order) <= r else 1
            for i in range(r):
                k = i // seg
                if k < len(order) and (seg == 1 or i % seg != seg - 1):
                    px[ring[i]] = players[order[k]]["colour"]
                else:
                    px[ring[i]] = _OFF      # a gap after each segment: count positions
            return
        c = _dim(_GREEN, 1, 3) if ph == "summary" else _dim(_WHITE, 1, 4)
        on = ph == "summary" or _on(t, 2000, 1000)
        _fill(px, ring, r if on else 0, c)
        return
    # running / paused
    if "turn" in st:
        p = st["turn"]
        c = players[p]["colour"] if p < n else _WHITE
        lim = st.get("turn_limit_ms") or 0
        if lim:
            left = lim - st["turn_ms"]
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
        mins = (e // 60000) % (r + 1)
        _fill(px, ring, mins, _dim(_BLUE, 1, 3))
        px[ring[(e // 1000) * r // 60 % r]] = _WHITE
        if ph == "paused":
            _paused(px, ring, t)
        return
    left = st["remaining_ms"]
    k = (left * r + dur - 1) // dur
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
            px[ring[i]] = _dim(_BLUE, 1, 4)


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


def lights(st, t, ring, players, n_pixels, cap=48, budget_ma=400):
    """Status -> list of n_pixels (r, g, b), brightness-capped. Pure."""
    px = [_OFF] * n_pixels
    pl = st.get("players") or []
    ring, pp = _layout(ring, players, len(pl))
    ph = st["phase"]
    winner = _winner(st) if ph == "over" else -1
    if ph == "summary" and st.get("winner", -1) >= 0:
        winner = st["winner"]          # Myth Fits: the target was reached

    _ring(st, t, ring, px, winner)
    for p in range(len(pp)):
        px[pp[p]] = _player(st, p, pl[p], t, winner)
    return cap_frame(px, cap, budget_ma)


def cap_frame(px, cap=48, budget_ma=400):
    """Scale channels to cap/255, then the frame to the current budget (in place, returned)."""
    total = 0
    last = None         # runs of one colour (a ring fill) share one capped tuple
    out = None
    for i in range(len(px)):
        c = px[i]
        if c is last:
            c = out
            px[i] = c
            total += c[0] + c[1] + c[2]
        elif c[0] or c[1] or c[2]:
            last = c
            c = (c[0] * cap // 255, c[1] * cap // 255, c[2] * cap // 255)
            out = c
            px[i] = c
            total += c[0] + c[1] + c[2]
    lim = budget_ma * 255 // _MA_PER_CHANNEL
    if total > lim:
        last = None
        for i in range(len(px)):
            c = px[i]
            if c is not last:
                last = c
                out = (c[0] * lim // total, c[1] * lim // total, c[2] * lim // total)
            px[i] = out
    return px


def frame_ma(px):
    """Estimated current of a frame in mA (20 mA per channel at 255)."""
    s = 0
    for c in px:
        s += c[0] + c[1] + c[2]
    return s * _MA_PER_CHANNEL // 255
