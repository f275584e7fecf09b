"""Each game's own words for the history, stats, charts and the result card: its title, what a
round is called, its number columns with their units, its categories, and the rule that decided
a winner. Everything game-specific the history side says lives here (one place, to move to the
game's "face" later); the numbers themselves always come from the core's result.

    title("heat")                      -> "Heat"
    unit("heat", "money")              -> "$"
    label("fit-to-print", "photos")    -> "photos"
    decided_by(result)                 -> "tie at $31, fewest heat tokens: 2" or None
"""

from .core import games as _games
from .core.fit_to_print import MODES  # noqa: F401 (Fit to Print's modes: --mode's choices)

# the games in the core's order, their titles from each game's face (one copy: the core's)
GAMES = _games.GAMES

# what the game's total is counted in: "pts" (points), "$" or a word
SCORE_UNIT = {"fit-to-print": "pts", "mini-fits": "pts", "heat": "$", "myth-fits": "photo tokens"}

# (key, label, unit) of the numbers a round carries, in scorepad order; unit "pts", "$" or a word
ROUND_FIELDS = {
    "fit-to-print": (
        ("articles", "articles", "pts"),
        ("photos", "photos", "pts"),
        ("centerpiece", "centerpiece", "pts"),
        ("white_space", "white space", "pts"),
        ("mood", "mood", "pts"),
        ("unplaced", "unplaced tiles", "pts"),
        ("score", "day score", "pts"),
        ("ad_revenue", "ad revenue", "$"),
        ("most_tiles_ads", "most tiles ads", "$"),
        ("white_space_area", "white space area", "squares"),
    ),
    "mini-fits": (
        ("lines", "lines", "lines"),
        ("colour_sets", "colour sets", "colour sets"),
        ("score", "round score", "pts"),
    ),
}
# (key, label, unit) of the numbers a game's result carries per player (beside total)
GAME_FIELDS = {
    "heat": (
        ("money", "money", "$"),
        ("heat", "heat", "heat tokens"),
        ("paid", "paid for heat", "$"),
    ),
    "myth-fits": (("photo_tokens", "photo tokens", "photo tokens"),),
    "mini-fits": (),
    "fit-to-print": (("ad_revenue", "ad revenue", "$"),),
}
# the point categories stacked in a chart's breakdown (ad revenue is dollars: on its own axis;
# Mini FITS' lines and colour sets are counts, each drawn on its own axis)
POINT_CATEGORIES = {
    "fit-to-print": ("articles", "photos", "centerpiece", "white_space", "mood", "unplaced"),
}
# what a round is called, one and many
ROUND_WORDS = {
    "fit-to-print": ("day", "days"),
    "mini-fits": ("round", "rounds"),
    "heat": ("heist", "heists"),
    "myth-fits": ("turn", "turns"),
}
# stats: who stands out in a per-round category ("who is the photographer")
LEADERS = {
    "fit-to-print": (
        ("photos", "the photographer", "most photo points a day"),
        ("white_space_area", "leaves the most white space", "most empty squares a day"),
        ("articles", "the reporter", "most article points a day"),
        ("mood", "the gloomiest front page", "most mood points lost a day"),
    ),
    "mini-fits": (("colour_sets", "the colour collector", "most colour sets a round"),),
}
HEAT_HEISTS = 3


def title(game):
    face = _games.module(game)
    return face.TITLE if face is not None else game


def full_title(game, mode=None, edition=None):
    """ "Fit to Print (solo)", "Heat"…"""
    text = title(game)
    if game == "fit-to-print":
        bits = [
            b
            for b in (
                mode if mode and mode != "standard" else None,
                "draft edition" if edition == "draft" else None,
            )
            if b
        ]
        if bits:
            text += " (%s)" % ", ".join(bits)
    return text


def _fields(game):
    return ROUND_FIELDS.get(game, ()) + GAME_FIELDS.get(game, ())


def label(game, key):
    for k, text, _ in _fields(game):
        if k == key:
            return text
    return key.replace("_", " ")


def unit(game, key):
    """The unit of a number: "pts", "$", or a word ("squares", "heat tokens")."""
    if key == "total":
        return SCORE_UNIT.get(game, "pts")
    for k, _, u in _fields(game):
        if k == key:
            return u
    return "pts"


def amount(game, key, value):
    """A number with its unit: "$31", "52 pts", "4 photo tokens"."""
    if value is None:
        return "-"
    u = unit(game, key)
    if u == "$":
        return ("-$%s" % _num(-value)) if value < 0 else "$%s" % _num(value)
    if u == "pts":
        return "%s pts" % _num(value)
    return "%s %s" % (_num(value), u)


def _num(v):
    if isinstance(v, float):
        return ("%.2f" % v).rstrip("0").rstrip(".")
    return str(v)


def played(game, result, rounds):
    """What a game consisted of, for `history`: "3 days", "3 heists", "arrested", "6x4 grid"."""
    if game == "heat":
        return "arrested" if result.get("arrested") else "%d heists" % HEAT_HEISTS
    if game == "myth-fits":
        return "%s grid" % result["grid"] if result.get("grid") else "-"
    one, many = ROUND_WORDS.get(game, ("round", "rounds"))
    return "%d %s" % (rounds, one if rounds == 1 else many)


def decided_by(result):
    """The rule that decided the winner when it was not simply the highest total (a tie-break, a
    player ahead but out of business, Myth Fits' way of winning); a shared win says what tied.
    None when the highest total alone decided it."""
    game = result.get("game", "fit-to-print")
    winners = result.get("winners") or []
    players = result.get("players") or []
    if not winners:
        return None
    if game == "myth-fits":
        if result.get("won_by") == "gathered":
            return "gathered three creatures"
        if result.get("won_by") == "photos":
            return "first to %s photo tokens" % result.get("target")
        return None
    won = [p for p in players if p.get("name") in winners]
    top = won[0].get("total") if won else None
    if game == "fit-to-print":
        return _fit_to_print_decider(result, players, winners, top)
    tied = [p for p in players if p.get("total") == top]
    shown = amount(game, "total", top)
    if game == "heat" and len(tied) > len(winners):
        least = amount(game, "heat", won[0].get("heat"))
        if len(winners) > 1:
            return "tie at %s and %s: shared" % (shown, least)
        return "tie at %s, fewest heat tokens: %s" % (shown, won[0].get("heat"))
    if len(winners) > 1:
        return "tie at %s: shared" % shown
    return None


def _fit_to_print_decider(result, players, winners, top):
    parts = []
    ahead = [
        p
        for p in players
        if p.get("out_of_business")
        and isinstance(p.get("total"), int)
        and top is not None
        and p["total"] >= top
    ]
    if ahead:
        parts.append(
            "%s out of business despite %s"
            % (
                ", ".join(p["name"] for p in ahead),
                "more points" if all(p["total"] > top for p in ahead) else "as many points",
            )
        )
    able = [p for p in players if not p.get("out_of_business") and p.get("total") == top]
    if len(able) > len(winners):
        won = [p for p in able if p["name"] in winners]
        steps = []
        most = max(p.get("ad_revenue") or 0 for p in able)
        after_ads = able
        if result.get("edition") == "draft":
            after_ads = [p for p in able if (p.get("ad_revenue") or 0) == most]
            if len(after_ads) < len(able):
                steps.append("most ad revenue ($%d)" % most)
        if len(after_ads) > len(won):
            token = (won[0].get("rounds") or [{}])[-1].get("token")
            steps.append("the earliest finishing token on the last day (token %s)" % token)
        if len(winners) > 1:
            parts.append(
                "tie at %d pts%s: shared" % (top, (" and " + ", ".join(steps)) if steps else "")
            )
        else:
            parts.append("tie at %d pts broken by %s" % (top, ", then ".join(steps)))
    elif len(winners) > 1:
        parts.append("tie at %d pts: shared" % top)
    return "; ".join(parts) or None


def winner_text(game, winners, decider, score=None):
    """ "winner: Ada, 52 pts"; "winner: Ben (tie at $31, fewest heat tokens: 2)";
    "shared win: Ada, Ben (tie at 23 pts: shared)"."""
    if not winners:
        return ""
    text = ("winner: " if len(winners) == 1 else "shared win: ") + ", ".join(winners)
    if decider:
        return text + " (%s)" % decider
    if score is not None:
        return text + ", " + amount(game, "total", score)
    return text


def _field_words():
    """{key: the players' word} of every number a game's record or result carries."""
    words = {"heat_value": "heat value"}  # a record's own field
    for table in (ROUND_FIELDS, GAME_FIELDS):
        for fields in table.values():
            for key, label, unit in fields:
                words.setdefault(
                    key, unit if unit.startswith(label + " ") else label
                )  # heat: "heat tokens"
    return words


FIELD_WORDS = _field_words()


def players_words(message):
    """A message of the core in the game's words: its field names (white_space, photo_tokens,
    "field heat") as the players call them ("white space", "photo tokens", "heat tokens"). For
    what a player types at a question; a game file's errors keep the file's own keys."""
    import re

    def word(m):
        return FIELD_WORDS.get(m.group(2), m.group(0))

    message = re.sub(r"\b(field )([a-z_]+)\b", word, message)
    return re.sub(r"\b()([a-z]+(?:_[a-z]+)+)\b", word, message)
