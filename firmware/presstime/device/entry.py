# SPDX-License-Identifier: MIT
"""Scoring on the board's own screen and knob (a port with `screen_lines`, device/port.py).

    entry.start(table, port)   the app's entry: the module's step and press are then its
                               Entry's (a board's app keeps the module, no more names)
    e = Entry(table, port)     (entry.current: the one started)
    e.step(port) -> bool  every loop step: the knob's turns (port.knob()) move the number
                        shown, and the screen gets its lines (port.show_lines) when they
                        changed; True when the standings the lights show changed
    e.press(b) -> bool  a key: -1 the knob's press, -2 the back key, 0.. a player's key; False
                        when the entry does not take it (no question is asked: the knob's
                        press is then the control button's, e.g. the next round)
    e.turn(d), e.confirm(), e.back(), e.pick(seat), e.screen()   the same, one at a time

The knob's press confirms: the number is checked by the core (core/entry.py `problems`, the
check `enter` runs) and, when good, journaled at once (a SCORE event, judged by the table's
`apply` as every event). The back key asks the question before; a player's key that player's
questions.

The questions are the game's face's (core/entry.questions: its set-up questions, e.g. Fit to
Print's Breaking News card, then its `fields`): after a round (its summary) that round's, once
the game is over the last round's still open and the game's end numbers. A question answered
(its number journaled) is skipped; the back key and a player's key walk to answered ones
(confirming again journals the new number). With every question answered the screen shows the round's scores and the
standings (core/games.score), and at the end the winner; the lights show them too (the
standings the table carries, core/lights.py). The numbers come from the table (`score`, the
journal's SCORE events), so a power cut loses no confirmed number and the board resumes at
the first question still open.

No list of questions is kept between calls (they are asked again of the face): the board's
heap holds the record of the numbers and one question. Loaded only by a board with a screen.
"""

import gc

from ..core import games
from ..core.table import SUMMARY, OVER, TURNS


_num = None     # core/entry.py, imported when a round is first scored (Entry._record)


class Entry:
    def __init__(self, table, port):
        self.t = table
        self.cols = port.screen_cols
        self.rows = port.screen_lines
        self.record = None      # the game record of the numbers (None: built when needed)
        self.cfg = None         # the set-up the record was built for
        self.q = None           # the question asked: (round or None, k, path, kind, label)
        self.v = 0              # the number shown
        self.why = None         # the core's reason the last confirm was refused
        self.key = -1           # the table version the question was found for
        self.shown = None       # the lines last given to the screen
        self.result = None      # the standings shown (None: not worked out yet)
        self.seen = -1          # the table version the screen was made for
        self.dirty = True       # an input changed what the screen shows
        self.on = False         # the players score this round: the knob turned in its summary
        self.full = False       # no room left to score on this board (_full): until a reboot

    # ---- the record and the questions -----------------------------------------------------
    def _record(self):
        global _num
        if _num is None:
            from ..core import entry as _num
        t = self.t
        if self.record is None or self.cfg is not t.cfg:
            c = t.cfg
            face = t.face
            rec = {"game": c["game"], "players": list(c["names"])}
            if len(face.MODES) > 1:             # a record that says its mode (Fit to Print)
                rec["mode"] = c["mode"]
                rec["edition"] = c["edition"]
            if t.mode == TURNS:                 # the board counted the photo tokens
                rec["photo_tokens"] = dict((c["names"][p], t.photos[p]) for p in range(t.n))
            _num.fill(rec, face, t.score, t.round + 1)
            self.record = rec
            self.cfg = c
            self.result = None
        if t.phase >= SUMMARY and t.tok and t.pick_order():
            # the finishing tokens of the round just played (the last round's break a tie)
            rnd = self.record.setdefault("rounds", [])
            while len(rnd) <= t.round:
                rnd.append({})
            names = t.cfg["names"]
            rnd[t.round]["finish"] = [names[p] for p in t.pick_order()]
        if t.mode == TURNS:
            ph = self.record["photo_tokens"]
            for p in range(t.n):
                ph[t.cfg["names"][p]] = t.photos[p]
        return self.record

    def _stages(self):
        """The rounds whose questions are asked now: (round index or None, ...)."""
        t = self.t
        if t.phase == SUMMARY:
            return (t.round,)
        if t.phase == OVER:
            return (t.round, None)
        return ()

    def _find(self, want=None, done=None):
        """The first question still open (want None; done: the (round, seat, key) of one just
        answered, its SCORE not emitted yet), or the first of the player at seat `want`,
        answered or not: (round or None, k, path, kind, label), or None."""
        rec = self._record()
        names = self.t.cfg["names"]
        face = self.t.face
        score = self.t.score
        for r in self._stages():
            fields = _num.questions(face, rec, r)
            for k in range(len(fields)):
                path, kind, label = fields[k]
                i = _num.ident(path, r, names)
                if want is not None:
                    if i[1] == want:
                        return (r, k, path, kind, label)
                elif i not in score and i != done:     # answered: its number journaled
                    return (r, k, path, kind, label)
        return None

    def _ask(self, q):
        self.q = q
        self.why = None
        if q is None:
            return
        cur = _num.get(self.record, q[2])
        names = self.t.cfg["names"]
        if cur is not None:
            self.v = _num.number(q[3], cur, names)
        elif q[3] == "player":
            self.v = -1
        else:
            self.v = 0

    def _sync(self):
        """Find the question again when the table moved on (a new summary, the game over)."""
        t = self.t
        if self.key != t.version:
            self.key = t.version
            if t.phase < SUMMARY:
                self.q = None
                self.on = False
                self.record = None      # made again from the table's numbers at the summary
                return
            if not self.on:
                # scoring starts with the knob (turn or back key), or goes on after a reboot
                # when this round has numbers already; else the knob's press is the next round
                for k in t.score:
                    if (k[0] == t.round or k[0] == 255) and not self.full:
                        self.on = True
                if not self.on:
                    self.q = None
                    return
            self.result = None
            self._ask(self._find())

    def _begin(self):
        """The knob turned (or the back key) in a summary: the players score it."""
        if self.full:
            return
        self.on = True
        self.key = -1
        self.dirty = True
        self._sync()

    def _full(self):
        """No room left on this board's heap to score (a 6-player Fit to Print game on the
        MacroPad, docs/benchmarks.md): every number confirmed is journaled already (a SCORE is
        emitted last, core/entry.py's check before it), so sync brings them and `enter` asks
        the rest. Scoring stops until a reboot; the board goes on as the timer, the screen
        says so."""
        self.full = True
        self.on = False
        self.q = self.record = self.result = self.shown = None
        self.key = -1
        self.dirty = True
        gc.collect()

    def asking(self):
        self._sync()
        return self.q is not None

    # ---- the inputs ---------------------------------------------------------------------
    def step(self, port):
        d = port.knob()
        if d:
            self.turn(d)
        st = self.t.standings
        lines = self.screen()
        if lines is not None:
            port.show_lines(lines)
        return self.t.standings is not st

    def press(self, b):
        if b == -1:
            return self.confirm()
        if b == -2:
            return self.back()
        return self.pick(b)

    def turn(self, d):
        if not d or self.t.phase < SUMMARY:
            return False
        if not self.on:
            self._begin()
            return True
        if not self.asking():
            return False
        kind = self.q[3]
        v = self.v + d
        if kind == "yes/no":
            v %= 2
        elif type(kind) is tuple:       # a choice: its words
            v %= len(kind[0])
        elif kind == "player":
            v = (v + 1) % (self.t.n + 1) - 1
        self.v = v
        self.why = None
        self.dirty = True
        return True

    def confirm(self):
        if not self.asking():
            return False
        self.dirty = True
        r, k, path, kind, label = self.q
        rec = self.record
        names = self.t.cfg["names"]
        value = _num.answer(kind, self.v, names)
        bad = _num.problems(rec, path, value)
        if bad:
            m = bad[0]
            i = m.rfind(": ")           # the place is the question's: the screen shows it
            m = m[i + 2:] if i >= 0 else m
            i = m.find(" (got ")        # and the number given
            self.why = m[:i] if i > 0 else m
            return True
        rnd, seat, key = _num.ident(path, r, names)
        v = self.v
        _num.put(rec, path, value)
        q = self._find(None, (rnd, seat, key))
        # the event last: a MemoryError before it leaves nothing half done (the question is
        # asked again); after it, the app journals it before the screen moves on (App.step)
        self.t._emit((_num.SCORE, rnd, seat, v, key))
        self.key = self.t.version
        self.result = None
        self._ask(q)
        return True

    def back(self):
        if self.t.phase < SUMMARY:
            return False
        self.dirty = True
        self._sync()
        if not self.on:
            self._begin()
            return True
        prev = None
        rec = self._record()
        for r in self._stages():
            fields = _num.questions(self.t.face, rec, r)
            for k in range(len(fields)):
                if self.q is not None and (r, k) == self.q[:2]:
                    if prev is not None:
                        self._ask(prev)
                    return True
                path, kind, label = fields[k]
                prev = (r, k, path, kind, label)
        if self.q is None and prev is not None:
            self._ask(prev)     # from the scores: the last question again
        return True

    def pick(self, seat):
        self._sync()
        if self.t.phase < SUMMARY or not self.on:
            return False
        self.dirty = True
        self._sync()
        q = self._find(seat)
        if q is not None:
            self._ask(q)
        return True

    # ---- the screen ----------------------------------------------------------------------
    def screen(self):
        """The screen's lines when something changed since the last call (the table's
        version, or an input), else None: nothing is made on a loop step that changed nothing."""
        if self.seen == self.t.version and not self.dirty:
            return None
        self.seen = self.t.version
        self.dirty = False
        lines = self._lines()
        if lines == self.shown:
            return None
        self.shown = lines
        return lines

    def _lines(self):
        t = self.t
        c = t.cfg
        if c is None:
            return ["presstime", "no game set up"]
        face = t.face
        self._sync()
        if t.phase < SUMMARY:
            # (nothing of the face beyond the round machine's: its words and checks are
            # loaded only when a round is scored)
            day = t.day()
            head = "round %d/%d" % (t.round + 1, c["rounds"])
            return [head + (" " + day if day else ""), _PHASE[t.phase]]
        self._sync()
        if not self.on:
            if self.full:
                return ([("game over" if t.phase == OVER else
                          "round %d/%d over" % (t.round + 1, c["rounds"]))]
                        + self._wrap("no room to score here: presstime sync, then enter", 3))
            if t.phase == OVER:
                return ["game over", "turn the knob:", "the scores"]
            # (wrapped: a Pico's screen is 16 characters wide)
            return (["round %d/%d over" % (t.round + 1, c["rounds"])]
                    + self._wrap("turn the knob: score", 2) + self._wrap("press: next round", 2))
        q = self.q
        if q is not None:
            r, k, path, kind, label = q
            names = c["names"]
            seat = _num.ident(path, r, names)[1]
            head = "end" if r is None else "%s %d" % (face.ROUND_WORD, r + 1)
            if seat != 255:
                head += " " + names[seat]
            v = self.v
            if kind == "yes/no":
                shown = "yes" if v else "no"
            elif type(kind) is tuple:
                shown = kind[0][v]
            elif kind == "player":
                shown = names[v] if 0 <= v < len(names) else "nobody"
            else:
                shown = "%d" % v
            # the same lines in the same places: a knob's turn changes the number's line (and
            # the reason's, below it) only, so the screen redraws just those (ports/macropad.py)
            out = [head] + self._wrap(label, 2)
            while len(out) < 3:
                out.append("")
            out.append("> " + shown)
            if self.why is not None:
                out.append(self.why[:self.cols])
            return out
        return self._scores()

    def _scores(self):
        t = self.t
        res = self.result
        if res is None:
            rec = self._record()
            if games.check(rec):
                res = self.result = 0           # numbers still missing (an earlier round)
            else:
                res = self.result = games.score(rec)
                self._standings(res)
        if not res:
            if t.phase == OVER:
                return ["numbers missing:", "sync, then enter"]
            return ["%s %d done" % (t.face.ROUND_WORD, t.round + 1), "press: next"]
        rows = []
        for p in res["players"]:
            rows.append(p)
        rows.sort(key=_total, reverse=True)
        out = []
        if t.phase == OVER:
            w = res.get("winners") or []
            out.append(("won: " + " ".join(w)) if w else "no winner")
        else:
            out.append("%s %d scores" % (t.face.ROUND_WORD, t.round + 1))
        for p in rows[:self.rows - 1]:
            tot = p.get("total")
            rs = p.get("rounds")
            s = "%s %s" % (p["name"], "-" if tot is None else "%d" % tot)
            if t.phase != OVER and rs and len(rs) > t.round and "score" in rs[t.round]:
                s += " (+%d)" % rs[t.round]["score"]
            out.append(s)
        return [x[:self.cols] for x in out]

    def _standings(self, res):
        """The lights show the totals and, once the game is over, the winner (core/lights.py)."""
        t = self.t
        names = t.cfg["names"]
        totals = []
        for p in res["players"]:
            totals.append(p.get("total") or 0)
        w = res.get("winners") or []
        t.standings = {"totals": totals, "out": [names.index(p["name"]) for p in res["players"]
                                                 if p.get("out_of_business")],
                       "winner": names.index(w[0]) if t.phase == OVER and len(w) == 1 else None}

    def _wrap(self, text, n):
        out = []
        w = self.cols
        while text and len(out) < n:
            if len(text) <= w:
                out.append(text)
                break
            i = text.rfind(" ", 0, w + 1)
            if i <= 0:
                i = w
            out.append(text[:i])
            text = text[i:].lstrip()
        return out


_PHASE = ("set-up", "ready?", "3-2-1", "playing", "paused", "last presses", "summary", "over")


def _total(p):
    t = p.get("total")
    return t if t is not None else -1


current = None      # the Entry of the app that started it (start)


def start(table, port):
    global current
    current = Entry(table, port)
    return current


def step(port):
    try:
        return current.step(port)
    except MemoryError:
        current._full()
        return False


def press(b):
    try:
        return current.press(b)
    except MemoryError:
        current._full()
        return True     # a confirm's press: not also the next round
