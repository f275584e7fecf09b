# SPDX-License-Identifier: MIT
"""Myth Fits (RULES.md §4, seed 004): 2 to 4 players, turn by turn, no points.

Record:
    {"game": "myth-fits", "players": ["Ada", "Ben", "Cy"],
     "photo_tokens": {"Ada": 3, "Ben": 1}, "gathered": null}

The winner is the player named in `gathered` (three creatures connected), or else the one
holding the photo-token target for the player count (3, 4, 5 tokens for 2, 3, 4 players).
Nobody yet: no winner, the game is not complete. Players left out of `photo_tokens` hold none.
A player's `total` is their photo tokens. The set-up facts (grid, photographers) depend on the
player count and come with the result.
"""

from .record_checks import checked_names, count, is_int, per_player, player_names, show, top_keys

GAME = "myth-fits"
TITLE = "Myth Fits"
MIN_PLAYERS = 2
MAX_PLAYERS = 4
PHOTO_TOKENS = 20

# players: (grid columns, grid rows, photographers, photo tokens to win)
SETUPS = {2: (4, 4, 2, 3), 3: (6, 4, 3, 4), 4: (6, 6, 4, 5)}


# the face (core/games.py): one game of turns, won by a photo-token target or a gathering
MODES = ("turns",)
ROUND_WORD = "game"
STEPS = 0
STEP_WORD = None
STEPS_LEFT = False


def players(mode):
    return MIN_PLAYERS, MAX_PLAYERS


def rounds_in(mode):
    return 1


def round_name(mode, i):
    return None


def target(n):
    """The photo tokens that win with n players (0 outside 2..4)."""
    facts = SETUPS.get(n)
    return facts[3] if facts else 0


def fields(record, i):
    """Who gathered the three creatures, asked at the end (i None) unless a player's photo
    tokens (counted by the board) already reached the target."""
    if i is not None:
        return []
    tokens = record.get("photo_tokens")
    goal = target(len(record.get("players") or ()))
    if goal and isinstance(tokens, dict):
        for name in tokens:
            if tokens[name] == goal:
                return []
    return [(("gathered",), "player", "who gathered the three creatures? (name or seat; Enter: nobody)")]


def setup_facts(n):
    """(columns, rows, photographers, target) for n players, or None outside 2..4."""
    return SETUPS.get(n)


def setup_lines(n):
    facts = SETUPS.get(n)
    if facts is None:
        return []
    cols, rows, photographers, target = facts
    lines = ["grid: %dx%d (%d tile places)" % (cols, rows, cols * rows),
             "photographers: %d" % photographers,
             "photo tokens to win: %d" % target]
    if n == 3:
        lines.append("first player: blue")
    return lines


def check(record):
    errors = []
    if not isinstance(record, dict):
        return ["record: must be a JSON object"]
    top_keys(record, ("players", "photo_tokens", "gathered"), errors)
    names = player_names(record, TITLE, MIN_PLAYERS, MAX_PLAYERS, errors)
    facts = SETUPS.get(len(names))
    target = facts[3] if facts else None
    holders = []
    tokens = record.get("photo_tokens")
    if tokens is not None:
        in_all = 0
        for name, value in per_player(tokens, "photo_tokens", names, errors, False):
            where = "photo_tokens, player %s" % name
            if target is not None and is_int(value) and value > target:
                errors.append("%s: must be 0 to %d, the photo tokens that win with %d players (got %d)"
                              % (where, target, len(names), value))
            elif count(value, where, 0, target, errors):
                in_all += value
                if value == target:
                    holders.append(name)
        if in_all > PHOTO_TOKENS:
            errors.append("photo_tokens: %d in all, the game has %d" % (in_all, PHOTO_TOKENS))
        if len(holders) > 1:
            errors.append("photo_tokens: %s each hold the target %d, but the game ends when the first reaches it"
                          % (" and ".join(holders), target))
    gathered = record.get("gathered")
    if gathered is not None:
        if not isinstance(gathered, str):
            errors.append("gathered: must be a player's name or null (got %s)" % show(gathered))
        elif gathered not in names:
            errors.append("gathered: %s is not in players" % gathered)
        else:
            for name in holders:
                if name != gathered:
                    errors.append("gathered: %s gathered while %s holds the photo-token target %d: "
                                  "the game ends at the first of these" % (gathered, name, target))
    return errors


def score(record):
    names = checked_names(record, check, TITLE, MIN_PLAYERS, MAX_PLAYERS)
    cols, rows, photographers, target = SETUPS[len(names)]
    tokens = record.get("photo_tokens") or {}
    gathered = record.get("gathered")
    players = []
    winners = []
    won_by = None
    for name in names:
        held = tokens.get(name, 0)
        players.append({"name": name, "total": held, "photo_tokens": held,
                        "gathered": name == gathered})
    if gathered is not None:
        winners = [gathered]
        won_by = "gathered"
    else:
        for p in players:
            if p["photo_tokens"] == target:
                winners = [p["name"]]
                won_by = "photos"
    result = {"game": GAME, "title": TITLE, "players": players, "winners": winners,
              "complete": won_by is not None, "won_by": won_by, "grid": "%dx%d" % (cols, rows),
              "tile_places": cols * rows, "photographers": photographers, "target": target,
              "columns": ["photo_tokens", "gathered"], "setup": setup_lines(len(names))}
    if won_by is None:
        result["pending"] = ("No winner yet: nobody has gathered three creatures or holds %d photo tokens."
                             % target)
    return result
