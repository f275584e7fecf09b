"""The play session: what `presstime play` does with a board for one game, and its helpers
(the board picked or the simulator started, the set-up sent, the rounds mirrored, the finished
game stored and its standings pushed to the lights). `play_game` is the one session loop of
every game; `commands/play.py` is the command-line front (the set-up); PlaySession scores a
game whose rounds have their own set-up (its face's ROUND_SETUP), play_games.GameSession a game
whose numbers are its core face's `fields`; both through the one entry engine (entry/engine.py).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Final, Literal

from presstime import games as faces, records, report
from presstime.board import ports, share
from presstime.board.link import BoardError
from presstime.board.share import describe, users_of
from presstime.entry.answers import EntryStopped, player_names
from presstime.entry.rounds import needed_fields, round_slot, rounds_in
from presstime.entry.start import new_entry
from presstime.errors import BadInput, Failure
from presstime.history.keeping import store_finished
from presstime.history.store import Store, open_store
from presstime.names import entered_list
from presstime.sim.headless import Simulator
from presstime.sync import rebuild
from presstime.tableside import status_text
from presstime.tableside.round_screen import TableScreen, poll_line
from presstime.tableside.sound import for_board
from presstime.term import printable

if TYPE_CHECKING:
    import argparse

    from presstime.board.link import BoardClient
    from presstime.hints import Ask, Record, Result, Say, Status
    from presstime.scorepad.at_table import DemoPhones, TableScorepad


def parse_players(text: str, mode: str | None) -> list[str]:
    """Comma-separated names -> the seat order; BadInput naming each problem (the core's name
    rule through names.entered_list, as the board's set-up and the record checks apply it)."""
    names = text.split(",")
    if not 1 <= len(names) <= 6:
        raise BadInput("--players: 1 to 6 players, got %d" % len(names))
    return entered_list(names, "--players")


class PlaySession(TableScreen):
    """What `play` does with the board, for one game; the terminal side is in `say`/`ask`, and
    while a round runs on the table view (round_screen.TableScreen).

    (Not the core's round machine, core/table.py Table: this drives a board that runs one.)"""

    ended = False  # the table ended the game before its last round (GameSession: `end`)
    KEPT = "the rounds scored so far are kept"  # what a board that stops answering leaves
    demo: Demo | None  # play_games.GameSession: its own demo, play_games.GameDemo

    def __init__(
        self,
        client: BoardClient,
        store: Store,
        record: Record,
        key: str,
        say: Say,
        ask: Ask,
        demo: Any = None,  # the class's `demo` (Demo here, GameDemo in GameSession), or None
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
        self.init_screen()

    def save(self, record: Record) -> None:
        self.store.save_draft(self.key, record)

    def wait_round(self, index: int) -> Status:
        """Start (desktop or control button), mirror the round, return the final status."""
        import time

        if self.demo and self.client.status().get("phase") == "ready":
            self.client.start()
        script: list[list[tuple[float, int | Literal["turn"]]]] = []

        def act(st: Status) -> None:
            if self.demo and st.get("phase") == "running":
                if not script:
                    script.append(
                        self.demo.schedule(
                            len(st.get("players", [])),
                            time.monotonic(),
                            turns=st.get("mode") == "turn-based",
                        )
                    )
                while script[0] and script[0][0][0] <= time.monotonic():
                    button = script[0].pop(0)[1]
                    if button == Demo.TURN:  # whoever's turn it is ends it (one a status)
                        self.client.press(st.get("turn", 0))
                        break
                    self.client.press(button)
            elif not self.demo:
                line = _poll_line(0.0)
                if line is not None:
                    self.typed(line.strip().lower(), st)

        return self.show_round(act, idle_s=0.1 if self.demo else 0.05)

    def score_round(self, index: int, st: Status, again: bool = False) -> Result | None:
        """The round's numbers, with the finishing order and times of the table's summary `st`;
        again: the table threw away the round these numbers were first typed for, so they are
        asked again (Enter keeps each)."""
        finish = status_text.finish_order(st)
        table = rebuild.table_block(rebuild.round_of(st))
        entry = new_entry(self.record, self.save, ask=self.ask, say=self.say)
        if self.pad is not None:
            entry.enter_table(index, finish=finish, table=table)
            if self.phones is not None and self.demo is not None:
                self.phones.play_round(self.pad.session, self.demo.numbers(self.record, index))
            self.pad.collect(index, entry.part_title(index))
        elif self.demo:
            self.demo.fill(self.record, index)
        entry.enter_round(
            index, finish=finish, table=table, review=again and not self.demo and self.pad is None
        )
        try:
            result = records.tally(self.record)
        except Exception:
            return None
        if self.pad is not None:
            self.pad.standings(result)
        return result

    def rounds(self, st: Status) -> int:
        """How many rounds the game has."""
        return rounds_in(self.record)

    def round_scored(self, index: int, result: Result) -> None:
        """The round's scores and the totals so far, here and on the board's lights."""
        from presstime.tableside.display import wrapped

        self.say("")
        self.say("Round %d, the scores:" % (index + 1))
        for line in round_scores(result, index):
            self.say(line)
        for line in wrapped(
            "After round %d: %s"
            % (
                index + 1,
                ", ".join(
                    "%s %d ($%d)" % (p["name"], p["total"], p["ad_revenue"])
                    for p in result["players"]
                ),
            )
        ):
            self.say(line)
        self.push(result)

    def finish(self) -> Result:
        """The core's standings of the finished game."""
        return records.tally(self.record)

    def push(self, result: Result) -> None:
        names = [p["name"] for p in result["players"]]
        winners = result.get("winners") or []
        standings = {
            "totals": [p["total"] for p in result["players"]],
            "out": [i for i, p in enumerate(result["players"]) if p.get("out_of_business")],
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


class Demo:
    """Scripted presses and example scorepad numbers (seeded, so every demo is the same game)."""

    def __init__(self, seed: int) -> None:
        import random

        self.rnd = random.Random(seed)

    TURN: Final = "turn"  # in a schedule: the player whose turn it is presses

    def schedule(
        self, players: int, now: float, turns: bool = False
    ) -> list[tuple[float, int | Literal["turn"]]]:
        """[(monotonic time, button)]: every player presses once, in a shuffled order. turns
        (Fit to Print's turn-based mode: presses out of turn do nothing, and only the control
        button ends the day): two rounds of turns, each ended by whoever's turn it is, then the
        control button (-1)."""
        a_turn: list[int | Literal["turn"]] = [self.TURN]
        order = a_turn * (2 * players) + [-1] if turns else list(range(players))
        if not turns:
            self.rnd.shuffle(order)
        out = []
        t = now
        for b in order:
            t += self.rnd.uniform(0.2, 0.6)
            out.append((t, b))
        return out

    def fill(self, record: Record, index: int) -> None:
        rnd = round_slot(record, index)
        rnd.setdefault("breaking_news", [])
        pads = rnd.setdefault("players", {})
        numbers = self.numbers(record, index)
        for seat, name in enumerate(player_names(record)):
            pads[name] = numbers[seat]

    def numbers(self, record: Record, index: int) -> dict[int, dict[str, Any]]:
        """{seat: {field: value}}: example scorepad numbers for round `index` (seeded)."""
        r = self.rnd
        examples = faces.face_of(faces.of(record)).DEMO_ANSWERS  # {field: (lowest, highest)}
        out = {}
        for seat, _name in enumerate(player_names(record)):
            pad = {}
            for field in needed_fields(record, index):
                # every example is drawn for each line (the seeded demo's numbers stay the same)
                drawn = dict(
                    (key, r.randint(lo, hi) if lo < hi else lo)
                    for key, (lo, hi) in examples.items()
                )
                pad[field] = drawn.get(field, 0)
            out[seat] = pad
        return out


def _round_name(st):
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


def configure_board(client: BoardClient, cfg: dict[str, Any], say: Say) -> str:
    """Show the board, send it the set-up, and return the history key of the game it starts."""
    info = client.info or {}
    say("Board: %s (firmware %s, id %s)" % (info.get("board"), info.get("fw"), info.get("id")))
    client.configure(cfg)
    hello = client.hello()
    gid = hello.get("gid")
    board_id = str(hello.get("id"))  # as the key always said it ("None": a board without an id)
    return rebuild.game_key(board_id, {"seq": gid if isinstance(gid, int) else hello.get("seq", 0)})


def store_played_game(
    store: Store, table: PlaySession, record: Record, key: str, result: Result, say: Say
) -> None:
    """The finished game into the history under the board's key (its draft dropped), the
    standings and the final table shown here and pushed to the board's lights."""
    from presstime.tableside.final_standings import final_table

    game_id = store_finished(store, record, key, result)
    say("")
    say(report.standings_text(result, record).rstrip("\n"))
    say("")
    table.push(result)
    winner_screen(table.client, table.demo)
    final_table(result)
    if getattr(store, "demo", False):
        say("A demo: not kept in the history (`--save` keeps it).")
    else:
        say("Saved as game %d in the history." % game_id)


def play_game(
    args: argparse.Namespace,
    record: Record,
    cfg: dict[str, Any],
    session: type[PlaySession],
    demo: object,
    warn: list[int] | None,
    say: Say,
    ask: Ask,
) -> tuple[int, bool]:
    """The whole game at the table, whatever the game: the board set up with `cfg`, each round
    mirrored and its numbers taken by the `session` class (PlaySession, play_games.GameSession),
    the standings, the history, and 'same players again?'. Returns (exit status, again)."""
    store_cm = game_store(args)
    client, sim = open_board(args, say)
    key = None
    table = None
    again = False
    try:
        with store_cm as store:
            key = configure_board(client, cfg, say)
            store.hold_draft(key)  # no `enter --draft` types into it meanwhile
            st = client.status()
            for fact in status_text.setup_lines(
                st
            ):  # Myth Fits' grid, turn-based: who the board drew
                say("  " + fact)
            table = session(client, store, record, key, say, ask, demo=demo)
            table.sounds = for_board(client, mute=getattr(args, "mute", False), warn=warn)
            table.save(record)
            if getattr(args, "scorepad", False):
                table.pad, table.phones = start_scorepad(args, record, table, say)
            try:
                i, again = 0, False
                while i < table.rounds(st):
                    try:
                        st = table.wait_round(i)
                    except Failure:
                        say(
                            "The board stopped answering; %s as draft %s "
                            "(`presstime sync` later still pulls the board's journal)."
                            % (table.KEPT, key)
                        )
                        raise
                    result = table.score_round(i, st, again=again)
                    if result is not None:
                        table.round_scored(i, result)
                    if table.ended:
                        break
                    past = table.went_past(st)[0]  # the table decides the round's fate
                    i, again = (i + 1, False) if past else (i, True)
                result = table.finish()
            except EntryStopped as stop:
                stopped(key, say)
                return stop.status, False
            store_played_game(store, table, record, key, result, say)
            again = same_players_again(ask, say, args.demo)
    except KeyboardInterrupt:
        if key is not None and (args.save or not args.demo):
            stopped(key, say, "Stopped (Ctrl-C)", record, args)
        raise
    finally:
        if table is not None and table.pad is not None:
            table.pad.stop()
        client.close()
        if sim is not None:
            sim.stop()
    return 0, again


def game_store(args: argparse.Namespace) -> AbstractContextManager[Store]:
    """The history the game goes into: the user's, but for a demo not asked to `--save` a
    throw-away one (a demo leaves the user's history and stats alone)."""
    if getattr(args, "save", False) and not args.demo:
        raise BadInput("--save: only with --demo (a real game is always saved)")
    if not args.demo or args.save:
        return open_store(args)
    return _ThrowAwayStore()


class _DemoStore(Store):
    """The throw-away history of a demo: a finished game says it is not kept."""

    demo = True  # read by store_played_game (any other store: not a demo)


class _ThrowAwayStore:
    """A history database in a temporary folder, gone when the demo ends."""

    def __enter__(self) -> Store:
        import os
        import tempfile

        self.tmp = tempfile.mkdtemp(prefix="presstime-demo-")
        self.store = _DemoStore(os.path.join(self.tmp, "demo.db"))
        return self.store.__enter__()

    def __exit__(self, *exc: object) -> None:
        import shutil

        try:
            return self.store.__exit__(*exc)
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)


WINNER_HOLD_S = 4.0  # a demo's winner screen stays this long


def winner_screen(
    client: BoardClient, demo: object, poll: Callable[[float], str | None] | None = None
) -> None:
    """The end of the game full screen on a terminal: the board's last status, its winner banner
    and the standings the desktop pushed, until Enter (a demo: a few seconds). Nothing
    without a terminal: the final table printed after it is the record."""
    import time

    from presstime.tableside.display import Screen, View, live_enabled

    if not live_enabled():
        return
    view = View("play", keys="Enter: the final table" if not demo else "a demo")
    with Screen(view) as screen:
        end = time.monotonic() + WINNER_HOLD_S
        while True:
            screen.show(client.status())
            if demo:
                if time.monotonic() >= end:
                    return
                time.sleep(0.2)
            elif (poll or _poll_line)(0.2) is not None:
                return


def same_players_again(ask: Ask, say: Say, demo: bool) -> bool:
    """True when the table wants another game with the same seats (asked on a terminal only)."""
    import sys

    if demo or not sys.stdin.isatty():
        return False
    try:
        answer = ask("Same players again? [y/N] ").strip().lower()
    except EOFError:
        return False
    return answer in ("y", "yes")


def round_scores(result: Result, index: int) -> list[str]:
    """The lines of the between-rounds screen: each player's score for round `index` (0-based),
    the total so far and the ad revenue, best total first; 80 columns whatever the names."""
    rows = []
    for p in result["players"]:
        rounds = p.get("rounds") or []
        r = rounds[index] if index < len(rounds) else {}
        rows.append((printable(p["name"]), r.get("score"), p["total"], p["ad_revenue"]))
    rows.sort(key=lambda row: -row[2])
    width = min(40, max(6, max(len(row[0]) for row in rows)))
    lines = ["  %-*s  %6s  %6s  %6s" % (width, "player", "round", "total", "ads $")]
    for name, score, total, ads in rows:
        name = name if len(name) <= width else name[: width - 1] + "\u2026"
        lines.append(
            "  %-*s  %6s  %6d  %6d"
            % (width, name, "-" if score is None else "%+d" % score, total, ads)
        )
    return lines


def stopped(
    key: str,
    say: Say,
    why: str = "Stopped",
    record: Record | None = None,
    args: argparse.Namespace | None = None,
) -> None:
    """What a stopped game says: where what was typed is kept, and how to finish it. Given the
    `record` and play's `args` (the store closed): a game stopped before any round was played
    or typed keeps no draft (Ctrl-C at the first ready check left one each time)."""
    say("")
    if record is not None and not played_or_typed(record):
        with open_store(args) as store:
            store.drop_draft(key)
        say("%s before any round was played: nothing to keep, no draft." % why)
        return
    say("%s. Everything typed is kept as draft %s:" % (why, key))
    say("  presstime enter --draft %s" % key)
    say("      finishes it (presstime enter --list: the drafts)")


def played_or_typed(record: Record) -> bool:
    """True when a game's record holds anything beyond its set-up: a round, a number."""
    return bool(record.get("rounds")) or any(
        v for k, v in record.items() if k not in ("game", "players", "mode", "edition", "rounds")
    )


def start_scorepad(
    args: argparse.Namespace, record: Record, table: PlaySession, say: Say
) -> tuple[TableScorepad, DemoPhones | None]:
    """(the phones' scorepad, the demo's simulated phones or None) for `--scorepad`, for the
    game session `table`: its link is kept beside its draft (`enter --draft KEY --scorepad`
    then serves the same link) and shown on its table view while a round runs."""
    import random

    from presstime.scorepad.at_table import DemoPhones, DraftLink, TableScorepad

    pad = TableScorepad(
        record,
        table.save,
        bind=args.bind,
        say=say,
        port=args.scorepad_port,
        poll_line=None if args.demo else _poll_line,
        keep=DraftLink(table.store, table.key),
    ).start()
    table.view.link = pad.footer()
    phones = DemoPhones(pad.server.url, random.Random(args.seed)) if args.demo else None
    return pad, phones


def played_elsewhere(args: argparse.Namespace, say: Say) -> int | None:
    """When another `presstime play` is playing on the board this one would use: this terminal
    becomes a second view of it (as `presstime watch`), and its exit status; else None."""
    if args.demo or args.sim:
        return None
    port = ports.pick_port(args.port, allow_none=True)
    players = users_of(port, "play") if port else []
    if not players:
        return None
    holder = players[0]
    from presstime.tableside.watch import watch_board

    say(
        "The board on %s is being played by %s: this terminal shows it as `presstime watch` does "
        "(Ctrl-C leaves; the game goes on there)." % (port, describe(holder))
    )
    return watch_board(port, command="play (view)")


def open_board(args: argparse.Namespace, say: Say) -> tuple[BoardClient, Simulator | None]:
    """(client, simulator or None) for --port / the only board / a new simulator."""
    sim = None
    port = None
    if args.port or not (args.sim or args.demo):
        port = ports.pick_port(args.port, allow_none=True)
        if port is None:
            say(
                "No board found: playing against the simulator (a board on USB is used "
                "automatically)."
            )
    if port is None:
        sim = Simulator().start()
        port = sim.path
        say("Simulator started on %s" % port)
    try:
        client = share.connect(port, command="play")
    except Exception:
        if sim is not None:
            sim.stop()
        raise
    return client, sim
