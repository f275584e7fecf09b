"""The entry engine: what `presstime enter`, the scoring step of `presstime play` and the
scorepad at the table (`--scorepad`) call to have a game's numbers typed, whatever the game.

    entry = start.new_entry(record, save, ask=input, say=print)
    result = entry.enter_game()                  # every question, then the core's standings

Every game is entered through this one class and its calls; how its questions are walked is
said by its face (games/<game>.py ROUND_SETUP): round by round with each round's own set-up
first (entry/rounds.py), or the core face's `fields` in order (entry/fields.py). Each answer is
checked by the core as it is typed, saved at once with `save(record)`, and the engine never
scores: the rules live in presstime.core.

A game is entered in parts: its rounds, then (if its face asks any) its end numbers, the part
None. The scorepad asks each part's table-wide answers here (`enter_table`), lets the phones
type each player's own numbers, then asks here what they left (`enter_rest`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from presstime import games
from presstime.entry.answers import asked, is_number, player_names, problems_of, refused
from presstime.names import same

if TYPE_CHECKING:
    from presstime.entry.answers import Path
    from presstime.hints import Ask, Json, Record, Result, Say

Save = Callable[["Record"], None]


class Entry(ABC):
    """Interactive, resumable entry of a game record's numbers.

    record: a game record with its set-up done (entry/start.py ask_setup);
    save:   called with the record after every accepted answer;
    ask:    called with a prompt, returns the typed line (EOFError at end of input);
    say:    called with each line of output.
    """

    # the game's standings are said once it is stored (its review does not show them)
    STANDINGS_AFTER_STORING = False

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

    # ------------------------------------------------------------------ what every game answers

    @abstractmethod
    def enter_game(self, typed: bool = True) -> Result:
        """Every question not answered yet, then the core's result. typed: the whole game is
        typed here (`enter`); False: the numbers a board's game waits for (a draft)."""
        raise NotImplementedError

    @abstractmethod
    def enter_round(
        self,
        round_index: int,
        finish: list[str] | None = None,
        table: dict[str, Any] | None = None,
        review: bool = False,
    ) -> None:
        """Round `round_index`'s questions (play's scoring step). finish: the finishing order
        the board took, table: what the board measured; review: every question again (Enter
        keeps each value)."""
        raise NotImplementedError

    @abstractmethod
    def parts(self) -> list[int | None]:
        """The parts of the game in the order they are entered: its rounds, then None for the
        end numbers when the game has any."""
        raise NotImplementedError

    def asks(self, part: int | None) -> bool:
        """Does this part ask anything (now: the questions may depend on earlier answers)?"""
        return True

    @abstractmethod
    def part_title(self, part: int | None) -> str:
        """How a part is called on the screens ("round 1 (Friday)", "heist 2")."""
        raise NotImplementedError

    @abstractmethod
    def enter_table(
        self,
        part: int | None,
        finish: list[str] | None = None,
        table: dict[str, Any] | None = None,
    ) -> None:
        """The part's table-wide answers only, not the players' own numbers (the phones')."""
        raise NotImplementedError

    @abstractmethod
    def enter_rest(self, part: int | None) -> None:
        """What the phones left of the part: only the questions not answered yet."""
        raise NotImplementedError

    def standings_after(self, part: int | None) -> Result | None:
        """The standings the phones show once the part is in (None: they come at the end)."""
        return None

    @abstractmethod
    def close(self) -> Result:
        """Every part in: the core's result (asking again while it refuses the record)."""
        raise NotImplementedError

    @classmethod
    def make_room(cls, record: Record, path: Path) -> None:
        """Anything the record needs before an answer is set at `path`: nothing, unless the
        walk keeps more than the answers (RoundsEntry: each round's day and players)."""
        return None

    @classmethod
    def problems(cls, record: Record, part: int | None, path: Path, value: Json) -> list[str]:
        """The core's problems that `value` at `path` (an answer of part `part`) brings: those
        it finds with it and not without it (what is not answered yet stays missing in both)."""
        return problems_of(record, path, value)

    @classmethod
    def typed_so_far(cls, record: Record, part: int | None) -> Record:
        """The record as the core scores it while part `part` is typed (a preview)."""
        return record

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
