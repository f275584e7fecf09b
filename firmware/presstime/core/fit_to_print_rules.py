# SPDX-License-Identifier: MIT
"""Fit to Print's facts: its modes, days, words, scorepad lines and plausibility bounds.

The bottom of Fit to Print's modules: the face (fit_to_print.py), the checks
(fit_to_print_check.py) and the scoring (fit_to_print_score.py) all read this file, and it
reads none of them, so no two of them import each other. Pure, MicroPython-safe.
"""

MODES = ("standard", "solo", "puzzle", "family", "turn-based")
EDITIONS = ("published", "draft")
DAYS = ("friday", "saturday", "sunday")
CHARACTERS = ("wilbur", "danae", "renaud", "benoit", "ursule", "jazz")
EFFECTS = ("mood-doubled", "white-space-best", "most-tiles-ads")
CATEGORIES = ("articles", "photos", "centerpiece", "white_space", "smiles", "frowns", "unplaced", "ads")

# Named rule options and their defaults.
# white_space_all_tie: what every player gets when all largest areas tie:
#   "smallest" (+3, the project's decision), "neither" (+1) or "largest" (-1).
OPTIONS = {"white_space_all_tie": ("smallest", "neither", "largest")}
DEFAULT_OPTIONS = {"white_space_all_tie": "smallest"}

# Plausibility bounds of the scorepad inputs (the checks, not the rules).
MAX_COUNT = 99          # articles, photos, smiles, frowns, unplaced, ads, tiles
MAX_SQUARES = 64        # white_space: a front page has fewer squares than this
CENTERPIECE_MIN = -10
CENTERPIECE_MAX = 20
MIN_PLAYERS = 1
MAX_PLAYERS = 6
MOST_TILES_DEFAULT = 4

# The scorepad's lines, in the order of the scorepad, and the words that ask them.
LABELS = (
    ("articles", "articles (sum of article values)"),
    ("photos", "photos (points earned)"),
    ("centerpiece", "centerpiece (its value, may be negative)"),
    ("white_space", "largest white space (squares)"),
    ("smiles", "smiley faces"),
    ("frowns", "frowny faces"),
    ("unplaced", "tiles left on the desk"),
    ("ads", "ad revenue ($ on placed ads)"),
    ("tiles", "tiles on the front page"),
    ("unplaced_ads", "ads left unplaced"),
)


def rounds_in(mode):
    """How many rounds a complete game of this mode has."""
    return 1 if mode in ("puzzle", "turn-based") else 3


def days_of(mode):
    if mode == "turn-based":
        return ("saturday",)
    if mode == "puzzle":
        return (None,)
    return DAYS


def players(mode):
    """(fewest, most) players of a mode."""
    if mode == "solo":
        return 1, 1
    if mode in ("family", "turn-based"):
        return 2, MAX_PLAYERS
    return MIN_PLAYERS, MAX_PLAYERS


def play_mode(record):
    """The mode the rules play a record in: one player in a standard game plays by the solo
    rules (a decision, RULES.md)."""
    mode = record.get("mode", "standard")
    if mode == "standard" and len(record.get("players") or ()) == 1:
        return "solo"
    return mode


def player(entry):
    """(name, character) of a players[] entry: a name or {"name", "character"}."""
    if isinstance(entry, dict):
        return entry.get("name"), entry.get("character")
    return entry, None


def is_int(v):
    return type(v) is int


def takes_news(mode):
    """Breaking News cards score in this mode."""
    return mode not in ("turn-based", "family", "puzzle")


def takes_finish(mode):
    """Finishing tokens are handed out in this mode."""
    return mode not in ("family", "puzzle")


def compares_white_space(mode):
    """White space is compared between the players (not a table lookup)."""
    return mode in ("standard", "turn-based")


def round_fields(mode, news):
    """The scorepad lines a round of `mode` needs, in scorepad order; `news`: its good cards."""
    if mode == "family":
        fields = ["articles", "photos", "unplaced", "ads"]
    elif mode == "puzzle":
        fields = ["articles", "photos", "centerpiece", "white_space", "smiles", "frowns", "unplaced_ads"]
    else:
        fields = list(CATEGORIES)
    for card in news:
        if card.get("effect") == "most-tiles-ads":
            fields.append("tiles")
    return fields


def good_card(card, mode):
    """Does this Breaking News card count (a known effect, a good value, a mode that uses it)?"""
    if not isinstance(card, dict) or card.get("effect") not in EFFECTS or not takes_news(mode):
        return False
    value = card.get("value")
    if card["effect"] == "white-space-best":
        return is_int(value)
    if card["effect"] == "most-tiles-ads":
        return value is None or (is_int(value) and value >= 0)
    return True
