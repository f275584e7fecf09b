"""The terminal side of `presstime play` while a round runs: the table view and the keys.

`TableScreen` is mixed into play's session class (tableside/play_session.py PlaySession). It
owns what the players see and type during a round: the table view (display.Screen: full screen
on a terminal, plain lines otherwise), one key per press (keyboard.Keys), the simulator's virtual
presses (long ones too), undo (or why not) and the messages shown on the screen. The session
keeps the game: the board, the history, the scores. The session provides `client`, `say`, `demo`
and `live`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from presstime.board.link import BoardError, StatusFeed
from presstime.core import wire
from presstime.tableside import status_text
from presstime.tableside.keyboard import Keys, long_seat

if TYPE_CHECKING:
    from presstime.board.link import BoardClient
    from presstime.hints import Say, Status
    from presstime.tableside.display import Screen, View
    from presstime.tableside.sound import TableSounds

LONG_PRESS_MS = 900  # a long press from the keyboard: over the board's 0.8 s photo-token hold
HOLD_LAST_S = 1.5  # the round's last picture stays this long on the full screen
ABORT_AGAIN_S = 3.0  # x, then x again within this: the round is aborted
_PHASE_WORDS: dict[str | None, str] = {  # a status's phase, as typed keys word it
    "countdown": "counting down",
    "running": "running",
    "grace": "in its grace window",
    "ready": "waiting to start",
    "summary": "over",
    "over": "over",
}
_KEYS: list[Keys | None] = [None]  # the keys of the round being shown (read by poll_line)


def poll_line(timeout: float) -> str | None:
    """A key (on a terminal, one at a time) or a line typed on stdin within `timeout` seconds,
    or None (EOF: None)."""
    import sys

    keys = _KEYS[0]
    if keys is None:
        keys = Keys(sys.stdin)
    return keys.poll(timeout)


class TableScreen:
    # What the session provides (play_session.PlaySession sets them in its __init__):
    client: BoardClient
    say: Say
    demo: object  # the session's scripted presses and numbers, or None: only whether one is set
    live: bool | None  # True/False: the full-screen table view; None: decide by stdout
    # What init_screen sets:
    view: View
    screen: Screen | None
    sounds: TableSounds | None

    KEYS = (
        "1-6 press \u00b7 Enter start/resume \u00b7 p pause \u00b7 u undo \u00b7 x x abort "
        "\u00b7 ? help"
    )
    HELP = (
        "1-6: a player's button \u00b7 Enter: start or resume \u00b7 p: pause \u00b7 x twice: "
        "abort (the round restarts) \u00b7 u: undo a press under 5 s old \u00b7 Ctrl-C: stop (what "
        "was typed is kept as a draft)"
    )

    def init_screen(self, grace_ms: int = 5000) -> None:
        from presstime.tableside.display import View

        keys = (
            self.KEYS
            if not self.demo
            else "a demo: simulated presses, example scorepad numbers \u00b7 Ctrl-C stops"
        )
        self.view = View("play", keys=keys, grace_ms=grace_ms)
        self.screen = None  # the table view while a round runs
        self.sounds = getattr(self, "sounds", None)  # sound.TableSounds, or None: silent

    def note(self, text: str) -> None:
        """A message while a round runs: on the table view, else a line."""
        screen = getattr(self, "screen", None)
        if screen is not None:
            screen.note(text.strip())
        else:
            self.say(text)

    def round_screen(self) -> Screen:
        from presstime.tableside.display import Screen

        return Screen(self.view, live=self.live)

    def show_round(
        self,
        act: Callable[[Status], bool | None],
        poll: Callable[[float], str | None] | None = None,
        idle_s: float = 0.05,
    ) -> Status:
        """Show the board on the table view until the round is over (summary or over), or `act`
        returns False. `act(st)` runs once a loop with the status (demo presses, typed keys).
        Returns the last status; its record (status_text.lines) is then printed below."""
        if not hasattr(self, "view"):
            self.init_screen()
        st = self.client.status()
        feed = StatusFeed(self.client, idle_s)  # the board pushes it (or it is polled)
        with Keys() as keys, self.round_screen() as screen:
            _KEYS[0] = keys
            self.screen = screen
            try:
                if st.get("phase") == "ready" and not self.demo and not screen.live:
                    self.say(self.start_hint(st))
                while True:
                    st = feed.next()  # waits up to idle_s for a change
                    sounds = getattr(self, "sounds", None)
                    if sounds is not None:
                        sounds.hear(st)
                    pad = getattr(self, "pad", None)
                    if pad is not None:
                        pad.board(st)  # the big screen's countdown (scorepad)
                    if st.get("phase") in ("summary", "over") or act(st) is False:
                        break
                    screen.show(st)
                screen.show(st)  # the last picture (the last token, the winning photo)
                if screen.live:
                    time.sleep(HOLD_LAST_S)
            finally:
                self.screen = None
                _KEYS[0] = None
                pad = getattr(self, "pad", None)
                if pad is not None and screen.live:
                    pad.covered = True  # the full screen hid the scorepad's URL and QR code
        for line in status_text.lines(st):
            self.say(line)
        return st

    def start_hint(self, st: Status) -> str:
        return (
            "%s: press the board's control button, or Enter here to start (? for help)."
            % status_text.headline(st)
        )

    def typed(self, word: str, st: Status) -> None:
        """A key or word typed during a round (`st`: the status it was typed on). Every key gets
        an answer: what it did, or why it did nothing."""
        phase = st.get("phase")
        armed, self._abort_armed = getattr(self, "_abort_armed", None), None
        try:
            held = long_seat(word)  # a long press's seat ("l3"), else None
            if word.isdigit() and 1 <= int(word) <= 9 or held is not None:
                seat, hold = (int(word) - 1, None) if held is None else (held, LONG_PRESS_MS)
                why = status_text.why_press_does_nothing(st, seat) if not hold else None
                if why:
                    self.note("  " + why)
                    return
                if hold:
                    self.note("  a long press of seat %d" % (seat + 1))
                try:
                    self.client.press(seat, hold)  # the simulator's virtual buttons
                except BoardError as e:
                    if e.code != wire.E_UNKNOWN:
                        raise
                    self.note("  this board takes presses on its own buttons only")
            elif word == "l":
                self.note("  long press: now the player's seat number (1-6)")
            elif word in ("", "s", "start") and phase == "ready":
                self.client.start()
            elif word in ("p", "pause") and phase == "running":
                self.client.pause()
            elif word in ("p", "", "r", "resume") and phase == "paused":
                self.client.resume()
            elif word in ("a", "x", "abort"):
                self.abort(armed, phase)
            elif word in ("u", "undo"):
                self.undo()
            elif word in ("?", "h", "help"):
                self.note("  " + self.HELP)
            elif word in ("", "s", "start", "p", "pause", "r", "resume"):
                self.note(
                    "  %s: nothing to do while the round is %s"
                    % (word or "Enter", _PHASE_WORDS.get(phase, phase))
                )
            else:
                self.note("  key %r does nothing here (? lists the keys)" % word)
        except BoardError as e:
            self.note("  the board refused: %s" % e.board_message)

    def abort(self, armed: float | None, phase: str | None) -> None:
        """x once asks, x again within ABORT_AGAIN_S throws the round away and says so."""
        if phase not in ("countdown", "running", "paused", "grace"):
            self.note("  x: no round is running to abort")
            return
        now = time.monotonic()
        if armed is None or now - armed > ABORT_AGAIN_S:
            self._abort_armed = now
            self.note(
                "  x again aborts this round (its presses are lost; it restarts from the "
                "ready check); any other key keeps it"
            )
            return
        self.client.abort()
        self.note("  round aborted: its presses are gone; it starts again from the ready check")

    def undo(self) -> None:
        """Undo the last press: the control button's double press (simulator), or say why not."""
        st = self.client.status()
        if not st.get("undo"):
            self.note("  undo refused: " + status_text.why_no_undo(st))
            return
        who = status_text.last_presser(st)
        try:
            self.client.press(-1)
            time.sleep(0.15)
            self.client.press(-1)
        except BoardError as e:
            if e.code != wire.E_UNKNOWN:
                raise
            self.note(
                "  undo: double-press the board's control button (a real board takes it there)"
            )
            return
        self.note("  undone: the last press%s" % (" (%s's)" % who if who else ""))
