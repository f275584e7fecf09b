"""`presstime enter --list` and `--draft KEY`: finishing a game a board played (drafts of
play/sync)."""

from enter_runner import run_enter
from presstime.history import store as store_mod


def _run(argv, answers, db):
    return run_enter(argv, answers, db)


def test_a_board_draft_is_finished_and_stored_under_its_key(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    with store_mod.open_store(db) as store:
        store.save_draft("board:sim-1:7", {"game": "heat", "players": ["Ada", "Ben", "Cy"]})
    code, out = _run(["--list"], [], db)
    assert code == 0 and "board:sim-1:7" in out and "heat game, Ada, Ben, Cy" in out
    code, out = _run(
        ["--draft", "board:sim-1:7"], ["n", "3", "40", "3", "35", "1", "30", "-2", "0"], db
    )
    assert code == 0, out
    assert "final, player Cy, heat tokens: must be 0 to 15 (got -2)" in out  # refused, asked again
    assert "Winner: Ben" in out
    with store_mod.open_store(db) as store:
        assert store.load_draft("board:sim-1:7") is None
        games = store.list_games()
        assert [(g["game"], g["source"]) for g in games] == [("heat", "board:sim-1:7")]
        stored = store.get_game(games[0]["id"])
    assert stored["final"]["Cy"] == {"money": 30, "heat": 0} and stored["heat_value"] == 3
    code, out = _run(["--list"], [], db)
    assert "No drafts" in out


def test_interrupted_draft_is_kept_and_unknown_draft_is_bad_input(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    with store_mod.open_store(db) as store:
        store.save_draft("board:sim-1:9", {"game": "heat", "players": ["Ada", "Ben", "Cy"]})
    code, out = _run(["--draft", "board:sim-1:9"], ["n", "3", "40"], db)
    assert code == 1 and "presstime enter --draft board:sim-1:9" in out
    with store_mod.open_store(db) as store:
        kept = store.load_draft("board:sim-1:9")
    assert kept["heat_value"] == 3 and kept["final"]["Ada"]["money"] == 40
    from presstime.errors import BadInput

    try:
        _run(["--draft", "board:nope:1"], [], db)
    except BadInput as e:
        assert "no such draft" in e.messages[0]
    else:
        raise AssertionError("an unknown draft must be bad input")


def test_discard_drafts_checks_every_key_lists_and_asks(tmp_path, monkeypatch):
    import io
    import sys

    import pytest

    from presstime import cli
    from presstime.errors import BadInput, Failure

    db = str(tmp_path / "h.sqlite3")
    with store_mod.open_store(db) as store:
        store.save_draft("board:sim-1:1", {"players": ["P1", "P2", "P3"], "rounds": []})
        store.save_draft("board:sim-1:2", {"game": "heat", "players": ["Ada", "Ben", "Cy"]})
    code, out = _run(["--list"], [], db)
    assert "--discard KEY" in out
    with pytest.raises(BadInput) as e:  # every unknown key named, nothing dropped
        _run(["--discard", "board:sim-1:1", "nope", "gone", "--yes"], [], db)
    assert [m.split(":")[0] for m in e.value.messages] == ["--discard nope", "--discard gone"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with pytest.raises(BadInput) as e:  # nobody to ask: --yes needed
        _run(["--discard", "board:sim-1:1"], [], db)
    assert "--yes" in e.value.messages[0]

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stdin", Terminal(""))
    with pytest.raises(Failure):  # asked, and the answer was not yes
        _run(["--discard", "board:sim-1:1"], ["n"], db)
    code, out = _run(["--discard", "board:sim-1:1"], ["y"], db)
    assert code == 0 and "P1, P2, P3; 0 rounds started" in out and "discarded: board:sim-1:1" in out
    assert cli.main(["enter", "--discard", "board:sim-1:2", "--yes", "--db", db]) == 0
    assert cli.main(["enter", "--list", "--yes", "--db", db]) == 2
    with store_mod.open_store(db) as store:
        assert store.list_drafts() == []
