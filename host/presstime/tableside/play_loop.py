"""The one play loop: what `presstime play` does with a board for one game, whatever the game
(the board picked or the simulator started, the set-up sent, each round mirrored and scored by
the session, tableside/play_session.py PlaySession, the finished game stored and its standings
pushed to the lights, 'same players again?'). `commands/play.py` is the command-line front: the
game's set-up and the board's, whatever the game, as its face says (games/<game>.py
play_options, play_setup, play_config).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from presstime import report
from presstime.board import ports, share
from presstime.board.share import describe, users_of
from presstime.entry.answers import EntryStopped
from presstime.errors import BadInput, Failure
from presstime.history.keeping import store_finished
from presstime.history.store import Store, open_store
from presstime.sim.headless import Simulator
from presstime.sync import rebuild
from presstime.tableside import play_session, status_text
from presstime.tableside.play_demo import Demo
from presstime.tableside.play_session import PlaySession
from presstime.tableside.sound import for_board

if TYPE_CHECKING:
    import argparse

    from presstime.board.link import BoardClient
    from presstime.hints import Ask, Record, Result, Say
    from presstime.scorepad.at_table import DemoPhones, TableScorepad


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
    args: argparse.Namespace, record: Record, cfg: dict[str, Any], say: Say, ask: Ask
) -> tuple[int, bool]:
    """The whole game at the table, whatever the game: the board set up with `cfg` (the game's
    face's play_config), each round mirrored and its numbers taken by the session
    (play_session.PlaySession; a demo's presses and numbers: play_demo.Demo), the standings,
    the history, and 'same players again?'. Returns (exit status, again)."""
    demo = Demo(args.seed) if args.demo else None
    warn = cfg.get("warn_ms")
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
            table = PlaySession(client, store, record, key, say, ask, demo=demo)
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
                            % (table.kept, key)
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
            elif (poll or play_session._poll_line)(0.2) is not None:
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
        poll_line=None if args.demo else play_session._poll_line,
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
