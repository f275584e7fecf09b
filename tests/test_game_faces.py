"""Every game module declares the same face (core/games.py), and the one list of games keeps
its wire order: a game's index is what the journal and the wire carry."""

import json
import os
import subprocess
import sys

import pytest

from mpy import FIRMWARE, ROOT, needs_micropython, run_micropython
from presstime.core import events as E, games

# the face's names, as core/games.py's docstring lists them
FACE = (
    "GAME",
    "TITLE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "MODES",
    "players",
    "rounds_in",
    "ROUND_WORD",
    "round_name",
    "STEPS",
    "STEP_WORD",
    "STEPS_LEFT",
    "target",
    "setup_lines",
    "fields",
    "check",
    "score",
)
KINDS = ("int", "yes/no", "player")


def test_the_wire_order_is_kept():
    # append-only: these indexes are in every journal and on the wire (CONFIG's game byte)
    assert games.GAMES[:4] == ("fit-to-print", "heat", "mini-fits", "myth-fits")
    for i, game in enumerate(games.GAMES):
        cfg = {
            "mode": games.module(game).MODES[0],
            "names": ["A", "B", "C"],
            "colours": [(1, 2, 3)] * 3,
            "duration_ms": 60000,
            "grace_ms": 0,
            "tie_us": 0,
            "two_step": False,
            "grace_fallback": "seat",
            "edition": "published",
            "game": game,
            "rounds": 1,
            "steps": 1,
            "turn_ms": 0,
            "target": 0,
        }
        data = E.encode((E.CONFIG, cfg))
        assert data[13] == i  # the game byte of the CONFIG record (events._CFG)
        assert E.decode(data)[1]["game"] == game


def test_unknown_games_have_no_face():
    assert games.module("chess") is None and games.module(None) is None


@pytest.mark.parametrize("game", games.GAMES)
def test_every_game_declares_the_face(game):
    face = games.module(game)
    missing = [n for n in FACE if not hasattr(face, n)]
    assert missing == []
    assert face.GAME == game and face.TITLE
    assert 1 <= face.MIN_PLAYERS <= face.MAX_PLAYERS <= 6
    for mode in face.MODES:
        assert mode in E.MODES  # a mode the round machine has
        lo, hi = face.players(mode)
        assert face.MIN_PLAYERS <= lo <= hi <= face.MAX_PLAYERS
        assert 1 <= face.rounds_in(mode) <= 9
        for i in range(face.rounds_in(mode)):
            name = face.round_name(mode, i)
            assert name is None or isinstance(name, str)
    assert (face.STEPS == 0) == (face.STEP_WORD is None)
    for n in range(face.MIN_PLAYERS, face.MAX_PLAYERS + 1):
        assert isinstance(face.target(n), int) and isinstance(face.setup_lines(n), list)


def _good_vectors(game):
    folder = os.path.join(ROOT, "tests", "vectors", game.replace("-", "_"))
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            vector = json.load(f)
        if "errors" not in vector:
            yield name, vector["record"]


def _take_out(record, path):
    import copy

    out = copy.deepcopy(record)
    node = out
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return out


def _present(record, path):
    node = record
    for key in path:
        if (
            isinstance(node, dict)
            and key in node
            or isinstance(node, list)
            and isinstance(key, int)
            and key < len(node)
        ):
            node = node[key]
        else:
            return False
    return True


@pytest.mark.parametrize("game", games.GAMES)
def test_what_the_scorepad_asks_is_what_the_checks_need(game):
    """Every number the face asks, taken out of a good record, makes the core's check complain:
    `fields` and `check` tell the same story (a yes/no or a player has a default: no answer)."""
    face = games.module(game)
    asked = ints = 0
    for name, record in _good_vectors(game):
        for i in [None] + list(range(face.rounds_in(face.MODES[0]))):
            for path, kind, label in face.fields(record, i):
                assert kind in KINDS and isinstance(label, str) and label
                ints += kind == "int"
                if kind == "int" and _present(record, path):
                    asked += 1
                    assert games.check(_take_out(record, path)), (name, path)
    assert asked or not ints


def test_importing_the_registry_loads_no_game():
    code = (
        "import sys; from presstime.core import games, table, events; "
        "print(sorted(m for m in sys.modules if m.startswith('presstime.core.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    loaded = eval(out)
    assert not [
        m for m in loaded if m.rsplit(".", 1)[1] in [g.replace("-", "_") for g in games.GAMES]
    ]


@needs_micropython
def test_a_board_loads_only_the_game_it_plays():
    """Under MicroPython: a Fit to Print game set up and run loads its face and nothing of its
    desktop half (scoring, checks) nor any other game."""
    out = run_micropython(
        "import sys\n"
        "from presstime.core.table import Table\n"
        "t = Table()\n"
        "t.configure({'players': 3, 'game': 'fit-to-print'}, 0)\n"
        "t.status(0)\n"
        "print(sorted([m for m in sys.modules if m.startswith('presstime.core.')]))\n",
        path=FIRMWARE,
    ).stdout
    assert "presstime.core.fit_to_print'" in out
    for other in ("fit_to_print_score", "fit_to_print_check", "heat", "mini_fits", "myth_fits"):
        assert "presstime.core.%s'" % other not in out
