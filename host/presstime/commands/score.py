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

    record = records.load(args.file)
    result = records.tally(record, source=args.file)
    if args.json:
        print(json.dumps(report.with_table(result, record), indent=2))
    else:
        print(report.standings_text(result) + report.table_text(record), end="")
    return 0
