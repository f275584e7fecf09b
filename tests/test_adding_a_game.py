"""docs/adding-a-game.md, followed for a throwaway game: Dice Duel is its core face
(tests/fixtures/throwaway_game/dice_duel.py), its host face (host/dice_duel.py there) and its
vectors, nothing else. Put where the core and the desktop find faces and named at the end of
GAMES, it is checked and scored, set up and played on the round machine, journaled and
replayed, typed in at the scorepad, mirrored, offered by the CLI, and every command speaks of
it in its own words, with no other file knowing it."""

import glob
import json
import os

import pytest

import presstime.core
import presstime.games
from mpy import ROOT
from presstime import cli
from presstime.core import events as E, games
from presstime.core.table import Table
from presstime.tableside import status_text

HERE = os.path.join(ROOT, "tests", "fixtures", "throwaway_game")
VECTORS = sorted(glob.glob(os.path.join(HERE, "vectors", "*.json")))


@pytest.fixture
def dice_duel(monkeypatch):
    """The doc's steps: the core face where the core's games are, the name at the end of GAMES,
    the host face where the desktop's faces are."""
    monkeypatch.setattr(presstime.core, "__path__", list(presstime.core.__path__) + [HERE])
    monkeypatch.setattr(games, "GAMES", games.GAMES + ("dice-duel",))
    monkeypatch.setattr(
        presstime.games, "__path__", list(presstime.games.__path__) + [os.path.join(HERE, "host")]
    )
    yield games.module("dice-duel")
    import sys

    sys.modules.pop("presstime.core.dice_duel", None)
    sys.modules.pop("presstime.games.dice_duel", None)


def test_the_face_is_complete(dice_duel):
    from test_game_faces import FACE

    assert [n for n in FACE if not hasattr(dice_duel, n)] == []
    assert dice_duel.GAME == "dice-duel" and games.GAMES.index("dice-duel") == 4


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: os.path.basename(p)[:-5])
def test_its_vectors(dice_duel, path):
    with open(path, encoding="utf-8") as f:
        vector = json.load(f)
    problems = games.check(vector["record"])
    if "errors" in vector:
        assert [m for m in vector["errors"] if m not in problems] == []
        return
    assert problems == []
    result = games.score(vector["record"])
    for key, want in vector["expect"].items():
        if key == "players":
            assert [dict((k, p[k]) for k in w) for p, w in zip(result["players"], want)] == want
        else:
            assert result[key] == want, key


def test_the_round_machine_plays_it_and_the_journal_replays_it(dice_duel):
    t = Table()
    t.configure({"game": "dice-duel", "players": ["Ada", "Ben", "Cy"]}, 0)
    st = t.status(0)
    assert (st["mode"], st["rounds"], st["steps"]) == ("ready-reveal", 2, 3)
    with pytest.raises(ValueError) as e:
        Table().configure({"game": "dice-duel", "players": 5}, 0)
    assert "dice-duel takes 2 to 4 players" in str(e.value)
    now = 0
    for _duel in range(2):
        for _roll in range(3):
            for p in range(3):
                now += 100
                t.press(p, now * 1000)
        assert t.status(now)["phase"] == "summary"
        t.next(now)
    assert t.status(now)["phase"] == "over"
    log = [E.encode(ev) for ev in t.drain()]
    assert E.decode(log[0])[1]["game"] == "dice-duel"
    live = dict(t.status(now), reveal_ms=None)  # the reveal flash: display only
    assert dict(E.replay(log).status(now), reveal_ms=None) == live


def test_the_scorepad_asks_the_face_and_the_mirror_says_its_words(dice_duel):
    from presstime.entry.start import new_entry

    record = {"game": "dice-duel", "players": ["Ada", "Ben"]}
    answers = ["20", "14", "37", "9", "30"]  # 37 pips: refused by the core, asked again
    said = []
    prompts = []

    def ask(prompt):
        prompts.append(prompt)
        return answers.pop(0)

    result = new_entry(record, lambda r: None, ask=ask, say=said.append).enter_game(typed=False)
    assert result["winners"] == ["Ben"] and record["duels"] == [
        {"Ada": 20, "Ben": 14},
        {"Ada": 9, "Ben": 30},
    ]
    assert prompts[0] == "Dice Duel · duel 1 · Ada · pips kept: "
    assert any("must be 0 to 36 (got 37)" in line for line in said)

    t = Table()
    t.configure({"game": "dice-duel", "players": ["Ada", "Ben"]}, 0)
    t.press(0, 1000)
    line = status_text.one_line(t.status(1))
    assert line.startswith("Dice Duel · duel 1/2 · roll 1/3 · ready 1/2")
    assert status_text.setup_lines(t.status(1)) == ["duels: 2 of 3 rolls each"]


def test_the_cli_offers_it(dice_duel, tmp_path, capsys):
    with pytest.raises(SystemExit):
        cli.command_parser("play")[1].parse_args(["--help"])
    assert "dice-duel" in capsys.readouterr().out
    path = tmp_path / "duel.json"
    path.write_text(
        json.dumps(
            {
                "game": "dice-duel",
                "players": ["Ada", "Ben"],
                "duels": [{"Ada": 20, "Ben": 14}, {"Ada": 9, "Ben": 30}],
            }
        )
    )
    assert cli.main(["score", str(path)]) == 0
    assert "Ben" in capsys.readouterr().out


@pytest.mark.slow
def test_every_command_speaks_its_words(dice_duel, sim, tmp_path, capsys):
    """Its host face (fixtures/throwaway_game/host/dice_duel.py) is all the desktop needs: typed
    in with `enter --game`, played with `play --game`, then the history, stats, charts, the
    result card, the scorepad and the exports say "Dice Duel", "duels" and "pips"."""
    from enter_runner import run_enter
    from presstime.scorepad.session import ScorepadSession

    db = str(tmp_path / "duels.db")
    code, out = run_enter(
        ["--game", "dice-duel"], ["Ada", "Ben", "", "20", "14", "9", "30", "done"], db
    )
    assert code == 0, out
    assert "Dice Duel" in out and "TOTAL (pips)" in out and "Winner: Ben" in out
    assert "Stored as game #1" in out
    capsys.readouterr()
    with pytest.raises(SystemExit):
        cli.command_parser("enter")[1].parse_args(["--help"])
    assert "Dice Duel asks: each player's pips kept in each duel." in capsys.readouterr().out

    assert (
        cli.main(
            ["play", "--demo", "--save", "--game", "dice-duel", "--port", sim.path, "--db", db]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Dice Duel · duel 2/2 · all 3 rolls revealed" in out and "Duel 2 over." in out
    assert "TOTAL (pips)" in out and "Saved as game 2" in out

    assert cli.main(["history", "--db", db]) == 0
    out = capsys.readouterr().out
    assert out.count("Dice Duel") == 2 and out.count("2 duels") == 2 and "rounds" not in out
    assert cli.main(["history", "--db", db, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(g["title"], g["play"], g["rounds"]) for g in listed] == [
        ("Dice Duel", "2 duels", 2)
    ] * 2

    assert cli.main(["stats", "--game", "dice-duel", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "Dice Duel: 2 complete games" in out and "final score in pips" in out

    pytest.importorskip("matplotlib")
    chart, card = tmp_path / "duel.svg", tmp_path / "card.svg"
    assert cli.main(["chart", "1", "-o", str(chart), "--db", db]) == 0
    assert "Dice Duel" in chart.read_text() and "pips" in chart.read_text()
    assert cli.main(["chart", "--all", "--game", "dice-duel", "-o", str(chart), "--db", db]) == 0
    assert "Dice Duel: 2 complete games" in chart.read_text()
    assert cli.main(["card", "1", "-o", str(card), "--db", db]) == 0
    assert "Dice Duel" in card.read_text() and "total (pips)" in card.read_text()
    capsys.readouterr()

    record = {"game": "dice-duel", "players": ["Ada", "Ben"]}
    assert ScorepadSession(record, lambda r: None).public()["title"] == "Dice Duel"

    plays = tmp_path / "duels.bgsplay"
    assert cli.main(["export", "-o", str(plays), "--db", db]) == 0
    exported = json.loads(plays.read_text())
    assert [g["name"] for g in exported["games"]] == ["Dice Duel"] and exported["games"][0][
        "bggId"
    ] == 0
    assert cli.main(["export", "1", "--format", "json", "--db", db]) == 0
    assert json.loads(capsys.readouterr().out)["duels"] == [
        {"Ada": 20, "Ben": 14},
        {"Ada": 9, "Ben": 30},
    ]
