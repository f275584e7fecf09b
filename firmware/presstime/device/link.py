# SPDX-License-Identifier: MIT
"""The board's end of the serial link (docs/protocol.md).

`Link(app, port)`: the app calls `poll()` once per loop iteration. It reads what the port
received (never blocks), decodes frames, dispatches each request to the app and writes one
reply per request. It never raises on what it reads, except `ReplReturn` after answering a
`repl` request: the entry points (main.py / code.py) catch it and end the loop so the REPL
and mpremote work again (the port's `restore_repl()` has already turned Ctrl-C back on).
"""

import gc

from ..core import events as _events
from ..core import framing as wire

try:
    from .. import __version__ as FIRMWARE
except ImportError:  # pragma: no cover - a stripped board package
    FIRMWARE = "?"

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        return x

_CACHE = const(8)       # replies to state-changing requests kept for retries
_FETCH = const(32)      # journal records at most in one page
_BATCH = const(8)       # journal records read at a time while a page fills
_SAME_MS = const(5000)  # a repeated read-only request within this is a retry: the same reply again
_WATCH_MS = const(3000)  # a status request with {"w": 1}: the status is pushed this long
_SETTLE_MS = const(60)   # no push this soon after a round's press (the next may be coming)
_END = "end"

_COMMANDS = {
    wire.START: "start",
    wire.PAUSE: "pause",
    wire.RESUME: "resume",
    wire.ABORT: "abort",
    wire.NEXT: "next",
    wire.END: _END,
}


class ReplReturn(Exception):
    """Raised by Link.poll() after the reply to `repl`: leave the main loop for the REPL."""


class Refused(Exception):
    """A request the link refuses with an error code (wire.E_*)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class Link:
    # while the desktop watches the status (status_reply.tick): [port ms the watch lasts until,
    # (version, second) it last got]; a class default, no instance slot until a desktop watches
    _until = None

    def __init__(self, app, port, journal=None, frame=None):
        self.app = app
        self.port = port
        self.journal = journal
        self.decoder = wire.Decoder()
        # Every reply is written and framed in this one 2 KB buffer. The entry points make
        # it (wire.Frame.board()) before the app: later the heap may have no 2 KB hole left.
        self.frame = frame if frame is not None else wire.Frame.board()
        self.extra = {}          # message type -> handler(value) -> dict (the simulator adds PRESS)
        self._cache = []         # [(type + rid + payload, reply bytes)], oldest first
        self._again = None       # (type + rid + payload, reply, port ms) of the read-only
                                 # reply now in self.frame: a retry gets it again
        self.quit = False
        self.requests = 0
        self._id = None
        # the seq the journal was scanned up to (-1: not yet) for its last CONFIG record,
        # whose seq is the game id: the app's boot replay has read this game's records and
        # left both on the journal (App._replay)
        self._scanned, self._gid = getattr(self._journal(), "gid", None) or (-1, None)
        self.board_id()          # now, while the heap is young: its code is dropped after
        self.fixed = None        # status_reply.py: (its fixed part's key, that part encoded)

    # ---- the loop's call ------------------------------------------------------------------------
    def poll(self):
        data = self.port.read()
        if data:
            for body in self.decoder.feed(data):
                self.handle(body)
                if self.quit:
                    break
        elif data is not None and self._until is not None:   # watched, nothing came: pushed
            # if it changed (None: the port asks for no push now, a press is settling)
            w = self._until
            now = self.port.now_ms()
            if now >= w[0]:
                self._until = None
            elif now - self.app._last_press >= _SETTLE_MS \
                    and w[1] != (self.version(), now // 1000):
                w[1] = (self.version(), now // 1000)
                from .status_reply import status_frame
                self._again = None  # the frame buffer is rewritten: a retry builds its reply anew
                self.port.write(status_frame(self, 0))     # request id 0: a push
        if self.quit:
            hook = getattr(self.port, "restore_repl", None)
            if hook is not None:
                hook()
            if hasattr(self.app, "quit"):
                self.app.quit = True
            raise ReplReturn()

    def handle(self, body):
        """Answer one frame body (bytes from the decoder)."""
        try:
            mtype, rid, reply, value = wire.parse(body)
        except wire.VersionError as e:
            self._again = None
            self.port.write(wire.error(e.rid, wire.E_VERSION, str(e), e.mtype, self.frame))
            return
        except wire.WireError as e:
            if len(body) >= 3:
                self._again = None
                self.port.write(wire.error(body[2], wire.E_BAD, str(e), body[1] & 0x7F, self.frame))
            return
        if reply:
            return  # replies are the desktop's business (an echo, a loop-back)
        self.requests += 1
        same = bytes(body[1:])
        again = self._again
        if again is not None and same == again[0] and self.port.now_ms() - again[2] < _SAME_MS:
            # the desktop's retry of the request just answered (same id, type and payload):
            # the same reply again, still in the frame buffer, never built a second time (a
            # status costs ms on the chip; rebuilding each retry made a slow board slower)
            self.port.write(again[1])
            return
        key = None
        if mtype in wire.MUTATING:
            key = same
            for k, out in self._cache:
                if k == key:
                    self.port.write(out)
                    return
        self._again = None
        f = self.frame
        try:
            if mtype == wire.RECORDS:   # the page is written straight into the frame
                f.begin(mtype, rid, True)
                self.page(value["after"], value["limit"])
                out = f.end()
            elif mtype == wire.STATUS:
                from .status_reply import status_frame     # loaded on the first status asked
                out = status_frame(self, rid)
                if value and value.get("w"):    # watched: pushed from now on (tick)
                    now = self.port.now_ms()
                    self._until = [now + _WATCH_MS, (self.version(), now // 1000)]
            else:
                answer = self.dispatch(mtype, value)
                out = f.message(mtype, rid, answer if answer is not None else {}, reply=True)
        except Refused as e:
            out = wire.error(rid, e.code, e.message, mtype, f)
        except ReplReturn:
            raise
        except (ValueError, KeyError, TypeError, IndexError) as e:
            out = wire.error(rid, wire.E_REFUSED, _text(e), mtype, f)
        except Exception as e:  # the board keeps running, whatever the request was
            out = wire.error(rid, wire.E_INTERNAL, _text(e), mtype, f)
        if key is not None:
            out = bytes(out)    # kept: a copy, the frame buffer is reused
            self._cache.append((key, out))
            if len(self._cache) > _CACHE:
                self._cache.pop(0)
        else:
            self._again = (same, out, self.port.now_ms())   # valid until the next reply
        self.port.write(out)

    # ---- requests -----------------------------------------------------------------------------
    def dispatch(self, mtype, value):
        if mtype == wire.HELLO:
            return self.hello()
        if mtype == wire.STATUS:
            return self.app.status()
        if mtype == wire.REPL:
            self.quit = True
            return {}
        handler = self.extra.get(mtype)
        if handler is not None:
            return handler(value or {})
        if mtype == wire.CONFIGURE:
            cfg = self._based_on_current(value).get("cfg")
            if not isinstance(cfg, dict):
                raise Refused(wire.E_BAD, "configure needs a cfg object")
            self.app.configure(cfg)
            return {"v": self.version()}
        if mtype in _COMMANDS:
            self._based_on_current(value)
            if self.app.command(_COMMANDS[mtype], self.port.now_ms()) is False:
                raise Refused(wire.E_REFUSED, "%s does not apply in phase %s"
                              % (_COMMANDS[mtype], self.app.status().get("phase")))
            return {"v": self.version()}
        if mtype == wire.STANDINGS:
            s = self._based_on_current(value).get("s")
            if not isinstance(s, dict):
                raise Refused(wire.E_BAD, "standings needs an s object")
            self.app.set_standings(s)
            return {"v": self.version()}
        raise Refused(wire.E_UNKNOWN, "unknown message type %d" % mtype)

    def version(self):
        v = getattr(self.app, "version", None)
        return v if isinstance(v, int) else self.app.status().get("version", 0)

    def _based_on_current(self, value):
        if not isinstance(value, dict) or not isinstance(value.get("v"), int):
            raise Refused(wire.E_BAD, "state changes need the state version v")
        current = self.version()
        if value["v"] != current:
            raise Refused(wire.E_STALE, "based on version %d, the board is at %d" % (value["v"], current))
        return value

    def _journal(self):
        return self.journal if self.journal is not None else getattr(self.app, "journal", None)

    def board_id(self):
        """The board's identity, under which the desktop keeps the synced journal: one id, one
        journal sequence (device/identity.py)."""
        if self._id is None:
            j = self._journal()
            if j is not None and j.last_seq > 0 and getattr(j, "path", None):
                try:        # the id kept beside a used journal: read here, not in identity.py
                    with open(j.path + ".id") as f:
                        self._id = f.read(80).strip() or None
                except (OSError, ValueError):
                    pass
        if self._id is None:
            import sys
            from . import identity     # once, when the link starts; then dropped from RAM
            self._id = identity.board_id(self.port, self._journal())
            name = identity.__name__
            identity = None
            del sys.modules[name]
            delattr(sys.modules[name[:-9]], "identity")     # the import put it on the package too
        return self._id

    def game_id(self):
        """The seq of the current game's CONFIG record (None before any set-up). Scans only the
        records appended since the last call, starting with the current game's file."""
        j = self._journal()
        if j is None:
            return None
        if self._scanned < 0:
            self._scanned = getattr(j, "base_seq", 0)
        while self._scanned < j.last_seq:
            recs = j.records(self._scanned, _BATCH)
            if not recs:
                break
            for seq, payload in recs:
                if payload and payload[0] == _events.CONFIG:
                    self._gid = seq
                self._scanned = seq
        return self._gid

    def hello(self):
        table = getattr(self.app, "table", None)
        if table is not None:      # the game without building a whole status
            game = table.cfg["game"] if table.cfg else None
        else:
            game = self.app.status().get("game")
        j = self._journal()
        return {
            "p": wire.PROTOCOL,
            "fw": FIRMWARE,
            "board": getattr(self.port, "board", "?"),
            "id": self.board_id(),
            "game": game,
            "gid": self.game_id(),
            "seq": j.last_seq if j is not None else 0,
            "v": self.version(),
            "max": wire.MAX_BODY,
        }

    def page(self, after, limit):
        """Write the RECORDS reply payload into self.frame (after its begin())."""
        f = self.frame
        j = self._journal()
        if j is None:
            f.page(0, (), wire.MAX_BODY - 3)
            return
        want = limit if 0 < limit < _FETCH else _FETCH
        f.page(j.last_seq, _lazy(j, after, want), wire.MAX_BODY - 3)


def _lazy(j, after, want):
    """The journal's records after `after` (at most `want`), read _BATCH at a time as the page
    takes them: never a list of a whole page's records in RAM."""
    while want > 0:
        try:
            recs = j.records(after, _BATCH if want > _BATCH else want)
        except MemoryError:     # a fragmented heap: smaller reads still make progress
            recs = None
            gc.collect()
            recs = j.records(after, 1)
        if not recs:
            return
        for r in recs:
            yield r
        after = recs[-1][0]
        want -= len(recs)
        recs = None


def _text(e):
    s = str(e)
    return s if s else e.__class__.__name__
