# SPDX-License-Identifier: MIT
"""Fit to Print's face (core/games.py lists what a face declares): the game the board was made
for, in five modes, three days (one round in puzzle and turn-based), up to six players.

Its facts live in fit_to_print_rules.py, its checks in fit_to_print_check.py and its scoring in
fit_to_print_score.py; `check` and `score` import them only when called, so a board that runs
the round machine loads only this file and the facts.
"""

from .fit_to_print_rules import (CHARACTERS, EDITIONS, EFFECTS, LABELS, MAX_PLAYERS,  # noqa: F401
                                 MIN_PLAYERS, MODES, compares_white_space, days_of, good_card,
                                 play_mode, player, players, round_fields, rounds_in)

GAME = "fit-to-print"
TITLE = "Fit to Print"
ROUND_WORD = "round"
STEPS = 0
STEP_WORD = None
STEPS_LEFT = False


def round_name(mode, i):
    """The day of round i (0-based) in `mode`, or None (puzzle)."""
    days = days_of(mode)
    return days[i] if i < len(days) else days[-1]


def target(n):
    return 0


def setup_lines(n):
    return []


def fields(record, i):
    """The scorepad's questions of round i in the order they are asked: [(path, "int", label)].

    Each player's lines of the mode (and the tile count of a "most tiles gain $" card), in
    scorepad order; where white space is compared at the table, every player's largest area
    (and tile count) comes first, so each player's round score shown afterwards is exact."""
    if i is None:
        return []
    mode = play_mode(record)
    rounds = record.get("rounds") or []
    rnd = rounds[i] if i < len(rounds) and isinstance(rounds[i], dict) else {}
    cards = rnd.get("breaking_news")
    news = [c for c in cards if good_card(c, mode)] if isinstance(cards, list) else []
    lines = []
    for f in round_fields(mode, news):
        if f not in lines:
            lines.append(f)
    first = [f for f in ("white_space", "tiles") if f in lines] if compares_white_space(mode) else []
    if "tiles" in lines and "tiles" not in first:
        first.append("tiles")
    rest = [f for f in lines if f not in first]
    names = [player(p)[0] for p in record.get("players") or []]
    words = dict(LABELS)
    out = []
    for f in first:
        for n in names:
            out.append((("rounds", i, "players", n, f), "int", words[f]))
    for n in names:
        for f in rest:
            out.append((("rounds", i, "players", n, f), "int", words[f]))
    return out


def check(record):
    """Every problem of the record, as messages naming the place. Empty: the record is good."""
    from .fit_to_print_check import check as check_record
    return check_record(record)


def score(record):
    """Standings of a checked record: see docs/game-format.md for the result's fields."""
    from .fit_to_print_score import score as score_record
    return score_record(record)
