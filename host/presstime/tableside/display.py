"""The table view: the board's status as a screen a table of players can read.

`render(st, view)` turns the status dict the board sends (core/table.py Table.status) into a
`rich` renderable that fits the terminal it is drawn in: a title bar, a big countdown (a small
block font of our own, readable across the table), each player's seat colour (the very colour
the board lights that player's button with), state, token and time, the grace window counting
down, a winner banner and, once the desktop pushed them, the standings with the winner and who
is out of business. `Screen` keeps it on the terminal (full screen, redrawn on every change and
on resize) or, when the output is not a terminal or NO_COLOR is set, prints plain lines instead.

Pure presentation: no rule is decided here (status_text.py has the words the plain lines use).
Names come from the board and are shown through `safe()`: never a raw control character.
"""

from __future__ import annotations

import io
import os
import sys
import unicodedata
from typing import TYPE_CHECKING, Any, TextIO

from rich import box
from rich.align import Align
from rich.console import Console, Group
from rich.padding import Padding
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text

from presstime import term
from presstime.core.config import PALETTE
from presstime.tableside import status_text
from presstime.tableside.bigfont import BIG_ROWS, big_lines, big_width

if TYPE_CHECKING:
    from rich.console import RenderableType

    from presstime.hints import Status


# ---- safe text --------------------------------------------------------------------------
def safe(text: str) -> str:
    """`text` with every control or format character (ESC, BEL, CR, bidi overrides, ...) shown
    as '?': names come from the board and the board took them from anybody."""
    text = "%s" % (text,)
    return "".join("?" if unicodedata.category(c)[0] == "C" else c for c in text)


# ---- colours ----------------------------------------------------------------------------
_STATE = {  # state -> (word, symbol, style); never colour alone: a word and a symbol too
    "waiting": ("waiting", ".", "dim"),
    "ready": ("ready", "r", "bold yellow"),
    "reporting": ("working", "~", "cyan"),
    "layout": ("Layout!", "L", "magenta"),
    "printed": ("Print!", "#", "bold green"),
    "late": ("late", "!", "bold yellow"),
    "forced": ("forced", "x", "red"),
}


def seat_style(p: dict[str, Any], i: int) -> Style:
    """The player's seat colour as the board shows it (status `colour`, else the palette)."""
    c = p.get("colour")
    if not (isinstance(c, (list, tuple)) and len(c) == 3 and all(isinstance(v, int) for v in c)):
        c = PALETTE[i % len(PALETTE)]
    r, g, b = (max(0, min(255, int(v))) for v in c)
    return Style(color="rgb(%d,%d,%d)" % (r, g, b))


def _names(st):
    return [safe(p.get("name", "?")) for p in st.get("players", [])]


class View:
    """What the screen shows besides the status: who is looking (title), the keys, notes, the
    board's grace window (the status has no length for it: the desktop knows what it set up),
    and, in the simulator, the pixels of the ring and of each button."""

    def __init__(
        self,
        title: str = "presstime",
        keys: str = "",
        grace_ms: int = 5000,
        port: str | None = None,
    ) -> None:
        self.title = title
        self.keys = keys
        self.grace_ms = grace_ms
        self.port = port  # a line such as "serving the link on /dev/pts/3"
        self.link: str | None = None  # the scorepad's line: where the phones and the big screen go
        self.notes = []  # the last few messages (undo refused, help, ...)
        self.ring: list[tuple[int, ...]] | None = None  # simulator: [(r, g, b)] of the ring
        self.buttons: list[tuple[int, ...]] | None = None  # simulator: each button's (r, g, b)

    def note(self, text: str) -> None:
        text = safe(text)
        if self.notes and self.notes[-1] == text:
            return
        self.notes = (self.notes + [text])[-2:]


# ---- pieces of the screen -------------------------------------------------------------------
def _title(st):
    game = status_text.title(st)
    parts = ["presstime", game] if game else ["presstime"]
    if st.get("day"):
        parts.append(str(st["day"]).capitalize())
    if st.get("round") and st.get("rounds") and st.get("mode") not in ("turns",):
        face = status_text.game_face(st)
        word = face.ROUND_WORD if face is not None else "round"
        parts.append("%s %s/%s" % (word, st["round"], st["rounds"]))
    return " \u00b7 ".join(parts)


_PHASE_WORD = {
    "setup": "NOT SET UP",
    "ready": "READY CHECK",
    "countdown": "GET READY",
    "running": "RUNNING",
    "paused": "PAUSED",
    "grace": "GRACE",
    "summary": "ROUND OVER",
    "over": "GAME OVER",
}


def grace_left_ms(st: Status, grace_ms: int) -> int | None:
    """ms left in the grace window (status: elapsed past the round's duration)."""
    if st.get("phase") != "grace" or not st.get("duration_ms"):
        return None
    return max(0, grace_ms - (int(st.get("elapsed_ms") or 0) - int(st["duration_ms"])))


def _ready_count(st):
    players = st.get("players", [])
    return len([p for p in players if p.get("state") == "ready"]), len(players)


def clock_face(st: Status, view: View) -> tuple[str | None, str, str]:
    """(big text, its style, the caption under it): what the table reads first."""
    phase = st.get("phase", "?")
    mode = st.get("mode")
    names = _names(st)
    if mode == "ready-reveal":
        return _reveal_face(st)
    if mode in ("turns", "turn-based"):
        return _turn_face(st, names)
    timed = bool(st.get("duration_ms"))
    if phase == "setup" or not st.get("players"):
        return None, "", "no game set up yet (presstime play configures one)"
    if phase == "ready":
        n, of = _ready_count(st)
        big = status_text.clock(st.get("duration_ms")) if timed else "0:00"
        return (
            big,
            "dim",
            "ready %d/%d: every player presses (or the control button starts)" % (n, of),
        )
    if phase == "countdown":
        return str(st.get("countdown") or ""), "bold yellow", "get ready..."
    if phase == "grace":
        left = grace_left_ms(st, view.grace_ms)
        return (
            status_text.clock(left),
            "bold red",
            "TIME! grace window: %d s to press for the next tokens" % (((left or 0) + 999) // 1000),
        )
    ms = st.get("remaining_ms") if timed else st.get("elapsed_ms")
    big = status_text.clock(ms)
    printed = len(
        [p for p in st.get("players", []) if p.get("token") or p.get("state") == "printed"]
    )
    counted = "%d of %d done" % (printed, len(st.get("players", [])))
    if phase == "paused":
        return big, "dim", "PAUSED (control button or Enter resumes) \u00b7 " + counted
    if phase == "running":
        style = "bold green"
        alert = st.get("alert_ms") or 0
        caption = ("left" if timed else "elapsed") + " \u00b7 " + counted
        if timed and ms is not None and ms <= 10000:
            style = "bold red"
        elif alert:
            style = "bold yellow"
            caption = "%s left! \u00b7 %s" % (_alert_words(alert), counted)
        return big, style, caption
    if phase == "summary":
        return big, "dim", "round over: " + _end_words(st)
    return None, "", "game over"


def _alert_words(ms):
    return "1 minute" if ms >= 60000 else "%d seconds" % (ms // 1000)


def _end_words(st):
    return {
        1: "everybody printed",
        2: "time is up",
        3: "grace window closed",
        4: "ended by the control button",
        5: "a win",
    }.get(st.get("end_reason"), "done")


def _reveal_face(st):
    phase = st.get("phase")
    face = status_text.game_face(st)
    pile = face is None or face.STEPS_LEFT  # a draw pile: cards drawn and left
    word = face.STEP_WORD if face is not None and face.STEP_WORD else "card"
    steps = st.get("steps") or 0
    if phase == "ready":
        n, of = _ready_count(st)
        if not pile:
            big = "%s/%s" % (st.get("step"), steps)
            caption = "%s %s of %s \u00b7 ready %d/%d (all ready reveals)" % (
                word,
                st.get("step"),
                steps,
                n,
                of,
            )
        else:
            drawn, left = status_text.cards_drawn(st)
            big = "%d/%d" % (drawn, steps)
            caption = "%s \u00b7 ready %d/%d" % (status_text.card_words(st), n, of)
        if status_text.fresh_reveal(st):
            caption = "REVEAL! " + caption
            return big, "bold magenta", caption
        return big, "bold cyan", caption
    if phase == "summary":
        big = "%d/%d" % (steps, steps)
        caption = "all %d %ss revealed" % (steps, word)
        if status_text.fresh_reveal(st):
            caption = "REVEAL! " + caption
        return big, "bold magenta", caption
    return None, "", "game over" if phase == "over" else phase


def _turn_face(st, names):
    phase = st.get("phase")
    if phase == "ready":
        return "0:00", "dim", "a press starts the game"
    turn = st.get("turn")
    who = names[turn] if isinstance(turn, int) and 0 <= turn < len(names) else None
    if phase in ("running", "paused") and who is not None:
        text = "%s's turn" % who
        if st.get("turn_limit_ms"):
            text += " (limit %s)" % status_text.clock(st["turn_limit_ms"])
        text += " \u00b7 game %s" % status_text.clock(st.get("elapsed_ms"))
        style = "bold green"
        if st.get("alert_ms"):
            style, text = "bold red", "TIME! " + text
        if phase == "paused":
            style, text = "dim", "PAUSED \u00b7 " + text
        return status_text.clock(st.get("turn_ms")), style, text
    return None, "", "game over" if phase in ("summary", "over") else phase


def winner_text(st: Status) -> tuple[str, int] | tuple[None, None]:
    """The winner banner's words and seat, or (None, None)."""
    names = _names(st)
    w = st.get("winner")
    if isinstance(w, int) and 0 <= w < len(names):
        photos = st["players"][w].get("photos", 0)
        return "%s WINS with %d photo token%s" % (names[w], photos, "" if photos == 1 else "s"), w
    s = st.get("standings") or {}
    w = s.get("winner") if isinstance(s, dict) else None
    if st.get("phase") == "over" and isinstance(w, int) and 0 <= w < len(names):
        return "%s WINS" % names[w], w
    return None, None


def _standings(st):
    s = st.get("standings")
    if not isinstance(s, dict):
        return None, set(), None
    totals = s.get("totals") if isinstance(s.get("totals"), list) else None
    out = set(x for x in (s.get("out") or []) if isinstance(x, int))
    w = s.get("winner") if isinstance(s.get("winner"), int) else None
    return totals, out, w


# the players' table's columns beside the name at their widest: seat 4, state 9, token 5, time 6,
# score 5, "tie out of business" 19 and 3 cells between columns; two-step times and the photo
# tokens of a turns game add theirs
BESIDE_NAME = 66
TWO_STEP_TIMES = 9
PHOTO_COLUMN = 15
NAME_MAX = 24  # a name's limit (core/config.py: 24 bytes)


def widest_table(st: Status) -> int:
    """The players' table's width in its widest phase, for this game's names and mode: the
    table keeps its left edge there, so a column that comes or goes never moves the others."""
    names = [len(safe(p.get("name", "?"))) for p in st.get("players", [])] or [6]
    extra = (PHOTO_COLUMN if st.get("mode") == "turns" else 0) + (
        TWO_STEP_TIMES if st.get("two_step") else 0
    )
    return BESIDE_NAME + extra + min(NAME_MAX, max(names))


def players_table(st: Status, view: View, width: int) -> Table:
    mode = st.get("mode")
    turns = mode in ("turns", "turn-based")
    totals, out, winner = _standings(st)
    over = st.get("phase") == "over"
    t = Table(
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        pad_edge=False,
        expand=False,
        show_edge=False,
        header_style="bold",
    )
    # every column but the name keeps its width: the name takes what the terminal has left
    t.add_column("seat", no_wrap=True, min_width=4)
    t.add_column("player", no_wrap=True, overflow="ellipsis", max_width=NAME_MAX)
    t.add_column("state", no_wrap=True, min_width=9)
    if st.get("tokens"):
        t.add_column("token", no_wrap=True, justify="right", min_width=5)
        t.add_column(
            "time", no_wrap=True, justify="right", min_width=15 if st.get("two_step") else 6
        )
    if mode == "turns":
        t.add_column("photo tokens", no_wrap=True, min_width=12)
    if totals:
        t.add_column("score", no_wrap=True, justify="right", min_width=5)
    t.add_column("", no_wrap=True)
    rows = []
    for i, p in enumerate(st.get("players", [])):
        seat = seat_style(p, i)
        light = seat
        if view.buttons is not None and i < len(view.buttons):
            light = _pixel_style(view.buttons[i], seat)
        word, symbol, style = _STATE.get(p.get("state"), (safe(p.get("state", "?")), "?", ""))
        if turns and p.get("state") == "reporting":
            word = "playing"
        is_turn = turns and st.get("phase") in ("running", "paused") and st.get("turn") == i
        row = [
            Text.assemble(("\u2588\u2588", light), " %d" % (i + 1)),
            Text(safe(p.get("name", "?")), style=seat + Style(bold=True)),
            Text("%s %s" % (symbol, word), style=style),
        ]
        if st.get("tokens"):
            row.append(
                Text("#%d" % p["token"], style="bold") if p.get("token") else Text("-", style="dim")
            )
            times = []
            if p.get("layout_ms") is not None and st.get("two_step"):
                times.append("L " + status_text.stamp(p["layout_ms"]))
            if p.get("print_ms") is not None:
                times.append(status_text.stamp(p["print_ms"]))
            row.append(Text(" ".join(times)))
        if mode == "turns":
            target = st.get("target") or 0
            have = p.get("photos", 0)
            dots = "\u25cf" * have + "\u25cb" * max(0, target - have)
            row.append(Text("%s %d/%d" % (dots, have, target), style=seat))
        if totals:
            row.append(Text(str(totals[i]) if i < len(totals) else "", style="bold"))
        notes = []
        if is_turn:
            notes.append(("\u25c0 turn", "bold"))
        if p.get("tied"):
            notes.append(("tie", "yellow"))
        if over and winner == i or st.get("winner") == i:
            notes.append(("\u2605 WINNER", "bold green"))
        if i in out:
            notes.append(("out of business", "red"))
        row.append(Text(" ").join(Text(w, style=s) for w, s in notes) if notes else Text(""))
        rows.append(row)
    # the name takes what the other columns leave of the terminal (they are never cut)
    beside = sum(
        max(c.min_width or 0, len(str(c.header)), max([r[k].cell_len for r in rows] or [0]))
        for k, c in enumerate(t.columns)
        if k != 1
    )
    t.columns[1].max_width = max(6, min(NAME_MAX, width - beside - 3 * (len(t.columns) - 1)))
    for row in rows:
        t.add_row(*row)
    return t


def _pixel_style(c, seat):
    try:
        r, g, b = c
    except (TypeError, ValueError):
        return seat
    if max(r, g, b) <= 0:
        return Style(color="grey23")
    k = 255.0 / max(r, g, b)
    return Style(color="rgb(%d,%d,%d)" % tuple(int(v * k) for v in (r, g, b)))


def ring_text(ring: list[tuple[int, ...]]) -> Text:
    """The simulator's ring of pixels, two cells each (off: a dim dot); brightness relative to
    the frame's brightest pixel, so a blink or a fading comet still reads."""
    out = Text()
    top = max([max(c) for c in ring] + [1])
    for c in ring:
        if max(c) <= 0:
            out.append("\u00b7 ", style="grey23")
            continue
        k = 255.0 / max(c) * (0.35 + 0.65 * max(c) / top)
        out.append(
            "\u2588\u2588",
            style=Style(color="rgb(%d,%d,%d)" % tuple(min(255, int(v * k)) for v in c)),
        )
    return out


# ---- the whole screen -----------------------------------------------------------------------
def render(st: Status, view: View, width: int = 80, height: int = 24) -> RenderableType:
    """The screen for this status, for a terminal of `width` x `height` cells."""
    head = Text(no_wrap=True, overflow="ellipsis")
    title = _title(st)
    phase_word = _PHASE_WORD.get(st.get("phase") or "", safe(st.get("phase", "?")).upper())
    if st.get("phase") == "summary" and (
        st.get("round") == st.get("rounds") or st.get("mode") == "turns"
    ):
        phase_word = "GAME OVER"
    pad = max(1, width - len(title) - len(phase_word) - 2)
    head.append(" " + title + " " * pad, style="reverse")
    head.append(phase_word + " ", style="reverse bold")
    parts: list[RenderableType] = [head]
    big, style, caption = clock_face(st, view)
    players = len(st.get("players", []))
    banner, wseat = winner_text(st)
    # rows: title 1, clock block (5 + caption + blank 2), table (header 2 + players), notes,
    # extra line, keys; the big font only when all of it fits
    # each note whole, on as many lines as it needs (help was cut with "…")
    note_lines = [line for n in view.notes for line in wrapped(n, max(20, width - 1), indent="  ")]
    fixed = (
        1
        + 1
        + 1
        + (players + 2)
        + 1
        + len(note_lines)
        + (1 if view.keys else 0)
        + (1 if view.port else 0)
        + (1 if view.link else 0)
        + (2 if view.ring is not None else 0)
        + (3 if banner else 0)
        + (
            2
            if status_text.setup_lines(st) and st.get("phase") in ("ready", "running", "paused")
            else 0
        )
    )
    scale = 0
    for k in (2, 1):
        if (
            big is not None
            and height >= fixed + BIG_ROWS * k + 2
            and big_width(big, k) <= width - 2
        ):
            scale = k
            break
    roomy = scale > 0
    parts.append(Text(""))
    if banner and wseat is not None:
        parts.append(
            Align.center(
                Panel(
                    Text(
                        banner,
                        style=seat_style(st["players"][wseat], wseat) + Style(bold=True),
                        justify="center",
                        no_wrap=True,
                        overflow="ellipsis",
                    ),
                    box=box.DOUBLE,
                    width=min(width, max(30, len(banner) + 8)),
                    padding=(0, 2),
                )
            )
        )
    if roomy and big is not None:
        block = Text("\n".join(big_lines(big, scale)), style=style, no_wrap=True, overflow="crop")
        parts.append(Align.center(block))  # one block: every row starts in the same column
        parts.append(
            Text(
                caption,
                style=style if "TIME" in caption or "REVEAL" in caption else "",
                justify="center",
                no_wrap=True,
                overflow="ellipsis",
            )
        )
    elif not (banner and big is None):
        line = Text(no_wrap=True, overflow="ellipsis", justify="center")
        if big is not None:
            line.append(big + "  ", style=style)
        line.append(caption)
        parts.append(line)
    facts = status_text.setup_lines(st) if st.get("phase") in ("ready", "running", "paused") else []
    if facts:
        for line in wrapped(" \u00b7 ".join(safe(f) for f in facts), width, indent="")[:2]:
            parts.append(
                Text(line, style="dim", justify="center", no_wrap=True, overflow="ellipsis")
            )
    if view.ring is not None:
        parts.append(Text(""))
        parts.append(
            Text.assemble(ring_text(view.ring), no_wrap=True, overflow="crop", justify="center")
        )
    if players:
        parts.append(Text(""))
        # a fixed left edge (the table of the widest phase centred), not the table centred: a
        # column that comes or goes between phases (time, score) no longer moves the others
        margin = max(0, (width - widest_table(st)) // 2)
        parts.append(Padding(players_table(st, view, width - margin), (0, 0, 0, margin)))
    order = st.get("pick_order") or []
    names = _names(st)
    if st.get("phase") == "summary" and order and st.get("tokens"):
        parts.append(
            Text(
                "centerpiece pick order: "
                + ", ".join(names[i] for i in order if 0 <= i < len(names)),
                no_wrap=True,
                overflow="ellipsis",
                justify="center",
            )
        )
    foot = []
    for n in note_lines:
        foot.append(Text(" " + n, style="yellow", no_wrap=True, overflow="ellipsis"))
    if view.port:
        foot.append(Text(" " + view.port, style="dim", no_wrap=True, overflow="ellipsis"))
    if view.link:
        foot.append(Text(" " + view.link, style="bold", no_wrap=True, overflow="ellipsis"))
    if view.keys:
        foot.append(Text(" " + view.keys, style="dim", no_wrap=True, overflow="ellipsis"))
    if not foot:
        return Group(*parts)
    # the footer on the terminal's last lines, the rest above it (cropped, never wrapped)
    from rich.layout import Layout

    root = Layout()
    root.split_column(
        Layout(Group(*parts), name="body"), Layout(Group(*foot), name="foot", size=len(foot))
    )
    return root
    return Group(*parts)


def render_text(
    st: Status, view: View, width: int = 80, height: int = 24, colour: bool = False
) -> list[str]:
    """The screen as text lines (tests, and what a capture shows)."""
    console = Console(
        width=width,
        height=height,
        color_system="truecolor" if colour else None,
        force_terminal=colour,
        record=False,
        file=io.StringIO(),  # unused: the console prints into its capture
        legacy_windows=False,
    )
    with console.capture() as cap:
        console.print(render(st, view, width, height))
    return cap.get().rstrip("\n").split("\n")


def live_enabled(stream: TextIO | None = None) -> bool:
    """The full-screen view only on a terminal, and never when NO_COLOR is set."""
    stream = stream or sys.stdout
    return term.colour_enabled(stream) and not os.environ.get("TERM") == "dumb"


def print_once(st: Status, view: View, stream: TextIO | None = None) -> None:
    """The table view printed once, as wide as the terminal and as tall as it needs."""
    console = Console(file=stream or sys.stdout)
    view.keys = view.port = ""
    console.print(render(st, view, console.width, 100))


class Screen:
    """The table view on this terminal while a round runs (a context manager).

    On a terminal: full screen (the terminal's alternate screen, so the scrollback keeps what
    came before), redrawn when the status or the terminal's size changes; `note()` shows a
    message on it. Otherwise: one plain line per change of state, and notes as lines.
    """

    def __init__(self, view: View, stream: TextIO | None = None, live: bool | None = None) -> None:
        self.view = view
        self.stream = stream or sys.stdout
        self.live = live_enabled(self.stream) if live is None else live
        self._live = None
        self._console: Console | None = None
        self._last = None
        self._st = None

    def __enter__(self) -> Screen:
        if self.live:
            from rich.live import Live

            # rich's own screen codes (the alternate screen, the cursor home of each redraw)
            # go to the terminal itself: cli's SafeStream would print them as text. What the
            # view shows is rich Text, which has no control characters (rich strips them, and
            # names pass through `safe` first).
            self._console = Console(file=getattr(self.stream, "raw", self.stream))
            self._live = Live(
                console=self._console,
                screen=True,
                auto_refresh=False,
                redirect_stdout=False,
                redirect_stderr=False,
                transient=True,
            )
            self._live.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    def show(self, st: Status, force: bool = False) -> None:
        self._st = st
        if self._live is not None and self._console is not None:
            size = self._console.size
            key = (
                repr(st),
                size,
                tuple(self.view.notes),
                repr(self.view.ring),
                repr(self.view.buttons),
            )
            if key != self._last or force:
                self._last = key
                self._live.update(render(st, self.view, size.width, size.height), refresh=True)
            return
        key = (
            st.get("phase"),
            st.get("round"),
            st.get("step"),
            st.get("turn"),
            st.get("countdown"),
            [(p.get("state"), p.get("token"), p.get("photos")) for p in st.get("players", [])],
        )
        if key != self._last:
            self._last = key
            self._plain(status_text.one_line(st))

    def note(self, text: str) -> None:
        if self._live is not None:
            self.view.note(text)
            if self._st is not None:
                self.show(self._st, force=True)
        else:
            self._plain(text)

    def _plain(self, text):
        self.stream.write(safe(text) + "\n")
        self.stream.flush()


def wrapped(text: str, width: int | None = None, indent: str = "    ") -> list[str]:
    """`text` as lines that fit the terminal (or `width`): broken between words, never inside one
    (a word wider than the terminal stays whole)."""
    import shutil
    import textwrap

    width = width or shutil.get_terminal_size((80, 24)).columns
    return textwrap.wrap(
        safe(text),
        width=max(20, width - 1),
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [""]
