"""The one rule for a player's name (core/config.py name_refused and key, the desktop's
door host/presstime/names.py): the shared vectors on CPython and MicroPython, the laws that tie the
entry points together, and the cases issue 22 found where four implementations disagreed."""

import json
import os
import subprocess
import sys
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mpy import FIRMWARE, MICROPYTHON, ROOT, needs_micropython
from presstime import cli, names, records
from presstime.core import config, games
from presstime.core.table import normalise
from presstime.entry import start
from presstime.errors import BadInput
from presstime.games.fit_to_print import ask_setup
from presstime.history.store import Store

RUNNER = os.path.join(ROOT, "tests", "vector_runner.py")
NAMES = os.path.join(ROOT, "tests", "vectors", "names")
with open(os.path.join(NAMES, "rule.json"), encoding="utf-8") as f:
    VECTOR = json.load(f)


def _run(interpreter, extra=()):
    proc = subprocess.run(
        [interpreter] + list(extra) + [RUNNER, FIRMWARE, NAMES],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_name_vectors_on_cpython():
    """Every entry of the board (set-up) and the record checks of every game say what the rule
    says."""
    got = _run(sys.executable)
    for case, out in zip(VECTOR["cases"], got["names"]):
        what = case["about"]
        if case["refused"] is None:
            assert out["rule"] is None and out["setup"] is None, what
            assert all(v == [] for v in out["checks"].values()), (what, out["checks"])
        else:
            assert case["refused"] in out["rule"], (what, out["rule"])
            for game, errors in out["checks"].items():
                assert len(errors) == 1 and case["refused"] in errors[0], (what, game, errors)
            if case["name"]:  # an empty seat at a set-up is the board's "P1" (docs/table.md)
                assert out["setup"] and case["refused"] in out["setup"], (what, out["setup"])
    assert got["same"] == [True] * len(VECTOR["same"])
    assert got["differ"] == [False] * len(VECTOR["differ"])


@pytest.mark.slow
@needs_micropython
def test_micropython_applies_the_very_same_rule():
    assert _run(MICROPYTHON, ["-X", "heapsize=4M"]) == _run(sys.executable)


# --- laws ------------------------------------------------------------------------------------

TEXT = st.text(
    st.characters(codec="utf-8")
    | st.sampled_from(
        [
            "\u202e",
            "\u2028",
            "\u200b",
            "\ufeff",
            "\u00a0",
            "\u0301",
            "e",
            " ",
            "A",
            "a",
            "\ud800",
            "\U0001f600",
        ]
    ),
    max_size=30,
)


def _store_round_trip(tmp_path, players):
    record = {"game": "mini-fits", "players": players, "rounds": []}
    with Store(str(tmp_path / "h.sqlite3")) as store:
        gid = store.add_game(record)
        return [p for p in store.get_game(gid)["players"]]


@pytest.mark.slow
@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(TEXT)
def test_a_name_the_desktop_takes_is_taken_by_the_board_the_checks_and_the_store(tmp_path, text):
    try:
        [name] = names.entered_list([text], "name")
    except BadInput as e:
        # refused by the desktop: then the core refuses what the desktop would send it
        assert config.name_refused(names.typed(text), "name, seat 1", ()) == e.messages[0]
        return
    assert name == unicodedata.normalize("NFC", name) and name == name.strip()
    assert normalise({"players": [name, "\u2603"]})["names"][0] == name
    for game in games.GAMES:
        assert not [
            m
            for m in games.check(
                {"game": game, "players": [name, "\u2603", "\u2602"], "rounds": []}
            )
            if "seat 1" in m or "players[1]" in m
        ]
    assert _store_round_trip(tmp_path, [name, "\u2603"]) == [name, "\u2603"]


@settings(max_examples=200, deadline=None)
@given(TEXT, st.sampled_from(["lower", "upper", "swapcase", "nfd", "spaces"]))
def test_names_that_compare_equal_are_refused_as_twins_everywhere(text, how):
    try:
        [a] = names.entered_list([text], "name")
    except BadInput:
        return
    b = {
        "lower": lambda s: "".join(c.lower() if c < "\x80" else c for c in s),
        "upper": lambda s: "".join(c.upper() if c < "\x80" else c for c in s),
        "swapcase": lambda s: "".join(c.swapcase() if c < "\x80" else c for c in s),
        "nfd": lambda s: unicodedata.normalize("NFD", s),
        "spaces": lambda s: "  " + s + " ",
    }[how](a)
    assert names.same(a, b)
    with pytest.raises(BadInput, match="named twice"):
        names.entered_list([a, b], "--players")
    if how in ("nfd", "spaces"):
        return  # what only the desktop undoes: it hands the board and the checks NFC, stripped
    with pytest.raises(ValueError, match="named twice"):
        normalise({"players": [a, b]})
    for game in games.GAMES:
        assert any(
            "named twice" in m for m in games.check({"game": game, "players": [a, b], "rounds": []})
        )


# --- what issue 22 found ------------------------------------------------------------------------


class Script:
    def __init__(self, answers):
        self.answers = list(answers)
        self.said = []

    def ask(self, prompt):
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def say(self, line=""):
        self.said.append(line)


def test_play_typed_set_up_refuses_a_26_byte_name_the_board_would_refuse():
    s = Script(["standard", "published", "abcdefghijklmnopqrstuvwxyz", "Ada", "Ben", ""])
    record = ask_setup(s.ask, s.say)
    assert record["players"] == ["Ada", "Ben"]
    assert any("longer than 24 bytes" in line for line in s.said)


@pytest.mark.parametrize("setup", ["fit-to-print", "heat"])
def test_enter_refuses_ada_and_ada_as_play_does(setup):
    s = Script(
        ["standard", "published", "Ada", "ada", "Ben", ""]
        if setup == "fit-to-print"
        else ["Ada", "ada", "Ben", "Cy", ""]
    )
    record = start.ask_setup(s.ask, s.say, game=setup)
    assert [p if isinstance(p, str) else p["name"] for p in record["players"]][:2] == ["Ada", "Ben"]
    assert any("ada is named twice (as Ada" in line for line in s.said)


def test_entry_keeps_names_stripped_and_in_nfc():
    s = Script(["Ze\u0301lie ", " Ben", "Cy", ""])
    record = start.ask_setup(s.ask, s.say, game="heat")
    assert record["players"] == ["Z\u00e9lie", "Ben", "Cy"]


@pytest.mark.parametrize("bad", ["\u202eAda", "A\u2028da", "A\u200bda", "Ada\u00a0"])
def test_the_board_refuses_what_docs_faults_says_it_refuses(bad):
    with pytest.raises(ValueError, match="a name cannot hold U\\+"):
        normalise({"players": [bad, "Ben"]})


def test_players_option_takes_the_one_rule():
    from presstime.tableside.play_session import parse_players

    assert parse_players(" Ze\u0301lie , Ben ", None) == ["Z\u00e9lie", "Ben"]
    for text, message in [
        ("Ada,ada", "named twice"),
        ("Ada,B\u200ben", "U\\+200B"),
        ("x" * 25 + ",Ben", "24 bytes"),
        ("Ada,", "cannot be empty"),
        ("\ud800,Ben", "U\\+D800"),
    ]:
        with pytest.raises(BadInput, match=message):
            parse_players(text, None)


def _mini(players, lines):
    return {
        "game": "mini-fits",
        "players": players,
        "rounds": [
            {"players": dict((p, {"lines": lines[i]}) for i, p in enumerate(players))},
            {
                "players": dict(
                    (p, {"lines": lines[i], "colour_sets": 1}) for i, p in enumerate(players)
                )
            },
        ],
    }


@pytest.fixture
def history(tmp_path, monkeypatch):
    monkeypatch.setenv("PRESSTIME_DB", str(tmp_path / "h.sqlite3"))
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path


def _import(tmp_path, recs, capsys):
    path = tmp_path / "games.json"
    path.write_text(json.dumps(recs, ensure_ascii=False), encoding="utf-8")
    assert cli.main(["import", str(path)]) == 0
    capsys.readouterr()


def test_stats_counts_one_player_however_the_name_was_cased_or_composed(history, capsys):
    games_ = [
        _mini(["Ada", "Ben"], [3, 1]),
        _mini(["ada", "BEN"], [2, 1]),
        _mini(["Ze\u0301lie", "Ben"], [1, 2]),
        _mini(["Z\u00e9lie", "Ben"], [2, 2]),
    ]
    problems = [records.check_record(g) for g in games_]
    assert problems == [[], [], [], []], problems
    _import(history, games_, capsys)
    assert cli.main(["stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    rows = stats["games"]["mini-fits"]["players"]
    assert sorted(rows) == ["Ada", "BEN", "Z\u00e9lie"] or sorted(rows) == [
        "Ada",
        "Ben",
        "Z\u00e9lie",
    ]
    assert [rows[n]["games"] for n in sorted(rows)] == [2, 4, 2]
    assert sorted(stats["overall"]) == sorted(rows)


def test_stats_vs_and_player_ignore_case_alike(history, capsys):
    _import(history, [_mini(["Ada", "Ben"], [3, 1]), _mini(["Ada", "Ben"], [1, 3])], capsys)
    assert cli.main(["stats", "--vs", "ada", "ben ", "--json"]) == 0
    h2h = json.loads(capsys.readouterr().out)["head_to_head"]
    assert h2h["games"]["mini-fits"]["games"] == 2
    assert cli.main(["stats", "--player", "ADA", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"]["mini-fits"]["players"]["Ada"]["games"] == 2
