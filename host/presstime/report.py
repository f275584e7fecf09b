"""Readable standings from a core result (`presstime score`, `show`, `play`)."""

_ROWS = (
    ("articles", "articles"),
    ("photos", "photos"),
    ("centerpiece", "centerpiece"),
    ("white_space", "white space"),
    ("mood", "mood"),
    ("unplaced", "unplaced tiles"),
    ("most_tiles_ads", "most tiles $"),
    ("score", "round score"),
    ("ad_revenue", "ad revenue $"),
    ("token", "finishing token"),
)
_LABEL = 18


def _table(header, rows, width):
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


def _winner_line(result):
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
    from .game_words import decided_by

    decider = decided_by(result)
    text = ("Winner: %s" if len(winners) == 1 else "Shared win: %s") % ", ".join(winners)
    return text + (" (%s)" % decider if decider else "")


# a Breaking News card's scoring effect in the words a player reads (its value, if any, filled in)
NEWS_WORDS = {
    "mood-doubled": "the mood penalty is doubled",
    "white-space-best": "the best white-space bonus is %d",
    "most-tiles-ads": "the most tiles on the front page gain $%d",
}


def news_words(card):
    words = NEWS_WORDS.get(card.get("effect"), str(card.get("effect")).replace("-", " "))
    return (
        words % card["value"]
        if "%d" in words and isinstance(card.get("value"), int)
        else words.replace(" %d", "")
    )


def _news_line(record, i):
    """Round i's Breaking News card(s) as a line, or None (no record, or no card with an effect)."""
    rounds = record.get("rounds") if isinstance(record, dict) else None
    rnd = (
        rounds[i]
        if isinstance(rounds, list) and i < len(rounds) and isinstance(rounds[i], dict)
        else {}
    )
    cards = [c for c in rnd.get("breaking_news") or [] if isinstance(c, dict)]
    if not cards:
        return None
    return "  Breaking News: " + "; ".join(news_words(c) for c in cards)


def fit_to_print_text(result, record=None):
    players = result["players"]
    names = [p["name"] for p in players]
    width = max([len(n) for n in names] + [5]) + 2
    title = "Fit to Print - %s mode, %s edition" % (result["mode"], result["edition"])
    lines = [title, ""]
    for i in range(result["rounds_played"]):
        rounds = [p["rounds"][i] for p in players]
        day = rounds[0].get("day") or "puzzle"
        rows = []
        for key, label in _ROWS:
            cells = [r.get(key) for r in rounds]
            if key == "most_tiles_ads" and not any(cells):
                continue
            if key == "token" and all(c is None for c in cells):
                continue
            rows.append((label, cells))
        table = _table(["Round %d: %s" % (i + 1, day.capitalize())] + names, rows, width)
        news = _news_line(record, i)
        lines += table[:1] + ([news] if news else []) + table[1:] + [""]
    rows = [("rounds", [sum(r["score"] for r in p["rounds"]) for p in players])]
    if any(p["adjustments"] for p in players):
        rows.append(
            ("end adjustments", [sum(a["points"] for a in p["adjustments"]) for p in players])
        )
    rows.append(("TOTAL", [p["total"] for p in players]))
    rows.append(("ad revenue $", [p["ad_revenue"] for p in players]))
    if any(p["out_of_business"] for p in players):
        rows.append(("out of business", [p["out_of_business"] for p in players]))
    if result.get("incomplete"):
        rows.append(("incomplete", [p.get("incomplete") for p in players]))
    lines += _table(["Standings"] + names, rows, width)
    for p in players:
        for a in p["adjustments"]:
            lines.append(
                "  %s: %+d points (%s)" % (p["name"], a["points"], a["reason"].replace("-", " "))
            )
    lines += ["", _winner_line(result)]
    return "\n".join(lines) + "\n"


def generic_text(result):
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
    from .game_words import label, unit

    game = result.get("game")

    def head(key, text):  # the game's own word and unit: "money ($)", "heat (heat tokens)"
        u = unit(game, key)
        return text if u in ("pts", text) or key.startswith("round ") else "%s (%s)" % (text, u)

    rows = [(head(c, label(game, c)), [p.get(c) for p in players]) for c in columns if c != "total"]
    rows.append((head("total", "TOTAL"), [p.get("total") for p in players]))
    lines += _table(["Standings"] + names, rows, width)
    lines += ["", _winner_line(result)]
    return "\n".join(lines) + "\n"


def standings_text(result, record=None):
    """The standings as text; with the game's `record`, each round's Breaking News card too."""
    if result.get("game", "fit-to-print") == "fit-to-print":
        return fit_to_print_text(result, record)
    return generic_text(result)


def table_rounds(record):
    """Each round's `table` field (what the board measured) or None; None when no round has one."""
    rounds = record.get("rounds") if isinstance(record, dict) else None
    if not isinstance(rounds, list):
        return None
    blocks = [r.get("table") if isinstance(r, dict) else None for r in rounds]
    return blocks if any(blocks) else None


def table_text(record):
    """Lines on the board's measurements of each round ("" when the record has none): round time
    of each press in token order, layout times in two-step mode, ties and how the round ended."""
    from .mirror import stamp

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


def with_table(result, record):
    """The result for --json, with `table`: each round's board measurements (or null) when the
    record has any."""
    blocks = table_rounds(record)
    if blocks:
        result = dict(result)
        result["table"] = blocks
    return result
