"""Names for the shapes the desktop passes around, for type hints (nothing here runs).

The modules import these under `typing.TYPE_CHECKING` only: a hint costs no import at run time.
The shapes themselves are defined where they are made: a game record by docs/records.md and the
core's checks, a board's status by core/table.py `Table.status` (checked on arrival by
board/status_check.py), a result by the core's `tally`.
"""

from collections.abc import Callable
from typing import Any

Json = Any  # a value read from JSON (a record's field, a reply's value)
Record = dict[str, Any]  # a game record, as docs/records.md describes it
Status = dict[str, Any]  # a board's status reply, checked field by field on arrival
Result = dict[str, Any]  # the core's result of a record: standings, winners, numbers
Say = Callable[[str], None]  # where a line for the user goes (print, a test's list.append)
Ask = Callable[[str], str]  # where an answer comes from (input, a script of answers)
