"""What each seat is asked in a round, and the core's verdict on one answer.

A Question is one number a player types on their own phone: the path in the game record where
the answer goes, the field's name and its label. Which questions a round has, and in which order,
comes from the same place as `presstime enter`'s (the entry asks the core); table-wide answers
(the finishing order, a Breaking News card, Heat's "arrested?", Myth Fits' gatherer) are not a
player's: the host gives them at the terminal.
"""

import copy

from .. import records
from ..entry import LABELS, ScoreEntry, player_names, round_slot
from ..game_entry import GameEntry, _set

MAX_ABS = 10 ** 6       # a number a phone may send at all (the core's own limits are far lower)


class Question:
    def __init__(self, seat, path, field, label, places):
        self.seat = seat
        self.path = tuple(path)
        self.field = field
        self.label = label
        self.places = places      # the core's message prefixes that concern this answer

    def public(self):
        return {"field": self.field, "label": self.label}


def seat_questions(record, round_index):
    """{seat: [Question, ...]} for every seat that types numbers in this round (in order)."""
    names = player_names(record)
    out = {}
    game = record.get("game", "fit-to-print")
    if game == "fit-to-print":
        probe = copy.deepcopy(record)
        round_slot(probe, round_index)
        for name, field in ScoreEntry(probe, lambda r: None)._steps(round_index):
            seat = names.index(name)
            place = "round %d, player %s, %s" % (round_index + 1, name, field)
            out.setdefault(seat, []).append(Question(
                seat, ("rounds", round_index, "players", name, field), field,
                LABELS.get(field, field.replace("_", " ")), (place,)))
    else:
        entry = GameEntry(record, lambda r: None)
        for step in entry.steps(round_index if game == "mini-fits" else None):
            hits = [n for n in names if n in step.path]
            if not hits or step.kind != "int":
                continue            # a table-wide question: the host's
            seat = names.index(hits[0])
            label = step.label.split(" · ")[-1]
            out.setdefault(seat, []).append(Question(seat, step.path, step.path[-1], label, step.places))
    # keep seat order stable and each seat's questions in asking order
    return {s: out[s] for s in sorted(out)}


def problems(record, question, value):
    """The core's messages about this one answer ([] when it is possible)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return ["%s: a whole number, please" % question.label]
    if abs(value) > MAX_ABS:
        return ["%s: %d is not a possible value" % (question.label, value)]
    probe = copy.deepcopy(record)
    _set(probe, list(question.path), value)
    out = []
    for m in records.check_record(probe):
        if m.endswith(": missing"):
            continue
        for place in question.places:
            if m.startswith(place + ":") or m.startswith(place + ","):
                out.append(_friendly(m, place, question))
                break
    return out


def _friendly(message, place, question):
    rest = message[len(place):].lstrip(":, ")
    return "%s: %s" % (question.label, rest) if rest else message


def apply(record, question, value):
    """Write an accepted answer into the record (the round's slot made first when new)."""
    if question.path[0] == "rounds" and record.get("game", "fit-to-print") == "fit-to-print":
        round_slot(record, question.path[1])
    _set(record, list(question.path), value)
