"""presstime score FILE…: tally game records offline and print the standings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from presstime import records, report
from presstime.errors import BadInput
from presstime.history import game_files

if TYPE_CHECKING:
    import argparse

EXAMPLE = """examples:
  presstime score examples/fit-to-print.json
  presstime score examples/*.json               several files (and a JSON list or an exported CSV)
  presstime score examples/fit-to-print.json --json

Each file is read as `presstime import` reads it: a JSON game record, a JSON list of records, or
the CSV of `presstime export --format csv`. A bad file is named with every problem in it (exit
status 2) and the other files are still scored. --json prints one JSON document for one game, a
list (each with its "file") for several."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="game record files (JSON or exported CSV, see docs/game-format.md)",
    )
    parser.add_argument("--json", action="store_true", help="print the standings as JSON")


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    scored = []
    refused = 0
    for path in args.files:
        try:
            games = game_files.read_games(path)
        except BadInput as e:
            refused += 1
            for message in e.messages:
                print("presstime score: %s" % message, file=sys.stderr)
            continue
        for n, record in enumerate(games):
            label = path if len(games) == 1 else "%s, game %d" % (path, n + 1)
            scored.append((label, record, records.tally(record, source=path)))
    if args.json:
        if len(scored) == 1 and not refused:
            print(json.dumps(report.with_table(scored[0][2], scored[0][1]), indent=2))
        elif scored:
            print(
                json.dumps(
                    [
                        dict(report.with_table(result, record), file=label)
                        for label, record, result in scored
                    ],
                    indent=2,
                )
            )
    else:
        for n, (label, record, result) in enumerate(scored):
            if len(scored) > 1 or refused:
                print("%s== %s ==" % ("\n" if n else "", label))
            print(report.standings_text(result, record) + report.table_text(record), end="")
    return 2 if refused else 0
