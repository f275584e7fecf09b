"""`presstime enter` for Heat, Mini FITS and Myth Fits: typed without a board, with the same
forgiving entry as Fit to Print (refused as typed, back, fix, round N, resume)."""

import pytest

from enter_runner import run_enter
from presstime.errors import BadInput
from presstime.history import store as store_mod


def _run(argv, answers, db):
    return run_enter(argv, answers, db, echo_prompts=True)


def _stored(db):
    with store_mod.open_store(db) as store:
        games = store.list_games()
        return [store.get_game(g["id"]) for g in games]


def test_heat_refused_as_typed_back_and_fix(tmp_path):
    db = str(tmp_path / "h.db")
    answers = [
        "heat",
        "Ada",
        "Ben",
        "",
        "Cy",
        "Ada",
        "",  # too few; named twice
        "maybe",
        "n",
        "3",
        "40",
        "3",
        "35",
        "x",
        "2",  # not y/n; not a number
        "back",
        "2",
        "30",
        "16",
        "0",  # back to Ben's money; 16 heat refused
        "fix Ben",
        "",
        "1",
        "fix nobody",
        "",
        "done",
    ]
    code, out = _run([], answers, db)
    assert code == 0, out
    assert "players: Heat takes 3 to 5 players (got 2)" in out
    assert "players, seat 4: Ada is named twice" in out
    assert "'maybe': type y or n" in out and "'x' is not a number" in out
    assert "final, player Cy, heat tokens: must be 0 to 15 (got 16)" in out
    assert "fix NAME: no player 'nobody'" in out
    [record] = _stored(db)
    assert record["final"]["Ben"] == {"money": 35, "heat": 1} and record["heat_value"] == 3
    assert "Winner: Ada" in out


def test_mini_fits_round_again_and_colour_sets_in_round_two(tmp_path):
    db = str(tmp_path / "h.db")
    answers = [
        "mini-fits",
        "Ada",
        "Ben",
        "",
        "7",
        "5",
        "11",
        "8",
        "2",
        "9",
        "4",  # 11 lines refused, 4 sets refused
        "3",
        "round 1",
        "",
        "6",
        "done",
    ]
    code, out = _run(["--game", "mini-fits"], answers[1:], db)
    assert code == 0, out
    assert "must be 0 to 10 (got 11)" in out and "(got 4)" in out
    [record] = _stored(db)
    assert record["rounds"][0]["players"] == {"Ada": {"lines": 7}, "Ben": {"lines": 6}}
    assert record["rounds"][1]["players"]["Ben"] == {"lines": 9, "colour_sets": 3}


def test_myth_fits_photo_tokens_typed_and_a_stopped_entry_resumes(tmp_path):
    db = str(tmp_path / "h.db")
    code, out = _run([], ["myth-fits", "Ada", "Ben", "Cy", "", "1", "5"], db)  # 5 > the target 4
    assert code == 1 and "photo tokens that win with 3 players" in out
    assert "run `presstime enter` to continue" in out
    code, out = _run([], ["", "2", "0", "Cy", ""], db)  # resume: Y
    assert code == 0, out
    assert "Resuming: myth-fits game, Ada, Ben, Cy" in out
    [record] = _stored(db)
    assert record == {
        "game": "myth-fits",
        "players": ["Ada", "Ben", "Cy"],
        "photo_tokens": {"Ada": 1, "Ben": 2, "Cy": 0},
        "gathered": "Cy",
    }
    assert "Winner: Cy" in out


def test_back_at_the_end_asks_the_last_question_not_the_first(tmp_path):
    """`back` at `done?` goes to the question answered last (who gathered the creatures), as back
    does everywhere, instead of starting again at the first player's photo tokens."""
    db = str(tmp_path / "h.db")
    answers = [
        "myth-fits",
        "Ada",
        "Ben",
        "",
        "1",
        "1",
        "Ben",  # nobody at the target: who gathered
        "back",
        "Ada",
        "done",
    ]
    code, out = _run([], answers, db)
    assert code == 0, out
    after_back = out.split("done? back", 1)[1]
    assert after_back.lstrip().startswith("Myth Fits · who gathered"), after_back[:200]
    assert "photo tokens [1]" not in after_back
    [record] = _stored(db)
    assert record["gathered"] == "Ada" and record["photo_tokens"] == {"Ada": 1, "Ben": 1}


def test_game_option_mistakes_are_bad_input(tmp_path):
    db = str(tmp_path / "h.db")
    with pytest.raises(BadInput):
        _run(["--game", "heat", "--list"], [], db)
    _run(["--game", "heat"], ["Ada"], db)  # a Heat draft in progress
    with pytest.raises(BadInput) as e:
        _run(["--game", "mini-fits", "--resume"], [], db)
    assert "--game" in e.value.messages[0]
    code, out = _run(["--game", "heat"], ["n", "Ada", "Ben", "Cy", "", "y", "done"], db)
    assert code == 0 and "No winner" in out  # everybody arrested
