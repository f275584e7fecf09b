"""Users see the game's words, never its internal field names."""

import pytest

from presstime.history.game_words import players_words
from test_entry import ADA, BEN, entry, new_record


@pytest.mark.parametrize(
    "core, shown",
    [
        (
            "round 1, player Ada, white_space: 999 squares is more than a front page has (64)",
            "round 1, player Ada, white space: 999 squares is more than a front page has (64)",
        ),
        (
            "final, player Cy, field heat: must be 0 to 15 (got -2)",
            "final, player Cy, heat tokens: must be 0 to 15 (got -2)",
        ),
        ("photo_tokens: Ada must be 0 to 4", "photo tokens: Ada must be 0 to 4"),
        (
            "file /tmp/my_white_space.json: no such file",
            "file /tmp/my_white_space.json: no such file",
        ),
    ],
)
def test_field_names_become_the_games_words(core, shown):
    assert players_words(core) == shown


def test_entry_refusals_use_the_games_words():
    e, s, _ = entry(new_record(), ["2 1", "", "999", "4", "7"] + ADA + BEN)
    e.enter_round(0)
    assert "white space: 999 squares" in s.text() and "white_space" not in s.text()
