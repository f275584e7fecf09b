# SPDX-License-Identifier: MIT
"""The set-up checks of the round machine (core/table.py): a configure dict -> the flat set-up
the CONFIG event carries, or ValueError naming the field.

It holds THE rule for a player's name, which the record checks (record_checks.py,
fit_to_print_check.py) and, through host/presstime/names.py, every desktop entry point use too
(docs/faults.md states it for users):
`name_refused` says why a name is refused (or None):
- at most 24 bytes of UTF-8 (what the CONFIG event and the journal carry per name); not empty;
  no space at either end;
- none of the characters `refused` names: C0/C1 controls and DEL, the line and paragraph
  separators, the bidirectional marks, embeddings, overrides and isolates, zero-width and other
  invisible format characters, unusual spaces (no-break, en, em, ideographic...), the byte order
  mark, lone surrogates;
- two names are the same player when their `key`s are equal: ASCII letters compared without
  case, the rest as it is (MicroPython's str.lower folds only ASCII; bytes.lower does the same on
  both, as SQLite's NOCASE does in the history). The board cannot normalise Unicode (no
  unicodedata): the desktop turns every name into NFC before it reaches a board or the store.
The rule lives here, not in a module of its own: this file is loaded only for a set-up and
dropped after, and a module more would cost the board qstrs and heap (docs/benchmarks.md).

table.normalise imports this module for each set-up and drops it from RAM after: a board
needs its code and messages only when a game is set up, not while it plays. The round
machine's words (MODES, FALLBACKS, EDITIONS) come with the call, from table.py's module: this
file does not import it back (tests/test_import_cycles.py).
"""

from . import games

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_REVEALS = const(5)     # table.py's mode index of ready-reveal
_TURNBASED = const(4)   # table.py's mode index of turn-based

PALETTE = ((255, 40, 40), (40, 120, 255), (40, 200, 40), (255, 180, 0), (190, 60, 255),
           (0, 210, 210))


def refused(c):
    """True for a character no name may hold (see the module docstring). Code points compared
    as ints, not against one-character strings: each short string constant is a qstr the board
    keeps for ever (bench/bench_firmware.py, firmware_qstrs). The single ones: soft hyphen, Arabic
    letter mark, Ogham space, Mongolian vowel separator, ideographic space, byte order mark."""
    c = ord(c)
    return (c < 0x20 or 0x7F <= c <= 0xA0 or c in (0xAD, 0x61C, 0x1680, 0x180E, 0x3000, 0xFEFF)
            or 0x2000 <= c <= 0x200F or 0x2028 <= c <= 0x202F or 0x205F <= c <= 0x206F
            or 0xD800 <= c <= 0xDFFF)


def name_refused(name, where, before):
    """None for a good name that no player of `before` (the seats before it) has, else the
    message why it is refused, `where` first."""
    if not name:
        return "%s: a name cannot be empty" % where
    for c in name:
        if refused(c):
            return ("%s: a name cannot hold U+%04X (a control, invisible or unusual space character)"
                    % (where, ord(c)))
    if name[0] == " " or name[-1] == " ":
        return "%s: a name cannot begin or end with a space" % where
    if len(name.encode()) > 24:
        return "%s: a name cannot be longer than 24 bytes (UTF-8)" % where
    for other in before:
        if key(other) == key(name):
            if other == name:
                return "%s: %s is named twice" % (where, name)
            return "%s: %s is named twice (as %s: names are compared without case)" % (where, name, other)
    return None


def key(name):
    """A name's key: two names with equal keys are the same player. (Called `key`, a name the
    interpreter already holds: each new name is a qstr the board keeps, docs/benchmarks.md.)"""
    return name.encode().lower()


def _colour(c, where):
    if isinstance(c, str):
        s = c[1:] if c[:1] == "#" else c
        if len(s) == 6:
            try:
                return (int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16))
            except ValueError:
                pass
        raise ValueError("%s: colour %r is not #rrggbb" % (where, c))
    if isinstance(c, (list, tuple)) and len(c) == 3:
        for v in c:
            if not isinstance(v, int) or v < 0 or v > 255:
                raise ValueError("%s: colour %r needs three ints 0..255" % (where, c))
        return (c[0], c[1], c[2])
    raise ValueError("%s: colour %r is not #rrggbb or [r, g, b]" % (where, c))


def _int(d, key, default, lo, hi, where):
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or v > hi:
        raise ValueError("%s%s: %r is not a whole number %d..%d" % (where, key, v, lo, hi))
    return v


def normalise(cfg, machine, urandom=None):
    """A configure dict (as the link sends it) -> the flat set-up the CONFIG event carries.

    Input: {"players": [{"name", "colour"}] | ["Ada", ...] | count, "mode" (default: the game's
    first, or "standard"), "duration_ms",
    "edition", "game", "options": {grace_ms, grace_fallback, two_step, tie_us, rounds, steps,
    cards, turn_ms, target, warn_ms: up to 3 times left in ms, whole seconds, longest first, at
    which the board warns, first: the seat (0-based) that plays first in turn-based mode}} (options
    may also sit at the top level). ValueError names the field.
    Turn-based mode's rules draw the first player: with no first seat given, `urandom` (the board's
    os.urandom) draws it; without a source it is seat 0."""
    MODES, FALLBACKS, EDITIONS = machine.MODES, machine.FALLBACKS, machine.EDITIONS
    if not isinstance(cfg, dict):
        raise ValueError("configure: expected an object")
    opts = {}
    for k in cfg:
        opts[k] = cfg[k]
    o = cfg.get("options") or {}
    if not isinstance(o, dict):
        raise ValueError("configure: options must be an object")
    for k in o:
        opts[k] = o[k]
    game = opts.get("game")
    face = games.module(game) if game is not None else None
    if game is not None and face is None:
        raise ValueError("configure: game %r is not one of %s" % (game, ", ".join(games.GAMES)))
    mode = opts.get("mode", face.MODES[0] if face else "standard")
    if mode not in MODES:
        raise ValueError("configure: mode %r is not one of %s" % (mode, ", ".join(MODES)))
    m = MODES.index(mode)
    if game is None:
        game = games.playing(mode)
        face = games.module(game)
    if mode not in face.MODES:
        raise ValueError("configure: game %r is not played in mode %r (it is played in %s)"
                         % (game, mode, ", ".join(face.MODES)))
    players = opts.get("players", 1)
    if isinstance(players, int) and not isinstance(players, bool):
        players = ["P%d" % (i + 1) for i in range(players)]
    if not isinstance(players, list) or not 1 <= len(players) <= 6:
        raise ValueError("configure: players must list 1 to 6 players")
    names = []
    colours = []
    for i in range(len(players)):
        p = players[i]
        where = "configure: players[%d]" % i
        if isinstance(p, str):
            p = {"name": p}
        if not isinstance(p, dict) or not isinstance(p.get("name", ""), str):
            raise ValueError(where + ": expected a name or {name, colour}")
        nm = p.get("name") or "P%d" % (i + 1)
        bad = name_refused(nm, where, names)
        if bad:
            raise ValueError(bad)
        names.append(nm)
        colours.append(_colour(p["colour"], where) if p.get("colour") is not None
                       else PALETTE[i])
    n = len(names)
    lo, hi = face.players(mode)
    if not lo <= n <= hi:
        raise ValueError("configure: %s takes %d to %d players%s, not %d"
                         % (game, lo, hi, " in %s mode" % mode if len(face.MODES) > 1 else "", n))
    w = "configure: "
    duration = _int(opts, "duration_ms", 240000, 10000, 7200000, w)
    grace = _int(opts, "grace_ms", 5000, 0, 60000, w)
    tie = _int(opts, "tie_us", 1000, 0, 65535, w)
    fb = opts.get("grace_fallback", "seat")
    if fb not in FALLBACKS:
        raise ValueError("configure: grace_fallback %r is not one of %s" % (fb, ", ".join(FALLBACKS)))
    two = opts.get("two_step", False)
    if two not in (True, False):
        raise ValueError("configure: two_step must be true or false")
    ed = opts.get("edition", "published")
    if ed not in EDITIONS:
        raise ValueError("configure: edition %r is not one of %s" % (ed, ", ".join(EDITIONS)))
    # the game's facts come from its face (core/games.py), loaded only for the game set up
    rounds = face.rounds_in(mode)
    steps = face.STEPS
    if m == _REVEALS:
        steps = opts.get("cards", steps)
    target = face.target(n)
    rounds = _int(opts, "rounds", rounds, 1, 9, w)
    steps = _int({"steps": opts.get("steps", steps)}, "steps", 0, 0, 99, w)
    if m == _REVEALS and steps < 1:
        raise ValueError("configure: steps (stages or cards per round) must be 1..99")
    target = _int(opts, "target", target, 0, 99, w)
    turn_ms = _int(opts, "turn_ms", 0, 0, 3600000, w)
    warn = opts.get("warn_ms", machine.WARNINGS)
    if not isinstance(warn, (list, tuple)) or len(warn) > 3:
        raise ValueError("configure: warn_ms must list up to 3 warning times")
    for i in range(len(warn)):
        _int({"warn_ms": warn[i]}, "warn_ms", 0, 1000, 3600000, w)
        if warn[i] % 1000 or i and warn[i] >= warn[i - 1]:
            raise ValueError("configure: warn_ms %r: whole seconds, longest first, each once" % (list(warn),))
    first = opts.get("first")
    if first is None and m == _TURNBASED and urandom:
        first = 240
        while first >= 240:     # 240: a multiple of every table size 1..6, so no seat is favoured
            first = urandom(1)[0]
        first %= n
    first = _int({} if first is None else {"first": first}, "first", 0, 0, n - 1 if m == _TURNBASED else 0, w)
    out = {"mode": mode, "names": names, "colours": colours, "duration_ms": duration,
            "grace_ms": grace, "tie_us": tie, "two_step": bool(two), "grace_fallback": fb,
            "edition": ed, "game": game, "rounds": rounds, "steps": steps,
            "turn_ms": turn_ms, "target": target}
    if tuple(warn) != machine.WARNINGS:
        out["warn"] = tuple(warn)   # only when not the default: one key less in a set-up kept all game
    if first:
        out["first"] = first         # likewise: seat 0 is the default
    return out
