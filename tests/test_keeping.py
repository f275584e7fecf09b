"""One place stores a game, whoever played it (history/keeping.py), and a finished game is checked
and scored once: the standings `play` and `enter` showed are what the history keeps."""

import json

import pytest

from enter_runner import run_enter
from presstime import cli, records
from presstime.history import keeping, results, store as store_mod
from presstime.history.store import Store


@pytest.fixture
def spied(monkeypatch):
    """How many times the store checks a record, and scores one itself."""
    calls = {"check": 0, "score": 0}
    check, summarize = store_mod._check, results.summarize_checked

    def counted_check(record):
        calls["check"] += 1
        return check(record)

    def counted_summary(record, added_at="", result=None):
        calls["score"] += result is None
        return summarize(record, added_at, result)

    monkeypatch.setattr(store_mod, "_check", counted_check)
    monkeypatch.setattr(results, "summarize_checked", counted_summary)
    return calls


HEAT = {
    "game": "heat",
    "players": ["Ada", "Ben", "Cy"],
    "arrested": False,
    "heat_value": 3,
    "final": {
        "Ada": {"money": 40, "heat": 2},
        "Ben": {"money": 35, "heat": 0},
        "Cy": {"money": 20, "heat": 1},
    },
}


def test_a_finished_game_is_stored_with_the_result_shown(tmp_path, spied):
    result = records.tally(HEAT)
    with Store(str(tmp_path / "h.db")) as store:
        game_id = keeping.store_finished(store, HEAT, "enter", result)
        assert spied == {"check": 0, "score": 0}
        [row] = [g for g in store.list_games() if g["id"] == game_id]
        assert row["source"] == "enter" and store.get_game(game_id) == HEAT
    assert results.summarize(json.dumps(HEAT)).game["status"].startswith("winner: ")


def test_a_record_not_yet_in_nfc_is_checked_again(tmp_path, spied):
    record = dict(
        HEAT,
        players=["Ada", "Ben", "Zoe\u0301"],
        final=dict(HEAT["final"], **{"Zoe\u0301": {"money": 1, "heat": 0}}),
    )
    del record["final"]["Cy"]
    result = records.tally(record)
    with Store(str(tmp_path / "h.db")) as store:
        game_id = keeping.store_finished(store, record, "enter", result)
        assert spied == {"check": 1, "score": 1}
        assert store.get_game(game_id)["players"][2] == "Zo\u00e9"


def test_enter_stores_what_it_checked(tmp_path, spied):
    code, out = run_enter(
        ["--game", "heat"],
        ["Ada", "Ben", "Cy", "", "n", "3", "40", "2", "35", "0", "20", "1", "done"],
        str(tmp_path / "e.db"),
    )
    assert code == 0 and "Stored as game #1" in out, out
    assert spied == {"check": 0, "score": 0}


@pytest.mark.slow
@pytest.mark.parametrize("game", ["fit-to-print", "heat"])
def test_play_stores_what_it_scored(game, sim, tmp_path, spied, capsys):
    db = str(tmp_path / "p.db")
    assert (
        cli.main(["play", "--demo", "--save", "--game", game, "--port", sim.path, "--db", db]) == 0
    )
    assert "Saved as game 1" in capsys.readouterr().out
    assert spied == {"check": 0, "score": 0}
