"""`presstime score`: the table, --json, and bad input with exit status 2 and no traceback."""

import json
import os

from helpers import presstime_process
from mpy import ROOT

EXAMPLE = os.path.join(ROOT, "examples", "fit-to-print.json")


def test_table_shows_rounds_categories_totals_and_winner():
    out = presstime_process("score", EXAMPLE)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for needle in (
        "Round 1: Friday",
        "Round 3: Sunday",
        "white space",
        "mood",
        "TOTAL",
        "ad revenue $",
        "out of business",
        "Winner: Ada",
    ):
        assert needle in text


def test_json_contract():
    out = presstime_process("score", EXAMPLE, "--json")
    assert out.returncode == 0
    doc = json.loads(out.stdout)
    assert [p["name"] for p in doc["players"]] == ["Ada", "Ben", "Cy"]
    assert doc["complete"] is True and doc["winners"] == ["Ada"] and doc["incomplete"] is False
    ada = doc["players"][0]
    assert (ada["total"], ada["ad_revenue"], ada["out_of_business"]) == (52, 12, False)
    assert [r["score"] for r in ada["rounds"]] == [14, 19, 19]
    assert doc["players"][2]["out_of_business"] is True
    for key in (
        "articles",
        "photos",
        "centerpiece",
        "white_space",
        "mood",
        "unplaced",
        "ad_revenue",
    ):
        assert key in ada["rounds"][0]


def _bad(tmp_path, text):
    path = tmp_path / "game.json"
    path.write_text(text)
    out = presstime_process("score", str(path))
    assert out.returncode == 2, out.stdout + out.stderr
    assert "Traceback" not in out.stderr
    return out.stderr


def test_not_json(tmp_path):
    err = _bad(tmp_path, '{"players": ["A",\n  "B" "C"]}')
    assert "not valid JSON" in err and "line 2" in err


def test_one_message_per_problem(tmp_path):
    record = {
        "players": ["Ada", "Ben"],
        "rounds": [
            {
                "finish": ["Ada", "Ada"],
                "players": {
                    "Ada": {
                        "articles": 8,
                        "photos": -1,
                        "centerpiece": 2,
                        "white_space": 4,
                        "smiles": 3,
                        "frowns": 5,
                        "unplaced": 2,
                    },
                    "Ben": {
                        "articles": 6,
                        "photos": 2,
                        "centerpiece": 1,
                        "white_space": 7,
                        "smiles": 2,
                        "frowns": 2,
                        "unplaced": 0,
                        "ads": 4,
                    },
                    "Zed": {},
                },
            }
        ],
    }
    lines = _bad(tmp_path, json.dumps(record)).strip().splitlines()
    assert any("round 1, player Ada, photos: must not be negative" in line for line in lines)
    assert any("round 1, player Ada, ads: missing" in line for line in lines)
    assert any("unknown player 'Zed'" in line for line in lines)
    assert any("token 2: Ada already has token 1" in line for line in lines)
    assert len(lines) == 4


def test_missing_file_and_unknown_game(tmp_path):
    out = presstime_process("score", str(tmp_path / "nope.json"))
    assert out.returncode == 2 and "no such file" in out.stderr
    assert "unknown game 'chess'" in _bad(tmp_path, '{"game": "chess"}')


def test_several_files_each_scored_and_a_bad_one_named(tmp_path):
    heat = os.path.join(ROOT, "examples", "heat.json")
    out = presstime_process("score", EXAMPLE, heat)
    assert out.returncode == 0, out.stderr
    assert "== %s ==" % EXAMPLE in out.stdout and "== %s ==" % heat in out.stdout
    assert "Winner: Ada" in out.stdout
    doc = json.loads(presstime_process("score", EXAMPLE, heat, "--json").stdout)
    assert [d["file"] for d in doc] == [EXAMPLE, heat]
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "chess"}')
    out = presstime_process("score", EXAMPLE, str(bad))
    assert out.returncode == 2 and "Winner: Ada" in out.stdout
    assert (
        "unknown game 'chess'" in out.stderr
        and str(bad) in out.stderr
        and "Traceback" not in out.stderr
    )


def test_show_names_each_rounds_breaking_news_card(capsys):
    from presstime import cli

    assert cli.main(["score", "examples/fit-to-print.json"]) == 0
    out = capsys.readouterr().out
    day2 = out.split("Round 2: Saturday")[1].split("Round 3")[0]
    assert "Breaking News: the most tiles on the front page gain $4" in day2
    assert "Breaking News: the mood penalty is doubled" in out.split("Round 3: Sunday")[1]
    assert "Breaking News" not in out.split("Round 2")[0]  # Friday had no card
