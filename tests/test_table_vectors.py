"""Round-machine vectors (tests/vectors/table/*.json) on CPython and under MicroPython, with
identical results: the same events (byte for byte) and the same final status."""

import glob
import json
import os
import sys

import pytest

from mpy import FIRMWARE, ROOT, needs_micropython, run_micropython

sys.path.insert(0, FIRMWARE)
sys.path.insert(0, os.path.join(ROOT, "tests"))

import table_runner  # noqa: E402

VECTORS = sorted(glob.glob(os.path.join(ROOT, "tests", "vectors", "table", "*.json")))


def test_vectors_exist():
    names = [os.path.basename(p)[:-5] for p in VECTORS]
    for want in (
        "early_all_print",
        "timeout_grace",
        "ties",
        "undo",
        "pause_resume",
        "power_cut",
        "two_step",
        "family",
        "puzzle",
        "solo",
        "turn_based",
        "reveal_heat",
        "reveal_mini_fits",
        "turns_myth_fits",
        "abort",
        "bad_events",
        "bad_events_over",
        "bad_events_turns",
        "bad_events_reveal",
        "score_events",
    ):
        assert want in names


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: os.path.basename(p)[:-5])
def test_vector_cpython(path):
    with open(path) as f:
        r = table_runner.run(json.load(f))
    assert r["errors"] == []


_MP_SCRIPT = """
import sys, os, json
sys.path.insert(0, %r)
import table_runner
d = %r
for n in sorted(n for n in os.listdir(d) if n.endswith(".json")):
    print(json.dumps(table_runner.run_files([d + "/" + n])[0]))
"""


@needs_micropython
def test_vectors_micropython_identical():
    d = os.path.join(ROOT, "tests", "vectors", "table")
    proc = run_micropython(_MP_SCRIPT % (os.path.join(ROOT, "tests"), d), heap="512K")
    mp = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert len(mp) == len(VECTORS)
    for path, got in zip(VECTORS, mp):
        with open(path) as f:
            want = table_runner.run(json.load(f))
        assert got["errors"] == [], got["name"]
        assert got["events"] == want["events"], got["name"]
        assert got["status"] == json.loads(json.dumps(want["status"])), got["name"]
        assert got["score"] == want["score"], got["name"]
