"""Readable standings from a core result (`presstime score`, `show`, `play`)."""

_ROWS = (("articles", "articles"), ("photos", "photos"), ("centerpiece", "centerpiece"),
         ("white_space", "white space"), ("mood", "mood"), ("unplaced", "unplaced tiles"),
         ("most_tiles_ads", "most tiles $"), ("score", "round score"), ("ad_revenue", "ad revenue $"),
         ("token", "finishing token"))
_LABEL = 18


def _table(header, rows, width):
    lines = [header[0].ljust(_LABEL) + "".join(h.rjust(width) for h in header[1:])]
    for label, cells in rows:
        lines.append(("  " + label).ljust(_LABEL) + "".join(_cell(c).rjust(width) for c in cells))
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
        return "No winner yet: %d of %d rounds played." % (result.get("rounds_played", 0),
                                                           result.get("rounds_in_game", 0))
    winners = result.get("winners") or []
    if not winners:
        return "No winner." + (" " + result["no_winner"] if result.get("no_winner") else "")
    if len(winners) == 1:
        return "Winner: %s" % winners[0]
    return "Shared win: %s" % ", ".join(winners)


def fit_to_print_text(result):
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
        lines += _table(["Round %d: %s" % (i + 1, day.capitalize())] + names, rows, width) + [""]
    rows = [("rounds", [sum(r["score"] for r in p["rounds"]) for p in players])]
    if any(p["adjustments"] for p in players):
        rows.append(("end adjustments", [sum(a["points"] for a in p["adjustments"]) for p in players]))
    rows.append(("TOTAL", [p["total"] for p in players]))
    rows.append(("ad revenue $", [p["ad_revenue"] for p in players]))
    if any(p["out_of_business"] for p in players):
        rows.append(("out of business", [p["out_of_business"] for p in players]))
    if result.get("incomplete"):
        rows.append(("incomplete", [p.get("incomplete") for p in players]))
    lines += _table(["Standings"] + names, rows, width)
    for p in players:
        for a in p["adjustments"]:
            lines.append("  %s: %+d points (%s)" % (p["name"], a["points"], a["reason"].replace("-", " ")))
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
    rows = [(c.replace("_", " "), [p.get(c) for p in players]) for c in columns if c != "total"]
    rows.append(("TOTAL", [p.get("total") for p in players]))
    lines += _table(["Standings"] + names, rows, width)
    lines += ["", _winner_line(result)]
    return "\n".join(lines) + "\n"


def standings_text(result):
    if result.get("game", "fit-to-print") == "fit-to-print":
        return fit_to_print_text(result)
    return generic_text(result)
