"""docs/adding-a-game.md, followed for a throwaway game: Dice Duel is one file (its face,
tests/fixtures/throwaway_game/dice_duel.py) and its vectors, nothing else. Put where the core
finds games and named at the end of GAMES, it is checked and scored, set up and played on the
round machine, journaled and replayed, typed in at the scorepad, mirrored, and offered by the
CLI, with no other file knowing it."""

import glob
import json
import os

import pytest

import presstime.core
from mpy import ROOT
from presstime import cli, mirror
from presstime.core import events as E, games
from presstime.core.table import Table

HERE = os.path.join(ROOT, "tests", "fixtures", "throwaway_game")
VECTORS = sorted(glob.glob(os.path.join(HERE, "vectors", "*.json")))


@pytest.fixture
def dice_duel(monkeypatch):
    """The doc's two steps: the file where the core's games are, the name at the end of GAMES."""
    monkeypatch.setattr(presstime.core, "__path__", list(presstime.core.__path__) + [HERE])
    monkeypatch.setattr(games, "GAMES", games.GAMES + ("dice-duel",))
    yield games.module("dice-duel")
    import sys

    sys.modules.pop("presstime.core.dice_duel", None)


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
    from presstime.game_entry import GameEntry

    record = {"game": "dice-duel", "players": ["Ada", "Ben"]}
    answers = ["20", "14", "37", "9", "30"]  # 37 pips: refused by the core, asked again
    said = []
    prompts = []

    def ask(prompt):
        prompts.append(prompt)
        return answers.pop(0)

    entry = GameEntry(record, lambda r: None, ask=ask, say=said.append)
    entry.enter()
    result = entry.finish()
    assert result["winners"] == ["Ben"] and record["duels"] == [
        {"Ada": 20, "Ben": 14},
        {"Ada": 9, "Ben": 30},
    ]
    assert prompts[0] == "Dice Duel · duel 1 · Ada · pips kept: "
    assert any("must be 0 to 36 (got 37)" in line for line in said)

    t = Table()
    t.configure({"game": "dice-duel", "players": ["Ada", "Ben"]}, 0)
    t.press(0, 1000)
    line = mirror.one_line(t.status(1))
    assert line.startswith("Dice Duel · duel 1/2 · roll 1/3 · ready 1/2")
    assert mirror.setup_lines(t.status(1)) == ["duels: 2 of 3 rolls each"]


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
