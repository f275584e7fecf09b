"""presstime export [ID…] --format json|csv [-o FILE]: write games from the history."""

EXAMPLE = """examples:
  presstime export 3 > game3.json                  # one game record (JSON)
  presstime export --format csv -o club.csv        # every game, one row per player per round
  presstime export 3 4 7 --format json -o some.json

`presstime import` reads back both formats without loss (CSV columns: docs/history.md)."""


def configure(parser):
    from ..store import add_db_argument

    parser.add_argument("ids", nargs="*", metavar="ID", help="games to export (default: all)")
    parser.add_argument("--format", choices=("json", "csv"), default=None,
                        help="json (the game-record format; default) or csv; "
                             "default from the -o file name's suffix")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    add_db_argument(parser)


def _write(path, text):
    import os
    import tempfile

    from ..errors import Failure

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


def run(args):
    import sys

    from .. import game_files
    from ..errors import BadInput
    from ..store import open_store

    fmt = args.format
    if fmt is None:
        fmt = "csv" if args.output and args.output.lower().endswith(".csv") else "json"
    with open_store(args) as store:
        games = store.games(args.ids or None)
    if not games:
        raise BadInput("the history is empty: nothing to export")
    if fmt == "csv":
        text = game_files.csv_text(games)
    else:
        text = game_files.json_text([record for game_id, record in games])
    if args.output:
        _write(args.output, text)
        print("%d game%s written to %s" % (len(games), "" if len(games) == 1 else "s", args.output),
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
