# SPDX-License-Identifier: MIT
"""The device main loop: buttons -> round machine -> journal, lights, beeps, link.

    app = App(port, journal, config=None)   # rebuilds the state from the journal
    app.step()                              # one loop iteration; app.run() loops forever

Link API (the serial link calls these; `app.link` is None until the link attaches itself,
and step() calls `app.link.poll()` once per iteration when set):
    app.configure(cfg_dict) -> version      # players [{name, colour}], mode, duration_ms,
                                            # edition, game, options {...}; ValueError naming
                                            # the field on a bad set-up (state unchanged)
    app.command(name, t_ms=None) -> bool    # start, pause, resume, abort, next, undo, end,
                                            # control; False when it does not apply now
    app.status() -> dict                    # Table.status(now): phase, day, remaining_ms,
                                            # players [{name, colour, state, token, ...}], version
    app.set_standings(dict)                 # {"totals": [...], "out": [seat, ...],
                                            #  "winner": seat | name | None}: shown by the lights
    app.version                             # the machine's state version (stale-command check)
    app.table                               # the Table (core/table.py)
    app.journal                             # the Journal (records(after_seq, limit), last_seq)

Control button (-1) gestures, from the edge timestamps (ControlButton, below):
    short press (< 1.5 s), alone        start / next round / resume / end a turn game
                                        (taken 0.4 s after release, to tell it from a double,
                                        and acting at that instant: release + 0.4 s)
    double press (2nd within 0.4 s)     undo the last player press (within 5 s of it); with
                                        nothing to undo it counts as one short press
    hold 1.5 s                          pause / resume (time taken at the moment it went down)
    hold 5 s                            abort the round (back to its ready check)
Player buttons: the press counts at the first edge. In turns mode (Myth Fits) a player button
held 0.8 s adds a photo token to that player instead (at down + 0.8 s); a short press ends
your turn. Every gesture's time comes from its edges, never from when the loop got to it.

Power cuts: while a round runs the app writes a tiny checkpoint file (`<journal>.run`: the
round's go-version and round ms, 8 bytes) every second of round time from the first (round
time 0 is the GO, journaled at once); on boot a round that was
running resumes paused at max(checkpoint, last journaled press): at most 1 s lost. The journal
itself only holds real events (small to sync).

Flash writes and press timing: on the RP2040 a flash write holds interrupts off; the Pico port
stamps presses with PIO (docs/press-capture.md), so their times do not move, but on its
fallback path (hard IRQ) a press during a write is stamped when the write ends. To keep writes
away from press bursts,
while a round runs or is in its grace window the events are journaled once 300 ms passed
without one (or 8 wait), and the checkpoint is skipped in that spell too; the round's GO is
written at once, in the step that starts the round (after its frame), before any press of the
round can come (journaled 300 ms later, it held the flash just when the first presses came); in
other phases, and for commands, events are written at once. A cut loses at most the events of the last 300 ms,
which the resume rule allows for (those presses are pressed again).

A port with `hold_round_writes` (ports/macropad.py) writes nothing while a token round runs or
is in its grace window: its events are journaled when the round ends (see _held); nor the ready
check's presses, journaled with the round's START.

Journal: events are appended with one append_many per write (see "Flash writes" below). On boot
the events of the current journal game (after journal.base_seq) are replayed. configure() first
starts a new journal game (journal.reset(): seq continues, the game just ended is always kept
for sync, earlier ones up to the journal's KEEP_BYTES), so a boot never replays old games.

Pixels: the port's `ring` (pixel indices of the countdown), `player_pixels` (one index per
seat; indices >= port.pixels are extra entries for plain LEDs, see core/lights.py) and
`max_channel` (brightness cap), with the defaults of the port contract (device/port.py). The
journal is read through its contract too (JournalBase, device/port.py).
"""

import os

from ..core import events as E
from ..core.lights import frame as _frame, until as _until
from ..core.table import Table, READYCHK, RUNNING, COUNTDOWN, GRACE, TURNS, WARNINGS

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_PHOTO_MS = const(800)
_CHECKPOINT_MS = const(1000)
_QUIET_MS = const(300)        # journal presses and checkpoints only after this quiet spell
_PAGE = const(64)

# beeps per event kind (journal kind numbers, core/events.py): Hz / 20 and ms / 10, two bytes
# per kind (0: no beep). START 880/80, GO 1760/300, TIMEOUT 440/700, END 660/200, PAUSE
# 500/120, RESUME 1000/120, UNDO 300/150, ABORT 300/400, REVEAL 1320/150, TURN 1000/40,
# PHOTO 1500/80. A bytes constant, not a dict of tuples: no heap for a table.
_BEEP = (b"\x00\x00\x00\x00\x00\x00"    # -, CONFIG, READY
         b"\x2c\x08\x58\x1e\x00\x00"    # START, GO, PRESS (its own tone)
         b"\x16\x46\x00\x00\x21\x14"    # TIMEOUT, FORCE, END
         b"\x19\x0c\x32\x0c\x0f\x0f"    # PAUSE, RESUME, UNDO
         b"\x0f\x28\x00\x00\x00\x00"    # ABORT, NEXT, CUT
         b"\x42\x0f\x32\x04\x4b\x08")   # REVEAL, TURN, PHOTO


# the warnings' beeps, first to third (Hz / 20, ms / 10): 1000/100, 1200/150, 1500/250
_WARN_BEEP = b"\x32\x0a\x3c\x0f\x4b\x19"


def _alert_beep(app, a):
    """The set-up's warnings (by default 60 s, 30 s and 10 s left; a turn over its limit: the
    last tone): beeps once when the warning level `a` changes, higher for each later one."""
    if a == app._alert:
        return
    app._alert = a
    if a:
        i = 0
        for w in app.table.cfg.get("warn", WARNINGS):
            if w > a and i < 2:
                i += 1
        app.port.beep(_WARN_BEEP[2 * i] * 20, _WARN_BEEP[2 * i + 1] * 10)


class _FileMark:
    """Checkpoint in a small file next to the journal (rewritten whole: atomic on littlefs)."""

    def __init__(self, path):
        self.path = path

    def load(self):
        try:
            with open(self.path, "rb") as f:
                return f.read()
        except OSError:
            return None

    def save(self, data):
        try:
            with open(self.path, "wb") as f:
                f.write(data)
        except OSError:
            pass


def _pack(a, b):
    """The round checkpoint: go-version and round ms, 4 bytes each, big-endian (read back in
    App._recover, which runs once a boot: no function of its own for that, whose name would
    be one more in a board's RAM)."""
    return bytes(((a >> 24) & 255, (a >> 16) & 255, (a >> 8) & 255, a & 255,
                  (b >> 24) & 255, (b >> 16) & 255, (b >> 8) & 255, b & 255))


def __getattr__(name):
    """MemJournal and MemMark (tests, boards without a writable drive) live in memstore.py,
    loaded only when asked for: a board with a journal on flash never loads them."""
    if name in ("MemJournal", "MemMark"):
        from . import memstore
        return getattr(memstore, name)
    raise AttributeError(name)


class App:
    def __init__(self, port, journal, config=None, marks=None):
        self.port = port
        if journal is None:
            from .memstore import MemJournal
            journal = MemJournal()
        self.journal = journal
        self.link = None
        self.quit = False        # set by the link ("return to the REPL"): run() ends
        self.table = Table()
        self.errors = 0          # journal records skipped on replay (bad data, or refused)
        if marks is None:
            path = port.journal_path()
            if path:
                marks = _FileMark(path + ".run")
            else:
                from .memstore import MemMark
                marks = MemMark()
        self.marks = marks
        n = port.pixels
        self._pp = port.player_pixels
        ring = port.ring
        if not ring:
            pp = self._pp or ()
            ring = tuple(i for i in range(n) if i not in pp)
        self._ring = ring
        self._cap = port.max_channel
        size = n
        if self._pp:
            for i in self._pp:
                if i >= size:
                    size = i + 1
        self._size = size
        self._px = [0] * size    # the frame, ints 0xRRGGBB, rebuilt in place (core/lights.frame)
        self._shown = [-1] * size    # the frame last handed to the port (-1: none yet)
        self._key = -1           # the machine's version the frame was built for
        self._until = 0          # ms up to which that frame stays what it is (core/lights.until)
        self._st = None          # the lights' status dict, refreshed while the version holds
        self._down = {}          # player button -> t_us of the down edge (still held)
        self._fired = {}         # player button -> a photo token fired during this hold
        self.control = ControlButton(self._short, self._double, self._hold)
        self._alert = 0
        self._ck = -1
        self._cd = -1
        self._pending = []       # encoded events not yet written (see _flush)
        self._fault = None       # journal failing: [last_seq before, ms of the next try]
        self._due = False        # step(): write them after this step's frame
        self._last_press = -_QUIET_MS
        self._hold = getattr(port, "hold_round_writes", False)
        self.entry = None        # scoring on the board's screen and knob: device/entry.py, the
        # module itself (its step and press; no class name in RAM), on a port with a screen
        # (device/port.py: screen_lines, which a port without one does not define)
        if getattr(port, "screen_lines", 0):
            from . import entry
            entry.start(self.table, port)
            self.entry = entry
        now = port.now_ms()
        self._replay()
        self._recover()
        if config is not None and self.table.cfg is None:
            self.configure(config)
        self.table.tick(now)

    # ---- boot ---------------------------------------------------------------------------
    def _replay(self):
        t = self.table
        after = self.journal.base_seq    # this game's file only
        cfg = None
        while True:
            recs = self.journal.records(after, _PAGE)
            if not recs:
                break
            for seq, payload in recs:
                after = seq
                if payload and payload[0] == E.CONFIG:
                    cfg = seq
                try:
                    t.apply(E.decode(payload))
                except ValueError:      # the machine is as it was (Table.apply)
                    self.errors += 1
                    t.lost()
            if len(recs) < _PAGE:
                break
        t.drain()
        # left on the journal for the link's game id (device/link.py), which would otherwise
        # read this game's records again at boot: (seq replayed to, seq of its CONFIG record).
        # On the journal, not the App: one more App attribute costs the board 4 KB of heap
        # (firmware_min_heap_kb 96 -> 100, docs/benchmarks.md)
        self.journal.gid = (after, cfg)

    def _recover(self):
        t = self.table
        e = 0
        d = self.marks.load()
        if d and len(d) == 8:
            # the checkpoint: go-version and round ms (_pack)
            if (d[0] << 24) | (d[1] << 16) | (d[2] << 8) | d[3] == t.go_version:
                e = (d[4] << 24) | (d[5] << 16) | (d[6] << 8) | d[7]
        t.recover(e)
        self._flush()

    # ---- link API -------------------------------------------------------------------------
    @property
    def version(self):
        return self.table.version

    def configure(self, cfg):
        self._write()
        # the board's random source draws a first player where the rules want one (turn-based)
        self.table.configure(cfg, self.port.now_ms(), os.urandom)   # ValueError: nothing changed
        j = self.journal
        if j.last_seq > j.base_seq:
            j.reset()       # a new journal game: boot replays only it; earlier ones stay for sync
        self._flush()
        return self.table.version

    def command(self, name, t_ms=None):
        if t_ms is None:
            t_ms = self.port.now_ms()
        ok = self.table.command(name, t_ms)
        self._flush()
        return ok

    def status(self):
        st = self.table.status(self.port.now_ms())
        if self._fault is not None:
            st["journal"] = "failing"   # events kept in RAM until the flash takes them
        return st

    def set_standings(self, standings):
        self.table.standings = standings
        self._key = -1
        self._st = None

    # ---- the loop ---------------------------------------------------------------------
    def run(self):
        while not self.quit:
            self.step()

    def step(self):
        """One loop iteration. Few locals here and in what runs every step: a bytecode
        function whose locals and stack pass 11 words gets its frame from the heap on each
        call, at a cost that depends on the heap's layout (docs/real-firmware.md); the work
        that only some steps have (edges, the round's timers, a frame) is in methods of its own."""
        port = self.port
        edges = port.buttons()
        now = port.now_ms()
        if edges:
            self._edges(edges)
        if self._down:
            self._holds(now)
        self.control.poll(now)
        self.table.tick(now)
        self._flush(now, True)
        quiet = now - self._last_press >= _QUIET_MS and not (self._hold and self._held())
        if self.table.phase == RUNNING or self.table.phase == COUNTDOWN:
            self._timers(now, quiet)
        if self.table.version != self._key or now >= self._until:
            self._lights(now)
        if self._pending and (self._due or quiet):
            self._write()       # after the lights: a slow flash write never holds back a frame
        self._due = False
        if self.entry is not None and self.entry.step(port):
            self._key = -1      # the entry worked out the standings: the lights show them
            self._st = None
        if self.link is not None:
            self.link.poll()    # (and a pushed status: after the frame, never before it)
        if not edges:
            port.idle(self._wait_ms(now))

    def _edges(self, edges):
        for b, down, t_us in edges:
            if b == -1:
                self.control.edge(down, t_us)
            elif b >= 0:
                self._player_edge(b, down, t_us)
            elif down and self.entry is not None:      # -2: the back key of a screen's board
                self.entry.press(b)

    def _timers(self, now, quiet):
        """A running round's warnings and checkpoint, the countdown's beeps."""
        t = self.table
        if t.phase == RUNNING:
            if not self._ring:      # no ring: until() does not wake the lights for a warning
                _alert_beep(self, t.alert(now))
            e = t.elapsed_ms(now) // _CHECKPOINT_MS
            if e and e != self._ck and quiet and not self._hold:   # (none on a FAT: _held)
                self._ck = e
                self.marks.save(_pack(t.go_version, e * _CHECKPOINT_MS))
        else:
            c = (now - t.cd_t) // 1000
            if c != self._cd:
                self._cd = c
                self.port.beep(880, 80)

    def _lights(self, now):
        """A frame is built only when the state changed or the last one expires (its next
        blink edge, ring step...: core/lights.until); it allocates nothing but a new version's
        pick order: the status dict is rewritten or refreshed in place, the frame rebuilt in
        self._px, compared with the last one shown and copied over it."""
        t = self.table
        self._key = t.version
        st = self._st
        if st is None or st["version"] != t.version:
            st = self._st = t.status(now, st)   # rewritten in place: one dict all game
        else:
            t.refresh(st, now)
        if t.phase == RUNNING:
            # the warnings (60/30/10 s left, a turn over its limit) change only at instants
            # the lights wake for (until() holds them), so they are looked at here, not every step
            _alert_beep(self, st["alert_ms"])
        px = _frame(self._px, st, now, self._ring, self._pp, self._cap)
        u = _until()
        if t.phase == COUNTDOWN:                # the status' countdown second changes
            c = t.cd_t + 1000 * ((now - t.cd_t) // 1000 + 1)
            if c < u:
                u = c
        if self._fault is not None and self._ring:
            if now // 500 & 1:
                px[self._ring[0]] = self._cap << 16     # the journal warning: the first ring pixel blinks red
            if now - now % 500 + 500 < u:
                u = now - now % 500 + 500
        self._until = u
        if px != self._shown:
            self._shown[:] = px
            self.port.show_rgb(px)

    def _wait_ms(self, now):
        """How long the loop may sleep: until the next 125 ms tick or the instant the frame
        changes (whichever comes first), the end of the double-press window, the quiet spell
        before a journal write, or the next countdown second; 25 ms while a button is held
        (hold gestures). The port wakes earlier on serial bytes and button edges
        (docs/press-capture.md)."""
        w = 125 - now % 125
        if self._until - now < w:
            w = self._until - now
        if self._down and w > 25:
            w = 25
        c = self.control.wait_ms(now)
        if c is not None and c < w:
            w = c
        if self._pending and self._last_press + _QUIET_MS - now < w and not self._held():
            w = self._last_press + _QUIET_MS - now
        t = self.table
        if t.phase == COUNTDOWN:
            c = 1000 - (now - t.cd_t) % 1000
            if c < w:
                w = c
        return w if w > 0 else 0

    def _flush(self, now=None, defer=False):
        """Journal the machine's new events and beep them. While a round runs (or is in its
        grace window) events wait until _QUIET_MS passed without one, or 8 are waiting: a flash
        write on the RP2040 holds the interrupts off, so no write happens between two close
        presses (docs/journal.md). In any other phase, and for the link's and the control
        button's commands, everything is written at once."""
        evs = self.table.drain()
        if evs:
            self._journal(evs, now, defer)

    def _journal(self, evs, now, defer):
        port = self.port
        for ev in evs:
            k = ev[0]
            self._pending.append(E.encode(ev))
            if k == E.PRESS:
                port.beep(900 if ev[3] & E.F_LAYOUT else 1200 + 100 * ev[2], 40)
            elif 0 < k < 18 and _BEEP[2 * k]:
                port.beep(_BEEP[2 * k] * 20, _BEEP[2 * k + 1] * 10)
        ph = self.table.phase
        now_ = now is None or (ph != RUNNING and ph != GRACE)
        if defer and ph == READYCHK and self._hold:
            pass    # a ready check's presses on a FAT: in RAM until the round starts (_held)
        elif now_ or ((k == E.GO or len(self._pending) >= 8) and not self._held()) \
                or (self._hold and self.table.mode == TURNS):
            # (a turns game on a FAT is written at once, before the next player's press can
            # come: after the quiet spell the write held the chip just when it might)
            if defer:
                self._due = True    # step() writes once the frame is out
            else:
                self._write()
        else:
            self._last_press = now
        if self.table.phase != RUNNING:
            self._alert = 0
            self._ck = -1
        if self.table.phase != COUNTDOWN:
            self._cd = -1

    def _held(self):
        """A port whose flash writes stop the key scan for long (`hold_round_writes`: the
        MacroPad, CircuitPython's FAT) keeps a token round's events in RAM, checkpoint included,
        until the round leaves running/grace: no write can delay or reorder a press. A power cut
        then costs the round in play (docs/journal.md). Such a port never writes the round
        checkpoint: in a turns game it cost a FAT rewrite (5-7 sector erases, ~0.3 s of held
        chip) every second of play; a cut resumes that game from its last journaled event.
        A ready check's presses are held too (each was a 56 ms sector rewrite on the FAT, half
        the ready check's CPU): journaled with the START, or with any command; a cut in the
        ready check loses them, and those players press again."""
        t = self.table
        ph = t.phase
        return self._hold and (ph == READYCHK or (ph == RUNNING or ph == GRACE) and t.mode != TURNS)

    def _write(self):
        """Journal the pending events. A write that fails (flash full, any OSError; the seq
        running out, ValueError) never stops the table: the events stay in RAM, the lights
        show the warning and device/journal_fault.py (loaded only then) tries again."""
        payloads = self._pending
        if not payloads:
            return
        if self._fault is not None:
            from .journal_fault import retry
            retry(self)
            return
        self._pending = []
        at = self.journal.last_seq
        try:
            self.journal.append_many(payloads)      # one write, one flush (one littlefs commit)
        except (OSError, ValueError):
            self._pending = payloads
            self._fault = [at, self.port.now_ms() + 2000]   # last_seq before it, next try
            self._key = -1

    # ---- gestures -----------------------------------------------------------------------
    def _short(self, t_ms):
        if self.entry is not None and self.entry.press(-1):
            return                      # the knob's press confirmed a number
        self.table.control(t_ms)        # journaled by step's _flush, as every loop's events

    def _double(self, t_ms):
        if self.entry is not None and self.entry.press(-1):
            self._flush()
            return
        if not self.table.undo(t_ms):
            self.table.control(t_ms)    # nothing to undo: it was an eager start/next
        self._flush()

    def _hold(self, t_ms, level):
        if level == 1:
            self.table.toggle_pause(t_ms)
        else:
            self.table.abort(t_ms)
        self._flush()

    def _player_edge(self, b, down, t_us):
        t = self.table
        if down and self.entry is not None and self.entry.press(b):
            return                      # after a round: that player's numbers next
        if t.mode != TURNS:
            if down:
                t.press(b, t_us)
            return
        if down:
            self._down[b] = t_us
            self._fired[b] = 0
            return
        t0 = self._down.pop(b, None)
        if t0 is None or self._fired.get(b):
            return
        if (t_us - t0) // 1000 >= _PHOTO_MS:
            # a hold the loop did not see reach 0.8 s (a CircuitPython FAT write held the chip
            # meanwhile): the token still counts from when it became long, as in _holds
            t.photo(b, t0 // 1000 + _PHOTO_MS)
        else:
            t.press(b, t0)

    def _holds(self, now):
        for b in list(self._down):
            held = now - self._down[b] // 1000
            if held >= _PHOTO_MS and not self._fired.get(b):
                self._fired[b] = 1
                self.table.photo(b, self._down[b] // 1000 + _PHOTO_MS)   # when it became long


class ControlButton:
    """The control button's gestures (press, double press, hold), from its edges' timestamps.

    In the style of micropython-async's `Pushbutton` (Peter Hinch): one small class, the settings
    are class attributes, the actions are callables given to it, and time comes in as arguments
    (µs of the edges, ms of the loop), so a test drives it with a fake clock.

        b = ControlButton(short, double, hold)
        b.edge(down, t_us)     # every edge of the button (first-edge time, debounced by the port)
        b.poll(now_ms)         # every loop: holds reached, and a short press that had no second

        short(t_ms)            a short press alone, taken DOUBLE_MS after its release (so that a
                               second press can still make it a double)
        double(t_ms)           the second press of a double, at its down edge
        hold(t_ms, level)      held LONG_MS (level 1: t_ms is when it went down) and VERY_LONG_MS
                               (level 2: t_ms is when the hold reached it); each once per hold
    A press held LONG_MS or more is a hold, never a short press; the second press of a double is
    not a short press either.
    """

    LONG_MS = 1500
    VERY_LONG_MS = 5000
    DOUBLE_MS = 400

    def __init__(self, short, double, hold):
        self._short = short
        self._double_cb = double
        self._hold = hold
        self.down_us = None     # the down edge of a press still held
        self._fired = 0         # hold levels fired during this press (bits 1, 2)
        self._single = None     # ms of a short press's release, waiting for a possible second
        self._double = False    # this press is the second of a double

    def edge(self, down, t_us):
        t_ms = t_us // 1000
        if down:
            self.down_us = t_us
            self._fired = 0
            self._double = self._single is not None and t_ms - self._single < self.DOUBLE_MS
            if self._double:
                self._single = None
                self._double_cb(t_ms)
            return
        t0 = self.down_us
        if t0 is None:
            return
        self.down_us = None
        held = (t_us - t0) // 1000
        self._holds(t0, held)
        if held < self.LONG_MS and not self._double:
            self._single = t_ms

    def poll(self, now_ms):
        if self.down_us is not None:
            self._holds(self.down_us, now_ms - self.down_us // 1000)
        s = self._single
        if s is not None and now_ms - s >= self.DOUBLE_MS:
            self._single = None
            self._short(s + self.DOUBLE_MS)     # the instant it became a short press

    def wait_ms(self, now_ms):
        """ms until poll() may have something to do (a hold level, the end of the double-press
        window; 25 while held: the loop's sleep), or None: nothing pending."""
        if self.down_us is not None:
            return 25
        if self._single is not None:
            w = self._single + self.DOUBLE_MS - now_ms
            return w if w > 0 else 0
        return None

    def _holds(self, t0_us, held):
        if held >= self.LONG_MS and not self._fired & 1:
            self._fired |= 1
            self._hold(t0_us // 1000, 1)
        if held >= self.VERY_LONG_MS and not self._fired & 2:
            self._fired |= 2
            self._hold(t0_us // 1000 + held, 2)
