"""presstime history: list the games kept in the local history."""

EXAMPLE = """examples:
  presstime history
  presstime history --json
  presstime history --db ./club.sqlite3"""


def configure(parser):
    from ..store import add_db_argument

    parser.add_argument("--json", action="store_true", help="print the list as one JSON document")
    add_db_argument(parser)


def outcome(record):
    """(complete, winners, status text) of a stored record, scored by the core."""
    from .. import records
    from ..errors import BadInput

    try:
        result = records.tally(record)
    except BadInput as e:
        return None, [], "cannot be scored: %s" % e.messages[0]
    winners = result.get("winners") or []
    complete = bool(result.get("complete", True))
    if not complete:
        return False, [], "in progress"
    if not winners:
        return True, [], "no winner"
    return True, winners, ("winner: " if len(winners) == 1 else "shared win: ") + ", ".join(winners)


def rows(store, ids=None):
    """The history's summaries (all, or those of `ids`, oldest first), each with its outcome."""
    games = store.games(ids)
    summaries = dict((s["id"], s) for s in store.list_games())
    out = []
    for game_id, record in games:
        complete, winners, status = outcome(record)
        out.append(dict(summaries[game_id], complete=complete, winners=winners, status=status))
    return out


def table_lines(games):
    """The lines `presstime history` prints: a header, then one line per game (coloured on a terminal)."""
    from .. import term

    table = [("#", "added", "game", "players", "rounds", "result")]
    from ..core.games import module

    for s in games:
        game = s["game"]
        face = module(game)
        if face is not None and len(face.MODES) > 1 and s["mode"] != face.MODES[0]:
            game += " (%s)" % s["mode"]
        table.append((str(s["id"]), s["added_at"][:10], game, ", ".join(s["players"]), str(s["rounds"]),
                      s["status"]))
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]) - 1)]
    lines = []
    for n, r in enumerate(table):
        cells = [r[i].rjust(widths[i]) if i in (0, 4) else r[i] + " " * (widths[i] - len(r[i]))
                 for i in range(len(widths))]
        line = "  ".join(cells + [r[-1]])
        if n == 0:
            line = term.paint(line, "1")
        elif games[n - 1]["winners"]:
            line = "  ".join(cells) + "  " + term.paint(r[-1], "32")
        lines.append(line.rstrip())
    return lines


def run(args):
    import json

    from ..store import open_store

    with open_store(args) as store:
        found = rows(store)
    if args.json:
        print(json.dumps(found, indent=2, ensure_ascii=False))
        return 0
    if not found:
        print("The history is empty: add games with `presstime import FILE`, `presstime enter` or `presstime sync`.")
        return 0
    for line in table_lines(found):
        print(line)
    return 0
