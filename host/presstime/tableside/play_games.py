"""`presstime play --game GAME`: the games other than Fit to Print at the table.

The board runs the game in its table mode (its face's first MODES, core/games.py): Heat and Mini
FITS in the
ready check and reveal (each player's button toggles ready, all ready -> reveal, the stage or
card count moves on), Myth Fits in turns (press: end your turn; hold 0.8 s: a photo token; the
target wins). This terminal mirrors the board, then takes the numbers the board cannot know
(the entry engine, entry/engine.py: the face's `fields`), shows the core's standings, stores
the game and pushes the standings. What a game is called and how many rounds it has come from
its face.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from presstime import games as faces, records
from presstime.board.link import BoardError
from presstime.core import games
from presstime.entry.answers import is_seat_step, set_at
from presstime.entry.start import new_entry
from presstime.errors import BadInput
from presstime.scorepad.at_table import seat_numbers
from presstime.tableside import status_text
from presstime.tableside.play_session import PlaySession, _poll_line, play_game
from presstime.tableside.round_time import round_time_ms, warnings_ms

if TYPE_CHECKING:
    import argparse

    from presstime.board.link import BoardClient
    from presstime.entry.engine import Entry
    from presstime.hints import Ask, Record, Result, Say, Status
    from presstime.scorepad.at_table import TableScorepad

NAMES = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay"]


def demo_players(game: str) -> list[str]:
    """The demo's players: one more than the fewest the game takes."""
    face = faces.core_of(game)
    return NAMES[: min(face.MIN_PLAYERS + 1, face.MAX_PLAYERS)]


class GameSession(PlaySession):
    """play's session for a ready-reveal or turns game: the round loop and the demo presses."""

    ended = False  # the table typed `end` in a ready-reveal game (Heat: everybody arrested)

    KEYS = (
        "1-6 press \u00b7 l,1-6 long \u00b7 Enter start/reveal \u00b7 e end \u00b7 u undo "
        "\u00b7 ? help"
    )
    HELP = (
        "Enter: start/reveal now \u00b7 l,1-6: long press \u00b7 e: end the game "
        "(or Heat's heists) \u00b7 x twice: abort"
    )

    KEPT = "what was entered is kept"
    demo: GameDemo | None  # PlaySession's demo is play_session.Demo; a GameSession is given this
    _entry: Entry | None

    def rounds(self, st: Status) -> int:
        return st.get("rounds") or 1

    @property
    def entry(self) -> Entry:
        entry = getattr(self, "_entry", None)
        if entry is None:
            entry = self._entry = new_entry(self.record, self.save, ask=self.ask, say=self.say)
        return entry

    def score_round(self, index: int, st: Status, again: bool = False) -> None:
        """The numbers of the round the face asks (Mini FITS' lines), and the photo tokens the
        board counted in a game in turns. Returns None: the standings come at the end."""
        face = faces.core_of(self.record["game"])
        if face.fields(self.record, index):
            if self.pad is not None:
                _phones_round(
                    self,
                    self.pad,
                    self.entry,
                    self.record,
                    self.demo,
                    index,
                )
            elif self.demo:
                self.demo.fill(self.record, index)
            self.entry.enter_round(index, review=again and not self.demo and self.pad is None)
            if self.pad is not None:
                self.pad.standings(_tally_or_none(self.record))
        if st.get("mode") == "turns":  # the photo tokens the board counted
            self.record["photo_tokens"] = dict(
                (p["name"], p.get("photos", 0)) for p in st["players"]
            )
            self.save(self.record)
        return None

    def finish(self) -> Result:
        """The game's end numbers (Heat's money, Myth Fits' gatherer), then the core's standings."""
        record = self.record
        if self.pad is not None:
            _phones_round(self, self.pad, self.entry, record, self.demo, None)
        elif self.demo:
            self.demo.fill(record)
        self.entry.enter_rest(None)  # every question not answered yet, the rounds' too
        faces.face_of(record["game"]).entered(record)
        result = self.entry.close()
        if self.pad is not None:
            self.pad.standings(result)
        return result

    def start_hint(self, st: Status) -> str:
        if st.get("mode") == "turns":
            return (
                "%s: a player's button or the control button starts; Enter here too (? for help)."
                % status_text.headline(st)
            )
        return (
            "%s: each player presses when ready (again: not ready); all ready reveals. "
            "Enter here reveals now (? for help)." % status_text.headline(st)
        )

    def wait_round(self, index: int) -> Status:
        """Mirror the board until the round (heist, Mini FITS round, Myth Fits game) is over."""
        game = self.client.status().get("game")
        # ready-reveal: [(when, seat)] still to press; turns: [when the next action may come]
        script: list[Any] = []
        scripted: list[tuple[Any, Any] | None] = [None]  # (round, step) the presses are for

        def act(st: Status) -> bool | None:
            if self.ended:
                return False
            phase = st.get("phase")
            if not self.demo:
                line = _poll_line(0.0)
                if line is not None:
                    self._typed_game(line.strip().lower(), st)
                return None
            now = time.monotonic()
            if st.get("mode") == "turns":
                if phase == "ready":
                    self.client.start()
                elif phase == "running" and (not script or script[0] <= now):
                    script[:] = [self.demo.turn(self.client, st, now)]
            elif phase == "ready":
                key = (st.get("round"), st.get("step"))
                if key != scripted[0]:
                    scripted[0] = key
                    script[:] = self.demo.schedule(len(st.get("players", [])), now, 0.05, 0.2)
                while script and script[0][0] <= now:
                    self.client.press(script.pop(0)[1])
            return None

        st = self.show_round(act)
        face = games.module(game) if isinstance(game, str) else None
        if face is not None and face.rounds_in(st.get("mode")) > 1 and not self.ended:
            self.say("%s %d over." % (face.ROUND_WORD.capitalize(), index + 1))
        return st

    def _typed_game(self, word: str, st: Status) -> None:
        if word in ("e", "end") and st.get("mode") == "ready-reveal":
            self.ended = True  # Heat: a B phase needing more heat than the game has
            face = games.module(st.get("game"))
            self.note(
                "  the %ss end here: on to the numbers" % (face.ROUND_WORD if face else "round")
            )
            return
        if word in ("e", "end") and st.get("mode") == "turns":
            try:
                self.client.press(-1)  # the control button ends a turn game (simulator)
            except BoardError:
                self.note("  end the game with the board's control button")
            return
        if word == "" and st.get("phase") == "ready":
            word = "start"
        self.typed(word, st)


class GameDemo:
    """Scripted presses and example numbers for the other games (seeded: every demo the same)."""

    def __init__(self, seed: int) -> None:
        import random

        self.rnd = random.Random(seed)

    def schedule(self, players: int, now: float, lo: float, hi: float) -> list[tuple[float, int]]:
        order = list(range(players))
        self.rnd.shuffle(order)
        out = []
        t = now
        for b in order:
            t += self.rnd.uniform(lo, hi)
            out.append((t, b))
        return out

    def turn(self, client: BoardClient, st: Status, now: float) -> float:
        """Myth Fits: the player whose turn it is takes a photo token (a 0.9 s hold) or ends
        the turn (a short press). Returns when the next action may come."""
        p = st.get("turn", 0)
        if self.rnd.random() < 0.5:
            client.press(p, 900)
            return now + 1.2
        client.press(p)
        return now + 0.3

    def fill(self, record: Record, round_index: int | None = None) -> None:
        """Example numbers for what the face asks (typed at the table otherwise)."""
        r = self.rnd
        examples = faces.face_of(record["game"]).DEMO_ANSWERS  # by the field's name; others 0 to 3
        for path, kind, _label in faces.core_of(record["game"]).fields(record, round_index):
            if kind == "int":
                lo, hi = examples.get(path[-1], (0, 3))
                set_at(record, path, r.randint(lo, hi))
            elif kind == "yes/no":
                set_at(record, path, False)


def _phones_round(
    table: GameSession,
    pad: TableScorepad,
    entry: Entry,
    record: Record,
    demo: GameDemo | None,
    round_index: int | None,
) -> None:
    """The table-wide questions here first (Heat: arrested? heat value), then each player's own
    numbers on their phone (the demo's simulated phones send example numbers). round_index
    None: the game's end numbers. `pad`: the table's scorepad (table.pad)."""
    import copy

    filled = None
    if demo is not None:
        filled = copy.deepcopy(record)
        demo.fill(filled, round_index)
        for path, kind, _label in faces.core_of(record["game"]).fields(filled, round_index):
            if (
                not is_seat_step(record, kind, path) and path[0] not in record
            ):  # the table's answers
                record[path[0]] = filled.get(path[0])
        table.save(record)
    entry.enter_table(round_index)
    if table.phones is not None and filled is not None:
        table.phones.play_round(pad.session, seat_numbers(record, filled, round_index))
    pad.collect(round_index, entry.part_title(round_index))


def _tally_or_none(record: Record) -> Result | None:
    try:
        return records.tally(record)
    except BadInput:
        return None


def run_game(args: argparse.Namespace, names: list[str], say: Say, ask: Ask) -> tuple[int, bool]:
    """The game's set-up (its players, its turn limit), then play_session.play_game. Returns
    (exit status, same players again?)."""
    game = args.game
    face = faces.core_of(game)
    record = {"game": game, "players": list(names)}
    lo, hi = face.players(face.MODES[0])
    if not lo <= len(names) <= hi:
        raise BadInput(
            "players: %s takes %d to %d players (got %d)" % (face.TITLE, lo, hi, len(names))
        )
    cfg = {"game": game, "players": [{"name": n} for n in names]}
    if getattr(args, "turn_limit", None):
        if "turns" not in face.MODES:
            raise BadInput(
                "--turn-limit: only a game played in turns has a turn limit (not %s)" % game
            )
        cfg["turn_ms"] = round_time_ms(args.turn_limit, "--turn-limit", lo_ms=1000)
    warn = None if getattr(args, "warn", None) is None else warnings_ms(args.warn)
    if warn is not None:
        cfg["warn_ms"] = warn
    demo = GameDemo(args.seed) if args.demo else None
    return play_game(args, record, cfg, GameSession, demo, warn, say, ask)
