"""What `sync` says of a game the board counted (commands/sync.py other_game_lines): the counted
numbers under the face's label, and how it ended in the face's words (BOARD_ENDS), for Myth
Fits; a game whose face counts nothing says no such line."""

from presstime.commands.sync import other_game_lines


def _summary(**kw):
    s = {
        "game": "myth-fits",
        "players": ["Ada", "Ben"],
        "round_details": [],
        "rounds": 3,
        "photo_tokens": {"Ada": 1, "Ben": 3},
    }
    s.update(kw)
    return s


def test_a_won_game_names_its_winner_in_the_faces_words():
    lines = other_game_lines(_summary(winner="Ben"))
    assert "photo tokens: Ada 1, Ben 3" in lines
    assert lines[-1] == "Ben reached the photo-token target"


def test_a_game_ended_at_the_table_says_what_is_still_typed():
    lines = other_game_lines(_summary(winner=None))
    assert lines[-1] == (
        "ended at the table (who gathered the creatures is typed: presstime play or the draft)"
    )


def test_a_game_that_counts_nothing_says_nothing_of_its_end():
    s = {"game": "heat", "players": ["Ada", "Ben", "Cy"], "round_details": [], "rounds": 3}
    assert not any("target" in x or "ended at the table" in x for x in other_game_lines(s))
