"""Starting an entry: the game's set-up (the game, then what its face asks: games/<game>.py
`ask_setup`, the players, and what else the game's face sets up) and the engine that asks its
numbers (entry/engine.py Entry), walking them as the face says (its ROUND_SETUP and
ENTRY_STYLE).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from presstime import games
from presstime.entry.answers import read_answer, refused
from presstime.entry.engine import Entry

if TYPE_CHECKING:
    from presstime.entry.engine import Save
    from presstime.hints import Ask, Record, Say


def engine_of(record: Record) -> type[Entry]:
    """The engine of the record's game: the one engine of every game (its face says how its
    questions are walked)."""
    return Entry


def new_entry(
    record: Record,
    save: Save,
    ask: Ask = input,
    say: Say = print,
    typed_tokens: bool = False,
) -> Entry:
    """The entry of a record whose set-up is done (engine.Entry: the arguments)."""
    return Entry(record, save, ask=ask, say=say, typed_tokens=typed_tokens)


def ask_game(
    ask: Ask = input,
    say: Say = print,
    record: Record | None = None,
    save: Save | None = None,
    game: str | None = None,
) -> Record:
    """The game of a new entry (unless `game` is given or the record names it), saved once
    chosen. Raises EntryStopped on EOF or `quit`."""
    record = record if record is not None else {}
    choices = list(games.names())
    first = games.default()
    if game is not None:
        record["game"] = game
    while "game" not in record:
        text = read_answer(ask, "Game (%s) [%s]: " % ("/".join(choices), first)).lower()
        match = (
            [c for c in choices if c == text or (text and c.startswith(text))] if text else [first]
        )
        if len(match) == 1:
            record["game"] = match[0]
            if save is not None:
                save(record)
        else:
            say(refused("  %r is not one of %s" % (text, ", ".join(choices))))
    return record


def ask_setup(
    ask: Ask = input,
    say: Say = print,
    record: Record | None = None,
    save: Save | None = None,
    game: str | None = None,
) -> Record:
    """The game (unless given) and its set-up, each answer checked by the core as typed and
    saved (save(record)) when the game's engine keeps it; a record whose set-up stopped part way
    resumes where it stopped. Raises EntryStopped on EOF or `quit`."""
    record = ask_game(ask, say, record=record, save=save, game=game)
    face = games.face_of(games.of(record))
    return record if face.set_up(record) else face.ask_setup(ask, say, record, save)


def set_up(record: Record) -> bool:
    """Is the record's set-up complete (its game named and what its engine asks answered)?"""
    return "game" in record and games.face_of(games.of(record)).set_up(record)
