"""Each game's words for the history, stats, charts and the result card, read from its faces
(games/<game>.py and the core's): its title, its numbers' labels and units, what a game
consisted of and the rule that decided a winner. The numbers themselves always come from the
core's result.

    title(game)                        -> how people write it: Heat
    unit(game, key)                    -> "$" for Heat's money, "pts" for Fit to Print's photos
    label(game, key)                   -> "white space" for Fit to Print's white_space
    decided_by(result)                 -> "tie at $31, fewest heat tokens: 2" or None
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from presstime import games
from presstime.games import title  # noqa: F401 (the game's title, as every caller here writes it)

if TYPE_CHECKING:
    from presstime.hints import Json, Result


def full_title(game: str | None, mode: str | None = None, edition: str | None = None) -> str:
    """The title with its notes: Fit to Print (solo), Heat…"""
    face = games.face(game)
    notes = face.title_notes(mode, edition) if face is not None else []
    return title(game) + (" (%s)" % ", ".join(notes) if notes else "")


def score_unit(game: str | None) -> str:
    """What the game's total is counted in: "pts", "$" or a word ("photo tokens")."""
    face = games.face(game)
    return face.SCORE_UNIT if face is not None else "pts"


def round_words(game: str | None) -> tuple[str, str]:
    """What a round is called, one and many: ("day", "days"), ("round", "rounds")."""
    face = games.face(game)
    return face.ROUND_WORDS if face is not None else ("round", "rounds")


def fields(game: str | None) -> tuple[tuple[str, str, str], ...]:
    """(key, label, unit) of every number a round or the result of the game carries."""
    face = games.face(game)
    return face.ROUND_FIELDS + face.GAME_FIELDS if face is not None else ()


def label(game: str | None, key: str) -> str:
    for k, text, _ in fields(game):
        if k == key:
            return text
    return key.replace("_", " ")


def unit(game: str | None, key: str) -> str:
    """The unit of a number: "pts", "$", or a word ("squares", "heat tokens")."""
    if key == "total":
        return score_unit(game)
    for k, _, u in fields(game):
        if k == key:
            return u
    return "pts"


def amount(game: str | None, key: str, value: Json) -> str:
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


def played(game: str | None, result: Result, rounds: int) -> str:
    """What a game consisted of, for `history`: "3 days", "3 heists", "arrested", "6x4 grid"."""
    return games.face_of(game).played(result, rounds)


def decided_by(result: Result) -> str | None:
    """The rule that decided the winner when it was not simply the highest total (a tie-break, a
    player ahead but out of business, Myth Fits' way of winning); a shared win says what tied.
    None when the highest total alone decided it."""
    return games.face_of(games.of(result)).decided_by(result)


def winner_text(
    game: str | None, winners: list[str], decider: str | None, score: int | float | None = None
) -> str:
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


def field_words() -> dict[str, str]:
    """{key: the players' word} of every number a game's record or result carries."""
    words = {}
    for game in games.names():
        words.update(games.face_of(game).RECORD_WORDS)
        for key, label, unit in fields(game):
            words.setdefault(
                key, unit if unit.startswith(label + " ") else label
            )  # heat: "heat tokens"
    return words


def players_words(message: str) -> str:
    """A message of the core in the game's words: its field names (white_space, photo_tokens,
    "field heat") as the players call them ("white space", "photo tokens", "heat tokens"). For
    what a player types at a question; a game file's errors keep the file's own keys."""
    import re

    words = field_words()

    def word(m: re.Match[str]) -> str:
        return words.get(m.group(2), m.group(0))

    message = re.sub(r"\b(field )([a-z_]+)\b", word, message)
    return re.sub(r"\b()([a-z]+(?:_[a-z]+)+)\b", word, message)
