"""The entry engine: what `presstime enter`, the scoring step of `presstime play` and the
scorepad at the table (`--scorepad`) call to have a game's numbers typed, whatever the game.

    entry = start.new_entry(record, save, ask=input, say=print)
    result = entry.enter_game()                  # every question, then the core's standings

Every game is entered through this one class and its one walk: the questions are the core
face's `fields` (path, kind, label), asked in order; what differs between games is said by the
desktop face (games/<game>.py): ROUND_SETUP, a round's own set-up asked before its questions,
and ENTRY_STYLE (walk_style.py), the words and reach of the commands, whether the rounds are
walked one at a time with their scores shown as typed, and how the game ends. Each answer is
checked by the core as it is typed, saved at once with `save(record)`, and the engine never
scores: the rules live in presstime.core.

A game is entered in parts: its rounds, then its end numbers, the part None. The scorepad asks
each part's table-wide answers here (`enter_table`), lets the phones type each player's own
numbers, then asks here what they left (`enter_rest`).

At any question: a value; Enter keeps the value in [brackets]; `back`; `fix NAME` (one player's
answers again); `round N` (a round's answers again); `show`; `?`; `quit` (entry/commands.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from presstime import games, records
from presstime.entry import commands, score_lines
from presstime.entry.answers import (
    asked,
    get_at,
    is_number,
    is_seat_step,
    player_names,
    problems_of,
    refused,
    set_at,
)
from presstime.entry.rounds import new_problems, round_slot
from presstime.entry.walker import Step
from presstime.errors import BadInput
from presstime.names import same

if TYPE_CHECKING:
    from presstime.entry.answers import Path
    from presstime.entry.walk_style import WalkStyle
    from presstime.hints import Ask, Json, Record, Result, Say

Save = Callable[["Record"], None]


def _style(record: Record) -> WalkStyle:
    return games.face_of(games.of(record)).ENTRY_STYLE


class Entry:
    """Interactive, resumable entry of a game record's numbers.

    record: a game record with its set-up done (entry/start.py ask_setup);
    save:   called with the record after every accepted answer;
    ask:    called with a prompt, returns the typed line (EOFError at end of input);
    say:    called with each line of output;
    typed_tokens: no board counted the numbers its face's BOARD_COUNTED names, they are asked.
    """

    def __init__(
        self,
        record: Record,
        save: Save,
        ask: Ask = input,
        say: Say = print,
        typed_tokens: bool = False,
    ) -> None:
        self.record = record
        self.save = save
        self.ask = ask
        self.say = say
        self.game = games.of(record)
        self.core = games.core_of(self.game)  # core/<game>.py
        self.face = games.face_of(self.game)  # games/<game>.py
        self.style = self.face.ENTRY_STYLE
        self.typed_tokens = typed_tokens and bool(self.face.BOARD_COUNTED)
        if self.style.by_round:
            self.record.setdefault("rounds", [])

    # ------------------------------------------------------------------ the engine's calls

    def enter_game(self, typed: bool = True) -> Result:
        """Every question not answered yet, then the core's result. typed: the whole game is
        typed here (`enter`); False: the numbers a board's game waits for (a draft)."""
        if typed and self.style.intro is not None:
            rounds = ", `round N`" if self.has_rounds() else ""
            self.say(self.style.intro.format(title=self.core.TITLE, round=rounds))
        if self.style.by_round:
            for i in range(self.rounds_in()):
                self.enter_round(i)
            self.enter(only=lambda s: s.part is None)
        else:
            self.enter()
        return self.close() if not typed else commands.review(self)

    def enter_round(
        self,
        round_index: int | None,
        finish: list[str] | None = None,
        table: dict[str, Any] | None = None,
        review: bool = False,
        only_missing: bool = False,
    ) -> None:
        """Round `round_index`'s set-up (the face's ROUND_SETUP, if any) and questions (play's
        scoring step). finish: the finishing order the board took, table: what the board
        measured; review: every question again (Enter keeps each value); only_missing: just the
        numbers not in the record (what the phones typed is never asked again)."""
        if round_index is not None and self.face.ROUND_SETUP is not None:
            self.enter_setup(round_index, finish, review, table)
        if not self.style.by_round:
            self.enter(round_index=round_index, review=review)
            return
        typed = [s.path for s in self.steps(round_index) if only_missing and self.answered(s)]

        def only(step: Step) -> bool:
            return step.path not in typed

        steps = [s for s in self.steps(round_index) if only(s)]
        if steps and (review or [s for s in steps if not self.answered(s)]):
            self.say("-- %s --" % self.part_title(round_index))
            self.enter(round_index, review=review, only=only)
            if self.style.scores_as_typed and round_index is not None:
                score_lines.show_round(self, round_index)

    def parts(self) -> list[int | None]:
        """The parts of the game in the order they are entered: its rounds, then None for the
        end numbers."""
        return [*range(self.rounds_in()), None]

    def asks(self, part: int | None) -> bool:
        """Does this part ask anything (now: the questions may depend on earlier answers)?"""
        if part is not None and self.face.ROUND_SETUP is not None:
            return True
        return bool(self.core.fields(self.record, part))

    def part_title(self, part: int | None) -> str:
        """How a part is called on the screens ("round 1 (Friday)", "heist 2")."""
        return self.round_title(part) if part is not None else "the final count"

    def enter_table(
        self,
        part: int | None,
        finish: list[str] | None = None,
        table: dict[str, Any] | None = None,
    ) -> None:
        """The part's table-wide answers only (its round's set-up and the questions that are no
        player's own number), not the players' own numbers (the phones')."""
        if part is not None and self.face.ROUND_SETUP is not None:
            self.enter_setup(part, finish=finish, table=table)
        record = self.record
        self.enter(round_index=part, only=lambda s: not is_seat_step(record, s.kind, s.path))

    def enter_rest(self, part: int | None) -> None:
        """What the phones left of the part: only the questions not answered yet."""
        self.enter_round(part, only_missing=True)

    def standings_after(self, part: int | None) -> Result | None:
        """The standings the phones show once the part is in (None: they come at the end)."""
        if not self.style.scores_as_typed:
            return None
        try:
            return records.tally(self.record)
        except BadInput:
            return None

    def close(self) -> Result:
        """Every part in: the core's result (asking again while it refuses the record, or the
        review when the face's style says so)."""
        return commands.review(self) if self.style.review_at_close else self.finish()

    @classmethod
    def standings_after_storing(cls, record: Record) -> bool:
        """Are the game's standings said once it is stored (its review does not show them)?"""
        return not _style(record).review_standings

    @classmethod
    def make_room(cls, record: Record, path: Path) -> None:
        """Anything the record needs before an answer is set at `path`: a round walked round by
        round is made first when new (its day, its players)."""
        if _style(record).by_round and path[0] == "rounds":
            round_slot(record, path[1])

    @classmethod
    def problems(cls, record: Record, part: int | None, path: Path, value: Json) -> list[str]:
        """The core's problems that `value` at `path` (an answer of part `part`) brings: those
        it finds with it and not without it (what is not answered yet stays missing in both, or
        counts as 0 in its round when the face's style says so)."""
        if _style(record).untyped_as_zero and part is not None and path[0] == "rounds":
            return new_problems(record, part, path, value)
        return problems_of(record, path, value)

    @classmethod
    def typed_so_far(cls, record: Record, part: int | None) -> Record:
        """The record as the core scores it while part `part` is typed (a preview): the rounds
        typed so far only when they are walked round by round."""
        if not _style(record).by_round:
            return record
        return dict(record, rounds=record.get("rounds", [])[: (part or 0) + 1])

    # ------------------------------------------------------------------ the questions

    def rounds_in(self) -> int:
        """The rounds of a complete game in the mode the core plays the record in."""
        return self.core.rounds_in(self.face.play_mode(self.record))

    def round_title(self, i: int) -> str:
        """ "round 1 (Friday)", "heist 2": the round's number and its name, if it has one."""
        day = self.core.round_name(self.face.play_mode(self.record), i)
        title = "%s %d" % (self.core.ROUND_WORD, i + 1)
        if day:
            title += " (%s)" % day.capitalize()
        return title

    def steps(self, round_index: int | None = None) -> list[Step]:
        """The questions in the order asked: round `round_index`'s when given, else every
        round's and then the game's end numbers."""
        core = self.core
        indexes = [round_index] if round_index is not None else [*range(self.rounds_in()), None]
        names = player_names(self.record)
        out = []
        if self.typed_tokens and round_index is None:
            words = dict((key, label) for key, label, _unit in self.face.GAME_FIELDS)
            for key in self.face.BOARD_COUNTED:
                out += [
                    Step((key, n), "%s · %s" % (n, words.get(key, key)), "int", None, n)
                    for n in names
                ]
        for i in indexes:
            for path, kind, label in core.fields(self.record, i):
                words = [label]
                who = [k for k in path if k in names]
                if who:
                    words.insert(0, who[0])
                if i is not None:  # a round's question: "heist 2", "round 1 (Friday)"
                    words.insert(0, self.round_title(i))
                out.append(Step(path, " · ".join(words), kind, i, who[0] if who else None))
        return out

    def has_rounds(self) -> bool:
        """Does the game ask anything of its rounds (`round N` has something to go through)?"""
        return any(s.path[0] == "rounds" for s in self.steps())

    def answered(self, step: Step) -> bool:
        # a player question (Myth Fits' `gathered`) answered "nobody" is asked again next time:
        # a synced draft holds `gathered: null` until somebody is named
        return get_at(self.record, step.path) is not None

    # ------------------------------------------------------------------ the question loop

    def enter(
        self,
        round_index: int | None = None,
        review: bool = False,
        only: Callable[[Step], bool] | None = None,
        last: bool = False,
    ) -> None:
        """Ask every question not answered yet (all of them with review=True; in a walk round by
        round, every question from the first one not answered yet on, the round's questions as
        they are now after a command changed them); `only`: a test on a Step, to ask just those
        (the scorepad asks the players' own numbers on phones); last=True: start at the last
        question (`back` at the end), walking back from there."""
        i = 0
        if last:
            i = max(0, len([s for s in self.steps(round_index) if only is None or only(s)]) - 1)
        while True:
            steps = [s for s in self.steps(round_index) if only is None or only(s)]
            while i < len(steps) and not review and self.answered(steps[i]):
                i += 1
            if i >= len(steps):
                return
            review = review or self.style.by_round  # from the first question asked on, all
            moved = self._ask(steps[i])
            if moved is True:
                self._asked(steps, i, round_index)
                i += 1
            elif isinstance(moved, tuple) and moved[0] == "back":
                if i == 0:
                    self.say(self.style.first_question)
                else:
                    i -= 1
                    review = True  # walking back: the answered questions are asked again
            elif isinstance(moved, tuple) and moved[0] != "none":
                commands.run(self, moved, round_index)

    def ask_again(self, steps: list[Step], part: int | None) -> None:
        """Each of `steps` asked again, Enter keeping its value (`fix NAME`, `round N`)."""
        i = 0
        while i < len(steps):
            moved = self._ask(steps[i])
            if moved is True:
                self._asked(steps, i, part)
                i += 1
            elif isinstance(moved, tuple) and moved[0] == "back":
                if i > 0:
                    i -= 1
                elif self.style.first_in_command is not None:
                    self.say(self.style.first_in_command)
            elif isinstance(moved, tuple) and moved[0] != "none":
                commands.run(self, moved, part)

    def _asked(self, steps: list[Step], i: int, part: int | None) -> None:
        """After steps[i] is answered: its player's round score once their last number of the
        round is in (when the face's style shows scores as typed)."""
        who = steps[i].who
        if self.style.scores_as_typed and part is not None and who is not None:
            if all(s.who != who for s in steps[i + 1 :]):
                score_lines.show_player(self, part, who)

    def _ask(self, step: Step) -> bool | tuple[Any, ...]:
        """True: answered; a command typed (commands.parse); False: asked again."""
        current = get_at(self.record, step.path)
        shown = ""
        if current is not None or (step.kind == "player" and step.path[0] in self.record):
            shown = " [%s]" % (
                {True: "y", False: "n", None: "nobody"}.get(current, current)
                if not isinstance(current, int) or isinstance(current, bool)
                else current
            )
        if self.style.title_in_prompt:
            answer = self.read("%s · %s%s: " % (self.core.TITLE, step.label, shown))
        else:
            answer = self.read("%s%s: " % (step.label, shown))
        text = answer.strip()
        command = commands.parse(self, text)
        if command is not None:
            return command
        if text == "":
            if shown:
                value = current
                if not self.style.check_kept:
                    return self._set(step, value)
            elif step.kind == "player":
                value = None
            else:
                self.say(
                    refused(
                        "  type %s (or ? for help)"
                        % ("y or n" if step.kind == "yes/no" else "a number")
                    )
                )
                return False
        else:
            value = self._parse(step, text)
            if value is _BAD:
                return False
        problems = self.problems(self.record, step.part, step.path, value)
        if problems:
            for m in problems:
                self.say(refused("  " + m))
            return False
        return self._set(step, value)

    def _set(self, step: Step, value: Json) -> bool:
        set_at(self.record, step.path, value)
        self.face.answered(self.record, step.path, value)
        self.keep()
        return True

    def _parse(self, step: Step, text: str) -> Json:
        if step.kind == "int":
            if is_number(text):
                return int(text)
            self.say(refused("  %r is not a number or a command (? for help)" % text))
            return _BAD
        if step.kind == "yes/no":
            w = text.lower()
            if w in ("y", "yes"):
                return True
            if w in ("n", "no"):
                return False
            self.say(refused("  %r: type y or n" % text))
            return _BAD
        names = player_names(self.record)
        if text.lower() in ("nobody", "none", "-"):
            return None
        if is_number(text) and 1 <= int(text) <= len(names):
            return names[int(text) - 1]
        for n in names:
            if same(n, text):
                return n
        return text  # the core names what is wrong with it

    def finish(self) -> Result:
        """The core's standings; while the core refuses the record, say why and ask again.
        BadInput when no question is left that could change it (what the board counted is
        refused: a draft edited by hand), instead of asking nothing forever."""
        while True:
            try:
                return records.tally(self.record)
            except BadInput as e:
                if not self.steps():
                    raise BadInput(
                        e.messages
                        + [
                            "nothing typed here can change that: the draft holds "
                            "numbers the board counted that the rules refuse"
                        ]
                    )
                for m in e.messages:
                    self.say(refused("  problem: " + m))
                self.say("Going through the numbers again (Enter keeps a value).")
                self.enter(review=True)

    # ------------------------------------------------------------------ a round's own set-up

    def enter_setup(
        self,
        round_index: int,
        finish: list[str] | None = None,
        review: bool = False,
        table: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The round's table-wide answers its face's ROUND_SETUP asks (and the board's `table`),
        not the players' numbers: the scorepad on the phones asks those."""
        rnd = self.round(round_index)
        setup = self.face.ROUND_SETUP
        if setup is not None:
            setup(self, round_index, rnd, finish, review, table)
        return rnd

    def round(self, i: int) -> dict[str, Any]:
        """Round i of the record (made when new: its day, its players)."""
        return round_slot(self.record, i)

    def setup_command(self, answer: str, ri: int, back: Callable[[], None] | None = None) -> bool:
        """A command typed at one of a round's set-up questions: True when it was one and has run
        (commands.at_setup), False when the answer is an answer."""
        return commands.at_setup(self, answer, ri, back)

    def refused_in_round(self, ri: int, key: str, value: Json) -> bool:
        """Say the core's problems that round ri's `key` set to `value` brings; True if any."""
        problems = self.problems(self.record, ri, ("rounds", ri, key), value)
        for m in problems:
            self.say(refused("  " + m))
        return bool(problems)

    # ------------------------------------------------------------------ shared

    def read(self, prompt: str) -> str:
        """One answer as typed; EntryStopped(eof) when the input ended."""
        return asked(self.ask, prompt)

    def keep(self) -> None:
        """Save the record now (every accepted answer is saved at once)."""
        self.save(self.record)

    def find_player(self, text: str) -> str | None:
        """The player a `fix NAME` names (a name or a seat number); None, said why, when none."""
        names = player_names(self.record)
        if is_number(text) and 1 <= int(text) <= len(names):
            return names[int(text) - 1]
        for n in names:
            if same(n, text):
                return n
        self.say(refused("  fix NAME: no player %r (players: %s)" % (text, ", ".join(names))))
        return None


_BAD = object()
