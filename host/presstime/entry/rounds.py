"""The entry of a game whose rounds each have their own set-up (its face's ROUND_SETUP: Fit to
Print's finishing order and Breaking News card, asked by games/fit_to_print.py), typed before the
players' numbers: the engine's (entry/engine.py) walk round by round.

`RoundsEntry(record, save, ask=input, say=print)` walks the record round by round: each round's
set-up (the face's), then each player's scorepad numbers. Every answer is checked as it is typed
(the limits are the core's: `records.check_record`), saved at once with `save(record)`, and each
player's round score is shown by the core (`records.tally`) before moving on. Nothing here
scores: the rules and the plausibility bounds live in presstime.core.

Commands accepted at any prompt (type `?` to see them):
  back        the previous question again
  fix NAME    re-enter one player's numbers in this round (name or seat number)
  round N     go through round N again (Enter keeps each value)
  show        the standings so far
  quit        stop here; everything typed is saved (resume later)

In modes that compare white space at the table (standard with 2+ players, turn-based), every
player's largest white-space area is asked first, so each player's round score shown afterwards
is already exact. The same holds for the tile counts of a "most tiles gain $" Breaking News card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from presstime import games, records
from presstime.entry.answers import (
    ABSENT,
    EntryStopped,
    is_number,
    refused,
    with_value,
)
from presstime.entry.engine import Entry, Save
from presstime.errors import BadInput
from presstime.report import standings_text
from presstime.term import paint

if TYPE_CHECKING:
    from types import ModuleType

    from presstime.entry.answers import Path
    from presstime.games import Face
    from presstime.hints import Ask, Json, Record, Result, Say

HELP = """At any question you can type:
  a number    the answer (Enter alone keeps the value shown in [brackets])
  back        go back to the previous question
  fix NAME    re-enter one player's numbers in this round (name or seat number)
  round N     go through round N again to correct it (Enter keeps each value)
  show        the standings so far
  quit        stop here: everything typed is saved as a draft (the line then says how to finish it)
  ?           this help
The same commands work at the finishing-order and Breaking News questions."""


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


class RoundsEntry(Entry):
    """Interactive, resumable entry of a game record's rounds, each round's set-up first
    (engine.Entry says what the arguments are)."""

    STANDINGS_AFTER_STORING = True

    def __init__(
        self,
        record: Record,
        save: Save,
        ask: Ask = input,
        say: Say = print,
        typed_tokens: bool = False,
    ) -> None:
        super().__init__(record, save, ask, say, typed_tokens)
        self.record.setdefault("rounds", [])

    # ------------------------------------------------------------------ whole game

    def enter_game(self, typed: bool = True) -> Result:
        """Every round not yet complete, then a review until `done`. Returns the tally."""
        for i in range(rounds_in(self.record)):
            self.enter_round(i)
        return self.review()

    def parts(self) -> list[int | None]:
        return list(range(rounds_in(self.record)))

    def part_title(self, part: int | None) -> str:
        return self.round_title(part or 0)

    def enter_table(
        self,
        part: int | None,
        finish: list[str] | None = None,
        table: dict[str, Any] | None = None,
    ) -> None:
        self.enter_setup(part or 0, finish=finish, table=table)

    def enter_rest(self, part: int | None) -> None:
        self.enter_round(part or 0, only_missing=True)

    def standings_after(self, part: int | None) -> Result | None:
        try:
            return records.tally(self.record)
        except BadInput:
            return None

    def close(self) -> Result:
        return self.review()

    @classmethod
    def make_room(cls, record: Record, path: Path) -> None:
        """A round's answer: the round made first when new (its day, its players)."""
        if path[0] == "rounds":
            round_slot(record, path[1])

    @classmethod
    def problems(cls, record: Record, part: int | None, path: Path, value: Json) -> list[str]:
        """A round's answer: the problems it brings to rounds 1..part+1, what is not answered
        yet in the round counted as 0 (new_problems); the game's end numbers: the engine's."""
        if part is None or path[0] != "rounds":
            return super().problems(record, part, path, value)
        return new_problems(record, part, path, value)

    @classmethod
    def typed_so_far(cls, record: Record, part: int | None) -> Record:
        """The rounds typed so far only (up to `part`)."""
        return dict(record, rounds=record.get("rounds", [])[: (part or 0) + 1])

    def review(self) -> Result:
        """Last chance to correct: `done` checks the whole game with the core and returns the
        tally."""
        self.say(
            "All rounds are in. Type `done` to finish, or `round N` / `fix NAME` / `show` / `?`."
        )
        while True:
            answer = self.read("done? ")
            word = answer.strip().lower()
            if word in ("done", "d", "y", "yes"):
                try:
                    return records.tally(self.record)
                except BadInput as e:
                    for m in e.messages:
                        self.say(refused("  problem: " + m))
                    self.say("Correct it with `round N` or `fix NAME`.")
                    continue
            self._command(answer, len(self.record["rounds"]) - 1, allow_back=False)

    # ------------------------------------------------------------------ one round

    def enter_round(
        self,
        round_index: int,
        finish: list[str] | None = None,
        table: dict[str, Any] | None = None,
        review: bool = False,
        only_missing: bool = False,
    ) -> None:
        """Ask the round's set-up and every player's numbers.

        finish: the finishing order from the board (token 1 first), if known; otherwise it is asked.
        table: what the board measured in the round (the record's `table` field), kept as is.
        review: walk an already complete round again (Enter keeps each value).
        only_missing: ask just the numbers not in the record (the scorepad: what the phones
        submitted is accepted and never asked again, so it cannot be typed over)."""
        rnd = self.enter_setup(round_index, finish, review, table)
        steps = self._steps(round_index)
        if only_missing:
            pads = rnd["players"]
            steps = [(name, field) for name, field in steps if field not in pads.get(name, {})]
        start = 0 if review else self._first_missing(round_index, steps)
        if start < len(steps):
            self.say("-- %s --" % self.round_title(round_index))
            self._walk(round_index, steps, start)
            self._show_round(round_index)

    def enter_setup(
        self,
        round_index: int,
        finish: list[str] | None = None,
        review: bool = False,
        table: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The round's table-wide answers only (its face's ROUND_SETUP: Fit to Print's finishing
        order and Breaking News card; and the board's `table`), not the players' numbers: the
        scorepad on the phones asks those."""
        rnd = self.round(round_index)
        setup = self.face.ROUND_SETUP
        if setup is not None:
            setup(self, round_index, rnd, finish, review, table)
        return rnd

    def round(self, i: int) -> dict[str, Any]:
        """Round i of the record (made when new)."""
        return round_slot(self.record, i)

    def round_title(self, i: int) -> str:
        """ "round 1 (Friday)": the round's number and its day, if it has one."""
        day = self.core.round_name(effective_mode(self.record), i)
        title = "round %d" % (i + 1)
        if day:
            title += " (%s)" % day.capitalize()
        return title

    def _steps(self, i: int) -> list[tuple[str, str]]:
        """The questions of round i in order: [(player, field)] (the face's fields)."""
        return questions(self.record, i)

    def _label(self, i: int, field: str) -> str:
        """The words of a scorepad line in round i, as the core face's `fields` say them."""
        for path, _kind, label in self.core.fields(self.record, i):
            if path[-1] == field:
                return label
        return field

    def _player_steps(self, i: int, name: str) -> list[tuple[str, str]]:
        return [s for s in self._steps(i) if s[0] == name]

    def _first_missing(self, i: int, steps: list[tuple[str, str]]) -> int:
        pads = self.record["rounds"][i]["players"]
        for k in range(len(steps)):
            name, field = steps[k]
            if field not in pads.get(name, {}):
                return k
        return len(steps)

    # ------------------------------------------------------------------ the question loop

    def _walk(self, ri: int, steps: list[tuple[str, str]], i: int = 0) -> None:
        pads = self.record["rounds"][ri]["players"]
        while i < len(steps):
            name, field = steps[i]
            current = pads.get(name, {}).get(field)
            prompt = "%s · %s · %s%s: " % (
                self.round_title(ri),
                name,
                self._label(ri, field),
                "" if current is None else " [%d]" % current,
            )
            answer = self.read(prompt)
            text = answer.strip()
            if text == "" and current is not None:
                value = current
            elif text == "":
                self.say(refused("  type a number (or ? for help)"))
                continue
            elif is_number(text):
                value = int(text)
                problems = self._check_value(ri, name, field, value)
                if problems:
                    for m in problems:
                        self.say(refused("  " + m))
                    continue
            else:
                if self._command(answer, ri, allow_back=True):  # back
                    if i == 0:
                        self.say(
                            "  this is the first question here; `round N` corrects an earlier round"
                        )
                    else:
                        i -= 1
                continue
            pads.setdefault(name, {})[field] = value
            self.keep()
            if all(s[0] != name for s in steps[i + 1 :]):
                self._show_player(ri, name)
            i += 1

    def _command(self, answer: str, ri: int, allow_back: bool) -> bool:
        """Run a command typed at a prompt. Returns True for `back`. Unknown: message, re-ask."""
        words = answer.strip().split()
        word = words[0].lower() if words else ""
        arg = " ".join(words[1:])
        if word in ("?", "help", "h"):
            self.say(HELP)
        elif word in ("back", "b"):
            if allow_back:
                return True
            self.say(
                "  `round N` goes through a round again; `fix NAME` re-enters a player of the last "
                "round"
            )
        elif word == "quit" or word == "q":
            raise EntryStopped()
        elif word == "show":
            self._show_standings()
        elif word == "fix":
            name = self.find_player(arg)
            if name is None:
                return False
            self.say("  re-entering %s in %s (Enter keeps a value)" % (name, self.round_title(ri)))
            self._walk(ri, self._player_steps(ri, name))
        elif word == "round":
            n = int(arg) if is_number(arg) else 0
            done = len(self.record["rounds"])
            if n < 1 or n > done:
                self.say(refused("  round N: N is a round already started, 1 to %d" % done))
                return False
            self.say("  going through %s again (Enter keeps a value)" % self.round_title(n - 1))
            self.enter_round(n - 1, review=True)
            self.say("  back to %s" % self.round_title(ri))
        else:
            self.say(refused("  %r is not a number or a command (? for help)" % answer.strip()))
        return False

    def setup_command(self, answer: str, ri: int, back: Callable[[], None] | None = None) -> bool:
        """A command typed at one of a round's set-up questions (finishing order, Breaking News
        card): True when it was one and has run (`back` through `back()`, `fix NAME` on the
        last round with numbers), False when the answer is an answer."""
        words = answer.strip().split()
        word = words[0].lower() if words else ""
        if word not in SETUP_COMMANDS:
            return False
        if word in ("back", "b"):
            if back is None:
                self.say(
                    "  this is the round's first question; `round N` goes through an earlier round "
                    "again"
                )
            else:
                back()
            return True
        if word == "fix" and ri == 0:
            self.say(
                refused(
                    "  fix NAME: no player has numbers yet; this round's come after this question"
                )
            )
            return True
        self._command(answer, ri - 1 if word == "fix" else ri, allow_back=False)
        return True

    def _check_value(self, ri: int, name: str, field: str, value: int) -> list[str]:
        """The core's problems with this one value (its limits)."""
        return new_problems(self.record, ri, ("rounds", ri, "players", name, field), value)

    # ------------------------------------------------------------------ round set-up questions

    def refused_in_round(self, ri: int, key: str, value: Json) -> bool:
        """Say the core's problems that round ri's `key` set to `value` brings; True if any."""
        problems = new_problems(self.record, ri, ("rounds", ri, key), value)
        for m in problems:
            self.say(refused("  " + m))
        return bool(problems)

    # ------------------------------------------------------------------ what is shown

    def _probe_tally(self, ri: int) -> Result | None:
        """The core's tally of rounds 1..ri+1, unanswered numbers of round ri counted as 0."""
        try:
            return records.tally(round_probe(self.record, ri))
        except BadInput as e:
            for m in e.messages:
                self.say(refused("  problem: " + m))
            return None

    def _show_player(self, ri: int, name: str) -> None:
        result = self._probe_tally(ri)
        if result is None:
            return
        for p in result["players"]:
            if p["name"] == name:
                r = p["rounds"][ri]
                parts = []
                for cat in self.face.POINT_CATEGORIES:
                    if r.get(cat):
                        parts.append("%s %+d" % (cat.replace("_", " "), r[cat]))
                self.say(
                    "  %s  (%s)  total %d%s"
                    % (
                        paint(
                            "%s, %s: %d points%s"
                            % (name, self.round_title(ri), r["score"], self._beside(r)),
                            "1",
                        ),
                        ", ".join(parts) or "nothing scored",
                        _total(p),
                        self._beside(p),
                    )
                )

    def _show_round(self, ri: int) -> None:
        result = self._probe_tally(ri)
        if result is None:
            return
        cells = []
        for p in result["players"]:
            r = p["rounds"][ri]
            beside = [_amount(unit, r[key]) for key, _label, unit in self.face.GAME_FIELDS]
            cells.append(
                "%s %d%s" % (p["name"], r["score"], " (%s)" % ", ".join(beside) if beside else "")
            )
        self.say("  %s scores: %s" % (self.round_title(ri), ", ".join(cells)))

    def _beside(self, numbers: dict[str, Any]) -> str:
        """ ", $3": the numbers the face's GAME_FIELDS count beside the points (ad revenue)."""
        return "".join(
            ", " + _amount(unit, numbers[key]) for key, _label, unit in self.face.GAME_FIELDS
        )

    def _show_standings(self) -> None:
        rounds = self.record["rounds"]
        if not rounds:
            self.say("  no round entered yet")
            return
        result = self._probe_tally(len(rounds) - 1)
        if result is None:
            return

        self.say(standings_text(result, self.record).rstrip("\n"))
        if self._first_missing(len(rounds) - 1, self._steps(len(rounds) - 1)) < len(
            self._steps(len(rounds) - 1)
        ):
            self.say("  (numbers not typed yet count as 0 here)")


# ---------------------------------------------------------------------- set-up of a new game


# the commands a round's set-up questions take besides their answers (and ? for help)
SETUP_COMMANDS = ("back", "b", "quit", "q", "show", "fix", "round")


# ---------------------------------------------------------------------- helpers


def _amount(unit: str, value: int) -> str:
    """ "$3", "3 squares": a whole number in its unit, dollars before it."""
    return "$%d" % value if unit == "$" else "%d %s" % (value, unit)


def _total(p: dict[str, Any]) -> int:
    return p["total"] if p.get("total") is not None else 0
