"""Text views of the board's status (what `presstime watch` and `presstime play` show).

Pure formatting of the status dict the board sends (core/table.py Table.status): no rule is
decided here. States are told apart by words and symbols, not by colour alone.
"""

from . import term

_SYMBOL = {"waiting": ".", "ready": "r", "reporting": "~", "layout": "L", "printed": "#",
           "late": "!", "forced": "x"}
_COLOUR = {"ready": "1;33", "reporting": "36", "layout": "35", "printed": "1;32", "late": "1;33",
           "forced": "31"}


def clock(ms):
    if ms is None:
        return "--:--"
    ms = max(0, int(ms))
    s = (ms + 999) // 1000
    return "%d:%02d" % (s // 60, s % 60)


def stamp(ms):
    """Round time of a press: m:ss.t (tenths, rounded down)."""
    ms = max(0, int(ms))
    return "%d:%02d.%d" % (ms // 60000, (ms // 1000) % 60, (ms // 100) % 10)


def headline(st):
    phase = st.get("phase", "?")
    parts = []
    if st.get("day"):
        parts.append(str(st["day"]).capitalize())
    if st.get("round") and st.get("rounds"):
        parts.append("round %s/%s" % (st["round"], st["rounds"]))
    parts.append(phase)
    if phase == "countdown":
        parts.append("%s..." % st.get("countdown", ""))
    elif phase in ("running", "paused", "grace"):
        if st.get("duration_ms"):
            parts.append(clock(st.get("remaining_ms")) + " left")
        else:
            parts.append(clock(st.get("elapsed_ms")) + " elapsed")
    return " · ".join(parts)


def player_cell(p, stream=None):
    state = p.get("state", "?")
    text = "%s %s" % (_SYMBOL.get(state, "?"), p.get("name", "?"))
    if p.get("token"):
        text += " [%d]" % p["token"]
    if p.get("tied"):
        text += " tie"
    return term.paint(text, _COLOUR.get(state, "0"), stream) if state in _COLOUR else text


def one_line(st, stream=None):
    cells = [player_cell(p, stream) for p in st.get("players", [])]
    if not cells:
        return "%s | no game set up yet (presstime play configures one)" % headline(st)
    return "%s | %s" % (headline(st), "  ".join(cells))


def lines(st, stream=None):
    """The full mirror: headline, then one line per player."""
    out = [headline(st)]
    if not st.get("players"):
        out.append("  no game set up yet (presstime play configures one)")
    for i, p in enumerate(st.get("players", [])):
        extra = ""
        if p.get("print_ms") is not None:
            extra = "  printed at %s" % stamp(p["print_ms"])
        out.append("  %d %-12s %-10s%s%s" % (i + 1, p.get("name", "?"), p.get("state", "?"),
                                            (" token %d" % p["token"]) if p.get("token") else "", extra))
    order = st.get("pick_order") or []
    names = [p.get("name", "?") for p in st.get("players", [])]
    if st.get("phase") == "summary" and order:
        out.append("  centerpiece pick order: " + ", ".join(names[i] for i in order if 0 <= i < len(names)))
    return out


def finish_order(st):
    """Names by finishing token (token 1 first), or None when the mode uses no tokens."""
    players = st.get("players", [])
    with_token = sorted((p["token"], p["name"]) for p in players if p.get("token"))
    if not with_token:
        return None
    return [name for _, name in with_token]
