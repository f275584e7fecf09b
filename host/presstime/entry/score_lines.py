"""What the entry engine (entry/engine.py) shows of the scores while a game is typed: each
player's round score as their last number of the round is typed, the round's scores after it, and
the standings so far (`show`). The core scores; the face says the words and which numbers
(POINT_CATEGORIES, GAME_FIELDS) are shown beside the points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime import records
from presstime.entry.answers import refused
from presstime.entry.rounds import round_probe
from presstime.errors import BadInput
from presstime.report import standings_text
from presstime.term import paint

if TYPE_CHECKING:
    from presstime.entry.walker import Walker
    from presstime.hints import Result


def probe_tally(entry: Walker, ri: int) -> Result | None:
    """The core's tally of rounds 1..ri+1, unanswered numbers of round ri counted as 0 (None,
    its problems said, when the core refuses them)."""
    try:
        return records.tally(round_probe(entry.record, ri))
    except BadInput as e:
        for m in e.messages:
            entry.say(refused("  problem: " + m))
        return None


def show_player(entry: Walker, ri: int, name: str) -> None:
    """ "Ada, round 1 (Friday): 12 points, $3  (articles +8, ...)  total 12, $3"."""
    result = probe_tally(entry, ri)
    if result is None:
        return
    for p in result["players"]:
        if p["name"] == name:
            r = p["rounds"][ri]
            parts = []
            for cat in entry.face.POINT_CATEGORIES:
                if r.get(cat):
                    parts.append("%s %+d" % (cat.replace("_", " "), r[cat]))
            entry.say(
                "  %s  (%s)  total %d%s"
                % (
                    paint(
                        "%s, %s: %d points%s"
                        % (name, entry.round_title(ri), r["score"], _beside(entry, r)),
                        "1",
                    ),
                    ", ".join(parts) or "nothing scored",
                    _total(p),
                    _beside(entry, p),
                )
            )


def show_round(entry: Walker, ri: int) -> None:
    """ "round 1 (Friday) scores: Ada 12 ($3), Ben 9 ($0)"."""
    result = probe_tally(entry, ri)
    if result is None:
        return
    cells = []
    for p in result["players"]:
        r = p["rounds"][ri]
        beside = [_amount(unit, r[key]) for key, _label, unit in entry.face.GAME_FIELDS]
        cells.append(
            "%s %d%s" % (p["name"], r["score"], " (%s)" % ", ".join(beside) if beside else "")
        )
    entry.say("  %s scores: %s" % (entry.round_title(ri), ", ".join(cells)))


def show_so_far(entry: Walker) -> None:
    """`show` while the rounds are typed one at a time: the standings of the rounds started, the
    numbers of the last one not typed yet counted as 0."""
    rounds = entry.record["rounds"]
    if not rounds:
        entry.say("  no round entered yet")
        return
    last = len(rounds) - 1
    result = probe_tally(entry, last)
    if result is None:
        return
    entry.say(standings_text(result, entry.record).rstrip("\n"))
    if [s for s in entry.steps(last) if not entry.answered(s)]:
        entry.say("  (numbers not typed yet count as 0 here)")


def show_standings(entry: Walker) -> None:
    """`show`: the core's standings of the record as it is, once it can score it."""
    try:
        entry.say(standings_text(records.tally(entry.record)).rstrip("\n"))
    except BadInput:
        entry.say("  (no standings yet: some answers are still missing)")


def _beside(entry: Walker, numbers: dict[str, Any]) -> str:
    """ ", $3": the numbers the face's GAME_FIELDS count beside the points (ad revenue)."""
    return "".join(
        ", " + _amount(unit, numbers[key]) for key, _label, unit in entry.face.GAME_FIELDS
    )


def _amount(unit: str, value: int) -> str:
    """ "$3", "3 squares": a whole number in its unit, dollars before it."""
    return "$%d" % value if unit == "$" else "%d %s" % (value, unit)


def _total(p: dict[str, Any]) -> int:
    return p["total"] if p.get("total") is not None else 0
