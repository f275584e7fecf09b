"""presstime chart ID|--all -o FILE.png|FILE.svg: score progression and each game's own numbers.

Every series is labelled, numbers of different units get their own axes (points, dollars, heat
tokens, photo tokens…), the winner is named in the title, and nothing is clipped (headroom above
the highest bar, labels outside the plot kept in the file). The words and units come from
game_words. matplotlib is an optional extra (`pip install -e '.[charts]'` in the checkout), imported
only here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime import games
from presstime.errors import BadInput, Failure
from presstime.extras import CHARTS_NEEDS
from presstime.history import game_words, select
from presstime.history.store import DamagedGame, add_db_argument, open_store

if TYPE_CHECKING:
    import argparse

    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from presstime.hints import Result
    from presstime.history.store import Store

EXAMPLE = (
    """examples:
  presstime chart 3 -o game3.png        # one game: running totals by round, its numbers per unit
  presstime chart --all -o club.svg     # every complete Fit to Print game: totals per game, averages
  presstime chart --all --game heat -o heat.png

A shareable one-game card: presstime card ID.
"""  # noqa: E501 (the examples as the terminal shows them)
    + CHARTS_NEEDS
)

FORMATS = (".png", ".svg")
HEADROOM = 1.18  # the axis goes this far above the highest bar or point, so labels fit
SMOOTH_FROM = 40  # --all over more games than this draws each player's moving average


def configure(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("id", nargs="?", help="the game's number, as `presstime history` lists it")
    which.add_argument(
        "--all", action="store_true", help="chart every complete game of one game type"
    )
    parser.add_argument(
        "--game",
        default=games.default(),
        metavar="GAME",
        help="with --all: the game type, one of %s (default: %s)"
        % (", ".join(games.names()), games.default()),
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="the chart file: .png or .svg"
    )
    add_db_argument(parser)


def load_pyplot() -> Any:
    """matplotlib.pyplot on the non-interactive Agg backend, or Failure telling how to install
    it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from presstime.extras import install_hint

        raise Failure("charts need matplotlib, which is not installed: %s" % install_hint("charts"))
    return plt


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _headroom(ax, values):
    """Room above the highest value and below the lowest, so no bar or label is cut."""
    values = [v for v in values if _num(v)] or [0]
    top, bottom = max(max(values), 0), min(min(values), 0)
    span = (top - bottom) or 1
    ax.set_ylim(bottom - (span * 0.12 if bottom < 0 else 0), top + span * (HEADROOM - 1))
    if all(float(v).is_integer() for v in values):  # counts and points: no 2.5 tokens on the axis
        from matplotlib.ticker import MaxNLocator

        ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def date_labels(labels: list[str]) -> list[str]:
    """Each date once: a game played on the same day as the one before it gets no label."""
    return [label if k == 0 or label != labels[k - 1] else "" for k, label in enumerate(labels)]


def _tick_names(names, winners):
    return [("★ " + n) if n in winners else n for n in names]


def _names_axis(ax, x, names, winners):
    ax.set_xticks(x)
    ax.set_xticklabels(
        _tick_names(names, winners),
        rotation=45 if len(names) > 6 else 0,
        ha="right" if len(names) > 6 else "center",
    )


def _panel_width(names):
    return max(5.2, 0.5 * len(names) + 2.5)


def unit_panels(game: str, result: Result) -> list[tuple[str, list[tuple[str, str, list[Any]]]]]:
    """[(unit, [(label, key, [value per player])])]: the game's numbers grouped by unit, each
    group drawn on its own axis. Round numbers are summed over the game."""
    players = result.get("players") or []
    groups = {}
    order = []
    face = games.face_of(game)
    for key, label, unit in face.GAME_FIELDS:
        values = [p.get(key) for p in players]
        if any(_num(v) for v in values):
            groups.setdefault(unit, []).append((label, key, values))
            order.append(unit) if unit not in order else None
    if face.SCORE_UNIT == "$":  # the final total is dollars too
        groups.setdefault("$", []).append(
            ("final total", "total", [p.get("total") for p in players])
        )
        order.append("$") if "$" not in order else None
    points = set(face.POINT_CATEGORIES) | set(face.CHART_SKIPS)
    if face.MONEY:
        points.add(face.MONEY[0])  # dollars: a panel of their own
    for key, label, unit in face.ROUND_FIELDS:
        if key in points:
            continue
        values = [
            sum(r.get(key) or 0 for r in p.get("rounds") or []) if p.get("rounds") else None
            for p in players
        ]
        if any(_num(v) for v in values):
            groups.setdefault(unit, []).append((label, key, values))
            order.append(unit) if unit not in order else None
    return [(u, groups[u]) for u in order]


def _grouped_bars(ax, names, series, unit, title, winners):
    import numpy as np

    x = np.arange(len(names))
    w = 0.8 / max(len(series), 1)
    every = []
    for j, (label, _, values) in enumerate(series):
        ys = [v if _num(v) else 0 for v in values]
        every += ys
        bars = ax.bar(x + (j - (len(series) - 1) / 2.0) * w, ys, width=w, label=label)
        if len(names) * len(series) <= 18:  # values on the bars while they fit
            ax.bar_label(
                bars,
                labels=[("%g" % v) if _num(v) else "" for v in values],
                fontsize="x-small",
                padding=2,
            )
    _headroom(ax, every)
    ax.axhline(0, color="black", linewidth=0.8)
    _names_axis(ax, x, names, winners)
    ax.set_title(title)
    ax.set_ylabel(_unit_word(unit))
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))


def _unit_word(unit: str) -> str:
    return {"$": "dollars ($)", "pts": "points"}.get(unit, unit)


def _breakdown(ax, names, per_player, categories, labels, title, winners):
    """Stacked bars: positive points upwards, negative downwards, one colour per category."""
    import numpy as np

    x = np.arange(len(names))
    up = np.zeros(len(names))
    down = np.zeros(len(names))
    for c in categories:
        values = np.array([per_player[n].get(c, 0) for n in names], dtype=float)
        pos = np.where(values > 0, values, 0)
        neg = np.where(values < 0, values, 0)
        bars = ax.bar(x, pos, bottom=up, label=labels[c])
        ax.bar(x, neg, bottom=down, color=bars.patches[0].get_facecolor() if bars.patches else None)
        up += pos
        down += neg
    for i in range(len(names) if len(names) <= 8 else 0):  # the net points above each stack
        ax.annotate(
            "%g" % round(up[i] + down[i], 2),
            (x[i], up[i]),
            ha="center",
            va="bottom",
            fontsize="x-small",
            xytext=(0, 2),
            textcoords="offset points",
        )
    _headroom(ax, list(up) + list(down))
    ax.axhline(0, color="black", linewidth=0.8)
    _names_axis(ax, x, names, winners)
    ax.set_title(title)
    ax.set_ylabel("points")
    if categories:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))


def _round_labels(game, players):
    rounds = max([len(p.get("rounds") or []) for p in players] + [0])
    word = game_words.round_words(game)[0]
    labels = []
    for i in range(rounds):
        day = None
        for p in players:
            rs = p.get("rounds") or []
            if i < len(rs) and rs[i].get("day"):
                day = rs[i]["day"]
        labels.append(day.capitalize() if day else "%s %d" % (word, i + 1))
    return labels


def progression(ax: Axes, game: str, result: Result, small: bool = False) -> bool:
    """Each player's running total after each round (and after end-of-game adjustments), each
    line labelled at its end; False when the game has no rounds."""
    players = result.get("players") or []
    labels = _round_labels(game, players)
    if not labels:
        return False
    adjusted = any(p.get("adjustments") for p in players)
    if adjusted:
        labels.append("end")
    winners = result.get("winners") or []
    every = []
    for p in players:
        running, ys = 0, [0]
        for r in p.get("rounds") or []:
            running += r.get("score") or 0
            ys.append(running)
        if adjusted:
            ys.append(p["total"] if _num(p.get("total")) else running)
        every += ys
        name = ("★ " + p["name"]) if p["name"] in winners else p["name"]
        (line,) = ax.plot(
            range(len(ys)),
            ys,
            marker="o",
            label=name,
            linewidth=2.5 if p["name"] in winners else 1.5,
        )
        ax.annotate(
            name,
            (len(ys) - 1, ys[-1]),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize="x-small" if small else "small",
            color=line.get_color(),
        )
    ax.set_xticks(range(len(labels) + 1))
    ax.set_xticklabels(["start"] + labels, fontsize="x-small" if small else None)
    ax.set_xlim(-0.2, len(labels) + 0.8)  # room for the end labels
    _headroom(ax, every)
    ax.set_ylabel(_unit_word(game_words.score_unit(game)), fontsize="x-small" if small else None)
    if small:
        ax.tick_params(labelsize="x-small")
        ax.set_title("score progression", fontsize="small")
    else:
        ax.set_title("running total by %s" % game_words.round_words(game)[0])
        ax.legend(fontsize="small", loc="upper left")
    return True


def _title(game_id, result):
    game = games.of(result)
    text = "Game #%s: %s" % (
        game_id,
        game_words.full_title(game, result.get("mode"), result.get("edition")),
    )
    winners = result.get("winners") or []
    if winners:
        top = [p.get("total") for p in result.get("players") or [] if p.get("name") in winners]
        text += " — " + game_words.winner_text(
            game, winners, game_words.decided_by(result), top[0] if top else None
        )
    elif result.get("complete", True):
        text += " — no winner"
    else:
        text += " — in progress"
    return text


def game_figure(plt: Any, game_id: int, result: Result) -> Figure:
    game = games.of(result)
    players = result.get("players") or []
    names = [p["name"] for p in players]
    winners = result.get("winners") or []
    categories = [
        c
        for c in games.face_of(game).POINT_CATEGORIES
        if any(c in r for p in players for r in p.get("rounds") or [])
    ]
    has_rounds = any(p.get("rounds") for p in players)
    panels = unit_panels(game, result)
    count = (1 if has_rounds else 0) + (1 if categories else 0) + len(panels)
    if (
        not has_rounds
        and not categories
        and not any(u == game_words.score_unit(game) for u, _ in panels)
    ):
        panels.insert(
            0,
            (game_words.score_unit(game), [("total", "total", [p.get("total") for p in players])]),
        )
        count += 1
    fig, axes = plt.subplots(
        1, count, figsize=(max(_panel_width(names) * count, 7.5), 4.6), squeeze=False
    )
    fig.suptitle(_title(game_id, result))
    axes = list(axes[0])
    if has_rounds:
        progression(axes.pop(0), game, result)
    if categories:
        per_player = {}
        for p in players:
            per_player[p["name"]] = dict(
                (c, sum((r.get(c) or 0) for r in p.get("rounds") or [])) for c in categories
            )
        labels = dict((c, game_words.label(game, c)) for c in categories)
        _breakdown(
            axes.pop(0),
            names,
            per_player,
            categories,
            labels,
            "points per category, whole game",
            winners,
        )
    for unit, series in panels:
        _grouped_bars(axes.pop(0), names, series, unit, "in %s" % _unit_word(unit), winners)
    fig.tight_layout()
    return fig


def all_figure(plt: Any, game: str, scored: list[tuple[int, Result]]) -> Figure:
    """scored: [(id, result)] of complete games, oldest first."""
    unit = game_words.score_unit(game)
    names = sorted(set(p["name"] for _, result in scored for p in result.get("players") or []))
    wins: dict[str, int] = dict((n, 0) for n in names)
    for _, result in scored:
        for n in result.get("winners") or []:
            wins[n] = wins.get(n, 0) + 1
    categories = [
        c
        for c in games.face_of(game).POINT_CATEGORIES
        if any(
            c in r
            for _, res in scored
            for p in res.get("players") or []
            for r in p.get("rounds") or []
        )
    ]
    money = games.face_of(game).MONEY  # its dollars beside the total: their own panel
    dollars = money is not None and money[0] in [k for k, _, _ in games.face_of(game).GAME_FIELDS]
    count = 2 + (1 if categories else 0) + (1 if dollars else 0)
    cols = 2
    rows = (count + 1) // 2
    fig, axes = plt.subplots(
        rows, cols, figsize=(_panel_width(names) * cols + 2, 4.8 * rows), squeeze=False
    )
    fig.suptitle(
        "%s: %d complete game%s"
        % (game_words.title(game), len(scored), "" if len(scored) == 1 else "s")
    )
    axes = [ax for row in axes for ax in row]
    ax = axes.pop(0)
    if len(names) > 10:  # the default cycle repeats after ten colours
        ax.set_prop_cycle(color=plt.cm.tab20.colors)
    every = []
    window = 1 if len(scored) <= SMOOTH_FROM else max(2, len(scored) // (SMOOTH_FROM * 2))
    for name in names:
        xs, ys = [], []
        for i, (_, result) in enumerate(scored):
            for p in result.get("players") or []:
                if p["name"] == name and _num(p.get("total")):
                    xs.append(i)
                    ys.append(p["total"])
        if window > 1:  # thousands of games: each player's average over their last `window` games
            ys = [
                sum(ys[max(0, k - window + 1) : k + 1]) / len(ys[max(0, k - window + 1) : k + 1])
                for k in range(len(ys))
            ]
        every += ys
        ax.plot(xs, ys, marker="o" if window == 1 else None, label=name)
    step = max(1, len(scored) // 12)
    ax.set_xticks(range(0, len(scored), step))
    ax.set_xticklabels(
        date_labels(
            [
                (scored[i][1].get("_played") or "#%s" % scored[i][0])[:10]
                for i in range(0, len(scored), step)
            ]
        ),
        rotation=90 if len(scored) > 8 else 0,
        fontsize="small",
    )
    _headroom(ax, every)
    ax.set_title(
        "final score per game"
        if window == 1
        else "final score, average of the last %d games" % window
    )
    ax.set_ylabel(_unit_word(unit))
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    _grouped_bars(
        axes.pop(0), names, [("wins", "wins", [wins[n] for n in names])], "wins", "games won", []
    )
    if categories:
        per_player = {}
        for name in names:
            sums, rounds = {}, 0
            for _, result in scored:
                for p in result.get("players") or []:
                    if p["name"] != name:
                        continue
                    for r in p.get("rounds") or []:
                        rounds += 1
                        for c in categories:
                            sums[c] = sums.get(c, 0) + (r.get(c) or 0)
            per_player[name] = (
                dict((c, sums.get(c, 0) / rounds) for c in categories) if rounds else {}
            )
        labels = dict((c, game_words.label(game, c)) for c in categories)
        word = game_words.round_words(game)[0]
        _breakdown(
            axes.pop(0),
            names,
            per_player,
            categories,
            labels,
            "average points a %s, by category" % word,
            [],
        )
    if dollars and money is not None:
        avg = []
        for name in names:
            ads = [
                p.get(money[0])
                for _, r in scored
                for p in r.get("players") or []
                if p["name"] == name and _num(p.get(money[0]))
            ]
            avg.append(round(sum(ads) / len(ads), 2) if ads else None)
        _grouped_bars(
            axes.pop(0),
            names,
            [("average " + money[2], money[0], avg)],
            "$",
            "average %s a game" % money[2],
            [],
        )
    fig.tight_layout()
    return fig


def save(plt: Any, fig: Figure, path: str) -> None:
    """Write the figure (PNG or SVG by suffix), everything drawn kept inside the file."""
    import os

    suffix = os.path.splitext(path)[1].lower()
    try:
        fig.savefig(
            path,
            format=suffix[1:],
            bbox_inches="tight",
            pad_inches=0.15,
            dpi=110,
            metadata={"Date": None} if suffix == ".svg" else None,
        )
    except OSError as e:
        raise Failure("cannot write %s: %s" % (path, e.strerror or e))
    finally:
        plt.close(fig)


def check_output(path: str) -> None:
    import os

    if os.path.splitext(path)[1].lower() not in FORMATS:
        raise BadInput("%s: a chart file ends in .png or .svg" % path)


def stored_result(store: Store, game_id: int | str) -> tuple[int, Result]:
    """The stored result of one game; BadInput for an unknown id, DamagedGame when damaged."""
    game_id = store.get_game_id(game_id)
    state, result, status, error = store.result(game_id)
    if state == "damaged" or result is None:
        raise DamagedGame(game_id, error or "no stored result")
    return game_id, result


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    check_output(args.output)
    if args.all:
        select.Selection(game=args.game)  # an unknown game: exit 2 with the choices
    with open_store(args) as store:
        if args.all:
            scored = []
            for i, r, played in store.conn.execute(
                "SELECT game_id, result, played FROM results WHERE state = 'complete' AND game = ?"
                " ORDER BY played, game_id",
                (args.game,),
            ):
                result = json.loads(r)
                result["_played"] = played
                scored.append((i, result))
        else:
            game_id, result = stored_result(store, args.id)
    if args.all and not scored:
        raise BadInput("no complete %s game in the history to chart" % args.game)
    plt = load_pyplot()
    fig = all_figure(plt, args.game, scored) if args.all else game_figure(plt, game_id, result)
    save(plt, fig, args.output)
    print("chart written to %s" % args.output, file=sys.stderr)
    return 0
