"""What the entry engine's helpers (commands.py, score_lines.py) see of it (engine.py Entry,
which they serve), and one question of its walk (Step)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from presstime.entry.walk_style import WalkStyle
    from presstime.games import Face
    from presstime.hints import Record, Result, Say


class Step:
    """One question of the face's `fields`: where the answer goes (path), what is asked (label),
    the kind of answer ("int", "yes/no" or "player"), its part (the round, None for the end
    numbers) and whose number it is (None for a table-wide answer)."""

    def __init__(
        self, path: tuple[Any, ...], label: str, kind: str, part: int | None, who: str | None
    ) -> None:
        self.path = path
        self.label = label
        self.kind = kind
        self.part = part
        self.who = who


class Walker(Protocol):
    """What the commands (commands.py) and the score lines (score_lines.py) use of the entry
    engine (engine.py Entry), which they serve."""

    record: Record
    face: Face
    style: WalkStyle
    say: Say

    def read(self, prompt: str) -> str: ...
    def find_player(self, text: str) -> str | None: ...
    def has_rounds(self) -> bool: ...
    def round_title(self, i: int) -> str: ...
    def part_title(self, part: int | None) -> str: ...
    def steps(self, round_index: int | None = None) -> list[Step]: ...
    def answered(self, step: Step) -> bool: ...
    def ask_again(self, steps: list[Step], part: int | None) -> None: ...
    def enter_round(self, round_index: int | None, *, review: bool = False) -> None: ...
    def enter(
        self,
        round_index: int | None = None,
        review: bool = False,
        only: Callable[[Step], bool] | None = None,
        last: bool = False,
    ) -> None: ...
    def finish(self) -> Result: ...
