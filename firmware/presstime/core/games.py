# SPDX-License-Identifier: MIT
"""The games the core scores, dispatched on a record's "game" (default: fit-to-print).

Each game is one module with `check(record) -> [messages]` and `score(record) -> result`.
Modules are imported only when asked for, so a board carries and loads only what it plays.
"""

GAMES = ("fit-to-print", "mini-fits", "heat", "myth-fits")


def module(game):
    """The scoring module of `game`, or None if the core does not know it."""
    if game == "fit-to-print":
        from . import fit_to_print as m
    elif game == "mini-fits":
        from . import mini_fits as m
    elif game == "heat":
        from . import heat as m
    elif game == "myth-fits":
        from . import myth_fits as m
    else:
        return None
    return m


def game_of(record):
    return record.get("game", "fit-to-print") if isinstance(record, dict) else None


def check(record):
    """Every problem of the record, one message each naming the place; [] when it is good."""
    if not isinstance(record, dict):
        return ["the game record must be a JSON object"]
    game = game_of(record)
    m = module(game)
    if m is None:
        return ["game: unknown game %r (one of %s)" % (game, ", ".join(GAMES))]
    return m.check(record)


def score(record):
    """The standings of a record that `check` found good."""
    return module(game_of(record)).score(record)
