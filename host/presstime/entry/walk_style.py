"""How the entry engine (entry/engine.py) walks a game's questions where games differ: each
game's desktop face says it as data, its ENTRY_STYLE (games/common.py holds the default, the
questions in order; a face whose rounds each have a set-up walks them round by round).

Every field is what the user sees or can do; the walk itself is one (engine.py Entry).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WalkStyle:
    """What differs between games in how their numbers are typed.

    help:              what `?` says at a question
    intro:             said before the first question of a game typed whole (`enter`), with
                       {title} (the game's) and {round} (", `round N`" when it has rounds); None
    title_in_prompt:   each prompt starts with the game's title ("Heat · money: ")
    by_round:          the rounds are walked one at a time, each under a "-- round 1 --" line, its
                       set-up first (a face's ROUND_SETUP); `fix NAME` re-asks the player in the
                       round at hand, `round N` goes through the round's set-up again, and a round
                       is made (its day, its players) before any answer of it is set
    scores_as_typed:   each player's round score is shown after their last number of a round, the
                       round's scores after it, the standings after each part (the scorepad) and
                       once the game is stored (its review does not show them)
    untyped_as_zero:   an answer is checked (and `show` scores) with the numbers of its round not
                       typed yet counted as 0, so each problem is said as the number is typed
    check_kept:        a value kept with Enter is checked by the core again (else taken as is)
    loose_commands:    `fix`, `round` and `show` are taken as commands whatever follows them
                       (refused when what follows is wrong); else `fix`/`round` need a word after
                       them and `show` none
    review_standings:  the end of a typed game shows the standings and Enter stores it (else only
                       `done` does, the core's problems said there)
    review_at_close:   the end of a game not typed whole (play, the scorepad, a board's draft)
                       goes through that review too (else: the core's result, every question asked
                       again while it refuses the record)
    first_question:    said for `back` at a walk's first question
    first_in_command:  said for `back` at the first question of `fix NAME` or `round N` (None:
                       nothing, the question is asked again)
    fix_start:         said before `fix NAME`'s questions ({name}, {round}: the round at hand)
    round_again:       said before `round N`'s questions ({round}: "round 2")
    fix_done:          said after `fix NAME`'s questions (None: nothing)
    round_done:        said after `round N`'s questions ({here}: the round at hand)
    """

    help: str
    intro: str | None = None
    title_in_prompt: bool = True
    by_round: bool = False
    scores_as_typed: bool = False
    untyped_as_zero: bool = False
    check_kept: bool = True
    loose_commands: bool = False
    review_standings: bool = True
    review_at_close: bool = False
    first_question: str = "  this is the first question"
    first_in_command: str | None = None
    fix_start: str = "  {name}'s answers again (Enter keeps a value)"
    round_again: str = "  {round} again (Enter keeps a value)"
    fix_done: str | None = "  done; back to where you were"
    round_done: str = "  done; back to where you were"
