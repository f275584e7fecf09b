"""presstime stats: per-player statistics over the history, per game type and overall."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime import games, term
from presstime.history import game_words, select, stats as history_stats
from presstime.history.store import add_db_argument, open_store
from presstime.names import typed
from presstime.tableside.status_text import stamp

if TYPE_CHECKING:
    import argparse

EXAMPLE = """examples:
  presstime stats
  presstime stats --json
  presstime stats --game heat
  presstime stats --mode solo --since 2026-01-01
  presstime stats --vs Ada Ben                 # head to head

Only complete games count (games in progress are only counted). Read from the results stored
with each game: nothing is scored again. Definitions: docs/history.md."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", action="store_true", help="print the statistics as one JSON document"
    )
    select.add_arguments(parser)
    parser.add_argument(
        "--vs",
        nargs=2,
        metavar=("NAME", "OTHER"),
        help="head to head: the games both played, wins, who scored more",
    )
    add_db_argument(parser)


def _vs(pair):
    """--vs NAME OTHER as names are stored (stripped, NFC); the store compares them without case."""
    if not pair:
        return None

    return [typed(n) for n in pair]


def _fmt(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        return "%.2f" % v
    return str(v)


def _pct(v):
    return "-" if v is None else "%d%%" % round(v * 100)


def _table(title, header, rows):
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    lines = [term.paint(title, "1")]
    for r in [header] + rows:
        cells = [r[0] + " " * (widths[0] - len(r[0]))] + [
            r[i].rjust(widths[i]) for i in range(1, len(r))
        ]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


def _head(game, key):
    """A row label with its unit: "photos (pts)", "money ($)", "heat (heat tokens)", "lines"."""
    text, unit = game_words.label(game, key), game_words.unit(game, key)
    return text if unit == text else "%s (%s)" % (text, unit)


def _order(game, keys):
    known = []
    for k, _, _ in game_words.fields(game):
        if k not in known:
            known.append(k)
    return [k for k in known if k in keys] + sorted(k for k in keys if k not in known)


WIDTH = 80


def _by_player(title, names, rows):
    """A table with one column per player and one row per figure; more players than fit in 80
    columns go on in further blocks of the same rows."""
    label = max([len(r[0]) for r in rows] + [0]) + 4
    lines, start = [], 0
    while start < len(names) or not lines:
        width, end = label, start
        while end < len(names):
            cell = 2 + max([len(names[end])] + [len(r[1][end]) for r in rows])
            if end > start and width + cell > WIDTH:
                break
            width += cell
            end += 1
        block = _table(
            title if not lines else "",
            ["  "] + names[start:end],
            [["  " + r[0]] + r[1][start:end] for r in rows],
        )
        lines += block if not lines else [""] + block[1:]
        start = end
        if start >= len(names):
            break
    return lines


def game_lines(game: str, t: dict[str, Any]) -> list[str]:
    title = game_words.title(game)
    head = "%s: %d complete game%s" % (title, t["games"], "" if t["games"] == 1 else "s")
    if t["in_progress"]:
        head += " (%d in progress, not counted)" % t["in_progress"]
    players = t["players"]
    if not players:
        return [head]
    unit = game_words.score_unit(game)
    face = games.face(game)
    always = face.STATS_COLUMNS if face is not None else ()  # shown even when nobody has any
    header = ["player", "games", "wins", "win%", "avg", "best", "streak"]
    legend = ["avg, best: final score in %s" % unit, "streak: longest wins in a row/now"]
    rows = [
        [
            name,
            _fmt(p["games"]),
            _fmt(p["wins"]),
            _pct(p["win_rate"]),
            _fmt(p["average_score"]),
            _fmt(p["best_score"]),
            "%d/%d" % (p["longest_streak"], p["current_streak"]),
        ]
        for name, p in players.items()
    ]
    out, money = (face.OUT, face.MONEY) if face is not None else (None, None)
    extra = [
        (games.kept("OUT"), out[1], "%s: %s" % out[1:], _fmt) if out else None,
        ("average_token", "token", "token: average finishing token", _fmt),
        ("average_" + str(games.kept("MONEY")), money[1] + " $", "%s: average %s" % money[1:], _fmt)
        if money
        else None,
        (
            "average_print_ms",
            "print",
            "print: average Print! time",
            lambda v: "-" if v is None else stamp(v),
        ),
    ]
    for key, text, meaning, fmt in [e for e in extra if e is not None]:
        if any(p[key] is not None and p[key] is not False for p in players.values()) and (
            key in always or any(p[key] for p in players.values())
        ):
            header.append(text)
            legend.append(meaning)
            for row, p in zip(rows, players.values()):
                row.append(fmt(p[key]))
    import textwrap

    lines = _table(head, header, rows) + textwrap.wrap(
        "(%s)" % "; ".join(legend), 78, initial_indent="  ", subsequent_indent="   "
    )
    names = list(players)
    keys = set()
    for p in players.values():
        keys.update(p["per_round"])
    if keys:
        word = game_words.round_words(game)[0]
        rows = [
            (_head(game, k), [_fmt(p["per_round"].get(k)) for p in players.values()])
            for k in _order(game, keys)
        ]
        lines += [""] + _by_player("  average per %s" % word, names, rows)
    keys = set()
    for p in players.values():
        keys.update(p["per_game"])
    keys = [
        k for k in _order(game, keys) if "average_" + k not in always
    ]  # shown in a column already
    if keys:
        rows = [
            (_head(game, k), [_fmt(p["per_game"].get(k)) for p in players.values()]) for k in keys
        ]
        lines += [""] + _by_player("  average per game", names, rows)
    leaders = t.get("leaders") or {}
    if leaders:
        lines += ["", "  who is who"]
        for leader in leaders.values():
            lines.append(
                "    %s: %s (%s: %s)"
                % (
                    leader["title"],
                    ", ".join(leader["players"]),
                    leader["how"],
                    _fmt(leader["value"]),
                )
            )
    return lines


def overall_lines(overall: dict[str, Any]) -> list[str]:
    rows = [
        [
            name,
            _fmt(p["games"]),
            _fmt(p["wins"]),
            _pct(p["win_rate"]),
            _fmt(p["game_types"]),
            _fmt(p["average_token"]),
            "-" if p["average_print_ms"] is None else stamp(p["average_print_ms"]),
        ]
        for name, p in overall.items()
    ]
    return _table(
        "Overall, every game type",
        ["player", "games", "wins", "win%", "game types", "token", "print"],
        rows,
    )


def head_to_head_lines(h2h: dict[str, Any]) -> list[str]:
    a, b = h2h["players"]
    if not h2h["games"]:
        return ["%s against %s: no complete game together." % (a, b)]
    lines = []
    for game, g in h2h["games"].items():
        unit = game_words.score_unit(game)
        rows = [
            [a, _fmt(g["wins"][0]), _fmt(g["ahead"][0]), _fmt(g["average_score"][0])],
            [b, _fmt(g["wins"][1]), _fmt(g["ahead"][1]), _fmt(g["average_score"][1])],
        ]
        head = "%s against %s, %s: %d game%s together%s" % (
            a,
            b,
            game_words.title(game),
            g["games"],
            "" if g["games"] == 1 else "s",
            (", level %d" % g["level"]) if g["level"] else "",
        )
        if lines:
            lines.append("")
        lines += _table(head, ["player", "wins", "scored more", "avg score (%s)" % unit], rows)
    return lines


def stats_text(stats: dict[str, Any]) -> str:
    lines = []
    for game, t in stats["games"].items():
        if lines:
            lines.append("")
        lines += game_lines(game, t)
    if len(stats["games"]) > 1 and stats.get("overall"):
        lines += [""] + overall_lines(stats["overall"])
    if stats.get("head_to_head"):
        lines += [""] + head_to_head_lines(stats["head_to_head"])
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    selection = select.Selection.from_args(args)
    with open_store(args) as store:
        stats = history_stats.from_store(store, selection, vs=_vs(args.vs))
    for d in stats.get("damaged", []):
        print(
            "presstime stats: game #%d left out, it is damaged: %s (see `presstime history "
            "--damaged`)" % (d["id"], d["error"]),
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(stats, indent=2, ensure_ascii=False))
    elif not stats["games"]:
        if stats.get("damaged"):
            n = len(stats["damaged"])
            print(
                "No game to count: %s left out (`presstime history --damaged`)."
                % ("1 damaged game" if n == 1 else "%d damaged games" % n)
            )
        elif selection.is_everything():
            print("No games in the history yet.")
        else:
            print("No %s in the history." % selection.describe())
    else:
        sys.stdout.write(stats_text(stats))
    return 0
