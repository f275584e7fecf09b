"""The one check of a board's status reply, before anything on the desktop reads it.

`link.BoardClient.status()` passes every reply through `problem(reply)`, so `watch`, `play`
(all four games), the scorepad's board panel and the commands' own polling see either a status
whose every field they use has the type core/table.py's Table.status() gives it, or a LinkError
whose one line names the field ("the board's status reply is not usable (players[2].token: null
or a whole number 0 to 6, got "x")"). What a board of this firmware sends always passes; what a
broken or hostile one sends (wrong types, NaN or Infinity, huge numbers, missing keys, nested
junk) never reaches a view.

Fields this presstime does not know are kept when they are plain JSON (a newer firmware may add
some); known ones are checked when present, and those the views read without a default must be
there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from presstime.core.table import PHASES, STATES

if TYPE_CHECKING:
    from presstime.hints import Json

BIG = 2**53  # whole numbers beyond this are no time, count or seat a board sends
MAX_PLAYERS = 6


class Bad(Exception):
    """A field of a status reply is not what Table.status() gives (message: field first)."""


def _show(value):
    import json

    try:
        text = json.dumps(value, allow_nan=True)
    except (TypeError, ValueError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _int(v, where, lo=-BIG, hi=BIG, null=False):
    if v is None and null:
        return
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        span = (
            ""
            if (lo, hi) == (-BIG, BIG)
            else " %d to %d" % (lo, hi)
            if hi != BIG
            else " %d or more" % lo
        )
        raise Bad(
            "%s: %sa whole number%s, got %s" % (where, "null or " if null else "", span, _show(v))
        )


def _colour(v, where):
    if not isinstance(v, list) or len(v) != 3:
        raise Bad("%s: three numbers 0 to 255, got %s" % (where, _show(v)))
    for i, c in enumerate(v):
        _int(c, "%s[%d]" % (where, i), 0, 255)


def _bool(v, where):
    if not isinstance(v, bool):
        raise Bad("%s: true or false, got %s" % (where, _show(v)))


def _str(v, where, null=False, one_of=None):
    if v is None and null:
        return
    if not isinstance(v, str) or len(v) > 200:
        raise Bad("%s: %stext, got %s" % (where, "null or " if null else "", _show(v)))
    if one_of is not None and v not in one_of:
        raise Bad("%s: one of %s, got %s" % (where, ", ".join(one_of), _show(v)))


def _list(v, where, most):
    if not isinstance(v, list) or len(v) > most:
        raise Bad("%s: a list of at most %d, got %s" % (where, most, _show(v)))
    return v


# field: (check(value, where, seats), required once a game is set up)
_TOP = {
    "t_ms": (lambda v, w, n: _int(v, w, 0), False),
    "mode": (lambda v, w, n: _str(v, w, null=True), False),
    "game": (lambda v, w, n: _str(v, w), True),
    "day": (lambda v, w, n: _str(v, w, null=True), True),
    "round": (lambda v, w, n: _int(v, w, 0, 99), True),
    "rounds": (lambda v, w, n: _int(v, w, 0, 99), True),
    "duration_ms": (lambda v, w, n: _int(v, w, 0, null=True), True),
    "remaining_ms": (lambda v, w, n: _int(v, w, null=True), True),
    "elapsed_ms": (lambda v, w, n: _int(v, w), True),
    "countdown": (lambda v, w, n: _int(v, w, -99, 99), False),
    "alert_ms": (lambda v, w, n: _int(v, w), False),
    "tokens": (lambda v, w, n: _bool(v, w), False),
    "two_step": (lambda v, w, n: _bool(v, w), False),
    "end_reason": (lambda v, w, n: _int(v, w, 0, 255), False),
    "pick_order": (
        lambda v, w, n: [
            _int(s, "%s[%d]" % (w, i), 0, n - 1) for i, s in enumerate(_list(v, w, n))
        ],
        False,
    ),
    "winner": (lambda v, w, n: _int(v, w, -1, n - 1, null=True), False),
    "undo": (lambda v, w, n: _bool(v, w), False),
    "turn": (lambda v, w, n: _int(v, w, -1, n - 1), False),
    "first": (lambda v, w, n: _int(v, w, 0, n - 1), False),
    "turn_ms": (lambda v, w, n: _int(v, w, null=True), False),
    "turn_limit_ms": (lambda v, w, n: _int(v, w, 0, null=True), False),
    "target": (lambda v, w, n: _int(v, w, 0, 999), False),
    "step": (lambda v, w, n: _int(v, w, 0, 999), False),
    "steps": (lambda v, w, n: _int(v, w, 0, 999), False),
    "steps_left": (lambda v, w, n: _int(v, w, -999, 999), False),
    "reveal_ms": (lambda v, w, n: _int(v, w, null=True), False),
    "journal": (lambda v, w, n: _str(v, w), False),
}

_PLAYER = {
    "name": lambda v, w: _str(v, w),
    "colour": _colour,
    "state": lambda v, w: _str(v, w, one_of=STATES),
    "token": lambda v, w: _int(v, w, 0, MAX_PLAYERS, null=True),
    "tied": lambda v, w: _int(v, w, 0, 1) if not isinstance(v, bool) else None,  # the table's 0/1
    "layout_ms": lambda v, w: _int(v, w, 0, null=True),
    "print_ms": lambda v, w: _int(v, w, 0, null=True),
    "print_us": lambda v, w: _int(v, w, 0, null=True),
    "photos": lambda v, w: _int(v, w, 0, 999),
}
_PLAYER_OPTIONAL = ("print_us",)


def _standings(v, n):
    """What the desktop pushed (play_session): {"totals", "out", "winner", ...} or null."""
    if v is None:
        return
    if not isinstance(v, dict):
        raise Bad("standings: null or an object, got %s" % _show(v))
    if "winner" in v:
        _int(v["winner"], "standings.winner", -1, n - 1, null=True)
    for key in ("totals", "out", "ads"):
        if key in v:
            for i, x in enumerate(_list(v[key], "standings." + key, MAX_PLAYERS)):
                _int(x, "standings.%s[%d]" % (key, i), null=True)


def problem(reply: Json) -> str | None:
    """None when `reply` is a usable status, else the one-line reason, the field named first."""
    try:
        _check(reply)
    except Bad as e:
        return str(e)
    return None


def _plain(v, where, depth=0):
    """Any field, known or not: JSON a strict reader takes (no NaN or Infinity), not too deep."""
    if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
        raise Bad("%s: %s is not a JSON number" % (where, _show(v)))
    if depth > 8 and isinstance(v, (list, dict)):
        raise Bad("%s: nested too deep" % where)
    if isinstance(v, list):
        for i, x in enumerate(v):
            _plain(x, "%s[%d]" % (where, i), depth + 1)
    elif isinstance(v, dict):
        for k in v:
            _plain(v[k], "%s.%s" % (where, k), depth + 1)


def _check(st):
    if not isinstance(st, dict):
        raise Bad("not an object: %s" % _show(st))
    for key in st:
        _plain(st[key], key)
    for key in ("version", "phase", "players"):
        if key not in st:
            raise Bad("%s: missing" % key)
    _int(st["version"], "version", 0)
    _str(st["phase"], "phase", one_of=PHASES)
    players = _list(st["players"], "players", MAX_PLAYERS)
    n = len(players)
    for i, p in enumerate(players):
        where = "players[%d]" % i
        if not isinstance(p, dict):
            raise Bad("%s: an object, got %s" % (where, _show(p)))
        for key, check in _PLAYER.items():
            if key in p:
                check(p[key], "%s.%s" % (where, key))
            elif key not in _PLAYER_OPTIONAL:
                raise Bad("%s.%s: missing" % (where, key))
    for key, (check, required) in _TOP.items():
        if key in st:
            check(st[key], key, n)
        elif required and n:
            raise Bad("%s: missing" % key)
    if "turn" in st or "step" in st:
        for key in (
            ("turn_ms", "turn_limit_ms", "target")
            if "turn" in st
            else ("steps", "steps_left", "reveal_ms")
        ):
            if key not in st:
                raise Bad("%s: missing" % key)
    _standings(st.get("standings"), n)
