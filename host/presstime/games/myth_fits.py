"""Myth Fits' desktop face (games/__init__.py lists what a face declares): photo tokens on a
grid; the first to the target, or the player who gathered three creatures, wins."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime.games.common import (
    BG_STATS_NAME,
    BGG,
    CHART_SKIPS,
    DEMO_SETUP,
    ENTRY_STYLE,
    LEADERS,
    MONEY,
    OUT,
    POINT_CATEGORIES,
    RECORD_MODES,
    RECORD_WORDS,
    ROUND_SETUP,
    SCOREPAD_LINES,
    STATS_COLUMNS,
    answered,
    ask_setup,
    card_columns,
    mode_scores,
    play_config,
    play_mode,
    play_options,
    play_setup,
    players_only,
    record_facts,
    rounds_played,
    set_up,
    standings_text,
    title_notes,
)

if TYPE_CHECKING:
    from presstime.hints import Record, Result

GAME = "myth-fits"
SCORE_UNIT = "photo tokens"
ROUND_WORDS = ("turn", "turns")
ROUND_FIELDS = ()
# how sync tells a game the board counted ended: the photo-token target reached, or ended at the
# table (who gathered the creatures is still to be typed)
BOARD_ENDS = (
    "reached the photo-token target",
    "ended at the table (who gathered the creatures is typed: presstime play or the draft)",
)
GAME_FIELDS = (("photo_tokens", "photo tokens", "photo tokens"),)
DEMO_ANSWERS = {}
BOARD_COUNTED = ("photo_tokens",)  # typed when no board counted them (`enter`)
ENTRY_WORDS = (
    "each player's photo tokens, then who gathered their three creatures "
    "(if nobody reached the target)"
)


def board_record(config: dict[str, Any], game: dict[str, Any], base: Record | None) -> Record:
    """Players and the photo tokens the board counted; `gathered` is null unless it was entered."""
    record = players_only(config, game, base)
    record["photo_tokens"] = dict(
        game.get("photo_tokens")
        or record.get("photo_tokens")
        or dict((n, 0) for n in config.get("names", []))
    )
    record.setdefault("gathered", None)
    return record


def counted(record: Record, status: dict[str, Any]) -> bool:
    """The photo tokens the board counted in a game in turns, from its last status."""
    if status.get("mode") != "turns":
        return False
    record["photo_tokens"] = dict((p["name"], p.get("photos", 0)) for p in status["players"])
    return True


def entered(record: Record) -> None:
    """Nobody named as the gatherer (the question not asked: a player holds the target) is kept
    as `gathered: null`, as a board's record has it."""
    record.setdefault("gathered", None)


def played(result: Result, rounds: int) -> str:
    """ "6x4 grid"."""
    return "%s grid" % result["grid"] if result.get("grid") else "-"


def decided_by(result: Result) -> str | None:
    """Three creatures gathered, or the first to the photo tokens that win."""
    if not result.get("winners"):
        return None
    if result.get("won_by") == "gathered":
        return "gathered three creatures"
    if result.get("won_by") == "photos":
        return "first to %s photo tokens" % result.get("target")
    return None
