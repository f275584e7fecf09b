"""presstime delete ID [ID…]: remove games from the local history, after showing them and asking."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime.commands.history import rows, table_lines
from presstime.errors import BadInput, Failure
from presstime.history.store import add_db_argument, open_store

if TYPE_CHECKING:
    import argparse

EXAMPLE = """examples:
  presstime export 3 -o game3.json && presstime delete 3     # keep a copy first
  presstime delete 3 4 7
  presstime delete 3 --yes                                    # no question (scripts)

Every id is checked before anything is deleted, and all the games go in one transaction (or none).
On a terminal the games are listed as `presstime history` lists them and you are asked to confirm;
without a terminal, --yes is required. `presstime export ID -o FILE.json` keeps a copy that
`presstime import FILE.json` brings back. A game synced from a board (source board:…) comes back
on the next `presstime sync` only as a draft: the board's finishing orders and times, with the
scorepad numbers to type again (`presstime enter --list`)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "ids", nargs="+", metavar="ID", help="games to delete, as `presstime history` numbers them"
    )
    parser.add_argument(
        "--yes", action="store_true", help="delete without asking (required when not on a terminal)"
    )
    add_db_argument(parser)


def board_note(game: dict[str, Any]) -> str | None:
    """What happens to a game from a board on the next sync (None for other games)."""
    source = game.get("source") or ""
    if not source.startswith("board:"):
        return None
    return (
        "game #%d came from a board (%s): the next `presstime sync` brings it back only as a "
        "draft, "
        "without its scorepad numbers" % (game["id"], source)
    )


def _confirmed(count):
    try:
        answer = input("Delete %s from the history? [y/N] " % _games(count))
    except EOFError:
        print()
        return False
    return answer.strip().lower() in ("y", "yes")


def _games(count):
    return "%d game%s" % (count, "" if count == 1 else "s")


def run(args: argparse.Namespace) -> int:
    import sys

    with open_store(args) as store:
        problems = []
        ids = []
        for game_id in args.ids:  # every id checked, every unknown one named, before anything else
            try:
                game_id = store.get_game_id(game_id)  # a damaged game too: this is how it goes
            except BadInput as e:
                problems.extend(e.messages)
                continue
            if game_id not in ids:
                ids.append(game_id)
        if problems:
            raise BadInput(problems)
        if not args.yes and not sys.stdin.isatty():
            raise BadInput(
                "standard input is not a terminal, so nobody can confirm: add --yes to delete %s "
                "(%s)" % (_games(len(ids)), ", ".join("#%d" % i for i in ids))
            )
        import shutil
        import textwrap

        games = rows(store, ids)
        width = (
            shutil.get_terminal_size().columns if sys.stdout.isatty() else None
        )  # as `history` does
        for line in table_lines(games, width):
            print(line)
        for game in games:
            note = board_note(game)
            if note:
                print(
                    "\n".join(
                        textwrap.wrap(
                            note, (width or 80) - 1, break_long_words=False, subsequent_indent="  "
                        )
                    )
                )
        if not args.yes:
            print(
                "\n".join(
                    textwrap.wrap(
                        "Keep a copy first with `presstime export %s -o FILE.json` (`presstime "
                        "import` reads it back)." % " ".join(str(i) for i in ids),
                        (width or 80) - 1,
                        break_long_words=False,
                        break_on_hyphens=False,
                    )
                )
            )
            if not _confirmed(len(ids)):
                raise Failure("nothing deleted")
        deleted = store.delete_games(ids)
    print("deleted %s: %s" % (_games(len(deleted)), ", ".join("#%d" % i for i in deleted)))
    return 0
