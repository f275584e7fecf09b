"""Game records on the desktop: read a file, check it with the core, tally it with the core.

The rules live in presstime.core (the same files the board runs); this module only turns the
core's answers into BadInput for the CLI.
"""

import json

from .core import games
from .errors import BadInput


def parse(text, source="input"):
    """A record from JSON text; BadInput naming the line and column when it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise BadInput("%s: not valid JSON: %s at line %d, column %d" % (source, e.msg, e.lineno, e.colno))


def read_text(path):
    """The text of the file at `path` (UTF-8, a BOM allowed); BadInput naming the file otherwise."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise BadInput("%s: no such file" % path)
    except IsADirectoryError:
        raise BadInput("%s: is a folder, not a file" % path)
    except OSError as e:
        raise BadInput("%s: cannot read: %s" % (path, e.strerror or e))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise BadInput("%s: not UTF-8 text (byte %d)" % (path, e.start))


def load(path):
    """The record in the JSON file at `path` (not yet checked)."""
    return parse(read_text(path), path)


def check_record(record):
    """The core's list of problems with `record` ([] when it is good)."""
    return games.check(record)


def tally(record, source=None):
    """The standings of `record`; BadInput with one message per problem if it is not good."""
    problems = check_record(record)
    if problems:
        raise BadInput([("%s: %s" % (source, p)) if source else p for p in problems])
    return games.score(record)
