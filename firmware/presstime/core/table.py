# SPDX-License-Identifier: MIT
"""The round machine: Fit to Print's table flow and the other table modes, pure and clocked
from outside.

    t = Table()
    t.configure({"players": [{"name": "Ada", "colour": "#ff0000"}, "Ben"], "mode": "standard",
                 "duration_ms": 240000, "options": {"grace_ms": 5000}}, t_ms)
    t.press(player, t_us)     # a player's button (first edge, µs since boot)
    t.control(t_ms)           # control button short press: start / next / resume
    t.tick(t_ms)              # every loop: countdown end, time-out, grace end
    t.status(t_ms) -> dict    # what the lights and the link read
    t.drain() -> [event]      # events for the journal (core/events.py), oldest first
    t.version                 # +1 on every state change; the link refuses stale commands

Commands return True when they changed state, False when they do not apply now (they never
raise, except configure on a bad set-up: ValueError naming the field).
    ready(p, t_ms), start(t_ms), press(p, t_us), photo(p, t_ms), pass_turn(p, t_ms),
    pause(t_ms), resume(t_ms), toggle_pause(t_ms), abort(t_ms), next(t_ms), undo(t_ms),
    end(t_ms), recover(elapsed_ms) [boot after a power cut], command(name, t_ms).
    alert(t_ms) -> 0, 60, 30 or 10: the last time warning passed (the app beeps on a change).
    elapsed_ms(t_ms): round time (pauses excluded); round_id: counts rounds that went.

State changes happen only in `apply(event)` (also used by events.replay), so the journal
rebuilds the machine exactly. Decisions (which token, tie winner, time-out) are taken by the
commands above and recorded in the events.

Flow (Fit to Print modes standard, solo, family, puzzle): set-up -> ready check ("ready": every
player presses, or the control button starts) -> "countdown" 3-2-1 (3000 ms) -> "running" ->
"Print!" takes the lowest unclaimed token and locks the button -> everyone done, or time-out ->
"grace" window (grace_ms; token modes): presses take the next tokens in press order, the rest
in seat order ("seat") or rotating priority ("rotate") -> "summary" (pick order = token order)
-> next -> Friday, Saturday, Sunday -> "over". "paused" from running; abort restarts the round.
Two-step: the first press is "Layout!" (layout_us), the second "Print!" (print_us).

Ties: a token press less than tie_us (default 1000 µs) of round time after the previous token
press is a tie. The tied presses share their tokens by rotating priority: in round r (0-based)
the seat order starts at player r % n, so the favoured seat moves every round; pin number never
decides. Tied players carry "tied": 1 in status and F_TIE in the journal.

Undo (control button gesture, within UNDO_MS of the press): reverts the last press, turn pass or
photo token as if it had never happened; the clock kept running meanwhile. Any pause, resume,
abort or next in between makes the press final.

Modes: standard/solo (tokens, timed), family (timed, no tokens), puzzle (no tokens, stopwatch
counting up, one round), turn-based (turn indicator, one day: Saturday, control ends it),
ready-reveal (Heat: 3 heists x 4 stages; Mini FITS: 2 rounds x 13 cards; every player toggles
ready, all ready -> reveal), turns (Myth Fits: turn indicator, optional per-turn limit turn_ms,
photo tokens by long press, win at the target myth_fits.target gives: 3/4/5 for 2/3/4
players). Every game's modes, player counts, rounds, steps, round names and target come from
its face (core/games.py), loaded only for the game set up; "game" left out: the first game
played in the mode.
"""

from . import games

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

# phases
SETUP = const(0)
READYCHK = const(1)
COUNTDOWN = const(2)
RUNNING = const(3)
PAUSED = const(4)
GRACE = const(5)
SUMMARY = const(6)
OVER = const(7)
PHASES = ("setup", "ready", "countdown", "running", "paused", "grace", "summary", "over")

# player states
_WAITING = const(0)
_IS_READY = const(1)
_REPORTING = const(2)
_LAYOUT = const(3)
_PRINTED = const(4)
_LATE = const(5)
_FORCED = const(6)
STATES = ("waiting", "ready", "reporting", "layout", "printed", "late", "forced")

# modes (index in events.MODES)
_STANDARD = const(0)
_SOLO = const(1)
_FAMILY = const(2)
_PUZZLE = const(3)
_TURNBASED = const(4)
_REVEALS = const(5)
TURNS = const(6)

# ---- the events this machine emits (core/events.py encodes them for the journal and the wire)
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
_SCORE = const(18)   # a scorepad number confirmed on the board (core/entry.py's SCORE: the
#                       name is not kept in a board's RAM; device/entry.py emits it)

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
         "resume", "undo", "abort", "next", "cut", "reveal", "turn", "photo", "score")

MODES = ("standard", "solo", "family", "puzzle", "turn-based", "ready-reveal", "turns")
FALLBACKS = ("seat", "rotate")
EDITIONS = ("published", "draft")


def name(kind):
    if 0 < kind < len(NAMES):
        return NAMES[kind]
    return "?%d" % kind


# Why Table.apply refuses an event: its ValueError's argument (const: no name, no string on the
# board; the desktop reads them here and says it in words, host/presstime/journal_damage.py).
_R_KIND = const(1)      # an unknown kind, or the wrong number of fields
_R_SETUP = const(2)     # an event before any set-up
_R_UNDO = const(3)      # an undo with nothing to undo
_R_NOW = const(4)       # a kind that this phase or this mode never emits (a next while running)
_R_SEAT = const(5)      # a seat the game does not have
_R_FIT = const(6)       # a press or a turn that does not fit the round: the seat is done, it is
#                         not its turn, a token out of order, a layout press out of two-step

_COUNTDOWN_MS = const(3000)
UNDO_MS = const(5000)
WARNINGS = (60000, 30000, 10000)


def normalise(cfg, urandom=None):
    """A configure dict (as the link sends it) -> the flat set-up the CONFIG event carries
    (ValueError naming the field). The checks are core/config.py's, imported for the call and
    dropped from RAM after it: 4 KB of code and messages (x86-64) a board needs only at a
    set-up, not while it plays (docs/benchmarks.md). urandom: the board's random source, which
    draws turn-based mode's first player when the set-up names none."""
    import sys
    from . import config
    name = config.__name__
    try:
        return config.normalise(cfg, sys.modules[__name__], urandom)
    finally:
        config = None
        del sys.modules[name]
        delattr(sys.modules[name[:-7]], "config")   # the import put it on the package too


class Table:
    """The round machine. See the module docstring for the API and the rules."""

    def __init__(self):
        self.cfg = None
        self.face = None        # the game's face (core/games.py), from the set-up
        self.mode = _STANDARD
        self.n = 0
        self.version = 0
        self.phase = SETUP
        self.round = 0          # 0-based round (day) index
        self.round_id = 0       # counts GO events
        self.go_version = 0     # version right after the last GO (names a round's checkpoints)
        self.now = 0            # latest wall ms seen
        self.reveal_t = None    # wall ms of the last reveal (display only, not journaled)
        self.standings = None   # pushed by the desktop: shown by the lights
        self.score = None       # (round, seat, key) -> value: the game's SCORE events, from its
        #                         CONFIG (the name is the kind's, in NAMES: none more in RAM)
        self._out = []
        self._snap = None
        self._snap_t = None
        self._new_round()

    # ---- state ------------------------------------------------------------------------
    def _new_round(self):
        n = self.n
        self.ps = [_WAITING] * n
        self.tok = [0] * n
        self.t_layout = [-1] * n    # round µs of "Layout!" (two-step)
        self.t_print = [-1] * n     # round µs of "Print!" / done (-1: forced)
        self.tie = [0] * n
        self.photos = [0] * n
        self.next_tok = 1
        self.base = 0               # round ms at the start of the current segment
        self.seg = None             # wall ms when the current running segment began
        self.cd_t = 0               # wall ms of the countdown start
        self.last_us = -1           # round µs of the last token press (ties)
        self.grp = 0                # first token of the current tie group
        self.turn = ((self.round + self.cfg.get("first", 0)) % self.n) if self.n else 0
        self.turn_base = 0          # round ms when the current turn began
        self.step = 0               # ready-reveal: reveals done in this round
        self.winner = -1
        self.end_reason = 0
        self._snap = None

    def _save(self):
        self._snap = None       # the last snapshot may go before this one is made (the heap)
        return (self.phase, list(self.ps), list(self.tok), list(self.t_layout),
                list(self.t_print), list(self.tie), list(self.photos), self.next_tok,
                self.base, self.seg, self.last_us, self.grp, self.turn, self.turn_base,
                self.winner, self.end_reason)

    def _restore(self, s):
        (self.phase, self.ps, self.tok, self.t_layout, self.t_print, self.tie, self.photos,
         self.next_tok, self.base, self.seg, self.last_us, self.grp, self.turn,
         self.turn_base, self.winner, self.end_reason) = s

    def _tokens(self):
        return self.mode in (_STANDARD, _SOLO)

    def _timed(self):
        return self.mode in (_STANDARD, _SOLO, _FAMILY)

    def _turnmode(self):
        return self.mode in (_TURNBASED, TURNS)

    def _rounds(self):
        return self.cfg["rounds"] if self.cfg else 1

    def _prio(self, p):
        """Rotating priority: smaller wins a tie; the favoured seat moves every round."""
        return (p - self.round) % self.n

    def _done(self, p):
        return self.ps[p] >= _PRINTED

    def _all_done(self):
        for p in range(self.n):
            if self.ps[p] < _PRINTED:
                return False
        return True

    def elapsed_ms(self, t_ms=None):
        """Round time in ms (pauses excluded), from the accumulated segments: no drift."""
        if self.seg is None:
            return self.base
        if t_ms is None:
            t_ms = self.now
        return self.base + (t_ms - self.seg)

    def _elapsed_us(self, t_us):
        if self.seg is None:
            return self.base * 1000
        e = self.base * 1000 + (t_us - self.seg * 1000)
        return e if e > 0 else 0

    # ---- the only place state changes --------------------------------------------------
    def apply(self, ev):
        """Apply one event (live, replayed from the journal, or rebuilt by the desktop's sync).

        The one judge of what the machine takes: an event it cannot apply raises ValueError whose
        argument is a code saying why (_R_* above: the desktop words it, journal_damage.py), and
        the machine is left exactly as it was (every check comes before the first change).
        Events come as core/events.decode gives them (int fields)."""
        # ---- the checks: nothing changes before they all pass (a press's fit to the round: in
        # its branch below, before its first change). `checks`: three rows indexed by
        # kind (-, CONFIG, READY, START, GO, PRESS, TIMEOUT, FORCE, END | PAUSE, RESUME, UNDO,
        # ABORT, NEXT, CUT, REVEAL, TURN, PHOTO, SCORE): the event's number of items (the kind
        # included); one bit per phase (SETUP 1, READYCHK 2 ... OVER 128) and one per mode
        # (index in MODES: standard 1 ... turns 64) in which the commands emit it. A bytes
        # constant in the code: no heap for a table, no name for the board to keep.
        checks = (b"\x00\x02\x03\x02\x02\x05\x01\x01\x03\x02\x02\x01\x01\x01\x02\x01\x04\x03\x05"
                  b"\x00\xff\x02\x02\x06\x28\x08\x20\x38\x08\x10\xff\x7e\x40\x08\x02\x08\x18\xc0"
                  b"\x00\x7f\x2f\x0f\x5f\x0f\x07\x07\x5f\x5f\x5f\x7f\x7f\x7f\x5f\x20\x50\x40\x7f")
        k = ev[0]
        if not 0 < k < 19 or len(ev) != checks[k]:     # 19 kinds: NAMES
            raise ValueError(_R_KIND)
        ph = self.phase
        if k == CONFIG:
            pass
        elif self.cfg is None:
            raise ValueError(_R_SETUP)
        elif k == UNDO:
            if not self._snap:
                raise ValueError(_R_UNDO)
        elif not (checks[19 + k] >> ph) & 1 or not (checks[38 + k] >> self.mode) & 1 or \
                (k == GO and (ph == READYCHK) != self._turnmode()) or \
                (k == ABORT and ph == READYCHK and self.mode != _REVEALS):
            raise ValueError(_R_NOW)
        elif k in (READY, PRESS, TURN, PHOTO):
            p = ev[1]
            if not 0 <= p < self.n:
                raise ValueError(_R_SEAT)
            if k == TURN and p != self.turn:
                raise ValueError(_R_FIT)
        elif k == _SCORE:
            # (SCORE, round, seat, value, key): round 255 is the game's end numbers (asked once
            # it is over), seat 255 a question of no one player's; the key names the question
            # in the game's face (its `fields` path's last item), the value a whole number
            if not (type(ev[4]) is str and 0 < len(ev[4]) < 25 and type(ev[3]) is int and
                    -0x40000000 <= ev[3] < 0x40000000):
                raise ValueError(_R_KIND)
            if ev[2] != 255 and not 0 <= ev[2] < self.n:
                raise ValueError(_R_SEAT)
            if ev[1] == 255 and ph != OVER or ev[1] != 255 and ev[1] > self.round:
                raise ValueError(_R_FIT)
        # ---- the change
        if k == CONFIG:
            c = ev[1]
            face = games.module(c["game"])
            self.mode = MODES.index(c["mode"])
            self.cfg = c
            self.face = face
            self.n = len(c["names"])
            self.round = 0
            self.score = {}
            self.phase = READYCHK
            self._new_round()
        elif k == READY:
            self.ps[ev[1]] = _IS_READY if ev[2] else _WAITING
        elif k == START:
            self.phase = COUNTDOWN
            self.cd_t = ev[1]
            self._snap = None
        elif k == GO:
            self.phase = RUNNING
            self.base = 0
            self.seg = ev[1]
            self.turn_base = 0
            self.round_id += 1
            self.go_version = self.version + 1     # identifies this round's checkpoints
            for p in range(self.n):
                self.ps[p] = _REPORTING
        elif k == PRESS:
            p, token, flags, e_us = ev[1], ev[2], ev[3], ev[4]
            if self.ps[p] >= _PRINTED or token > self.next_tok or (
                    flags & F_LAYOUT and (self.ps[p] != _REPORTING or token or not self.cfg["two_step"])) or (
                    not flags & F_LAYOUT and (not token) == self._tokens()):
                raise ValueError(_R_FIT)    # still before any change
            self._snap = self._save()
            if flags & F_LAYOUT:
                self.ps[p] = _LAYOUT
                self.t_layout[p] = e_us
            else:
                if token:
                    for q in range(self.n):
                        if self.tok[q] >= token:
                            self.tok[q] += 1
                    self.tok[p] = token
                    self.next_tok += 1
                    if flags & F_TIE:
                        for q in range(self.n):
                            if self.tok[q] >= self.grp:
                                self.tie[q] = 1
                    else:
                        self.grp = token
                    self.last_us = e_us
                self.ps[p] = _LATE if flags & F_LATE else _PRINTED
                self.t_print[p] = e_us
        elif k == TIMEOUT:
            self.phase = GRACE
        elif k == FORCE:
            order = list(range(self.n))
            if self.cfg["grace_fallback"] == "rotate":
                order.sort(key=self._prio)
            for p in order:
                if self.ps[p] < _PRINTED:
                    self.ps[p] = _FORCED
                    if self._tokens():
                        self.tok[p] = self.next_tok
                        self.next_tok += 1
        elif k == END:
            self.phase = SUMMARY
            self.end_reason = ev[1]
            self.base = ev[2]
            self.seg = None
        elif k == PAUSE or k == CUT:
            self.phase = PAUSED
            self.base = ev[1]
            self.seg = None
            self._snap = None
            if k == CUT:
                self.last_us = -1
        elif k == RESUME:
            self.phase = RUNNING
            self.seg = ev[1]
            self._snap = None
        elif k == UNDO:
            self._restore(self._snap)
            self._snap = None
        elif k == ABORT:
            self.phase = READYCHK
            self._new_round()
        elif k == NEXT:
            if self.round + 1 >= self._rounds():
                self.phase = OVER
                self._snap = None
            else:
                self.round += 1
                self.phase = READYCHK
                self._new_round()
        elif k == REVEAL:
            self.step += 1
            for p in range(self.n):
                self.ps[p] = _WAITING
            if self.step >= self.cfg["steps"]:
                self.phase = SUMMARY
                self.end_reason = END_ALL
        elif k == TURN:
            self._snap = self._save()
            self.turn = (ev[1] + 1) % self.n
            self.turn_base = ev[3]
        elif k == PHOTO:
            self._snap = self._save()
            p = ev[1]
            self.photos[p] += 1
            tgt = self.cfg["target"]
            if tgt and self.photos[p] >= tgt:
                self.winner = p
                self.phase = SUMMARY
                self.end_reason = END_WIN
                self.base = ev[2]       # the round time of the win, as the command decided it
                self.seg = None
        elif k == _SCORE:
            self.score[(ev[1], ev[2], ev[4])] = ev[3]
        self.version += 1

    def lost(self):
        """A replay skipped a journal record here (apply refused it, or it did not decode):
        whatever it did cannot be undone, so an UNDO after it is refused. The board's boot
        and the desktop's sync both call this: one rule for what an undo takes back."""
        self._snap = None

    def _emit(self, ev):
        self.apply(ev)
        self._out.append(ev)

    def drain(self):
        """Events emitted since the last drain, oldest first (for the journal); () when there
        are none (the board's loop drains every step: no new list then)."""
        out = self._out
        if not out:
            return ()
        self._out = []
        return out

    # ---- time ---------------------------------------------------------------------------
    def tick(self, t_ms):
        """Advance to wall time t_ms: countdown end, time-out and grace end happen at their exact
        deadline (the event carries it), however late the loop calls."""
        if t_ms > self.now:
            self.now = t_ms
        t = self.now
        ph = self.phase
        if ph == COUNTDOWN and t - self.cd_t >= _COUNTDOWN_MS:
            self._emit((GO, self.cd_t + _COUNTDOWN_MS))
            ph = self.phase
        if ph == RUNNING and self._timed():
            if self.elapsed_ms(t) >= self.cfg["duration_ms"]:
                self._timeout()
                ph = self.phase
        if ph == GRACE and self.elapsed_ms(t) >= self.cfg["duration_ms"] + self.cfg["grace_ms"]:
            self._emit((FORCE,))
            self._emit((END, END_GRACE, self.cfg["duration_ms"]))

    def _timeout(self):
        self._emit((TIMEOUT,))
        if not (self._tokens() and self.cfg["grace_ms"] > 0):
            self._emit((FORCE,))
            self._emit((END, END_TIME, self.cfg["duration_ms"]))

    def alert(self, t_ms=None):
        """0, or the last warning threshold (ms left: cfg warn, by default WARNINGS) the round passed
        (thresholds not below the round's duration are skipped);
        in turns modes with a turn limit: 10000 when the turn ran over."""
        if self.phase not in (RUNNING, PAUSED):
            return 0
        if self._turnmode():
            lim = self.cfg["turn_ms"]
            if lim and self.elapsed_ms(t_ms) - self.turn_base >= lim:
                return 10000
            return 0
        if not self._timed():
            return 0
        left = self.cfg["duration_ms"] - self.elapsed_ms(t_ms)
        level = 0
        for w in self.cfg.get("warn", WARNINGS):
            if left <= w < self.cfg["duration_ms"]:
                level = w
        return level

    # ---- commands ----------------------------------------------------------------------
    def configure(self, cfg, t_ms=0, urandom=None):
        """Set up a new game (ValueError naming the field on a bad set-up); urandom: see
        normalise (the first player of turn-based mode, drawn into the CONFIG event)."""
        self._emit((CONFIG, normalise(cfg, urandom)))
        self._snap_t = None
        return True

    def ready(self, p, t_ms):
        if self.phase != READYCHK or not 0 <= p < self.n:
            return False
        self.tick(t_ms)
        if self.mode == _REVEALS:
            self._emit((READY, p, 0 if self.ps[p] == _IS_READY else 1))
            if self._all_ready():
                self._emit((REVEAL,))
                self.reveal_t = t_ms
            return True
        if self._turnmode():
            return self.start(t_ms)     # any player's press starts a turn game
        if self.ps[p] == _IS_READY:
            return False
        self._emit((READY, p, 1))
        if self._all_ready():
            self.start(t_ms)
        return True

    def _all_ready(self):
        for s in self.ps:
            if s != _IS_READY:
                return False
        return True

    def start(self, t_ms):
        """Control start: from the ready check (not everyone needs to be ready)."""
        if self.phase != READYCHK:
            return False
        self.tick(t_ms)
        if self.mode == _REVEALS:
            self._emit((REVEAL,))
            self.reveal_t = t_ms
        elif self._turnmode():
            self._emit((GO, t_ms))
        else:
            self._emit((START, t_ms))
        return True

    def press(self, p, t_us):
        """A player's button went down at t_us (µs since boot, first edge)."""
        if not 0 <= p < self.n:
            return False
        t_ms = t_us // 1000
        self.tick(t_ms)
        ph = self.phase
        if ph == READYCHK:
            return self.ready(p, t_ms)
        if ph == RUNNING and self._turnmode():
            return self.pass_turn(p, t_ms)
        if ph not in (RUNNING, GRACE) or self.ps[p] >= _PRINTED:
            return False
        e_us = self._elapsed_us(t_us)
        if self.cfg["two_step"] and self.ps[p] == _REPORTING:
            self._emit((PRESS, p, 0, F_LAYOUT, e_us))
        else:
            flags = F_LATE if ph == GRACE else 0
            token = 0
            if self._tokens():
                token = self.next_tok
                if self.last_us >= 0 and e_us - self.last_us < self.cfg["tie_us"]:
                    flags |= F_TIE
                    # the tie group holds tokens grp..next_tok-1: p goes before every member
                    # with a lower priority (rotating seat order)
                    mine = self._prio(p)
                    for tk in range(self.grp, self.next_tok):
                        q = self.tok.index(tk)
                        if self._prio(q) > mine:
                            token = tk
                            break
            self._emit((PRESS, p, token, flags, e_us))
            if self._all_done():
                self._emit((END, END_GRACE if ph == GRACE else END_ALL,
                            self.cfg["duration_ms"] if ph == GRACE else e_us // 1000))
        self._snap_t = t_ms
        return True

    def pass_turn(self, p, t_ms):
        """Turn modes: the active player ends their turn (other players' presses are ignored)."""
        if self.phase != RUNNING or not self._turnmode() or p != self.turn:
            return False
        self.tick(t_ms)
        e = self.elapsed_ms(t_ms)
        self._emit((TURN, p, e - self.turn_base, e))
        self._snap_t = t_ms
        return True

    def photo(self, p, t_ms):
        """Turns mode (Myth Fits): a long press on player p's button adds a photo token."""
        if self.mode != TURNS or self.phase not in (RUNNING, PAUSED) or not 0 <= p < self.n:
            return False
        self.tick(t_ms)
        self._emit((PHOTO, p, self.elapsed_ms(t_ms)))
        self._snap_t = t_ms
        return True

    def pause(self, t_ms):
        if self.phase != RUNNING:
            return False
        if t_ms < self.seg:
            t_ms = self.seg
        self.tick(t_ms)
        if self.phase != RUNNING:
            return False
        self._emit((PAUSE, self.elapsed_ms(t_ms)))
        return True

    def resume(self, t_ms):
        if self.phase != PAUSED:
            return False
        self.tick(t_ms)
        self._emit((RESUME, t_ms))
        self.tick(t_ms)
        return True

    def toggle_pause(self, t_ms):
        if self.phase == PAUSED:
            return self.resume(t_ms)
        return self.pause(t_ms)

    def abort(self, t_ms):
        """Discard the current round: back to its ready check (the day does not advance)."""
        if self.phase in (SETUP, OVER) or (self.phase == READYCHK and self.mode != _REVEALS):
            return False
        self._emit((ABORT,))
        return True

    def next(self, t_ms):
        if self.phase != SUMMARY:
            return False
        self._emit((NEXT,))
        return True

    def end(self, t_ms):
        """Turn modes: the table ends the round (control button)."""
        if not self._turnmode() or self.phase not in (RUNNING, PAUSED):
            return False
        self._emit((END, END_CONTROL, self.elapsed_ms(t_ms)))
        return True

    def undo(self, t_ms):
        """Revert the last press / turn pass / photo token if it is under UNDO_MS old."""
        if self._snap is None or self._snap_t is None or t_ms - self._snap_t > UNDO_MS:
            return False
        self._emit((UNDO,))
        self._snap_t = None
        self.tick(t_ms)
        return True

    def control(self, t_ms):
        """Control button short press: start the round, go to the next, resume, or end a turn
        game."""
        ph = self.phase
        if ph == READYCHK:
            return self.start(t_ms)
        if ph == SUMMARY:
            return self.next(t_ms)
        if ph == PAUSED:
            return self.resume(t_ms)
        if ph == RUNNING and self._turnmode():
            return self.end(t_ms)
        return False

    def command(self, name, t_ms):
        """Named command from the desktop: start, pause, resume, abort, next, undo, end."""
        f = {"start": self.start, "pause": self.pause, "resume": self.resume,
             "abort": self.abort, "next": self.next, "undo": self.undo, "end": self.end,
             "control": self.control}.get(name)
        if f is None:
            raise ValueError("command: unknown %r" % (name,))
        return f(t_ms)

    def recover(self, elapsed_ms):
        """Boot after a power cut: a round that was running (or counting down, or in its grace
        window) is made safe. Running -> paused at `elapsed_ms` (the app's last checkpoint, at
        most 1 s old); countdown -> back to the ready check; grace -> the rest in fallback
        order. Returns True if it changed anything."""
        ph = self.phase
        if ph == RUNNING:
            e = elapsed_ms if elapsed_ms > self.base else self.base
            for v in self.t_print + self.t_layout:
                if v // 1000 > e:
                    e = v // 1000
            if self.turn_base > e:
                e = self.turn_base
            if self._timed() and e > self.cfg["duration_ms"]:
                e = self.cfg["duration_ms"]
            self._emit((CUT, e))
            return True
        if ph == COUNTDOWN:
            self._emit((ABORT,))
            return True
        if ph == GRACE:
            self._emit((FORCE,))
            self._emit((END, END_GRACE, self.cfg["duration_ms"]))
            return True
        return False

    # ---- what the lights and the link read ---------------------------------------------
    def remaining_ms(self, t_ms=None):
        if not self.cfg or not self._timed():
            return None
        ph = self.phase
        if ph in (READYCHK, COUNTDOWN):
            return self.cfg["duration_ms"]
        r = self.cfg["duration_ms"] - self.elapsed_ms(t_ms)
        return r if r > 0 else 0

    def pick_order(self):
        """Players by token (token 1 picks the next centerpiece first)."""
        order = [p for p in range(self.n) if self.tok[p]]
        order.sort(key=lambda p: self.tok[p])
        return order

    def day(self):
        """The name of the round (Fit to Print's day), as the game's face gives it, or None."""
        if not self.cfg:
            return None
        return self.face.round_name(self.cfg["mode"], self.round)

    def status(self, t_ms=None, st=None):
        """A dict for the lights, the link and the simulator (plain JSON-able values).

        st: a status this table gave before, for the same set-up (its players' count, game
        and mode): its values are rewritten in place and it is returned, so the board's lights
        keep one dict (and its players' dicts) for a whole game instead of a new set per
        version (no garbage, nothing that moves in the heap; docs/benchmarks.md)."""
        if t_ms is None:
            t_ms = self.now
        c = self.cfg
        if st is None or not c or st.get("game") != c["game"] or st["mode"] != c["mode"] \
                or len(st["players"]) != self.n:
            st = {"version": self.version, "phase": PHASES[self.phase], "t_ms": t_ms,
                  "mode": c["mode"] if c else None, "players": []}
            if not c:
                return st
            for p in range(self.n):
                st["players"].append({})
        else:
            st["version"] = self.version
            st["phase"] = PHASES[self.phase]
            st["t_ms"] = t_ms
        st["game"] = c["game"]
        st["day"] = self.day()
        st["round"] = self.round + 1
        st["rounds"] = c["rounds"]
        st["duration_ms"] = c["duration_ms"] if self._timed() else None
        st["remaining_ms"] = None       # the fields that move with time: refresh() below
        st["elapsed_ms"] = 0
        st["countdown"] = 0
        st["alert_ms"] = 0
        st["tokens"] = self._tokens()
        st["two_step"] = c["two_step"]
        st["end_reason"] = self.end_reason
        st["pick_order"] = self.pick_order()
        st["winner"] = self.winner
        st["undo"] = False
        if self._turnmode():
            st["turn"] = self.turn
            st["turn_ms"] = 0
            st["turn_limit_ms"] = c["turn_ms"]
            if self.mode == _TURNBASED:
                st["first"] = c.get("first", 0)     # the seat the rules' draw picked to play first
            st["target"] = c["target"]
        if self.mode == _REVEALS:
            st["step"] = self.step + 1 if self.step < c["steps"] else c["steps"]
            st["steps"] = c["steps"]
            st["steps_left"] = c["steps"] - self.step
            st["reveal_ms"] = None
        st["standings"] = self.standings
        for p in range(self.n):
            d = st["players"][p]
            d["name"] = c["names"][p]
            d["colour"] = c["colours"][p]
            d["state"] = STATES[self.ps[p]]
            d["token"] = self.tok[p]
            d["tied"] = self.tie[p]
            d["layout_ms"] = self.t_layout[p] // 1000 if self.t_layout[p] >= 0 else None
            d["print_ms"] = self.t_print[p] // 1000 if self.t_print[p] >= 0 else None
            d["print_us"] = self.t_print[p] if self.t_print[p] >= 0 else None
            d["photos"] = self.photos[p]
        return self.refresh(st, t_ms)

    def refresh(self, st, t_ms):
        """Bring a status() dict of this same version to t_ms: only the fields that move with
        time are computed again (the board's lights do this every frame instead of building
        a new status: one dict less per frame)."""
        st["t_ms"] = t_ms
        if not self.cfg:
            return st
        st["remaining_ms"] = self.remaining_ms(t_ms)
        st["elapsed_ms"] = self.elapsed_ms(t_ms) if self.phase >= RUNNING else 0
        st["countdown"] = (3 - (t_ms - self.cd_t) // 1000) if self.phase == COUNTDOWN else 0
        st["alert_ms"] = self.alert(t_ms)
        st["undo"] = self._snap is not None and self._snap_t is not None and \
            t_ms - self._snap_t <= UNDO_MS
        if "turn_ms" in st:
            st["turn_ms"] = self.elapsed_ms(t_ms) - self.turn_base if self.phase >= RUNNING else 0
        if "reveal_ms" in st:
            st["reveal_ms"] = (t_ms - self.reveal_t) if self.reveal_t is not None else None
        return st
