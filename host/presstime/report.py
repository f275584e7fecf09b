"""Readable standings from a core result (`presstime score`, `show`, `play`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime import games
from presstime.history.game_words import decided_by
from presstime.tableside.status_text import stamp

if TYPE_CHECKING:
    from presstime.hints import Json, Record, Result

_LABEL = 18


def table(header: list[str], rows: list[tuple[str, list[Any]]], width: int) -> list[str]:
    first = max([_LABEL] + [len(label) + 3 for label, _ in rows])
    lines = [header[0].ljust(first) + "".join(h.rjust(width) for h in header[1:])]
    for label, cells in rows:
        lines.append(("  " + label).ljust(first) + "".join(_cell(c).rjust(width) for c in cells))
    return lines


def _cell(v):
    if v is None:
        return "-"
    if v is True:
        return "yes"
    if v is False:
        return ""
    return str(v)


def winner_line(result: Result) -> str:
    if result.get("pending"):
        return result["pending"]
    if not result.get("complete", True):
        return "No winner yet: %d of %d rounds played." % (
            result.get("rounds_played", 0),
            result.get("rounds_in_game", 0),
        )
    winners = result.get("winners") or []
    if not winners:
        return "No winner." + (" " + result["no_winner"] if result.get("no_winner") else "")

    decider = decided_by(result)
    text = ("Winner: %s" if len(winners) == 1 else "Shared win: %s") % ", ".join(winners)
    return text + (" (%s)" % decider if decider else "")


def generic_text(result: Result) -> str:
    """Any other game: name, total and the result's own `columns`, then winners and set-up facts."""
    players = result["players"]
    columns = list(result.get("columns") or [])
    names = [p["name"] for p in players]
    width = max([len(n) for n in names] + [6]) + 2
    lines = [result.get("title") or result.get("game", "game"), ""]
    for fact in result.get("setup") or []:
        lines.append("  " + fact)
    if result.get("setup"):
        lines.append("")
    from presstime.history.game_words import label, unit

    game = result.get("game")

    def head(key, text):  # the game's own word and unit: "money ($)", "heat (heat tokens)"
        u = unit(game, key)
        return text if u in ("pts", text) or key.startswith("round ") else "%s (%s)" % (text, u)

    rows = [(head(c, label(game, c)), [p.get(c) for p in players]) for c in columns if c != "total"]
    rows.append((head("total", "TOTAL"), [p.get("total") for p in players]))
    lines += table(["Standings"] + names, rows, width)
    lines += ["", winner_line(result)]
    return "\n".join(lines) + "\n"


def standings_text(result: Result, record: Record | None = None) -> str:
    """The standings as text; with the game's `record`, each round's Breaking News card too."""
    return games.face_of(games.of(result)).standings_text(result, record)


def table_rounds(record: Json) -> list[Any] | None:
    """Each round's `table` field (what the board measured) or None; None when no round has one."""
    rounds = record.get("rounds") if isinstance(record, dict) else None
    if not isinstance(rounds, list):
        return None
    blocks = [r.get("table") if isinstance(r, dict) else None for r in rounds]
    return blocks if any(blocks) else None


def table_text(record: Record) -> str:
    """Lines on the board's measurements of each round ("" when the record has none): round time
    of each press in token order, layout times in two-step mode, ties and how the round ended."""
    blocks = table_rounds(record)
    if not blocks:
        return ""
    lines = ["At the table (round time of each Print! press):"]
    for i, (rnd, block) in enumerate(zip(record["rounds"], blocks)):
        if not block:
            continue
        prints = block.get("print_ms") or {}
        layouts = block.get("layout_ms") or {}
        order = [n for n in (rnd.get("finish") or []) if n in prints]
        order += sorted((n for n in prints if n not in order), key=lambda n: prints[n])
        parts = []
        for n in order:
            part = "%s %s" % (n, stamp(prints[n]))
            if n in layouts:
                part += " (reported %s, laid out %s)" % (
                    stamp(layouts[n]),
                    stamp(max(0, prints[n] - layouts[n])),
                )
            parts.append(part)
        for n in sorted((n for n in layouts if n not in prints), key=lambda n: layouts[n]):
            parts.append("%s reported %s, no Print!" % (n, stamp(layouts[n])))
        head = "  round %d%s, %s after %s: " % (
            i + 1,
            (" (%s)" % rnd["day"].capitalize()) if isinstance(rnd.get("day"), str) else "",
            block.get("end", "?"),
            stamp(block.get("elapsed_ms") or 0),
        )
        line = head + (", ".join(parts) if parts else "no presses")
        if block.get("tied"):
            line += "; tie: " + ", ".join(block["tied"])
        lines.append(line)
    return "\n".join(lines) + "\n"


def with_table(result: Result, record: Record) -> Result:
    """The result for --json, with `table`: each round's board measurements (or null) when the
    record has any."""
    blocks = table_rounds(record)
    if blocks:
        result = dict(result)
        result["table"] = blocks
    return result
