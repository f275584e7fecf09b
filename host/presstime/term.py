"""Terminal helpers: colour only on a terminal, and never when NO_COLOR is set."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from typing import TextIO


def colour_enabled(stream: TextIO | None = None) -> bool:
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def paint(text: str, code: str | int, stream: TextIO | None = None) -> str:
    """`text` in ANSI colour `code` (e.g. "1;32") when colour is enabled."""
    if not colour_enabled(stream):
        return text
    return "\x1b[%sm%s\x1b[0m" % (code, text)


# --- control characters: never printed raw --------------------------------------------------
#
# A name, a board id or a file's content may hold characters that act on a terminal instead of
# printing (an escape sequence repaints it, a carriage return or a backspace rewrites the line).
# Names are refused where they enter (core/record_checks.control); whatever text is printed goes
# through `printable`, and every command's stdout and stderr through `SafeStream` (cli.main), which
# lets only presstime's own screen codes pass.

# C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional overrides
# (the same set as core/record_checks.control).
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069]")

# The screen codes presstime itself writes: colour (SGR), home + clear, carriage return + clear
# line, hide/show the cursor. Anything else with a control character is escaped.
_OWN = re.compile(r"\x1b\[[0-9;]{0,20}m|\x1b\[H\x1b\[J|\r\x1b\[K|\x1b\[\?25[lh]|\n|\t")


def _escape(match):
    # \uXXXX: readable, and inside a JSON string (--json output) the very same character again
    return "\\u%04x" % ord(match.group())


def printable(text: object) -> str:
    """`text` with every control character written as a visible escape (`\\u001b`, `\\u000d`);
    newlines and tabs too. For one value (a name, a board id, a file's cell) put into a line."""
    return CONTROL.sub(_escape, str(text))


def safe_text(text: str) -> str:
    """`text` with presstime's own screen codes, newlines and tabs kept and every other control
    character escaped as `printable` does."""
    out = []
    pos = 0
    for m in _OWN.finditer(text):
        out.append(CONTROL.sub(_escape, text[pos : m.start()]))
        out.append(m.group())
        pos = m.end()
    out.append(CONTROL.sub(_escape, text[pos:]))
    return "".join(out)


class SafeStream:
    """A text stream that passes what is written through `safe_text` (a bell alone still rings)."""

    def __init__(self, stream: TextIO) -> None:
        self.raw = stream

    def write(self, text: str) -> int:
        if text != "\a":
            text = safe_text(text)
        return self.raw.write(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self.raw, name)
