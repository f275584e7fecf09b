"""The commands work at a round's set-up questions too (finishing order, Breaking News card):
they were read as answers ("unknown player 'quit'")."""

import pytest

from presstime.entry.answers import EntryStopped
from test_entry import ADA, BEN, entry, new_record


@pytest.mark.parametrize("question", [0, 1])  # the finishing order, the Breaking News card
def test_quit_stops_at_the_round_questions(question):
    answers = ["2 1", ""][:question] + ["quit"]
    e, s, _ = entry(new_record(), answers)
    with pytest.raises(EntryStopped) as stop:
        e.enter_round(0)
    assert not stop.value.eof
    assert "unknown" not in s.text() and "not a number" not in s.text()


def test_back_at_the_card_asks_the_finishing_order_again():
    rec = new_record()
    e, s, _ = entry(rec, ["2 1", "back", "1 2", "mood-doubled", "4", "7"] + ADA + BEN)
    e.enter_round(0)
    assert rec["rounds"][0]["finish"] == ["Ada", "Ben"]
    assert sum("finishing order" in p for p in s.prompts) == 2


def test_back_at_the_first_question_says_so_and_show_and_fix_work():
    rec = new_record()
    e, s, _ = entry(rec, ["2 1", ""] + ["4", "7"] + ADA + BEN)
    e.enter_round(0)
    e, s, _ = entry(
        rec,
        ["back", "show", "fix Ben", "", "", "", "", "", "", "", "", "1 2", "", "4", "7"]
        + ADA
        + BEN,
    )
    e.enter_round(1)
    said = s.text()
    assert "this is the round's first question" in said
    assert "re-entering Ben in round 1" in said
    assert rec["rounds"][1]["finish"] == ["Ada", "Ben"]
    assert "unknown player" not in said


def test_fix_before_any_numbers_says_why():
    e, s, _ = entry(new_record(), ["fix Ada", "2 1", ""] + ["4", "7"] + ADA + BEN)
    e.enter_round(0)
    assert "no player has numbers yet" in s.text()


def test_a_player_named_like_a_command_is_a_finishing_order():
    rec = new_record(players=("Show", "Ben"))
    e, s, _ = entry(rec, ["Show Ben", ""] + ["4", "7"] + ADA + BEN)
    e.enter_round(0)
    assert rec["rounds"][0]["finish"] == ["Show", "Ben"]
