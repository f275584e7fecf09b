"""presstime watch: a live terminal mirror of the board: countdown, each player's state and token,
and the other games' table modes (ready and reveal, turns and photo tokens)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from presstime.board.ports import add_port_argument
from presstime.errors import BadInput

if TYPE_CHECKING:
    import argparse

EXAMPLE = """examples:
  presstime watch
  presstime watch --port /dev/ttyACM0 --interval 0.5
  presstime watch --once --json

On a terminal: the table view (big countdown, seat colours, tokens, the grace window, the
winner), redrawn on every change and when the terminal is resized; plain lines when the output
is not a terminal or NO_COLOR is set. Ctrl-C ends the mirror (the board keeps running). It runs
beside `play`, `sim --pty` or `sync` on the same board: they share it.

Each player's state, as the screen words it (plain lines: the symbol):
  . waiting   r ready   ~ working   L Layout!   # Print!
  ! late (in the grace window)   x forced (handed a token at time-out)
The token column (plain lines: [n]) is the finishing token. Heat and Mini FITS (ready check and
reveal): the heist or round, the stage or card and how many are ready. Myth Fits (turns):
"◀ turn" (plain lines: >) marks whose turn it is, with the turn time and limit, each player's
photo tokens out of the target, the set-up facts (grid, photographers) and the win."""


def configure(parser: argparse.ArgumentParser) -> None:
    add_port_argument(parser)
    parser.add_argument(
        "--interval",
        type=float,
        default=0.25,
        metavar="S",
        help="seconds between status requests (default 0.25)",
    )
    parser.add_argument("--once", action="store_true", help="show the status once and exit")
    parser.add_argument("--json", action="store_true", help="print each status as one JSON line")


def run(args: argparse.Namespace) -> int:
    from presstime.tableside.watch import watch_board

    if not 0.05 <= args.interval <= 60:
        raise BadInput("--interval must be between 0.05 and 60 seconds")
    return watch_board(args.port, args.interval, args.once, args.json)
