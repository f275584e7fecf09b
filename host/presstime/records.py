"""Game records on the desktop: read a file, check it with the core, tally it with the core.

The rules live in presstime.core (the same files the board runs); this module only turns the
core's answers into BadInput for the CLI.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from presstime.core import games
from presstime.errors import BadInput
from presstime.names import normal_record

if TYPE_CHECKING:
    from presstime.hints import Json, Record, Result

# Limits of what the desktop reads (docs/game-format.md, "Limits"). A game record is a few KB and
# an export of a thousand games a few MB; beyond these a file is refused with a clear message,
# never parsed into memory (a 200 MB file took ~1 GB) or into a stack overflow.
MAX_FILE_BYTES = 32 * 1024 * 1024
MAX_DEPTH = 32  # JSON nesting: a record is at most ~6 deep
MAX_DIGITS = 30  # a whole number in a record has a few digits (CPython refuses > 4300)

# a string (to its end when unterminated: never backtracks) or a bracket
_NESTING = re.compile(r'"(?:[^"\\]+|\\.)*(?:"|\\?\Z)|[\[\]{}]', re.S)


def json_depth(text: str, limit: int = MAX_DEPTH) -> int:
    """The nesting depth of JSON `text`, counted without parsing it; stops once past `limit`."""
    depth = deepest = 0
    for m in _NESTING.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif c in "]}":
            depth -= 1
    return deepest


def _unique_keys(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(
                "the key %s appears twice in one object" % json.dumps(key, ensure_ascii=True)
            )
        out[key] = value
    return out


def _whole(text):
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError("a number of %d digits (at most %d)" % (len(text.lstrip("-")), MAX_DIGITS))
    return int(text)


def _fraction(text):
    if len(text) > MAX_DIGITS + 10:
        raise ValueError("a number of %d characters" % len(text))
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError("%s is too large a number" % text)
    return value


def _constant(name):
    raise ValueError("%s is not a JSON number" % name)


def loads(text: str) -> Json:
    """JSON text -> value, the one way the desktop reads JSON it is given (files, CSV cells): at
    most
    MAX_DEPTH deep, no key twice in an object, numbers of at most MAX_DIGITS digits, no NaN or
    Infinity. ValueError (json.JSONDecodeError with a line and column when it is not JSON).
    Every text comes back in NFC (names.normal_record): a name is one player however the file
    wrote it."""
    if json_depth(text) > MAX_DEPTH:
        raise ValueError(
            "nested more than %d deep (a game record is a few levels deep)" % MAX_DEPTH
        )
    value = json.loads(
        text,
        object_pairs_hook=_unique_keys,
        parse_int=_whole,
        parse_float=_fraction,
        parse_constant=_constant,
    )
    _only_text(value)
    return normal_record(value)


def _only_text(value):
    """ValueError when a string in `value` holds a lone surrogate (JSON's "\\ud800" escape): it is
    no character at all, and could be neither printed nor stored."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError as e:
                raise ValueError(
                    "the text %s holds a lone surrogate %s, which is not a character"
                    % (json.dumps(v[:40]), json.dumps(v[e.start]))
                )


def parse(text: str, source: str = "input") -> Record:
    """A record from JSON text; BadInput naming the line and column when it is not JSON."""
    try:
        return loads(text)
    except json.JSONDecodeError as e:
        raise BadInput(
            "%s: not valid JSON: %s at line %d, column %d" % (source, e.msg, e.lineno, e.colno)
        )
    except ValueError as e:
        raise BadInput("%s: not a usable game record: %s" % (source, e))


def read_text(path: str) -> str:
    """The text of the file at `path` (UTF-8, a BOM allowed); BadInput naming the file otherwise."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise BadInput(
                "%s: larger than %d MB: not a file of game records (a game is a few KB)"
                % (path, MAX_FILE_BYTES // (1024 * 1024))
            )
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


def load(path: str) -> Record:
    """The record in the JSON file at `path` (not yet checked)."""
    return parse(read_text(path), path)


def value_depth(value: Json) -> int:
    """How deeply `value` (parsed JSON) nests: 0 for a number or text, 1 for [] or {}, ..."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            v = list(v.values())
        elif not isinstance(v, list):
            continue
        if d > deepest:
            deepest = d
            if deepest > MAX_DEPTH:
                break
        stack.extend((x, d + 1) for x in v)
    return deepest


def check_record(record: Json) -> list[str]:
    """The core's list of problems with `record` ([] when it is good). A record nested more than
    MAX_DEPTH - 1 deep is refused here (the core needs no such rule): then every record kept
    exports to JSON that reads back, even inside a list. A `uuid` (the stable id the history
    gives a game, docs/game-format.md) must be one, as the history writes it: the core, which
    never sees one on the board, only accepts the field."""
    if value_depth(record) > MAX_DEPTH - 1:
        return ["nested more than %d deep (a game record is a few levels deep)" % (MAX_DEPTH - 1)]
    problems = games.check(record)
    if isinstance(record, dict) and "uuid" in record and not is_uuid(record["uuid"]):
        problems.append(
            "uuid: must be a game's id as `presstime export` writes it, like %s (got %s)"
            % (UUID_EXAMPLE, json.dumps(record["uuid"], ensure_ascii=True)[:60])
        )
    return problems


UUID_EXAMPLE = "3f2b8c1e-5d4a-4e6f-9a7b-0c1d2e3f4a5b"
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\Z")


def is_uuid(value: Json) -> bool:
    """A UUID in its lower-case text form (what the history gives every game)."""
    return isinstance(value, str) and _UUID.match(value) is not None


def tally(record: Record, source: str | None = None) -> Result:
    """The standings of `record`; BadInput with one message per problem if it is not good."""
    problems = check_record(record)
    if problems:
        raise BadInput([("%s: %s" % (source, p)) if source else p for p in problems])
    return games.score(record)


def ranked(
    players: list[dict[str, Any]], winners: Iterable[str] | None
) -> list[tuple[int, dict[str, Any]]]:
    """[(rank, player), ...] in standing order: the winners (the core's verdict, whatever
    decided it) first, then by total, highest first; equal totals share a rank. `players`:
    dicts with "name" and "total" (None: no total yet)."""
    winners = set(winners or ())

    def key(p):
        total = p.get("total")
        return (p.get("name") not in winners, -(total if total is not None else -(10**9)))

    out, last, rank = [], None, 0
    for i, p in enumerate(sorted(players, key=key), 1):
        if key(p) != last:
            rank, last = i, key(p)
        out.append((rank, p))
    return out
