# SPDX-License-Identifier: MIT
"""Fit to Print's face (core/games.py lists what a face declares): the game the board was made
for, in five modes, three days (one round in puzzle and turn-based), up to six players.

This file holds what the round machine reads on a board (modes, players, rounds, days, steps,
target); every other name of the face (title and words, editions, characters, effects,
`fields`, `check`, `score`) is fit_to_print_score.py's, loaded the first time one is asked
for, so a board that runs the round machine never loads the scoring.
"""

MIN_PLAYERS = 1
MAX_PLAYERS = 6
MODES = ("standard", "solo", "puzzle", "family", "turn-based")
DAYS = ("friday", "saturday", "sunday")
STEPS = 0


def players(mode):
    """(fewest, most) players of a mode."""
    if mode == "solo":
        return 1, 1
    if mode in ("family", "turn-based"):
        return 2, MAX_PLAYERS
    return MIN_PLAYERS, MAX_PLAYERS


def rounds_in(mode):
    """How many rounds a complete game of this mode has."""
    return 1 if mode in ("puzzle", "turn-based") else 3


def round_name(mode, i):
    """The day of round i (0-based) in `mode`: None in puzzle, Saturday in turn-based."""
    if mode == "puzzle":
        return None
    if mode == "turn-based":
        return "saturday"
    return DAYS[i] if i < 3 else DAYS[2]


def target(n):
    return 0


def __getattr__(name):
    """The rest of the face (fit_to_print_score.py), loaded when first asked for."""
    from . import fit_to_print_score
    return getattr(fit_to_print_score, name)
