"""The scorepad for every game: what each seat is asked comes from the entry (the core's
answers), and `play --demo --scorepad` plays each game with simulated phones over HTTP."""

import os
import subprocess
import sys

import pytest

from helpers import fit_to_print_record
from presstime.scorepad.questions import problems, seat_questions


def fields(record, r=0):
    return dict((seat, [q.field for q in qs]) for seat, qs in seat_questions(record, r).items())


def test_each_game_asks_its_own_numbers_per_seat():
    f2p = fit_to_print_record(["A", "B"])
    assert fields(f2p)[0] == [
        "white_space",
        "articles",
        "photos",
        "centerpiece",
        "smiles",
        "frowns",
        "unplaced",
        "ads",
    ]
    news = dict(
        f2p,
        rounds=[
            {
                "day": "friday",
                "players": {},
                "breaking_news": [{"effect": "most-tiles-ads", "amount": 4}],
            }
        ],
    )
    assert "tiles" in fields(news)[1]
    family = dict(f2p, mode="family", rounds=[{"players": {}, "breaking_news": []}])
    assert fields(family)[0] == ["articles", "photos", "unplaced", "ads"]
    mini = {"game": "mini-fits", "players": ["A", "B"]}
    assert fields(mini, 0) == {0: ["lines"], 1: ["lines"]}
    assert fields(mini, 1) == {0: ["lines", "colour_sets"], 1: ["lines", "colour_sets"]}
    heat = {"game": "heat", "players": ["A", "B", "C"], "arrested": False, "heat_value": 3}
    assert fields(heat, None) == {0: ["money", "heat"], 1: ["money", "heat"], 2: ["money", "heat"]}
    assert fields(heat, 0) == {}  # a heist's numbers: none (the end's only)
    assert fields(dict(heat, arrested=True), None) == {}
    assert (
        fields({"game": "myth-fits", "players": ["A", "B"]}, None) == {}
    )  # the gatherer: the host's


def test_the_core_refuses_what_the_rules_refuse():
    mini = {"game": "mini-fits", "players": ["A", "B"]}
    q = seat_questions(mini, 0)[0][0]
    assert problems(mini, q, 3) == []
    assert problems(mini, q, -1)
    heat = {"game": "heat", "players": ["A", "B"], "arrested": False, "heat_value": 3}
    money = seat_questions(heat, None)[1][0]
    assert problems(heat, money, 40) == [] and problems(heat, money, -5)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["heat", "mini-fits"])
def test_play_demo_with_phones(game, tmp_path):
    env = dict(os.environ, PRESSTIME_RUNTIME=str(tmp_path / "run"), NO_COLOR="1")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "presstime",
            "play",
            "--demo",
            "--save",
            "--scorepad",
            "--game",
            game,
            "--db",
            str(tmp_path / "h.sqlite3"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        env=env,
        timeout=600,
    )
    out = r.stdout.decode()
    assert r.returncode == 0, out[-2000:]
    assert "every player's numbers are in" in out
    assert "Traceback" not in out
    assert "Saved as game 1" in out
