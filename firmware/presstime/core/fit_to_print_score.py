# SPDX-License-Identifier: MIT
"""Fit to Print's scoring, and the rest of its face: every mode, both editions, characters and
Breaking News (core/games.py lists what a face declares).

fit_to_print.py is the half of the face the round machine reads on a board; it hands every other
name (title and words, editions, characters, effects, `fields`, `check`, `score`) to this file
when first asked for, so a board running the round machine never loads it. The checks
(fit_to_print_check.py) are imported only when called and take the face as an argument (from
the registry): neither file imports the other back. Pure and integers only.
The rules and the decisions taken where the rulebooks are silent are in docs/game-format.md.
"""

from .games import module

GAME = "fit-to-print"
TITLE = "Fit to Print"
EDITIONS = ("published", "draft")
CHARACTERS = ("wilbur", "danae", "renaud", "benoit", "ursule", "jazz")
EFFECTS = ("mood-doubled", "white-space-best", "most-tiles-ads")
ROUND_WORD = "round"
STEP_WORD = None
STEPS_LEFT = False


def setup_lines(n):
    return []


def fields(record, i):
    """The scorepad's questions of round i in the order they are asked (fit_to_print_check)."""
    from .fit_to_print_check import fields as round_questions
    return round_questions(record, i, module(GAME))


def _card(v):
    """The Breaking News card of the board's choice v (CARD): [] none, else one card, with the
    value the knob starts the card's value question at (the rules' 3, MOST_TILES_DEFAULT)."""
    if not 0 < v <= len(EFFECTS):
        return []
    card = {"effect": EFFECTS[v - 1]}
    if v > 1:
        card["value"] = 3 if v == 2 else MOST_TILES_DEFAULT
    return [card]


def _card_number(cards):
    card = cards[0] if isinstance(cards, list) and cards else None
    if isinstance(card, dict) and card.get("effect") in EFFECTS:
        return EFFECTS.index(card["effect"]) + 1
    return 0


# The board's Breaking News question: a choice (core/entry.py), words in EFFECTS order after none
CARD = (("none", "mood doubled", "white space", "most tiles $"), _card, _card_number)


def setup_fields(record, i):
    """A day's own set-up the board asks before `fields` (core/entry.questions), as `enter`
    asks it (host's ROUND_SETUP): where Breaking News scores, the day's card (CARD), then the
    card's value when it has one; [] else."""
    from .fit_to_print_check import takes_news
    if i is None or not takes_news(play_mode(record)):
        return []
    out = [(("rounds", i, "breaking_news"), CARD, "Breaking News card")]
    rounds = record.get("rounds") or []
    rnd = rounds[i] if i < len(rounds) and isinstance(rounds[i], dict) else {}
    v = _card_number(rnd.get("breaking_news"))
    if v > 1:
        out.append((("rounds", i, "breaking_news", 0, "value"), "int",
                    "best white space bonus" if v == 2 else "$ for the most tiles"))
    return out


def check(record):
    """Every problem of the record, as messages naming the place. Empty: the record is good."""
    from .fit_to_print_check import check as check_record
    return check_record(record, module(GAME))


DEFAULT_OPTIONS = {"white_space_all_tie": "smallest"}   # the values: fit_to_print_check.OPTIONS
MOST_TILES_DEFAULT = 4  # $ for the most tiles, when the card gives no value


def play_mode(record):
    """The mode the rules play a record in: one player in a standard game plays by the solo
    rules (a decision, docs/game-format.md)."""
    mode = record.get("mode", "standard")
    if mode == "standard" and len(record.get("players") or ()) == 1:
        return "solo"
    return mode


def player(entry):
    """(name, character) of a players[] entry: a name or {"name", "character"}."""
    if isinstance(entry, dict):
        return entry.get("name"), entry.get("character")
    return entry, None


SOLO_MIN_ADS = 12       # solo: at least $12 at the end, else out of business
TWO_PLAYER_GAP = 5      # 2 players: more than $5 less ...
TWO_PLAYER_PENALTY = -10  # ... costs 10 points
LOWEST_ADS_PENALTY = -5   # family and turn-based
BENOIT_START_ADS = 3

# Solo and puzzle white space: (largest area up to, points); 8 and more: -1.
_SOLO_WHITE_SPACE = ((1, 3), (3, 2), (5, 1), (7, 0))


def solo_white_space(area, best=3):
    """Points of the solo / puzzle white-space table (`best` replaces the +3 row)."""
    for limit, points in _SOLO_WHITE_SPACE:
        if area <= limit:
            return best if points == 3 else points
    return -1


def compared_white_space(areas, best=3, all_tie="smallest"):
    """Points of each largest area compared at the table: smallest `best`, largest -1, others +1."""
    low = min(areas)
    high = max(areas)
    if low == high:
        return [best if all_tie == "smallest" else (1 if all_tie == "neither" else -1) for _ in areas]
    return [best if a == low else (-1 if a == high else 1) for a in areas]


def score_round(rnd, players, mode, options):
    """One round: a list of per-player category points, in seat order.

    `players` is [(name, character)]. Each entry: {day, score, ad_revenue, articles, photos,
    centerpiece, white_space, white_space_area, mood, unplaced, token}."""
    pads = rnd["players"]
    news = rnd.get("breaking_news", [])
    doubled = False
    best = 3
    tiles_bonus = None
    for card in news:
        effect = card["effect"]
        if effect == "mood-doubled":
            doubled = True
        elif effect == "white-space-best":
            best = card["value"]
        elif effect == "most-tiles-ads":
            tiles_bonus = card.get("value", MOST_TILES_DEFAULT)
    areas = []
    for name, character in players:
        area = pads[name].get("white_space", 0)
        if character == "wilbur" and area > 0:
            area -= 1
        areas.append(area)
    if mode in ("solo", "puzzle"):
        ws = [solo_white_space(a, best) for a in areas]
    elif mode == "family":
        ws = [0 for _ in areas]
    else:
        ws = compared_white_space(areas, best, options["white_space_all_tie"])
    most = -1
    if tiles_bonus is not None:
        most = max([pads[name].get("tiles", 0) for name, _ in players])
    finish = rnd.get("finish") or []
    out = []
    for i in range(len(players)):
        name, character = players[i]
        pad = pads[name]
        out.append(_player_round(pad, character, mode, ws[i], areas[i], doubled,
                                 tiles_bonus if pad.get("tiles", -2) == most else 0,
                                 (finish.index(name) + 1) if name in finish else None,
                                 rnd.get("day")))
    return out


def _player_round(pad, character, mode, ws, area, doubled, bonus, token, day):
    mood = 0
    if mode != "family":
        mood = abs(pad.get("smiles", 0) - pad.get("frowns", 0))
        if doubled:
            mood *= 2
        if character == "jazz" and mood > 0:
            mood -= 1
    unplaced = 0 if mode == "puzzle" else pad.get("unplaced", 0)
    if character == "danae" and unplaced > 0:
        unplaced -= 1
    centerpiece = 0 if mode == "family" else pad.get("centerpiece", 0)
    score = pad.get("articles", 0) + pad.get("photos", 0) + centerpiece + ws - mood - unplaced
    ads = 0 if mode == "puzzle" else pad.get("ads", 0) + (bonus or 0)
    r = {"day": day, "score": score if score > 0 else 0, "ad_revenue": ads if ads > 0 else 0,
         "articles": pad.get("articles", 0), "photos": pad.get("photos", 0),
         "centerpiece": centerpiece, "white_space": ws, "white_space_area": area,
         "mood": -mood, "unplaced": -unplaced, "token": token}
    if bonus:
        r["most_tiles_ads"] = bonus
    if mode == "puzzle":
        r["incomplete"] = pad.get("unplaced_ads", 0) > 0
    return r


def score(record):
    """Standings of a checked record: see docs/game-format.md for the result's fields."""
    face = module(GAME)
    mode = play_mode(record)
    rounds_in = face.rounds_in
    edition = record.get("edition", "published")
    options = dict(DEFAULT_OPTIONS)
    options.update(record.get("options", {}))
    players = [player(p) for p in record["players"]]
    rounds = record.get("rounds", [])
    results = []
    for name, character in players:
        start_ads = BENOIT_START_ADS if character == "benoit" else 0
        results.append({"name": name, "character": character, "total": 0, "ad_revenue": start_ads,
                        "out_of_business": False, "adjustments": [], "rounds": []})
    for i in range(len(rounds)):
        rnd = rounds[i]
        day = face.round_name(mode, i)
        if rnd.get("day") is None and day is not None:
            rnd = dict(rnd)
            rnd["day"] = day
        per = score_round(rnd, players, mode, options)
        for j in range(len(players)):
            results[j]["rounds"].append(per[j])
            results[j]["total"] += per[j]["score"]
            results[j]["ad_revenue"] += per[j]["ad_revenue"]
    complete = len(rounds) == rounds_in(mode)
    out = {"game": "fit-to-print", "mode": mode, "edition": edition, "options": options,
           "complete": complete, "rounds_played": len(rounds), "rounds_in_game": rounds_in(mode),
           "players": results, "winners": [], "incomplete": False}
    if mode == "puzzle":
        for p in results:
            p["incomplete"] = bool(p["rounds"]) and p["rounds"][0]["incomplete"]
            if p["incomplete"]:
                p["total"] = None
                out["incomplete"] = True
    if complete:
        _end_of_game(out, results, mode, edition, rounds)
    return out


def _adjust(player, reason, points):
    player["adjustments"].append({"reason": reason, "points": points})
    player["total"] += points


def _lowest_ads(results):
    low = min([p["ad_revenue"] for p in results])
    return [p for p in results if p["ad_revenue"] == low]


def _end_of_game(out, results, mode, edition, rounds):
    n = len(results)
    if mode == "solo":
        if results[0]["ad_revenue"] < SOLO_MIN_ADS:
            results[0]["out_of_business"] = True
    elif mode in ("family", "turn-based"):
        for p in _lowest_ads(results):
            _adjust(p, "lowest-ad-revenue", LOWEST_ADS_PENALTY)
    elif mode == "standard" and n == 2:
        a, b = results
        if a["ad_revenue"] + TWO_PLAYER_GAP < b["ad_revenue"]:
            _adjust(a, "two-player-ad-gap", TWO_PLAYER_PENALTY)
        elif b["ad_revenue"] + TWO_PLAYER_GAP < a["ad_revenue"]:
            _adjust(b, "two-player-ad-gap", TWO_PLAYER_PENALTY)
    elif mode == "standard" and n >= 3:
        lowest = _lowest_ads(results)
        if edition == "draft" or len(lowest) == 1:
            for p in lowest:
                p["out_of_business"] = True
    out["winners"] = _winners(results, mode, edition, rounds)


def _winners(results, mode, edition, rounds):
    able = [p for p in results if not p["out_of_business"] and p["total"] is not None]
    if not able:
        return []
    top = max([p["total"] for p in able])
    tied = [p for p in able if p["total"] == top]
    if len(tied) > 1 and edition == "draft":
        most = max([p["ad_revenue"] for p in tied])
        tied = [p for p in tied if p["ad_revenue"] == most]
    if len(tied) > 1 and mode != "family":
        tokens = [p["rounds"][-1]["token"] for p in tied]
        if None not in tokens:
            first = min(tokens)
            tied = [p for p in tied if p["rounds"][-1]["token"] == first]
    return [p["name"] for p in tied]
