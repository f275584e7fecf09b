"""A board's journal record the desktop keeps but cannot apply, and why, in words.

`presstime sync` rebuilds a board's games by applying its journal to the round machine the board
runs (sync/rebuild.py). A record that does not decode (a newer firmware's event, a damaged payload)
or that the machine refuses (an UNDO with nothing to undo, a press for a seat the game does not
have) is skipped: it stays in the store, is named here (board, sequence number, why), and the
records around it still count. `sync --damaged` lists them, `--drop` sets them aside.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

from presstime.core import events as E, games, table as T
from presstime.term import printable

if TYPE_CHECKING:
    from presstime.core.table import Table

UPDATE = "update presstime (pip install -U presstime)"


def unreadable(payload: bytes, error: Exception) -> tuple[str, bool]:
    """(why, newer) for a record `core.events.decode` refused with `error`: newer is True when
    the record is a newer firmware's (an event kind, or a set-up's game, mode or edition code,
    this presstime does not know)."""
    kind = payload[0] if payload else None
    if kind == E.CONFIG:
        code = _config_codes(payload)
        if code is not None:
            return "sets up a game from a newer firmware (%s): %s" % (code, UPDATE), True
        return "a set-up that cannot be read (%s)" % error, False
    if kind is not None and E.name(kind).startswith("?"):
        return "comes from a newer firmware (event kind %d): %s" % (kind, UPDATE), True
    return "cannot be read (%s)" % error, False


def _config_codes(payload):
    """The unknown code of a set-up record whose fixed part reads ("game code 7"), or None."""
    try:
        fields = struct.unpack_from(E._CFG, payload, 1)
    except struct.error:
        return None
    mode, edition, game = fields[0], fields[6], fields[7]
    if game >= len(games.GAMES):
        return "game code %d" % game
    if mode >= len(E.MODES):
        return "mode code %d" % mode
    if edition >= len(E.EDITIONS):
        return "edition code %d" % edition
    return None


def apply(table: Table, ev: tuple[Any, ...]) -> str | None:
    """Apply one decoded event to the round machine, as the board's boot does: None when it
    applied, else why the machine refused it. The machine decides (core/table.py Table.apply:
    a refused event leaves it exactly as it was, its ValueError carries a code); these are the
    code's words, told with the event and the machine as they are."""
    try:
        table.apply(ev)
    except ValueError as e:
        return "the table refuses it: " + refusal(table, ev, e.args[0] if e.args else None)
    return None


def refusal(table: Table, ev: tuple[Any, ...], code: int | None) -> str:
    """The words for the code (core/table.py _R_*) the machine refused `ev` with."""
    kind = E.name(ev[0])
    if code == T._R_SEAT:
        n = table.n
        return "a %s for seat %d, but the game has %d player%s" % (
            kind,
            ev[1] + 1,
            n,
            "" if n == 1 else "s",
        )
    if code == T._R_UNDO:
        return "undo with nothing to undo"
    if code == T._R_NOW:
        return "a %s while the round is %s (%s mode), which the table never does" % (
            kind,
            T.PHASES[table.phase],
            T.MODES[table.mode],
        )
    if code == T._R_FIT:
        if ev[0] == E.TURN:
            return "a turn passed by seat %d while it is seat %d's turn" % (
                ev[1] + 1,
                table.turn + 1,
            )
        state = table.status()["players"][ev[1]]["state"]
        return (
            "a press for seat %d (token %d, flags %d) while it is %s: not one the table makes"
            % (ev[1] + 1, ev[2], ev[3], state)
        )
    if code == T._R_SETUP:
        return "a %s before any set-up" % kind
    return "a %s the table does not know (%d items)" % (kind, len(ev))


def entry(seq: int, why: str, newer: bool = False, last: int | None = None) -> dict[str, Any]:
    """One damaged entry: records seq..last (a game whose set-up cannot be read is one entry)."""
    return {"seq": seq, "last": seq if last is None else last, "why": why, "newer": newer}


def text(board_id: str, d: dict[str, Any]) -> str:
    """The line naming a damaged entry."""
    span = (
        "record %d" % d["seq"] if d["last"] == d["seq"] else "records %d-%d" % (d["seq"], d["last"])
    )
    return "board %s, %s: %s" % (board_id, span, d["why"])


def sync_lines(board_id: str, damaged: list[dict[str, Any]], most: int = 5) -> list[str]:
    """What `presstime sync` says about a board's damaged records (nothing when there are none)."""
    if not damaged:
        return []
    lines = [
        "  %d record%s kept but not applied (the games around them are drafted without them):"
        % (len(damaged), "" if len(damaged) == 1 else "s")
    ]
    lines += ["    " + printable(text(board_id, d)) for d in damaged[:most]]
    if len(damaged) > most:
        lines.append("    ... and %d more" % (len(damaged) - most))
    lines.append(
        "  `presstime sync --damaged` lists them; `presstime sync --damaged --drop SEQ|all` sets "
        "them aside."
    )
    return lines
