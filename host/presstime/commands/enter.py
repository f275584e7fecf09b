"""presstime enter: type in a game's scorepad round by round, resumable after the terminal closes.

Every game the same way: its set-up, then its numbers through the entry engine
(entry/engine.py; entry/start.py picks how its face says they are walked).

Everything accepted is saved at once as a draft in the history database; the finished game is
stored there as a game (see `presstime history`). Input that ends early (Ctrl-D, a closed
terminal) keeps the draft and exits with status 1; `quit` keeps it and exits with status 0;
running `presstime enter` again resumes where it stopped.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from presstime import games
from presstime.entry.answers import EntryStopped, player_names
from presstime.entry.drafts import DraftLock
from presstime.entry.start import ask_game, ask_setup, engine_of, new_entry, set_up
from presstime.errors import BadInput, Failure
from presstime.history import store as store_mod
from presstime.history.keeping import store_finished
from presstime.history.store import DamagedDraft, add_db_argument
from presstime.report import standings_text
from presstime.scorepad.options import add_arguments as add_scorepad_arguments, resolve_bind
from presstime.sync.rebuild import key_board

if TYPE_CHECKING:
    from collections.abc import Iterable

    from presstime.entry.engine import Save
    from presstime.hints import Ask, Record, Result, Say
    from presstime.history.store import Store

EXAMPLE = """examples:
  presstime enter              start a game (or resume the one in progress); asks which game
  presstime enter --game heat  Heat (--game takes every game's name: see --help)
  presstime enter --resume     resume the game in progress, without asking
  presstime enter --new        drop the game in progress and start a new one
  presstime enter --list       the drafts waiting for numbers (from `play` or `sync` too)
  presstime enter --draft board:sim-16b6de1f:12   finish a game a board played
  presstime enter --discard board:sim-16b6de1f:12  drop a draft (asks first; --yes in scripts)
  presstime enter --scorepad --bind lan   every player types their own numbers on their phone

At any question: `?` help, `back`, `fix NAME`, `round N`, `show`, `quit`."""


def _epilog() -> str:
    """The examples, then what each game asks, in its face's words."""
    return (
        EXAMPLE
        + "\n"
        + "\n".join(
            "%s asks: %s." % (games.title(g), games.face_of(g).ENTRY_WORDS) for g in games.names()
        )
    )


DRAFT_KEY = "enter"


def configure(parser: argparse.ArgumentParser) -> None:
    """The options of `presstime enter`."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--resume", action="store_true", help="resume the game in progress (error if there is none)"
    )
    group.add_argument(
        "--new", action="store_true", help="discard the game in progress and start a new one"
    )
    group.add_argument(
        "--draft",
        metavar="KEY",
        help="finish a draft saved by `presstime play` or `sync` (keys: --list)",
    )
    group.add_argument("--list", action="store_true", help="list the drafts waiting for numbers")

    parser.add_argument(
        "--game", choices=list(games.names()), help="the game of a new entry (default: asked)"
    )
    parser.epilog = _epilog()
    group.add_argument(
        "--discard",
        nargs="+",
        metavar="KEY",
        help="drop these drafts (keys: --list); every key is checked first, and you are asked",
    )
    parser.add_argument(
        "--yes",
        action="store_true",
        help="--discard without asking (required when not on a terminal)",
    )

    add_scorepad_arguments(parser)
    add_db_argument(parser)


def _summary(record: Record) -> str:
    names = ", ".join(player_names(record)) or "no players yet"
    kind = record.get("mode") or record.get("game", "standard")
    if "rounds" not in record:
        return "%s game, %s" % (kind, names)
    rounds = len(record["rounds"])
    return "%s game, %s; %d round%s started" % (kind, names, rounds, "" if rounds == 1 else "s")


def _echoing_input(prompt: str) -> str:
    """input() that echoes the answer when stdin is not a terminal, so a piped session reads
    well."""
    import sys

    line = input(prompt)
    if not sys.stdin.isatty():
        print(line)
    return line


def run(args: argparse.Namespace, ask: Ask = _echoing_input, say: Say = print) -> int:
    """`presstime enter`: its exit status."""
    phones = args if getattr(args, "scorepad", False) else None
    if phones is not None:
        args.bind = resolve_bind(args.bind)  # a wrong address is refused before the game
    with store_mod.open_store(args) as store:
        if getattr(args, "game", None) and (args.resume or args.list or args.draft or args.discard):
            raise BadInput("--game: only for a new game (with --new, or when none is in progress)")
        if getattr(args, "yes", False) and not getattr(args, "discard", None):
            raise BadInput("--yes: only with --discard")
        if getattr(args, "list", False):
            return _list_drafts(store, say)
        if getattr(args, "discard", None):
            return _discard_drafts(store, args.discard, args.yes, ask, say)
        board = getattr(args, "draft", None)
        key = board or DRAFT_KEY
        try:
            with DraftLock(store.path, key):
                if board:
                    return _finish_board_draft(store, key, ask, say, phones)
                game_id, record, result = _enter_typed(store, args, ask, say, phones)
                if game_id is None:
                    return record  # stopped: the exit status
        except store_mod.StoreFull as e:
            # the write that failed changed nothing: the draft holds every answer saved before it
            raise store_mod.StoreFull(
                "%s. The game is NOT stored; what was typed is kept in draft %s: "
                "`presstime enter %s` continues"
                % (e, key, "--draft " + key if board else "--resume")
            )
    if engine_of(record).standings_after_storing(record):
        say("")
        say(standings_text(result, record).rstrip("\n"))
    say("Stored as game #%d (presstime show %d)." % (game_id, game_id))
    return 0


def _enter_typed(
    store: Store,
    args: argparse.Namespace,
    ask: Ask,
    say: Say,
    phones: argparse.Namespace | None,
) -> tuple[Any, Any, Any]:
    """The game typed here (draft `enter`, held by this process): (game id, record, result)
    once stored, or (None, exit status, None) when stopped."""
    if args.new:
        store.drop_draft(DRAFT_KEY)  # damaged or not, it goes
    draft = None if args.new else store.load_draft(DRAFT_KEY)
    waiting = [d["key"] for d in store.list_drafts() if d["key"] != DRAFT_KEY]
    if args.resume and draft is None:
        raise BadInput(
            "no game typed with `presstime enter` is in progress%s"
            % (
                "; %s: `presstime enter --draft KEY` finishes one" % _waiting_words(waiting)
                if waiting
                else " (start one with `presstime enter`)"
            )
        )
    if draft is not None and not args.resume:
        say("A game is in progress: %s." % _summary(draft))
        try:
            answer = ask("Resume it? [Y/n] (n discards it): ").strip().lower()
        except EOFError:
            return None, _stopped(say, True, True), None
        if answer in ("n", "no"):
            store.drop_draft(DRAFT_KEY)
            draft = None
    if draft is None and waiting and not args.new:
        for line in wrap(
            "%s (`presstime enter --draft KEY` finishes one). A new game:" % _waiting_words(waiting)
        ):
            say(line)
    save = lambda record: store.save_draft(DRAFT_KEY, record)  # noqa: E731
    _keep_link(phones, store, DRAFT_KEY)
    try:
        if draft is not None and getattr(args, "game", None) and games.of(draft) != args.game:
            raise BadInput(
                "--game %s: a %s game is in progress (--new discards it)"
                % (args.game, games.of(draft))
            )
        record = ask_game(ask, say, record=draft, save=save, game=getattr(args, "game", None))
        if set_up(record):
            say("Resuming: %s." % _summary(record))
        else:
            if draft is not None and set(draft) - {"game"}:
                say("Resuming the set-up.")
            record = ask_setup(ask, say, record=record, save=save)
        if phones is not None:
            result = _with_phones(record, save, phones, ask, say)
        else:
            result = new_entry(record, save, ask=ask, say=say, typed_tokens=True).enter_game()
    except EntryStopped as stop:
        return None, _stopped(say, stop.eof, store.has_draft(DRAFT_KEY)), None
    except KeyboardInterrupt:
        _stopped(say, True, store.has_draft(DRAFT_KEY))
        return None, 130, None
    if not _finished(result, DRAFT_KEY, "--resume", say):
        return None, 0, None

    return store_finished(store, record, DRAFT_KEY, result), record, result


def _finished(result: Result, key: str, resume: str, say: Say) -> bool:
    """True when the game has its winner (or its end) and can be stored; else it stays draft
    `key`, said so: a game in progress is never stored with its draft dropped (what is missing
    could not be typed any more)."""
    if result.get("complete", True):
        return True
    say("")
    say("Not stored: %s" % (result.get("pending") or "the game is not finished yet."))
    say(
        "It is kept as draft %s: `presstime enter %s` finishes it (`presstime enter --discard %s` "
        "drops it)." % (key, resume, key)
    )
    return False


def _with_phones(
    record: Record, save: Save, phones: argparse.Namespace, ask: Ask, say: Say
) -> Result:
    """`--scorepad`: the players' own numbers from their phones (scorepad/at_table.py)."""
    from presstime.scorepad.at_table import enter_with_phones

    return enter_with_phones(record, save, phones, ask, say, keep=getattr(phones, "keep", None))


def _keep_link(phones: argparse.Namespace | None, store: Store, key: str) -> None:
    """--scorepad: the phones' link is kept beside the draft (a resumed game keeps it)."""
    if phones is not None:
        from presstime.scorepad.at_table import DraftLink

        phones.keep = DraftLink(store, key)


def _list_drafts(store: Store, say: Say) -> int:
    drafts = store.list_drafts()
    if not drafts:
        say("No drafts: every game is finished.")
    for d in drafts:
        say("%s  (saved %s)" % (d["key"], d["saved_at"]))
        for line in wrap("  " + _described(store, d["key"]), indent="    "):
            say(line)
    if drafts:
        for line in wrap(
            "`presstime enter --draft KEY` finishes one; `presstime enter --discard KEY` "
            "drops it (`--discard all`: every draft)."
        ):
            say(line)
    return 0


def _described(store: Store, key: str) -> str:
    """A draft in one line: its game and players, or what is wrong with it."""
    try:
        record = store.load_draft(key) or {}
    except DamagedDraft as e:
        return "DAMAGED: %s" % e.reason

    return "%s: %s" % (games.of(record), _summary(record))


def _discard_drafts(store: Store, keys: Iterable[str], yes: bool, ask: Ask, say: Say) -> int:
    """Drop drafts by key (damaged ones too): every key checked first (all unknown ones named,
    and none open in another `enter`), listed, then asked (without a terminal --yes is required)."""
    import contextlib
    import sys

    keys = list(dict.fromkeys(keys))
    if keys == ["all"] and not store.has_draft("all"):
        keys = [d["key"] for d in store.list_drafts()]
        if not keys:
            raise Failure("no drafts to discard: every game is finished")
    missing = [k for k in keys if not store.has_draft(k)]
    if missing:
        raise BadInput(
            ["--discard %s: no such draft (see `presstime enter --list`)" % k for k in missing]
        )
    with contextlib.ExitStack() as held:  # none open in another `enter` while they go
        for k in keys:
            held.enter_context(DraftLock(store.path, k))
        if not yes and not sys.stdin.isatty():
            raise BadInput(
                "standard input is not a terminal, so nobody can confirm: add --yes to discard %s"
                % ", ".join(keys)
            )
        for k in keys:
            for line in wrap("%s  %s" % (k, _described(store, k)), indent="    "):
                say(line)
        if not yes:
            try:
                answer = ask(
                    "Discard %d draft%s and what was typed in %s? [y/N] "
                    % (len(keys), "" if len(keys) == 1 else "s", "it" if len(keys) == 1 else "them")
                )
            except EOFError:
                answer = ""
            if answer.strip().lower() not in ("y", "yes"):
                raise Failure("nothing discarded")

        for k in keys:
            board = key_board(k)
            if board is None:
                store.drop_draft(k)
            else:  # remembered: a later sync drafts it again only if the board's game goes on
                store.discard_draft(k, store.last_seq(board))
    for line in wrap("discarded: %s" % ", ".join(keys)):
        say(line)
    return 0


def _finish_board_draft(
    store: Store, key: str, ask: Ask, say: Say, phones: argparse.Namespace | None = None
) -> int:
    """Type the numbers a board's game is waiting for (a draft of `play` or `sync`), then store
    it under the same key, so a later `presstime sync` updates that game instead of adding one."""
    record = store.load_draft(key)
    if record is None:
        raise BadInput("--draft %s: no such draft (see `presstime enter --list`)" % key)
    save = lambda r: store.save_draft(key, r)  # noqa: E731
    _keep_link(phones, store, key)
    say("Finishing %s: %s." % (key, _summary(record)))
    try:
        if phones is not None:
            result = _with_phones(record, save, phones, ask, say)
        else:
            result = new_entry(record, save, ask=ask, say=say).enter_game(typed=False)
    except EntryStopped as stop:
        say("")
        say("Saved. Run `presstime enter --draft %s` to continue." % key)
        return stop.status
    if not _finished(result, key, "--draft " + key, say):
        return 0

    game_id = store_finished(store, record, key, result)
    say("")
    say(standings_text(result, record).rstrip("\n"))
    say("Stored as game #%d (presstime show %d)." % (game_id, game_id))
    return 0


def _stopped(say: Say, eof: bool, kept: bool) -> int:
    """What a stopped entry says (`kept`: a draft holds what was typed) and its exit status."""
    say("")
    if kept:
        say("Saved. Everything typed so far is kept: run `presstime enter` to continue.")
    else:
        say("Stopped before the game's set-up was complete: nothing was kept.")
    return EntryStopped(eof).status


def _waiting_words(keys: list[str]) -> str:
    return "%d draft%s of games a board played %s waiting (%s)" % (
        len(keys),
        "" if len(keys) == 1 else "s",
        "is" if len(keys) == 1 else "are",
        ", ".join(keys),
    )


def wrap(text: str, indent: str = "  ") -> list[str]:
    """`text` as lines that fit 80 columns, broken between words only."""
    import textwrap

    return textwrap.wrap(
        text, 79, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )
