"""Text views of the board's status (what `presstime watch` and `presstime play` show).

Pure formatting of the status dict the board sends (core/table.py Table.status): no rule is
decided here, and what a game is called (title, round and step words, set-up facts) is its
face's (core/games.py). States are told apart by words and symbols, not by colour alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

from presstime import term
from presstime.core import games
from presstime.core.table import UNDO_MS

if TYPE_CHECKING:
    from presstime.hints import Status

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType

_SYMBOL = {
    "waiting": ".",
    "ready": "r",
    "reporting": "~",
    "layout": "L",
    "printed": "#",
    "late": "!",
    "forced": "x",
}
_COLOUR = {
    "ready": "1;33",
    "reporting": "36",
    "layout": "35",
    "printed": "1;32",
    "late": "1;33",
    "forced": "31",
}


def clock(ms: int | None) -> str:
    if ms is None:
        return "--:--"
    ms = max(0, int(ms))
    s = (ms + 999) // 1000
    return "%d:%02d" % (s // 60, s % 60)


def stamp(ms: int) -> str:
    """Round time of a press: m:ss.t (tenths, rounded down)."""
    ms = max(0, int(ms))
    return "%d:%02d.%d" % (ms // 60000, (ms // 1000) % 60, (ms // 100) % 10)


REVEAL_FLASH_MS = 1500  # how long the mirror says "REVEAL!" after a reveal


def _names(st):
    return [p.get("name", "?") for p in st.get("players", [])]


def game_face(st: Status) -> ModuleType | None:
    """The face of the game on the board, or None (no game set up, or one this side lacks)."""
    game = st.get("game")
    return games.module(game) if isinstance(game, str) else None


def _title(st):
    """The game's title, except for the default game (Fit to Print) whose days say enough."""
    face = game_face(st)
    return face.TITLE if face is not None and face.GAME != games.GAMES[0] else None


def title(st: Status) -> str | None:
    """The game's title for a headline: "Fit to Print", "Heat", ... (None before a set-up)."""
    face = game_face(st)
    return face.TITLE if face is not None else None


def cards_drawn(st: Status) -> tuple[int, int]:
    """Mini FITS: (cards drawn in this round, cards left in the deck); they add up to the deck."""
    steps = st.get("steps") or 0
    left = st.get("steps_left")
    left = steps if not isinstance(left, int) else max(0, min(steps, left))
    return steps - left, left


def card_words(st: Status, word: str = "card") -> str:
    """Mini FITS: the cards turned and left ("card 5/13 on the table (8 left)")."""
    drawn, left = cards_drawn(st)
    if drawn == 0:
        return "no %s drawn yet (%d in the deck)" % (word, left)
    return "%s %d/%d on the table (%d left)" % (word, drawn, drawn + left, left)


def fresh_reveal(st: Status) -> bool:
    """A reveal made in this round, under REVEAL_FLASH_MS ago (the board keeps the time of the
    last reveal across rounds: a new round has made none yet)."""
    r = st.get("reveal_ms")
    if r is None or not 0 <= r < REVEAL_FLASH_MS:
        return False
    if st.get("phase") == "summary":
        return True
    steps = st.get("steps") or 0
    return isinstance(st.get("steps_left"), int) and st["steps_left"] < steps


def _reveal_parts(st):
    """Ready-reveal (Heat, Mini FITS): the round, the stage or card, how many are ready."""
    face = game_face(st)
    parts = [_title(st) or st.get("game") or "?"]
    if st.get("round") and st.get("rounds"):
        parts.append("%s %s/%s" % (face.ROUND_WORD if face else "round", st["round"], st["rounds"]))
    steps = st.get("steps") or 0
    word = (face and face.STEP_WORD) or "step"
    phase = st.get("phase", "?")
    if phase == "ready":
        if face and face.STEPS_LEFT:
            parts.append(card_words(st, word))
        else:
            parts.append("%s %s/%s" % (word, st.get("step"), steps))
        players = st.get("players", [])
        parts.append(
            "ready %d/%d" % (len([p for p in players if p.get("state") == "ready"]), len(players))
        )
    elif phase == "summary":
        parts.append("all %d %ss revealed" % (steps, word))
    else:
        parts.append(phase)
    if fresh_reveal(st):
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


def headline(st: Status) -> str:
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
    return (
        st.get("mode") in ("turns", "turn-based")
        and st.get("phase") in ("running", "paused")
        and st.get("turn") == i
    )


def player_cell(
    p: dict[str, Any], stream: TextIO | None = None, st: Status | None = None, i: int | None = None
) -> str:
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


def one_line(st: Status, stream: TextIO | None = None) -> str:
    cells = [player_cell(p, stream, st, i) for i, p in enumerate(st.get("players", []))]
    if not cells:
        return "%s | no game set up yet (presstime play configures one)" % headline(st)
    return "%s | %s" % (headline(st), "  ".join(cells))


def setup_lines(st: Status) -> list[str]:
    """The set-up facts the game's face gives for the game on the board (Myth Fits: grid,
    photographers, the photo-token target), and the first player the board drew (turn-based
    Fit to Print), or []."""
    face = game_face(st)
    if face is None:
        return []
    out = [_first_player(line, st) for line in face.setup_lines(len(st.get("players", [])))]
    players = st.get("players", [])
    first = st.get("first")
    if isinstance(first, int) and 0 <= first < len(players):
        # turn-based Fit to Print: the rules draw who starts, the board did (core/config.py)
        out.append(
            "first player: %s (seat %d), drawn by the board"
            % (players[first].get("name", "?"), first + 1)
        )
    return out


def _first_player(line, st):
    """The rulebook's "first player: blue" for the players at this table: the board starts a
    round's turns at seat (round - 1) mod players (core/table.py: seat 1 in the first round), so
    that player takes the blue creatures and goes first (docs/rules.md). Not whoever's turn it
    is now: while the round runs the turn moves on, the first player does not."""
    if line != "first player: blue":
        return line
    players = st.get("players", [])
    rnd = st.get("round") if isinstance(st.get("round"), int) else 1
    seat = (rnd - 1) % len(players) if players else 0
    if not 0 <= seat < len(players):
        return line
    name = players[seat].get("name", "?")
    return "first player: %s (seat %d) takes blue (blue goes first)" % (name, seat + 1)


def lines(st: Status, stream: TextIO | None = None) -> list[str]:
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
        out.append(
            "  %d %-12s %-10s%s%s"
            % (
                i + 1,
                p.get("name", "?"),
                state,
                (" token %d" % p["token"]) if p.get("token") else "",
                extra,
            )
        )
    order = st.get("pick_order") or []
    names = _names(st)
    if st.get("phase") == "summary" and order:
        out.append(
            "  centerpiece pick order: " + ", ".join(names[i] for i in order if 0 <= i < len(names))
        )
    return out


def finish_order(st: Status) -> list[str] | None:
    """Names by finishing token (token 1 first), or None when the mode uses no tokens."""
    players = st.get("players", [])
    with_token = sorted((p["token"], p["name"]) for p in players if p.get("token"))
    if not with_token:
        return None
    return [name for _, name in with_token]


def why_no_undo(st: Status) -> str:
    """Why the board would not undo now (status `undo` is false), in words."""
    phase = st.get("phase")
    if phase not in ("running", "grace", "summary", "paused"):
        return "nothing to undo (no round is running)"
    times = [
        p.get(k)
        for p in st.get("players", [])
        for k in ("print_ms", "layout_ms")
        if p.get(k) is not None
    ]
    if st.get("mode") in ("turns", "turn-based") or not times:
        return (
            "nothing to undo: only the last press under %d s old can be undone, and not after a"
            " pause, resume, abort or next round" % (UNDO_MS // 1000)
        )
    age = (st.get("elapsed_ms") or 0) - max(times)
    if age > UNDO_MS:
        return "the last press is %d s old (undo takes one under %d s)" % (
            age // 1000,
            UNDO_MS // 1000,
        )
    return "a pause, resume or abort since the last press made it final"


def last_presser(st: Status) -> str | None:
    """The name of the player whose press came last in this round (what undo takes back), or
    None."""
    best, who = None, None
    for p in st.get("players", []):
        for k in ("print_ms", "layout_ms"):
            if p.get(k) is not None and (best is None or p[k] >= best):
                best, who = p[k], p.get("name")
    return who


def why_press_does_nothing(st: Status, seat: int) -> str | None:
    """Why a press of `seat` (0-based) changes nothing now, in words; None when it counts."""
    players = st.get("players", [])
    if not 0 <= seat < len(players):
        return "there is no seat %d: this game has %d players (seats 1-%d)" % (
            seat + 1,
            len(players),
            len(players),
        )
    p = players[seat]
    name, phase = p.get("name", "?"), st.get("phase")
    if phase == "countdown":
        return "%s: the 3-2-1 count is running; presses count from the go" % name
    if phase == "paused":
        return "%s: the round is paused; p resumes it" % name
    if phase in ("summary", "over", "setup"):
        return "%s: no round is running" % name
    if phase == "ready":
        return "%s is ready already" % name if p.get("state") == "ready" else None
    if st.get("mode") in ("turns", "turn-based"):
        turn = st.get("turn")
        if turn != seat and isinstance(turn, int) and 0 <= turn < len(players):
            return "not %s's turn: it is %s's" % (name, players[turn].get("name", "?"))
        return None
    if p.get("token") or p.get("state") in ("printed", "late", "forced"):
        return "%s has printed already (token %s)" % (name, p.get("token") or "-")
    return None
