"""presstime card ID -o FILE.png|FILE.svg: a shareable result card of one game.

The card holds the game's title and date, the winner (with the rule that decided a tie), the
standings table in the game's own columns and units, and a small score progression when the game
has rounds. Drawn with matplotlib (the `charts` extra: extras.CHARTS_NEEDS) from the stored result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime import games
from presstime.commands.chart import check_output, load_pyplot, progression, save, stored_result
from presstime.extras import CHARTS_NEEDS
from presstime.history import game_words
from presstime.history.store import add_db_argument, open_store

if TYPE_CHECKING:
    import argparse

    from matplotlib.figure import Figure

    from presstime.hints import Result

EXAMPLE = (
    """examples:
  presstime card 3 -o game3.png
  presstime card 3 -o game3.svg

"""
    + CHARTS_NEEDS
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", help="the game's number, as `presstime history` lists it")
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="the card file: .png or .svg"
    )
    add_db_argument(parser)


def columns(game: str, result: Result) -> list[tuple[str, str]]:
    """[(header, key)] of the card's table: the game's own numbers, then the total."""
    out = list(games.face_of(game).card_columns(result))
    total = game_words.score_unit(game)
    out.append(
        (
            "total $" if total == "$" else "total" if total == "pts" else "total (%s)" % total,
            "total",
        )
    )
    return out


def _cell(p, key):
    if isinstance(key, tuple):
        rounds = p.get("rounds") or []
        return rounds[key[1]].get("score") if key[1] < len(rounds) else None
    if key == "adjustments":
        return sum(a["points"] for a in p.get("adjustments") or [])
    v = p.get(key)
    if v is True:
        return "yes"
    if v is False:
        return ""
    return v


def table_rows(game: str, result: Result) -> tuple[list[str], list[list[str]]]:
    """(header, rows): one row per player, the winners first, then by total."""
    cols = columns(game, result)
    winners = result.get("winners") or []
    players = sorted(
        result.get("players") or [],
        key=lambda p: (
            p.get("name") not in winners,
            -(p["total"] if isinstance(p.get("total"), (int, float)) else -(10**9)),
        ),
    )
    rows = []
    for p in players:
        name = ("★ " + p["name"]) if p["name"] in winners else p["name"]
        rows.append([name] + ["-" if _cell(p, k) is None else str(_cell(p, k)) for _, k in cols])
    return ["player"] + [h for h, _ in cols], rows


def card_figure(plt: Any, game_id: int, result: Result, played: str | None) -> Figure:
    game = games.of(result)
    header, rows = table_rows(game, result)
    has_rounds = any(p.get("rounds") for p in result.get("players") or [])
    height = 2.2 + 0.3 * (len(rows) + 1) + (2.4 if has_rounds else 0.2)
    width = max(6.4, 1.05 * len(header) + 1.2)
    fig = plt.figure(figsize=(width, height))
    fig.patch.set_facecolor("white")
    title = game_words.full_title(game, result.get("mode"), result.get("edition"))
    fig.text(0.04, 1 - 0.45 / height, title, fontsize=17, weight="bold", va="top")
    fig.text(
        0.04,
        1 - 0.95 / height,
        "game #%s · %s" % (game_id, (played or "")[:10]),
        fontsize=9,
        color="#555555",
        va="top",
    )
    winners = result.get("winners") or []
    if winners:
        top = [p.get("total") for p in result.get("players") or [] if p.get("name") in winners]
        line = game_words.winner_text(
            game, winners, game_words.decided_by(result), top[0] if top else None
        )
        line = line[0].upper() + line[1:]
    else:
        line = result.get("no_winner") or (
            "No winner yet." if not result.get("complete", True) else "No winner."
        )
    fig.text(
        0.04,
        1 - 1.35 / height,
        line,
        fontsize=11.5,
        color="#1a7f37" if winners else "#555555",
        va="top",
        wrap=True,
    )
    table_top = 1 - 1.85 / height
    table_height = 0.3 * (len(rows) + 1) / height
    ax = fig.add_axes([0.04, table_top - table_height, 0.92, table_height])
    ax.axis("off")
    table = ax.table(
        cellText=rows, colLabels=header, loc="upper left", cellLoc="right", colLoc="right"
    )
    table.auto_set_font_size(False)
    table.set_fontsize(9.5)
    for (r, c), cell in table.get_celld().items():
        cell.set_edgecolor("#dddddd")
        if c == 0:
            cell.set_text_props(ha="left")
            cell._loc = "left"
        if r == 0:
            cell.set_text_props(weight="bold")
            cell.set_facecolor("#f2f2f2")
        elif rows[r - 1][0].startswith("★"):
            cell.set_facecolor("#e6f4ea")
    table.auto_set_column_width(list(range(len(header))))
    table.scale(1, 1.25)
    if has_rounds:
        chart = fig.add_axes([0.1, 0.4 / height, 0.75, 1.75 / height])
        progression(chart, game, result, small=True)
    fig.text(0.96, 0.12 / height, "presstime", fontsize=7, color="#999999", ha="right")
    return fig


def run(args: argparse.Namespace) -> int:
    import sys

    check_output(args.output)
    with open_store(args) as store:
        game_id, result = stored_result(store, args.id)
        played = store.conn.execute(
            "SELECT played FROM results WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
    plt = load_pyplot()
    save(plt, card_figure(plt, game_id, result, played), args.output)
    print("result card written to %s" % args.output, file=sys.stderr)
    return 0
