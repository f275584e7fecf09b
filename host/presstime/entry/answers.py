"""What the entry engine (entry/entry.py) and the scorepad share about one answer: where it goes
in a game record (a path of keys and indexes), the core's verdict on it (the problems it brings:
those the core finds with it and not without it; no message is read for its meaning), how a
refusal is said, and how the entry stops (`quit`, the end of the input).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from presstime import records
from presstime.core import entry as core_entry
from presstime.core.entry import (  # noqa: F401 (a record path read and written: the core's)
    ABSENT,
    get as get_at,
    put as set_at,
    with_value,
)
from presstime.history.game_words import players_words
from presstime.term import paint

if TYPE_CHECKING:
    from presstime.hints import Ask, Json, Record

Path = Sequence[Any]  # a place in a record: ("rounds", 0, "players", "Ada", "lines")

# get_at(record, path): the value at `path`, None when anything on the way is missing;
# set_at(record, path, value): `value` at `path`, in place, the containers on the way made when
# missing; with_value(record, path, value): a copy with `value` there (ABSENT: the key taken
# out). The board's own entry and sync use the same code (core/entry.py), and the check of a
# typed number is the core's too (problems_of).


class EntryStopped(Exception):
    """The user typed `quit` or the input ended (EOF). Everything accepted is already saved."""

    def __init__(self, eof: bool = False) -> None:
        self.eof = eof
        super().__init__("input ended" if eof else "stopped")

    @property
    def status(self) -> int:
        """The exit status, the same in `play` and `enter`: 0 after `quit`, 1 when the input
        ended."""
        return 1 if self.eof else 0


def player_name(entry: Json) -> Json:
    """A player's name, whether the record lists it alone or with a character."""
    return entry.get("name") if isinstance(entry, dict) else entry


def player_names(record: Record) -> list[Any]:
    """The record's players' names, in seat order."""
    return core_entry.names_of(record)


def problems_of(record: Record, path: Path, value: Json) -> list[str]:
    """The core's problems that `value` at `path` brings: those it finds with it and not without
    it (what is not answered yet stays missing in both)."""
    return core_entry.problems(record, path, value, check=records.check_record)


def read_answer(ask: Ask, prompt: str) -> str:
    """One answer to a set-up question, stripped; EntryStopped on EOF or `quit`."""
    try:
        text = ask(prompt)
    except EOFError:
        raise EntryStopped(eof=True)
    if text.strip().lower() in ("quit", "q"):
        raise EntryStopped()
    return text.strip()


def refused(text: str) -> str:
    """A refusal in the game's words (never its field names), yellow on a terminal (plain
    otherwise, and with NO_COLOR)."""
    return paint(players_words(text), "33")


def is_number(text: str) -> bool:
    """A whole number as typed: digits, an optional sign."""
    t = text.strip()
    if t[:1] in ("-", "+"):
        t = t[1:]
    return t.isdigit() and t.isascii()


def asked(ask: Ask, prompt: str) -> str:
    """One answer as typed (commands included); EntryStopped(eof) when the input ended."""
    try:
        return ask(prompt)
    except EOFError:
        raise EntryStopped(eof=True)


def is_seat_step(record: Record, kind: str, path: Path) -> bool:
    """Is this question of the game's face one player's own number (asked on their phone)?"""
    names = player_names(record)
    return kind == "int" and any(isinstance(k, str) and k in names for k in path)
