# SPDX-License-Identifier: MIT
"""Small checks shared by the record formats of Mini FITS, Heat and Myth Fits.

Every helper appends messages to a list and never raises: `check(record)` of a game collects
one message per problem, each naming its place first ("round 2, player Ada, field lines: ...").
Pure and MicroPython-safe: no f-strings, dict keys always visited in sorted order.
"""

# Top-level keys any record may carry without affecting the score (history metadata).
META = ("date", "id", "notes", "place", "source", "title", "uuid", "version")


def control(text):
    """True when `text` holds a character no player's name may hold (core/config.py's
    `refused`: controls, separators, bidirectional and invisible characters, unusual spaces)."""
    from .config import refused    # imported when a record is checked (the desktop), not on load
    for ch in text:
        if refused(ch):
            return True
    return False


def is_int(value):
    """A JSON whole number (True/False are not counts)."""
    return isinstance(value, int) and not isinstance(value, bool)


def show(value):
    """A value as it appeared in the file, for a message."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return '"%s"' % value
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return str(value)


# The largest whole number a record holds where its game sets no bound (Heat's money, the
# board's milliseconds): a trillion, so that every total and every sum the history keeps of
# them (a million games) stays within SQLite's 64-bit integers and JavaScript's exact ones.
MAX_WHOLE = 1000000000000


def count(value, where, lo, hi, errors):
    """Check a whole number lo..hi (hi None: up to MAX_WHOLE). Returns True when it is fine."""
    if hi is None and is_int(value) and value > MAX_WHOLE:
        errors.append("%s: must be at most %d (got %d)" % (where, MAX_WHOLE, value))
        return False
    if not is_int(value):
        if hi is None:
            errors.append("%s: must be a whole number, %d or more (got %s)" % (where, lo, show(value)))
        else:
            errors.append("%s: must be a whole number %d to %d (got %s)" % (where, lo, hi, show(value)))
        return False
    if value < lo or (hi is not None and value > hi):
        if hi is None:
            if lo == 0:
                errors.append("%s: must not be negative (got %d)" % (where, value))
            else:
                errors.append("%s: must be %d or more (got %d)" % (where, lo, value))
        else:
            errors.append("%s: must be %d to %d (got %d)" % (where, lo, hi, value))
        return False
    return True


def known_keys(obj, where, allowed, errors):
    """Flag keys of `obj` that are not in `allowed` (a tuple), one message each."""
    unknown = []
    for key in obj:
        if key not in allowed:
            unknown.append(key)
    unknown.sort()
    for key in unknown:
        if where:
            place = "%s, field %s" % (where, key)
        else:
            place = "field %s" % key
        errors.append("%s: unknown field (known: %s)" % (place, ", ".join(allowed)))


def top_keys(record, allowed, errors):
    """Flag unknown top-level keys; `allowed` plus "game" and META are accepted."""
    known_keys(record, "", ("game",) + allowed + META, errors)


def player_names(record, title, lo, hi, errors):
    """The seat-ordered names in record["players"] (strings or {"name": ...}); checks the count.

    Returns the list of usable names (possibly short when there are problems). The name rule is
    core/config.py's, as on the board's set-up."""
    from .config import name_refused
    players = record.get("players")
    if players is None:
        errors.append("players: missing (a list of %d to %d names)" % (lo, hi))
        return []
    if not isinstance(players, list):
        errors.append("players: must be a list of names (got %s)" % show(players))
        return []
    if len(players) < lo or len(players) > hi:
        if lo == hi:
            span = "%d" % lo
        else:
            span = "%d to %d" % (lo, hi)
        errors.append("players: %s takes %s players (got %d)" % (title, span, len(players)))
    names = []
    seat = 0
    for entry in players:
        seat += 1
        name = entry
        if isinstance(entry, dict):
            known_keys(entry, "players, seat %d" % seat, ("name",), errors)
            name = entry.get("name")
        if not isinstance(name, str):
            errors.append("players, seat %d: must be a name (got %s)" % (seat, show(name)))
            continue
        bad = name_refused(name, "players, seat %d" % seat, names)
        if bad:
            errors.append(bad)
            continue
        names.append(name)
    return names


def checked_names(record, check, title, lo, hi):
    """The player names of a record that `check` finds good; ValueError listing the problems if not.

    The start of every `score(record)`: scoring a record that was not checked is a caller's bug."""
    errors = check(record)
    if errors:
        raise ValueError("; ".join(errors))
    return player_names(record, title, lo, hi, [])


def per_player(value, where, names, errors, required):
    """Check a {name: entry} object: every key a player, every player present when `required`.

    Returns the list of (name, entry) for the players present, in seat order."""
    if not isinstance(value, dict):
        errors.append("%s: must be an object with one entry per player (got %s)" % (where, show(value)))
        return []
    strangers = []
    for key in value:
        if key not in names:
            strangers.append(key)
    strangers.sort()
    for key in strangers:
        errors.append("%s, player %s: not in players" % (where, key))
    found = []
    for name in names:
        if name in value:
            found.append((name, value[name]))
        elif required:
            errors.append("%s, player %s: missing" % (where, name))
    return found


def best(players, key):
    """The names of the players with the highest players[i][key] (ties share)."""
    top = None
    for p in players:
        if top is None or p[key] > top:
            top = p[key]
    out = []
    for p in players:
        if p[key] == top:
            out.append(p["name"])
    return out
