# SPDX-License-Identifier: MIT
"""The words of the round machine's events: kinds, PRESS flags, END reasons, and the set-up
words the CONFIG event carries by index (table modes, grace fallbacks, editions; the games'
list is core/games.py GAMES). Indexes are what the journal and the wire carry: append only.

Kept apart from the codec (events.py) so that the round machine (table.py) and the codec
(which replays into a round machine) import this and not each other.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

CONFIG = const(1)
READY = const(2)
START = const(3)
GO = const(4)
PRESS = const(5)
TIMEOUT = const(6)
FORCE = const(7)
END = const(8)
PAUSE = const(9)
RESUME = const(10)
UNDO = const(11)
ABORT = const(12)
NEXT = const(13)
CUT = const(14)
REVEAL = const(15)
TURN = const(16)
PHOTO = const(17)

# PRESS flags
F_LAYOUT = const(1)   # two-step mode: this press was "Layout!", not "Print!"
F_TIE = const(2)      # closer than the resolution to the previous token press: a decided tie
F_LATE = const(4)     # pressed during the grace window after time-out

# END reasons
END_ALL = const(1)    # everyone printed (or finished) before time-out
END_TIME = const(2)   # time-out, no grace window (or nobody left to press)
END_GRACE = const(3)  # grace window closed (or all had pressed in it)
END_CONTROL = const(4)  # ended from the control button (turn modes)
END_WIN = const(5)    # a player reached the target (turns mode)

NAMES = ("", "config", "ready", "start", "go", "press", "timeout", "force", "end", "pause",
         "resume", "undo", "abort", "next", "cut", "reveal", "turn", "photo")

MODES = ("standard", "solo", "family", "puzzle", "turn-based", "ready-reveal", "turns")
FALLBACKS = ("seat", "rotate")
EDITIONS = ("published", "draft")


def name(kind):
    if 0 < kind < len(NAMES):
        return NAMES[kind]
    return "?%d" % kind
