# SPDX-License-Identifier: MIT
"""Checks of a Fit to Print game record: one message per problem, naming round, player and field.

Kept apart from the scoring (fit_to_print.py) so a board that only scores needs not load them.
"""

from .record_checks import META, control, known_keys, show
from .fit_to_print import (CATEGORIES, CENTERPIECE_MAX, CENTERPIECE_MIN, CHARACTERS, EDITIONS,
                           EFFECTS, MAX_COUNT, MAX_PLAYERS, MAX_SQUARES, MODES, OPTIONS, _is_int,
                           _mode, _player, days_of, rounds_in)


def check(record):
    """Every problem of the record, as messages naming the place. Empty: the record is good."""
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
    names = _check_players(record, mode, errs)
    mode = _mode(record)
    rounds = record.get("rounds", [])
    if not isinstance(rounds, list):
        errs.append("rounds: must be a list")
        return errs
    if len(rounds) > rounds_in(mode):
        errs.append("rounds: %d rounds, but a %s game has %d" % (len(rounds), mode, rounds_in(mode)))
        rounds = rounds[:rounds_in(mode)]
    if names is None:
        return errs
    days = days_of(mode)
    for i in range(len(rounds)):
        _check_round(rounds[i], i, days[i], names, mode, errs)
    return errs


# Every field a Fit to Print record may carry, per level: anything else is refused (a typo such as
# "breakingnews" or "finsh" would otherwise change a result silently).
TOP_KEYS = ("game", "mode", "edition", "options", "players", "rounds")
PLAYER_KEYS = ("name", "character")
ROUND_KEYS = ("day", "breaking_news", "finish", "table", "players")
CARD_KEYS = ("effect", "value")
# The card values printed on a Breaking News card (plausibility bounds, like the scorepad's).
WHITE_SPACE_BEST_MAX = 10
MOST_TILES_ADS_MAX = 20


def _check_options(options, errs):
    if not isinstance(options, dict):
        errs.append("options: must be an object")
        return
    for key in sorted(options):
        if key not in OPTIONS:
            errs.append("options: unknown option %r" % (key,))
        elif options[key] not in OPTIONS[key]:
            errs.append("options, %s: %r is not one of %s" % (key, options[key], ", ".join(OPTIONS[key])))


def _check_players(record, mode, errs):
    players = record.get("players")
    if not isinstance(players, list) or not players:
        errs.append("players: must be a list of 1 to %d players" % MAX_PLAYERS)
        return None
    names = []
    for i in range(len(players)):
        name, character = _player(players[i])
        where = "players[%d]" % (i + 1)
        if isinstance(players[i], dict):
            known_keys(players[i], where, PLAYER_KEYS, errs)
        if not isinstance(name, str) or not name.strip():
            errs.append("%s: a player needs a name (got %s)" % (where, show(name)))
            continue
        if control(name):
            errs.append("%s: a name cannot hold control characters" % where)
            continue
        if name in names:
            errs.append("%s: player %s is listed twice" % (where, name))
        names.append(name)
        if character is not None:
            if character not in CHARACTERS:
                errs.append("%s, player %s: unknown character %r (one of %s)"
                            % (where, name, character, ", ".join(CHARACTERS)))
            elif mode in ("turn-based", "family"):
                errs.append("%s, player %s: characters are not used in %s mode" % (where, name, mode))
    n = len(players)
    if n > MAX_PLAYERS:
        errs.append("players: %d players, at most %d can play" % (n, MAX_PLAYERS))
    if mode == "solo" and n != 1:
        errs.append("players: solo mode is for 1 player, not %d" % n)
    if mode in ("family", "turn-based") and n < 2:
        errs.append("players: %s mode needs 2 to %d players" % (mode, MAX_PLAYERS))
    return names


def _check_round(rnd, i, day, names, mode, errs):
    where = "round %d" % (i + 1)
    if not isinstance(rnd, dict):
        errs.append("%s: must be an object" % where)
        return
    known_keys(rnd, where, ROUND_KEYS, errs)
    given_day = rnd.get("day")
    if given_day is not None and given_day != day:
        errs.append("%s, day: %r, but round %d of a %s game is %s" % (where, given_day, i + 1, mode, day))
    news = _check_news(rnd.get("breaking_news", []), where, mode, errs)
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
    needs = _needed_fields(mode, news)
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


def _needed_fields(mode, news):
    if mode == "family":
        fields = ["articles", "photos", "unplaced", "ads"]
    elif mode == "puzzle":
        fields = ["articles", "photos", "centerpiece", "white_space", "smiles", "frowns", "unplaced_ads"]
    else:
        fields = list(CATEGORIES)
    for effect in news:
        if effect.get("effect") == "most-tiles-ads":
            fields.append("tiles")
    return fields


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


def _check_news(news, where, mode, errs):
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
        if mode in ("turn-based", "family", "puzzle"):
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
    if mode in ("family", "puzzle"):
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
