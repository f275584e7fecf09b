"""Heat's desktop face (games/__init__.py lists what a face declares): heists, dollars and heat
tokens; the fewest heat tokens break a tie; a game may end with everybody arrested."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from presstime.games.common import (
    BOARD_COUNTED,
    BOARD_ENDS,
    CHART_SKIPS,
    DEMO_SETUP,
    ENTRY_STYLE,
    LEADERS,
    MONEY,
    OUT,
    POINT_CATEGORIES,
    RECORD_MODES,
    ROUND_SETUP,
    SCOREPAD_LINES,
    STATS_COLUMNS,
    ask_setup,
    card_columns,
    counted,
    entered,
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
    top_of,
)
from presstime.history.game_words import amount

if TYPE_CHECKING:
    from presstime.hints import Json, Record, Result

GAME = "heat"
SCORE_UNIT = "$"
ROUND_WORDS = ("heist", "heists")
ROUND_FIELDS = ()
GAME_FIELDS = (
    ("money", "money", "$"),
    ("heat", "heat", "heat tokens"),
    ("paid", "paid for heat", "$"),
)
# the heist card game: its name says which Heat it is, so that BG Stats does not match it to the
# racing game "Heat: Pedal to the Metal"
BG_STATS_NAME = "Heat (the heist card game, Asmadi Games)"
BGG = None
DEMO_ANSWERS = {"heat_value": (2, 4), "money": (15, 60), "heat": (0, 3)}
ENTRY_WORDS = "everybody arrested?, the heat value, each player's money and heat tokens"
HEISTS = 3
RECORD_WORDS = {"heat_value": "heat value"}  # a record's own number


def answered(record: Record, path: tuple[Any, ...], value: Json) -> None:
    """Everybody arrested: the game needs no final money and no heat value (dropped if typed)."""
    if path == ("arrested",) and value is True:
        record.pop("final", None)
        record.pop("heat_value", None)


def board_record(config: dict[str, Any], game: dict[str, Any], base: Record | None) -> Record:
    """Players only: money, heat, the heat value and `arrested` are typed."""
    return players_only(config, game, base)


def played(result: Result, rounds: int) -> str:
    """ "3 heists", or "arrested"."""
    return "arrested" if result.get("arrested") else "%d %s" % (HEISTS, ROUND_WORDS[1])


def decided_by(result: Result) -> str | None:
    """The fewest heat tokens break a tie at the most money; a shared win says what tied."""
    winners, players, won, top = top_of(result)
    if not winners:
        return None
    tied = [p for p in players if p.get("total") == top]
    shown = amount(GAME, "total", top)
    if len(tied) > len(winners):
        if len(winners) > 1:
            return "tie at %s and %s: shared" % (shown, amount(GAME, "heat", won[0].get("heat")))
        return "tie at %s, fewest heat tokens: %s" % (shown, won[0].get("heat"))
    if len(winners) > 1:
        return "tie at %s: shared" % shown
    return None
