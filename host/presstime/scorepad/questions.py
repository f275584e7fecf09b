"""What each seat is asked in a round, and the core's verdict on one answer.

A Question is one number a player types on their own phone: the place in the game record where
the answer goes, the field's name and its label. They are the game face's own `fields(record,
round)` (the core's; None as the round: the game's end numbers), those that belong to one player;
the table-wide ones (a Breaking News card, Heat's "arrested?", Myth Fits' gatherer, ...) are the
host's, typed at the terminal. Whether an answer is possible is the core's check: the problems
it finds with the answer and not without it (the entry's way; no message read for its meaning).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from presstime import games as faces
from presstime.core import games
from presstime.entry.answers import player_names, set_at
from presstime.entry.start import engine_of

if TYPE_CHECKING:
    from presstime.hints import Json, Record

MAX_ABS = 10**6  # a number a phone may send at all (the core's own limits are far lower)


class Question:
    def __init__(
        self, seat: int, path: Sequence[str | int], field: str, label: str, round_index: int | None
    ) -> None:
        self.seat = seat
        self.path = tuple(path)
        self.field = field
        self.label = label
        self.round_index = round_index

    def public(self) -> dict[str, Any]:
        return {"field": self.field, "label": self.label}


def seat_questions(record: Record, round_index: int | None) -> dict[int, list[Question]]:
    """{seat: [Question, ...]}: every seat that types numbers in this round, in asking order."""
    face = faces.core_of(games.game_of(record))
    names = player_names(record)
    out = {}
    for path, kind, label in face.fields(record, round_index):
        who = [k for k in path if isinstance(k, str) and k in names]
        if kind != "int" or not who:
            continue  # a table-wide question: the host's
        seat = names.index(who[0])
        out.setdefault(seat, []).append(Question(seat, path, path[-1], label, round_index))
    return dict((s, out[s]) for s in sorted(out))


def problems(record: Record, question: Question, value: Json) -> list[str]:
    """The core's problems with this one answer ([] when it is possible), for the phone."""
    if isinstance(value, bool) or not isinstance(value, int):
        return ["%s: a whole number, please" % question.label]
    if abs(value) > MAX_ABS:
        return ["%s: %d is not a possible value" % (question.label, value)]
    found = engine_of(record).problems(record, question.round_index, question.path, value)
    return [_for_phone(m, question) for m in found]


def _for_phone(message, question):
    """The core's message with the place it names shortened to the question's label."""
    mark = ", %s: " % question.field
    if mark in message:
        return "%s: %s" % (question.label, message.split(mark, 1)[1])
    return message


def apply(record: Record, question: Question, value: Json) -> None:
    """Write an accepted answer into the record (the round's slot made first when new)."""
    engine_of(record).make_room(record, question.path)
    set_at(record, list(question.path), value)
