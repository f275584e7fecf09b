"""presstime score FILE: tally a game record offline and print the standings."""

EXAMPLE = """examples:
  presstime score examples/fit-to-print.json
  presstime score examples/fit-to-print.json --json"""


def configure(parser):
    parser.add_argument("file", help="a game record (JSON, see docs/game-format.md)")
    parser.add_argument("--json", action="store_true", help="print the standings as one JSON document")


def run(args):
    import json

    from .. import records, report

    result = records.tally(records.load(args.file), source=args.file)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(report.standings_text(result), end="")
    return 0
