"""The commands the entry engine (entry/engine.py) takes at a question besides an answer, and
the end of a typed game (its review): `?`, `back`, `fix NAME`, `round N`, `show`, `quit`, `done`.
What they say and how far they reach is the game's face's (its ENTRY_STYLE, walk_style.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime import records
from presstime.entry import score_lines
from presstime.entry.answers import EntryStopped, is_number, refused
from presstime.errors import BadInput
from presstime.report import standings_text

if TYPE_CHECKING:
    from presstime.entry.walker import Walker
    from presstime.hints import Result

Command = tuple[Any, ...]

HELP_WORDS = ("?", "help", "h")
QUIT_WORDS = ("quit", "q")
BACK_WORDS = ("back", "b")
DONE_WORDS = ("done", "d", "y", "yes")
# the commands a round's set-up questions take besides their answers (and ? for help)
SETUP_COMMANDS = ("back", "b", "quit", "q", "show", "fix", "round")


def parse(entry: Walker, text: str) -> Command | None:
    """("help",) / ("quit",) / ("back",) / ("show",) / ("fix", name) / ("round", index) for a
    command typed at a question, ("none",) for one refused here (said why), None for an answer."""
    words = text.split()
    word = words[0].lower() if words else ""
    arg = " ".join(words[1:])
    loose = entry.style.loose_commands
    if word in HELP_WORDS and (loose or not arg):
        return ("help",)
    if word in QUIT_WORDS and (loose or not arg):
        return ("quit",)
    if word in BACK_WORDS and (loose or not arg):
        return ("back",)
    if word == "show" and (loose or not arg):
        return ("show",)
    if word == "fix" and (loose or arg):
        name = entry.find_player(arg)
        return ("none",) if name is None else ("fix", name)
    if word == "round" and (loose or (arg and entry.has_rounds())):
        done = len(entry.record.get("rounds") or [])
        if is_number(arg) and 1 <= int(arg) <= done:
            return ("round", int(arg) - 1)
        entry.say(refused("  round N: N is a round already started, 1 to %d" % done))
        return ("none",)
    return None


def run(entry: Walker, command: Command, part: int | None) -> None:
    """Run `?`, `quit`, `show`, `fix NAME` or `round N` typed while part `part` is asked: the
    questions concerned asked again (Enter keeps each value). `back` is the walk's own."""
    style = entry.style
    what = command[0]
    if what == "help":
        entry.say(style.help)
    elif what == "quit":
        raise EntryStopped()
    elif what == "show":
        if style.untyped_as_zero:
            score_lines.show_so_far(entry)
        else:
            score_lines.show_standings(entry)
    elif what == "fix":
        name = command[1]
        scope = part if style.by_round else None
        entry.say(style.fix_start.format(name=name, round=entry.part_title(scope)))
        entry.ask_again([s for s in entry.steps(scope) if name in s.path], scope)
        if style.fix_done is not None:
            entry.say(style.fix_done)
    elif what == "round":
        ri = command[1]
        entry.say(style.round_again.format(round=entry.round_title(ri)))
        if style.by_round:
            entry.enter_round(ri, review=True)
        else:
            entry.ask_again([s for s in entry.steps() if s.path[:2] == ("rounds", ri)], ri)
        entry.say(style.round_done.format(here=entry.part_title(part)))


def review(entry: Walker) -> Result:
    """Every question answered: last chance to correct before the game is stored. Returns the
    core's result."""
    return with_standings(entry) if entry.style.review_standings else until_done(entry)


def with_standings(entry: Walker) -> Result:
    """The standings, then `done` (or Enter) stores; `fix NAME`, `round N`, `back` (the last
    question again, and back from there) correct first."""
    while True:
        result = entry.finish()
        entry.say("")
        entry.say(standings_text(result).rstrip("\n"))
        entry.say(
            "Type `done` (or Enter) to store the game, or `fix NAME`%s, `back`, `?`."
            % (" / `round N`" if entry.has_rounds() else "")
        )
        answer = entry.read("done? ").strip()
        word = answer.lower()
        if word == "" or word in DONE_WORDS:
            return result
        command = parse(entry, answer)
        if command is None:
            entry.say(refused("  %r is not a command (? for help)" % answer))
        elif command[0] == "back":
            entry.enter(review=True, last=True)
        elif command[0] not in ("show", "none"):  # the standings are shown again anyway
            run(entry, command, None)


def until_done(entry: Walker) -> Result:
    """`done` checks the whole game with the core and returns its result; `round N`, `fix NAME`
    (the last round's player), `show` first."""
    entry.say("All rounds are in. Type `done` to finish, or `round N` / `fix NAME` / `show` / `?`.")
    while True:
        answer = entry.read("done? ")
        if answer.strip().lower() in DONE_WORDS:
            try:
                return records.tally(entry.record)
            except BadInput as e:
                for m in e.messages:
                    entry.say(refused("  problem: " + m))
                entry.say("Correct it with `round N` or `fix NAME`.")
                continue
        last = len(entry.record["rounds"]) - 1
        command = parse(entry, answer.strip())
        if command is None:
            entry.say(refused("  %r is not a number or a command (? for help)" % answer.strip()))
        elif command[0] == "back":
            entry.say(
                "  `round N` goes through a round again; `fix NAME` re-enters a player of the last "
                "round"
            )
        elif command[0] != "none":
            run(entry, command, last)


def at_setup(entry: Walker, answer: str, ri: int, back: Any = None) -> bool:
    """A command typed at one of a round's set-up questions (its face's ROUND_SETUP): True when
    it was one and has run (`back` through `back()`, `fix NAME` on the last round with numbers),
    False when the answer is an answer."""
    words = answer.strip().split()
    word = words[0].lower() if words else ""
    if word not in SETUP_COMMANDS:
        return False
    if word in BACK_WORDS:
        if back is None:
            entry.say(
                "  this is the round's first question; `round N` goes through an earlier round "
                "again"
            )
        else:
            back()
        return True
    if word == "fix" and ri == 0:
        entry.say(
            refused("  fix NAME: no player has numbers yet; this round's come after this question")
        )
        return True
    command = parse(entry, answer.strip())
    if command is not None and command[0] != "none":
        run(entry, command, ri - 1 if word == "fix" else ri)
    return True
