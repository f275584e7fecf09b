"""presstime history: list the games kept in the local history, newest first, a page at a time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime import term
from presstime.errors import BadInput
from presstime.history import game_words, select
from presstime.history.store import add_db_argument, open_store

if TYPE_CHECKING:
    import argparse

    from presstime.history.select import Selection
    from presstime.history.store import Store

EXAMPLE = """examples:
  presstime history                          # the 20 games played last
  presstime history --all --json
  presstime history --player Ada --game heat --since 2026-01-01
  presstime history --damaged                # games that cannot be read or scored, and why
  presstime history --db ./club.sqlite3

Reads the results stored with each game (docs/history.md); nothing is scored again."""

PAGE = 20


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the list as one JSON document")
    parser.add_argument("--all", action="store_true", help="every game selected, not only a page")
    parser.add_argument(
        "--limit", type=int, default=PAGE, metavar="N", help="games per page (default %d)" % PAGE
    )
    parser.add_argument(
        "--page", type=int, default=1, metavar="P", help="which page, 1 the newest (default 1)"
    )
    parser.add_argument(
        "--damaged",
        action="store_true",
        help="only the games that cannot be read or scored, with the reason and the stored text",
    )
    select.add_arguments(parser)
    add_db_argument(parser)


_SELECT = (
    "SELECT g.id, g.added_at, g.updated_at, g.source, CASE r.game WHEN '' THEN g.game ELSE r.game "
    "END, r.mode, r.edition, r.played, r.place,"
    " r.players, r.rounds, r.state, r.status, r.winners, r.decided_by, r.error, r.play"
    " FROM results r JOIN games g ON g.id = r.game_id"
)


def _json_list(text):
    import json

    try:
        value = json.loads(text or "[]")
    except ValueError:
        return []
    return value if isinstance(value, list) else []


def _row(row):
    (
        game_id,
        added_at,
        updated_at,
        source,
        game,
        mode,
        edition,
        played,
        place,
        players,
        rounds,
        state,
        status,
        winners,
        decided_by,
        error,
        play,
    ) = row
    out = {
        "id": game_id,
        "game": game,
        "mode": mode,
        "edition": edition,
        "players": _json_list(players),
        "rounds": rounds,
        "source": source,
        "added_at": added_at,
        "updated_at": updated_at,
        "played": played,
        "place": place,
        "state": state,
        "complete": True if state == "complete" else (False if state == "in progress" else None),
        "winners": _json_list(winners),
        "decided_by": decided_by or None,
        "status": status,
        "error": error or None,
    }
    out["title"] = game_words.full_title(game, mode, edition) if game else "?"
    if state == "damaged":
        out["title"] += " (damaged)"
    out["play"] = play
    return out


def query(
    store: Store,
    selection: Selection | None = None,
    ids: list[int] | None = None,
    limit: int | None = None,
    offset: int = 0,
    damaged_only: bool = False,
) -> tuple[list[dict[str, Any]], int]:
    """(games, total selected): the stored games' summaries, newest played first."""
    where, params = selection.sql("r") if selection is not None else ("1", [])
    if ids is not None:
        where += " AND r.game_id IN (%s)" % ",".join("?" * len(ids))
        params = params + list(ids)
    if damaged_only:
        where += " AND r.state = 'damaged'"
    total = store.conn.execute("SELECT COUNT(*) FROM results r WHERE " + where, params).fetchone()[
        0
    ]
    sql = _SELECT + " WHERE " + where + " ORDER BY r.played DESC, r.game_id DESC"
    if limit is not None:
        sql += " LIMIT ? OFFSET ?"
        params = params + [limit, offset]
    return [_row(r) for r in store.conn.execute(sql, params)], total


def rows(store: Store, ids: list[int] | None = None) -> list[dict[str, Any]]:
    """The summaries of `ids` (or all), in the order given (oldest first for all)."""
    found, _ = query(store, ids=ids)
    if ids is None:
        return sorted(found, key=lambda g: g["id"])
    by_id = dict((g["id"], g) for g in found)
    return [by_id[i] for i in ids if i in by_id]


def table_lines(games: list[dict[str, Any]], width: int | None = None) -> list[str]:
    """The lines `presstime history` prints: a header, then one line per game (coloured on a
    terminal). With a `width` (a terminal's), a long player list and a long result go on under
    themselves, between names and words, so that no line is wider and every player is shown."""
    import textwrap

    table = [("#", "played", "game", "players", "play", "result")]
    for s in games:
        table.append(
            (
                str(s["id"]),
                (s["played"] or s["added_at"])[:10],
                s["title"],
                ", ".join(s["players"]),
                s["play"],
                s["status"],
            )
        )
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]) - 1)]
    if width:
        fixed = sum(widths) - widths[3] + 2 * len(widths)
        longest = max([len(n) + 1 for s in games for n in s["players"]] or [0])
        widths[3] = max(len("players"), longest, min(widths[3], width - fixed - 24))
    lines = []
    for n, r in enumerate(table):
        players = [r[3]]
        if len(r[3]) > widths[3]:  # one name after the other, a line each time the column is full
            players = textwrap.wrap(r[3], widths[3], break_long_words=False, break_on_hyphens=False)
        cells = [r[i] for i in range(len(widths))]
        blank = [""] * len(widths)
        result = [r[-1]]
        lead_width = sum(widths) + 2 * len(widths)
        if width and lead_width + len(r[-1]) > width:
            result = textwrap.wrap(r[-1], max(20, width - lead_width)) or [""]
        if n == 0:
            lines.append(term.paint((_cells(cells, widths) + r[-1]).rstrip(), "1"))
            continue
        code = (
            "31"
            if games[n - 1]["state"] == "damaged"
            else "32"
            if games[n - 1]["winners"]
            else None
        )
        for k in range(max(len(players), len(result))):
            row = cells if k == 0 else list(blank)
            row[3] = players[k] if k < len(players) else ""
            part = result[k] if k < len(result) else ""
            shown = term.paint(part, code) if code and part else part
            lines.append((_cells(row, widths) + shown).rstrip())
    return lines


def _cells(cells, widths):
    """A row's cells padded to their column widths (the id right-aligned), and the gap after."""
    out = [
        cells[i].rjust(widths[i]) if i == 0 else cells[i] + " " * (widths[i] - len(cells[i]))
        for i in range(len(widths))
    ]
    return "  ".join(out) + "  "


def damaged_lines(store: Store, games: list[dict[str, Any]]) -> list[str]:
    """For --damaged: each game, the reason, and the start of its stored text (control characters
    shown as escapes), then how to remove them."""
    lines = []
    for g in games:
        raw = store.conn.execute(
            "SELECT CAST(record AS BLOB) FROM games WHERE id = ?", (g["id"],)
        ).fetchone()[0]
        text = bytes(raw or b"")[:160].decode("utf-8", "backslashreplace")
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
        lines += [
            "#%d  added %s  source %s" % (g["id"], g["added_at"][:19], g["source"] or "-"),
            "    %s" % g["error"],
            "    stored: %s%s" % (text, "…" if len(raw or b"") > 160 else ""),
        ]
    if games:
        lines.append(
            "Remove with `presstime delete %s` (`presstime export` skips them meanwhile)."
            % " ".join(str(g["id"]) for g in games)
        )
    return lines


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    if args.limit < 1 or args.page < 1:
        raise BadInput("--limit and --page are whole numbers from 1")
    selection = select.Selection.from_args(args)
    limit = None if args.all else args.limit
    with open_store(args) as store:
        found, total = query(
            store,
            selection,
            limit=limit,
            offset=(args.page - 1) * args.limit,
            damaged_only=args.damaged,
        )
        damaged = store.conn.execute(
            "SELECT COUNT(*) FROM results WHERE state = 'damaged'"
        ).fetchone()[0]
        extra = damaged_lines(store, found) if args.damaged and not args.json else None
    if args.json:
        print(json.dumps(found, indent=2, ensure_ascii=False))
    elif extra is not None:
        print("\n".join(extra) if extra else "No damaged game in the history.")
    elif not found:
        if total:
            print(
                "Page %d is past the end: %d %s selected."
                % (args.page, total, selection.describe())
            )
        elif selection.is_everything():
            print(
                "The history is empty: add games with `presstime import FILE`, `presstime enter` "
                "or `presstime sync`."
            )
        else:
            print("No %s in the history." % selection.describe())
    else:
        width = None
        if sys.stdout.isatty():
            import shutil

            width = shutil.get_terminal_size().columns
        for line in table_lines(found, width):
            print(line)
    if len(found) < total and not args.damaged:
        first = (args.page - 1) * args.limit + 1
        print(
            "%d–%d of %d %s, newest first: --page %d for more, --all for every one"
            % (first, first + len(found) - 1, total, selection.describe(), args.page + 1),
            file=sys.stderr if args.json else sys.stdout,
        )
    if damaged and not args.damaged:
        print(
            "presstime history: %d damaged game%s (cannot be read or scored): `presstime history "
            "--damaged`" % (damaged, "" if damaged == 1 else "s"),
            file=sys.stderr,
        )
    return 0
