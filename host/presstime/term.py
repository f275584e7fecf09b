"""Terminal helpers: colour only on a terminal, and never when NO_COLOR is set."""

import os
import sys


def colour_enabled(stream=None):
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def paint(text, code, stream=None):
    """`text` in ANSI colour `code` (e.g. "1;32") when colour is enabled."""
    if not colour_enabled(stream):
        return text
    return "\x1b[%sm%s\x1b[0m" % (code, text)
