# SPDX-License-Identifier: MIT
"""Mini FITS scoring (RULES.md §2, seed 001): two rounds, 1 to 4 players.

Record:
    {"game": "mini-fits", "players": ["Ada", "Ben"],
     "rounds": [{"players": {"Ada": {"lines": 7}, "Ben": {"lines": 5}}},
                {"players": {"Ada": {"lines": 8, "colour_sets": 2}, "Ben": {...}}}]}

Round 1: 1 point per complete line (0 to 10). Round 2: the same, plus 3 points per colour whose
three symbols are all visible (`colour_sets`, 0 to 3). Total = both rounds; the highest wins and
ties share. Fewer than two rounds: standings so far, no winner. One player: no winner, a `rating`
(the solo tier) instead.
"""

from .record_checks import checked_names, best, count, known_keys, per_player, player_names, show, top_keys

GAME = "mini-fits"
TITLE = "Mini FITS"
MIN_PLAYERS = 1
MAX_PLAYERS = 4
ROUNDS = 2
MAX_LINES = 10
MAX_COLOUR_SETS = 3
COLOUR_SET_POINTS = 3
STARTING_CARDS = 4
PIECE_CARDS = 13

# Solo tiers, highest first: (lowest total for the tier, name).
TIERS = ((17, "Magni-fits"), (14, "Pro-fits"), (11, "Béné-fits"),
         (8, "Justi-fits"), (5, "Malé-fits"), (0, "Néo-fits"))

# the face (core/games.py): two rounds of 13 piece cards, each card revealed at once
MODES = ("ready-reveal",)
ROUND_WORD = "round"
STEPS = PIECE_CARDS
STEP_WORD = "card"
STEPS_LEFT = True     # the table shows how many cards are left to draw
LABELS = (("lines", "complete lines"), ("colour_sets", "colour sets (all 3 symbols visible)"))


def players(mode):
    return MIN_PLAYERS, MAX_PLAYERS


def rounds_in(mode):
    return ROUNDS


def round_name(mode, i):
    return None


def target(n):
    return 0


def setup_lines(n):
    return []


def round_lines(number):
    """The scorepad lines of round `number` (1-based): colour sets score in round 2 only."""
    return ("lines",) if number == 1 else ("lines", "colour_sets")


def fields(record, i):
    """Each player's lines of round i (and colour sets from round 2), player by player."""
    if i is None:
        return []
    words = dict(LABELS)
    out = []
    for name in player_names(record, TITLE, MIN_PLAYERS, MAX_PLAYERS, []):
        for f in round_lines(i + 1):
            out.append((("rounds", i, "players", name, f), "int", words[f]))
    return out


SETUP = [
    "rounds: 2 (board side 1, then side 2; colour sets score in round 2)",
    "cards: %d starting cards, %d piece cards" % (STARTING_CARDS, PIECE_CARDS),
]


def rating(total):
    """The solo tier name for a two-round total."""
    for lowest, name in TIERS:
        if total >= lowest:
            return name
    return TIERS[-1][1]


def check(record):
    errors = []
    if not isinstance(record, dict):
        return ["record: must be a JSON object"]
    top_keys(record, ("players", "rounds"), errors)
    names = player_names(record, TITLE, MIN_PLAYERS, MAX_PLAYERS, errors)
    rounds = record.get("rounds", [])
    if not isinstance(rounds, list):
        errors.append("rounds: must be a list of rounds (got %s)" % show(rounds))
        return errors
    if len(rounds) > ROUNDS:
        errors.append("rounds: %s has %d rounds (got %d)" % (TITLE, ROUNDS, len(rounds)))
    number = 0
    for rnd in rounds:
        number += 1
        here = "round %d" % number
        if not isinstance(rnd, dict):
            errors.append("%s: must be an object with \"players\"" % here)
            continue
        known_keys(rnd, here, ("players",), errors)
        if "players" not in rnd:
            errors.append("%s, field players: missing" % here)
            continue
        fields = round_lines(number)
        for name, entry in per_player(rnd["players"], here, names, errors, True):
            where = "%s, player %s" % (here, name)
            if not isinstance(entry, dict):
                errors.append("%s: must be an object like {\"lines\": 7}" % where)
                continue
            if number == 1 and "colour_sets" in entry:
                if entry["colour_sets"] != 0:
                    errors.append("%s, field colour_sets: colour sets score in round 2 only" % where)
                fields_here = ("lines", "colour_sets")
            else:
                fields_here = fields
            known_keys(entry, where, fields_here, errors)
            for field in fields:
                place = "%s, field %s" % (where, field)
                if field not in entry:
                    errors.append("%s: missing" % place)
                elif field == "lines":
                    count(entry[field], place, 0, MAX_LINES, errors)
                else:
                    count(entry[field], place, 0, MAX_COLOUR_SETS, errors)
    return errors


def score(record):
    names = checked_names(record, check, TITLE, MIN_PLAYERS, MAX_PLAYERS)
    rounds = record.get("rounds", [])
    players = []
    for name in names:
        per_round = []
        total = 0
        number = 0
        for rnd in rounds:
            number += 1
            entry = rnd["players"][name]
            lines = entry["lines"]
            sets = 0
            if number > 1:
                sets = entry["colour_sets"]
            points = lines + sets * COLOUR_SET_POINTS
            total += points
            per_round.append({"lines": lines, "colour_sets": sets, "score": points})
        players.append({"name": name, "total": total, "rounds": per_round})
    complete = len(rounds) == ROUNDS
    columns = []
    for number in range(1, len(rounds) + 1):
        columns.append("round %d" % number)
    for p in players:
        number = 0
        for r in p["rounds"]:
            number += 1
            p["round %d" % number] = r["score"]
    result = {"game": GAME, "title": TITLE, "players": players, "winners": [], "complete": complete,
              "rounds_played": len(rounds), "rounds_in_game": ROUNDS, "columns": columns,
              "setup": list(SETUP)}
    if len(players) == 1:
        columns.append("rating")
        p = players[0]
        p["rating"] = rating(p["total"]) if complete else None
        if complete:
            result["no_winner"] = "Solo game: the rating is the result (%s, %d points)." % (p["rating"], p["total"])
    elif complete:
        result["winners"] = best(players, "total")
    return result
