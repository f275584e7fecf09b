"""Each game's desktop face: host/presstime/games/<game>.py beside its core face
(firmware/presstime/core/<game>.py), found through the one list of games, core/games.py's GAMES.
The core face says what the board and the rules need (title, modes, rounds, questions, check,
score); the desktop face says how the desktop talks about the game. Nothing else on the desktop
names a game (tests/test_game_faces.py holds every face to this list and every other host
module to no game's name):

    GAME                 its name, as in GAMES
    SCORE_UNIT           what its total is counted in: "pts", "$" or a word ("photo tokens")
    ROUND_WORDS          what a round is called in the history, one and many: ("day", "days")
    ROUND_FIELDS         (key, label, unit) of the numbers a result's round carries, scorepad order
    GAME_FIELDS          (key, label, unit) of the numbers a result carries per player beside total
    POINT_CATEGORIES     the point categories stacked in a chart's breakdown
    LEADERS              stats' "who is who": (key, title, how, "most" or "least"), round categories
    STATS_COLUMNS        stats' extra columns shown even when nobody has any ("average_token", ...)
    RECORD_MODES         the record's "mode" words history's --mode selects (() for none)
    RECORD_WORDS         {key: the players' word} of the record's own numbers ("heat_value")
    ROUND_SETUP          None, or round_setup(entry, i, round, finish, review, table): asks
                         round i's own set-up before the players' numbers (entry/engine.py)
    SCOREPAD_LINES       the keys of a player's scorepad lines in scorepad order (() when its
                         questions' own order is kept: entry/rounds.py's needed_fields)
    BOARD_COUNTED        the record's per-player numbers a board counts, asked when a game is
                         typed without a board (`enter`): ("photo_tokens",), or ()
    ENTRY_STYLE          how the entry engine walks its questions where games differ: help,
                         prompts, commands' reach, scores shown as typed, the end (walk_style.py)
    BGG                  BoardGameGeek's (id, name) when known for sure, else None
    BG_STATS_NAME        the name BG Stats is given (None: the title)
    DEMO_ANSWERS         {field: (lowest, highest)} of the numbers `play --demo` types
    DEMO_SETUP           {key: value} of a round's own set-up `play --demo` gives each round
    BOARD_ENDS           None, or (won, ended): how sync tells a game the board counted
                         (BOARD_COUNTED) ended: "<winner> <won>", or `ended` when nobody won
    CHART_SKIPS          the ROUND_FIELDS a chart's totals leave out: a round's own total or a
                         measurement, not a number to sum over the game
    MONEY                None, or (key, header, words): the players' dollars beside their total in
                         a result's players and rounds (play's scores between rounds, the CSV,
                         stats' averages, charts), its short column header and its words
                         ("ad revenue"); the history keeps one per player
    OUT                  None, or (key, header, words): a result's flag of a player out of the
                         game (the board's lights, the CSV, stats), its short column header and
                         its words ("out of business"); the history keeps one per player
    ENTRY_WORDS          what `enter` asks, in a few words (its --help)
    title_notes(mode, edition)     -> what the title says beside the name: ["solo"], []
    played(result, rounds)         -> what a game consisted of, for `history`: "3 days", "arrested"
    decided_by(result)             -> the rule that decided the winner, or None (game_words)
    standings_text(result, record) -> the standings as text (`score`, `show`, `play`, `enter`)
    card_columns(result)           -> [(header, key)] of the result card's table before the total
    board_record(config, game, base) -> the history's record of a game a board played (rebuild)
    counted(record, status)        -> the numbers a board counted, from a round's last status, into
                                      the record in place (Myth Fits' photo tokens): changed?
    play_mode(record)              -> the core's mode the record is played in (its rounds, days)
    record_facts(record)           -> (mode, edition) the history keeps of a record ("" for none)
    rounds_played(record)          -> how many rounds the record holds
    mode_scores(mode, key)         -> does a round in this mode score the category `key`?
    answered(record, path, value)  -> what else an answer changes in the record (entry), in place
    entered(record)                -> what a record played at the table holds once every question
                                      is asked, in place (Myth Fits: `gathered` null, nobody named)
    set_up(record)                 -> is the record's set-up complete (its numbers can be asked)?
    ask_setup(ask, say, record, save) -> the set-up questions of a new game (`enter`, `play`)
    play_options(args)             -> `play`'s options the game does not take refused (BadInput),
                                      and those it takes checked, before its set-up is asked
    play_setup(args, ask, say)     -> the record `play` starts: set up from its options (the
                                      players given, the demo's) or asked at the table
    play_config(record, args)      -> the board's set-up (configure) for that record and options

games/common.py holds what most faces say the same way; a face takes what it shares from there.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, cast, overload

from presstime.core import games as _core
from presstime.errors import BadInput

if TYPE_CHECKING:
    import argparse

    from presstime.entry.walk_style import WalkStyle
    from presstime.hints import Ask, Json, Record, Result, Say


class Face(Protocol):
    """What every desktop face declares (the list above), for the type checker."""

    GAME: str
    SCORE_UNIT: str
    ROUND_WORDS: tuple[str, str]
    ROUND_FIELDS: tuple[tuple[str, str, str], ...]
    GAME_FIELDS: tuple[tuple[str, str, str], ...]
    POINT_CATEGORIES: tuple[str, ...]
    LEADERS: tuple[tuple[str, str, str, str], ...]
    STATS_COLUMNS: tuple[str, ...]
    RECORD_MODES: tuple[str, ...]
    RECORD_WORDS: dict[str, str]
    ROUND_SETUP: Callable[..., None] | None
    SCOREPAD_LINES: tuple[str, ...]
    BOARD_COUNTED: tuple[str, ...]
    ENTRY_STYLE: WalkStyle
    BGG: tuple[int, str] | None
    BG_STATS_NAME: str | None
    DEMO_ANSWERS: dict[str, tuple[int, int]]
    DEMO_SETUP: dict[str, Any]
    CHART_SKIPS: tuple[str, ...]
    BOARD_ENDS: tuple[str, str] | None
    MONEY: tuple[str, str, str] | None
    OUT: tuple[str, str, str] | None
    ENTRY_WORDS: str
    title_notes: Callable[[str | None, str | None], list[str]]
    played: Callable[[Result, int], str]
    decided_by: Callable[[Result], str | None]
    standings_text: Callable[..., str]
    card_columns: Callable[[Result], list[tuple[str, str]]]
    board_record: Callable[[dict[str, Any], dict[str, Any], Record | None], Record]
    counted: Callable[[Record, dict[str, Any]], bool]
    play_mode: Callable[[Record], str]
    record_facts: Callable[[Record], tuple[str, str]]
    rounds_played: Callable[[Record], int]
    mode_scores: Callable[[str | None, str], bool]
    answered: Callable[[Record, tuple[Any, ...], Json], None]
    entered: Callable[[Record], None]
    set_up: Callable[[Record], bool]
    ask_setup: Callable[..., Record]
    play_options: Callable[[argparse.Namespace], None]
    play_setup: Callable[[argparse.Namespace, Ask, Say], Record]
    play_config: Callable[[Record, argparse.Namespace], dict[str, Any]]


def names() -> tuple[str, ...]:
    """The games, in the core's order (read now: the list is the core's, one copy)."""
    return _core.GAMES


def default() -> str:
    """The game of a record that names none."""
    return _core.GAMES[0]


@overload
def of(record: dict[str, Any]) -> str: ...
@overload
def of(record: Json) -> str | None: ...
def of(record: Json) -> str | None:
    """The game a record or a result says it is (the default when it names none; None for what
    is no record at all)."""
    return _core.game_of(record)


def core(game: str | None) -> ModuleType | None:
    """The core face of `game`, None for an unknown game."""
    return _core.module(game)


def face(game: str | None) -> Face | None:
    """The desktop face of `game`, imported now if it was not yet; None for an unknown game."""
    if game is None or game not in _core.GAMES:
        return None
    return cast(Face, __import__(__name__ + "." + game.replace("-", "_"), None, None, ("GAME",)))


def _unknown(game: str | None) -> BadInput:
    return BadInput("%r: not a game presstime knows (one of %s)" % (game, ", ".join(_core.GAMES)))


def face_of(game: str | None) -> Face:
    """The desktop face of a game the caller holds as known (a checked record's, a stored
    result's): BadInput naming the game otherwise, never None."""
    f = face(game)
    if f is None:
        raise _unknown(game)
    return f


def core_of(game: str | None) -> ModuleType:
    """The core face of a game the caller holds as known: BadInput naming the game otherwise."""
    m = core(game)
    if m is None:
        raise _unknown(game)
    return m


def title(game: str | None) -> str:
    """How people write the game ("Mini FITS"); the name itself for an unknown one."""
    m = core(game)
    return m.TITLE if m is not None else str(game)


def kept(attr: str) -> str | None:
    """The key of the MONEY or OUT (`attr`) the history keeps for every game: the first face's
    that declares one, in the core's order (None when no face does)."""
    for game in _core.GAMES:
        declared = getattr(face_of(game), attr)
        if declared:
            return declared[0]
    return None


def board_counted() -> tuple[str, ...]:
    """The record fields a board counts, every face's BOARD_COUNTED in the core's order: each
    maps a player's name to a number (a synced draft carries them; `sync` shows them)."""
    out: list[str] = []
    for game in _core.GAMES:
        out.extend(k for k in face_of(game).BOARD_COUNTED if k not in out)
    return tuple(out)


def record_answers() -> tuple[str, ...]:
    """The record fields that hold one answer each: every face's RECORD_WORDS (the record's own
    numbers), then the other questions a core face asks at the end whose answer sits at the
    record's top level (a yes/no, a player), in the core's order."""
    out: list[str] = []
    for game in _core.GAMES:
        out.extend(k for k in face_of(game).RECORD_WORDS if k not in out)
    for game in _core.GAMES:
        for path, _kind, _words in core_of(game).fields({"game": game, "players": []}, None):
            if len(path) == 1 and path[0] not in out:
                out.append(path[0])
    return tuple(out)


def with_modes() -> list[str]:
    """The games whose records carry a mode (history's --mode), in the core's order."""
    return [g for g in _core.GAMES if face_of(g).RECORD_MODES]


def in_turns() -> list[str]:
    """The games played in turns (a core mode "turns"): those a turn limit is for, in the core's
    order."""
    return [g for g in _core.GAMES if "turns" in core_of(g).MODES]
