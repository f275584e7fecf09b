"""presstime stats: per-player statistics over the history, per game type."""

EXAMPLE = """examples:
  presstime stats
  presstime stats --json
  presstime stats --game fit-to-print
  presstime stats --mode solo

Only complete games count (games in progress are only counted). Definitions: docs/history.md."""


def title(game):
    """The game's title, as its face (core/games.py) gives it; the name for a game the core lacks."""
    from ..core import games

    face = games.module(game)
    return face.TITLE if face is not None else game

# Fit to Print's categories first, in scorepad order; any other numeric field after them
ORDER = ["articles", "photos", "centerpiece", "white_space", "mood", "unplaced", "most_tiles_ads",
         "score", "ad_revenue", "white_space_area"]


def configure(parser):
    from ..core import games
    from ..store import add_db_argument

    default = games.module(games.GAMES[0])
    parser.add_argument("--json", action="store_true", help="print the statistics as one JSON document")
    parser.add_argument("--game", metavar="GAME", help="only this game type (%s)" % ", ".join(games.GAMES))
    parser.add_argument("--mode", metavar="MODE",
                        help="only %s games of this mode (%s)" % (default.TITLE, ", ".join(default.MODES)))
    add_db_argument(parser)


def _fmt(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        return "%.2f" % v
    return str(v)


def _table(title, header, rows):
    from .. import term

    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    lines = [term.paint(title, "1")]
    for r in [header] + rows:
        cells = [r[0] + " " * (widths[0] - len(r[0]))] + [r[i].rjust(widths[i]) for i in range(1, len(r))]
        lines.append("  " + "  ".join(cells))
    return lines


def stats_text(stats):
    lines = []
    for game, t in stats["games"].items():
        head = "%s: %d complete game%s" % (title(game), t["games"], "" if t["games"] == 1 else "s")
        notes = []
        if t["in_progress"]:
            notes.append("%d in progress, not counted" % t["in_progress"])
        if t["unscorable"]:
            notes.append("%d the core cannot score" % t["unscorable"])
        if notes:
            head += " (" + "; ".join(notes) + ")"
        players = t["players"]
        if lines:
            lines.append("")
        if not players:
            lines.append(head)
            continue
        header = ["player", "games", "wins", "avg score", "out of business", "avg token", "avg $"]
        rows = [[name, _fmt(p["games"]), _fmt(p["wins"]), _fmt(p["average_score"]),
                 _fmt(p["out_of_business"]), _fmt(p["average_token"]), _fmt(p["average_ad_revenue"])]
                for name, p in players.items()]
        if any(p["average_print_ms"] is not None for p in players.values()):
            from ..mirror import stamp

            header.append("avg print")
            for row, p in zip(rows, players.values()):
                row.append("-" if p["average_print_ms"] is None else stamp(p["average_print_ms"]))
        lines += _table(head, header, rows)
        keys = set()
        for p in players.values():
            keys.update(p["per_round"])
        keys = [k for k in ORDER if k in keys] + sorted(k for k in keys if k not in ORDER)
        if keys:
            header = ["per round"] + [k.replace("_", " ") for k in keys]
            rows = [[name] + [_fmt(p["per_round"].get(k)) for k in keys] for name, p in players.items()]
            lines.append("")
            lines += _table("  average per round (points; ad revenue and most tiles ads in $, white space area in squares)", header, rows)
        keys = set()
        for p in players.values():
            keys.update(p["per_game"])
        keys = sorted(keys)
        if keys:
            header = ["per game"] + [k.replace("_", " ") for k in keys]
            rows = [[name] + [_fmt(p["per_game"].get(k)) for k in keys] for name, p in players.items()]
            lines.append("")
            lines += _table("  average per game", header, rows)
    if not lines:
        lines.append("No games in the history yet.")
    return "\n".join(lines) + "\n"


def run(args):
    import json
    import sys

    from .. import history_stats
    from ..core import games
    from ..store import open_store

    with open_store(args) as store:
        records = [record for game_id, record in store.games()]
    if args.game:
        records = [r for r in records if games.game_of(r) == args.game]
    if args.mode:
        default = games.module(games.GAMES[0])
        records = [r for r in records
                   if games.game_of(r) == default.GAME and r.get("mode", default.MODES[0]) == args.mode]
    stats = history_stats.compute(records)
    if args.json:
        print(json.dumps(stats, indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(stats_text(stats))
    return 0
