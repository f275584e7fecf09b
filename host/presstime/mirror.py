"""Text views of the board's status (what `presstime watch` and `presstime play` show).

Pure formatting of the status dict the board sends (core/table.py Table.status): no rule is
decided here, and what a game is called (title, round and step words, set-up facts) is its
face's (core/games.py). States are told apart by words and symbols, not by colour alone.
"""

from . import term
from .core import games

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


REVEAL_FLASH_MS = 1500   # how long the mirror says "REVEAL!" after a reveal


def _names(st):
    return [p.get("name", "?") for p in st.get("players", [])]


def _face(st):
    """The face of the game on the board, or None (no game set up, or one this side lacks)."""
    game = st.get("game")
    return games.module(game) if isinstance(game, str) else None


def _title(st):
    """The game's title, except for the default game (Fit to Print) whose days say enough."""
    face = _face(st)
    return face.TITLE if face is not None and face.GAME != games.GAMES[0] else None


def _reveal_parts(st):
    """Ready-reveal (Heat, Mini FITS): the round, the stage or card, how many are ready."""
    face = _face(st)
    parts = [_title(st) or st.get("game") or "?"]
    if st.get("round") and st.get("rounds"):
        parts.append("%s %s/%s" % (face.ROUND_WORD if face else "round", st["round"], st["rounds"]))
    steps = st.get("steps") or 0
    word = (face and face.STEP_WORD) or "step"
    phase = st.get("phase", "?")
    if phase == "ready":
        if face and face.STEPS_LEFT:
            parts.append("%s %s/%s (%s left)" % (word, st.get("step"), steps, st.get("steps_left")))
        else:
            parts.append("%s %s/%s" % (word, st.get("step"), steps))
        players = st.get("players", [])
        parts.append("ready %d/%d" % (len([p for p in players if p.get("state") == "ready"]), len(players)))
    elif phase == "summary":
        parts.append("all %d %ss revealed" % (steps, word))
    else:
        parts.append(phase)
    r = st.get("reveal_ms")
    if r is not None and 0 <= r < REVEAL_FLASH_MS:
        parts.append("REVEAL!")
    return parts


def _turn_parts(st):
    """Turns (Myth Fits) and turn-based: whose turn, its time and limit, a win."""
    parts = [_title(st) or str(st.get("day") or "turn-based").capitalize()]
    phase = st.get("phase", "?")
    names = _names(st)
    parts.append("ready: a press starts" if phase == "ready" else phase)
    if phase in ("running", "paused"):
        parts.append(clock(st.get("elapsed_ms")) + " elapsed")
        turn = st.get("turn")
        if turn is not None and 0 <= turn < len(names):
            text = "turn: %s %s" % (names[turn], clock(st.get("turn_ms")))
            if st.get("turn_limit_ms"):
                text += " of %s" % clock(st["turn_limit_ms"])
            if st.get("alert_ms"):
                text += " TIME!"
            parts.append(text)
    w = st.get("winner")
    if isinstance(w, int) and 0 <= w < len(names):
        parts.append("%s WINS with %d photo tokens" % (names[w], st["players"][w].get("photos", 0)))
    return parts


def headline(st):
    phase = st.get("phase", "?")
    if st.get("mode") == "ready-reveal":
        return " · ".join(_reveal_parts(st))
    if st.get("mode") in ("turns", "turn-based"):
        return " · ".join(_turn_parts(st))
    parts = []
    if _title(st):
        parts.append(_title(st))
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


def _is_turn(st, i):
    return st.get("mode") in ("turns", "turn-based") and st.get("phase") in ("running", "paused") \
        and st.get("turn") == i


def player_cell(p, stream=None, st=None, i=None):
    state = p.get("state", "?")
    text = "%s %s" % (_SYMBOL.get(state, "?"), p.get("name", "?"))
    if st is not None and _is_turn(st, i):
        text = ">" + text
    if p.get("token"):
        text += " [%d]" % p["token"]
    if p.get("tied"):
        text += " tie"
    if st is not None and st.get("mode") == "turns":
        text += " photos %d/%s" % (p.get("photos", 0), st.get("target", "?"))
    return term.paint(text, _COLOUR.get(state, "0"), stream) if state in _COLOUR else text


def one_line(st, stream=None):
    cells = [player_cell(p, stream, st, i) for i, p in enumerate(st.get("players", []))]
    if not cells:
        return "%s | no game set up yet (presstime play configures one)" % headline(st)
    return "%s | %s" % (headline(st), "  ".join(cells))


def setup_lines(st):
    """The set-up facts the game's face gives for the game on the board (Myth Fits: grid,
    photographers, the photo-token target), or []."""
    face = _face(st)
    return face.setup_lines(len(st.get("players", []))) if face is not None else []


def lines(st, stream=None):
    """The full mirror: headline, set-up facts, then one line per player."""
    out = [headline(st)]
    if not st.get("players"):
        out.append("  no game set up yet (presstime play configures one)")
    out += ["  " + f for f in setup_lines(st)]
    for i, p in enumerate(st.get("players", [])):
        extra = ""
        if p.get("print_ms") is not None:
            extra = "  printed at %s" % stamp(p["print_ms"])
        if st.get("mode") == "turns":
            extra += "  photo tokens %d" % p.get("photos", 0)
        if _is_turn(st, i):
            extra += "  <- turn"
        state = p.get("state", "?")
        if st.get("mode") in ("turns", "turn-based") and state == "reporting":
            state = "playing"
        out.append("  %d %-12s %-10s%s%s" % (i + 1, p.get("name", "?"), state,
                                            (" token %d" % p["token"]) if p.get("token") else "", extra))
    order = st.get("pick_order") or []
    names = _names(st)
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
