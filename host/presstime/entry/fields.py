"""The entry of a game whose questions are its core face's `fields` (core/games.py): Heat,
Mini FITS, Myth Fits and every game without a set-up of its rounds; the engine's
(entry/engine.py) walk through them, and the game's set-up (its players).

`FieldsEntry(record, save, ask=input, say=print)` asks what the board cannot know, for instance
  Heat       arrested? then the heat value, then each player's money and heat;
  Mini FITS  each player's complete lines per round, and the colour sets in round 2;
  Myth Fits  who gathered the three creatures (if anyone; the photo tokens come from the board).
The questions are the game's face's (`fields(record, round)`): nothing here knows a game. Each
answer is checked by the core: the problems it finds with the answer and not without it are
shown, and the question is asked again. Every accepted answer is saved at once.

At any question: a value; Enter keeps the value in [brackets]; `back`; `fix NAME` (one
player's answers again); `round N` (a round's answers again); `show`; `?`; `quit`.

`presstime enter` types a whole game without a board: its face's `ask_setup` (games/common.py)
asks the players, `FieldsEntry(..., typed_tokens=True)` also asks what a board would have counted
(the face's BOARD_COUNTED: Myth Fits' photo tokens), and `review()` shows the standings
until `done`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from presstime import records
from presstime.entry.answers import (
    EntryStopped,
    get_at,
    is_number,
    is_seat_step,
    player_names,
    problems_of,
    refused,
    set_at,
)
from presstime.entry.engine import Entry, Save
from presstime.errors import BadInput
from presstime.names import same
from presstime.report import standings_text

if TYPE_CHECKING:
    from presstime.hints import Ask, Json, Record, Result, Say

HELP = """At any question you can type:
  a number    the answer (Enter alone keeps the value shown in [brackets])
  y / n       for a yes-or-no question
  back        go back to the previous question
  fix NAME    answer one player's questions again (name or seat number)
  round N     go through round N's questions again (Enter keeps each value)
  show        the standings so far
  quit        stop here: everything typed is kept as a draft
  ?           this help"""


class Step:
    """One question of the face's `fields`: where the answer goes, what is asked, the kind of
    answer ("int", "yes/no" or "player")."""

    def __init__(self, path: tuple[Any, ...], label: str, kind: str) -> None:
        self.path = path
        self.label = label
        self.kind = kind


class FieldsEntry(Entry):
    """Interactive, resumable entry of the core face's `fields`, in order (engine.Entry says
    what the arguments are; typed_tokens: no board counted the numbers its face's BOARD_COUNTED
    names, they are asked too)."""

    def __init__(
        self,
        record: Record,
        save: Save,
        ask: Ask = input,
        say: Say = print,
        typed_tokens: bool = False,
    ) -> None:
        super().__init__(record, save, ask, say, typed_tokens)
        # no board counted what the face's BOARD_COUNTED says a board counts: it is typed
        self.typed_tokens = typed_tokens and bool(self.face.BOARD_COUNTED)

    # ------------------------------------------------------------------ the engine's calls

    def enter_game(self, typed: bool = True) -> Result:
        if not typed:
            self.enter()
            return self.finish()
        rounds = [st for st in self.steps() if st.path[0] == "rounds"]
        self.say(
            "%s: `?` help, `back`, `fix NAME`%s, `show`, `quit` at any question."
            % (self.core.TITLE, ", `round N`" if rounds else "")
        )
        self.enter()
        return self.review()

    def enter_round(
        self,
        round_index: int,
        finish: list[str] | None = None,
        table: dict[str, Any] | None = None,
        review: bool = False,
    ) -> None:
        self.enter(round_index=round_index, review=review)

    def parts(self) -> list[int | None]:
        return [*range(self.core.rounds_in(self.face.play_mode(self.record))), None]

    def asks(self, part: int | None) -> bool:
        return bool(self.core.fields(self.record, part))

    def part_title(self, part: int | None) -> str:
        return "%s %d" % (self.core.ROUND_WORD, part + 1) if part is not None else "the final count"

    def enter_table(
        self,
        part: int | None,
        finish: list[str] | None = None,
        table: dict[str, Any] | None = None,
    ) -> None:
        record = self.record
        self.enter(round_index=part, only=lambda s: not is_seat_step(record, s.kind, s.path))

    def enter_rest(self, part: int | None) -> None:
        self.enter(round_index=part)

    def close(self) -> Result:
        return self.finish()

    # ------------------------------------------------------------------ the questions

    def steps(self, round_index: int | None = None) -> list[Step]:
        """The questions in the order asked: round `round_index`'s when given, else every
        round's and then the game's end numbers."""
        face = self.core
        if round_index is not None:
            indexes = [round_index]
        else:
            indexes = list(range(face.rounds_in(self.face.play_mode(self.record)))) + [None]
        names = player_names(self.record)
        out = []
        if self.typed_tokens and round_index is None:
            words = dict((key, label) for key, label, _unit in self.face.GAME_FIELDS)
            for key in self.face.BOARD_COUNTED:
                out += [Step((key, n), "%s · %s" % (n, words.get(key, key)), "int") for n in names]
        for i in indexes:
            for path, kind, label in face.fields(self.record, i):
                words = [label]
                who = [k for k in path if k in names]
                if who:
                    words.insert(0, who[0])
                if i is not None:  # a round's question: "heist 2", "round 1"
                    words.insert(0, "%s %d" % (face.ROUND_WORD, i + 1))
                out.append(Step(path, " · ".join(words), kind))
        return out

    # ------------------------------------------------------------------ the question loop

    def enter(
        self,
        round_index: int | None = None,
        review: bool = False,
        only: Callable[[Step], bool] | None = None,
        last: bool = False,
    ) -> None:
        """Ask every question not answered yet (all of them with review=True); `only`: a test
        on a Step, to ask just those (the scorepad asks the players' own numbers on phones);
        last=True: start at the last question (`back` at the end), walking back from there."""
        i = 0
        if last:
            i = max(0, len([s for s in self.steps(round_index) if only is None or only(s)]) - 1)
        while True:
            steps = [s for s in self.steps(round_index) if only is None or only(s)]
            while i < len(steps) and not review and self._answered(steps[i]):
                i += 1
            if i >= len(steps):
                return
            step = steps[i]
            moved = self._ask(step)
            if isinstance(moved, tuple):
                self._command(moved)
                continue
            if moved == "back":
                if i == 0:
                    self.say("  this is the first question")
                else:
                    i -= 1
                    review = True  # walking back: the answered questions are asked again
                continue
            if moved:
                i += 1

    def _answered(self, step: Step) -> bool:
        # a player question (Myth Fits' `gathered`) answered "nobody" is asked again next time:
        # a synced draft holds `gathered: null` until somebody is named
        return get_at(self.record, step.path) is not None

    def _ask(self, step: Step) -> bool | str | tuple[Any, ...]:
        """True: answered; "back"; False: asked again."""
        current = get_at(self.record, step.path)
        shown = ""
        if current is not None or (step.kind == "player" and step.path[0] in self.record):
            shown = " [%s]" % (
                {True: "y", False: "n", None: "nobody"}.get(current, current)
                if not isinstance(current, int) or isinstance(current, bool)
                else current
            )
        title = self.core.TITLE
        answer = self.read("%s · %s%s: " % (title, step.label, shown))
        text = answer.strip()
        word = text.lower()
        if word in ("?", "help", "h"):
            self.say(HELP)
            return False
        if word in ("quit", "q"):
            raise EntryStopped()
        if word in ("back", "b"):
            return "back"
        command = self._parse_command(text)
        if command is not None:
            return command
        if text == "":
            if shown:
                value = current
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
        problems = self._problems(step, value)
        if problems:
            for m in problems:
                self.say(refused("  " + m))
            return False
        set_at(self.record, step.path, value)
        self.face.answered(self.record, step.path, value)
        self.save(self.record)
        return True

    def _parse_command(self, text: str) -> tuple[Any, ...] | None:
        """("fix", name) / ("round", n) / ("show",) for a command typed at a question, else None
        (a bad one is refused here and becomes ("none",))."""
        words = text.split()
        word = words[0].lower() if words else ""
        arg = " ".join(words[1:])
        if word == "show" and not arg:
            return ("show",)
        if word == "fix" and arg:
            name = self.find_player(arg)
            return ("none",) if name is None else ("fix", name)
        if word == "round" and arg and [s for s in self.steps() if s.path[0] == "rounds"]:
            done = len(self.record.get("rounds") or [])
            if is_number(arg) and 1 <= int(arg) <= done:
                return ("round", int(arg) - 1)
            self.say(refused("  round N: N is a round already started, 1 to %d" % done))
            return ("none",)
        return None

    def _command(self, command: tuple[Any, ...]) -> None:
        """Run `fix NAME`, `round N` or `show`: the questions concerned asked again (Enter
        keeps)."""
        if command[0] == "show":
            self._show()
            return
        if command[0] == "fix":
            name = command[1]
            steps = [s for s in self.steps() if name in s.path]
            self.say("  %s's answers again (Enter keeps a value)" % name)
        elif command[0] == "round":
            steps = [s for s in self.steps() if s.path[:2] == ("rounds", command[1])]
            self.say("  round %d again (Enter keeps a value)" % (command[1] + 1))
        else:
            return
        i = 0
        while i < len(steps):
            moved = self._ask(steps[i])
            if isinstance(moved, tuple):
                self._command(moved)
            elif moved == "back":
                i = max(0, i - 1)
            elif moved:
                i += 1
        self.say("  done; back to where you were")

    def _show(self) -> None:
        try:
            self.say(standings_text(records.tally(self.record)).rstrip("\n"))
        except BadInput:
            self.say("  (no standings yet: some answers are still missing)")

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

    def _problems(self, step: Step, value: Json) -> list[str]:
        """The core's problems that this answer brings: those it finds with it and not without
        it (questions still to come stay missing in both)."""
        return problems_of(self.record, step.path, value)

    # ------------------------------------------------------------------ the end

    def review(self) -> Result:
        """All answered: the standings, then `done` (or Enter) stores; `fix NAME`, `round N`,
        `back` (the last question again, and back from there) correct first. Returns the core's
        result."""
        while True:
            result = self.finish()

            self.say("")
            self.say(standings_text(result).rstrip("\n"))
            self.say(
                "Type `done` (or Enter) to store the game, or `fix NAME`%s, `back`, `?`."
                % (" / `round N`" if [s for s in self.steps() if s.path[0] == "rounds"] else "")
            )
            answer = self.read("done? ").strip()
            word = answer.lower()
            if word in ("", "done", "d", "y", "yes"):
                return result
            if word in ("quit", "q"):
                raise EntryStopped()
            if word in ("back", "b"):
                self.enter(review=True, last=True)
                continue
            if word in ("?", "help", "h"):
                self.say(HELP)
                continue
            command = self._parse_command(answer)
            if command is None:
                self.say(refused("  %r is not a command (? for help)" % answer))
            elif command[0] != "show":  # the standings are shown again anyway
                self._command(command)

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


_BAD = object()
