# SPDX-License-Identifier: MIT
"""The lights as (r, g, b) tuples, for everything but a board's loop: the simulator, the tests,
the rig's frame checks. A board runs core/lights.py's frame(), on ints, and never loads this
file: its code and names stay off the board's heap.

    px = lights(status, t_ms, ring, players, n_pixels, cap=48, budget_ma=400)
    cap_frame(px, cap=48, budget_ma=400)   # a list of (r, g, b) capped and budgeted in place
    frame_ma(px)                           # its estimated current in mA
    tuples(px)                             # ints 0xRRGGBB as a list of (r, g, b)
"""

from .lights import _K, _budget, _c, _rgb, frame

_OFF = 0
_MA_PER_CHANNEL = 20    # as lights.py's (consts there: no globals to import on MicroPython)


def lights(st, t, ring, players, n_pixels, cap=48, budget_ma=400):
    """Status -> list of n_pixels (r, g, b), brightness-capped. Pure."""
    return tuples(frame([_OFF] * n_pixels, st, t, ring, players, cap, budget_ma))


def tuples(px):
    """Ints 0xRRGGBB -> a new list of (r, g, b)."""
    return [((c >> 16) & 255, (c >> 8) & 255, c & 255) for c in px]


def cap_frame(px, cap=48, budget_ma=400):
    """Scale channels to cap/255, then the frame to the current budget: px a list of (r, g, b),
    changed in place and returned."""
    _K[0] = cap
    ints = _budget([_c(_rgb(c)) for c in px], cap, budget_ma)
    px[:] = tuples(ints)
    return px


def frame_ma(px):
    """Estimated current of a frame in mA (20 mA per channel at 255)."""
    s = 0
    for c in px:
        s += c[0] + c[1] + c[2]
    return s * _MA_PER_CHANNEL // 255
