"""Keys at the table: one key per press on a terminal (no Enter, no echo), whole lines otherwise.

`Keys` is a context manager around stdin. On a terminal it switches to cbreak mode (keys arrive
at once, not echoed, Ctrl-C still interrupts) and restores the terminal on every exit; `poll()`
then returns one key at a time: "1".."6", "l3" (the `l` key then a seat: a long press), ""
for Enter or space, or the letter. Without a terminal (a pipe, a test) `poll()` returns each
line typed, stripped and lower-cased, so the same words work there ("3", "l3", "start", "p").
"""

from __future__ import annotations

import os
import select
import sys
from typing import TextIO

LONG = "l"  # then a seat number: a long press (Myth Fits photo token)


class Keys:
    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stdin
        self._saved = None
        self._fd = -1  # stdin's descriptor, on a terminal
        self._buf = ""
        self._long = False

    def __enter__(self) -> Keys:
        try:
            fd = self.stream.fileno()
            tty_in = os.isatty(fd)
        except (AttributeError, OSError, ValueError):
            tty_in = False
        if tty_in:
            import termios
            import tty

            self._fd = fd
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._saved is not None:
            import termios

            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    @property
    def one_key(self) -> bool:
        """True when keys come one at a time (a terminal in cbreak mode)."""
        return self._saved is not None

    def poll(self, timeout: float = 0.0) -> str | None:
        """The next key or typed word, or None if nothing came within `timeout` seconds."""
        if self._saved is None:
            return _poll_line(self.stream, timeout)
        if not self._buf:
            try:
                ready, _, _ = select.select([self._fd], [], [], timeout)
            except (OSError, ValueError):
                return None
            if not ready:
                return None
            try:
                self._buf = os.read(self._fd, 64).decode("utf-8", "replace")
            except OSError:
                return None
            if not self._buf:
                return None
        return self._take()

    def _take(self):
        ch, self._buf = self._buf[0], self._buf[1:]
        if ch == "\x1b":  # an escape sequence (arrow keys...): dropped whole
            self._buf = self._buf.lstrip("[O0123456789;")[1:]
            return None
        if ch in "\r\n ":
            return ""
        ch = ch.lower()
        if self._long:  # `l` came before: a seat makes it a long press
            self._long = False
            if "1" <= ch <= "6":
                return LONG + ch
        if ch == LONG:
            self._long = True  # the caller may say "now the seat"
            return LONG
        return ch


def _poll_line(stream, timeout):
    """A line typed on `stream` within `timeout` seconds, stripped and lower-cased, or None
    (POSIX select; EOF: None)."""
    try:
        ready, _, _ = select.select([stream], [], [], timeout)
    except (OSError, ValueError, TypeError):
        return None
    if not ready:
        return None
    line = stream.readline()
    return line.strip().lower() if line else None


def long_seat(word: str) -> int | None:
    """The seat (0-based) of a long-press word such as "l3", or None."""
    if len(word) == 2 and word[0] == LONG and "1" <= word[1] <= "6":
        return int(word[1]) - 1
    return None
