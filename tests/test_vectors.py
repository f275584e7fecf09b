"""The shared scoring vectors: hand-worked expectations, on CPython and under MicroPython.

A vector is {"name", "about", "record", "expect"} (a subset of the result that must match) or
{..., "errors": [...]} (messages that must be among the problems found). Every subfolder of
tests/vectors/ that holds scoring vectors is run.
"""

import json
import os
import subprocess
import sys

import pytest

from mpy import FIRMWARE, MICROPYTHON, ROOT, needs_micropython
from presstime.core.games import GAMES

VECTORS = os.path.join(ROOT, "tests", "vectors")
RUNNER = os.path.join(ROOT, "tests", "vector_runner.py")
SCORING = [g.replace("-", "_") for g in GAMES]  # every game's folder, as its file is named
FOLDERS = [os.path.join(VECTORS, d) for d in SCORING if os.path.isdir(os.path.join(VECTORS, d))]


def _vectors():
    out = []
    for folder in FOLDERS:
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json"):
                out.append(os.path.join(folder, name))
    return out


def _run(interpreter, extra=()):
    proc = subprocess.run(
        [interpreter] + list(extra) + [RUNNER, FIRMWARE] + FOLDERS,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    return {
        os.path.relpath(json.loads(line)["file"], ROOT): json.loads(line)
        for line in proc.stdout.splitlines()
    }


_CPYTHON = {}


def cpython_results():
    if not _CPYTHON:
        _CPYTHON.update(_run(sys.executable))
    return _CPYTHON


def matches(expect, got, where="result"):
    """Assert that `got` contains `expect`: dict keys recursively, lists element by element."""
    if isinstance(expect, dict):
        assert isinstance(got, dict), "%s: expected an object, got %r" % (where, got)
        for key in expect:
            assert key in got, "%s: missing %r" % (where, key)
            matches(expect[key], got[key], "%s.%s" % (where, key))
    elif isinstance(expect, list) and expect and isinstance(expect[0], dict):
        assert isinstance(got, list) and len(got) == len(expect), "%s: %r" % (where, got)
        for i in range(len(expect)):
            matches(expect[i], got[i], "%s[%d]" % (where, i))
    else:
        assert expect == got, "%s: expected %r, got %r" % (where, expect, got)


@pytest.mark.parametrize("path", _vectors(), ids=lambda p: os.path.relpath(p, VECTORS))
def test_vector(path):
    with open(path) as f:
        vector = json.load(f)
    got = cpython_results()[os.path.relpath(path, ROOT)]
    if "errors" in vector:
        assert got["result"] is None, "expected problems, the record was accepted"
        for message in vector["errors"]:
            assert any(message in e for e in got["errors"]), "%r not in %r" % (
                message,
                got["errors"],
            )
    else:
        assert got["errors"] == [], got["errors"]
        matches(vector["expect"], got["result"])


@needs_micropython
def test_micropython_gives_identical_results():
    """The very same core files, under the real MicroPython unix port, in a small heap."""
    mp = _run(MICROPYTHON, ["-X", "heapsize=256K"])
    cp = cpython_results()
    assert sorted(mp) == sorted(cp)
    for key in cp:
        assert mp[key] == cp[key], key
