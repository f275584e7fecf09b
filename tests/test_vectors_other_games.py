"""Mini FITS, Heat and Myth Fits vectors, held to stricter terms than tests/test_vectors.py.

test_vectors.py runs every vector folder on CPython and MicroPython and asks that the expected
messages be among those found. Here the messages of a bad record must be exactly the expected
ones, in order (no stray extra problem), whatever order the record's keys come in, and score()
must refuse a record check() rejects.
"""

import json
import os

import pytest

from mpy import ROOT
from presstime.core import games

FOLDERS = ("mini_fits", "heat", "myth_fits")


def _vectors():
    out = []
    for folder in FOLDERS:
        d = os.path.join(ROOT, "tests", "vectors", folder)
        for name in sorted(os.listdir(d)):
            if name.endswith(".json"):
                out.append(os.path.join(d, name))
    return out


def _load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _reversed_keys(value):
    """The same JSON value with every object's keys in reverse order (MicroPython dicts are
    unordered)."""
    if isinstance(value, dict):
        out = {}
        for key in reversed(list(value)):
            out[key] = _reversed_keys(value[key])
        return out
    if isinstance(value, list):
        return [_reversed_keys(v) for v in value]
    return value


@pytest.mark.parametrize(
    "path", _vectors(), ids=lambda p: os.path.relpath(p, os.path.join(ROOT, "tests", "vectors"))
)
def test_vector_exactly(path):
    vector = _load(path)
    assert set(vector) <= {"name", "about", "record", "expect", "errors"}
    assert vector["name"] == os.path.basename(path)[:-5]
    for record in (vector["record"], _reversed_keys(vector["record"])):
        problems = games.check(record)
        if "errors" in vector:
            assert problems == vector["errors"]
            with pytest.raises(ValueError):
                games.score(record)
        else:
            assert problems == []
            result = games.score(record)
            assert json.loads(json.dumps(result)) == result  # plain JSON, nothing else


def test_every_folder_has_good_and_bad_vectors():
    for folder in FOLDERS:
        names = os.listdir(os.path.join(ROOT, "tests", "vectors", folder))
        assert any(n.startswith("bad-") for n in names), folder
        assert any(not n.startswith("bad-") for n in names), folder


@pytest.mark.parametrize("game", ["mini-fits", "heat", "myth-fits"])
def test_example_file_is_good(game):
    record = _load(os.path.join(ROOT, "examples", game + ".json"))
    assert games.check(record) == []
    result = games.score(record)
    assert result["game"] == game and result["winners"]
