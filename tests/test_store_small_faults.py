"""Small holes between `score`, `export` and `import`: a lone surrogate, a number beyond what the
history can hold, a CSV cell over 128 KB (issue 22, item 7)."""

import json
import os

import pytest

from helpers import example
from presstime import cli
from presstime.core.record_checks import MAX_WHOLE

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _write(tmp_path, text):
    path = tmp_path / "g.json"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("command", ["score", "import"])
def test_a_lone_surrogate_is_refused_by_score_and_import(tmp_path, capsys, command):
    text = json.dumps(example("heat")).replace('"Ada"', '"Ada\\ud800"')
    assert "\\ud800" in text
    argv = [command, _write(tmp_path, text)] + (
        ["--db", str(tmp_path / "h.db")] if command == "import" else []
    )
    assert cli.main(argv) == 2
    assert 'holds a lone surrogate "\\ud800", which is not a character' in capsys.readouterr().err


def _with_money(value):
    record = example("heat")
    name = sorted(record["final"])[0]
    record["final"][name]["money"] = value
    return record


@pytest.mark.parametrize("command", ["score", "import"])
def test_one_bound_for_numbers_without_a_rule_in_score_and_import(tmp_path, capsys, command):
    db = ["--db", str(tmp_path / "h.db")] if command == "import" else []
    assert cli.main([command, _write(tmp_path, json.dumps(_with_money(MAX_WHOLE)))] + db) == 0
    capsys.readouterr()
    assert cli.main([command, _write(tmp_path, json.dumps(_with_money(2**63)))] + db) == 2
    assert (
        "field money: must be at most %d (got %d)" % (MAX_WHOLE, 2**63) in capsys.readouterr().err
    )


def test_board_times_beyond_the_bound_are_refused_by_score_and_import(tmp_path, capsys):
    with open(
        os.path.join(ROOT, "tests", "vectors", "fit_to_print", "board-table-kept.json"),
        encoding="utf-8",
    ) as f:
        record = json.load(f)["record"]
    record["rounds"][0]["table"]["print_ms"]["A"] = 2**64
    path = _write(tmp_path, json.dumps(record))
    for argv in (["score", path], ["import", path, "--db", str(tmp_path / "h.db")]):
        assert cli.main(argv) == 2
        assert "print_ms, player A: must be at most" in capsys.readouterr().err


def test_a_cell_over_128_kb_exports_and_imports_again(tmp_path, capsys):
    db, other, out = str(tmp_path / "h.db"), str(tmp_path / "o.db"), str(tmp_path / "all.csv")
    record = dict(example("heat"), notes="n" * 200000)
    assert cli.main(["import", _write(tmp_path, json.dumps(record)), "--db", db]) == 0
    assert cli.main(["export", "-o", out, "--db", db]) == 0
    assert cli.main(["import", out, "--db", other]) == 0
    assert "1 game added" in capsys.readouterr().out
