"""The computer sounds at the moments the board beeps, when no board speaker is there (a simulator).

`moments(before, now, warn)` reads two statuses in a row and returns the board's beeps between
them, with the board's own tones (device/app.py): each warning (`warn`: the set-up's warning
times, ms left), each Print! (a press that took a token), the time-out, and the end of the round
or of the grace window. `Beeper` plays a tone through the computer's audio when the optional
`sounddevice` package (`pip install -e '.[sound]'`, PortAudio) finds an output, else rings the
terminal bell; `TableSounds` ties the two to the statuses `play` reads.
"""

from __future__ import annotations

import math
import sys
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from presstime.core.table import END, TIMEOUT, WARNINGS
from presstime.device import app as board

if TYPE_CHECKING:
    from presstime.board.link import BoardClient
    from presstime.hints import Status

_TIMED = ("running", "paused")
_ENDED = ("summary", "over")
_END_TIME = 2  # core/table.py end_reason: the time ran out (no grace window)


def _tone(kind):
    """(Hz, ms) of the board's beep for an event kind (its _BEEP table)."""
    return board._BEEP[2 * kind] * 20, board._BEEP[2 * kind + 1] * 10


def warning_tone(level: int, warn: Sequence[int]) -> tuple[int, int]:
    """The board's tone for the warning `level` (ms left): higher for each later warning."""
    i = min(2, len([w for w in warn if w > level]))
    return board._WARN_BEEP[2 * i] * 20, board._WARN_BEEP[2 * i + 1] * 10


def print_tone(token: int) -> tuple[int, int]:
    """The board's Print! beep: higher for each later token (device/app.py _journal)."""
    return 1200 + 100 * token, 40


def moments(
    before: Status | None, now: Status, warn: Sequence[int] = WARNINGS
) -> list[tuple[int, int]]:
    """[(Hz, ms)] the board beeped between the statuses `before` and `now` (same game)."""
    if not before or not now or before.get("round") != now.get("round"):
        return []
    out = []
    alert = now.get("alert_ms") or 0
    if alert and alert != (before.get("alert_ms") or 0):
        out.append(warning_tone(alert, warn))
    old = before.get("players") or []
    for i, p in enumerate(now.get("players") or []):
        was = old[i] if i < len(old) else {}
        if (
            p.get("token") and not was.get("token") and p.get("state") in ("printed", "late")
        ):  # 0: none yet
            out.append(print_tone(p["token"]))
    then, phase = before.get("phase"), now.get("phase")
    if then in _TIMED and (
        phase == "grace" or phase in _ENDED and now.get("end_reason") == _END_TIME
    ):
        out.append(_tone(TIMEOUT))
    if then in _TIMED + ("grace",) and phase in _ENDED:
        out.append(_tone(END))
    return out


def _pcm(hz, ms, rate):
    """A sine tone as 16-bit mono samples, with 5 ms fades (no clicks)."""
    from array import array

    n = rate * ms // 1000
    fade = max(1, rate // 200)
    return array(
        "h",
        (
            int(9000 * math.sin(2 * math.pi * hz * i / rate) * min(1, i / fade, (n - i) / fade))
            for i in range(n)
        ),
    ).tobytes()


class Beeper:
    """Plays tones: the computer's audio through sounddevice when it is installed and an output
    opens, else the terminal bell on `out` (only when it is a terminal). `how`: "audio", "bell"
    or None (silent)."""

    RATE = 44100

    def __init__(self, out: TextIO | None = None, audio: bool = True) -> None:
        self.out = out if out is not None else sys.stdout
        self._sd: Any = _sounddevice() if audio else None  # the sounddevice module, or None
        self._queue = []
        self._wake = threading.Condition()
        if self._sd is not None:
            threading.Thread(target=self._player, name="presstime-sound", daemon=True).start()
        tty = getattr(self.out, "isatty", None)
        self.how = "audio" if self._sd is not None else ("bell" if tty and tty() else None)

    def tone(self, hz: int, ms: int) -> None:
        if self.how == "audio":
            with self._wake:
                self._queue.append((hz, ms))
                self._wake.notify()
        elif self.how == "bell":
            self.out.write("\a")
            self.out.flush()

    def _player(self):
        while True:
            with self._wake:
                while not self._queue:
                    self._wake.wait()
                hz, ms = self._queue.pop(0)
            try:
                with self._sd.RawOutputStream(samplerate=self.RATE, channels=1, dtype="int16") as s:
                    s.write(_pcm(hz, ms, self.RATE))
            except Exception:  # the device went away: the bell from now on
                self.how = "bell"


def _sounddevice():
    """The sounddevice module when it is installed and finds an output device, else None."""
    try:
        import sounddevice  # pyright: ignore[reportMissingImports]: the optional `sound` extra

        sounddevice.query_devices(kind="output")
    except Exception:  # not installed, no PortAudio library, no output device
        return None
    return sounddevice


class TableSounds:
    """The board's beeps on this computer while `play` shows a round."""

    def __init__(self, beeper: Beeper, warn: Sequence[int] = WARNINGS) -> None:
        self.beeper = beeper
        self.warn = tuple(warn)
        self.last = None

    def hear(self, st: Status) -> None:
        for hz, ms in moments(self.last, st, self.warn):
            self.beeper.tone(hz, ms)
        self.last = st


def for_board(
    client: BoardClient, mute: bool = False, warn: Sequence[int] | None = None
) -> TableSounds | None:
    """TableSounds for the board `client` talks to, or None: muted, or the board has a speaker
    of its own (a real board; `presstime sim --pty`, which rings in its own terminal). `warn`:
    the warning times set up (None: the board's default)."""
    if mute or (client.info or {}).get("board") != "sim":
        return None
    holder = getattr(client.transport, "holder", None)
    if holder and holder.get("command") == "sim --pty":
        return None
    return TableSounds(Beeper(), WARNINGS if warn is None else warn)
