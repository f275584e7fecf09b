"""Heat, Mini FITS and Myth Fits through the pty, end to end: `presstime play --demo --game X`
against the simulator firmware on an os.openpty() pair, then `presstime sync` rebuilding the
game from the board's journal into a record `presstime score` accepts; `presstime watch --once`
for each table mode; the numbers' entry (entry/engine.py Entry) refusing with the core's
words."""

import json
import time

import pytest

from presstime import cli
from presstime.history.store import Store
from presstime.sync import rebuild
from simboard import client_for, wait_until

pytest.importorskip("serial")


@pytest.mark.slow
@pytest.mark.parametrize(
    "game,expect",
    [
        ("heat", ["Heist 3 over.", "heat value: $", "Winner:"]),
        ("mini-fits", ["Round 2 over.", "round 2", "Winner:"]),
        ("myth-fits", ["grid: 6x4", "photographers: 3", "WINS with 4 photo tokens", "Winner:"]),
    ],
)
def test_play_demo_then_sync_gives_a_record_score_accepts(game, expect, sim, tmp_path, capsys):
    db = str(tmp_path / "history.db")
    t0 = time.monotonic()
    assert (
        cli.main(["play", "--demo", "--save", "--game", game, "--port", sim.path, "--db", db]) == 0
    )
    assert time.monotonic() - t0 < 40
    out = capsys.readouterr().out
    for text in expect:
        assert text in out, text
    assert "Saved as game 1" in out
    with Store(db) as store:
        [(gid, played)] = store.games()
        assert store.list_drafts() == []
    assert played["game"] == game

    assert cli.main(["sync", "--port", sim.path, "--db", db, "--json"]) == 0
    synced = json.loads(capsys.readouterr().out)
    [summary] = synced["games"]
    assert summary["game"] == game and summary["over"] and summary["stored"] == gid
    assert "problem" not in summary
    reveals = [r["reveals"] for r in summary["round_details"]]
    assert reveals == {"heat": [4, 4, 4], "mini-fits": [13, 13], "myth-fits": [0]}[game]
    with Store(db) as store:
        [(_, record)] = store.games()
    assert record == played  # the board's journal tells the same game
    if game == "myth-fits":
        assert summary["winner"] == [n for n, k in record["photo_tokens"].items() if k == 4][0]

    path = tmp_path / "synced.json"
    path.write_text(json.dumps(record))
    assert cli.main(["score", str(path)]) == 0
    assert "Winner:" in capsys.readouterr().out

    # the text report names the game and what the board counted
    assert cli.main(["sync", "--port", sim.path, "--db", db]) == 0
    text = capsys.readouterr().out
    assert game + " " in text and ("revealed" in text or "photo tokens:" in text)


def test_sync_of_an_unscored_game_keeps_a_draft(sim, tmp_path, capsys):
    """A Heat game played on the board alone: sync drafts it (the money is typed later)."""
    db = str(tmp_path / "history.db")
    c = client_for(sim)
    c.configure({"game": "heat", "players": ["Ada", "Ben", "Cy"]})
    for p in range(3):
        c.press(p)
    wait_until(c, lambda s: s.get("step") == 2)
    c.close()
    assert cli.main(["sync", "--port", sim.path, "--db", db, "--json"]) == 0
    [summary] = json.loads(capsys.readouterr().out)["games"]
    assert summary["rounds"] == 0 and "draft" in summary
    with Store(db) as store:
        assert store.load_draft(summary["draft"]) == {
            "game": "heat",
            "players": ["Ada", "Ben", "Cy"],
        }


@pytest.mark.slow
def test_watch_once_shows_each_mode(sim, capsys):
    c = client_for(sim)
    c.configure({"game": "heat", "players": ["Ada", "Ben", "Cy"]})
    c.press(1)
    wait_until(c, lambda s: s["players"][1]["state"] == "ready")
    assert cli.main(["watch", "--port", sim.path, "--once"]) == 0
    out = capsys.readouterr().out
    assert "Heat · heist 1/3 · stage 1/4 · ready 1/3" in out and "r Ben" in out

    c.configure({"game": "mini-fits", "players": ["Ada", "Ben"]})
    c.press(0)
    c.press(1)
    wait_until(c, lambda s: s.get("step") == 2)
    assert cli.main(["watch", "--port", sim.path, "--once"]) == 0
    assert "Mini FITS · round 1/2 · card 1/13 on the table (12 left)" in capsys.readouterr().out

    time.sleep(0.2)  # the last presses are released (80 ms) before the next set-up
    c.configure({"game": "myth-fits", "players": ["Ada", "Ben"], "turn_ms": 60000})
    c.start()
    c.press(0)
    wait_until(c, lambda s: s.get("turn") == 1)
    c.press(0, 1000)  # held: a photo token for Ada, on Ben's turn
    wait_until(c, lambda s: s["players"][0]["photos"] == 1)
    assert cli.main(["watch", "--port", sim.path, "--once"]) == 0
    out = capsys.readouterr().out
    assert "Myth Fits · running" in out and "turn: Ben" in out and "of 1:00" in out
    assert ">~ Ben" in out and "Ada photos 1/3" in out
    c.close()


def test_watch_lines_give_myth_fits_setup_facts():
    from presstime.core.table import Table
    from presstime.tableside import status_text

    t = Table()
    t.configure({"game": "myth-fits", "players": ["Ada", "Ben", "Cy", "Dee"]})
    text = "\n".join(status_text.lines(t.status(0)))
    assert "grid: 6x6" in text and "photographers: 4" in text and "photo tokens to win: 5" in text


def test_play_refuses_a_player_count_the_game_does_not_take(sim, tmp_path, capsys):
    db = str(tmp_path / "h.db")
    assert (
        cli.main(["play", "--game", "heat", "--players", "Ada,Ben", "--port", sim.path, "--db", db])
        == 2
    )
    assert "players" in capsys.readouterr().err
    assert (
        cli.main(["play", "--game", "heat", "--mode", "family", "--port", sim.path, "--db", db])
        == 2
    )
    assert (
        cli.main(
            ["play", "--turn-limit", "0:30", "--port", sim.path, "--players", "A,B", "--db", db]
        )
        == 2
    )


def _entry(record, answers):
    from presstime.entry.engine import Entry

    said = []
    it = iter(answers)
    e = Entry(record, lambda r: None, ask=lambda p: next(it), say=said.append)
    return e, said


def test_heat_entry_refuses_with_the_core_message_and_reasks():
    record = {"game": "heat", "players": ["Ada", "Ben", "Cy"]}
    e, said = _entry(record, ["n", "-3", "3", "40", "2", "30", "16", "5", "20", "9", "4"])
    e.enter()
    assert any("heat value: give the cost as a positive number" in s for s in said)
    assert any("final, player Ben, heat tokens: must be 0 to 15" in s for s in said)
    assert any("final, heat tokens: 16 heat tokens in all" in s for s in said)
    assert record["final"]["Cy"] == {"money": 20, "heat": 4}
    assert e.finish()["winners"] == ["Ada"]


def test_mini_fits_entry_asks_colour_sets_in_round_two_only():
    record = {"game": "mini-fits", "players": ["Ada"]}
    e, said = _entry(record, ["11", "7", "8", "4", "2"])
    e.enter(round_index=0)
    assert record["rounds"][0]["players"]["Ada"] == {"lines": 7}
    e.enter(round_index=1)
    assert record["rounds"][1]["players"]["Ada"] == {"lines": 8, "colour_sets": 2}
    assert sum("must be 0 to" in s for s in said) == 2
    assert e.finish()["players"][0]["rating"] == "Magni-fits"


def test_myth_fits_entry_asks_who_gathered_unless_the_photos_decided():
    record = {"game": "myth-fits", "players": ["Ada", "Ben"], "photo_tokens": {"Ada": 1, "Ben": 2}}
    e, said = _entry(record, ["Bob", "2"])
    e.enter()
    assert "gathered: Bob is not in players" in said[0] and record["gathered"] == "Ben"
    record = {"game": "myth-fits", "players": ["Ada", "Ben"], "photo_tokens": {"Ada": 3, "Ben": 2}}
    e, said = _entry(record, [])
    e.enter()  # Ada holds the target: nothing to ask
    assert "gathered" not in record and e.finish()["winners"] == ["Ada"]


def test_rebuild_reveal_rounds_and_an_undone_win():
    from presstime.core import events as E
    from presstime.core.table import Table

    t = Table()
    t.configure({"game": "myth-fits", "players": ["Ada", "Ben"]}, 0)
    t.control(1000)
    for k in range(3):
        t.photo(0, 2000 + k)  # the third reaches the target: a win
    t.undo(2500)  # ... undone: the game goes on
    t.press(0, 3000000)
    journal = [(i + 1, E.encode(ev)) for i, ev in enumerate(t.drain())]
    [game] = rebuild.games_from_journal(journal)
    assert game["rounds"] == [] and game["winner"] is None
    assert rebuild.game_record(game)["photo_tokens"] == {"Ada": 2, "Ben": 0}

    t = Table()
    t.configure({"game": "mini-fits", "players": ["Ada"], "cards": 2}, 0)
    for k in range(4):
        t.press(0, (1000 + k) * 1000)
        if k == 1:
            t.control(1500)  # next round
    journal = [(i + 1, E.encode(ev)) for i, ev in enumerate(t.drain())]
    [game] = rebuild.games_from_journal(journal)
    assert [r["reveals"] for r in game["rounds"]] == [2, 2]
    assert rebuild.game_record(game) == {
        "game": "mini-fits",
        "players": ["Ada"],
        "rounds": [{"players": {}}, {"players": {}}],
    }


@pytest.mark.slow
def test_play_heat_typed_at_the_table_ends_early_when_everybody_is_arrested(
    sim, tmp_path, capsys, monkeypatch
):
    """Interactive: presses typed as seat numbers (simulator buttons), `end` after the first
    heist, then the one question an arrested game needs."""
    import builtins

    from presstime.tableside import play_session

    typed = ["1", "2", "3"] * 4 + ["e"]
    monkeypatch.setattr(play_session, "_poll_line", lambda timeout: typed.pop(0) if typed else None)
    answers = ["maybe", "y"]
    monkeypatch.setattr(builtins, "input", lambda prompt="": answers.pop(0))
    db = str(tmp_path / "history.db")
    assert (
        cli.main(
            ["play", "--game", "heat", "--players", "Ada,Ben,Cy", "--port", sim.path, "--db", db]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Heist 1 over." in out and "'maybe': type y or n" in out
    assert "No winner. Everybody was arrested." in out
    with Store(db) as store:
        [(_, record)] = store.games()
    assert record == {"game": "heat", "players": ["Ada", "Ben", "Cy"], "arrested": True}
