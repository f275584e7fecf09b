# SPDX-License-Identifier: MIT
"""The games the core knows: one list, and each game's face.

GAMES is the one list of games, in wire order: a game's index in it is what the journal's
CONFIG event and the wire carry (core/events.py), so it is append-only: a new game goes at the
end, nothing is ever removed or moved. The first is the default of a record without "game".

Each game is one module, core/<name with - as _>.py, imported only when asked for (`module`),
so a board loads only what it plays. Every game module declares the same face, which the round
machine, the codec, the desktop's entry, mirror, stats, sync, play and the CLI read (nothing
else keeps a copy of what a game is; docs/adding-a-game.md walks through adding one):

    GAME                 its name, as in GAMES
    TITLE                how people write it ("Mini FITS")
    MIN_PLAYERS, MAX_PLAYERS
    MODES                the round machine's modes it is played in (core/table.py), the first
                         its default; for Fit to Print also the record's "mode" words
    players(mode)        -> (fewest, most) players in that mode
    rounds_in(mode)      -> the rounds of a complete game in that mode
    ROUND_WORD           what one round is called at the table ("round", "heist", "game")
    round_name(mode, i)  -> the name of round i (0-based; Fit to Print's days), or None
    STEPS, STEP_WORD     reveals per round in the ready-reveal mode and what one is called
                         ("stage", "card"); 0 and None for a game without
    STEPS_LEFT           True: the table shows how many steps are left (a draw pile)
    target(players)      -> the photo tokens that win (turns mode), 0 for none
    setup_lines(players) -> the set-up facts to read out before playing ([] for none)
    fields(record, i)    -> what the scorepad asks for round i (None: the game's end numbers),
                         in the order it is asked: a list of (path, kind, label); path is the
                         place in the record (names and indexes, e.g. ("rounds", 0, "players",
                         "Ada", "lines")), kind "int", "yes/no" or "player", label the words
    setup_fields(record, i)  (optional) -> a round's own set-up that the board asks before
                         `fields` (core/entry.questions) and the desktop's `enter` asks in the
                         face's ROUND_SETUP: Fit to Print's Breaking News card; a kind may be
                         a choice, a tuple (words, answer(v), number(value)) (core/entry.py)
    check(record)        -> [message naming the place of each problem], [] when good
    score(record)        -> the standings of a record `check` found good

tests/test_game_faces.py holds every game module to this list.
"""

import gc
import sys

GAMES = ("fit-to-print", "heat", "mini-fits", "myth-fits")

def module(game):
    """The face (module) of `game`, imported now if it was not yet; None for an unknown game."""
    if game not in GAMES:
        return None
    name = "presstime.core." + game.replace("-", "_")
    if name not in sys.modules:
        # On a board the face's bytecode wants room when it loads, after the boot's imports left
        # their garbage: collect first (once per game: a loaded face is only looked up).
        gc.collect()
    return __import__(name, None, None, ("GAME",))


def game_of(record):
    return record.get("game", GAMES[0]) if isinstance(record, dict) else None


def playing(mode):
    """The first game (in GAMES order) played in the round machine's `mode`, or None."""
    for game in GAMES:
        if mode in module(game).MODES:
            return game
    return None


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
