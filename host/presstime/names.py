"""The desktop's door for players' names. The rule itself is the core's (core/config.py:
name_refused, key), the very code the board runs at a set-up; what only the
desktop can do is here, and every entry point goes through it:

- `typed(text)`: a name as a user typed it (--players, enter, a stats filter):
  spaces at both ends dropped, Unicode NFC (the board has no unicodedata, so a name reaches a
  board or the store only in NFC: "é" typed as e + U+0301 and as U+00E9 is one player);
- `entered_list(texts, where)`: a seat order as typed -> the names, typed() and then the core's
  rule, duplicates (compared by the core's key) refused: BadInput naming each seat otherwise;
- `normal_record(record)`: a record read from a file, a board's journal or the history, with
  every text in NFC (names and the per-player keys that repeat them alike), so a record that was
  not written by this desktop is compared and stored as if it had been;
- `parse_players(text)`: names typed comma-separated (play's --players) -> the seat order,
  through entered_list;
- `key(name)`: what two names are compared by (the core's key of the NFC form).
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from presstime.core.config import key as name_key, name_refused
from presstime.errors import BadInput

if TYPE_CHECKING:
    from presstime.hints import Json


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def typed(text: str) -> str:
    """A typed name as the desktop keeps it: stripped at both ends, in NFC."""
    return nfc(text.strip())


def key(name: str) -> bytes:
    return name_key(nfc(name))


def same(a: str, b: str) -> bool:
    """True when `a` and `b` (typed or stored) name the same player."""
    return key(typed(a)) == key(typed(b))


def entered_list(texts: list[str], where: str) -> list[str]:
    """A seat order as typed -> the names; BadInput with one message per problem, each naming
    its seat ("--players, seat 2: ...")."""
    names = [typed(t) for t in texts]
    bad = []
    good = []  # compared with the good names only: a refused one may not even encode
    for i, name in enumerate(names):
        why = name_refused(name, "%s, seat %d" % (where, i + 1), good)
        if why:
            bad.append(why)
        else:
            good.append(name)
    if bad:
        raise BadInput(bad)
    return names


def parse_players(text: str, mode: str | None = None) -> list[str]:
    """Comma-separated names (play's --players, its players typed on one line) -> the seat
    order; BadInput naming each problem (the core's name rule through entered_list, as the
    board's set-up and the record checks apply it). `mode` is not read: every mode's names
    follow one rule, and how many players a mode takes is the record check's."""
    names = text.split(",")
    if not 1 <= len(names) <= 6:
        raise BadInput("--players: 1 to 6 players, got %d" % len(names))
    return entered_list(names, "--players")


def normal_record(record: Json) -> Json:
    """`record` (any JSON value) with every string, keys included, in NFC."""
    if isinstance(record, str):
        return nfc(record)
    if isinstance(record, list):
        return [normal_record(v) for v in record]
    if isinstance(record, dict):
        return dict((normal_record(k), normal_record(v)) for k, v in record.items())
    return record
