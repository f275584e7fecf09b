"""presstime enter: type in a game's scorepad round by round, resumable after the terminal closes.

Everything accepted is saved at once as a draft in the history database; the finished game is
stored there as a game (see `presstime history`). Input that ends early (Ctrl-D, a closed
terminal) keeps the draft and exits with status 1; `quit` keeps it and exits with status 0;
running `presstime enter` again resumes where it stopped.
"""

EXAMPLE = """examples:
  presstime enter              start a game (or resume the one in progress)
  presstime enter --resume     resume the game in progress, without asking
  presstime enter --new        drop the game in progress and start a new one
  presstime enter --list       the drafts waiting for numbers (from `play` or `sync` too)
  presstime enter --draft board:sim-16b6de1f:12   finish a game a board played
  presstime enter --scorepad --bind lan   every player types their own numbers on their phone

At any question: `?` help, `back`, `fix NAME`, `round N`, `show`, `quit`."""

DRAFT_KEY = "enter"


def configure(parser):
    from ..store import add_db_argument

    group = parser.add_mutually_exclusive_group()
    group.add_argument("--resume", action="store_true", help="resume the game in progress (error if there is none)")
    group.add_argument("--new", action="store_true", help="discard the game in progress and start a new one")
    group.add_argument("--draft", metavar="KEY",
                       help="finish a draft saved by `presstime play` or `sync` (keys: --list)")
    group.add_argument("--list", action="store_true", help="list the drafts waiting for numbers")
    from ..scorepad.options import add_arguments as add_scorepad_arguments

    add_scorepad_arguments(parser)
    add_db_argument(parser)


def _summary(record):
    from ..entry import player_names

    names = ", ".join(player_names(record)) or "no players yet"
    kind = record.get("mode") or record.get("game", "standard")
    if "rounds" not in record:
        return "%s game, %s" % (kind, names)
    rounds = len(record["rounds"])
    return "%s game, %s; %d round%s started" % (kind, names, rounds, "" if rounds == 1 else "s")


def _echoing_input(prompt):
    """input() that echoes the answer when stdin is not a terminal, so a piped session reads well."""
    import sys

    line = input(prompt)
    if not sys.stdin.isatty():
        print(line)
    return line


def run(args, ask=_echoing_input, say=print):
    from .. import store as store_mod
    from ..entry import EntryStopped, ScoreEntry, ask_setup
    from ..errors import BadInput
    from ..report import standings_text

    if getattr(args, "scorepad", False):
        from ..scorepad.options import resolve_bind

        args.bind = resolve_bind(args.bind)      # a wrong address is refused before the game
    with store_mod.open_store(args) as store:
        if getattr(args, "list", False):
            return _list_drafts(store, say)
        if getattr(args, "draft", None):
            return _finish_board_draft(store, args.draft, ask, say, args)
        draft = store.load_draft(DRAFT_KEY)
        if args.resume and draft is None:
            raise BadInput("no game in progress to resume (start one with `presstime enter`)")
        if draft is not None and args.new:
            store.drop_draft(DRAFT_KEY)
            draft = None
        if draft is not None and not args.resume:
            say("A game is in progress: %s." % _summary(draft))
            try:
                answer = ask("Resume it? [Y/n] (n discards it): ").strip().lower()
            except EOFError:
                return _stopped(say, True)
            if answer in ("n", "no"):
                store.drop_draft(DRAFT_KEY)
                draft = None
        save = lambda record: store.save_draft(DRAFT_KEY, record)  # noqa: E731
        try:
            if draft is None:
                record = ask_setup(ask, say, save=save)
            elif "rounds" not in draft:  # stopped during the set-up
                say("Resuming the set-up.")
                record = ask_setup(ask, say, record=draft, save=save)
            else:
                record = draft
                say("Resuming: %s." % _summary(record))
            if getattr(args, "scorepad", False):
                from ..scorepad.table import enter_with_phones

                enter_with_phones(record, save, args, ask, say)
            else:
                ScoreEntry(record, save, ask=ask, say=say).enter_game()
        except EntryStopped as stop:
            return _stopped(say, stop.eof)
        except KeyboardInterrupt:
            _stopped(say, True)
            return 130
        game_id = store.add_game(record, "enter")
        store.drop_draft(DRAFT_KEY)
        result = _tally(record)
    say("")
    say(standings_text(result).rstrip("\n"))
    say("Stored as game #%d (presstime show %d)." % (game_id, game_id))
    return 0


def _list_drafts(store, say):
    drafts = store.list_drafts()
    if not drafts:
        say("No drafts: every game is finished.")
    for d in drafts:
        record = store.load_draft(d["key"]) or {}
        say("%-28s saved %s  %s: %s" % (d["key"], d["saved_at"], record.get("game", "fit-to-print"),
                                         _summary(record)))
    return 0


def _finish_board_draft(store, key, ask, say, args=None):
    """Type the numbers a board's game is waiting for (a draft of `play` or `sync`), then store
    it under the same key, so a later `presstime sync` updates that game instead of adding one."""
    from ..entry import EntryStopped, ScoreEntry
    from ..errors import BadInput
    from ..game_entry import GameEntry
    from ..report import standings_text

    record = store.load_draft(key)
    if record is None:
        raise BadInput("--draft %s: no such draft (see `presstime enter --list`)" % key)
    save = lambda r: store.save_draft(key, r)  # noqa: E731
    say("Finishing %s: %s." % (key, _summary(record)))
    try:
        if getattr(args, "scorepad", False):
            from ..scorepad.table import enter_with_phones

            enter_with_phones(record, save, args, ask, say)
        elif record.get("game", "fit-to-print") == "fit-to-print":
            ScoreEntry(record, save, ask=ask, say=say).enter_game()
        else:
            entry = GameEntry(record, save, ask=ask, say=say)
            entry.enter()
            entry.finish()
    except EntryStopped as stop:
        say("")
        say("Saved. Run `presstime enter --draft %s` to continue." % key)
        return 1 if stop.eof else 0
    game_id = store.add_game(record, key)
    store.drop_draft(key)
    say("")
    say(standings_text(_tally(record)).rstrip("\n"))
    say("Stored as game #%d (presstime show %d)." % (game_id, game_id))
    return 0


def _tally(record):
    from ..records import tally

    return tally(record)


def _stopped(say, eof):
    say("")
    say("Saved. Everything typed so far is kept: run `presstime enter` to continue.")
    return 1 if eof else 0
