"""`presstime score` on Mini FITS, Heat and Myth Fits records: table, --json, bad input (exit 2)."""

import json

import pytest

from helpers import example_path, presstime_process


def test_mini_fits_json():
    out = presstime_process("score", example_path("mini-fits"), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["game"] == "mini-fits" and doc["complete"] is True
    # Ada 7 + (8 + 3*2) = 21, Ben 5 + (9 + 3*3) = 23, Cy 8 + (6 + 3*2) = 20
    assert [(p["name"], p["total"]) for p in doc["players"]] == [
        ("Ada", 21),
        ("Ben", 23),
        ("Cy", 20),
    ]
    assert doc["players"][1]["rounds"] == [
        {"lines": 5, "colour_sets": 0, "score": 5},
        {"lines": 9, "colour_sets": 3, "score": 18},
    ]
    assert doc["winners"] == ["Ben"]


def test_mini_fits_table():
    out = presstime_process("score", example_path("mini-fits"))
    assert out.returncode == 0, out.stderr
    for needle in ("Mini FITS", "round 1", "round 2", "TOTAL", "Winner: Ben"):
        assert needle in out.stdout


def test_mini_fits_solo_rating(tmp_path):
    path = tmp_path / "solo.json"
    path.write_text(
        json.dumps(
            {
                "game": "mini-fits",
                "players": ["Ada"],
                "rounds": [
                    {"players": {"Ada": {"lines": 6}}},
                    {"players": {"Ada": {"lines": 5, "colour_sets": 1}}},
                ],
            }
        )
    )
    doc = json.loads(presstime_process("score", str(path), "--json").stdout)
    assert doc["players"][0]["total"] == 14 and doc["players"][0]["rating"] == "Pro-fits"
    assert doc["winners"] == []
    text = presstime_process("score", str(path)).stdout
    assert "Pro-fits" in text


def test_heat_json_and_table():
    out = presstime_process("score", example_path("heat"), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    # 40-9 = 31 (heat 3), 37-6 = 31 (heat 2), 45-15 = 30, 28-0 = 28: Ben wins the tie on heat
    assert [(p["name"], p["total"], p["paid"]) for p in doc["players"]] == [
        ("Ada", 31, 9),
        ("Ben", 31, 6),
        ("Cy", 30, 15),
        ("Dee", 28, 0),
    ]
    assert doc["winners"] == ["Ben"] and doc["complete"] is True and doc["arrested"] is False
    text = presstime_process("score", example_path("heat")).stdout
    for needle in ("Heat", "heat value: $3", "money", "paid", "TOTAL", "Winner: Ben"):
        assert needle in text


def test_heat_arrested_table(tmp_path):
    path = tmp_path / "arrested.json"
    path.write_text(json.dumps({"game": "heat", "players": ["Ada", "Ben", "Cy"], "arrested": True}))
    out = presstime_process("score", str(path))
    assert out.returncode == 0, out.stderr
    assert "No winner" in out.stdout and "arrested" in out.stdout


def test_myth_fits_json_and_table():
    out = presstime_process("score", example_path("myth-fits"), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["winners"] == ["Ben"] and doc["won_by"] == "photos"
    assert (doc["grid"], doc["photographers"], doc["target"]) == ("6x4", 3, 4)
    assert [p["total"] for p in doc["players"]] == [2, 4, 1]
    text = presstime_process("score", example_path("myth-fits")).stdout
    for needle in (
        "Myth Fits",
        "grid: 6x4",
        "photographers: 3",
        "photo tokens to win: 4",
        "Winner: Ben",
    ):
        assert needle in text


def test_myth_fits_nobody_yet(tmp_path):
    path = tmp_path / "myth.json"
    path.write_text(
        json.dumps({"game": "myth-fits", "players": ["Ada", "Ben"], "photo_tokens": {"Ada": 2}})
    )
    out = presstime_process("score", str(path), "--json")
    doc = json.loads(out.stdout)
    assert out.returncode == 0 and doc["winners"] == [] and doc["complete"] is False
    assert "No winner" in presstime_process("score", str(path)).stdout


BAD = [
    (
        {
            "game": "mini-fits",
            "players": ["Ada", "Ben"],
            "rounds": [
                {"players": {"Ada": {"lines": 7}, "Ben": {"lines": 5}}},
                {
                    "players": {
                        "Ada": {"lines": 12, "colour_sets": 2},
                        "Ben": {"lines": 9, "colour_sets": 3},
                    }
                },
            ],
        },
        ["round 2, player Ada, field lines: must be 0 to 10 (got 12)"],
    ),
    (
        {
            "game": "heat",
            "heat_value": 3,
            "players": ["Ada", "Ben", "Cy"],
            "final": {
                "Ada": {"money": 40, "heat": 3},
                "Ben": {"money": 37, "heat": 2},
                "Cy": {"money": 31, "heat": 0},
                "Zed": {"money": 1, "heat": 0},
            },
        },
        ["final, player Zed: not in players"],
    ),
    (
        {
            "game": "heat",
            "heat_value": 3,
            "players": ["Ada", "Ben"],
            "final": {"Ada": {"money": -1, "heat": 3}, "Ben": {"money": 37, "heat": 2}},
        },
        [
            "players: Heat takes 3 to 5 players (got 2)",
            "final, player Ada, field money: must not be negative (got -1)",
        ],
    ),
    (
        {
            "game": "myth-fits",
            "players": ["Ada", "Ben"],
            "photo_tokens": {"Ada": 3, "Ben": 3},
            "gathered": "Cy",
        },
        [
            "photo_tokens: Ada and Ben each hold the target 3, but the game ends when the first "
            "reaches it",
            "gathered: Cy is not in players",
        ],
    ),
]


@pytest.mark.parametrize(
    "record,messages", BAD, ids=["mini-fits", "heat-player", "heat-two", "myth-fits"]
)
def test_bad_input_exit_2_one_message_per_problem(tmp_path, record, messages):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    for extra in ([], ["--json"]):
        out = presstime_process("score", str(path), *extra)
        assert out.returncode == 2, out.stdout + out.stderr
        assert "Traceback" not in out.stderr and out.stdout == ""
        lines = out.stderr.strip().splitlines()
        assert len(lines) == len(messages)
        for line, message in zip(lines, messages):
            assert line.endswith(message) and str(path) in line
