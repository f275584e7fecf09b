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


def load(path):
    """The record in the JSON file at `path` (not yet checked)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise BadInput("%s: no such file" % path)
    except IsADirectoryError:
        raise BadInput("%s: is a directory, not a game record file" % path)
    except UnicodeDecodeError:
        raise BadInput("%s: not a text file (expected a JSON game record)" % path)
    except OSError as e:
        raise BadInput("%s: cannot read: %s" % (path, e.strerror or e))
    return parse(text, path)


def check_record(record):
    """The core's list of problems with `record` ([] when it is good)."""
    return games.check(record)


def tally(record, source=None):
    """The standings of `record`; BadInput with one message per problem if it is not good."""
    problems = check_record(record)
    if problems:
        raise BadInput([("%s: %s" % (source, p)) if source else p for p in problems])
    return games.score(record)
