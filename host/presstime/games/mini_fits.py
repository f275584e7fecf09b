"""Mini FITS' desktop face (games/__init__.py lists what a face declares): rounds of complete
lines, colour sets counted in the last round."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime.games.common import (
    BG_STATS_NAME,
    BGG,
    BOARD_COUNTED,
    BOARD_ENDS,
    CHART_SKIPS,
    DEMO_SETUP,
    ENTRY_STYLE,
    MONEY,
    OUT,
    RECORD_MODES,
    RECORD_WORDS,
    ROUND_SETUP,
    SCOREPAD_LINES,
    STATS_COLUMNS,
    answered,
    ask_setup,
    by_rounds,
    card_columns,
    counted,
    decided_by,
    entered,
    mode_scores,
    play_config,
    play_mode,
    play_options,
    play_setup,
    played,
    record_facts,
    rounds_played,
    set_up,
    standings_text,
    title_notes,
)

if TYPE_CHECKING:
    from presstime.hints import Record

GAME = "mini-fits"
SCORE_UNIT = "pts"
ROUND_WORDS = ("round", "rounds")
# lines and colour sets are counts, each drawn on its own axis
ROUND_FIELDS = (
    ("lines", "lines", "lines"),
    ("colour_sets", "colour sets", "colour sets"),
    ("score", "round score", "pts"),
)
GAME_FIELDS = ()
POINT_CATEGORIES = ()
LEADERS = (("colour_sets", "the colour collector", "most colour sets a round", "most"),)
DEMO_ANSWERS = {"lines": (3, 9), "colour_sets": (0, 3)}
ENTRY_WORDS = "each player's complete lines per round and the colour sets in round 2"


def board_record(config: dict[str, Any], game: dict[str, Any], base: Record | None) -> Record:
    """Players and one round per round the board finished (lines and colour sets are typed)."""
    return by_rounds(config, game, base)
