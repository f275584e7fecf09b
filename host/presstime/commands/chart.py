"""presstime chart ID|--all -o FILE.png|FILE.svg: score progression and category breakdown.

matplotlib is an optional extra (`pip install 'presstime[charts]'`), imported only here.
"""

EXAMPLE = """examples:
  presstime chart 3 -o game3.png        # one game: running totals by round, points per category
  presstime chart --all -o club.svg     # every complete Fit to Print game: totals per game, averages

Needs matplotlib: pip install 'presstime[charts]'"""

INSTALL = "charts need matplotlib, which is not installed: pip install 'presstime[charts]'"
# the scorepad's point categories (ad revenue is dollars, not points: not in the breakdown)
CATEGORIES = ["articles", "photos", "centerpiece", "white_space", "mood", "unplaced"]
FORMATS = (".png", ".svg")


def configure(parser):
    from ..store import add_db_argument

    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("id", nargs="?", help="the game's number, as `presstime history` lists it")
    which.add_argument("--all", action="store_true", help="chart every complete game of one game type")
    from ..core.games import GAMES

    parser.add_argument("--game", default=GAMES[0], metavar="GAME",
                        help="with --all: the game type, one of %s (default: %s)" % (", ".join(GAMES), GAMES[0]))
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="the chart file: .png or .svg")
    add_db_argument(parser)


def load_pyplot():
    """matplotlib.pyplot on the non-interactive Agg backend, or Failure telling how to install it."""
    from ..errors import Failure

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise Failure(INSTALL)
    return plt


def _categories(players):
    keys = set()
    for p in players:
        for r in p.get("rounds") or []:
            keys.update(k for k in r if k in CATEGORIES)
    return [c for c in CATEGORIES if c in keys]


def _breakdown(ax, names, per_player, categories, title):
    """Stacked bars: positive points upwards, negative downwards, one colour per category."""
    import numpy as np

    x = np.arange(len(names))
    up = np.zeros(len(names))
    down = np.zeros(len(names))
    for c in categories:
        values = np.array([per_player[n].get(c, 0) for n in names], dtype=float)
        pos = np.where(values > 0, values, 0)
        neg = np.where(values < 0, values, 0)
        bars = ax.bar(x, pos, bottom=up, label=c.replace("_", " "))
        ax.bar(x, neg, bottom=down, color=bars.patches[0].get_facecolor() if bars.patches else None)
        up += pos
        down += neg
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x)
    ax.set_xticklabels(names)
    ax.set_title(title)
    ax.set_ylabel("points")
    if categories:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))


def game_figure(plt, game_id, result):
    players = result.get("players") or []
    names = [p["name"] for p in players]
    title = result.get("title") or "Fit to Print"
    if result.get("mode"):
        title += " (%s)" % result["mode"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    fig.suptitle("Game #%s: %s" % (game_id, title))
    rounds = max([len(p.get("rounds") or []) for p in players] + [0])
    if rounds:
        labels = []
        for i in range(rounds):
            day = None
            for p in players:
                rs = p.get("rounds") or []
                if i < len(rs) and rs[i].get("day"):
                    day = rs[i]["day"]
            labels.append(day.capitalize() if day else "round %d" % (i + 1))
        adjusted = any(p.get("adjustments") for p in players)
        if adjusted:
            labels.append("end")
        for p in players:
            running, ys = 0, [0]
            for r in p.get("rounds") or []:
                running += r.get("score") or 0
                ys.append(running)
            if adjusted:
                ys.append(p["total"] if isinstance(p.get("total"), int) else running)
            left.plot(range(len(ys)), ys, marker="o", label=p["name"])
        left.set_xticks(range(len(labels) + 1))
        left.set_xticklabels(["start"] + labels)
        left.set_title("running total by round")
        left.set_ylabel("points")
        left.legend(fontsize="small")
    else:
        totals = [p.get("total") if isinstance(p.get("total"), int) else 0 for p in players]
        left.bar(range(len(names)), totals)
        left.set_xticks(range(len(names)))
        left.set_xticklabels(names)
        left.set_title("total")
    categories = _categories(players)
    per_player = {}
    for p in players:
        sums = {}
        for r in p.get("rounds") or []:
            for c in categories:
                sums[c] = sums.get(c, 0) + (r.get(c) or 0)
        per_player[p["name"]] = sums
    if categories:
        _breakdown(right, names, per_player, categories, "points per category, whole game")
    else:
        columns = [c for c in result.get("columns") or [] if all(isinstance(p.get(c), int) for p in players)]
        w = 0.8 / max(len(columns), 1)
        for j, c in enumerate(columns):
            right.bar([i + (j - (len(columns) - 1) / 2.0) * w for i in range(len(names))],
                      [p[c] for p in players], width=w, label=c.replace("_", " "))
        right.set_xticks(range(len(names)))
        right.set_xticklabels(names)
        right.set_title("per player")
        if columns:
            right.legend(fontsize="small")
    fig.tight_layout()
    return fig


def all_figure(plt, game, scored):
    """scored: [(id, result)] of complete games, oldest first."""
    from .stats import title

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    fig.suptitle("%s: %d complete game%s" % (title(game), len(scored), "" if len(scored) == 1 else "s"))
    names = []
    for _, result in scored:
        for p in result.get("players") or []:
            if p["name"] not in names:
                names.append(p["name"])
    names.sort()
    for name in names:
        xs, ys = [], []
        for i, (_, result) in enumerate(scored):
            for p in result.get("players") or []:
                if p["name"] == name and isinstance(p.get("total"), int):
                    xs.append(i)
                    ys.append(p["total"])
        left.plot(xs, ys, marker="o", label=name)
    left.set_xticks(range(len(scored)))
    left.set_xticklabels(["#%s" % game_id for game_id, _ in scored], rotation=90 if len(scored) > 8 else 0)
    left.set_title("final total per game")
    left.set_ylabel("points")
    left.legend(fontsize="small")
    players = [p for _, result in scored for p in result.get("players") or []]
    categories = _categories(players)
    per_player = {}
    for name in names:
        sums, rounds = {}, 0
        for p in players:
            if p["name"] != name:
                continue
            for r in p.get("rounds") or []:
                rounds += 1
                for c in categories:
                    sums[c] = sums.get(c, 0) + (r.get(c) or 0)
        per_player[name] = dict((c, sums.get(c, 0) / rounds) for c in categories) if rounds else {}
    _breakdown(right, names, per_player, categories, "average points per round, by category")
    fig.tight_layout()
    return fig


def run(args):
    import os
    import sys

    from .. import records
    from ..core.games import game_of
    from ..errors import BadInput, Failure
    from ..store import open_store

    suffix = os.path.splitext(args.output)[1].lower()
    if suffix not in FORMATS:
        raise BadInput("%s: a chart file ends in .png or .svg" % args.output)
    with open_store(args) as store:
        if args.all:
            games = [(i, r) for i, r in store.games() if game_of(r) == args.game]
        else:
            games = [(args.id, store.get_game(args.id))]
    if args.all:
        scored = []
        for game_id, record in games:
            try:
                result = records.tally(record)
            except BadInput:
                continue
            if result.get("complete", True):
                scored.append((game_id, result))
        if not scored:
            raise BadInput("no complete %s game in the history to chart" % args.game)
    else:
        result = records.tally(games[0][1], source="game #%s" % args.id)
    plt = load_pyplot()
    fig = all_figure(plt, args.game, scored) if args.all else game_figure(plt, args.id, result)
    try:
        fig.savefig(args.output, format=suffix[1:], metadata={"Date": None} if suffix == ".svg" else None)
    except OSError as e:
        raise Failure("cannot write %s: %s" % (args.output, e.strerror or e))
    finally:
        plt.close(fig)
    print("chart written to %s" % args.output, file=sys.stderr)
    return 0
