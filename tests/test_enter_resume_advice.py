"""The right advice to resume: `enter --resume` and plain `enter` name the drafts a board's game
left waiting; a stop before the set-up is complete says nothing was kept; `--discard all`."""

import pytest

from enter_runner import run_enter
from presstime.errors import BadInput
from presstime.history import store as store_mod


def _with_board_drafts(db, *keys):
    with store_mod.open_store(db) as store:
        for k in keys:
            store.save_draft(k, {"game": "heat", "players": ["Ada", "Ben", "Cy"]})


def test_resume_names_the_waiting_board_drafts(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    _with_board_drafts(db, "board:sim-1:7")
    with pytest.raises(BadInput) as e:
        run_enter(["--resume"], [], db)
    assert "1 draft of games a board played is waiting (board:sim-1:7)" in e.value.messages[0]
    assert "presstime enter --draft KEY" in e.value.messages[0]


def test_plain_enter_mentions_them_before_a_new_game(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    _with_board_drafts(db, "board:sim-1:7", "board:sim-1:9")
    code, out = run_enter([], ["quit"], db)
    assert "2 drafts of games a board played are waiting (board:sim-1:7, board:sim-1:9)" in out
    assert code == 0 and "nothing was kept" in out and "Everything typed so far is kept" not in out


def test_a_stop_in_the_heat_set_up_says_what_it_kept(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    code, out = run_enter(["--new", "--game", "heat"], ["Ada, Ben", "quit"], db, echo_prompts=True)
    with store_mod.open_store(db) as store:
        kept = store.load_draft("enter")
    assert kept is None, kept  # the player list was not finished
    assert code == 0 and "nothing was kept" in out and "Everything typed so far is kept" not in out


def test_discard_all_drops_every_draft(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    _with_board_drafts(db, "board:sim-1:7", "board:sim-1:9")
    code, out = run_enter(["--discard", "all", "--yes"], [], db)
    assert code == 0 and "discarded: board:sim-1:7, board:sim-1:9" in out
    with store_mod.open_store(db) as store:
        assert store.list_drafts() == []


def test_list_fits_80_columns(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    with store_mod.open_store(db) as store:
        store.save_draft(
            "board:sim-0123456789abcdef:12",
            {
                "game": "fit-to-print",
                "mode": "standard",
                "players": [
                    "Alexandra",
                    "Benedict",
                    "Cyrano",
                    "Dorothea",
                    "Evangeline",
                    "Fitzgerald",
                ],
                "rounds": [{}],
            },
        )
    code, out = run_enter(["--list"], [], db)
    assert code == 0 and all(len(line) <= 80 for line in out.splitlines()), out
    assert "Fitzgerald" in out
