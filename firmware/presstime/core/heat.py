# SPDX-License-Identifier: MIT
"""Heat scoring (RULES.md §3, seed 003): 3 to 5 players, three heists of four stages.

Record:
    {"game": "heat", "heat_value": 3, "players": ["Ada", "Ben", "Cy"],
     "final": {"Ada": {"money": 40, "heat": 3}, ...}, "arrested": false}

At the end each player pays heat × heat_value (the value of the worst completely empty row of
the heat board; the board prints it as "-$3", the record carries 3). Total = money − paid, which
may go below zero (money is not limited). The most wins; a tie goes to the least heat; a tie
still is shared. `arrested: true` (a B phase needing more than 15 heat) ends the game with no
winner; `final` and `heat_value` may then be left out.
"""

from .record_checks import checked_names, count, known_keys, per_player, player_names, show, top_keys

GAME = "heat"
TITLE = "Heat"
MIN_PLAYERS = 3
MAX_PLAYERS = 5
HEAT_TOKENS = 15
HEISTS = 3
STAGES = 4

# the face (core/games.py): three heists of four stages, revealed at once at the table
MODES = ("ready-reveal",)
ROUND_WORD = "heist"
STEPS = STAGES
STEP_WORD = "stage"
STEPS_LEFT = False


def players(mode):
    return MIN_PLAYERS, MAX_PLAYERS


def rounds_in(mode):
    return HEISTS


def round_name(mode, i):
    return None


def target(n):
    return 0


def setup_lines(n):
    return []


def fields(record, i):
    """What the board cannot know, asked once the heists are over (i None): everybody arrested?
    Then, unless so, the heat value and each player's money and heat."""
    if i is not None:
        return []
    out = [(("arrested",), "yes/no", "everybody arrested (a B phase needed more heat than the game has)? y/n")]
    if record.get("arrested") is not True:
        out.append((("heat_value",), "int", "heat value (the worst empty row: -$3 is 3)"))
        for name in player_names(record, TITLE, MIN_PLAYERS, MAX_PLAYERS, []):
            out.append((("final", name, "money"), "int", "money"))
            out.append((("final", name, "heat"), "int", "heat tokens"))
    return out


def check(record):
    errors = []
    if not isinstance(record, dict):
        return ["record: must be a JSON object"]
    top_keys(record, ("players", "heat_value", "final", "arrested"), errors)
    names = player_names(record, TITLE, MIN_PLAYERS, MAX_PLAYERS, errors)
    arrested = record.get("arrested", False)
    if arrested is not True and arrested is not False:
        errors.append("arrested: must be true or false (got %s)" % show(arrested))
        arrested = False
    has_final = "final" in record and record["final"] is not None
    if has_final or not arrested:
        if "heat_value" not in record:
            errors.append("heat_value: missing (the cost of one heat token, e.g. 3 for -$3)")
        else:
            value = record["heat_value"]
            if isinstance(value, int) and not isinstance(value, bool) and value < 0:
                errors.append("heat_value: give the cost as a positive number (-$%d on the board is %d)"
                              % (-value, -value))
            else:
                count(value, "heat_value", 0, None, errors)
    if not has_final:
        if not arrested:
            errors.append("final: missing (each player's money and heat at the end)")
        return errors
    in_all = 0
    for name, entry in per_player(record["final"], "final", names, errors, True):
        where = "final, player %s" % name
        if not isinstance(entry, dict):
            errors.append("%s: must be an object like {\"money\": 40, \"heat\": 3}" % where)
            continue
        known_keys(entry, where, ("money", "heat"), errors)
        if "money" not in entry:
            errors.append("%s, field money: missing" % where)
        else:
            count(entry["money"], where + ", field money", 0, None, errors)
        if "heat" not in entry:
            errors.append("%s, field heat: missing" % where)
        elif count(entry["heat"], where + ", field heat", 0, HEAT_TOKENS, errors):
            in_all += entry["heat"]
    if in_all > HEAT_TOKENS:
        errors.append("final, field heat: %d heat tokens in all, the game has %d" % (in_all, HEAT_TOKENS))
    return errors


def _winners(players):
    top = None
    for p in players:
        if top is None or p["total"] > top:
            top = p["total"]
    least = None
    for p in players:
        if p["total"] == top and (least is None or p["heat"] < least):
            least = p["heat"]
    out = []
    for p in players:
        if p["total"] == top and p["heat"] == least:
            out.append(p["name"])
    return out


def score(record):
    names = checked_names(record, check, TITLE, MIN_PLAYERS, MAX_PLAYERS)
    arrested = record.get("arrested", False)
    final = record.get("final")
    value = record.get("heat_value")
    players = []
    for name in names:
        if final is None:
            players.append({"name": name, "total": 0, "money": None, "heat": None, "paid": None})
            continue
        money = final[name]["money"]
        heat = final[name]["heat"]
        paid = heat * value
        players.append({"name": name, "total": money - paid, "money": money, "heat": heat, "paid": paid})
    setup = ["heists: %d, of %d stages each (every stage: all reveal at once)" % (HEISTS, STAGES),
             "heat tokens: %d" % HEAT_TOKENS]
    if value is not None:
        setup.append("heat value: $%d per heat token" % value)
    if arrested:
        setup.append("arrested: a B phase needed more than %d heat; nobody wins" % HEAT_TOKENS)
        winners = []
    else:
        winners = _winners(players)
    result = {"game": GAME, "title": TITLE, "players": players, "winners": winners, "complete": True,
              "arrested": arrested, "heat_value": value, "columns": ["money", "heat", "paid"],
              "setup": setup}
    if arrested:
        result["no_winner"] = "Everybody was arrested."
    return result
