"""presstime export [ID…] --format json|csv [-o FILE]: write games from the history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from presstime.errors import BadInput, Failure
from presstime.history import bgstats, game_files, select
from presstime.history.store import add_db_argument, open_store

if TYPE_CHECKING:
    import argparse

EXAMPLE = """examples:
  presstime export 3 > game3.json                  # one game record (JSON)
  presstime export --format csv -o club.csv        # every game, one row per player per round
  presstime export 3 4 7 --format json -o some.json
  presstime export -o presstime.bgsplay            # BG Stats' play file: the app adds or updates each play
  presstime export -o BGStatsExport.json           # a BG Stats backup the app restores
  presstime export --format bgstats --game heat --since 2026-01-01 -o heat.json

`presstime import` reads back json and csv without loss (CSV columns: docs/history.md).
bgsplay is BG Stats' play file (recommended: importing it again updates the same plays), bgstats
its backup file (mapping: docs/history.md); the format follows the -o file name: .csv, *.bgsplay,
BGStatsExport*.json, else json. `presstime show ID` gives one game's one-tap BG Stats link.
A damaged game (`presstime history --damaged`) is left out and named; the exit status is then 1."""  # noqa: E501 (the examples as the terminal shows them)

FORMATS = ("json", "csv", "bgsplay", "bgstats")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "ids", nargs="*", metavar="ID", help="games to export (default: all, or those selected)"
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="json (the game-record format), csv, bgsplay (BG Stats' play file: the app adds "
        "or updates each play) or bgstats (BG Stats' backup, BGStatsExport.json); "
        "default from the -o file name",
    )
    parser.add_argument(
        "--me",
        metavar="NAME",
        help="bgsplay/bgstats: the player who owns the BG Stats app (default: the one in "
        "the most exported games)",
    )
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE instead of standard output"
    )
    select.add_arguments(parser)
    add_db_argument(parser)


def default_format(output: str | None) -> str:
    import os

    if not output:
        return "json"
    name = os.path.basename(output).lower()
    if name.endswith(".csv"):
        return "csv"
    if name.endswith(".bgsplay"):
        return "bgsplay"
    if name.startswith("bgstatsexport"):
        return "bgstats"
    return "json"


def _write(path, text):
    import os
    import tempfile

    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".presstime-export-", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                f.write(text)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError as e:
        raise Failure("cannot write %s: %s" % (path, e.strerror or e))


def run(args: argparse.Namespace) -> int:
    import sys

    fmt = args.format or default_format(args.output)
    selection = select.Selection.from_args(args)
    with open_store(args) as store:
        with store.snapshot():  # one view of the history, whatever a `delete` does meanwhile
            where, params = selection.sql("r")
            wanted = [store.get_game_id(i) for i in args.ids]  # BadInput naming an unknown id
            if wanted:
                where += " AND r.game_id IN (%s)" % ",".join("?" * len(wanted))
                params = params + wanted
            damaged = store.conn.execute(
                "SELECT r.game_id, r.error FROM results r WHERE r.state = 'damaged' AND "
                + where
                + " ORDER BY r.game_id",
                params,
            ).fetchall()
            ids = [
                r[0]
                for r in store.conn.execute(
                    "SELECT r.game_id FROM results r WHERE r.state != 'damaged' AND "
                    + where
                    + " ORDER BY r.game_id",
                    params,
                )
            ]
            if wanted:
                order = dict((i, n) for n, i in reversed(list(enumerate(wanted))))
                ids.sort(key=lambda i: order[i])
            unread = []
            games = store.games(
                ids, damaged=unread, uuids=True
            )  # a record damaged since its results were stored
            damaged += unread
            if fmt in ("bgstats", "bgsplay"):
                plays = bgstats.stored_plays(store, where, params, skip=[i for i, _ in unread])
                value = bgstats.export(plays, me=args.me, play_file=fmt == "bgsplay")
    for game_id, reason in damaged:
        print(
            "presstime export: game #%d left out, it is damaged: %s (see `presstime history "
            "--damaged`)" % (game_id, reason),
            file=sys.stderr,
        )
    if not games:
        if damaged:
            raise Failure("nothing to export: every selected game is damaged")
        if selection.is_everything() and not wanted:
            raise BadInput("the history is empty: nothing to export")
        raise BadInput("no %s in the history: nothing to export" % selection.describe())
    if fmt == "csv":
        text = game_files.csv_text(games)
    elif fmt in ("bgstats", "bgsplay"):
        text = bgstats.text(value)
    else:
        text = game_files.json_text([record for game_id, record in games])
    if args.output:
        _write(args.output, text)
        print(
            "%d game%s written to %s" % (len(games), "" if len(games) == 1 else "s", args.output),
            file=sys.stderr,
        )
    else:
        sys.stdout.write(text)
    return 1 if damaged else 0
