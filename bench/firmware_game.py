# SPDX-License-Identifier: MIT
"""A scripted whole game through the App and the fake port (CPython and MicroPython).

Used by tests/test_table_app.py and bench/bench_firmware.py (firmware_min_heap_kb):
six players, three rounds of 3:00; in each round most players print early (one pair closer
than 1 ms: a tie), one presses in the grace window and one is forced at its end.
`play(App, FakePort, journal, players=6, step_ms=10) -> summary dict`.

With `start` (device/start.py's start(port, journal, config), as main.py and code.py start a
board: the serial link attached) and once the game is over, the desktop's side is played
through the fake port's serial buffers: a hello, a status and a sync of the whole journal
(records after 0, page by page, as `presstime sync` asks); the summary then has "synced"
(records received) and "wire" (bytes both ways). `journal_path` goes to the FakePort (the app
then keeps its round checkpoint in `<path>.run`, as on a board).
"""


def play(App, FakePort, journal, players=6, step_ms=10, duration_ms=180000, start=None,
         journal_path=None, desk=None):
    port = FakePort(players=players, pixels=24, journal_path=journal_path)
    names = ["P%d" % (i + 1) for i in range(players)]
    cfg = {"players": names, "mode": "standard", "duration_ms": duration_ms}
    if start is not None:
        app = start(port, journal, cfg)
        journal = app.journal
    else:
        app = App(port, journal, cfg)
    orders = []
    steps = 0
    for rnd in range(3):
        t0 = port.now_ms() + 20
        port.tap(-1, at_ms=t0)                       # control: start (taken 0.4 s after release)
        go = t0 + 80 + 400 + 3000                    # release + double-press window + 3-2-1
        base = go * 1000
        for p in range(players - 2):                 # early prints, seat order rotated per round
            q = (p + rnd) % players
            port.edge(q, True, base + (20000 + 7000 * p) * 1000)
            port.edge(q, False, base + (20000 + 7000 * p) * 1000 + 80000)
        q = (players - 2 + rnd) % players
        port.edge(q, True, base + (20000 + 7000 * (players - 3)) * 1000 + 400)   # a tie
        port.edge(q, False, base + (20000 + 7000 * (players - 3)) * 1000 + 90000)
        late = (players - 1 + rnd) % players
        if rnd != 1:                                 # round 2: nobody presses in the grace window
            port.edge(late, True, base + (duration_ms + 2000) * 1000)
            port.edge(late, False, base + (duration_ms + 2100) * 1000)
        limit = steps + (duration_ms + 60000) // step_ms
        while app.table.phase != 6:                  # SUMMARY
            port.advance(step_ms)
            app.step()
            steps += 1
            if steps > limit:
                raise RuntimeError("round %d never ended: %r" % (rnd + 1, _phase(app)))
        orders.append(app.table.pick_order())
        port.tap(-1, at_ms=port.now_ms() + 10)       # control: next day / game over
        for _ in range(100):
            port.advance(step_ms)
            app.step()
            steps += 1
    out = {"phase": _phase(app), "orders": orders, "steps": steps,
           "records": journal.last_seq, "shows": port.shows, "beeps": len(port.beeps)}
    if app.link is not None:
        out["synced"], out["wire"] = _desktop(app, port, journal.last_seq, desk)
    return out


def _phase(app):
    """The table's phase name, read without building a whole status (a dict of dicts: the
    benchmark's own reading must not weigh on the board's heap figure)."""
    from presstime.core.table import PHASES
    return PHASES[app.table.phase]


class _Desk:
    """The desktop's receiving end, kept small so that the heap figure is the board's: each
    frame the board writes is COBS-decoded in place (the board is done with it) and
    CRC-checked; the fields the sync needs are read from the body in place."""

    def __init__(self):
        from binascii import crc32
        from presstime.core.crc import crc16
        self.crc16 = crc16
        self.crc32 = crc32
        self.rx = None      # the body of the last frame (a memoryview), n its length
        self.n = 0
        self.frames = 0
        self.bytes = 0

    def write(self, frame):
        self.frames += 1
        n = len(frame)
        self.bytes += n
        rx = frame if isinstance(frame, memoryview) else memoryview(bytearray(frame))
        i = 1
        o = 0
        while i < n - 1:
            end = i + rx[i]
            code = rx[i]
            i += 1
            while i < end:
                rx[o] = rx[i]
                o += 1
                i += 1
            if code < 0xFF and i < n - 1:
                rx[o] = 0
                o += 1
        if rx[0] >= 2:      # a version 2 body: CRC-32 (core/framing.py)
            self.n = o - 4
            good = self.crc32(rx[:o - 4]) == int.from_bytes(bytes(rx[o - 4:o]), "big")
        else:
            self.n = o - 2
            good = self.crc16(rx[:o - 2]) == (rx[o - 2] << 8) | rx[o - 1]
        if not good:
            raise RuntimeError("bad CRC")
        self.rx = rx

    def find(self, text, at=0):
        """Index of `text` in the body at or after `at` (-1: none)."""
        rx = self.rx
        m = len(text)
        for i in range(at, self.n - m + 1):
            if rx[i] == text[0] and bytes(rx[i:i + m]) == text:
                return i
        return -1


def desk():
    """The desktop's end of the serial line."""
    return _Desk()


def _desktop(app, port, last_seq, desk=None):
    """The desktop's requests over the fake serial buffers: hello, status, then records after
    N until the board's last seq. (records received, bytes both ways)"""
    from presstime.core import framing as wire    # the board's half only: no desktop code loaded
    if desk is None:
        desk = _Desk()
    port.write = desk.write      # the board's replies go straight to the desktop's decoder
    sent = [0]
    out = wire.Frame(16)

    def ask(rid, mtype, after=None):
        out.begin(mtype, rid)
        if after is not None:        # records after `after`, as many as fit (limit 0)
            out.varint(after)
            out.varint(0)
        req = bytes(out.end())
        sent[0] += len(req)
        port.feed(req)
        port.advance(1)
        frames = desk.frames
        app.step()
        if desk.frames != frames + 1 or desk.rx[1] != mtype | wire.REPLY or desk.rx[2] != rid:
            raise RuntimeError("request %d: no reply (%r)" % (mtype, bytes(desk.rx[:desk.n]) if desk.rx else None))

    ask(1, wire.HELLO)
    if desk.find(b'"seq":%d,' % last_seq) < 0 and desk.find(b'"seq":%d}' % last_seq) < 0:
        raise RuntimeError("hello: %r" % bytes(desk.rx[:desk.n]))
    ask(2, wire.STATUS)
    at = 0
    players = 0
    while True:
        at = desk.find(b'"state":', at + 1)
        if at < 0:
            break
        players += 1
    if players != 6 or desk.find(b'"version":') < 0:
        raise RuntimeError("status: %r" % bytes(desk.rx[:desk.n]))
    after = 0
    got = 0
    rid = 3
    while after < last_seq:
        ask(rid, wire.RECORDS, after)
        last, i = wire.get_varint(desk.rx, 3)
        first, i = wire.get_varint(desk.rx, i)
        if last != last_seq or first != after + 1:
            raise RuntimeError("sync: page of %d after %d" % (first, after))
        while i < desk.n:
            length, i = wire.get_varint(desk.rx, i)
            i += length
            after += 1
            got += 1
        rid = (rid + 1) & 0xFF
    return got, sent[0] + desk.bytes
