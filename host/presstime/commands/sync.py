"""presstime sync: pull the board's journal into the local history, and rebuild its games."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, TextIO

from presstime.board import ports, share
from presstime.board.ports import add_port_argument
from presstime.commands.sync_damaged import run as run_damaged
from presstime.errors import BadInput
from presstime.history.keeping import store_board_games
from presstime.history.store import StoreFull, add_db_argument, open_store
from presstime.sync import damage, rebuild
from presstime.sync.journal import pull
from presstime.tableside import status_text
from presstime.term import printable

if TYPE_CHECKING:
    import argparse

    from presstime.history.store import Store

EXAMPLE = """examples:
  presstime sync
  presstime sync --port /dev/ttyACM0 --db ./club.sqlite3
  presstime sync --damaged                   # records kept but not applied, and why
  presstime sync --damaged --drop 57         # set one aside (or --drop all)

Idempotent and resumable: only records after the last one stored are asked for, page by page,
each page stored in one transaction. A pulled cable loses nothing; run it again to continue.
Games rebuilt from the journal (finishing orders, times, ties) update their history entry, or
wait as a draft until their scorepad numbers are entered. Heat and Mini FITS games show the
stages or cards revealed per heist or round; Myth Fits games the photo tokens the board counted
(they go into the record; who gathered the creatures is typed).

A record the desktop cannot apply (a newer firmware's, an undo with nothing to undo, a press
for a seat the game does not have) is kept in the history file, named, and skipped: the games
around it are still drafted (docs/journal.md). `--damaged` lists them from the history file
(no board needed); `--drop SEQ|all` sets them aside so that sync stops naming them."""


def configure(parser: argparse.ArgumentParser) -> None:
    add_port_argument(parser)
    add_db_argument(parser)
    parser.add_argument(
        "--json", action="store_true", help="print what was synced as one JSON document"
    )
    parser.add_argument(
        "--damaged",
        action="store_true",
        help="list the boards' records kept but not applied, and why (no board needed)",
    )
    parser.add_argument(
        "--drop",
        nargs="+",
        metavar="SEQ",
        help="with --damaged: set these records aside (their sequence numbers, or all)",
    )
    parser.add_argument("--board", metavar="ID", help="with --damaged: only this board's records")


def progress_bar(stream: TextIO) -> Callable[[int, int], None] | None:
    """A progress(done, total) callback drawing a bar on a terminal (nothing otherwise)."""
    if not stream.isatty():
        return None

    def draw(done, total):
        width = 30
        frac = 1.0 if total <= 0 else min(1.0, done / float(total))
        fill = int(frac * width)
        stream.write(
            "\r\x1b[K  [%s%s] %d/%d records" % ("#" * fill, "." * (width - fill), done, total)
        )
        stream.flush()

    return draw


def stored_so_far(store: Store, before: dict[str, int]) -> str:
    """What a sync that stopped (a full disk) had stored: the journal records per board."""
    parts = []
    for board in store.boards():
        first, last = before.get(board, 0) + 1, store.last_seq(board)
        if last >= first:
            parts.append("board %s: records %d-%d" % (board, first, last))
    if not parts:
        return "Nothing of this sync was stored."
    return (
        "Stored by this sync: %s; the games in them are not all drafted or updated yet: "
        "`presstime sync` again once there is space goes on from there." % "; ".join(parts)
    )


def _face(game: str | None) -> ModuleType:
    from presstime import games

    return games.core(game) or games.core_of(games.default())


def other_game_lines(s: dict[str, Any]) -> list[str]:
    """What the board knows of a game other than the default: reveals, or photo tokens (the
    round and step words are the game's face's)."""
    from presstime import games
    from presstime.history.game_words import label

    out = []
    face = _face(s["game"])
    if face.STEP_WORD:
        for i, r in enumerate(s["round_details"]):
            out.append(
                "%s %d: %d %ss revealed"
                % (face.ROUND_WORD, i + 1, r.get("reveals", 0), face.STEP_WORD)
            )
    counted = [k for k in games.board_counted() if k in s]
    for k in counted:
        out.append(
            "%s: " % label(s["game"], k)
            + ", ".join("%s %d" % (n, s[k].get(n, 0)) for n in s["players"])
        )
    ends = games.face_of(s["game"]).BOARD_ENDS
    if counted and ends:
        won, ended = ends
        if s.get("winner"):
            out.append("%s %s" % (s["winner"], won))
        elif s["rounds"]:
            out.append(ended)
    return out


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    if args.damaged:
        with open_store(args) as store:
            return run_damaged(store, args)
    if args.drop or args.board:
        raise BadInput("--drop and --board go with --damaged (presstime sync --damaged --drop SEQ)")
    port = ports.pick_port(args.port)
    client = share.connect(port, command="sync")
    try:
        with open_store(args) as store:
            before = dict((b, store.last_seq(b)) for b in store.boards())
            try:
                bar = None if args.json else progress_bar(sys.stderr)
                gone = []
                try:
                    board_id, added = pull(client, store, bar, gone)
                finally:
                    if bar:
                        sys.stderr.write("\n")
                damaged = []
                games = rebuild.games_from_journal(
                    store.journal(board_id), damaged, store.dropped(board_id)
                )
                summaries = store_board_games(store, board_id, games)
                total = store.last_seq(board_id)
            except StoreFull as e:
                raise StoreFull("%s. %s" % (e, stored_so_far(store, before)))
    finally:
        client.close()
    if args.json:
        print(
            json.dumps(
                {
                    "board": board_id,
                    "port": port,
                    "added": added,
                    "last_seq": total,
                    "gone": gone,
                    "games": summaries,
                    "damaged": damaged,
                },
                indent=2,
                ensure_ascii=False,
            )
        )
        return 0
    print(
        "board %s on %s: %d new record%s, %d in the history"
        % (board_id, port, added, "" if added == 1 else "s", total)
    )
    for first, last in gone:
        print(
            "  records %d-%d were already gone from the board (its journal keeps only the latest "
            "games, "
            "about 16 KB): the games in them cannot be synced any more" % (first, last)
        )
    for s in summaries:
        for line in game_lines(s):
            print(line)
    for line in damage.sync_lines(board_id, damaged):
        print(line)
    return 0


def game_lines(s: dict[str, Any]) -> list[str]:
    """The lines of one synced game in the text report."""
    from presstime.core.games import GAMES

    if s["game"] is None:  # a set-up this presstime cannot read
        return ["  a game it cannot rebuild: %s" % s["problem"]]
    if "stored" in s:
        where = "history game %d" % s["stored"]
    elif s.get("discarded"):
        where = (
            "not drafted: its draft was discarded (enter --discard) and the board's game has no "
            "record since"
        )
    elif "draft" in s:
        where = "draft %s%s" % (
            s["draft"],
            " (discarded before; drafted again: the board's game went on)"
            if s.get("redrafted")
            else "",
        )
    elif s.get("unstorable"):
        where = "not drafted"
    else:
        where = "the history (not updated)"
    default = s["game"] == GAMES[0]
    lines = [
        "  %s%s: %d %s%s%s -> %s"
        % (
            "" if default else s["game"] + " ",
            ", ".join(printable(n) for n in s["players"]),
            s["rounds"],
            _face(s["game"]).ROUND_WORD,
            "" if s["rounds"] == 1 else "s",
            ", over" if s["over"] else "",
            where,
        )
    ]
    if not default:
        lines += ["    " + line for line in other_game_lines(s)]
    else:
        for i, r in enumerate(s["round_details"]):
            times = ", ".join(
                "%s %s" % (printable(n), status_text.stamp(r["print_ms"][n]))
                for n in r["finish"]
                if n in r["print_ms"]
            )
            lines.append(
                "    round %d (%s): %s%s%s"
                % (
                    i + 1,
                    r.get("day") or "-",
                    " ".join(printable(n) for n in r["finish"]) if r["finish"] else "(no tokens)",
                    ("  [%s]" % times) if times else "",
                    ("  tie: " + ", ".join(printable(n) for n in r["tied"])) if r["tied"] else "",
                )
            )
    if "problem" in s:
        lines.append(
            "    %s: %s"
            % ("not stored" if s.get("unstorable") else "not updated", printable(s["problem"]))
        )
    return lines
