# SPDX-License-Identifier: MIT
"""Runs the round-machine vectors (tests/vectors/table/*.json) on CPython AND MicroPython.

A vector: {"name", "config", "steps": [[op, args...], ...]}. Ops:
    ["press", player, t_us]   ["ready", player, t_ms]   ["photo", player, t_ms]
    ["control"|"start"|"pause"|"resume"|"abort"|"next"|"undo"|"end"|"tick", t_ms]
    ["cut", checkpoint_elapsed_ms]   power cut: a fresh Table replays the encoded journal so far
                                     and recovers (the clock restarts: later times are new ones)
    ["expect", {partial status}, t_ms?]   status(t_ms) must contain these values (dicts partly,
                                          lists item by item)
    ["refused", op, args...]        the command must return False
    ["bad", [kind, fields...], code]   a journal event the machine must refuse: apply raises
                                       ValueError(code) (core/table.py _R_*) and the status,
                                       version included, is what it was before
    ["emit", [kind, fields...]]     an event emitted as a board's own code emits it (the board's
                                    entry: a SCORE, device/entry.py): applied and journaled
Each run also checks the law: replaying the encoded events rebuilds the same status and the
same scorepad numbers (the SCORE events' `score`).
`run(vector) -> {"name", "events": [hex...], "status": final status, "score": [[round, seat,
key, value]...] sorted, "errors": [...]}`.
No pytest here: this file runs under MicroPython too.
"""

import json

from presstime.core import events as E
from presstime.core.table import Table


def _hex(b):
    return "".join("%02x" % x for x in b)


def _match(want, got, where, errors):
    if isinstance(want, dict):
        if not isinstance(got, dict):
            errors.append("%s: expected an object, got %r" % (where, got))
            return
        keys = sorted(want.keys())
        for k in keys:
            if k not in got:
                errors.append("%s.%s: missing" % (where, k))
            else:
                _match(want[k], got[k], where + "." + k, errors)
    elif (
        isinstance(want, list)
        and isinstance(got, (list, tuple))
        and (not want or isinstance(want[0], dict))
    ):
        if len(want) != len(got):
            errors.append("%s: %d items, expected %d" % (where, len(got), len(want)))
            return
        for i in range(len(want)):
            _match(want[i], got[i], "%s[%d]" % (where, i), errors)
    else:
        if isinstance(got, tuple):
            got = list(got)
        if want != got:
            errors.append("%s: got %r, expected %r" % (where, got, want))


def _plain(x):
    """Tuples -> lists, so both interpreters print the same JSON."""
    if isinstance(x, dict):
        d = {}
        for k in x:
            d[k] = _plain(x[k])
        return d
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def _call(t, op, args):
    if op == "press":
        return t.press(args[0], args[1])
    if op in ("ready", "photo"):
        return getattr(t, op)(args[0], args[1])
    if op == "tick":
        t.tick(args[0])
        return True
    return getattr(t, op)(args[0])


def run(vector):
    errors = []
    t = Table()
    t.configure(vector["config"], 0)
    log = []
    now = 0
    i = 0
    for step in vector["steps"]:
        i += 1
        op = step[0]
        where = "%s step %d (%s)" % (vector["name"], i, op)
        if op == "expect":
            at = step[2] if len(step) > 2 else now
            _match(step[1], _plain(t.status(at)), where, errors)
        elif op == "refused":
            if _call(t, step[1], step[2:]) is not False:
                errors.append(where + ": %s was not refused" % step[1])
        elif op == "bad":
            _refuse(t, tuple(step[1]), step[2], now, where, errors)
        elif op == "emit":
            t._emit(tuple(step[1]))
        elif op == "cut":
            log.extend(E.encode(ev) for ev in t.drain())
            t = E.replay(log)
            t.recover(step[1])
            now = 0
        else:
            if op == "press":
                now = step[2] // 1000 if step[2] // 1000 > now else now
            elif op not in ("ready", "photo"):
                now = step[1] if step[1] > now else now
            else:
                now = step[2] if step[2] > now else now
            if _call(t, op, step[1:]) is False:
                errors.append(where + ": refused")
        for ev in t.drain():
            b = E.encode(ev)
            if E.decode(b) != _norm(ev):
                errors.append(where + ": event %r does not round-trip" % (ev,))
            log.append(b)
    final = _plain(t.status(now))
    rebuilt = E.replay(log)
    again = _plain(rebuilt.status(now))
    if _scores(rebuilt) != _scores(t):
        errors.append("%s: replay differs in score" % vector["name"])
    for k in ("phase", "round", "players", "pick_order", "winner", "version", "day"):
        if again.get(k) != final.get(k):
            errors.append(
                "%s: replay differs in %s: %r != %r"
                % (vector["name"], k, again.get(k), final.get(k))
            )
    return {
        "name": vector["name"],
        "events": [_hex(b) for b in log],
        "status": final,
        "score": _scores(t),
        "errors": errors,
    }


def _scores(t):
    out = [[k[0], k[1], k[2], t.score[k]] for k in t.score or {}]
    out.sort()
    return out


def _refuse(t, ev, code, now, where, errors):
    before = _plain(t.status(now))
    try:
        t.apply(ev)
        errors.append(where + ": %r was applied" % (ev,))
        return
    except ValueError as e:
        if e.args != (code,):
            errors.append(where + ": refused with %r, expected (%d,)" % (e.args, code))
    if _plain(t.status(now)) != before:
        errors.append(where + ": the refused %r changed the status" % (ev,))


def _norm(ev):
    if ev[0] == E.CONFIG:
        c = {}
        for k in ev[1]:
            c[k] = ev[1][k]
        c["colours"] = [tuple(x) for x in c["colours"]]
        return (E.CONFIG, c)
    return ev


def run_files(paths):
    out = []
    for p in paths:
        with open(p) as f:
            out.append(run(json.load(f)))
    return out
