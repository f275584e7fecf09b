# SPDX-License-Identifier: MIT
"""Checks of a Fit to Print game record: one message per problem, naming round, player and field.

Kept apart from the scoring (fit_to_print_score.py) so a board that only scores needs not load them.
The face (fit_to_print.py) calls `check(record, face)` and `fields(record, i, face)` with itself:
its facts (modes, days, players, characters) come in as that argument, so this file imports no
other of Fit to Print's and none imports it back.
"""

from .record_checks import META, known_keys, show

CATEGORIES = ("articles", "photos", "centerpiece", "white_space", "smiles", "frowns", "unplaced", "ads")

# Named rule options and their values (the defaults are the scoring's, fit_to_print_score.py).
# white_space_all_tie: what every player gets when all largest areas tie:
#   "smallest" (+3, the project's decision), "neither" (+1) or "largest" (-1).
OPTIONS = {"white_space_all_tie": ("smallest", "neither", "largest")}

# Plausibility bounds of the scorepad inputs (the checks, not the rules).
MAX_COUNT = 99          # articles, photos, smiles, frowns, unplaced, ads, tiles
MAX_SQUARES = 64        # white_space: a front page has fewer squares than this
CENTERPIECE_MIN = -10
CENTERPIECE_MAX = 20

# Every field a Fit to Print record may carry, per level: anything else is refused (a typo such as
# "breakingnews" or "finsh" would otherwise change a result silently).
TOP_KEYS = ("game", "mode", "edition", "options", "players", "rounds")
PLAYER_KEYS = ("name", "character")
ROUND_KEYS = ("day", "breaking_news", "finish", "table", "players")
CARD_KEYS = ("effect", "value")
# The card values printed on a Breaking News card (plausibility bounds, like the scorepad's).
WHITE_SPACE_BEST_MAX = 10
MOST_TILES_ADS_MAX = 20

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


def _is_int(v):
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


def good_card(card, mode, face):
    """Does this Breaking News card count (a known effect, a good value, a mode that uses it)?"""
    if not isinstance(card, dict) or card.get("effect") not in face.EFFECTS or not takes_news(mode):
        return False
    value = card.get("value")
    if card["effect"] == "white-space-best":
        return _is_int(value) and 0 <= value <= WHITE_SPACE_BEST_MAX
    if card["effect"] == "most-tiles-ads":
        return value is None or (_is_int(value) and 0 <= value <= MOST_TILES_ADS_MAX)
    return True


def fields(record, i, face):
    """The scorepad's questions of round i in the order they are asked: [(path, "int", label)]
    (the face's `fields`, fit_to_print.py).

    Each player's lines of the mode (and the tile count of a "most tiles gain $" card), in
    scorepad order; where white space is compared at the table, every player's largest area
    (and tile count) comes first, so each player's round score shown afterwards is exact."""
    if i is None:
        return []
    mode = face.play_mode(record)
    rounds = record.get("rounds") or []
    rnd = rounds[i] if i < len(rounds) and isinstance(rounds[i], dict) else {}
    cards = rnd.get("breaking_news")
    news = [c for c in cards if good_card(c, mode, face)] if isinstance(cards, list) else []
    lines = []
    for f in round_fields(mode, news):
        if f not in lines:
            lines.append(f)
    first = [f for f in ("white_space", "tiles") if f in lines] if compares_white_space(mode) else []
    if "tiles" in lines and "tiles" not in first:
        first.append("tiles")
    rest = [f for f in lines if f not in first]
    names = [face.player(p)[0] for p in record.get("players") or []]
    words = dict(LABELS)
    out = []
    for f in first:
        for n in names:
            out.append((("rounds", i, "players", n, f), "int", words[f]))
    for n in names:
        for f in rest:
            out.append((("rounds", i, "players", n, f), "int", words[f]))
    return out


def check(record, face):
    """Every problem of the record, as messages naming the place. Empty: the record is good."""
    MODES, EDITIONS, rounds_in = face.MODES, face.EDITIONS, face.rounds_in
    errs = []
    if not isinstance(record, dict):
        return ["the game record must be a JSON object"]
    known_keys(record, "", TOP_KEYS + META, errs)
    mode = record.get("mode", "standard")
    if mode not in MODES:
        errs.append("mode: unknown mode %r (one of %s)" % (mode, ", ".join(MODES)))
        return errs
    edition = record.get("edition", "published")
    if edition not in EDITIONS:
        errs.append("edition: unknown edition %r (published or draft)" % (edition,))
    _check_options(record.get("options", {}), errs)
    names = _check_players(record, mode, errs, face)
    mode = face.play_mode(record)
    rounds = record.get("rounds", [])
    if not isinstance(rounds, list):
        errs.append("rounds: must be a list")
        return errs
    if len(rounds) > rounds_in(mode):
        errs.append("rounds: %d rounds, but a %s game has %d" % (len(rounds), mode, rounds_in(mode)))
        rounds = rounds[:rounds_in(mode)]
    if names is None:
        return errs
    for i in range(len(rounds)):
        _check_round(rounds[i], i, face.round_name(mode, i), names, mode, errs, face)
    return errs


def _check_options(options, errs):
    if not isinstance(options, dict):
        errs.append("options: must be an object")
        return
    for key in sorted(options):
        if key not in OPTIONS:
            errs.append("options: unknown option %r" % (key,))
        elif options[key] not in OPTIONS[key]:
            errs.append("options, %s: %r is not one of %s" % (key, options[key], ", ".join(OPTIONS[key])))


def _check_players(record, mode, errs, face):
    from .config import name_refused     # the one name rule, as on the board's set-up
    MAX_PLAYERS, CHARACTERS = face.MAX_PLAYERS, face.CHARACTERS
    players = record.get("players")
    if not isinstance(players, list) or not players:
        errs.append("players: must be a list of 1 to %d players" % MAX_PLAYERS)
        return None
    names = []
    for i in range(len(players)):
        name, character = face.player(players[i])
        where = "players[%d]" % (i + 1)
        if isinstance(players[i], dict):
            known_keys(players[i], where, PLAYER_KEYS, errs)
        if not isinstance(name, str):
            errs.append("%s: a player needs a name (got %s)" % (where, show(name)))
            continue
        bad = name_refused(name, where, names)
        if bad:
            errs.append(bad)
            continue
        names.append(name)
        if character is not None:
            if character not in CHARACTERS:
                errs.append("%s, player %s: unknown character %r (one of %s)"
                            % (where, name, character, ", ".join(CHARACTERS)))
            elif mode in ("turn-based", "family"):
                errs.append("%s, player %s: characters are not used in %s mode" % (where, name, mode))
    n = len(players)
    lo, hi = face.players(mode)
    if n > MAX_PLAYERS:
        errs.append("players: %d players, at most %d can play" % (n, MAX_PLAYERS))
    if mode == "solo" and n != 1:
        errs.append("players: solo mode is for 1 player, not %d" % n)
    elif n < lo:
        errs.append("players: %s mode needs %d to %d players" % (mode, lo, hi))
    return names


def _check_round(rnd, i, day, names, mode, errs, face):
    where = "round %d" % (i + 1)
    if not isinstance(rnd, dict):
        errs.append("%s: must be an object" % where)
        return
    known_keys(rnd, where, ROUND_KEYS, errs)
    given_day = rnd.get("day")
    if given_day is not None and given_day != day:
        errs.append("%s, day: %r, but round %d of a %s game is %s" % (where, given_day, i + 1, mode, day))
    news = _check_news(rnd.get("breaking_news", []), where, mode, errs, face.EFFECTS)
    _check_finish(rnd.get("finish"), where, names, mode, errs)
    if "table" in rnd:
        _check_table(rnd["table"], where + ", table", names, errs)
    scores = rnd.get("players")
    if not isinstance(scores, dict):
        errs.append("%s, players: must map each player's name to the scorepad numbers" % where)
        return
    for name in sorted(scores):
        if name not in names:
            errs.append("%s: unknown player %r (players are %s)" % (where, name, ", ".join(names)))
    needs = round_fields(mode, news)
    for name in names:
        pad = scores.get(name)
        if pad is None:
            errs.append("%s, player %s: missing" % (where, name))
        elif not isinstance(pad, dict):
            errs.append("%s, player %s: must be an object of scorepad numbers" % (where, name))
        else:
            _check_pad(pad, "%s, player %s" % (where, name), needs, errs)


TABLE_TIMES = ("print_ms", "layout_ms")
TABLE_KEYS = ("print_ms", "layout_ms", "tied", "end", "elapsed_ms")


def _check_table(table, where, names, errs):
    """What the board measured in the round (`presstime sync`, `play`): times, ties, end."""
    from .record_checks import count, known_keys, show

    if not isinstance(table, dict):
        errs.append("%s: must be an object (%s)" % (where, ", ".join(TABLE_KEYS)))
        return
    known_keys(table, where, TABLE_KEYS, errs)
    for key in TABLE_TIMES:
        times = table.get(key, {})
        if not isinstance(times, dict):
            errs.append("%s, %s: must map player names to milliseconds" % (where, key))
            continue
        for name in sorted(times):
            if name not in names:
                errs.append("%s, %s: unknown player %s" % (where, key, show(name)))
            else:
                count(times[name], "%s, %s, player %s" % (where, key, name), 0, None, errs)
    tied = table.get("tied", [])
    if not isinstance(tied, list) or [n for n in tied if n not in names]:
        errs.append("%s, tied: must be a list of player names (got %s)" % (where, show(tied)))
    if not isinstance(table.get("end", ""), str):
        errs.append("%s, end: must be text, how the round ended (got %s)" % (where, show(table["end"])))
    if "elapsed_ms" in table:
        count(table["elapsed_ms"], where + ", elapsed_ms", 0, None, errs)


def _check_pad(pad, where, needs, errs):
    for field in needs:
        if field not in pad:
            errs.append("%s, %s: missing" % (where, field))
    for field in sorted(pad):
        v = pad[field]
        if field not in CATEGORIES and field not in ("tiles", "unplaced_ads"):
            errs.append("%s, %s: unknown field" % (where, field))
        elif not _is_int(v):
            errs.append("%s, %s: must be a whole number (got %r)" % (where, field, v))
        elif field == "centerpiece":
            if v < CENTERPIECE_MIN or v > CENTERPIECE_MAX:
                errs.append("%s, centerpiece: %d is outside %d..%d" % (where, v, CENTERPIECE_MIN, CENTERPIECE_MAX))
        elif v < 0:
            errs.append("%s, %s: must not be negative (got %d)" % (where, field, v))
        elif field in ("white_space", "tiles") and v > MAX_SQUARES:
            errs.append("%s, %s: %d squares is more than a front page has (%d)" % (where, field, v, MAX_SQUARES))
        elif v > MAX_COUNT:
            errs.append("%s, %s: %d is not a plausible count (at most %d)" % (where, field, v, MAX_COUNT))


def _check_news(news, where, mode, errs, EFFECTS):
    if not isinstance(news, list):
        errs.append("%s, breaking_news: must be a list" % where)
        return []
    good = []
    if len(news) > 1:
        errs.append("%s, breaking_news: %d cards, but one Breaking News card is drawn per day" % (where, len(news)))
    for j in range(len(news)):
        card = news[j]
        at = "%s, breaking_news[%d]" % (where, j + 1)
        if isinstance(card, dict):
            known_keys(card, at, CARD_KEYS, errs)
        if not isinstance(card, dict) or card.get("effect") not in EFFECTS:
            errs.append("%s: unknown effect %r (one of %s)"
                        % (at, card.get("effect") if isinstance(card, dict) else card, ", ".join(EFFECTS)))
            continue
        if not takes_news(mode):
            errs.append("%s: Breaking News is not used in %s mode" % (at, mode))
            continue
        value = card.get("value")
        if card["effect"] == "white-space-best" and (not _is_int(value) or not 0 <= value <= WHITE_SPACE_BEST_MAX):
            errs.append("%s, value: white-space-best needs the bonus as a whole number 0 to %d (got %s)"
                        % (at, WHITE_SPACE_BEST_MAX, show(value)))
            continue
        if card["effect"] == "most-tiles-ads" and value is not None and (
                not _is_int(value) or not 0 <= value <= MOST_TILES_ADS_MAX):
            errs.append("%s, value: most-tiles-ads needs a whole number of dollars 0 to %d (got %s)"
                        % (at, MOST_TILES_ADS_MAX, show(value)))
            continue
        if card["effect"] == "mood-doubled" and "value" in card:
            errs.append("%s, value: mood-doubled takes no value" % at)
            continue
        good.append(card)
    return good


def _check_finish(finish, where, names, mode, errs):
    if finish is None:
        return
    if not takes_finish(mode):
        errs.append("%s, finish: %s mode has no finishing tokens" % (where, mode))
        return
    if not isinstance(finish, list):
        errs.append("%s, finish: must be the list of player names in token order" % where)
        return
    seen = []
    for j in range(len(finish)):
        name = finish[j]
        if name not in names:
            errs.append("%s, finish, token %d: unknown player %r" % (where, j + 1, name))
        elif name in seen:
            errs.append("%s, finish, token %d: %s already has token %d" % (where, j + 1, name, seen.index(name) + 1))
        seen.append(name)
    if len(finish) < len(names) and len(seen) == len(finish):
        missing = [n for n in names if n not in finish]
        errs.append("%s, finish: no token for %s" % (where, ", ".join(missing)))
    elif len(finish) > len(names):
        errs.append("%s, finish: %d tokens for %d players" % (where, len(finish), len(names)))
