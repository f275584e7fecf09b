"""presstime show ID: print one game from the history as `presstime score` does."""

EXAMPLE = """examples:
  presstime show 3
  presstime show 3 --json"""


def configure(parser):
    from ..store import add_db_argument

    parser.add_argument("id", help="the game's number, as `presstime history` lists it")
    parser.add_argument("--json", action="store_true", help="print the standings as one JSON document")
    add_db_argument(parser)


def run(args):
    import json

    from .. import records, report
    from ..store import open_store

    from ..store import DamagedGame

    with open_store(args) as store:
        record = store.get_game(args.id)
        state, result, status, error = store.result(args.id)
    if state == "damaged":
        raise DamagedGame(int(str(args.id).strip().lstrip("#")), error)
    if result is None:  # cannot happen: a stored game that is not damaged has its result
        result = records.tally(record, source="game #%s" % args.id)
    if args.json:
        print(json.dumps(report.with_table(result, record), indent=2))
    else:
        print(report.standings_text(result) + report.table_text(record), end="")
    return 0
