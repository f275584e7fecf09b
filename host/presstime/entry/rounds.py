"""A game record's rounds as the entry engine (entry/engine.py) keeps them when its face walks
them round by round (walk_style.py `by_round`): each round made with its day and its players, its
questions (the core face's `fields`), and a probe of the record with the round's numbers not typed
yet counted as 0, so the core can judge each number as it is typed (`untyped_as_zero`). Nothing
here scores: the rules and the plausibility bounds live in presstime.core.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime import games, records
from presstime.entry.answers import ABSENT, with_value

if TYPE_CHECKING:
    from types import ModuleType

    from presstime.entry.answers import Path
    from presstime.games import Face
    from presstime.hints import Json, Record


def _core(record: Record) -> ModuleType:
    """The core face of the record's game (core/<game>.py: its rounds, days and questions)."""
    return games.core_of(games.of(record))


def _face(record: Record) -> Face:
    """The desktop face of the record's game (games/<game>.py)."""
    return games.face_of(games.of(record))


def needed_fields(record: Record, round_index: int) -> list[str]:
    """The scorepad fields of this round (its mode, its set-up), in the order of the face's
    SCOREPAD_LINES (the questions' own order when it has none)."""
    fields = []
    for path, _kind, _label in _core(record).fields(record, round_index):
        if path[-1] not in fields:
            fields.append(path[-1])
    order = _face(record).SCOREPAD_LINES
    return sorted(fields, key=order.index) if order else fields


def questions(record: Record, round_index: int) -> list[tuple[str, str]]:
    """The scorepad questions of a round in the order they are asked: [(player, field)]."""
    return [(path[3], path[4]) for path, kind, label in _core(record).fields(record, round_index)]


def round_slot(record: Record, i: int) -> dict[str, Any]:
    """Round i of the record (its `day` and an empty `players` filled in when it is new)."""
    rounds = record.setdefault("rounds", [])
    while len(rounds) <= i:
        rnd: dict[str, Any] = {}
        day = _core(record).round_name(effective_mode(record), len(rounds))
        if day is not None:
            rnd["day"] = day
        rnd["players"] = {}
        rounds.append(rnd)
    rnd = rounds[i]
    rnd.setdefault("players", {})
    return rnd


def effective_mode(record: Record) -> str:
    """The mode the core plays this set-up in (the face's play_mode: Fit to Print scores a
    one-player standard game as solo)."""
    return _face(record).play_mode(record)


def rounds_in(record: Record) -> int:
    """The rounds of a complete game in the mode the core plays the record in."""
    return _core(record).rounds_in(effective_mode(record))


def round_probe(record: Record, ri: int, path: Path | None = None, value: Json = None) -> Record:
    """Rounds 1..ri+1 of the record (`value` at `path` if given, ABSENT: taken out) with every
    question of round ri not answered yet counted as 0. Only what changes is copied."""
    rec = with_value(record, path, value) if path else dict(record)
    rounds = list(rec.get("rounds") or [])[: ri + 1]
    while len(rounds) <= ri:
        rounds.append({"players": {}})
    rnd = dict(rounds[ri])
    pads = dict(rnd.get("players") or {})
    for p, _kind, _label in _core(rec).fields(dict(rec, rounds=rounds), ri):
        numbers = pads.get(p[3])
        numbers = dict(numbers) if isinstance(numbers, dict) else {}
        numbers.setdefault(p[4], 0)
        pads[p[3]] = numbers
    rnd["players"] = pads
    rounds[ri] = rnd
    rec["rounds"] = rounds
    return rec


def new_problems(record: Record, ri: int, path: Path, value: Json) -> list[str]:
    """The core's problems that `value` at `path` brings to round ri: those it finds with the
    value and not without it, questions not answered yet counted as 0 in both (two checks; no
    message is read for its meaning)."""
    before = set(records.check_record(round_probe(record, ri, path, ABSENT)))
    return [
        m for m in records.check_record(round_probe(record, ri, path, value)) if m not in before
    ]
