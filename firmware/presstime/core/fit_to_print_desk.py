# SPDX-License-Identifier: MIT
"""The desktop's half of Fit to Print's face: its words, editions, characters and Breaking News
effects, the scorepad's questions, the checks and the scoring (core/games.py lists the face).

fit_to_print.py is the half the round machine reads on a board; it hands every other name of
the face over to this file when first asked for, so a board never loads it. The checks and the
scoring are imported only when called, and take the face (from the registry, core/games.py)
as an argument: none of these files imports another that imports it back.
"""

from .games import module

GAME = "fit-to-print"
TITLE = "Fit to Print"
EDITIONS = ("published", "draft")
CHARACTERS = ("wilbur", "danae", "renaud", "benoit", "ursule", "jazz")
EFFECTS = ("mood-doubled", "white-space-best", "most-tiles-ads")
ROUND_WORD = "round"
STEP_WORD = None
STEPS_LEFT = False


def setup_lines(n):
    return []


def fields(record, i):
    """The scorepad's questions of round i in the order they are asked (fit_to_print_check)."""
    from .fit_to_print_check import fields as round_questions
    return round_questions(record, i, module(GAME))


def check(record):
    """Every problem of the record, as messages naming the place. Empty: the record is good."""
    from .fit_to_print_check import check as check_record
    return check_record(record, module(GAME))


def score(record):
    """Standings of a checked record: see docs/game-format.md for the result's fields."""
    from .fit_to_print_score import score as score_record
    return score_record(record, module(GAME))
