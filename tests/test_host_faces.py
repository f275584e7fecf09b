"""Every game has a desktop face beside its core face (host/presstime/games/, found through the
core's one list), and no other desktop module names a game: its name and its title are said by
its faces only, so adding a game is its core face, its host face and its vectors."""

import ast
import os

import pytest

from mpy import ROOT
from presstime import games
from presstime.core import games as core_games

HOST = os.path.join(ROOT, "host", "presstime")
FACES = os.path.join(HOST, "games")

# the desktop face's names, as host/presstime/games/__init__.py's docstring lists them
FACE = (
    "GAME",
    "SCORE_UNIT",
    "ROUND_WORDS",
    "ROUND_FIELDS",
    "GAME_FIELDS",
    "POINT_CATEGORIES",
    "LEADERS",
    "STATS_COLUMNS",
    "RECORD_MODES",
    "RECORD_WORDS",
    "ROUND_SETUP",
    "SCOREPAD_LINES",
    "BOARD_COUNTED",
    "ENTRY_STYLE",
    "BGG",
    "BG_STATS_NAME",
    "DEMO_ANSWERS",
    "DEMO_SETUP",
    "CHART_SKIPS",
    "BOARD_ENDS",
    "MONEY",
    "OUT",
    "ENTRY_WORDS",
    "title_notes",
    "played",
    "decided_by",
    "standings_text",
    "card_columns",
    "board_record",
    "record_facts",
    "rounds_played",
    "mode_scores",
    "counted",
    "play_mode",
    "answered",
    "entered",
    "set_up",
    "ask_setup",
    "play_options",
    "play_setup",
    "play_config",
)


def test_the_face_list_is_the_docstring():
    listed = [
        line.split()[0]
        for line in games.__doc__.splitlines()
        if line.startswith("    ") and line[4:5].strip()
    ]
    assert sorted(n.split("(")[0] for n in listed) == sorted(FACE)


@pytest.mark.parametrize("game", core_games.GAMES)
def test_every_game_has_a_desktop_face(game):
    face = games.face(game)
    assert face is not None and face.GAME == game
    assert [n for n in FACE if not hasattr(face, n)] == []
    assert os.path.dirname(face.__file__) == FACES
    assert face.SCORE_UNIT and len(face.ROUND_WORDS) == 2
    for key, label, unit in face.ROUND_FIELDS + face.GAME_FIELDS:
        assert key and label and unit
    for key, _title, _how, best in face.LEADERS:
        assert best in ("most", "least") and key in [k for k, _, _ in face.ROUND_FIELDS]
    assert set(face.POINT_CATEGORIES) <= set(k for k, _, _ in face.ROUND_FIELDS)
    assert all(set(m) <= set(core_games.module(game).MODES) for m in [face.RECORD_MODES])


def test_unknown_games_have_no_face():
    assert games.face("chess") is None and games.face(None) is None


def _names():
    """Each game's name and title, as a literal may spell them."""
    out = set()
    for game in core_games.GAMES:
        out.update((game, core_games.module(game).TITLE))
    return out


def _named(text, names):
    """The game named by a string: it is a name or a title, or holds one in quotes (SQL)."""
    for name in names:
        if text == name or "'%s'" % name in text or '"%s"' % name in text:
            return name
    return None


def _literals(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    docs = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            docs.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node.lineno, node.value


def host_strings():
    """(file, line, text) of every string in host/ outside the faces (docstrings aside)."""
    for top, _dirs, files in os.walk(os.path.join(ROOT, "host")):
        if os.path.abspath(top).startswith(FACES):
            continue
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(top, name)
                for line, text in _literals(path):
                    yield os.path.relpath(path, ROOT), line, text


def host_literals():
    """(file, line, game) of every string in host/ outside the faces that names a game."""
    names = _names()
    found = []
    for path, line, text in host_strings():
        game = _named(text, names)
        if game:
            found.append((path, line, game))
    return found


def test_no_desktop_module_outside_the_faces_names_a_game():
    assert host_literals() == []


def test_the_check_finds_a_named_game(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(
        '"""Heat, in a docstring, is words."""\nA = "heat"\nB = "SELECT 1 WHERE game = '
        "'mini-fits'\"\n"
        'C = "Myth Fits"\nD = "the heat value"\n'
    )
    assert [
        (line, _named(text, _names()))
        for line, text in _literals(str(path))
        if _named(text, _names())
    ] == [(2, "heat"), (3, "mini-fits"), (4, "Myth Fits")]


# A game's own record and result fields: said by its faces (MONEY, OUT, STATS_COLUMNS,
# BOARD_COUNTED, SCOREPAD_LINES, POINT_CATEGORIES, the core's `fields`...), never spelled by
# another desktop module. A field written with an underscore is named wherever a string holds
# it (a key, SQL, "white_space_area"); one that is a plain word only by a string that is that
# word (a key), since the word is also prose ("nobody gathered ...").
FIELDS = (
    "ad_revenue",
    "out_of_business",
    "photo_tokens",
    "heat_value",
    "arrested",
    "gathered",
    "white_space",
    "articles",
    "smiles",
)
STILL_NAMED = {
    # its schema names Fit to Print's ad_revenue and out_of_business as the columns of the one
    # money and the one out-of-the-game flag the history keeps per player, in histories already
    # on disk (a rename is a migration and a new schema digest); the others read
    # store.MONEY_COLUMN/OUT_COLUMN.
    "host/presstime/history/store.py",
}


def _names_field(text, field):
    return field in text if "_" in field else text == field


def host_field_literals():
    """{file: [(line, field)]} of every string in host/ outside the faces naming a field."""
    found = {}
    for path, line, text in host_strings():
        for field in FIELDS:
            if _names_field(text, field):
                found.setdefault(path, []).append((line, field))
    return found


def test_no_desktop_module_outside_the_faces_names_a_games_fields():
    found = host_field_literals()
    assert sorted(set(found) - STILL_NAMED) == []
    assert sorted(STILL_NAMED - set(found)) == []  # one that no longer names them leaves the list


def test_the_field_check_finds_a_named_field(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(
        '"""photo_tokens, in a docstring, is words."""\nA = "photo_tokens"\nB = "arrested"\n'
        'C = "everybody arrested?"\nD = "white_space_area"\n'
    )
    assert [
        (line, field)
        for line, text in _literals(str(path))
        for field in FIELDS
        if _names_field(text, field)
    ] == [(2, "photo_tokens"), (3, "arrested"), (5, "white_space")]
