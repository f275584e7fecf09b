"""The simulated board in a terminal: the very firmware App loop under CPython.

`TerminalPort` is the Port contract for a desktop terminal (it extends the firmware's FakePort,
whose timed edge queue gives real gestures): keys become button edges, pixels are drawn as
coloured blocks, beeps ring the terminal bell. It takes an optional serial file descriptor
(the master end of a pty) for the link, so the same front can also serve `presstime play`.

Keys (a terminal reports key presses, never releases, so holds are mapped to keys):
    1-6     the players' buttons ("Print!"; in the ready check: "ready")
    l, 1-6  a long press (held 0.9 s) of that player's button: a Myth Fits photo token
    space   the control button, short press: start / next round / resume / end a turn game
    p       pause / resume          (the board: hold the control button 1.5 s)
    u       undo the last press     (the board: double press; the sim sends that double press)
    x       abort the round         (the board: hold the control button 5 s)
    h or ?  help    q, Ctrl-C or Ctrl-D  quit
Script (`--script`, for tests and demos; runs on a virtual clock, as fast as it can):
    the same keys as words separated by spaces or commas: 1..6, l1..l6, space (or _), p, u, x, q,
    `wait:MS` or `+MS` (let MS ms of round time pass, e.g. +3000 for the 3-2-1), `+2:30`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from presstime.device.ports.fake import FakePort
from presstime.sim.pty_out import PtyOut
from presstime.tableside.display import Screen, View
from presstime.tableside.keyboard import Keys, long_seat
from presstime.tableside.status_text import last_presser, why_no_undo

if TYPE_CHECKING:
    from presstime.device.app import App
    from presstime.device.link import Link
    from presstime.hints import Status

RING = 24
STEP_MS = 10  # virtual clock: ms per idle loop iteration in script mode
DRAW_MS = 100  # live mode: redraw at most this often
HELP = (
    "1-6 press \u00b7 l,1-6 long \u00b7 space control \u00b7 p pause \u00b7 u undo "
    "\u00b7 x abort \u00b7 q quit"
)
LONG_MS = 900  # a long press: over the board's 0.8 s photo-token hold


class TerminalPort(FakePort):
    """A Port for the desktop: real or virtual clock, optional serial fd (pty master)."""

    board = "sim"

    def __init__(
        self,
        players: int = 6,
        journal_path: str | None = None,
        serial_fd: int | None = None,
        virtual: bool = False,
        uid: str | None = None,
    ) -> None:
        FakePort.__init__(
            self,
            players=players,
            pixels=RING,
            journal_path=journal_path,
            ring=tuple(range(RING)),
            player_pixels=tuple(range(RING, RING + players)),
        )
        self.max_channel = 255  # the terminal has no power budget; draw full range
        self.serial_fd = serial_fd
        self._pty = None
        self.virtual = virtual
        self.uid = uid or "sim-%s" % os.urandom(4).hex()
        self._t0 = time.monotonic()
        self.dirty = True
        self.bells = 0

    # clock: the real monotonic clock, or FakePort's t_us moved by idle() (script mode)
    def _sync(self):
        if not self.virtual:
            self.t_us = int((time.monotonic() - self._t0) * 1000000)

    def now_ms(self) -> int:
        self._sync()
        return self.t_us // 1000

    def buttons(self) -> list[tuple[int, bool, int]]:
        self._sync()
        return FakePort.buttons(self)

    def show(self, colours: Sequence[int]) -> None:
        FakePort.show(self, colours)
        self.dirty = True

    def show_rgb(self, px: Sequence[int]) -> None:
        FakePort.show_rgb(self, px)
        self.dirty = True

    def beep(self, freq_hz: int, ms: int) -> None:
        FakePort.beep(self, freq_hz, ms)
        self.bells += 1

    def read(self) -> bytes:
        if self.serial_fd is None:
            return FakePort.read(self)
        return self._out(self.serial_fd).read()

    def write(self, data: bytes) -> None:
        if self.serial_fd is None:
            return FakePort.write(self, data)
        self._out(self.serial_fd).write(data)  # never blocks: see pty_out

    def _out(self, fd):
        if self._pty is None or self._pty.fd != fd:
            self._pty = PtyOut(fd)
        return self._pty

    def idle(self, wait_ms: int | None = None) -> None:
        FakePort.idle(self, wait_ms)
        if self.serial_fd is not None:
            self._out(self.serial_fd).drain()
        if self.virtual:
            self.advance(STEP_MS)
        else:
            time.sleep(0.002)

    # keys -> edges
    def tap_now(self, button: int, after_ms: int = 0, hold_ms: int = 80) -> None:
        self._sync()
        self.tap(button, at_us=self.t_us + after_ms * 1000, ms=hold_ms)


def press_key(
    app: App, port: TerminalPort, key: str, note: Callable[[str], object] | None = None
) -> bool:
    """Act on one key (a character, or a script word). Returns False for quit, True if known.
    `note(text)` is told what a key did not do, and why (undo refused)."""
    if key in ("q", "\x03", "\x04"):
        return False
    if len(key) == 1 and "1" <= key <= "6":
        b = ord(key) - ord("1")
        if b < port.players:
            port.tap_now(b)
    elif (b := long_seat(key)) is not None:
        if b < port.players:
            port.tap_now(b, hold_ms=LONG_MS)
    elif key in (" ", "", "space", "_"):
        port.tap_now(-1)
    elif key == "p":
        if not app.command("pause"):
            app.command("resume")
    elif key == "u":
        st = app.status()
        if not st.get("undo"):  # the double press would count as a short press: not sent
            if note is not None:
                note("undo refused: " + why_no_undo(st))
            return True
        port.tap_now(-1)  # the board's gesture: two presses within 0.4 s
        port.tap_now(-1, after_ms=200)
        if note is not None:
            who = last_presser(st)
            note("undone: the last press%s" % (" (%s's)" % who if who else ""))
    elif key == "x":
        app.command("abort")
    elif key == "l" and note is not None:
        note("long press: now the player's seat number (1-6)")
    elif key in ("h", "?") and note is not None:
        note(HELP)
    return True


# ---- drawing -------------------------------------------------------------------------------
def _level(c, top):
    return max(c) * 255 // top if top else 0


def pixel_text(c: Sequence[int], top: int, colour: bool) -> str:
    """Two characters for one pixel: a coloured block, or (no colour) a glyph by brightness."""
    lv = _level(c, top)
    if colour:
        if lv == 0:
            return "\x1b[38;5;238m\u00b7\u00b7\x1b[0m"
        k = 255 / max(c)
        r, g, b = (int(v * k * (0.35 + 0.65 * lv / 255)) for v in c)
        return "\x1b[38;2;%d;%d;%dm\u2588\u2588\x1b[0m" % (r, g, b)
    if lv == 0:
        return "\u00b7\u00b7"
    if lv < 100:
        return "\u2591\u2591"
    if lv < 180:
        return "\u2592\u2592"
    return "\u2588\u2588"


def clock_text(ms: int | None) -> str:
    if ms is None:
        return ""
    s = (ms + 999) // 1000
    return "%d:%02d" % (s // 60, s % 60)


def player_text(p: dict[str, Any], st: Status) -> str:
    text = "%-9s" % (p["state"],)
    if p.get("token"):
        text += " token %d" % p["token"]
    if p.get("tied"):
        text += " (tie)"
    if p.get("photos"):
        text += " photos %d" % p["photos"]
    return text


def headline(st: Status) -> str:
    parts = [str(st.get("day") or st.get("mode") or "").upper(), st["phase"]]
    if st["phase"] == "countdown":
        parts.append("%d..." % st.get("countdown", 0))
    elif st.get("remaining_ms") is not None:
        parts.append(clock_text(st["remaining_ms"]) + " left")
    elif st.get("elapsed_ms"):
        parts.append(clock_text(st["elapsed_ms"]) + " elapsed")
    if st.get("alert_ms"):
        parts.append("(%d s warning)" % (st["alert_ms"] // 1000))
    if st["phase"] in ("summary", "over") and st.get("pick_order"):
        parts.append("pick order: " + ", ".join(str(i + 1) for i in st["pick_order"]))
    return "  ".join(p for p in parts if p)


def screen(st: Status, frame: Sequence[Sequence[int]] | None, colour: bool) -> list[str]:
    """The terminal picture: headline, the ring, one line per player, the keys."""
    frame = frame or []
    top = max([max(c) for c in frame] + [1])
    ring = "".join(pixel_text(c, top, colour) for c in frame[:RING])
    lines = [
        "presstime sim  %s  %s  round %s/%s"
        % (st.get("game"), st.get("mode"), st.get("round"), st.get("rounds")),
        headline(st),
        "",
        "  " + ring,
        "",
    ]
    players = st.get("players") or []
    for i in range(len(players)):
        p = players[i]
        c = frame[RING + i] if RING + i < len(frame) else (0, 0, 0)
        lines.append(
            "  [%d] %s %-12s %s"
            % (i + 1, pixel_text(c, top, colour), p["name"], player_text(p, st))
        )
    lines += ["", HELP]
    return lines


def status_line(port: TerminalPort, st: Status) -> str:
    """One plain line per state change (script mode)."""
    ps = " ".join(
        "%d:%s%s%s"
        % (
            i + 1,
            p["state"],
            ("#%d" % p["token"]) if p.get("token") else "",
            "~tie" if p.get("tied") else "",
        )
        for i, p in enumerate(st.get("players") or [])
    )
    return "t=%d.%03d %s | %s" % (
        port.t_us // 1000000,
        (port.t_us // 1000) % 1000,
        headline(st),
        ps,
    )


# ---- the two fronts ------------------------------------------------------------------------
def parse_script(text: str) -> list[tuple[str, str | int]]:
    """Script words -> [("key", k) | ("wait", ms)]; ValueError naming the bad word."""
    out = []
    words = text.replace(",", " ").split()
    for n, w in enumerate(words, 1):
        if w in ("1", "2", "3", "4", "5", "6", "space", "_", "p", "u", "x", "q") or w in (
            "l1",
            "l2",
            "l3",
            "l4",
            "l5",
            "l6",
        ):
            out.append(("key", w))
            continue
        spec = w[5:] if w.startswith("wait:") else (w[1:] if w.startswith("+") else None)
        ms = _duration_ms(spec) if spec else None
        if ms is None:
            raise ValueError(
                "script word %d %r: expected 1-6, l1-l6, space, p, u, x, q, +MS, +M:SS or wait:MS"
                % (n, w)
            )
        out.append(("wait", ms))
    return out


def _duration_ms(spec):
    if ":" in spec:
        m, _, s = spec.partition(":")
        if m.isdigit() and s.isdigit() and len(s) == 2:
            return (int(m) * 60 + int(s)) * 1000
        return None
    return int(spec) if spec.isdigit() else None


def run_script(app: App, port: TerminalPort, script: str, out: TextIO) -> Status:
    """Play `script` on the virtual clock, printing a line at every state change."""
    steps = parse_script(script)
    seen: list[int | None] = [None]

    def step():
        before = port.t_us
        app.step()
        if port.t_us == before and not port.pending():
            port.advance(STEP_MS)
        v = app.version
        if v != seen[0]:
            seen[0] = v
            out.write(status_line(port, app.status()) + "\n")

    step()
    for kind, arg in steps:
        if kind == "key":
            if not press_key(app, port, str(arg), note=lambda text: out.write(text + "\n")):
                break
            step()
        else:
            end = port.t_us + int(arg) * 1000
            while port.t_us < end:
                step()
    while port.pending():  # let the last gestures finish
        step()
    for _ in range(60):  # and a short quiet tail (a single control press waits 0.4 s)
        step()
    st = app.status()
    out.write("\n".join(screen(st, port.last_frame, False)[:-2]) + "\n")
    return st


def run_live(
    app: App,
    port: TerminalPort,
    stdin: TextIO,
    out: TextIO,
    link: Link | None = None,
    pty_path: str | None = None,
    grace_ms: int = 5000,
) -> None:
    """The interactive front: the table view (display.Screen), keys one at a time (cbreak
    mode: no echo, no Enter), the terminal restored on every exit."""
    view = View(
        "sim",
        keys=HELP,
        grace_ms=grace_ms,
        port=("serving the link on %s (presstime play --port %s)" % (pty_path, pty_path))
        if pty_path
        else None,
    )
    rung = 0
    last_draw = 0.0
    with Keys(stdin) as keys, Screen(view, stream=out) as screen:
        while True:
            key = keys.poll(0)
            if key is not None and not press_key(app, port, key, note=screen.note):
                break
            app.step()
            if port.bells != rung:
                rung = port.bells
                out.write("\a")
            now = time.monotonic()
            if now - last_draw >= DRAW_MS / 1000.0:
                last_draw = now
                frame = port.last_frame or []
                view.ring = [tuple(c) for c in frame[:RING]]
                view.buttons = [tuple(c) for c in frame[RING : RING + port.players]]
                screen.show(app.status())
