"""The play session: what `presstime play` does with a board while one game is played, whatever
the game. `PlaySession` mirrors each round on the table view, takes its numbers through the one
entry engine (entry/engine.py) and pushes the standings to the board's lights; `Demo` is the
scripted presses and example numbers of `play --demo` (tableside/play_demo.py). The loop round
them (the board picked, the set-up sent, the game stored) is tableside/play_loop.py.

What is special to a game is said by its desktop face (games/<game>.py): a game whose rounds
each have their own set-up (its ROUND_SETUP) is scored round by round, with the board's
finishing order and measures, and its standings shown after each round (in its MONEY beside
the total); the others' numbers are the core face's `fields`, asked as each round ends and at
the end. How the board runs a round (timed, ready-reveal, turns) is the board's table mode, read
from its status.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from presstime import games as faces, records
from presstime.board.link import BoardError
from presstime.entry.answers import is_seat_step
from presstime.entry.rounds import rounds_in
from presstime.entry.start import new_entry
from presstime.errors import BadInput
from presstime.names import parse_players  # noqa: F401 (play's --players, as it was read here)
from presstime.scorepad.at_table import seat_numbers
from presstime.sync import rebuild
from presstime.tableside import status_text
from presstime.tableside.play_demo import Demo
from presstime.tableside.round_screen import TableScreen, poll_line
from presstime.term import printable

if TYPE_CHECKING:
    from presstime.board.link import BoardClient
    from presstime.entry.engine import Entry
    from presstime.hints import Ask, Record, Result, Say, Status
    from presstime.history.store import Store
    from presstime.scorepad.at_table import DemoPhones, TableScorepad

UNTIMED = ("ready-reveal", "turns")  # the board's table modes whose rounds run without a clock


class PlaySession(TableScreen):
    """What `play` does with the board, for one game of any game; the terminal side is in
    `say`/`ask`, and while a round runs on the table view (round_screen.TableScreen).

    (Not the core's round machine, core/table.py Table: this drives a board that runs one.)"""

    ended = False  # the table typed `end` in a ready-reveal game (Heat: everybody arrested)
    demo: Demo | None
    _entry: Entry | None = None

    # the keys of a round the board runs without a clock (ready-reveal, turns)
    UNTIMED_KEYS = (
        "1-6 press \u00b7 l,1-6 long \u00b7 Enter start/reveal \u00b7 e end \u00b7 u undo "
        "\u00b7 ? help"
    )
    UNTIMED_HELP = (
        "Enter: start/reveal now \u00b7 l,1-6: long press \u00b7 e: end the game "
        "(or Heat's heists) \u00b7 x twice: abort"
    )

    def __init__(
        self,
        client: BoardClient,
        store: Store,
        record: Record,
        key: str,
        say: Say,
        ask: Ask,
        demo: Demo | None = None,
        live: bool | None = None,
    ) -> None:
        self.client = client
        self.store = store
        self.record = record
        self.key = key
        self.say = say
        self.ask = ask
        self.demo = demo  # a Demo, or None (interactive)
        self.live = live  # True/False: the full-screen table view; None: decide by stdout
        self.pad: TableScorepad | None = None  # the phones' scorepad, or None
        self.phones: DemoPhones | None = None  # the demo's simulated phones, or None
        if faces.face_of(faces.of(record)).play_mode(record) in UNTIMED:
            self.KEYS, self.HELP = self.UNTIMED_KEYS, self.UNTIMED_HELP
        self.init_screen()

    @property
    def by_round(self) -> bool:
        """Is the game scored round by round (its face's ROUND_SETUP: each round's own set-up,
        the board's finishing order and measures), its standings after each round?"""
        return faces.face_of(faces.of(self.record)).ROUND_SETUP is not None

    @property
    def kept(self) -> str:
        """What a board that stops answering leaves."""
        return "the rounds scored so far are kept" if self.by_round else "what was entered is kept"

    def save(self, record: Record) -> None:
        self.store.save_draft(self.key, record)

    @property
    def entry(self) -> Entry:
        """The game's entry engine (entry/start.py new_entry), made once."""
        entry = self._entry
        if entry is None:
            entry = self._entry = new_entry(self.record, self.save, ask=self.ask, say=self.say)
        return entry

    def rounds(self, st: Status) -> int:
        """How many rounds the game has: the record's (a game scored round by round), else the
        board's."""
        return rounds_in(self.record) if self.by_round else st.get("rounds") or 1

    # ------------------------------------------------------------------ a round at the table

    def start_hint(self, st: Status) -> str:
        if st.get("mode") == "turns":
            return (
                "%s: a player's button or the control button starts; Enter here too (? for help)."
                % status_text.headline(st)
            )
        if st.get("mode") == "ready-reveal":
            return (
                "%s: each player presses when ready (again: not ready); all ready reveals. "
                "Enter here reveals now (? for help)." % status_text.headline(st)
            )
        return super().start_hint(st)

    def wait_round(self, index: int) -> Status:
        """Start (desktop or control button), mirror the round (a timed round, a heist, a Mini
        FITS round, a Myth Fits game) until it is over; return the final status."""
        first = self.client.status()
        timed = first.get("mode") not in UNTIMED
        if self.demo and timed and first.get("phase") == "ready":
            self.client.start()
        # timed: [[(when, seat or TURN)]] once running; ready-reveal: [(when, seat)] still to
        # press; turns: [when the next action may come]
        script: list[Any] = []
        scripted: list[tuple[Any, Any] | None] = [None]  # (round, step) the presses are for

        def act(st: Status) -> bool | None:
            if self.ended:
                return False
            if not self.demo:
                line = _poll_line(0.0)
                if line is not None:
                    self._typed_key(line.strip().lower(), st)
                return None
            self._demo_presses(st, script, scripted)
            return None

        st = self.show_round(act, idle_s=0.1 if self.demo and timed else 0.05)
        face = faces.core(st.get("game")) if isinstance(st.get("game"), str) else None
        if not timed and face is not None and face.rounds_in(st.get("mode")) > 1 and not self.ended:
            self.say("%s %d over." % (face.ROUND_WORD.capitalize(), index + 1))
        return st

    def _demo_presses(
        self, st: Status, script: list[Any], scripted: list[tuple[Any, Any] | None]
    ) -> None:
        """The demo's presses on this status, in the board's table mode."""
        demo = self.demo
        assert demo is not None
        phase, mode = st.get("phase"), st.get("mode")
        now = time.monotonic()
        if mode == "turns":
            if phase == "ready":
                self.client.start()
            elif phase == "running" and (not script or script[0] <= now):
                script[:] = [demo.turn(self.client, st, now)]
        elif mode == "ready-reveal":
            if phase == "ready":
                key = (st.get("round"), st.get("step"))
                if key != scripted[0]:
                    scripted[0] = key
                    script[:] = demo.schedule(len(st.get("players", [])), now, 0.05, 0.2)
                while script and script[0][0] <= now:
                    self.client.press(script.pop(0)[1])
        elif phase == "running":
            if not script:
                # in turns (presses out of turn do nothing, the board names whose turn it is)
                script.append(demo.schedule(len(st.get("players", [])), now, turns="turn" in st))
            while script[0] and script[0][0][0] <= now:
                button = script[0].pop(0)[1]
                if button == Demo.TURN:  # whoever's turn it is ends it (one a status)
                    self.client.press(st.get("turn", 0))
                    break
                self.client.press(button)

    def _typed_key(self, word: str, st: Status) -> None:
        """A key typed during a round: `e` ends a ready-reveal game's rounds (Heat: everybody
        arrested) or a game in turns (the control button); else the table view's keys."""
        if word in ("e", "end") and st.get("mode") == "ready-reveal":
            self.ended = True  # Heat: a B phase needing more heat than the game has
            face = faces.core(st.get("game"))
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
        self.typed(word, st)

    # ------------------------------------------------------------------ the numbers

    def score_round(self, index: int, st: Status, again: bool = False) -> Result | None:
        """The round's numbers (with the finishing order and measures of the table's summary `st`
        for a game scored round by round), and what the board counted (the face's `counted`);
        again: the table threw away the round these numbers were first typed for, so they are
        asked again (Enter keeps each). Returns the standings after the round, or None: they
        come at the end."""
        record, face = self.record, faces.face_of(faces.of(self.record))
        review = again and not self.demo and self.pad is None
        if self.by_round:
            finish = status_text.finish_order(st)
            table = rebuild.table_block(rebuild.round_of(st))
            entry = self._entry = new_entry(record, self.save, ask=self.ask, say=self.say)
            if self.pad is not None:
                entry.enter_table(index, finish=finish, table=table)
                if self.phones is not None and self.demo is not None:
                    self.phones.play_round(self.pad.session, self.demo.numbers(record, index))
                self.pad.collect(index, entry.part_title(index))
            elif self.demo:
                self.demo.fill(record, index)
            entry.enter_round(index, finish=finish, table=table, review=review)
            result = _tally_or_none(record)
            if self.pad is not None and result is not None:
                self.pad.standings(result)
            return result
        if faces.core_of(faces.of(record)).fields(record, index):
            if self.pad is not None:
                self._phones_part(self.pad, index)
            elif self.demo:
                self.demo.fill(record, index)
            self.entry.enter_round(index, review=review)
            if self.pad is not None:
                self.pad.standings(_tally_or_none(record))
        if face.counted(record, st):  # the numbers the board counted (photo tokens)
            self.save(record)
        return None

    def finish(self) -> Result:
        """The game's end numbers (Heat's money, Myth Fits' gatherer) when its face asks any,
        then the core's standings."""
        record = self.record
        if self.by_round:
            return records.tally(record)
        if self.pad is not None:
            self._phones_part(self.pad, None)
        elif self.demo:
            self.demo.fill(record)
        self.entry.enter_rest(None)  # every question not answered yet, the rounds' too
        faces.face_of(faces.of(record)).entered(record)
        result = self.entry.close()
        if self.pad is not None:
            self.pad.standings(result)
        return result

    def _phones_part(self, pad: TableScorepad, round_index: int | None) -> None:
        """The table-wide questions here first (Heat: arrested? heat value), then each player's
        own numbers on their phone (the demo's simulated phones send example numbers).
        round_index None: the game's end numbers."""
        import copy

        record, demo = self.record, self.demo
        filled = None
        if demo is not None:
            filled = copy.deepcopy(record)
            demo.fill(filled, round_index)
            for path, kind, _label in faces.core_of(faces.of(record)).fields(filled, round_index):
                if not is_seat_step(record, kind, path) and path[0] not in record:
                    record[path[0]] = filled.get(path[0])  # the table's answers
            self.save(record)
        self.entry.enter_table(round_index)
        if self.phones is not None and filled is not None:
            self.phones.play_round(pad.session, seat_numbers(record, filled, round_index))
        pad.collect(round_index, self.entry.part_title(round_index))

    def round_scored(self, index: int, result: Result) -> None:
        """The round's scores and the totals so far (with the face's MONEY), here and on the
        board's lights."""
        from presstime.tableside.display import wrapped

        money = faces.face_of(faces.of(result)).MONEY
        self.say("")
        self.say("Round %d, the scores:" % (index + 1))
        for line in round_scores(result, index):
            self.say(line)
        for line in wrapped(
            "After round %d: %s"
            % (
                index + 1,
                ", ".join(
                    "%s %d%s" % (p["name"], p["total"], " ($%d)" % p[money[0]] if money else "")
                    for p in result["players"]
                ),
            )
        ):
            self.say(line)
        self.push(result)

    # ------------------------------------------------------------------ the board

    def push(self, result: Result) -> None:
        """The standings on the board's lights: the totals, who is out (the face's OUT), the
        winner."""
        names = [p["name"] for p in result["players"]]
        winners = result.get("winners") or []
        out = faces.face_of(faces.of(result)).OUT
        standings = {
            "totals": [p["total"] for p in result["players"]],
            "out": [i for i, p in enumerate(result["players"]) if out and p.get(out[0])],
            "winner": names.index(winners[0])
            if result.get("complete") and len(winners) == 1
            else None,
        }
        try:
            self.client.push_standings(standings)
        except BoardError as e:
            self.say("  (the board did not take the standings: %s)" % e.board_message)

    def next_round(self) -> Status:
        st = self.client.status()
        if st.get("phase") != "summary":
            return st  # already moved on from the control button
        try:
            self.client.next_round()
        except BoardError as e:
            self.say("  (next round refused: %s)" % e.board_message)
        return self.client.status()

    def went_past(self, shown: Status) -> tuple[bool, Status]:
        """(True, status) once the table went past the round whose summary `shown` play took
        (its numbers typed): play sends the table on (next) unless its control button did.
        (False, status) when the table threw that round away meanwhile -- an abort in its
        summary (the same round is played again) or an undo that reopened it: the table decides
        a round's fate, play follows it and takes the round again from its next summary."""
        st = self.client.status()
        refused = None
        if st.get("phase") == "summary" and st.get("version") == shown.get("version"):
            try:
                self.client.next_round()  # the table refuses it if it changed since (stale)
            except BoardError as e:
                refused = e.board_message
            st = self.client.status()
        again = (
            st.get("round") == shown.get("round")
            and st.get("phase") != "over"
            and (st.get("phase") != "summary" or st.get("version") != shown.get("version"))
        )
        if again:
            self.say(
                "The table threw %s away (an abort or an undo there): it is played again, and "
                "its numbers are taken again once it is over." % _round_name(shown)
            )
        elif refused:
            self.say("  (next round refused: %s)" % refused)
        return not again, st


def round_scores(result: Result, index: int) -> list[str]:
    """The lines of the between-rounds screen: each player's score for round `index` (0-based),
    the total so far and the face's MONEY (Fit to Print's ad revenue), best total first; 80
    columns whatever the names."""
    money = faces.face_of(faces.of(result)).MONEY
    rows = []
    for p in result["players"]:
        rounds = p.get("rounds") or []
        r = rounds[index] if index < len(rounds) else {}
        rows.append((printable(p["name"]), r.get("score"), p["total"], money and p[money[0]]))
    rows.sort(key=lambda row: -row[2])
    width = min(40, max(6, max(len(row[0]) for row in rows)))
    head = "  %-*s  %6s  %6s" % (width, "player", "round", "total")
    lines = [head + ("  %6s" % (money[1] + " $") if money else "")]
    for name, score, total, cash in rows:
        name = name if len(name) <= width else name[: width - 1] + "\u2026"
        lines.append(
            "  %-*s  %6s  %6d" % (width, name, "-" if score is None else "%+d" % score, total)
            + ("  %6d" % cash if money else "")
        )
    return lines


def _tally_or_none(record: Record) -> Result | None:
    """The core's standings of the record so far, or None while it cannot score it."""
    try:
        return records.tally(record)
    except BadInput:
        return None


def _round_name(st: Status) -> str:
    """'round 2 (Saturday)' / 'round 1' for a status."""
    day = st.get("day")
    return "round %s%s" % (
        st.get("round"),
        " (%s)" % day.capitalize() if isinstance(day, str) and day else "",
    )


def _poll_line(timeout: float) -> str | None:
    """A key (a terminal: round_screen.poll_line, one at a time) or a line typed on stdin within
    `timeout` seconds, or None; BadInput when the input is closed (nothing could ever be typed)."""
    import select
    import sys

    closed = BadInput(
        "standard input is closed, so nothing can be typed here: the rounds played so far "
        "are in the board's journal (`presstime sync`, then `presstime enter --list`); "
        "`presstime play --demo` needs no typing"
    )
    if sys.stdin is None or sys.stdin.closed:
        raise closed
    try:
        if sys.stdin.isatty():
            return poll_line(timeout)
    except (OSError, ValueError):
        raise closed
    try:
        ready, _, _ = select.select([sys.stdin], [], [], timeout)
    except (OSError, ValueError):
        raise closed
    if not ready:
        return None
    line = sys.stdin.readline()
    if not line:
        raise closed  # end of input: waiting for a line would wait forever
    return line


def scripted_ask(prompt: str) -> str:
    # the demo pre-fills every number; a question means the entry wants something unexpected:
    # Enter keeps/skips it, and a runaway loop is stopped
    scripted_ask.calls += 1
    if scripted_ask.calls > 200:
        raise EOFError()
    return ""


scripted_ask.calls = 0
